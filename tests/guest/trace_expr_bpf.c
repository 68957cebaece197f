// SPDX-License-Identifier: GPL-2.0
/*
 * The oracle we did not write: bpftrace's hist() of ktarget_value()'s
 * second argument, and its count under the predicate arg1 > 1000, on the
 * same calls as kstats' value and predicate traces (each mechanism, beside
 * each other). At frac_bits 0 kstats' slots are bpftrace's buckets: every
 * count must be equal, bpftrace's negative bucket against NEG-NAME's
 * samples. Debian 12's bpftrace (0.17) puts every value of 2^31 and more
 * in its top bucket [2G, 4G), so the calls stay below 2^30. The same at a
 * point: the target's event ktarget_value_start(o, v), emitted before each
 * call, against bpftrace's tracepoint on it (its record's v).
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>

#include "trace_expr.h"

static const char bpf_prog_tp[] =
	"BEGIN { printf(\"begin\\n\"); } "
	"tracepoint:kstats_target:ktarget_value_start { @h = hist(args->v); "
	"if (args->v > 1000) { @p = count(); } "
	"if (@first == 0) { @first = 1; printf(\"attached\\n\"); } } "
	"kprobe:ktarget_sleep { exit(); }";

static const char bpf_prog[] =
	"BEGIN { printf(\"begin\\n\"); } "
	"kprobe:ktarget_value { @h = hist((int64)arg1); "
	"if ((int64)arg1 > 1000) { @p = count(); } "
	"if (@first == 0) { @first = 1; printf(\"attached\\n\"); } } "
	"kprobe:ktarget_sleep { exit(); }";

/* What bpftrace printed, or saw in the warm-up calls. */
struct bpf_hist {
	uint64_t slots[KSTATS_SLOTS_MAX];	/* at frac_bits 0 */
	uint64_t neg, pred;
	int in_hist;
};

static void bpf_add(struct bpf_hist *b, int64_t v)
{
	if (v < 0)
		b->neg++;
	else
		expect_add(b->slots, 0, v);
	b->pred += v > 1000;
}

/* "[4K, 8K)   12 |@@ |" and the like: the bucket's lower bound, its count. */
static void bpf_line(const char *line, void *arg)
{
	static const char units[] = "KMGTPE";
	struct bpf_hist *b = arg;
	unsigned long long n = 0, low;
	const char *u, *close;
	char *end;

	if (!strncmp(line, "@h:", 3)) {
		b->in_hist = 1;
	} else if (sscanf(line, "@p: %llu", &n) == 1) {
		b->pred = n;
		b->in_hist = 0;
	} else if (!b->in_hist || !*line || *line == '@') {
		b->in_hist = 0;
	} else if (!strncmp(line, "(..., 0)", 8) && sscanf(line + 8, "%llu", &n) == 1) {
		b->neg += n;
	} else if (*line == '[') {
		low = strtoull(line + 1, &end, 10);
		u = *end ? strchr(units, *end) : NULL;
		if (u)
			low <<= 10 * (u - units + 1);
		close = strpbrk(line, "])");
		if (close && sscanf(close + 1, "%llu", &n) == 1)
			b->slots[kstats_hist_slot(low, 0)] += n;
	}
}

struct bpf_trace {
	const char *name;
	uint32_t mech;
	int pred;	/* the predicate alone (at a point: with the value), else the value */
};

/* TRACE of the point ktarget_value_start with @x, every hit recorded. */
static int tp_xtrace(const char *name, const struct kstats_expr *x)
{
	struct kstats_trace t = {
		.func = (uintptr_t)"tp:kstats_target:ktarget_value_start",
		.mechanism = KSTATS_MECH_TRACEPOINT, .sample_every = 1, .expr = (uintptr_t)x,
	};

	strncpy((char *)t.name, name, sizeof(t.name) - 1);
	return ioctl(fd, KSTATS_IOC_TRACE, &t) ? errno : 0;
}

static void compare(const struct bpf_trace *t, const struct bpf_hist *b,
		    const struct bpf_hist *warm, int n)
{
	static uint64_t want[KSTATS_SLOTS_MAX];
	char neg[KSTATS_NAME_LEN + 8];
	uint64_t tp = 0, tn = 0;
	struct hist h;
	int s, same;

	if (t->pred) {
		snap(t->name, &h);
		ok(h.sn.hits == b->pred - warm->pred && h.sn.rejected == n - h.sn.hits,
		   "%s: arg1 > 1000: kstats recorded %llu and rejected %llu of %d calls, "
		   "bpftrace counted %llu", t->name, (unsigned long long)h.sn.hits,
		   (unsigned long long)h.sn.rejected, n,
		   (unsigned long long)(b->pred - warm->pred));
		return;
	}
	for (s = 0; s < KSTATS_SLOTS_MAX; s++)
		want[s] = b->slots[s] - warm->slots[s];
	snprintf(neg, sizeof(neg), "NEG-%s", t->name);
	same = slots_equal(t->name, want, &tp);
	tn = snap(neg, &h) ? ~0ULL : h.total;
	ok(same && tn == b->neg - warm->neg && tp + tn == (uint64_t)n,
	   "%s: hist(arg1) slot by slot as bpftrace's (%llu samples), negatives %llu "
	   "as bpftrace's (..., 0) %llu", t->name, (unsigned long long)tp,
	   (unsigned long long)tn, (unsigned long long)(b->neg - warm->neg));
}

/* bpftrace's @prog beside kstats' @nr @traces on the same calls, then compared. */
static void bpf_run(const char *prog, const struct bpf_trace *traces, int nr)
{
	static struct bpf_hist b, warm;
	static struct kv_call c[MAX_VALUE_CALLS];
	int i, n, begun, attached = 0, traced = 1, clean;
	struct kstats_expr x = { 0 };
	unsigned int warmed = 0;
	char cmd[64];
	struct peer pr;

	memset(&b, 0, sizeof(b));
	memset(&warm, 0, sizeof(warm));
	if (!ok(peer_start(&pr, prog), "hist(arg1): bpftrace started"))
		return;
	begun = peer_expect(&pr, "begin", BPF_START_S);
	while (begun && !attached && warmed < 1000) {
		snprintf(cmd, sizeof(cmd), "values 1 %u 31", 7 + warmed++);
		target(cmd);
		if (read_values(c, 1) == 1)
			bpf_add(&warm, c[0].arg);
		attached = peer_expect(&pr, "attached", 1);
	}
	for (i = 0; i < nr && attached; i++) {
		x = (struct kstats_expr){ 0 };
		if (traces[i].pred) {
			x.nr_terms = 1;
			x.terms[0] = (struct kstats_term){
				.operand = operand(KSTATS_OPERAND_ARG, 1, 8, 1),
				.cmp = KSTATS_CMP_GT, .constant = 1000 };
		}
		if (!traces[i].pred || traces[i].mech == KSTATS_MECH_TRACEPOINT) {
			x.flags = KSTATS_EXPR_VALUE;
			x.value = operand(KSTATS_OPERAND_ARG, 1, 8, 1);
		}
		traced &= (traces[i].mech == KSTATS_MECH_TRACEPOINT ?
			   tp_xtrace(traces[i].name, &x) :
			   xtrace(traces[i].name, traces[i].mech, 0, &x, 0)) == 0;
	}
	if (!ok(attached && traced, "hist(arg1): bpftrace's probe counting (after %u warm-up "
		"calls), and kstats' %d traces attached", warmed, nr)) {
		kill(pr.pid, SIGKILL);
		peer_finish(&pr, bpf_line, &b, 1);
		for (i = 0; i < nr; i++)
			untrace(traces[i].name);
		return;
	}
	target("values 2048 99 31");
	n = read_values(c, MAX_VALUE_CALLS);
	target("sleep 1 1");	/* bpftrace's exit() */
	clean = peer_finish(&pr, bpf_line, &b, BPF_STOP_S);
	ok(clean, "hist(arg1): bpftrace exited by itself");
	for (i = 0; i < nr; i++) {
		compare(&traces[i], &b, &warm, n);
		untrace(traces[i].name);
	}
}

void test_expr_bpftrace(int have_fprobe, int supported)
{
	static const struct bpf_trace traces[] = {
		{ "t.bv.kr", KSTATS_MECH_KRETPROBE, 0 }, { "t.bp.kr", KSTATS_MECH_KRETPROBE, 1 },
		{ "t.bv.fp", KSTATS_MECH_FPROBE, 0 }, { "t.bp.fp", KSTATS_MECH_FPROBE, 1 },
	};

	if (!supported) {
		ok(1, "# SKIP bpftrace's hist(): no KSTATS_FEAT_EXPR");
		return;
	}
	bpf_run(bpf_prog, traces, have_fprobe ? 4 : 2);
}

/* At a point: kstats' v and v > 1000 against bpftrace's tracepoint on the same event. */
void test_expr_bpftrace_tp(int supported)
{
	static const struct bpf_trace traces[] = {
		{ "t.bv.tp", KSTATS_MECH_TRACEPOINT, 0 }, { "t.bp.tp", KSTATS_MECH_TRACEPOINT, 1 },
	};

	if (!supported) {
		ok(1, "# SKIP bpftrace's hist() at a tracepoint: no tracepoint mechanism or expr");
		return;
	}
	bpf_run(bpf_prog_tp, traces, 2);
}

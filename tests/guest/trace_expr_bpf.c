// SPDX-License-Identifier: GPL-2.0
/*
 * The oracle we did not write: bpftrace's hist() of ktarget_value()'s
 * second argument, and its count under the predicate arg1 > 1000, on the
 * same calls as kstats' value and predicate traces (each mechanism, beside
 * each other), at frac_bits k: Debian 12's bpftrace (0.17) hist(n) at 0 on
 * every lane, Debian 13's (0.23, in the 7.x lanes' build root) hist(n, 3)
 * at 3.
 *
 * bpftrace's hist(n, k) is kstats' layout at frac_bits k, one bucket up:
 * its log2() helper (src/ast/passes/codegen_llvm.cpp) puts a negative n in
 * bucket 0, n < 2^k in bucket n + 1 and any other n in
 * ((msb(n) - k + 1) << k) + (the k bits below the leading one) + 1, which
 * is kstats_hist_slot(n, k) + 1. Its text output names bucket i by i - 1
 * when i <= 2^(k+1) (one value each), else by its lower and upper bounds
 * in powers of 1024 (K .. E): a lower bound read back is kstats' slot. So
 * every count must be equal, bpftrace's negative bucket against
 * NEG-NAME's samples.
 * 0.17 looks for the leading one in 32 bits only and puts every value of
 * 2^31 and more in its top bucket [2G, 4G): its calls stay below 2^30.
 * 0.23 looks in all 64 bits (its buckets reach 8E = 2^63): its calls span
 * the whole signed 64-bit range.
 * The same at a point: the target's event ktarget_value_start(o, v),
 * emitted before each call, against bpftrace's tracepoint on it (its
 * record's v), at frac_bits 0; and on the section from it to
 * ktarget_value_done (emitted after each call, in the same thread):
 * bpftrace keeps v per thread at the start and hist()s it at the done.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>

#include "trace_expr.h"

/* Where kstats and bpftrace read the value. */
enum bpf_site {
	BPF_FUNC,	/* ktarget_value()'s arg1 */
	BPF_POINT,	/* the event ktarget_value_start's v */
	BPF_SECTION,	/* the same v, kept per thread until ktarget_value_done */
};

#define BPF_TP_START	"tracepoint:kstats_target:ktarget_value_start"

/*
 * The program for @bits (0.17's hist() has no second argument) at @site:
 * a section keeps the start's v per thread (@v, @in: v may be 0) and
 * counts it at the end, in the thread that started it, as kstats does.
 */
static void bpf_prog(char *prog, size_t size, uint32_t bits, enum bpf_site site)
{
	const char *probe = site == BPF_FUNC ? "kprobe:ktarget_value" : BPF_TP_START;
	const char *v = site == BPF_FUNC ? "(int64)arg1" : site == BPF_POINT ? "args->v" :
			"@v[tid]";
	char hist[48], at[160] = "";

	if (bits)
		snprintf(hist, sizeof(hist), "hist(%s, %u)", v, bits);
	else
		snprintf(hist, sizeof(hist), "hist(%s)", v);
	if (site == BPF_SECTION) {
		snprintf(at, sizeof(at), "%s { @v[tid] = args->v; @in[tid] = 1; } ", BPF_TP_START);
		probe = "tracepoint:kstats_target:ktarget_value_done /@in[tid]/";
	}
	snprintf(prog, size, "BEGIN { printf(\"begin\\n\"); } %s"
		 "%s { @h = %s; "
		 "if (%s > 1000) { @p = count(); } %s"
		 "if (@first == 0) { @first = 1; printf(\"attached\\n\"); } } "
		 "kprobe:ktarget_sleep { exit(); }", at, probe, hist, v,
		 site == BPF_SECTION ? "delete(@v[tid]); delete(@in[tid]); " : "");
}

/* What bpftrace printed, or saw in the warm-up calls. */
struct bpf_hist {
	uint64_t slots[KSTATS_SLOTS_MAX];	/* kstats' slots at frac_bits @bits */
	uint64_t neg, pred;
	uint32_t bits;
	int in_hist;
};

static void bpf_add(struct bpf_hist *b, int64_t v)
{
	if (v < 0)
		b->neg++;
	else
		expect_add(b->slots, b->bits, v);
	b->pred += v > 1000;
}

/*
 * "[4K, 8K)   12 |@@ |", "[9]   3 |@ |" and the like: the bucket's lower
 * bound, its count.
 */
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
			b->slots[kstats_hist_slot(low, b->bits)] += n;
	}
}

struct bpf_trace {
	const char *mech_name;
	uint32_t mech;
	int pred;	/* the predicate alone (at a point: with the value), else the value */
	char name[KSTATS_NAME_LEN];
};

/*
 * TRACE of the point ktarget_value_start, or of the section from it to
 * ktarget_value_done (@site), with @x, every hit recorded.
 */
static int tp_xtrace(const char *name, uint32_t bits, const struct kstats_expr *x,
		     enum bpf_site site)
{
	static const char start[] = "tp:kstats_target:ktarget_value_start";
	struct kstats_trace t = {
		.frac_bits = bits, .mechanism = KSTATS_MECH_TRACEPOINT, .sample_every = 1,
		.expr = (uintptr_t)x,
	};

	if (site == BPF_SECTION) {
		t.start = (uintptr_t)start;
		t.end = (uintptr_t)"tp:kstats_target:ktarget_value_done";
	} else {
		t.func = (uintptr_t)start;
	}
	strncpy((char *)t.name, name, sizeof(t.name) - 1);
	return ioctl(fd, KSTATS_IOC_TRACE, &t) ? errno : 0;
}

/* @what: the value as each side reads it ("arg1", "v", "start.v"). */
static void compare(const struct bpf_trace *t, const struct bpf_hist *b,
		    const struct bpf_hist *warm, int n, const char *what)
{
	static uint64_t want[KSTATS_SLOTS_MAX];
	char neg[KSTATS_NAME_LEN + 8];
	uint64_t tp = 0, tn = 0;
	struct hist h;
	int s, same;

	if (t->pred) {
		snap(t->name, &h);
		ok(h.sn.hits == b->pred - warm->pred && h.sn.rejected == n - h.sn.hits,
		   "%s: %s > 1000: kstats recorded %llu and rejected %llu of %d calls, "
		   "bpftrace counted %llu", t->name, what, (unsigned long long)h.sn.hits,
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
	   "%s: hist(%s, %u) slot by slot as bpftrace's (%llu samples), negatives %llu "
	   "as bpftrace's (..., 0) %llu", t->name, what, b->bits, (unsigned long long)tp,
	   (unsigned long long)tn, (unsigned long long)(b->neg - warm->neg));
}

/*
 * bpftrace (@root's, or the host's if NULL) beside kstats' @nr @traces on
 * the same calls, at @bits and @site, then compared.
 */
static void bpf_run(struct bpf_trace *traces, int nr, uint32_t bits, const char *root,
		    enum bpf_site site)
{
	int tp = site != BPF_FUNC;
	const char *what = site == BPF_FUNC ? "arg1" : site == BPF_POINT ? "v" : "start.v";
	static struct bpf_hist b, warm;
	static struct kv_call c[MAX_VALUE_CALLS];
	static char prog[768];
	int i, n, begun, attached = 0, traced = 1, clean;
	/* Significant bits of the target's arguments: below 2^30 for 0.17, any int64 for 0.23. */
	unsigned int range = root ? 64 : 31;
	struct kstats_expr x = { 0 };
	unsigned int warmed = 0;
	char cmd[64];
	struct peer pr;

	memset(&b, 0, sizeof(b));
	memset(&warm, 0, sizeof(warm));
	b.bits = warm.bits = bits;
	for (i = 0; i < nr; i++)
		snprintf(traces[i].name, sizeof(traces[i].name), "t.b%c%u.%s",
			 traces[i].pred ? 'p' : 'v', bits, traces[i].mech_name);
	bpf_prog(prog, sizeof(prog), bits, site);
	if (!ok(peer_start(&pr, root, prog), "hist(%s, %u): bpftrace%s%s started",
		what, bits, root ? " in " : "", root ? root : ""))
		return;
	begun = peer_expect(&pr, "begin", BPF_START_S);
	while (begun && !attached && warmed < 1000) {
		snprintf(cmd, sizeof(cmd), "values 1 %u %u", 7 + warmed++, range);
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
		/* A point records a value, also under a predicate. */
		if (!traces[i].pred || site == BPF_POINT) {
			x.flags = KSTATS_EXPR_VALUE;
			x.value = operand(KSTATS_OPERAND_ARG, 1, 8, 1);
		}
		traced &= (tp ? tp_xtrace(traces[i].name, bits, &x, site) :
			   xtrace(traces[i].name, traces[i].mech, bits, &x, 0)) == 0;
	}
	if (!ok(attached && traced, "hist(%s, %u): bpftrace's probe counting (after %u "
		"warm-up calls), and kstats' %d traces attached", what, bits,
		warmed, nr)) {
		kill(pr.pid, SIGKILL);
		peer_finish(&pr, bpf_line, &b, 1);
		for (i = 0; i < nr; i++)
			untrace(traces[i].name);
		return;
	}
	snprintf(cmd, sizeof(cmd), "values 2048 99 %u", range);
	target(cmd);
	n = read_values(c, MAX_VALUE_CALLS);
	target("sleep 1 1");	/* bpftrace's exit() */
	clean = peer_finish(&pr, bpf_line, &b, BPF_STOP_S);
	ok(clean, "hist(%s, %u): bpftrace exited by itself", what, bits);
	for (i = 0; i < nr; i++) {
		compare(&traces[i], &b, &warm, n, what);
		untrace(traces[i].name);
	}
}

/*
 * @bits 0: the host's bpftrace (Debian 12's); else the one in @root
 * (Debian 13's), at @bits.
 */
void test_expr_bpftrace(int have_fprobe, int supported, uint32_t bits, const char *root)
{
	struct bpf_trace traces[] = {
		{ "kr", KSTATS_MECH_KRETPROBE, 0, "" }, { "kr", KSTATS_MECH_KRETPROBE, 1, "" },
		{ "fp", KSTATS_MECH_FPROBE, 0, "" }, { "fp", KSTATS_MECH_FPROBE, 1, "" },
	};

	if (!supported) {
		ok(1, "# SKIP bpftrace's hist(arg1, %u): no KSTATS_FEAT_EXPR", bits);
		return;
	}
	bpf_run(traces, have_fprobe ? 4 : 2, bits, root, BPF_FUNC);
}

/*
 * At a point: kstats' v and v > 1000 against bpftrace's tracepoint on the
 * same event; on the section from it to ktarget_value_done: the start's v
 * (--value start.v) and start.v > 1000, against bpftrace's v kept per
 * thread and counted at the done event.
 */
void test_expr_bpftrace_tp(int supported)
{
	struct bpf_trace traces[] = {
		{ "tp", KSTATS_MECH_TRACEPOINT, 0, "" }, { "tp", KSTATS_MECH_TRACEPOINT, 1, "" },
	};
	struct bpf_trace sections[] = {
		{ "ts", KSTATS_MECH_TRACEPOINT, 0, "" }, { "ts", KSTATS_MECH_TRACEPOINT, 1, "" },
	};

	if (!supported) {
		ok(1, "# SKIP bpftrace's hist() at a tracepoint: no tracepoint mechanism or expr");
		return;
	}
	bpf_run(traces, 2, 0, NULL, BPF_POINT);
	bpf_run(sections, 2, 0, NULL, BPF_SECTION);
}

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
 * At the point, kstats also reads the record's v itself (through perf,
 * at the offset tracefs' format gives), which is what bpftrace reads.
 * At frac_bits 0 one bpftrace watches the function, the point and the
 * section at once, beside all of kstats' traces: its start takes 6-11 s
 * under TCG, the calls a fraction of that.
 */
#include <errno.h>
#include <signal.h>
#include <stdarg.h>
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
	BPF_SITES
};

static const char *const bpf_what[BPF_SITES] = { "arg1", "v", "start.v" };

#define BPF_TP_START	"tracepoint:kstats_target:ktarget_value_start"
#define BPF_TP_DONE	"tracepoint:kstats_target:ktarget_value_done"

/* Appends to @prog (of @size) what printf would print. */
static void bpf_cat(char *prog, size_t size, const char *fmt, ...)
{
	size_t len = strlen(prog);
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(prog + len, size - len, fmt, ap);
	va_end(ap);
}

/* Site @s's part of an action: its hist() @hS of @v and its count @pS of v > 1000. */
static void bpf_count(char *prog, size_t size, int s, const char *v, uint32_t bits)
{
	char b[16] = "";

	if (bits)	/* 0.17's hist() has no second argument */
		snprintf(b, sizeof(b), ", %u", bits);
	bpf_cat(prog, size, "@h%d = hist(%s%s); if (%s > 1000) { @p%d = count(); } @a%d = 1; ",
		s, v, b, v, s, s);
}

/*
 * One program for the sites in @sites (a bit each), so that one bpftrace
 * (whose start is the slow part) sees the same calls as every kstats trace:
 * the point's event comes before each call and the done event after it. A
 * section keeps the start's v per thread (@v, @in: v may be 0) and counts
 * it at the end, in the thread that started it, as kstats does. "attached"
 * is printed in the last probe of a call once every site has seen one.
 */
static void bpf_prog(char *prog, size_t size, uint32_t bits, unsigned int sites)
{
	char all[64] = "@first == 0";
	int s;

	for (s = 0; s < BPF_SITES; s++)
		if (sites & (1U << s))
			snprintf(all + strlen(all), sizeof(all) - strlen(all), " && @a%d", s);
	snprintf(prog, size, "BEGIN { printf(\"begin\\n\"); } ");
	if (sites & (1U << BPF_POINT | 1U << BPF_SECTION)) {
		bpf_cat(prog, size, "%s { ", BPF_TP_START);
		if (sites & (1U << BPF_POINT))
			bpf_count(prog, size, BPF_POINT, "args->v", bits);
		if (sites & (1U << BPF_SECTION))
			bpf_cat(prog, size, "@v[tid] = args->v; @in[tid] = 1; ");
		bpf_cat(prog, size, "} ");
	}
	if (sites & (1U << BPF_FUNC)) {
		bpf_cat(prog, size, "kprobe:ktarget_value { ");
		bpf_count(prog, size, BPF_FUNC, "(int64)arg1", bits);
		if (!(sites & (1U << BPF_SECTION)))
			bpf_cat(prog, size, "if (%s) { @first = 1; printf(\"attached\\n\"); } ", all);
		bpf_cat(prog, size, "} ");
	}
	if (sites & (1U << BPF_SECTION)) {
		bpf_cat(prog, size, "%s /@in[tid]/ { ", BPF_TP_DONE);
		bpf_count(prog, size, BPF_SECTION, "@v[tid]", bits);
		bpf_cat(prog, size, "delete(@v[tid]); delete(@in[tid]); "
			"if (%s) { @first = 1; printf(\"attached\\n\"); } } ", all);
	}
	bpf_cat(prog, size, "kprobe:ktarget_sleep { exit(); }");
}

/* What bpftrace printed, or saw in the warm-up calls, at one site. */
struct bpf_hist {
	uint64_t slots[KSTATS_SLOTS_MAX];	/* kstats' slots at frac_bits @bits */
	uint64_t neg, pred;
	uint32_t bits;
};

/* What bpftrace printed at every site, and which @hS its output is in. */
struct bpf_out {
	struct bpf_hist site[BPF_SITES];
	int in_hist;	/* -1: none */
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
 * "@h1:", then "[4K, 8K)   12 |@@ |", "[9]   3 |@ |" and the like: the
 * bucket's lower bound, its count; "@p1: 12".
 */
static void bpf_line(const char *line, void *arg)
{
	static const char units[] = "KMGTPE";
	struct bpf_out *o = arg;
	struct bpf_hist *b = o->in_hist >= 0 ? &o->site[o->in_hist] : NULL;
	unsigned long long n = 0, low;
	const char *u, *close;
	char *end;
	int s;

	if (sscanf(line, "@h%d:", &s) == 1 && s >= 0 && s < BPF_SITES) {
		o->in_hist = s;
	} else if (sscanf(line, "@p%d: %llu", &s, &n) == 2 && s >= 0 && s < BPF_SITES) {
		o->site[s].pred = n;
		o->in_hist = -1;
	} else if (!b || !*line || *line == '@') {
		o->in_hist = -1;
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
	enum bpf_site site;
	char name[KSTATS_NAME_LEN];
	int32_t field;	/* a point: its record's v at this offset (perf), else 0: the argument */
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

/* Attaches kstats' trace @t at @bits: its value, or its predicate arg1 > 1000. */
static int bpf_attach(const struct bpf_trace *t, uint32_t bits)
{
	struct kstats_expr x = { 0 };

	struct kstats_operand v = operand(KSTATS_OPERAND_ARG, 1, 8, 1);

	if (t->field) {
		v = operand(KSTATS_OPERAND_FIELD, 0, 8, 1);
		v.nr_loads = 1;
		v.offsets[0] = t->field;
	}
	if (t->pred) {
		x.nr_terms = 1;
		x.terms[0] = (struct kstats_term){ .operand = v, .cmp = KSTATS_CMP_GT,
						   .constant = 1000 };
	}
	/* A point records a value, also under a predicate. */
	if (!t->pred || t->site == BPF_POINT) {
		x.flags = KSTATS_EXPR_VALUE;
		x.value = v;
	}
	if (t->site == BPF_FUNC)
		return xtrace(t->name, t->mech, bits, &x, 0) == 0;
	return tp_xtrace(t->name, bits, &x, t->site) == 0;
}

/* Read through perf: neither a probe floor nor a calibrated cost, said so. */
static void record_costs(const char *name)
{
	struct hist h = { 0 };
	int err = snap(name, &h);

	ok(!err && !h.sn.floor_ns && !h.sn.call_cost_ps &&
	   (h.sn.trace_flags & KSTATS_TRACE_STATE_UNCALIBRATED),
	   "%s (by its record): no probe floor (%llu), uncalibrated (%llu ps, flags 0x%x)",
	   name, (unsigned long long)h.sn.floor_ns, (unsigned long long)h.sn.call_cost_ps,
	   h.sn.trace_flags);
}

/*
 * One bpftrace (@root's, or the host's if NULL) beside kstats' @nr @traces
 * on the same calls, at @bits and at every site the traces name, then
 * compared site by site.
 */
static void bpf_run(struct bpf_trace *traces, int nr, uint32_t bits, const char *root)
{
	static struct bpf_out b, warm;
	static struct kv_call c[MAX_VALUE_CALLS];
	static char prog[2048];
	int i, s, n, begun, attached = 0, traced = 1, clean;
	/* Significant bits of the target's arguments: below 2^30 for 0.17, any int64 for 0.23. */
	unsigned int range = root ? 64 : 31;
	unsigned int warmed = 0, sites = 0;
	char cmd[64], what[32] = "";
	struct peer pr;

	memset(&b, 0, sizeof(b));
	memset(&warm, 0, sizeof(warm));
	b.in_hist = warm.in_hist = -1;
	for (s = 0; s < BPF_SITES; s++)
		b.site[s].bits = warm.site[s].bits = bits;
	for (i = 0; i < nr; i++) {
		snprintf(traces[i].name, sizeof(traces[i].name), "t.b%c%u.%s",
			 traces[i].pred ? 'p' : 'v', bits, traces[i].mech_name);
		sites |= 1U << traces[i].site;
	}
	for (s = 0; s < BPF_SITES; s++)
		if (sites & (1U << s))
			snprintf(what + strlen(what), sizeof(what) - strlen(what), "%s, ",
				 bpf_what[s]);
	bpf_prog(prog, sizeof(prog), bits, sites);
	if (!ok(peer_start(&pr, root, prog), "hist(%s%u): bpftrace%s%s started",
		what, bits, root ? " in " : "", root ? root : ""))
		return;
	begun = peer_expect(&pr, "begin", BPF_START_S);
	while (begun && !attached && warmed < 1000) {
		snprintf(cmd, sizeof(cmd), "values 1 %u %u", 7 + warmed++, range);
		target(cmd);
		if (read_values(c, 1) == 1)
			for (s = 0; s < BPF_SITES; s++)
				bpf_add(&warm.site[s], c[0].arg);
		attached = peer_expect(&pr, "attached", 1);
	}
	for (i = 0; i < nr && attached; i++)
		traced &= bpf_attach(&traces[i], bits);
	if (!ok(attached && traced, "hist(%s%u): bpftrace's probes counting (after %u "
		"warm-up calls), and kstats' %d traces attached", what, bits, warmed, nr)) {
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
	ok(clean, "hist(%s%u): bpftrace exited by itself", what, bits);
	for (i = 0; i < nr; i++) {
		s = traces[i].site;
		compare(&traces[i], &b.site[s], &warm.site[s], n, bpf_what[s]);
		if (traces[i].field)
			record_costs(traces[i].name);
		untrace(traces[i].name);
	}
}

/* Field @field's offset in tracefs' format of @event ("system/event"), or -1. */
static int format_offset(const char *event, const char *field)
{
	char path[160], line[256], want[64];
	int off = -1, o;
	FILE *f;

	snprintf(path, sizeof(path), "/sys/kernel/tracing/events/%s/format", event);
	snprintf(want, sizeof(want), " %s;", field);
	f = fopen(path, "r");
	while (f && off < 0 && fgets(line, sizeof(line), f)) {
		char *at = strstr(line, want), *o_at = strstr(line, "offset:");

		if (at && strstr(line, "field:") && o_at && sscanf(o_at, "offset:%d;", &o) == 1)
			off = o;
	}
	if (f)
		fclose(f);
	return off;
}

/*
 * @bits 0: the host's bpftrace (Debian 12's), also at the target's point
 * and section when @have_tp (the tracepoint mechanism); else the one in
 * @root (Debian 13's), at @bits, on the function.
 */
void test_expr_bpftrace(int have_fprobe, int supported, int have_tp, uint32_t bits,
			const char *root)
{
	struct bpf_trace traces[10] = {
		{ "kr", KSTATS_MECH_KRETPROBE, 0, BPF_FUNC, "", 0 },
		{ "kr", KSTATS_MECH_KRETPROBE, 1, BPF_FUNC, "", 0 },
	};
	int nr = 2, v_off;

	if (!supported) {
		ok(1, "# SKIP bpftrace's hist(arg1, %u): no KSTATS_FEAT_EXPR", bits);
		return;
	}
	if (no_bpftrace("bpftrace's hist() and predicates beside kstats' values"))
		return;
	if (have_fprobe) {
		traces[nr++] = (struct bpf_trace){ "fp", KSTATS_MECH_FPROBE, 0, BPF_FUNC, "", 0 };
		traces[nr++] = (struct bpf_trace){ "fp", KSTATS_MECH_FPROBE, 1, BPF_FUNC, "", 0 };
	}
	if (have_tp && !bits) {
		traces[nr++] = (struct bpf_trace){ "tp", KSTATS_MECH_TRACEPOINT, 0, BPF_POINT, "",
						   0 };
		traces[nr++] = (struct bpf_trace){ "tp", KSTATS_MECH_TRACEPOINT, 1, BPF_POINT, "",
						   0 };
		traces[nr++] = (struct bpf_trace){ "ts", KSTATS_MECH_TRACEPOINT, 0, BPF_SECTION,
						   "", 0 };
		traces[nr++] = (struct bpf_trace){ "ts", KSTATS_MECH_TRACEPOINT, 1, BPF_SECTION,
						   "", 0 };
	}
	/* The record's v, which bpftrace's args.v is: tracefs' format says where. */
	v_off = have_tp && !bits ? format_offset("kstats_target/ktarget_value_start", "v") : 0;
	if (have_tp && !bits && ok(v_off > 0, "ktarget_value_start's format: v at +%d", v_off)) {
		traces[nr++] = (struct bpf_trace){ "tf", KSTATS_MECH_TRACEPOINT, 0, BPF_POINT, "",
						   v_off };
		traces[nr++] = (struct bpf_trace){ "tf", KSTATS_MECH_TRACEPOINT, 1, BPF_POINT, "",
						   v_off };
	}
	if (!have_tp && !bits) {
		ok(1, "# SKIP bpftrace's hist() at a tracepoint: no tracepoint mechanism");
	}
	bpf_run(traces, nr, bits, root);
}

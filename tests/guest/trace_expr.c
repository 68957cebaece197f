// SPDX-License-Identifier: GPL-2.0
/*
 * TRACE's expr (values and predicates) through the raw ABI: the target's
 * ktarget_value(o, v) is called with arguments, a pointer chain (a NULL in
 * the middle on known calls) and return values that the target reports
 * call by call; kstats' slots must hold exactly what kstats_hist.h puts
 * each value in, its faults and rejected calls exactly those the calls
 * make, for each mechanism at frac_bits 0 and 3. The refusals of the
 * contract are checked here too; bpftrace's hist() is trace_expr_bpf.c.
 */
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>

#include "trace_expr.h"

#define SEED	4242

/* The target's chain (ktarget_values.c), for its offsets. */
struct kv_inner {
	uint32_t pad;
	int32_t level;
	uint64_t size;
};

struct kv_mid {
	uint64_t tag;
	struct kv_inner *inner;
};

struct kv_outer {
	uint32_t id;
	struct kv_mid *mid;
	struct kv_outer *self;
};

int read_values(struct kv_call *c, int max)
{
	FILE *f = fopen(TARGET "values", "r");
	int n;

	if (!f)
		return -1;
	n = (int)fread(c, sizeof(*c), max, f);
	fclose(f);
	return n;
}

struct kstats_operand operand(uint8_t source, uint8_t index, uint8_t size, int sgn)
{
	struct kstats_operand o = { .source = source, .index = index, .size = size };

	if (sgn)
		o.flags = KSTATS_OPERAND_SIGNED;
	return o;
}

/* @o reads through a chain of @n offsets. */
static void chain(struct kstats_operand *o, int n, const int32_t *offsets)
{
	o->nr_loads = n;
	memcpy(o->offsets, offsets, n * sizeof(*offsets));
}

int xtrace(const char *name, uint32_t mech, uint32_t bits, const struct kstats_expr *x,
	   uint32_t flags)
{
	struct kstats_trace t = {
		.func = (uintptr_t)"ktarget_value", .frac_bits = bits,
		.mechanism = mech, .flags = flags, .sample_every = 1,
		.expr = (uintptr_t)x,
	};

	strncpy((char *)t.name, name, sizeof(t.name) - 1);
	return ioctl(fd, KSTATS_IOC_TRACE, &t) ? errno : 0;
}

void expect_add(uint64_t *counts, uint32_t bits, uint64_t v)
{
	counts[kstats_hist_slot(v, bits)]++;
}

/* @name's slots against @want, all of them; the first difference told. */
int slots_equal(const char *name, const uint64_t *want, uint64_t *total)
{
	struct hist h;
	uint32_t s;
	int err = snap(name, &h);

	if (err) {
		diag("%s: %s", name, strerror(err));
		return 0;
	}
	*total = h.total;
	for (s = 0; s < KSTATS_SLOTS_MAX; s++)
		if (h.counts[s] != want[s]) {
			diag("%s: slot %u [%llu, %llu]: %llu samples, expected %llu", name, s,
			     (unsigned long long)kstats_slot_low(s, h.sn.frac_bits),
			     (unsigned long long)kstats_slot_last(s, h.sn.frac_bits),
			     (unsigned long long)h.counts[s], (unsigned long long)want[s]);
			return 0;
		}
	return 1;
}

/*
 * A value trace's NAME (or VALUE-NAME, @vname) and NEG-NAME, and its
 * counters; with @with_hits its hits too (a value alone: one per value).
 */
void value_check(const char *m, uint32_t bits, const char *what, const char *name,
		 const char *vname, const struct value_expect *e, int has_neg, int with_hits)
{
	char neg[KSTATS_NAME_LEN + 8];
	uint64_t tp = 0, tn = 0;
	struct hist h;
	int pos_ok, neg_ok = 1;

	snprintf(neg, sizeof(neg), "NEG-%s", name);
	pos_ok = slots_equal(vname, e->pos, &tp);
	if (has_neg)
		neg_ok = slots_equal(neg, e->neg, &tn);
	snap(vname, &h);
	ok(pos_ok && neg_ok && h.sn.faults == e->faults && h.sn.rejected == e->rejected &&
	   tp + tn == e->hits && h.sn.misses == 0 && (!with_hits || h.sn.hits == e->hits),
	   "%s, %u frac bits: %s: every slot as the target's calls say (%llu + %llu "
	   "negative, of %llu; hits %llu), faults %llu of %llu, rejected %llu of %llu, "
	   "misses %llu", m, bits, what, (unsigned long long)tp, (unsigned long long)tn,
	   (unsigned long long)e->hits, (unsigned long long)h.sn.hits,
	   (unsigned long long)h.sn.faults, (unsigned long long)e->faults,
	   (unsigned long long)h.sn.rejected, (unsigned long long)e->rejected,
	   (unsigned long long)h.sn.misses);
}

void value_add(struct value_expect *e, uint32_t bits, int64_t v)
{
	if (v < 0)
		expect_add(e->neg, bits, -(uint64_t)v);
	else
		expect_add(e->pos, bits, v);
	e->hits++;
}

static const int32_t level_chain[] = {
	offsetof(struct kv_outer, mid), offsetof(struct kv_mid, inner),
	offsetof(struct kv_inner, level)
};
static const int32_t size_chain[] = {
	offsetof(struct kv_outer, mid), offsetof(struct kv_mid, inner),
	offsetof(struct kv_inner, size)
};

/* An argument, and a field three pointers away from another (faults). */
static void run_args(uint32_t mech, const char *m, uint32_t bits, struct kv_call *c)
{
	static struct value_expect ea, eb;
	struct kstats_expr xa = { .flags = KSTATS_EXPR_VALUE }, xb = xa;
	char cmd[64];
	int i, n;

	memset(&ea, 0, sizeof(ea));
	memset(&eb, 0, sizeof(eb));
	xa.value = operand(KSTATS_OPERAND_ARG, 1, 8, 1);
	xb.value = operand(KSTATS_OPERAND_ARG, 0, 4, 1);
	chain(&xb.value, 3, level_chain);
	if (!ok(xtrace("t.xa", mech, bits, &xa, 0) == 0 &&
		xtrace("t.xb", mech, bits, &xb, 0) == 0,
		"%s, %u frac bits: arg1 and arg0->mid->inner->level (signed) traced", m, bits))
		return;
	snprintf(cmd, sizeof(cmd), "values %d %d 64", MAX_VALUE_CALLS, SEED + bits);
	target(cmd);
	n = read_values(c, MAX_VALUE_CALLS);
	for (i = 0; i < n; i++) {
		value_add(&ea, bits, c[i].arg);
		if (c[i].chain < 2)
			eb.faults++;
		else
			value_add(&eb, bits, c[i].level);
	}
	ok(n == MAX_VALUE_CALLS, "%s: the target reports its %d calls", m, n);
	value_check(m, bits, "arg1", "t.xa", "t.xa", &ea, 1, 0);
	value_check(m, bits, "arg0->mid->inner->level", "t.xb", "t.xb", &eb, 1, 0);
	untrace("t.xa");
	untrace("t.xb");
}

/*
 * The return value beside the duration; a value read at entry under a
 * predicate decided at entry or at exit:
 * (arg1 > 1000 && retval < 5000) || arg1 == 0, value arg0->mid->inner->size.
 */
static void run_exit(uint32_t mech, const char *m, uint32_t bits, struct kv_call *c)
{
	static struct value_expect ec, ed;
	struct kstats_expr xc = { .flags = KSTATS_EXPR_VALUE | KSTATS_EXPR_TIME };
	struct kstats_expr xd = { .flags = KSTATS_EXPR_VALUE, .nr_terms = 3 };
	uint64_t durations;
	struct hist h;
	char cmd[64];
	int i, n;

	memset(&ec, 0, sizeof(ec));
	memset(&ed, 0, sizeof(ed));
	xc.value = operand(KSTATS_OPERAND_RETVAL, 0, 8, 1);
	xd.value = operand(KSTATS_OPERAND_ARG, 0, 8, 0);
	chain(&xd.value, 3, size_chain);
	xd.terms[0] = (struct kstats_term){ .operand = operand(KSTATS_OPERAND_ARG, 1, 8, 1),
					    .cmp = KSTATS_CMP_GT, .constant = 1000 };
	xd.terms[1] = (struct kstats_term){ .operand = operand(KSTATS_OPERAND_RETVAL, 0, 8, 1),
					    .cmp = KSTATS_CMP_LT, .constant = 5000,
					    .flags = KSTATS_TERM_OR };
	xd.terms[2] = (struct kstats_term){ .operand = operand(KSTATS_OPERAND_ARG, 1, 8, 1),
					    .cmp = KSTATS_CMP_EQ, .constant = 0 };
	if (!ok(xtrace("t.xc", mech, bits, &xc, 0) == 0 &&
		xtrace("t.xd", mech, bits, &xd, 0) == 0,
		"%s, %u frac bits: retval with --time, and a predicate at entry and exit traced",
		m, bits))
		return;
	snprintf(cmd, sizeof(cmd), "values %d %d 64", MAX_VALUE_CALLS, SEED + 1 + bits);
	target(cmd);
	n = read_values(c, MAX_VALUE_CALLS);
	for (i = 0; i < n; i++) {
		value_add(&ec, bits, c[i].ret);
		if (c[i].arg <= 1000 && c[i].arg != 0)
			ed.rejected++;		/* no group holds at entry */
		else if (c[i].chain < 2)
			ed.faults++;		/* the value, read at entry */
		else if (c[i].arg == 0 || c[i].ret < 5000)
			expect_add(ed.pos, bits, c[i].size), ed.hits++;
		else
			ed.rejected++;		/* at exit */
	}
	value_check(m, bits, "retval beside the duration", "t.xc", "VALUE-t.xc", &ec, 1, 0);
	durations = snap("t.xc", &h) ? 0 : h.total;
	ok(durations == (uint64_t)n && h.sn.kind == KSTATS_KIND_TRACE &&
	   !(h.sn.metric_flags & KSTATS_METRIC_VALUE),
	   "%s, %u frac bits: t.xc holds %llu durations of %d calls (kind %u, flags 0x%x)",
	   m, bits, (unsigned long long)durations, n, h.sn.kind, h.sn.metric_flags);
	value_check(m, bits, "(arg1 > 1000 && retval < 5000) || arg1 == 0: ->size", "t.xd",
	      "t.xd", &ed, 0, 0);
	untrace("t.xc");
	untrace("t.xd");
}

/* Kinds and flags: what holds values says so; GAP-NAME stays a time. */
static void kinds(uint32_t mech, const char *m)
{
	struct kstats_expr x = { .flags = KSTATS_EXPR_VALUE };
	struct hist v, n, g;

	x.value = operand(KSTATS_OPERAND_ARG, 1, 8, 1);
	if (!ok(xtrace("t.xk", mech, 0, &x, 0) == 0, "%s: a value trace", m))
		return;
	snap("t.xk", &v);
	snap("NEG-t.xk", &n);
	snap("GAP-t.xk", &g);
	ok(v.sn.kind == KSTATS_KIND_VALUE && n.sn.kind == KSTATS_KIND_VALUE &&
	   (v.sn.metric_flags & KSTATS_METRIC_VALUE) && (n.sn.metric_flags & KSTATS_METRIC_VALUE) &&
	   g.sn.kind == KSTATS_KIND_GAP && !(g.sn.metric_flags & KSTATS_METRIC_VALUE),
	   "%s: NAME and NEG-NAME of kind VALUE with the VALUE flag, GAP-NAME a time "
	   "(kinds %u %u %u, flags 0x%x 0x%x 0x%x)", m, v.sn.kind, n.sn.kind, g.sn.kind,
	   v.sn.metric_flags, n.sn.metric_flags, g.sn.metric_flags);
	untrace("t.xk");
}

/*
 * make bench: a trace of ktarget_value() left attached (untrace it with
 * kstatsctl): "plain" (its time), "value" (arg1 beside nothing else),
 * "pred" (arg1 > 1000: one term at entry), "chain" (a term 8 loads deep:
 * o->self x7 ->id).
 */
int expr_bench_trace(const char *name, const char *mech, const char *kind)
{
	static const int32_t self8[] = {
		offsetof(struct kv_outer, self), offsetof(struct kv_outer, self),
		offsetof(struct kv_outer, self), offsetof(struct kv_outer, self),
		offsetof(struct kv_outer, self), offsetof(struct kv_outer, self),
		offsetof(struct kv_outer, self), offsetof(struct kv_outer, id),
	};
	struct kstats_expr x = { .nr_terms = 1 };
	uint32_t mc = !strcmp(mech, "fprobe") ? KSTATS_MECH_FPROBE : KSTATS_MECH_KRETPROBE;
	struct req r = { .name = name, .func = "ktarget_value", .mech = mc };

	x.terms[0] = (struct kstats_term){ .operand = operand(KSTATS_OPERAND_ARG, 1, 8, 1),
					   .cmp = KSTATS_CMP_GT, .constant = 1000 };
	if (!strcmp(kind, "plain"))
		return trace(fd, &r);
	if (!strcmp(kind, "value")) {
		x.nr_terms = 0;
		x.terms[0] = (struct kstats_term){ 0 };
		x.flags = KSTATS_EXPR_VALUE;
		x.value = operand(KSTATS_OPERAND_ARG, 1, 8, 1);
	} else if (!strcmp(kind, "chain")) {
		x.terms[0].operand = operand(KSTATS_OPERAND_ARG, 0, 4, 0);
		chain(&x.terms[0].operand, 8, self8);
		x.terms[0].cmp = KSTATS_CMP_EQ;
		x.terms[0].constant = 2;	/* o->id */
	} else if (strcmp(kind, "pred")) {
		return EINVAL;
	}
	return xtrace(name, mc, 3, &x, 0);
}

/* An error value as kstats' errno key reads it: as a long, or an int (kstats(4)). */
static int is_errno(int64_t ret)
{
	int32_t low = (int32_t)ret;

	return (ret >= -4095 && ret <= -1) ||
	       (!((uint64_t)ret >> 32) && low >= -4095 && low <= -1);
}

/*
 * A value trace's keys hold what NAME holds: values (flag VALUE), a
 * negative one in NEG-NAME only. Key: the return value's errno, with 0
 * fixed (key_values), so every count is known.
 */
static void keyed(uint32_t mech, const char *m, struct kv_call *c)
{
	struct kstats_expr x = { .flags = KSTATS_EXPR_VALUE };
	uint64_t zero = 0, want0 = 0, want_other = 0;
	struct kstats_trace t = {
		.func = (uintptr_t)"ktarget_value", .mechanism = mech, .sample_every = 1,
		.key = KSTATS_KEY_ERRNO, .nr_keys = 1, .key_values = (uintptr_t)&zero,
		.expr = (uintptr_t)&x,
	};
	struct hist k0, ko, v;
	int i, n, err;

	strcpy((char *)t.name, "t.xe");
	x.value = operand(KSTATS_OPERAND_ARG, 1, 8, 1);
	if (!ok(!ioctl(fd, KSTATS_IOC_TRACE, &t), "%s: a value trace keyed by errno", m))
		return;
	target("values 1000 77 64");
	n = read_values(c, MAX_VALUE_CALLS);
	for (i = 0; i < n; i++) {
		if (c[i].arg < 0)
			continue;
		if (is_errno(c[i].ret))
			want_other++;
		else
			want0++;
	}
	/* Before ok(): its arguments are evaluated in no set order. */
	err = snap("t.xe", &v) ?: snap("t.xe{errno=0}", &k0) ?: snap("t.xe{errno=other}", &ko);
	ok(!err && k0.total == want0 && ko.total == want_other && v.total == want0 + want_other &&
	   (k0.sn.metric_flags & KSTATS_METRIC_VALUE) && (ko.sn.metric_flags & KSTATS_METRIC_VALUE),
	   "%s: its keys hold NAME's %llu values: {errno=0} %llu of %llu, {errno=other} "
	   "%llu of %llu, flags 0x%x 0x%x", m, (unsigned long long)v.total,
	   (unsigned long long)k0.total, (unsigned long long)want0,
	   (unsigned long long)ko.total, (unsigned long long)want_other,
	   k0.sn.metric_flags, ko.sn.metric_flags);
	untrace("t.xe");
}

void test_expr(uint32_t mech, const char *m, int supported)
{
	static struct kv_call c[MAX_VALUE_CALLS];
	uint32_t bits;

	if (!supported) {
		ok(1, "# SKIP %s: no KSTATS_FEAT_EXPR", m);
		return;
	}
	kinds(mech, m);
	keyed(mech, m, c);
	for (bits = 0; bits <= 3; bits += 3) {
		run_args(mech, m, bits, c);
		run_exit(mech, m, bits, c);
	}
}

// SPDX-License-Identifier: GPL-2.0
/*
 * Values at tracepoints (KSTATS_MECH_TRACEPOINT): the target's events
 * ktarget_value_start(o, v) and ktarget_value_done(o, ret), emitted around
 * each of its ktarget_value() calls. A point (func "tp:...") holds the
 * start's v per hit, slot by slot as the target's record says (through
 * kstats_hist.h); o->mid->inner->size faults exactly where the chain has
 * a NULL; a section between the two reads v at its start and ret at its
 * end, under a predicate on both and on the duration. Then every -EINVAL
 * the uapi header lists for tracepoints, before anything is made.
 */
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>

#include "trace_expr.h"

#define TP_START	"tp:kstats_target:ktarget_value_start"
#define TP_DONE		"tp:kstats_target:ktarget_value_done"
#define TP_SEED		777

/* kv_outer { u32 id; kv_mid *mid; }, kv_mid { u64 tag; kv_inner *inner; }, kv_inner.size: +8 */
static const int32_t size_chain[] = { 8, 8, 8 };

static int tp_trace(const char *name, const char *func, const char *start, const char *end,
		    uint32_t bits, const struct kstats_expr *x, uint32_t mech, uint32_t key)
{
	struct kstats_trace t = {
		.func = (uintptr_t)func, .start = (uintptr_t)start, .end = (uintptr_t)end,
		.frac_bits = bits, .mechanism = mech, .sample_every = 1, .key = key,
		.expr = (uintptr_t)x,
	};

	strncpy((char *)t.name, name, sizeof(t.name) - 1);
	return ioctl(fd, KSTATS_IOC_TRACE, &t) ? errno : 0;
}

/*
 * A point times nothing: no probe floor (0: a section's would be a claim
 * about a duration it has not), but a calibrated cost, on a point's own
 * handler.
 */
static void point_costs(uint32_t bits)
{
	struct hist h = { 0 };

	if (bits || snap("t.tpv", &h))
		return;
	ok(!h.sn.floor_ns && h.sn.call_cost_ps &&
	   !(h.sn.trace_flags & KSTATS_TRACE_STATE_UNCALIBRATED),
	   "point: no probe floor (%llu ns), a calibrated cost (%llu ps a hit recorded, "
	   "%llu declined)", (unsigned long long)h.sn.floor_ns,
	   (unsigned long long)h.sn.call_cost_ps, (unsigned long long)h.sn.skip_cost_ps);
}

/* A point: v, and o->mid->inner->size (faults); a section: ret at the end under a predicate. */
static void tp_values(uint32_t bits, struct kv_call *c)
{
	static struct value_expect ev, es, er;
	struct kstats_expr xv = { .flags = KSTATS_EXPR_VALUE }, xs = xv;
	struct kstats_expr xr = { .flags = KSTATS_EXPR_VALUE, .nr_terms = 2 };
	char cmd[64];
	int i, n;

	memset(&ev, 0, sizeof(ev));
	memset(&es, 0, sizeof(es));
	memset(&er, 0, sizeof(er));
	xv.value = operand(KSTATS_OPERAND_ARG, 1, 8, 1);
	xs.value = operand(KSTATS_OPERAND_ARG, 0, 8, 0);
	xs.value.nr_loads = 3;
	memcpy(xs.value.offsets, size_chain, sizeof(size_chain));
	/* (v > 1000 at the start && duration < 10 s at the end) || v == 0; value: ret. */
	xr.value = operand(KSTATS_OPERAND_END_ARG, 1, 8, 1);
	xr.terms[0] = (struct kstats_term){ .operand = operand(KSTATS_OPERAND_ARG, 1, 8, 1),
					    .cmp = KSTATS_CMP_GT, .constant = 1000 };
	xr.terms[1] = (struct kstats_term){ .operand = operand(KSTATS_OPERAND_DURATION, 0, 8, 0),
					    .cmp = KSTATS_CMP_LT, .constant = 10000000000ULL };
	if (!ok(!tp_trace("t.tpv", TP_START, NULL, NULL, bits, &xv, KSTATS_MECH_AUTO, 0) &&
		!tp_trace("t.tps", TP_START, NULL, NULL, bits, &xs, KSTATS_MECH_TRACEPOINT, 0) &&
		!tp_trace("t.tpr", NULL, TP_START, TP_DONE, bits, &xr, KSTATS_MECH_AUTO, 0),
		"tracepoint, %u frac bits: a point's v and o->mid->inner->size, a section's "
		"ret traced", bits)) {
		untrace("t.tpv");
		untrace("t.tps");
		return;
	}
	snprintf(cmd, sizeof(cmd), "values %d %d 64", MAX_VALUE_CALLS, TP_SEED + bits);
	target(cmd);
	n = read_values(c, MAX_VALUE_CALLS);
	for (i = 0; i < n; i++) {
		value_add(&ev, bits, c[i].arg);
		if (c[i].chain < 2)
			es.faults++;
		else
			value_add(&es, bits, (int64_t)c[i].size);
		if (c[i].arg > 1000)
			value_add(&er, bits, c[i].ret);
		else
			er.rejected++;
	}
	ok(n == MAX_VALUE_CALLS, "tracepoint: the target reports its %d calls", n);
	point_costs(bits);
	value_check("tracepoint", bits, "point " TP_START ": v (signed)", "t.tpv", "t.tpv",
		    &ev, 1, 1);
	value_check("tracepoint", bits, "point: o->mid->inner->size, a NULL in the chain a fault",
		    "t.tps", "t.tps", &es, 0, 1);
	value_check("tracepoint", bits, "section start..done: ret at the end, v > 1000 at the "
		    "start, duration < 10 s", "t.tpr", "t.tpr", &er, 1, 1);
	untrace("t.tpv");
	untrace("t.tps");
	untrace("t.tpr");
}

static void tp_refused(const char *what, const char *func, const char *start,
		       const struct kstats_expr *x, uint32_t mech, uint32_t key)
{
	struct hist h;
	int err = tp_trace("t.tpbad", func, start, start ? TP_DONE : NULL, 0, x, mech, key);

	ok(err == EINVAL && snap("t.tpbad", &h) == ENOENT,
	   "tracepoint expr: %s: EINVAL (%s), nothing made", what, strerror(err));
	if (!err)
		untrace("t.tpbad");
}

static void tp_refusals(void)
{
	struct kstats_expr x = { .flags = KSTATS_EXPR_VALUE }, good;

	x.value = operand(KSTATS_OPERAND_ARG, 1, 8, 1);
	good = x;
	tp_refused("a point without an expr", TP_START, NULL, NULL, KSTATS_MECH_AUTO, 0);
	x.value.index = 5;
	tp_refused("a point's argument 5 (its data takes a register)", TP_START, NULL, &x,
		   KSTATS_MECH_AUTO, 0);
	tp_refused("a section's argument 5", NULL, TP_START, &x, KSTATS_MECH_AUTO, 0);
	x.value = operand(KSTATS_OPERAND_RETVAL, 0, 8, 1);
	tp_refused("a point's return value", TP_START, NULL, &x, KSTATS_MECH_AUTO, 0);
	tp_refused("a section's return value", NULL, TP_START, &x, KSTATS_MECH_AUTO, 0);
	x.value = operand(KSTATS_OPERAND_END_ARG, 0, 8, 0);
	tp_refused("a point's end argument", TP_START, NULL, &x, KSTATS_MECH_AUTO, 0);
	x = good, x.nr_terms = 1;
	x.terms[0] = (struct kstats_term){ .operand = operand(KSTATS_OPERAND_DURATION, 0, 8, 0),
					   .cmp = KSTATS_CMP_GT };
	tp_refused("a point's duration", TP_START, NULL, &x, KSTATS_MECH_AUTO, 0);
	x = good, x.flags |= KSTATS_EXPR_TIME;
	tp_refused("a point with KSTATS_EXPR_TIME", TP_START, NULL, &x, KSTATS_MECH_AUTO, 0);
	x = good, x.flags = 0, x.value = (struct kstats_operand){ 0 }, x.nr_terms = 1;
	x.terms[0] = (struct kstats_term){ .operand = operand(KSTATS_OPERAND_ARG, 1, 8, 1),
					   .cmp = KSTATS_CMP_GT };
	tp_refused("a point with a predicate alone", TP_START, NULL, &x, KSTATS_MECH_AUTO, 0);
	tp_refused("a point keyed by errno (no return value)", TP_START, NULL, &good,
		   KSTATS_MECH_AUTO, KSTATS_KEY_ERRNO);
	tp_refused("a point by kprobe", TP_START, NULL, &good, KSTATS_MECH_KPROBE, 0);
	tp_refused("a point by fprobe", TP_START, NULL, &good, KSTATS_MECH_FPROBE, 0);
	/* A record's field (KSTATS_OPERAND_FIELD): read from the record, at an event's own. */
	x = good, x.value = operand(KSTATS_OPERAND_FIELD, 0, 8, 1);
	tp_refused("a record's field without a load (the record's address)", TP_START, NULL,
		   &x, KSTATS_MECH_AUTO, 0);
	x.value.nr_loads = 1, x.value.offsets[0] = 8, x.value.index = 1;
	tp_refused("a record's field with an index", TP_START, NULL, &x, KSTATS_MECH_AUTO, 0);
	x.value.index = 0, x.value.source = KSTATS_OPERAND_END_FIELD;
	tp_refused("a point's end field", TP_START, NULL, &x, KSTATS_MECH_AUTO, 0);
	x.value.source = KSTATS_OPERAND_FIELD;
	tp_refused("a field of \"tp:event\" (no system: no trace event file)",
		   "tp:ktarget_value_start", NULL, &x, KSTATS_MECH_AUTO, 0);
	x.nr_terms = 1;
	x.terms[0] = (struct kstats_term){ .operand = operand(KSTATS_OPERAND_ARG, 1, 8, 1),
					   .cmp = KSTATS_CMP_GT };
	tp_refused("a field and an argument of the same event", TP_START, NULL, &x,
		   KSTATS_MECH_AUTO, 0);
	x.terms[0].operand = operand(KSTATS_OPERAND_END_ARG, 1, 8, 1);
	x.value.source = KSTATS_OPERAND_END_FIELD;
	tp_refused("a section end's field and argument", NULL, TP_START, &x, KSTATS_MECH_AUTO, 0);
}

void test_expr_tp(int supported)
{
	static struct kv_call c[MAX_VALUE_CALLS];

	if (!supported) {
		ok(1, "# SKIP tracepoint values: no tracepoint mechanism or no expr");
		return;
	}
	tp_refusals();
	tp_values(0, c);
	tp_values(3, c);
}

// SPDX-License-Identifier: GPL-2.0
/*
 * Values on a section between kernel functions (KSTATS_MECH_KPROBE, both
 * ends at their entry): the target calls ktarget_value_open(o, v) and
 * ktarget_value_close(o, ret) around each ktarget_value() call. The
 * start's v, read at the start, holds every call's argument; the end's
 * o->mid->inner->size, read at the end, faults exactly where the chain has
 * a NULL; the end's ret under a predicate on the start's v and on the
 * duration holds the calls it selects. Slot by slot as the target's
 * record says, at frac_bits 0 and 3. A section has one mechanism, kprobe:
 * fprobe is refused there as for any section.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>

#include "trace_expr.h"

#define FS_OPEN		"ktarget_value_open"
#define FS_CLOSE	"ktarget_value_close"
#define FS_SEED		919

/* kv_outer.mid at +8, kv_mid.inner at +8, kv_inner.size at +8 */
static const int32_t size_chain[] = { 8, 8, 8 };

static int fs_trace(const char *name, uint32_t bits, const struct kstats_expr *x,
		    uint32_t mech)
{
	struct kstats_trace t = {
		.start = (uintptr_t)FS_OPEN, .end = (uintptr_t)FS_CLOSE,
		.frac_bits = bits, .mechanism = mech, .sample_every = 1,
		.expr = (uintptr_t)x,
	};

	strncpy((char *)t.name, name, sizeof(t.name) - 1);
	return ioctl(fd, KSTATS_IOC_TRACE, &t) ? errno : 0;
}

static void fs_values(uint32_t bits, struct kv_call *c)
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
	xs.value = operand(KSTATS_OPERAND_END_ARG, 0, 8, 0);
	xs.value.nr_loads = 3;
	memcpy(xs.value.offsets, size_chain, sizeof(size_chain));
	/* v > 1000 at the start && duration < 10 s at the end; value: the end's ret. */
	xr.value = operand(KSTATS_OPERAND_END_ARG, 1, 8, 1);
	xr.terms[0] = (struct kstats_term){ .operand = operand(KSTATS_OPERAND_ARG, 1, 8, 1),
					    .cmp = KSTATS_CMP_GT, .constant = 1000 };
	xr.terms[1] = (struct kstats_term){ .operand = operand(KSTATS_OPERAND_DURATION, 0, 8, 0),
					    .cmp = KSTATS_CMP_LT, .constant = 10000000000ULL };
	if (!ok(!fs_trace("t.fsv", bits, &xv, KSTATS_MECH_AUTO) &&
		!fs_trace("t.fss", bits, &xs, KSTATS_MECH_KPROBE) &&
		!fs_trace("t.fsr", bits, &xr, KSTATS_MECH_AUTO),
		"function section, %u frac bits: the start's v, the end's "
		"o->mid->inner->size, the end's ret under a predicate traced", bits)) {
		untrace("t.fsv");
		untrace("t.fss");
		return;
	}
	snprintf(cmd, sizeof(cmd), "values %d %d 64", MAX_VALUE_CALLS, FS_SEED + bits);
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
	ok(n == MAX_VALUE_CALLS, "function section: the target reports its %d calls", n);
	value_check("function section", bits, FS_OPEN ".." FS_CLOSE ": start.v (signed)",
		    "t.fsv", "t.fsv", &ev, 1, 1);
	value_check("function section", bits, "end.o->mid->inner->size, a NULL in the chain a "
		    "fault", "t.fss", "t.fss", &es, 0, 1);
	value_check("function section", bits, "end.ret, start.v > 1000, duration < 10 s",
		    "t.fsr", "t.fsr", &er, 1, 1);
	untrace("t.fsv");
	untrace("t.fss");
	untrace("t.fsr");
}

static void fs_refused(const char *what, const struct kstats_expr *x, uint32_t mech)
{
	struct hist h;
	int err = fs_trace("t.fsbad", 0, x, mech);

	ok(err == EINVAL && snap("t.fsbad", &h) == ENOENT,
	   "function section expr: %s: EINVAL (%s), nothing made", what, strerror(err));
	if (!err)
		untrace("t.fsbad");
}

static void fs_refusals(void)
{
	struct kstats_expr x = { .flags = KSTATS_EXPR_VALUE }, good;

	x.value = operand(KSTATS_OPERAND_ARG, 1, 8, 1);
	good = x;
	x.value.index = 6;
	fs_refused("the start's argument 6", &x, KSTATS_MECH_AUTO);
	x.value.source = KSTATS_OPERAND_END_ARG;
	fs_refused("the end's argument 6", &x, KSTATS_MECH_AUTO);
	x.value = operand(KSTATS_OPERAND_RETVAL, 0, 8, 1);
	fs_refused("a return value", &x, KSTATS_MECH_AUTO);
	fs_refused("by fprobe", &good, KSTATS_MECH_FPROBE);
	fs_refused("by kretprobe", &good, KSTATS_MECH_KRETPROBE);
}

void test_expr_fsec(int supported)
{
	static struct kv_call c[MAX_VALUE_CALLS];

	if (!supported) {
		ok(1, "# SKIP values on sections between functions: no expr");
		return;
	}
	fs_refusals();
	fs_values(0, c);
	fs_values(3, c);
}

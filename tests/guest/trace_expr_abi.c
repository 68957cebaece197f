// SPDX-License-Identifier: GPL-2.0
/*
 * TRACE's expr, the contract's refusals: every -EINVAL the uapi header
 * lists, -EFAULT, and the size rules for a TRACE struct older or newer
 * than the module's. Each refused request leaves nothing behind.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>

#include "trace_expr.h"

/* A good value-only expr: arg1, signed. */
static struct kstats_expr good(void)
{
	struct kstats_expr x = { .flags = KSTATS_EXPR_VALUE };

	x.value = operand(KSTATS_OPERAND_ARG, 1, 8, 1);
	return x;
}

static struct kstats_term term(uint8_t source, uint32_t cmp)
{
	return (struct kstats_term){ .operand = operand(source, 0, 8, 0), .cmp = cmp };
}

static void refused(const char *what, const struct kstats_expr *x, uint32_t flags)
{
	struct hist h;
	int err = xtrace("t.xbad", KSTATS_MECH_AUTO, 0, x, flags);

	ok(err == EINVAL && snap("t.xbad", &h) == ENOENT, "expr: %s: EINVAL (%s), nothing made",
	   what, strerror(err));
	if (!err)
		untrace("t.xbad");
}

static void bad_operands(void)
{
	struct kstats_expr x;

	x = good(), x.value.source = 0;
	refused("source 0", &x, 0);
	x = good(), x.value.source = KSTATS_OPERAND_DURATION + 1;
	refused("an unknown source", &x, 0);
	x = good(), x.value.flags = 2;
	refused("an unknown operand flag", &x, 0);
	x = good(), x.value.index = 6;
	refused("argument index 6", &x, 0);
	x = good(), x.value.size = 3;
	refused("size 3", &x, 0);
	x = good(), x.value.size = 0;
	refused("size 0", &x, 0);
	x = good(), x.value.size = 16;
	refused("size 16", &x, 0);
	x = good(), x.value.nr_loads = KSTATS_EXPR_LOADS + 1;
	refused("nr_loads 9", &x, 0);
	x = good(), x.value.pad[2] = 1;
	refused("operand pad", &x, 0);
	x = good(), x.value.nr_loads = 1, x.value.offsets[1] = 8;
	refused("an offset past nr_loads", &x, 0);
	x = good(), x.value = operand(KSTATS_OPERAND_RETVAL, 1, 8, 0);
	refused("an index on the return value", &x, 0);
	x = good(), x.value = operand(KSTATS_OPERAND_DURATION, 0, 8, 0);
	refused("the duration as the value", &x, 0);
}

static void bad_terms(void)
{
	struct kstats_expr x;
	int i;

	x = good(), x.nr_terms = 1, x.terms[0] = term(KSTATS_OPERAND_DURATION, KSTATS_CMP_GT);
	x.terms[0].operand.nr_loads = 1;
	refused("loads on the duration", &x, 0);
	x = good(), x.nr_terms = 1, x.terms[0] = term(KSTATS_OPERAND_ARG, 0);
	refused("compare 0", &x, 0);
	x = good(), x.nr_terms = 1, x.terms[0] = term(KSTATS_OPERAND_ARG, KSTATS_CMP_AND + 1);
	refused("an unknown compare", &x, 0);
	x = good(), x.nr_terms = 1, x.terms[0] = term(KSTATS_OPERAND_ARG, KSTATS_CMP_EQ);
	x.terms[0].flags = 2;
	refused("an unknown term flag", &x, 0);
	x = good(), x.nr_terms = 1, x.terms[1] = term(KSTATS_OPERAND_ARG, KSTATS_CMP_EQ);
	refused("a term past nr_terms", &x, 0);
	x = good(), x.nr_terms = 1, x.terms[0] = term(KSTATS_OPERAND_ARG, KSTATS_CMP_EQ);
	x.terms[0].operand.source = 9;
	refused("a term's unknown source", &x, 0);
	x = good();
	for (i = 0; i < KSTATS_EXPR_TERMS; i++)
		x.terms[i] = term(KSTATS_OPERAND_ARG, KSTATS_CMP_NE);
	x.nr_terms = KSTATS_EXPR_TERMS + 1;
	refused("nr_terms 9", &x, 0);
	x.nr_terms = KSTATS_EXPR_TERMS;
	ok(xtrace("t.x8", KSTATS_MECH_AUTO, 0, &x, 0) == 0 && untrace("t.x8") == 0,
	   "expr: 8 terms (and 8 loads' worth of room): traced, untraced");
}

static void bad_exprs(void)
{
	struct kstats_expr x;
	char name[KSTATS_NAME_LEN];
	struct kstats_trace t = { 0 };
	struct hist h;

	x = good(), x.flags = 0, x.value = (struct kstats_operand){ 0 };
	refused("neither a value nor a term", &x, 0);
	x = good(), x.flags = KSTATS_EXPR_TIME, x.value = (struct kstats_operand){ 0 };
	x.nr_terms = 1, x.terms[0] = term(KSTATS_OPERAND_ARG, KSTATS_CMP_EQ);
	refused("KSTATS_EXPR_TIME without a value", &x, 0);
	x = good(), x.flags = 0, x.nr_terms = 1;
	x.terms[0] = term(KSTATS_OPERAND_ARG, KSTATS_CMP_EQ);
	refused("a value operand without KSTATS_EXPR_VALUE", &x, 0);
	x = good(), x.flags |= 4;
	refused("an unknown expr flag", &x, 0);
	x = good(), x.reserved[1] = 1;
	refused("expr reserved", &x, 0);
	x = good();
	refused("a value alone with --self", &x, KSTATS_TRACE_SELF);
	refused("a value alone with --split", &x, KSTATS_TRACE_SPLIT);
	/* A section between functions: its ends' arguments, no return value. */
	strcpy((char *)t.name, "t.xbad");
	t.start = (uintptr_t)"ktarget_sec_start";
	t.end = (uintptr_t)"ktarget_sec_end";
	t.expr = (uintptr_t)&x;
	x.value = operand(KSTATS_OPERAND_RETVAL, 0, 8, 1);
	ok(ioctl(fd, KSTATS_IOC_TRACE, &t) && errno == EINVAL && snap("t.xbad", &h) == ENOENT,
	   "expr: a return value on a section: EINVAL, nothing made");
	x.value = operand(KSTATS_OPERAND_END_ARG, 6, 8, 1);
	ok(ioctl(fd, KSTATS_IOC_TRACE, &t) && errno == EINVAL && snap("t.xbad", &h) == ENOENT,
	   "expr: a section end's argument 6: EINVAL, nothing made");
	x = good();
	/* VALUE-NAME must fit with --time: 57 bytes do, 58 do not. */
	x.flags |= KSTATS_EXPR_TIME;
	snprintf(name, sizeof(name), "%058d", 0);
	ok(xtrace(name, KSTATS_MECH_AUTO, 0, &x, 0) == EINVAL && snap(name, &h) == ENOENT,
	   "expr: --time with a 58-byte name: EINVAL, nothing made");
	name[57] = 0;
	ok(xtrace(name, KSTATS_MECH_AUTO, 0, &x, 0) == 0 && untrace(name) == 0,
	   "expr: --time with a 57-byte name: traced, untraced");
	x = good();
	snprintf(name, sizeof(name), "%059d", 0);
	ok(xtrace(name, KSTATS_MECH_AUTO, 0, &x, 0) == 0 && snap(name, &h) == 0 &&
	   untrace(name) == 0, "expr: a signed value with a 59-byte name (NEG-NAME fits): traced");
}

/* The expr pointer, and TRACE structs of other versions. */
static void sizes(void)
{
	struct kstats_expr x = good();
	unsigned char big[sizeof(struct kstats_trace) + 8] __attribute__((aligned(8))) = { 0 };
	struct kstats_trace *t = (void *)big;
	struct hist h;
	int err;

	err = xtrace("t.xbad", KSTATS_MECH_AUTO, 0, (void *)8, 0);
	ok(err == EFAULT && snap("t.xbad", &h) == ENOENT,
	   "expr: an unreadable pointer: EFAULT (%s), nothing made", strerror(err));
	strcpy((char *)t->name, "t.xnew");
	t->func = (uintptr_t)"ktarget_value";
	t->sample_every = 1;
	t->expr = (uintptr_t)&x;
	t->reserved[0] = 1;
	err = ioctl(fd, KSTATS_IOC_TRACE, big) ? errno : 0;
	ok(err == EINVAL && snap("t.xnew", &h) == ENOENT,
	   "TRACE reserved past expr: EINVAL (%s), nothing made", strerror(err));
	t->reserved[0] = 0;
	big[sizeof(struct kstats_trace) + 3] = 1;
	err = ioctl(fd, _IOW(KSTATS_IOC_MAGIC, 0x07, big), big) ? errno : 0;
	ok(err == E2BIG && snap("t.xnew", &h) == ENOENT,
	   "a TRACE struct %zu bytes long, not zero past the module's: E2BIG (%s), nothing made",
	   sizeof(big), strerror(err));
	big[sizeof(struct kstats_trace) + 3] = 0;
	err = ioctl(fd, _IOW(KSTATS_IOC_MAGIC, 0x07, big), big) ? errno : 0;
	err = err ?: snap("t.xnew", &h);
	ok(!err && h.sn.kind == KSTATS_KIND_VALUE && !untrace("t.xnew"),
	   "... zero past it: a value trace (%s, kind %u)", strerror(err), h.sn.kind);
	/* VER5 ends before expr: whatever lies past it is not read. */
	err = ioctl(fd, _IOC(_IOC_WRITE, KSTATS_IOC_MAGIC, 0x07, KSTATS_TRACE_SIZE_VER5), big) ?
	      errno : 0;
	err = err ?: snap("t.xnew", &h);
	ok(!err && h.sn.kind == KSTATS_KIND_TRACE && !untrace("t.xnew"),
	   "a VER5 TRACE struct: expr not seen, a time trace (%s, kind %u)", strerror(err),
	   h.sn.kind);
}

void test_expr_abi(int supported)
{
	if (!ok(supported, "INFO lists KSTATS_FEAT_EXPR"))
		return;
	bad_operands();
	bad_terms();
	bad_exprs();
	sizes();
}

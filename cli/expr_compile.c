// SPDX-License-Identifier: GPL-2.0
/*
 * trace --value EXPR / --if PRED into struct kstats_expr: each operand
 * resolved through BTF (expr_btf.c), each constant checked against its
 * operand's type (a negative one against an unsigned value, or one out of
 * its width, could never compare as written), the predicate's groups laid
 * out as the module runs them: a term with KSTATS_TERM_OR ends a group.
 */
#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "expr.h"
#include "units.h"

static const char *const cmp_text[] = {
	[KSTATS_CMP_EQ] = "==", [KSTATS_CMP_NE] = "!=", [KSTATS_CMP_LT] = "<",
	[KSTATS_CMP_LE] = "<=", [KSTATS_CMP_GT] = ">", [KSTATS_CMP_GE] = ">=",
	[KSTATS_CMP_AND] = "&",
};

const char *ks_cmp_text(uint32_t cmp)
{
	return cmp && cmp < ARRAY_SIZE(cmp_text) ? cmp_text[cmp] : "?";
}

static int bad_constant(const struct ks_parse *p, const struct ks_cmp *c, const char *hint,
			const char *fmt, ...) __attribute__((format(printf, 4, 5)));
static int bad_constant(const struct ks_parse *p, const struct ks_cmp *c, const char *hint,
			const char *fmt, ...)
{
	char msg[384], where[96];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	if (hint)
		ks_set_hint("%s", hint);
	return ks_usage("%s: %s (column %d)", ks_expr_where(p, c->col, where, sizeof(where)),
			msg, c->col);
}

/* @c's constant for @op (described by @d) into @out; 0 or the error said. */
static int constant(const struct ks_parse *p, const struct ks_cmp *c,
		    const struct kstats_operand *op, const struct ks_operand_desc *d,
		    uint64_t *out)
{
	const char *s = c->constant;
	int bits = op->size * 8;
	bool neg = s[0] == '-';
	unsigned long long u;
	long long v;
	char *end;

	if (d->time) {
		if (neg || ks_parse_value(s, out))
			return bad_constant(p, c, "a duration: 1ms, 250us, 2s (a bare "
					    "number is ns)", "'%s' is not a duration",
					    s);
		return 0;
	}
	errno = 0;
	if (neg) {
		v = strtoll(s, &end, 0);
		u = (unsigned long long)v;
	} else {
		u = strtoull(s, &end, 0);
	}
	if (*end && isalpha((unsigned char)*end) &&
	    !(end[-1] == '0' && (*end == 'x' || *end == 'X')))
		return bad_constant(p, c, "sizes and counts are plain numbers: 65536, "
				    "0x10000; units are for the duration's",
				    "'%s': %s is a number, without a unit", s, d->text);
	if (*end || end == s || errno)
		return bad_constant(p, c, "decimal (-1, 4096) or hex (0x1f), within "
				    "64 bits", "'%s' is not a number", s);
	if (neg && !(op->flags & KSTATS_OPERAND_SIGNED))
		return bad_constant(p, c, "cast it to a signed type to see negatives: "
				    "(s64)EXPR < 0", "'%s' is negative but %s (%s) is "
				    "unsigned", s, d->text, d->type);
	if ((op->flags & KSTATS_OPERAND_SIGNED) &&
	    (neg ? bits < 64 && v < -(1LL << (bits - 1)) : u > (1ULL << (bits - 1)) - 1)) {
		ks_set_hint("it holds %lld to %lld", (long long)(-(1ULL << (bits - 1))),
			    (long long)((1ULL << (bits - 1)) - 1));
		return bad_constant(p, c, NULL, "'%s' is out of the range of %s (%s, "
				    "%d bits, signed)", s, d->text, d->type, bits);
	}
	if (bits < 64 && !(op->flags & KSTATS_OPERAND_SIGNED) && u >> bits) {
		ks_set_hint("it holds 0 to %llu", (1ULL << bits) - 1);
		return bad_constant(p, c, NULL, "'%s' is out of the range of %s (%s, "
				    "%d bits, unsigned)", s, d->text, d->type, bits);
	}
	*out = u;
	return 0;
}

static int compile_pred(struct ks_btf_ctx *bc, const char *pred, struct ks_plan *plan)
{
	struct ks_parse *p = xcalloc(1, sizeof(*p));
	struct kstats_term *t;
	struct ks_dnf d;
	uint64_t v = 0;
	int g, i, k = 0, rc;

	rc = ks_expr_parse_pred(p, pred, &d);
	for (g = 0; !rc && g < d.nr_groups; g++)
		for (i = 0; !rc && i < d.nr[g]; i++, k++) {
			t = &plan->e.terms[k];
			rc = ks_btf_operand(bc, p, d.t[g][i]->lhs, true, &t->operand,
					    &plan->terms[k]) ? EXIT_USAGE :
			     constant(p, d.t[g][i], &t->operand, &plan->terms[k], &v);
			t->constant = v;
			t->cmp = d.t[g][i]->cmp;
			snprintf(plan->term_const[k], sizeof(plan->term_const[k]), "%s",
				 d.t[g][i]->constant);
			if (i == d.nr[g] - 1 && g < d.nr_groups - 1)
				t->flags = KSTATS_TERM_OR;
		}
	plan->e.nr_terms = (uint32_t)k;
	free(p);
	return rc;
}

/* Operand @i of @plan: the value (-1) or term @i; NULL past them. */
static const struct kstats_operand *plan_operand(const struct ks_plan *plan, int i,
						 const struct ks_operand_desc **d)
{
	if (i < 0) {
		*d = &plan->value;
		return plan->e.flags & KSTATS_EXPR_VALUE ? &plan->e.value : NULL;
	}
	*d = &plan->terms[i];
	return i < (int)plan->e.nr_terms ? &plan->e.terms[i].operand : NULL;
}

/*
 * One event read two ways: the module reads an end's record through perf,
 * which passes no arguments, and its arguments by a probe of its
 * tracepoint, which sees no record.
 */
static int one_way(const struct ks_plan *plan)
{
	static const uint8_t arg[2] = { KSTATS_OPERAND_ARG, KSTATS_OPERAND_END_ARG };
	static const uint8_t field[2] = { KSTATS_OPERAND_FIELD, KSTATS_OPERAND_END_FIELD };
	const struct ks_operand_desc *d, *by_arg, *by_field;
	const struct kstats_operand *op;
	int end, i;

	for (end = 0; end < 2; end++) {
		by_arg = by_field = NULL;
		for (i = -1; i < KSTATS_EXPR_TERMS; i++) {
			op = plan_operand(plan, i, &d);
			if (op && op->source == arg[end] && !by_arg)
				by_arg = d;
			if (op && op->source == field[end] && !by_field)
				by_field = d;
		}
		if (!by_arg || !by_field)
			continue;
		ks_set_hint("name fields only, or arguments only, at one event (a field "
			    "is computed from the arguments)");
		return ks_usage("'%s' reads %s and '%s' reads %s: an event is read by its record "
				"or by its arguments, not both", by_field->text,
				by_field->source, by_arg->text, by_arg->source);
	}
	return 0;
}

int ks_expr_compile(const char *func, const char *value, const char *pred, bool time,
		    bool user, const struct ks_usdt_args *usdt, struct ks_plan *plan)
{
	struct ks_btf_ctx *bc;
	struct ks_parse *p;
	struct ks_node *n;
	int rc = 0;

	memset(plan, 0, sizeof(*plan));
	plan->func = func;
	plan->pred = pred;
	if (!value && !pred)
		return 0;
	bc = ks_btf_ctx_open(func, user, usdt);
	snprintf(plan->btf, sizeof(plan->btf), "%s", ks_btf_ctx_where(bc));
	if (value) {
		p = xcalloc(1, sizeof(*p));
		rc = ks_expr_parse_value(p, value, &n);
		if (!rc && ks_btf_operand(bc, p, n, false, &plan->e.value, &plan->value))
			rc = EXIT_USAGE;
		free(p);
		plan->e.flags = KSTATS_EXPR_VALUE | (time ? KSTATS_EXPR_TIME : 0);
	}
	if (!rc && pred)
		rc = compile_pred(bc, pred, plan);
	if (!rc)
		rc = one_way(plan);
	ks_btf_ctx_close(bc);
	return rc;
}

bool ks_plan_signed(const struct ks_plan *plan)
{
	return (plan->e.flags & KSTATS_EXPR_VALUE) &&
	       (plan->e.value.flags & KSTATS_OPERAND_SIGNED);
}

// SPDX-License-Identifier: GPL-2.0
/*
 * trace --value/--if at USDT probes: a probe alone (a point) or a section's
 * ends. A probe's arguments are argN, N from 0, where its note says they
 * are (usdt_args.c): a register, read whole and then cut to the argument's
 * size and sign, or memory at a register plus an offset, read from the
 * program with one load. Casts and '*' apply as for a user-space function;
 * no names, no members (no debug info is read), no return value.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "expr.h"
#include "expr_btf.h"
#include "usdt.h"

static struct ks_btf_ctx *usdt_open(const struct ks_usdt_args *ua, bool end)
{
	struct ks_btf_ctx *c = xcalloc(1, sizeof(*c));

	c->proto = -1;
	c->names = -1;
	c->user = true;
	c->usdt = ua;
	c->end = end;
	c->func = ua->probe;
	snprintf(c->where, sizeof(c->where), "none (USDT notes)");
	return c;
}

struct ks_btf_ctx *ks_btf_usdt_open(const struct ks_usdt_args *ua)
{
	struct ks_btf_ctx *c = usdt_open(&ua[0], false);

	if (ua[1].places)
		c->other = usdt_open(&ua[1], true);
	return c;
}

bool ks_btf_usdt_has(const struct ks_btf_ctx *c, const char *id)
{
	char *end;
	long idx;

	if (strncmp(id, "arg", 3) || id[3] < '0' || id[3] > '9')
		return false;
	idx = strtol(id + 3, &end, 10);
	return !*end && idx < c->usdt->nr;
}

static const char *kind_text(const struct ks_usdt_arg *a, char *buf, size_t len)
{
	if (a->kind == KS_UARG_REG)
		snprintf(buf, len, "%%%s", ks_usdt_reg_name(a->reg));
	else
		snprintf(buf, len, "%d(%%%s)", a->off, ks_usdt_reg_name(a->reg));
	return buf;
}

int ks_btf_usdt_source(struct ks_btf_ctx *c, struct ks_parse *p, const struct ks_node *n,
		       bool pred, struct rstate *s)
{
	const struct ks_usdt_args *ua = c->usdt;
	const struct ks_usdt_arg *a;
	const char *id = n->ident;
	char where[40];
	char *end;
	long idx;

	(void)pred;
	if (!strcmp(id, "retval")) {
		ks_set_hint("a probe's values are its arguments: arg0..arg%d", ua->nr - 1);
		return eb_refuse(p, n, "USDT probe %s has no return value", ua->probe);
	}
	if (strncmp(id, "arg", 3) || id[3] < '0' || id[3] > '9' ||
	    (idx = strtol(id + 3, &end, 10), *end)) {
		ks_set_hint("a USDT probe's arguments are argN, arg0 the first ('readelf -n "
			    "FILE' lists each probe's)");
		return eb_refuse(p, n, "'%s': USDT probes name no arguments", id);
	}
	if (ua->nr_differs) {
		ks_set_hint("trace each place's probe apart (a probe is one name for its "
			    "places)");
		return eb_refuse(p, n, "%s passes different numbers of arguments at its %d "
			      "places", ua->probe, ua->places);
	}
	if (idx >= ua->nr) {
		if (ua->nr)
			ks_set_hint("%s's arguments: arg0 to arg%d", ua->probe, ua->nr - 1);
		else
			ks_set_hint("%s passes no arguments", ua->probe);
		return eb_refuse(p, n, "USDT probe %s has %d argument%s: there is no %s",
			      ua->probe, ua->nr, ua->nr == 1 ? "" : "s", id);
	}
	a = &ua->a[idx];
	if (ua->differs[idx]) {
		ks_set_hint("a probe compiled in several places is traced at each; the "
			    "argument must be read alike at all of them");
		return eb_refuse(p, n, "%s of %s is '%s' at one place and '%s' at another",
			      id, ua->probe, a->spec, ua->other[idx]);
	}
	if (a->kind == KS_UARG_CONST) {
		ks_set_hint("record another argument, or count the hits: --start/--end");
		return eb_refuse(p, n, "%s of %s is the constant %lld at every hit ('%s')",
			      id, ua->probe, (long long)a->value, a->spec);
	}
	if (a->kind == KS_UARG_OTHER) {
		ks_set_hint("kstats reads a register (8@%%rax) or memory at a register and "
			    "an offset (-4@-20(%%rbp))");
		return eb_refuse(p, n, "%s of %s is at '%s': a form kstats does not read", id,
			      ua->probe, a->spec);
	}
	s->op->source = c->end ? KSTATS_OPERAND_END_REG : KSTATS_OPERAND_REG;
	s->op->index = (uint8_t)a->reg;
	s->t = (struct rtype){ .builtin = true, .size = a->size, .sign = a->sign };
	if (a->kind == KS_UARG_MEM) {
		/* In memory at the register plus an offset: a load of its size. */
		s->at = true;
		s->off = a->off;
	}
	snprintf(s->d->source, sizeof(s->d->source), "%.16s (%.40s)", id,
		 kind_text(a, where, sizeof(where)));
	return 0;
}

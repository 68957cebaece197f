// SPDX-License-Identifier: GPL-2.0
/*
 * trace --value/--if on a section, between two tracepoints or two kernel
 * functions ("A..B", ks_expr_compile()): a context per end, the start's
 * arguments read at the start, the end's at the end (a function's at its
 * entry, where a section's kprobe is). A name only one end has is that
 * end's, start.NAME and end.NAME say which, and a name both have is
 * refused. A section has no return value (expr_btf.c refuses retval).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "expr.h"
#include "expr_btf.h"

struct ks_btf_ctx *ks_btf_section_open(const char *target,
				       struct ks_btf_ctx *(*open_one)(const char *))
{
	const char *dots = strstr(target, "..");
	struct ks_btf_ctx *c;
	char start[512];

	/* The start's context keeps its name: a copy that lives as long. */
	snprintf(start, sizeof(start), "%.*s", (int)(dots - target), target);
	c = open_one(xstrdup(start));
	c->other = open_one(dots + 2);
	c->other->end = true;
	if (strcmp(c->where, c->other->where))
		snprintf(c->where + strlen(c->where), sizeof(c->where) - strlen(c->where),
			 ", %.60s", c->other->where);
	return c;
}

/* Whether @c's end has an argument @id (a name, or argN within its count). */
static bool end_has(const struct ks_btf_ctx *c, const char *id)
{
	char name[KS_EXPR_IDENT], *end;
	long idx;
	int i;

	if (c->usdt)
		return ks_btf_usdt_has(c, id);
	if (!strncmp(id, "arg", 3) && id[3] >= '0' && id[3] <= '9') {
		idx = strtol(id + 3, &end, 10);
		if (!*end)
			return c->proto < 0 || idx < eb_nr_params(c);
	}
	for (i = 0; c->proto >= 0 && i < eb_nr_params(c); i++)
		if (!strcmp(eb_param_name(c, i, name, sizeof(name)), id))
			return true;
	return false;
}

int ks_btf_section_pick(struct ks_btf_ctx *c, struct ks_parse *p, struct ks_node *n,
			struct ks_btf_ctx **pick)
{
	struct ks_node *leaf = n, *up = NULL;
	char a[512], b[512];
	bool s, e;

	/* The operand's leftmost name: what it reads first. */
	while (leaf->sub) {
		up = leaf;
		leaf = leaf->sub;
	}
	if (up && up->kind == KS_N_DOT && leaf->kind == KS_N_NAME &&
	    (!strcmp(leaf->ident, "start") || !strcmp(leaf->ident, "end"))) {
		*pick = !strcmp(leaf->ident, "end") ? c->other : c;
		/* "end.ret" reads ret: the qualifier node goes. */
		up->kind = KS_N_NAME;
		up->sub = NULL;
		return 0;
	}
	*pick = c;
	if (leaf->kind != KS_N_NAME || !strcmp(leaf->ident, "duration") ||
	    !strcmp(leaf->ident, "retval"))
		return 0;
	s = end_has(c, leaf->ident);
	e = end_has(c->other, leaf->ident);
	if (s && e) {
		ks_set_hint("start.%s reads it at %s, end.%s at %s", leaf->ident, c->func,
			    leaf->ident, c->other->func);
		return eb_refuse(p, leaf, "both ends have an argument '%s': say which",
				 leaf->ident);
	}
	if (e)
		*pick = c->other;
	if (s || e)
		return 0;
	/* No argument of that name: a field of one end's record. */
	s = ks_btf_tp_has_field(c, leaf->ident);
	e = ks_btf_tp_has_field(c->other, leaf->ident);
	if (s && e) {
		ks_set_hint("start.%s reads %s's record, end.%s %s's", leaf->ident,
			    c->event, leaf->ident, c->other->event);
		return eb_refuse(p, leaf, "both ends' records have a field '%s': say which",
				 leaf->ident);
	}
	if (e)
		*pick = c->other;
	if (s || e || c->proto < 0 || c->other->proto < 0)
		return 0;
	ks_set_hint("the start's arguments: %s; the end's: %s",
		    eb_param_list(c, a, sizeof(a)), eb_param_list(c->other, b, sizeof(b)));
	return eb_refuse(p, leaf, "neither end has an argument '%s'", leaf->ident);
}

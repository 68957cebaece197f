// SPDX-License-Identifier: GPL-2.0
/*
 * trace --value/--if at tracepoints: an event's TP_PROTO arguments, from
 * BTF. vmlinux (or a module's) BTF has, per event, the typedef
 * btf_trace_EVENT, a pointer to a FUNC_PROTO (void *data, ARGS...): the
 * arguments' types, unnamed. Their names come from a function of the same
 * prototype, named: __probestub_EVENT (6.5+), or the event class's
 * trace_event_raw_event_EVENT or __bpf_trace_EVENT when the class is the
 * event (TRACE_EVENT). Without one, argN still works.
 *
 * An event's format fields (the record TP_fast_assign writes into the
 * ring buffer, e.g. block_rq_issue's nr_sector) are not arguments: a probe
 * never sees the record. A name that is one is refused, saying so: the
 * fields are read from tracefs' format file when it is readable, else
 * from BTF's struct trace_event_raw_EVENT (a TRACE_EVENT's record).
 *
 * A section between two tracepoints reads its start's arguments at the
 * start and its end's at the end (expr_section.c).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <bpf/btf.h>
#include <bpf/libbpf.h>

#include "expr.h"
#include "expr_btf.h"
#include "btf.h"


/* The FUNC_PROTO btf_trace_@event points to, or -1. */
static int tp_proto(const struct btf *btf, const char *event)
{
	char name[160];
	const struct btf_type *t;
	int id;

	snprintf(name, sizeof(name), "btf_trace_%s", event);
	id = btf__find_by_name_kind(btf, name, BTF_KIND_TYPEDEF);
	t = id > 0 ? btf__type_by_id(btf, (unsigned int)id) : NULL;
	t = t ? btf__type_by_id(btf, t->type) : NULL;
	if (!t || !btf_is_ptr(t))
		return -1;
	id = (int)t->type;
	t = btf__type_by_id(btf, (unsigned int)id);
	return t && btf_is_func_proto(t) && btf_vlen(t) >= 1 ? id : -1;
}

/* Whether FUNC_PROTOs @a and @b have the same parameter types. */
static bool same_types(const struct btf *btf, int a, int b)
{
	const struct btf_type *ta = btf__type_by_id(btf, (unsigned int)a);
	const struct btf_type *tb = btf__type_by_id(btf, (unsigned int)b);
	int i;

	if (!tb || !btf_is_func_proto(tb) || btf_vlen(ta) != btf_vlen(tb))
		return false;
	for (i = 0; i < btf_vlen(ta); i++)
		if (btf_params(ta)[i].type != btf_params(tb)[i].type)
			return false;
	return true;
}

/* A FUNC_PROTO of @c's types with the arguments' names, or -1. */
static int tp_names(const struct ks_btf_ctx *c)
{
	static const char *const prefix[] = {
		"__probestub_", "trace_event_raw_event_", "__bpf_trace_",
	};
	const struct btf_type *f;
	char name[160];
	size_t i;
	int id;

	for (i = 0; i < ARRAY_SIZE(prefix); i++) {
		snprintf(name, sizeof(name), "%s%s", prefix[i], c->event);
		id = btf__find_by_name_kind(c->btf, name, BTF_KIND_FUNC);
		f = id > 0 ? btf__type_by_id(c->btf, (unsigned int)id) : NULL;
		if (f && same_types(c->btf, c->proto, (int)f->type))
			return (int)f->type;
	}
	return -1;
}

/* The module BTF with btf_trace_@event (a module's own event). */
static void tp_module(struct ks_btf_ctx *c)
{
	struct btf *btf = ks_btf_module_with(c->vmlinux, c->event, tp_proto, &c->proto,
					     c->where, sizeof(c->where));

	if (btf)
		c->btf = btf;
}

static struct ks_btf_ctx *tp_open_one(const char *target)
{
	struct ks_btf_ctx *c = xcalloc(1, sizeof(*c));
	const char *env = getenv("KSTATS_BTF");

	ks_btf_quiet();
	c->func = target;
	c->event = strrchr(target, ':') + 1;
	c->first = 1;
	c->proto = -1;
	c->names = -1;
	if (!ks_btf_ctx_vmlinux(c, env))
		return c;
	c->proto = tp_proto(c->vmlinux, c->event);
	if (c->proto < 0 && (!env || getenv("KSTATS_BTF_MODULES")))
		tp_module(c);
	if (c->proto < 0)
		snprintf(c->where, sizeof(c->where), "vmlinux (without btf_trace_%.60s)",
			 c->event);
	else
		c->names = tp_names(c);
	return c;
}

struct ks_btf_ctx *ks_btf_tp_open(const char *target)
{
	if (strncmp(target, "tp:", 3))
		return NULL;
	/* A section, "tp:A..tp:B" (ks_expr_compile()). */
	return strstr(target, "..") ? ks_btf_section_open(target, tp_open_one) :
				       tp_open_one(target);
}

/* Whether BTF's struct @record has a member @name. */
static bool record_has(const struct btf *btf, const char *record, const char *name)
{
	int id = btf__find_by_name_kind(btf, record, BTF_KIND_STRUCT);
	const struct btf_type *t = id > 0 ? btf__type_by_id(btf, (unsigned int)id) : NULL;
	int i;

	for (i = 0; t && i < btf_vlen(t); i++)
		if (!strcmp(btf__name_by_offset(btf, btf_members(t)[i].name_off), name))
			return true;
	return false;
}

/*
 * Whether the record of a class of @c's prototype has a member @name: an
 * event of a class (DEFINE_EVENT) has the class's record, and the class's
 * trace_event_raw_event_CLASS the event's named prototype (one BTF type).
 */
static bool class_has(const struct ks_btf_ctx *c, const char *name)
{
	static const char prefix[] = "trace_event_raw_event_";
	unsigned int id, n = btf__type_cnt(c->btf);
	char record[192];

	for (id = 1; c->names >= 0 && id < n; id++) {
		const struct btf_type *t = btf__type_by_id(c->btf, id);
		const char *fn;

		if (!btf_is_func(t) || (int)t->type != c->names)
			continue;
		fn = btf__name_by_offset(c->btf, t->name_off);
		if (strncmp(fn, prefix, sizeof(prefix) - 1))
			continue;
		snprintf(record, sizeof(record), "trace_event_raw_%.160s",
			 fn + sizeof(prefix) - 1);
		if (record_has(c->btf, record, name))
			return true;
	}
	return false;
}

/* Whether tracefs' format of @c's event, or BTF's record of it, has a field @name. */
static bool tp_field(const struct ks_btf_ctx *c, const char *name)
{
	static const char *const roots[] = { "/sys/kernel/tracing", "/sys/kernel/debug/tracing" };
	const char *sys = c->func + 3, *ev = c->event;
	char path[512], line[512], struct_name[160], *semi, *at;
	bool found = false;
	size_t i;
	FILE *f;

	for (i = 0; ev - 1 > sys && i < ARRAY_SIZE(roots) && !found; i++) {
		snprintf(path, sizeof(path), "%s/events/%.*s/%s/format", roots[i],
			 (int)(ev - 1 - sys), sys, ev);
		f = getenv("KSTATS_BTF") ? NULL : fopen(path, "r");
		while (f && fgets(line, sizeof(line), f) && !found) {
			semi = strstr(line, "field:") ? strchr(line, ';') : NULL;
			if (!semi)
				continue;
			*semi = 0;
			if ((at = strchr(line, '[')))
				*at = 0;
			at = strrchr(line, ' ');
			found = at && !strcmp(at + 1, name);
		}
		if (f)
			fclose(f);
	}
	snprintf(struct_name, sizeof(struct_name), "trace_event_raw_%s", ev);
	return found || (c->btf && (record_has(c->btf, struct_name, name) ||
				    class_has(c, name)));
}

/* An argument pointing to a struct with a member @name: "rq->nr_sector", into @buf. */
static bool tp_member(const struct ks_btf_ctx *c, const char *name, char *buf, size_t len)
{
	const struct btf_type *pt = btf__type_by_id(c->btf, (unsigned int)c->proto);
	char arg[KS_EXPR_IDENT];
	int i, k, id;

	for (i = 0; i < eb_nr_params(c); i++) {
		struct rtype t = { .id = (int)btf_params(pt)[c->first + i].type }, s;
		const struct btf_type *st;

		if (!eb_is_ptr(c, &t))
			continue;
		s = eb_pointee(c, &t);
		st = eb_composite(c, &s, &id);
		for (k = 0; st && k < btf_vlen(st); k++)
			if (!strcmp(btf__name_by_offset(c->btf, btf_members(st)[k].name_off),
				    name)) {
				snprintf(buf, len, "%s->%s", eb_param_name(c, i, arg,
					 sizeof(arg)), name);
				return true;
			}
	}
	return false;
}

int ks_btf_tp_unknown(struct ks_btf_ctx *c, struct ks_parse *p, const struct ks_node *n,
		      const char *best)
{
	char list[512], from[160];

	eb_param_list(c, list, sizeof(list));
	if (tp_field(c, n->ident)) {
		if (tp_member(c, n->ident, from, sizeof(from)))
			ks_set_hint("%s's arguments: %s; %s may be what it is computed from",
				    c->event, list, from);
		else
			ks_set_hint("%s's arguments: %s; the field is computed from them",
				    c->event, list);
		return eb_refuse(p, n, "'%s' is a field of %s's record (its format), "
				 "written when the event is recorded; kstats reads the "
				 "event's arguments, never the record", n->ident, c->event);
	}
	if (best[0])
		ks_set_hint("did you mean '%s'? %s's arguments: %s", best, c->event, list);
	else
		ks_set_hint("%s's arguments: %s; or argN", c->event, list);
	return eb_refuse(p, n, "%s has no argument '%s'", c->event, n->ident);
}

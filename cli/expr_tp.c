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
 * A name that is no argument may be a field of the event's record (its
 * format, which TP_fast_assign writes): its offset and type from BTF's
 * struct trace_event_raw_EVENT (or its class's), else tracefs' format
 * file. The module reads such an end's record through perf
 * (KSTATS_OPERAND_FIELD, module/trace_record.c), so an argument and a
 * field of one end are not read together (expr_compile.c). A name that is
 * both is the argument.
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
#include "libs_dl.h"


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

/* Member @name of BTF struct @id, whole bytes: its offset and type; false if none. */
static bool struct_member(const struct btf *btf, int id, const char *name, int32_t *off,
			  int *type)
{
	const struct btf_type *t = id > 0 ? btf__type_by_id(btf, (unsigned int)id) : NULL;
	const struct btf_member *m;
	int i;

	for (i = 0; t && i < btf_vlen(t); i++) {
		m = btf_members(t) + i;
		if (strcmp(btf__name_by_offset(btf, m->name_off), name))
			continue;
		if (btf_member_bitfield_size(t, (uint32_t)i) || btf_member_bit_offset(t, (uint32_t)i) % 8)
			return false;
		*off = (int32_t)(btf_member_bit_offset(t, (uint32_t)i) / 8);
		*type = (int)m->type;
		return true;
	}
	return false;
}

/*
 * BTF's struct of @c's record, or -1: trace_event_raw_EVENT (a TRACE_EVENT
 * is its own class), else its class's trace_event_raw_CLASS: an event of a
 * class (DEFINE_EVENT) has the class's record, and the class's
 * trace_event_raw_event_CLASS the event's named prototype (one BTF type).
 */
static int record_struct(const struct ks_btf_ctx *c)
{
	static const char prefix[] = "trace_event_raw_event_";
	unsigned int id, n = btf__type_cnt(c->btf);
	char record[192];
	int sid;

	snprintf(record, sizeof(record), "trace_event_raw_%s", c->event);
	sid = btf__find_by_name_kind(c->btf, record, BTF_KIND_STRUCT);
	for (id = 1; sid <= 0 && c->names >= 0 && id < n; id++) {
		const struct btf_type *t = btf__type_by_id(c->btf, id);
		const char *fn;

		if (!btf_is_func(t) || (int)t->type != c->names)
			continue;
		fn = btf__name_by_offset(c->btf, t->name_off);
		if (strncmp(fn, prefix, sizeof(prefix) - 1))
			continue;
		snprintf(record, sizeof(record), "trace_event_raw_%.160s",
			 fn + sizeof(prefix) - 1);
		sid = btf__find_by_name_kind(c->btf, record, BTF_KIND_STRUCT);
	}
	return sid > 0 ? sid : -1;
}

/* A field of an event's format, as tracefs describes it. */
struct format_field {
	int32_t off;
	int size;
	bool sign;
	bool scalar;		/* not an array, nor a __data_loc (a string's place) */
};

/* Field @name of @c's event in tracefs' format file, into @f; false if none. */
static bool format_field(const struct ks_btf_ctx *c, const char *name, struct format_field *f)
{
	static const char *const roots[] = { "/sys/kernel/tracing", "/sys/kernel/debug/tracing" };
	const char *sys = c->func + 3, *ev = c->event;
	char path[512], line[512], *semi, *at, *decl;
	bool found = false;
	int sign = 0;
	size_t i;
	FILE *fp;

	for (i = 0; ev - 1 > sys && i < ARRAY_SIZE(roots) && !found; i++) {
		snprintf(path, sizeof(path), "%s/events/%.*s/%s/format", roots[i],
			 (int)(ev - 1 - sys), sys, ev);
		fp = getenv("KSTATS_BTF") ? NULL : fopen(path, "r");
		while (fp && !found && fgets(line, sizeof(line), fp)) {
			decl = strstr(line, "field:");
			semi = decl ? strchr(decl, ';') : NULL;
			if (!semi)
				continue;
			*semi = 0;
			f->scalar = !strchr(decl, '[') && !strstr(decl, "__data_loc") &&
				    !strstr(decl, "__rel_loc");
			if ((at = strchr(decl, '[')))
				*at = 0;
			at = strrchr(decl, ' ');
			found = at && !strcmp(at + 1, name) &&
				sscanf(semi + 1, " offset:%d; size:%d; signed:%d;", &f->off,
				       &f->size, &sign) == 3;
		}
		if (fp)
			fclose(fp);
	}
	f->sign = sign;
	return found;
}

bool ks_btf_tp_has_field(const struct ks_btf_ctx *c, const char *name)
{
	struct format_field f;
	int32_t off;
	int type;

	return c->event && (format_field(c, name, &f) ||
			    (c->btf && struct_member(c->btf, record_struct(c), name, &off,
						     &type)));
}

int ks_btf_tp_field(struct ks_btf_ctx *c, struct ks_parse *p, const struct ks_node *n,
		    struct rstate *s)
{
	const char *sys = c->func + 3;
	struct format_field f;
	int32_t off;
	int type;

	if (c->btf && struct_member(c->btf, record_struct(c), n->ident, &off, &type)) {
		s->t = (struct rtype){ .id = type };
	} else if (format_field(c, n->ident, &f)) {
		if (!f.scalar || f.size > 8 || f.size & (f.size - 1)) {
			ks_set_hint("kstats records integers: a string or an array is "
				    "not one");
			eb_refuse(p, n, "'%s' of %s's record is an array or a string",
				  n->ident, c->event);
			return -1;
		}
		off = f.off;
		s->t = (struct rtype){ .builtin = true, .size = f.size, .sign = f.sign };
	} else {
		return 0;
	}
	if (c->event == sys) {
		ks_set_hint("name its system: tp:SYSTEM:%s (tracefs' events/SYSTEM/%s)",
			    c->event, c->event);
		eb_refuse(p, n, "'%s' is a field of %s's record: reading it needs the "
			  "event's system", n->ident, c->event);
		return -1;
	}
	s->op->source = c->end ? KSTATS_OPERAND_END_FIELD : KSTATS_OPERAND_FIELD;
	s->at = true;
	s->off = off;
	snprintf(s->d->source, sizeof(s->d->source), "%.60s's record", c->event);
	return 1;
}

int ks_btf_tp_unknown(struct ks_btf_ctx *c, struct ks_parse *p, const struct ks_node *n,
		      const char *best)
{
	int sid = c->btf ? record_struct(c) : -1, dist = 1 << 20, i;
	const struct btf_type *t = sid > 0 ? btf__type_by_id(c->btf, (unsigned int)sid) : NULL;
	char list[512], near[KS_EXPR_IDENT] = "";

	/* The nearest field, if nearer than the nearest argument. */
	for (i = 0; t && i < btf_vlen(t); i++)
		eb_nearest(n->ident, btf__name_by_offset(c->btf, btf_members(t)[i].name_off),
			   near, &dist);
	if (near[0] && (!best[0] || dist < eb_distance(n->ident, best)))
		best = near;
	eb_param_list(c, list, sizeof(list));
	if (best[0])
		ks_set_hint("did you mean '%s'? %s's arguments: %s; or a field of its "
			    "record (its format)", best, c->event, list);
	else
		ks_set_hint("%s's arguments: %s, or argN; or a field of its record (its "
			    "format)", c->event, list);
	return eb_refuse(p, n, "%s has no argument and no field '%s'", c->event, n->ident);
}

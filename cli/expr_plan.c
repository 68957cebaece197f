// SPDX-License-Identifier: GPL-2.0
/*
 * trace --dry-run: what a trace would make and run, without tracing: the
 * function, the mechanism asked for, the metrics, and the compiled value
 * and predicate, each operand as the module reads it (its source, each
 * pointer read with its offset and the member it came from, the final
 * width and sign) and each predicate group with when it is decided.
 */
#include <stdio.h>
#include <string.h>

#include "expr.h"
#include "json.h"
#include "text.h"

struct metric {
	char name[KSTATS_NAME_LEN + 32];
	const char *holds;		/* what it records */
	bool ns;			/* a time */
};

#define PLAN_METRICS	10

/* The metrics the trace makes, its own first. */
/* A tracepoint or a USDT probe alone: a value at each hit. */
static bool is_point(const char *func)
{
	return !strncmp(func, "tp:", 3) || !strncmp(func, "usdt:", 5);
}

static size_t metrics(const struct ks_plan *plan, const struct ks_plan_view *v,
		      struct metric *m)
{
	static const char *const split[] = { "ONCPU", "RUNQ", "BLOCKED" };
	bool value = plan->e.flags & KSTATS_EXPR_VALUE;
	bool both = plan->e.flags & KSTATS_EXPR_TIME;
	size_t n = 0, i;
	bool point = !v->end && is_point(plan->func);

	snprintf(m[n].name, sizeof(m[n].name), "%s", v->name);
	m[n].holds = point ? "each hit's value" : value && !both ? "each call's value" :
		     "each call's duration";
	m[n++].ns = !value || both;
	if (both) {
		snprintf(m[n].name, sizeof(m[n].name), "VALUE-%s", v->name);
		m[n].holds = "each call's value";
		m[n++].ns = false;
	}
	if (ks_plan_signed(plan)) {
		snprintf(m[n].name, sizeof(m[n].name), "NEG-%s", v->name);
		m[n].holds = "magnitudes of negative values";
		m[n++].ns = false;
	}
	if (v->by) {
		snprintf(m[n].name, sizeof(m[n].name), "%s{%s=VALUE}", v->name, v->by);
		m[n].holds = value && !both ? "the value, by key" : "the duration, by key";
		m[n].ns = m[0].ns;
		n++;
	}
	if (v->self) {
		snprintf(m[n].name, sizeof(m[n].name), "SELF-%s", v->name);
		m[n].holds = "self time";
		m[n++].ns = true;
	}
	for (i = 0; v->split && i < ARRAY_SIZE(split); i++) {
		snprintf(m[n].name, sizeof(m[n].name), "%s-%s", split[i], v->name);
		m[n].holds = "a part of the duration";
		m[n++].ns = true;
	}
	if (v->end || point)
		return n;
	snprintf(m[n].name, sizeof(m[n].name), "GAP-%s", v->name);
	m[n].holds = "time between calls";
	m[n++].ns = true;
	return n;
}

/* A section's start (or a point) is an entry, a section's end an exit. */
static const char *source_at(const struct kstats_operand *op)
{
	return op->source == KSTATS_OPERAND_ARG || op->source == KSTATS_OPERAND_FIELD ||
	       op->source == KSTATS_OPERAND_REG ? "entry" : "exit";
}

static const char *source_name(const struct kstats_operand *op)
{
	return op->source == KSTATS_OPERAND_ARG ? "arg" :
	       op->source == KSTATS_OPERAND_REG ? "reg" :
	       op->source == KSTATS_OPERAND_END_REG ? "end_reg" :
	       op->source == KSTATS_OPERAND_END_ARG ? "end_arg" :
	       op->source == KSTATS_OPERAND_FIELD ? "field" :
	       op->source == KSTATS_OPERAND_END_FIELD ? "end_field" :
	       op->source == KSTATS_OPERAND_RETVAL ? "retval" : "duration";
}

static void operand_text(FILE *out, const struct kstats_operand *op,
			 const struct ks_operand_desc *d)
{
	unsigned int i;

	fprintf(out, "%-11s%s, at %s\n", "", d->source, source_at(op));
	for (i = 0; i < op->nr_loads; i++)
		fprintf(out, "%-11sread +%d: %s (%s)\n", "", op->offsets[i], d->fields[i],
			i + 1 < op->nr_loads ? "a pointer, 8 bytes" :
			op->size == 1 ? "1 byte" : op->size == 2 ? "2 bytes" :
			op->size == 4 ? "4 bytes" : "8 bytes");
}

/* @label, then @text cut at blanks to fit the output's width, under itself. */
static void wrapped(const char *label, const char *text)
{
	size_t width = ks_out_width(stdout), at = 11, n;
	const char *p = text, *blank;

	printf("%-11s", label);
	while (*p) {
		blank = strchr(p, ' ');
		n = blank ? (size_t)(blank - p) : strlen(p);
		if (at > 11 && at + 1 + n > width) {
			printf("\n%-11s", "");
			at = 11;
		} else if (at > 11) {
			putchar(' ');
			at++;
		}
		printf("%.*s", (int)n, p);
		at += n;
		p += n;
		while (*p == ' ')
			p++;
	}
	putchar('\n');
}

/* "fx_loff_t: 8 bytes read, signed" */
static void type_text(const struct kstats_operand *op, const struct ks_operand_desc *d)
{
	printf("%-11s%s: %u byte%s read, %s\n", "", d->type, op->size,
	       op->size == 1 ? "" : "s", op->flags & KSTATS_OPERAND_SIGNED ? "signed" :
	       "unsigned");
}

static void constant_text(char *buf, size_t len, const struct kstats_term *t,
			  const struct ks_operand_desc *d)
{
	if (d->time)
		snprintf(buf, len, "%llu ns", (unsigned long long)t->constant);
	else if (t->operand.flags & KSTATS_OPERAND_SIGNED)
		snprintf(buf, len, "%lld", (long long)t->constant);
	else
		snprintf(buf, len, "%llu (0x%llx)", (unsigned long long)t->constant,
			 (unsigned long long)t->constant);
}

/* Whether the group of terms [from, to) reads arguments alone: decided at entry. */
static bool at_entry(const struct kstats_expr *e, uint32_t from, uint32_t to)
{
	for (; from < to; from++)
		if (e->terms[from].operand.source != KSTATS_OPERAND_ARG &&
		    e->terms[from].operand.source != KSTATS_OPERAND_FIELD &&
		    e->terms[from].operand.source != KSTATS_OPERAND_REG)
			return false;
	return true;
}

/* The end of the group starting at @k. */
static uint32_t group_end(const struct kstats_expr *e, uint32_t k)
{
	while (k < e->nr_terms && !(e->terms[k].flags & KSTATS_TERM_OR))
		k++;
	return k < e->nr_terms ? k + 1 : k;
}

static void plan_text(const struct ks_plan *plan, const struct ks_plan_view *v,
		      const struct metric *m, size_t nm)
{
	const struct kstats_expr *e = &plan->e;
	uint32_t k, end, g;
	size_t i, width;
	char c[64];

	printf("plan for %s (--dry-run: nothing traced)\n", v->name);
	if (v->end)
		printf("%-11s%s to %s\n", "section", plan->func, v->end);
	else
		printf("%-11s%s\n", is_point(plan->func) ? "point" : "function", plan->func);
	printf("%-11s%s\n", "mechanism", v->mech);
	if (e->flags || e->nr_terms)
		printf("%-11s%s\n", "btf", plan->btf);
	for (i = 0, width = 0; i < nm; i++)
		width = strlen(m[i].name) > width ? strlen(m[i].name) : width;
	for (i = 0; i < nm; i++)
		printf("%-11s%-*s  %s, %s\n", i ? "" : "metrics", (int)width, m[i].name,
		       m[i].holds, m[i].ns ? "ns" : "unitless");
	if (e->flags & KSTATS_EXPR_VALUE) {
		printf("%-11s%s\n", "value", plan->value.text);
		type_text(&e->value, &plan->value);
		operand_text(stdout, &e->value, &plan->value);
	}
	if (!e->nr_terms)
		return;
	wrapped("if", plan->pred);
	for (k = 0, g = 1; k < e->nr_terms; k = end, g++) {
		end = group_end(e, k);
		printf("%-11sdecided at %s\n", g == 1 ? "  group 1" : "  or group",
		       at_entry(e, k, end) ? "entry" : "exit");
		for (; k < end; k++) {
			constant_text(c, sizeof(c), &e->terms[k], &plan->terms[k]);
			printf("%-11s%s %s %s\n", "    term", plan->terms[k].text,
			       ks_cmp_text(e->terms[k].cmp), plan->term_const[k]);
			printf("%-11s%s compare with %s\n", "",
			       e->terms[k].cmp == KSTATS_CMP_AND ? "bit" :
			       e->terms[k].operand.flags & KSTATS_OPERAND_SIGNED ? "signed" :
			       "unsigned", c);
			type_text(&e->terms[k].operand, &plan->terms[k]);
			operand_text(stdout, &e->terms[k].operand, &plan->terms[k]);
		}
	}
}

static void operand_json(struct json *j, const struct kstats_operand *op,
			 const struct ks_operand_desc *d)
{
	unsigned int i;

	json_obj(j);
	json_kstr(j, "expr", d->text);
	json_kstr(j, "type", d->type);
	json_kstr(j, "source", source_name(op));
	if (op->source == KSTATS_OPERAND_ARG || op->source == KSTATS_OPERAND_END_ARG)
		json_ku64(j, "index", op->index);
	json_kstr(j, "at", source_at(op));
	json_ku64(j, "size", op->size);
	json_kbool(j, "signed", op->flags & KSTATS_OPERAND_SIGNED);
	json_key(j, "unit");
	if (d->time)
		json_str(j, "ns");
	else
		json_null(j);
	json_key(j, "reads");
	json_arr(j);
	for (i = 0; i < op->nr_loads; i++) {
		json_obj(j);
		json_ki64(j, "offset", op->offsets[i]);
		json_ku64(j, "size", i + 1 < op->nr_loads ? 8 : op->size);
		json_kstr(j, "field", d->fields[i]);
		json_obj_end(j);
	}
	json_arr_end(j);
	json_obj_end(j);
}

static void plan_json(const struct ks_plan *plan, const struct ks_plan_view *v,
		      const struct metric *m, size_t nm)
{
	const struct kstats_expr *e = &plan->e;
	struct json *j = json_doc("trace");
	uint32_t k, end;
	size_t i;

	json_kbool(j, "dry_run", true);
	json_kstr(j, "name", v->name);
	if (v->end) {
		json_kstr(j, "start", plan->func);
		json_kstr(j, "end", v->end);
	} else {
		json_kstr(j, "function", plan->func);
	}
	json_kstr(j, "mechanism", v->mech);
	json_key(j, "btf");
	if (e->flags || e->nr_terms)
		json_str(j, plan->btf);
	else
		json_null(j);
	json_key(j, "metrics");
	json_arr(j);
	for (i = 0; i < nm; i++) {
		json_obj(j);
		json_kstr(j, "name", m[i].name);
		json_kstr(j, "holds", m[i].holds);
		json_key(j, "unit");
		if (m[i].ns)
			json_str(j, "ns");
		else
			json_null(j);
		json_obj_end(j);
	}
	json_arr_end(j);
	json_key(j, "value");
	if (e->flags & KSTATS_EXPR_VALUE)
		operand_json(j, &e->value, &plan->value);
	else
		json_null(j);
	json_key(j, "predicate");
	if (!e->nr_terms) {
		json_null(j);
	} else {
		json_obj(j);
		json_kstr(j, "text", plan->pred);
		json_key(j, "groups");
		json_arr(j);
		for (k = 0; k < e->nr_terms; k = end) {
			end = group_end(e, k);
			json_obj(j);
			json_kstr(j, "at", at_entry(e, k, end) ? "entry" : "exit");
			json_key(j, "terms");
			json_arr(j);
			for (; k < end; k++) {
				json_obj(j);
				json_kstr(j, "cmp", ks_cmp_text(e->terms[k].cmp));
				json_kstr(j, "constant_text", plan->term_const[k]);
				if (e->terms[k].operand.flags & KSTATS_OPERAND_SIGNED)
					json_ki64(j, "constant", (int64_t)e->terms[k].constant);
				else
					json_ku64(j, "constant", e->terms[k].constant);
				json_key(j, "operand");
				operand_json(j, &e->terms[k].operand, &plan->terms[k]);
				json_obj_end(j);
			}
			json_arr_end(j);
			json_obj_end(j);
		}
		json_arr_end(j);
		json_obj_end(j);
	}
	json_obj_end(j);
	json_end(j);
}

void ks_plan_print(const struct ks_plan *plan, const struct ks_plan_view *v)
{
	struct metric m[PLAN_METRICS];
	size_t nm = metrics(plan, v, m);

	if (opts.json)
		plan_json(plan, v, m, nm);
	else
		plan_text(plan, v, m, nm);
}

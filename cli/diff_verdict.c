// SPDX-License-Identifier: GPL-2.0
/*
 * diff's verdict: each --fail-if condition evaluated on every metric
 * compared (fail_if.c), the exit status that follows, and the verdict as
 * text and JSON. A gate does not pass what it did not decide: 4 when a
 * condition surely held; else 3 when a metric had no interval; else 5
 * when a condition was not decided (too few samples, no value) or a NAME
 * matched no metric of both A and B, unless --undecided=pass; else 0.
 */
#include <stdlib.h>
#include <string.h>

#include "kstatsctl.h"
#include "json.h"
#include "keys.h"
#include "model.h"
#include "text.h"
#include "diff.h"

void verdict_build(struct verdict *v)
{
	struct sides sd;
	size_t i, c, k;
	bool held;

	v->ev = xcalloc(v->nr * v->nr_conds + 1, sizeof(*v->ev));
	v->say = xcalloc(v->nr * v->nr_conds + 1, sizeof(*v->say));
	for (i = 0; i < v->nr; i++) {
		if (v->p[i].cmp == CMP_NONE) {
			v->not_compared++;
			continue;
		}
		if (!v->nr_conds)
			continue;
		sides_build(&sd, &v->p[i]);
		for (c = 0, held = false; c < v->nr_conds; c++) {
			k = i * v->nr_conds + c;
			ks_fail_if_eval(&v->conds[c], &sd, &v->ev[k]);
			ks_fail_if_say(v->say[k], sizeof(v->say[k]), &v->conds[c], &sd,
				       &v->ev[k]);
			v->count[v->ev[k].result]++;
			held |= v->ev[k].result == COND_HELD;
		}
		v->metrics_held += held;
		sides_free(&sd);
	}
	v->undecided = v->count[COND_FEW_SAMPLES] + v->count[COND_NO_VALUE] +
		       v->nr_nowhere;
	v->status = v->count[COND_HELD] ? EXIT_FAIL_IF :
		    v->not_compared ? EXIT_NO_INTERVAL :
		    v->undecided && !v->undecided_pass ? EXIT_UNDECIDED : EXIT_OK;
}

void verdict_free(struct verdict *v)
{
	size_t i;

	for (i = 0; i < v->nr; i++)
		ks_metric_free(&v->p[i].iv);
	free(v->p);
	free(v->ev);
	free(v->say);
	free(v->nowhere);
	free(v->nowhere_in);
}

static const char *plural(size_t n, const char *one, const char *more)
{
	return n == 1 ? one : more;
}

/* "6 not decided (1 not enough samples, 5 no value)", or NULL. */
static char *undecided_text(char *buf, size_t len, const struct verdict *v)
{
	size_t few = v->count[COND_FEW_SAMPLES], none = v->count[COND_NO_VALUE];

	if (few && none)
		snprintf(buf, len, "%zu not decided (%zu not enough samples, %zu no value)",
			 few + none, few, none);
	else if (few || none)
		snprintf(buf, len, "%zu not decided (%s)", few + none,
			 few ? "not enough samples" : "no value");
	else
		return NULL;
	return buf;
}

void verdict_text(const struct verdict *v)
{
	char t[KS_TEXT_LEN(KSTATS_NAME_LEN)], note[KS_TEXT_LEN(sizeof(v->p->note))];
	char start[sizeof(t) + 96];
	struct ks_wrap w = { stdout, ks_out_width(stdout), 0, "verdict: ", "  " };
	char item[160];
	size_t i, c;

	printf("verdict: ");
	if (!v->nr_conds)
		snprintf(item, sizeof(item), "no --fail-if condition; %zu %s compared",
			 v->nr - v->not_compared,
			 plural(v->nr - v->not_compared, "metric", "metrics"));
	else if (v->count[COND_HELD])
		snprintf(item, sizeof(item), "%zu %s held, on %zu %s", v->count[COND_HELD],
			 plural(v->count[COND_HELD], "condition", "conditions"),
			 v->metrics_held, plural(v->metrics_held, "metric", "metrics"));
	else
		snprintf(item, sizeof(item), "no condition held");
	ks_wrap_item(&w, "", item);
	if (undecided_text(item, sizeof(item), v))
		ks_wrap_item(&w, "; ", item);
	if (v->nr_nowhere) {
		snprintf(item, sizeof(item), "%zu %s compared nowhere", v->nr_nowhere,
			 plural(v->nr_nowhere, "NAME", "NAMEs"));
		ks_wrap_item(&w, "; ", item);
	}
	if (v->not_compared) {
		snprintf(item, sizeof(item), "%zu %s not compared", v->not_compared,
			 plural(v->not_compared, "metric", "metrics"));
		ks_wrap_item(&w, "; ", item);
	}
	if (v->only_a || v->only_b) {
		snprintf(item, sizeof(item), "%zu only in A, %zu only in B", v->only_a,
			 v->only_b);
		ks_wrap_item(&w, "; ", item);
	}
	if (v->undecided && v->undecided_pass && !v->count[COND_HELD] && !v->not_compared)
		ks_wrap_item(&w, "; ", "passed by --undecided=pass");
	snprintf(item, sizeof(item), "(exit status %d)", v->status);
	ks_wrap_item(&w, " ", item);
	ks_wrap_end(&w);
	for (i = 0; i < v->nr_nowhere; i++)
		printf("%s: compared nowhere: %s\n",
		       ks_metric_label(t, sizeof(t), v->nowhere[i]),
		       v->nowhere_in[i] == 3 ? "only in A, or only in B" :
		       v->nowhere_in[i] == 1 ? "only in A" : "only in B");
	/* A line each, wrapped under itself: "NAME: not compared: why". */
	for (i = 0; i < v->nr; i++) {
		ks_metric_label(t, sizeof(t), v->p[i].a->name);
		if (v->p[i].cmp == CMP_NONE) {
			snprintf(start, sizeof(start), "%s: not compared: ", t);
			ks_print_wrapped(stdout, start, "  ",
					 ks_text(note, sizeof(note), v->p[i].note));
			continue;
		}
		if (!v->nr_conds)
			printf("%s: compared (%s)\n", t, diff_cmp_names[v->p[i].cmp]);
		for (c = 0; c < v->nr_conds; c++) {
			snprintf(start, sizeof(start), "%s: %s: ", t, v->conds[c].text);
			ks_print_wrapped(stdout, start, "  ", v->say[i * v->nr_conds + c]);
		}
	}
}

void verdict_json(struct json *j, const struct verdict *v)
{
	json_key(j, "verdict");
	json_obj(j);
	json_ku64(j, "exit_status", (uint64_t)v->status);
	json_ku64(j, "held", v->count[COND_HELD]);
	json_ku64(j, "not_held", v->count[COND_NOT_HELD]);
	json_ku64(j, "not_enough_samples", v->count[COND_FEW_SAMPLES]);
	json_ku64(j, "no_value", v->count[COND_NO_VALUE]);
	json_ku64(j, "not_compared", v->not_compared);
	json_ku64(j, "only_a_count", v->only_a);
	json_ku64(j, "only_b_count", v->only_b);
	if (v->nr_conds) {
		size_t i;

		json_ku64(j, "undecided", v->undecided);
		json_kstr(j, "undecided_means", v->undecided_pass ? "pass" : "fail");
		json_key(j, "compared_nowhere");
		json_arr(j);
		for (i = 0; i < v->nr_nowhere; i++)
			json_str(j, v->nowhere[i]);
		json_arr_end(j);
	}
	json_obj_end(j);
}

/* The conditions that held, as "fail_if" has always listed them. */
void held_json(struct json *j, const struct verdict *v)
{
	const struct cond_eval *ev;
	size_t i, c;

	json_key(j, "fail_if");
	json_arr(j);
	for (i = 0; i < v->nr; i++)
		for (c = 0; c < v->nr_conds; c++) {
			ev = &v->ev[i * v->nr_conds + c];
			if (ev->result != COND_HELD || v->p[i].cmp == CMP_NONE)
				continue;
			json_obj(j);
			json_kstr(j, "name", v->p[i].a->name);
			json_kstr(j, "condition", v->conds[c].text);
			/* What made it hold: the change in %, or B's values. */
			json_key(j, v->conds[c].relative ? "change_pct" : "value");
			json_obj(j);
			json_kdbl(j, "min", v->conds[c].relative ? ev->lo : ev->b.lo);
			json_kdbl(j, "max", v->conds[c].relative ? ev->hi : ev->b.hi);
			json_obj_end(j);
			json_obj_end(j);
		}
	json_arr_end(j);
}

void metrics_json(struct json *j, const struct verdict *v, bool brief)
{
	size_t i, c;

	json_key(j, "metrics");
	json_arr(j);
	for (i = 0; i < v->nr; i++) {
		json_obj(j);
		json_kstr(j, "name", v->p[i].a->name);
		if (v->nr_conds && v->p[i].cmp != CMP_NONE) {
			json_key(j, "conditions");
			json_arr(j);
			for (c = 0; c < v->nr_conds; c++)
				ks_fail_if_json(j, &v->conds[c], &v->ev[i * v->nr_conds + c]);
			json_arr_end(j);
		}
		diff_json(j, &v->p[i], brief);
		json_obj_end(j);
	}
	json_arr_end(j);
}

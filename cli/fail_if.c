// SPDX-License-Identifier: GPL-2.0
/*
 * diff --fail-if COND[,COND...]: conditions on one statistic (count, mean,
 * min, max, or a percentile shown: p50 ... p99.99, or one of
 * --percentiles):
 *
 *   STAT>+10%  STAT<-5%     relative: the change from A to B (to B - A)
 *   STAT>2ms   STAT<1.5us   absolute: B's value (B - A's), with its unit
 *   count<1000              absolute: B's (B - A's) number of samples
 *
 * A condition holds only when it surely does: every value the slots allow
 * is past the threshold, so a slot's width alone never fails a job. It is
 * not decided (does not hold, and says why) when a percentile it needs has
 * fewer than KS_PCT_MIN_BEYOND samples beyond it, when a side has no
 * samples, for a change from 0, or for a value (2ms) of a metric with no
 * unit (a module's or a program's, unless --ns names it: units.c).
 */
#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "kstatsctl.h"
#include "json.h"
#include "stats.h"
#include "units.h"
#include "diff.h"

const char *const cond_result_names[] = {
	[COND_HELD] = "held", [COND_NOT_HELD] = "not_held",
	[COND_FEW_SAMPLES] = "not_enough_samples", [COND_NO_VALUE] = "no_value",
};

/* The statistic's row in diff's table, or -1. */
static int stat_row(const char *s, size_t len)
{
	int r;

	for (r = 0; r < NR_ROWS; r++)
		if (strlen(diff_row_name(r)) == len && !strncmp(s, diff_row_name(r), len))
			return r;
	return -1;
}

static int bad(const char *cond, const char *what)
{
	return ks_fail(EXIT_USAGE, "conditions are STAT>THRESHOLD or STAT<THRESHOLD: "
		       "'p99>+10%' (a change), 'p99>2ms' (a value), 'count<1000'",
		       "--fail-if: '%s': %s", cond, what);
}

/* The threshold @t of @f: "+10%", "2ms", or for count "1000". */
static int parse_threshold(const char *cond, const char *t, struct ks_fail_if *f)
{
	size_t len = strlen(t);
	uint64_t v;
	char *end;

	if (!len)
		return bad(cond, "no threshold after the operator");
	if (t[len - 1] == '%') {
		if (f->row == ROW_COUNT)
			return bad(cond, "count takes a number of samples, such as "
				   "count<1000, not a change (A and B - A cover "
				   "different durations)");
		f->relative = true;
		f->threshold = strtod(t, &end);
		if (end == t || end != t + len - 1 || !isfinite(f->threshold))
			return bad(cond, "not a change in %, such as +10% or -5%");
		return 0;
	}
	if (f->row == ROW_COUNT) {
		if (ks_parse_u64(t, &v))
			return bad(cond, "not a number of samples, such as 1000");
		f->threshold = (double)v;
		return 0;
	}
	if (*t == '+' || *t == '-')
		return bad(cond, "a signed number is a change and needs %, such as +10%");
	/* A bare number could be meant as ns or %: the unit says which. */
	if (!isalpha((unsigned char)t[len - 1]))
		return bad(cond, "a value needs its unit (2ms, 1.5us, 800ns), a change "
			   "its % (+10%)");
	if (ks_parse_value(t, &v))
		return bad(cond, "not a value such as 2ms, 1.5us or 800ns (units: ns, "
			   "us, ms, s)");
	f->threshold = (double)v;
	return 0;
}

static int parse_one(const char *s, struct ks_fail_if *f)
{
	const char *op = strpbrk(s, "<>=");

	memset(f, 0, sizeof(*f));
	snprintf(f->text, sizeof(f->text), "%s", s);
	if (!*s)
		return bad(s, "an empty condition");
	if (strlen(s) >= sizeof(f->text))
		return bad(s, "too long");
	if (!op || *op == '=')
		return bad(s, op ? "only > and < (a condition holds strictly past its "
			   "threshold)" : "no > or <");
	if (op == s)
		return bad(s, "no statistic before the operator");
	if (op[1] == '=' || op[1] == '<' || op[1] == '>')
		return bad(s, "only > and < (a condition holds strictly past its threshold)");
	f->row = stat_row(s, (size_t)(op - s));
	if (f->row < 0)
		return ks_fail(EXIT_USAGE, "use count, mean, min, max or a percentile "
			       "shown; add others with --percentiles (e.g. "
			       "--percentiles 50,95,99)",
			       "--fail-if: '%.*s' is not a statistic diff shows",
			       (int)(op - s), s);
	f->above = *op == '>';
	return parse_threshold(s, op + 1, f);
}

int ks_fail_if_parse(const char *s, struct ks_fail_if **v, size_t *nr)
{
	char *copy = xstrdup(s), *p = copy, *comma;
	int rc = 0;

	do {
		comma = strchr(p, ',');
		if (comma)
			*comma = '\0';
		*v = xrealloc(*v, *nr + 1, sizeof(**v));
		rc = parse_one(p, &(*v)[*nr]);
		if (rc)
			break;
		(*nr)++;
		p = comma + 1;
	} while (comma);
	free(copy);
	return rc;
}

static bool past(const struct ks_fail_if *f, double lo, double hi)
{
	return f->above ? lo > f->threshold : hi < f->threshold;
}

void ks_fail_if_eval(const struct ks_fail_if *f, const struct sides *sd,
		     struct cond_eval *ev)
{
	const struct ks_stats *a = &sd->st[0], *b = &sd->st[sd->nr - 1];

	memset(ev, 0, sizeof(*ev));
	ev->a = diff_row_range(a, f->row);
	ev->b = diff_row_range(b, f->row);
	if (f->row >= ROW_PCT) {
		const struct ks_est *ea = diff_row_est(a, f->row);
		const struct ks_est *eb = diff_row_est(b, f->row);

		ev->beyond_a = ea->beyond;
		ev->beyond_b = eb->beyond;
		ev->few_a = f->relative && ea->slot >= 0 && !ea->supported;
		ev->few_b = eb->slot >= 0 && !eb->supported;
	}
	ev->result = COND_NO_VALUE;
	ev->no_unit = !f->relative && f->row != ROW_COUNT && sd->unit == UNIT_NONE;
	if (ev->no_unit || isnan(ev->b.lo) || (f->relative && isnan(ev->a.lo)))
		return;
	if (ev->few_a || ev->few_b) {
		ev->result = COND_FEW_SAMPLES;
		return;
	}
	if (f->relative) {
		if (!diff_change(ev->a, ev->b, &ev->lo, &ev->hi))
			return;
		ev->result = past(f, ev->lo, ev->hi) ? COND_HELD : COND_NOT_HELD;
		return;
	}
	ev->result = past(f, ev->b.lo, ev->b.hi) ? COND_HELD : COND_NOT_HELD;
}

/* @r of @st as the text shows it: "6000", "1.234us (±0.1%)", "in [2us, 2.125us)". */
static char *value_text(char *buf, size_t len, const struct ks_stats *st, int r,
			uint32_t frac_bits, enum ks_unit u)
{
	if (r == ROW_COUNT)
		return ks_fmt_u128(buf, len, st->count);
	if (r == ROW_MEAN)
		return ks_fmt_mean(buf, len, st, u, false);
	return ks_fmt_est(buf, len, diff_row_est(st, r), frac_bits, u, true, false);
}

void ks_fail_if_say(char *buf, size_t len, const struct ks_fail_if *f,
		    const struct sides *sd, const struct cond_eval *ev)
{
	const char *stat = diff_row_name(f->row), *bn = sides_b_name(sd);
	const struct ks_stats *b = &sd->st[sd->nr - 1];
	char v[128], w[128];

	switch (ev->result) {
	case COND_FEW_SAMPLES:
		if (ev->few_a && ev->few_b)
			snprintf(buf, len, "not enough samples (%d beyond %s needed, %s "
				 "available in A, %s in %s)", KS_PCT_MIN_BEYOND, stat,
				 ks_fmt_u128(v, sizeof(v), ev->beyond_a),
				 ks_fmt_u128(w, sizeof(w), ev->beyond_b), bn);
		else
			snprintf(buf, len, "not enough samples (%d beyond %s needed, %s "
				 "available in %s)", KS_PCT_MIN_BEYOND, stat,
				 ks_fmt_u128(v, sizeof(v), ev->few_a ? ev->beyond_a :
					     ev->beyond_b), ev->few_a ? "A" : bn);
		return;
	case COND_NO_VALUE:
		if (ev->no_unit)
			snprintf(buf, len, "no value: the metric has no unit "
				 "('--ns NAME': it holds ns)");
		else if (isnan(ev->b.lo) || (f->relative && isnan(ev->a.lo)))
			snprintf(buf, len, "no value: %s has no samples",
				 isnan(ev->b.lo) ? bn : "A");
		else
			snprintf(buf, len, "no value: A's %s is 0, no change in %% from it",
				 stat);
		return;
	default:
		break;
	}
	if (f->relative)
		snprintf(v, sizeof(v), "%s changed %+.1f..%+.1f%%", stat,
			 floor(ev->lo * 10) / 10 + 0.0, ceil(ev->hi * 10) / 10 + 0.0);
	else
		snprintf(v, sizeof(v), "%s's %s %s", bn, stat,
			 value_text(w, sizeof(w), b, f->row, sd->h[sd->nr - 1].frac_bits,
				    sd->unit));
	snprintf(buf, len, "%s: %s", ev->result == COND_HELD ? "held" : "not held", v);
}

static void range_json(struct json *j, const char *key, struct range r)
{
	json_key(j, key);
	if (isnan(r.lo)) {
		json_null(j);
		return;
	}
	json_obj(j);
	json_kdbl(j, "min", r.lo);
	json_kdbl(j, "max", r.hi);
	json_obj_end(j);
}

void ks_fail_if_json(struct json *j, const struct ks_fail_if *f,
		     const struct cond_eval *ev)
{
	json_obj(j);
	json_kstr(j, "condition", f->text);
	json_kstr(j, "statistic", diff_row_name(f->row));
	json_kstr(j, "threshold_type", f->relative ? "change" : "value");
	/* A change's threshold in %; a value's in the metric's unit (or a count). */
	json_kdbl(j, f->relative ? "threshold_pct" : "threshold", f->threshold);
	json_kstr(j, "result", cond_result_names[ev->result]);
	if (f->relative)
		range_json(j, "a", ev->a);
	range_json(j, "b", ev->b);
	if (f->relative) {
		json_key(j, "change_pct");
		if (ev->result == COND_HELD || ev->result == COND_NOT_HELD) {
			json_obj(j);
			json_kdbl(j, "min", ev->lo);
			json_kdbl(j, "max", ev->hi);
			json_obj_end(j);
		} else {
			json_null(j);
		}
	}
	if (f->row >= ROW_PCT) {
		json_ku64(j, "beyond_needed", KS_PCT_MIN_BEYOND);
		if (f->relative)
			json_ku128(j, "beyond_a", ev->beyond_a);
		json_ku128(j, "beyond_b", ev->beyond_b);
	}
	json_obj_end(j);
}

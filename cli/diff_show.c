// SPDX-License-Identifier: GPL-2.0
/*
 * diff's details for one metric: count, mean, min, max and the percentiles
 * of both sides with the change, as a range where the values are known
 * only to their slots (the answer first); then, with --slots, per slot, A's
 * count, B's and B - A. A percentile with too few samples beyond it is
 * marked (stats.h, KS_PCT_MIN_BEYOND).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "kstatsctl.h"
#include "fmt.h"
#include "json.h"
#include "keys.h"
#include "model.h"
#include "stats.h"
#include "text.h"
#include "units.h"
#include "diff.h"

const char *const diff_cmp_names[] = { "interval", "whole", "none" };

void sides_build(struct sides *sd, const struct pair *p)
{
	const struct ks_metric *m[3] = { p->a, p->b, &p->iv };
	int i;

	sd->nr = p->cmp == CMP_INTERVAL ? 3 : 2;
	sd->unit = p->unit;
	for (i = 0; i < sd->nr; i++) {
		ks_hist_build(&sd->h[i], m[i], -1);
		ks_hist_stats(&sd->h[i], &sd->st[i]);
	}
}

void sides_free(struct sides *sd)
{
	int i;

	for (i = 0; i < sd->nr; i++)
		ks_hist_free(&sd->h[i]);
}

const char *sides_b_name(const struct sides *sd)
{
	return sd->nr == 3 ? "B-A" : "B";
}

const char *diff_row_name(int r)
{
	static const char *const fixed[] = { "count", "mean", "min", "max" };

	return r < ROW_PCT ? fixed[r] : ks_pct_names[r - ROW_PCT];
}

const struct ks_est *diff_row_est(const struct ks_stats *st, int r)
{
	if (r == 2)
		return &st->min;
	if (r == 3)
		return &st->max;
	return &st->pct[r - ROW_PCT];
}

struct range diff_row_range(const struct ks_stats *st, int r)
{
	const struct ks_est *e;
	double d;

	if (r == ROW_COUNT)
		return (struct range){ (double)st->count, (double)st->count };
	if (r == ROW_MEAN) {
		if (!st->count)
			return (struct range){ NAN, NAN };
		d = st->mean * st->mean_err;
		return (struct range){ st->mean - d, st->mean + d };
	}
	e = diff_row_est(st, r);
	if (e->slot < 0)
		return (struct range){ NAN, NAN };
	return (struct range){ (double)e->low, (double)e->last };
}

bool diff_change(struct range a, struct range b, double *lo, double *hi)
{
	if (isnan(a.lo) || isnan(b.lo) || a.lo <= 0)
		return false;
	*lo = (b.lo / a.hi - 1) * 100;
	*hi = (b.hi / a.lo - 1) * 100;
	return true;
}

/* One figure when both are exact (or nearly), else the range of ratios. */
static char *change(char *buf, size_t len, struct range a, struct range b)
{
	double lo, hi;

	if (!diff_change(a, b, &lo, &hi)) {
		snprintf(buf, len, a.hi == 0 && b.hi == 0 ? "0%%" : "-");
		return buf;
	}
	/* Rounded outwards; "+ 0.0" makes -0 a 0. */
	if (hi - lo < 0.1)
		snprintf(buf, len, "%+.1f%%", (lo + hi) / 2);
	else if (hi - lo < 1)
		snprintf(buf, len, "%+.1f..%+.1f%%", floor(lo * 10) / 10 + 0.0,
			 ceil(hi * 10) / 10 + 0.0);
	else
		snprintf(buf, len, "%+.0f..%+.0f%%", floor(lo) + 0.0, ceil(hi) + 0.0);
	return buf;
}

static char *count_change(char *buf, size_t len, ks_u128 a, ks_u128 b)
{
	if (!a)
		snprintf(buf, len, b ? "new" : "0%%");
	else
		snprintf(buf, len, "%+.1f%%", ((double)b - (double)a) / (double)a * 100);
	return buf;
}

/* "+12" or "-3": b - a, exactly. */
static char *delta(char *buf, size_t len, ks_u128 a, ks_u128 b)
{
	char n[44];

	ks_fmt_u128(n, sizeof(n), b < a ? a - b : b - a);
	snprintf(buf, len, "%c%s", b < a ? '-' : '+', n);
	return buf;
}

/* Row @r of @st as text in the table, marked when a percentile has too few beyond it. */
static char *row_text(char *buf, size_t len, const struct ks_stats *st, int r,
		      uint32_t frac_bits, enum ks_unit u)
{
	char v[120];

	if (r == ROW_COUNT)
		return ks_fmt_u128(buf, len, st->count);
	if (r == ROW_MEAN)
		return ks_fmt_mean(buf, len, st, u, true);
	ks_fmt_est(v, sizeof(v), diff_row_est(st, r), frac_bits, u, r < ROW_PCT, true);
	snprintf(buf, len, "%s%s", v, r < ROW_PCT ? "" : ks_pct_mark(diff_row_est(st, r)));
	return buf;
}

/* ---- text ---- */

/* Rows of cells as a table within the width (table.c): counts of 20 digits fit. */
static void add_row(struct ks_table *t, const char *a, const char *b, const char *c,
		    const char *d)
{
	ks_table_add(t, a);
	ks_table_add(t, b);
	ks_table_add(t, c);
	ks_table_add(t, d);
}

static void slots_text(const struct pair *p, const struct ks_hist *ha,
		       const struct ks_hist *hb)
{
	char label[112], x[48], y[48], d[48];
	struct ks_bounds bd;
	struct ks_table t;
	uint32_t s, from, to;

	if (p->a->frac_bits != p->b->frac_bits || !(ha->total || hb->total))
		return;
	putchar('\n');
	from = ha->total && (!hb->total || ha->first < hb->first) ? ha->first : hb->first;
	to = ha->total && (!hb->total || ha->last > hb->last) ? ha->last : hb->last;
	/* One number of decimals for every bound of the table. */
	ks_bounds_init(&bd, p->unit);
	for (s = from; s <= to; s++)
		if (ha->count[s] || hb->count[s])
			ks_bounds_add_slot(&bd, s, s, p->a->frac_bits);
	ks_table_init(&t, "lrrr");
	add_row(&t, "slot", "A", "B", p->cmp == CMP_INTERVAL ? "B-A" : "change");
	for (s = from; s <= to; s++) {
		if (!ha->count[s] && !hb->count[s])
			continue;
		add_row(&t, ks_bounds_slot(&bd, label, sizeof(label), s, s, p->a->frac_bits),
			ks_fmt_u128(x, sizeof(x), ha->count[s]),
			ks_fmt_u128(y, sizeof(y), hb->count[s]),
			delta(d, sizeof(d), ha->count[s], hb->count[s]));
	}
	ks_table_print(stdout, &t, ks_out_width(stdout));
	ks_table_free(&t);
}

void diff_text(const struct pair *p, bool slots)
{
	char x[128], y[128], c[48], t[KS_TEXT_LEN(sizeof(p->note))], start[32];
	struct ks_table tab;
	struct sides sd;
	int r, k;

	printf("%s%s%s: frac_bits %u", ks_color(opts.color_out, C_BOLD),
	       ks_metric_label(t, sizeof(t), p->a->name), ks_color(opts.color_out, C_RESET),
	       p->a->frac_bits);
	if (p->a->frac_bits != p->b->frac_bits)
		printf(" in A, %u in B: no per-slot comparison", p->b->frac_bits);
	putchar('\n');
	ks_text(t, sizeof(t), p->note);	/* hosts and kernels, from the files */
	if (p->cmp == CMP_NONE) {
		ks_print_wrapped(stdout, "note: no interval: ", "  ", t);
		printf("hint: 'kstatsctl diff --cumulative' compares A and B whole\n");
		return;
	}
	snprintf(start, sizeof(start), "%s: ", diff_cmp_names[p->cmp]);
	ks_print_wrapped(stdout, start, "  ", t);
	sides_build(&sd, p);
	k = sd.nr - 1;	/* B, or B - A */
	ks_table_init(&tab, "lrrr");
	add_row(&tab, "", "A", sides_b_name(&sd), "change");
	for (r = 0; r < NR_ROWS; r++) {
		row_text(x, sizeof(x), &sd.st[0], r, sd.h[0].frac_bits, p->unit);
		row_text(y, sizeof(y), &sd.st[k], r, sd.h[k].frac_bits, p->unit);
		if (r == ROW_COUNT && k == 2)	/* counts of other durations */
			snprintf(c, sizeof(c), "-");
		else if (r == ROW_COUNT)
			count_change(c, sizeof(c), sd.st[0].count, sd.st[1].count);
		else
			change(c, sizeof(c), diff_row_range(&sd.st[0], r),
			       diff_row_range(&sd.st[k], r));
		add_row(&tab, diff_row_name(r), x, y, c);
	}
	ks_table_print(stdout, &tab, ks_out_width(stdout));
	ks_table_free(&tab);
	if (ks_pct_few(&sd.st[0]) || ks_pct_few(&sd.st[k]))
		ks_pct_footnote(stdout);
	if (slots)
		slots_text(p, &sd.h[0], &sd.h[1]);
	sides_free(&sd);
}

/* ---- JSON ---- */

static void side_json(struct json *j, const char *key, const struct ks_stats *st,
		      int r, uint32_t frac_bits)
{
	if (r == ROW_COUNT) {
		json_ku128(j, key, st->count);
	} else if (r > ROW_MEAN) {
		fmt_json_kest(j, key, diff_row_est(st, r), frac_bits, r < ROW_PCT);
	} else if (!st->count) {
		json_key(j, key);
		json_null(j);
	} else {
		json_key(j, key);
		json_obj(j);
		json_kdbl(j, "value", st->mean);
		json_kdbl(j, "error", st->mean_err);
		json_obj_end(j);
	}
}

/* The change the text shows, as {min, max} in %, or null. */
static void change_json(struct json *j, const struct sides *sd, int r)
{
	int k = sd->nr - 1;
	double lo, hi;

	json_key(j, "change_pct");
	if (r == ROW_COUNT && k == 2) {
		json_null(j);
		return;
	}
	if (!diff_change(diff_row_range(&sd->st[0], r), diff_row_range(&sd->st[k], r),
			 &lo, &hi)) {
		json_null(j);
		return;
	}
	json_obj(j);
	json_kdbl(j, "min", lo);
	json_kdbl(j, "max", hi);
	json_obj_end(j);
}

/* Row @r's sides and change: {a, b[, interval], change_pct}'s members. */
static void row_json(struct json *j, const struct sides *sd, int r)
{
	static const char *const keys[3] = { "a", "b", "interval" };
	int i;

	for (i = 0; i < sd->nr; i++)
		side_json(j, keys[i], &sd->st[i], r, sd->h[i].frac_bits);
	change_json(j, sd, r);
}

/*
 * count, mean, min and max by name; the percentiles as show has them, an
 * array of {p, ...}.
 */
static void stats_json(struct json *j, const struct sides *sd)
{
	int r;

	json_key(j, "stats");
	json_obj(j);
	for (r = 0; r < ROW_PCT; r++) {
		json_key(j, diff_row_name(r));
		json_obj(j);
		row_json(j, sd, r);
		json_obj_end(j);
	}
	json_key(j, "percentiles");
	json_arr(j);
	for (r = ROW_PCT; r < NR_ROWS; r++) {
		json_obj(j);
		json_kdbl(j, "p", ks_pcts[r - ROW_PCT] * 100);
		row_json(j, sd, r);
		json_obj_end(j);
	}
	json_arr_end(j);
	json_obj_end(j);
}

void diff_json(struct json *j, const struct pair *p, bool brief)
{
	struct sides sd;
	uint32_t s;

	json_kstr(j, "comparison", diff_cmp_names[p->cmp]);
	json_key(j, "unit");	/* what the values are in, as show says it */
	if (p->unit == UNIT_NONE)
		json_null(j);
	else
		json_str(j, "ns");
	json_kstr(j, "note", p->note);
	if (brief)	/* --brief: the verdict, without the details */
		return;
	json_ku64(j, "frac_bits_a", p->a->frac_bits);
	json_ku64(j, "frac_bits_b", p->b->frac_bits);
	if (p->cmp == CMP_NONE)
		return;
	if (p->cmp == CMP_INTERVAL)
		json_ku64(j, "interval_ns", p->b->time_ns - p->a->time_ns);
	sides_build(&sd, p);
	json_key(j, "buckets");
	json_arr(j);
	for (s = 0; p->a->frac_bits == p->b->frac_bits && s < sd.h[0].nslots; s++) {
		if (!sd.h[0].count[s] && !sd.h[1].count[s])
			continue;
		json_obj(j);
		json_ku64(j, "low", kstats_slot_low(s, p->a->frac_bits));
		json_khigh(j, "high", s, p->a->frac_bits);
		json_ku128(j, "a", sd.h[0].count[s]);
		json_ku128(j, "b", sd.h[1].count[s]);
		json_kdelta(j, "delta", sd.h[0].count[s], sd.h[1].count[s]);
		json_obj_end(j);
	}
	json_arr_end(j);
	stats_json(j, &sd);
	sides_free(&sd);
}

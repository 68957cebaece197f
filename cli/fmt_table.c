// SPDX-License-Identifier: GPL-2.0
/*
 * The tables: --format percentiles (HdrHistogram's percentile
 * distribution), --format cdf (for gnuplot) and --format csv.
 *
 * percentiles: rows at HdrHistogram's percentile ticks (5 per halving of
 * the distance to 100%), columns Value, Percentile, TotalCount and
 * 1/(1-Percentile), then "#[...]" lines with mean, standard deviation,
 * max (as HdrHistogram gives it: the highest value of its slot, so never
 * below the mean), count, and the error bound. A Value is the middle of the slot the
 * percentile falls in, printed to the digits that slot allows (one below
 * the leading digit of its half-width); the Error line gives the largest
 * distance from a printed Value to either end of its slot, relative to it,
 * and a Few line the lowest Percentile with fewer than KS_PCT_MIN_BEYOND
 * samples beyond it (so has every higher one).
 *
 * cdf: "value fraction" rows, tab-separated: the fraction of samples below
 * each slot's upper bound, from the first non-empty slot to the last (all
 * slots with --all-slots), starting with (low bound of the first, 0).
 * With --per-cpu, CPUs are separate data sets (gnuplot's "index").
 *
 * csv: time,metric,cpu,low,high,count,sum,mean,unit per non-empty slot; cpu
 * is "all" unless --cpu or --per-cpu; sum and mean are empty when unknown
 * (a slot of 2^52 samples or more, whose part sum may have wrapped); unit
 * is what low, high, sum and mean are in (--units), empty for a metric of
 * no known unit (ks_metric_unit), whose numbers are as recorded.
 *
 * The tables use one unit throughout: --units, else ns for cdf and csv
 * (programs read them) and the unit of the median for percentiles; a
 * metric with no known unit, its own numbers.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "kstatsctl.h"
#include "fmt.h"
#include "keys.h"
#include "model.h"
#include "stats.h"
#include "text.h"
#include "units.h"

/* Calls @fn for the CPU selection of @sh: all, one CPU, or each CPU. */
static void each_row(FILE *out, const struct ks_metric *m, const struct ks_show *sh,
		     void (*fn)(FILE *, const struct ks_metric *, int,
				const struct ks_show *, bool))
{
	bool first = true;
	uint32_t r;

	if (sh->cpu >= 0) {
		fn(out, m, ks_metric_row(m, (uint32_t)sh->cpu), sh, true);
		return;
	}
	if (!sh->per_cpu) {
		fn(out, m, -1, sh, true);
		return;
	}
	for (r = 0; r < m->nr_cpus; r++) {
		if (!ks_metric_row_used(m, r))
			continue;
		fn(out, m, (int)r, sh, first);
		first = false;
	}
	if (first)
		fn(out, m, -1, sh, true);
}

static void title_comment(FILE *out, const struct ks_metric *m, int row,
			  const char *extra)
{
	char what[32];
	bool color = opts.color_out;

	if (row >= 0)
		snprintf(what, sizeof(what), "CPU %u", m->cpus[row].cpu);
	fputs("# ", out);
	opts.color_out = false;
	fmt_title(out, m, row >= 0 ? what : NULL);
	opts.color_out = color;
	if (extra)
		fprintf(out, "# %s\n", extra);
}

/* ---- percentiles ---- */

/*
 * @v (ns) in @u, "%12.*f" with the digits that @half (ns, its uncertainty)
 * allows: down to one below half's leading digit, but no finer than a
 * tenth of a ns (a slot's middle may end in .5); to the ns when exact.
 * Returns what it printed, in ns.
 */
static double tbl_val(char *buf, size_t len, double v, double half, enum ks_unit u)
{
	double scale = ks_unit_scale(u);
	int unit_dec = (int)lround(log10(scale)), dec = unit_dec;

	if (half > 0) {
		dec = 1 - (int)floor(log10(half / scale));
		dec = dec < 0 ? 0 : dec > unit_dec + 1 ? unit_dec + 1 : dec;
	} else if (v != floor(v)) {
		dec = 3;	/* an exact mean */
	}
	snprintf(buf, len, "%12.*f", dec, v / scale);
	return strtod(buf, NULL) * scale;
}

/*
 * One row; *@err: the largest relative distance from a Value to its slot's
 * ends; *@few: the lowest Percentile with too few samples beyond it.
 */
static void pct_row(FILE *out, const struct ks_hist *h, double p, enum ks_unit u,
		    double *err, double *few)
{
	ks_u128 rank = ks_quantile_rank(p, h->total);
	char v[48], n[48];
	struct ks_est e;
	double shown;

	ks_hist_quantile(h, p, &e);
	if (!e.supported && p < *few)
		*few = p;
	shown = tbl_val(v, sizeof(v), e.value, e.value * e.err, u);
	if (e.err > 0)
		*err = fmax(*err, fmax(shown - (double)e.low, (double)e.last - shown) / shown);
	else if (shown != e.value)
		*err = fmax(*err, fabs(shown - e.value) / shown);
	ks_fmt_u128(n, sizeof(n), rank);
	if (p >= 1.0)
		fprintf(out, "%s %2.12f %10s\n", v, p, n);
	else
		fprintf(out, "%s %2.12f %10s %14.2f\n", v, p, n, 1 / (1 - p));
}

/*
 * The standard deviation, as the middle of what the slots allow: from the
 * spread of the slot means alone up to that plus each slot's own widest.
 */
static void stddev(const struct ks_hist *h, const struct ks_stats *st, double *sd,
		   double *half)
{
	double between = 0, within = 0, d, mean, n;
	struct ks_est e;
	uint32_t s;

	for (s = h->first; s <= h->last; s++) {
		if (!h->count[s])
			continue;
		n = (double)h->count[s];
		ks_est_slot(&e, (int)s, h->frac_bits);
		mean = ks_hist_slot_mean(h, s);
		if (isnan(mean))
			mean = e.value;
		d = mean - st->mean;
		between += d * d * n;
		within += fmax(0, ((double)e.last - mean) * (mean - (double)e.low)) * n;
	}
	between = sqrt(between / (double)h->total);
	within = sqrt(between * between + within / (double)h->total);
	*sd = (between + within) / 2;
	*half = (within - between) / 2;
}

static void pct_one(FILE *out, const struct ks_metric *m, int row,
		    const struct ks_show *sh, bool first)
{
	char unit[64], a[48], b[48], err[24];
	double p = 0, ticks, sd, half, max_err = 0, few = 2;
	struct ks_hist h;
	struct ks_stats st;
	enum ks_unit u;
	int level;

	ks_hist_build(&h, m, row);
	ks_hist_stats(&h, &st);
	u = ks_metric_unit(m, ks_table_unit(sh->units, st.pct[0].value));
	snprintf(unit, sizeof(unit), "values in %s", u == UNIT_NONE ? "the metric's own "
		 "unit (none known)" : ks_unit_name(u));
	if (!first)
		fputc('\n', out);
	title_comment(out, m, row, unit);
	fprintf(out, "%12s %14s %10s %14s\n\n", "Value", "Percentile", "TotalCount",
		"1/(1-Percentile)");
	if (!h.total) {
		fputs("#[Total count    =            0]\n", out);
		ks_hist_free(&h);
		return;
	}
	/* --percentiles: those rows; else HdrHistogram's ticks, 5 per
	 * halving of the distance to 100%, and the maximum. */
	for (level = 0; ks_pcts_set && level < (int)ks_nr_pcts; level++)
		pct_row(out, &h, ks_pcts[level], u, &max_err, &few);
	while (!ks_pcts_set && p < 1.0 && ks_quantile_rank(p, h.total) < h.total) {
		pct_row(out, &h, p, u, &max_err, &few);
		level = (int)floor(log2(1 / (1 - p)));
		if (level > 48)
			break;
		ticks = 5 * ldexp(1.0, level + 1);
		p = floor(p * ticks + 0.5) / ticks + 1.0 / ticks;
	}
	if (!ks_pcts_set)
		pct_row(out, &h, 1.0, u, &max_err, &few);
	stddev(&h, &st, &sd, &half);
	tbl_val(a, sizeof(a), st.mean, st.mean * st.mean_err, u);
	tbl_val(b, sizeof(b), sd, half, u);
	fprintf(out, "#[Mean    = %s, StdDeviation   = %s]\n", a, b);
	/* HdrHistogram's max: the highest value of its slot, never below the mean. */
	tbl_val(a, sizeof(a), (double)st.max.last, 0, u);
	fprintf(out, "#[Max     = %s, Total count    = %12s]\n", a,
		ks_fmt_u128(b, sizeof(b), h.total));
	fprintf(out, "#[Buckets = %12u, SubBuckets     = %12u]\n",
		65 - m->frac_bits, 1u << m->frac_bits);
	fprintf(out, "#[Error   = %12s at most: each Value is its slot's middle "
		"(frac_bits %u)]\n", ks_fmt_err(err, sizeof(err), max_err), m->frac_bits);
	if (few <= 1)	/* a comment line: the rows stay HdrHistogram's */
		fprintf(out, "#[Few     = from Percentile %.12f on: < %d samples "
			"beyond each]\n", few, KS_PCT_MIN_BEYOND);
	ks_hist_free(&h);
}

void fmt_percentiles(FILE *out, const struct ks_metric *m, const struct ks_show *sh)
{
	each_row(out, m, sh, pct_one);
}

/* ---- cdf ---- */

static void cdf_one(FILE *out, const struct ks_metric *m, int row,
		    const struct ks_show *sh, bool first)
{
	enum ks_unit u = sh->units_set ? ks_table_unit(sh->units, 0) : UNIT_NS;
	uint32_t from, to, s;
	struct ks_hist h;
	char v[64], extra[96];
	ks_u128 cum = 0;

	if (sh->units_set && sh->units == UNIT_AUTO)
		u = UNIT_NS;
	u = ks_metric_unit(m, u);
	ks_hist_build(&h, m, row);
	from = sh->all_slots ? 0 : h.first;
	to = sh->all_slots ? h.nslots - 1 : h.last;
	if (!first)
		fputs("\n\n", out);
	snprintf(extra, sizeof(extra), "value (%s%sslot upper bound)\tfraction below it",
		 ks_unit_name(u), u == UNIT_NONE ? "" : ", ");
	title_comment(out, m, row, extra);
	if (from <= to && h.total) {
		fprintf(out, "%s\t0\n", ks_fmt_intnum(v, sizeof(v),
			kstats_slot_low(from, h.frac_bits), u));
		for (s = from; s <= to; s++) {
			cum += h.count[s];
			fprintf(out, "%s\t%.9g\n", ks_fmt_highnum(v, sizeof(v), s, h.frac_bits, u),
				(double)cum / (double)h.total);
		}
	}
	ks_hist_free(&h);
}

void fmt_cdf(FILE *out, const struct ks_metric *m, const struct ks_show *sh)
{
	each_row(out, m, sh, cdf_one);
}

/* ---- csv ---- */

void fmt_csv_header(FILE *out, const struct ks_show *sh)
{
	(void)sh;
	fputs("time,metric,cpu,low,high,count,sum,mean,unit\n", out);
}

static void csv_one(FILE *out, const struct ks_metric *m, int row,
		    const struct ks_show *sh, bool first)
{
	enum ks_unit u = ks_metric_unit(m, sh->units_set && sh->units != UNIT_AUTO ?
					    sh->units : UNIT_NS);
	char cpu[16], lo[64], hi[64], sum[64], mean[64], n[48];
	char name[KS_TEXT_LEN(KSTATS_NAME_LEN)];
	uint32_t from, to, s;
	struct ks_hist h;

	(void)first;
	ks_hist_build(&h, m, row);
	ks_metric_label(name, sizeof(name), m->name);
	from = sh->all_slots ? 0 : h.first;
	to = sh->all_slots ? h.nslots - 1 : h.last;
	if (row >= 0)
		snprintf(cpu, sizeof(cpu), "%u", m->cpus[row].cpu);
	else
		snprintf(cpu, sizeof(cpu), "all");
	for (s = from; s <= to && s < h.nslots; s++) {
		if (!h.count[s] && !sh->all_slots)
			continue;
		sum[0] = mean[0] = '\0';
		if (!isnan(ks_hist_slot_sum(&h, s))) {
			ks_fmt_num(sum, sizeof(sum), round(ks_hist_slot_sum(&h, s)), u);
			ks_fmt_num(mean, sizeof(mean), ks_hist_slot_mean(&h, s), u);
		}
		fprintf(out, "%llu.%09llu,%s,%s,%s,%s,%s,%s,%s,%s\n",
			(unsigned long long)(m->realtime_ns / 1000000000),
			(unsigned long long)(m->realtime_ns % 1000000000), name, cpu,
			ks_fmt_intnum(lo, sizeof(lo), kstats_slot_low(s, h.frac_bits), u),
			ks_fmt_highnum(hi, sizeof(hi), s, h.frac_bits, u),
			ks_fmt_u128(n, sizeof(n), h.count[s]), sum, mean, ks_unit_name(u));
	}
	ks_hist_free(&h);
}

void fmt_csv(FILE *out, const struct ks_metric *m, const struct ks_show *sh)
{
	each_row(out, m, sh, csv_one);
}

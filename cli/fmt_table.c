// SPDX-License-Identifier: GPL-2.0
/*
 * The tables: --format percentiles (HdrHistogram's percentile
 * distribution), --format cdf (for gnuplot) and --format csv.
 *
 * percentiles: rows at HdrHistogram's percentile ticks (5 per halving of
 * the distance to 100%), columns Value, Percentile, TotalCount and
 * 1/(1-Percentile), then "#[...]" lines with mean, standard deviation (of
 * the slot means), max, count, and the error bound.
 *
 * cdf: "value fraction" rows, tab-separated: the fraction of samples below
 * each slot's upper bound, from the first non-empty slot to the last (all
 * slots with --all-slots), starting with (low bound of the first, 0).
 * With --per-cpu, CPUs are separate data sets (gnuplot's "index").
 *
 * csv: time,metric,cpu,low,high,count,sum,mean per non-empty slot; cpu is
 * "all" unless --cpu or --per-cpu.
 *
 * The tables use one unit throughout: --units, else ns for cdf and csv
 * (programs read them) and the unit of the median for percentiles.
 */
#include <math.h>
#include <string.h>

#include "kstatsctl.h"

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
		if (!m->cpus[r].count)
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

static void pct_row(FILE *out, const struct ks_hist *h, double p, enum ks_unit u)
{
	double err, v = ks_hist_quantile(h, p, &err);
	uint64_t rank = kstats_quantile_rank(p, h->total);

	if (p >= 1.0)
		fprintf(out, "%12.3f %2.12f %10llu\n", v / ks_unit_scale(u), p,
			(unsigned long long)rank);
	else
		fprintf(out, "%12.3f %2.12f %10llu %14.2f\n", v / ks_unit_scale(u),
			p, (unsigned long long)rank, 1 / (1 - p));
}

static void pct_one(FILE *out, const struct ks_metric *m, int row,
		    const struct ks_show *sh, bool first)
{
	struct ks_hist h;
	struct ks_stats st;
	enum ks_unit u;
	double p = 0, var = 0, step;
	char unit[64];
	uint32_t s;
	int ticks, level;

	ks_hist_build(&h, m, row);
	ks_hist_stats(&h, &st);
	u = ks_table_unit(sh->units, st.pct[0]);
	snprintf(unit, sizeof(unit), "values in %s", ks_unit_name(u));
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
	/* HdrHistogram's ticks: 5 per halving of the distance to 100%. */
	while (p < 1.0 && kstats_quantile_rank(p, h.total) < h.total) {
		pct_row(out, &h, p, u);
		level = (int)floor(log2(1 / (1 - p)));
		if (level > 48)
			break;
		ticks = 5 << (level + 1);
		step = 1.0 / ticks;
		p = floor(p * ticks + 0.5) / ticks + step;
	}
	pct_row(out, &h, 1.0, u);
	for (s = h.first; s <= h.last; s++)
		if (h.count[s]) {
			double d = ks_hist_slot_mean(&h, s) - st.mean;

			var += d * d * (double)h.count[s];
		}
	fprintf(out, "#[Mean    = %12.3f, StdDeviation   = %12.3f]\n",
		st.mean / ks_unit_scale(u), sqrt(var / (double)h.total) / ks_unit_scale(u));
	fprintf(out, "#[Max     = %12.3f, Total count    = %12llu]\n",
		st.max / ks_unit_scale(u), (unsigned long long)h.total);
	fprintf(out, "#[Buckets = %12u, SubBuckets     = %12u]\n",
		65 - m->frac_bits, 1u << m->frac_bits);
	fprintf(out, "#[Error   = %11.3g%%, at most, of each value (frac_bits %u)]\n",
		st.err_bound * 100, m->frac_bits);
	ks_hist_free(&h);
}

void fmt_percentiles(FILE *out, const struct ks_metric *m, const struct ks_show *sh)
{
	each_row(out, m, sh, pct_one);
}

/* ---- cdf ---- */

static char *high_num(char *buf, size_t len, uint32_t s, uint32_t fb, enum ks_unit u)
{
	uint64_t last = kstats_slot_last(s, fb);

	if (last != UINT64_MAX)
		return ks_fmt_intnum(buf, len, last + 1, u);
	if (u == UNIT_NS) {
		snprintf(buf, len, "18446744073709551616");
		return buf;
	}
	return ks_fmt_num(buf, len, kstats_slot_high(s, fb), u);
}

static void cdf_one(FILE *out, const struct ks_metric *m, int row,
		    const struct ks_show *sh, bool first)
{
	enum ks_unit u = sh->units_set ? ks_table_unit(sh->units, 0) : UNIT_NS;
	uint32_t from, to, s;
	struct ks_hist h;
	char v[64], extra[96];
	uint64_t cum = 0;

	if (sh->units_set && sh->units == UNIT_AUTO)
		u = UNIT_NS;
	ks_hist_build(&h, m, row);
	from = sh->all_slots ? 0 : h.first;
	to = sh->all_slots ? h.nslots - 1 : h.last;
	if (!first)
		fputs("\n\n", out);
	snprintf(extra, sizeof(extra), "value (%s, slot upper bound)\tfraction below it",
		 ks_unit_name(u));
	title_comment(out, m, row, extra);
	if (from <= to && h.total) {
		fprintf(out, "%s\t0\n", ks_fmt_intnum(v, sizeof(v),
			kstats_slot_low(from, h.frac_bits), u));
		for (s = from; s <= to; s++) {
			cum += h.count[s];
			fprintf(out, "%s\t%.9g\n", high_num(v, sizeof(v), s, h.frac_bits, u),
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
	fputs("time,metric,cpu,low,high,count,sum,mean\n", out);
}

static void csv_one(FILE *out, const struct ks_metric *m, int row,
		    const struct ks_show *sh, bool first)
{
	enum ks_unit u = sh->units_set && sh->units != UNIT_AUTO ? sh->units : UNIT_NS;
	char cpu[16], lo[64], hi[64], sum[64], mean[64];
	uint32_t from, to, s;
	struct ks_hist h;

	(void)first;
	ks_hist_build(&h, m, row);
	from = sh->all_slots ? 0 : h.first;
	to = sh->all_slots ? h.nslots - 1 : h.last;
	if (row >= 0)
		snprintf(cpu, sizeof(cpu), "%u", m->cpus[row].cpu);
	else
		snprintf(cpu, sizeof(cpu), "all");
	for (s = from; s <= to && s < h.nslots; s++) {
		if (!h.count[s] && !sh->all_slots)
			continue;
		if (h.count[s]) {
			ks_fmt_num(sum, sizeof(sum), round(ks_hist_slot_sum(&h, s)), u);
			ks_fmt_num(mean, sizeof(mean), ks_hist_slot_mean(&h, s), u);
		} else {
			sum[0] = mean[0] = '\0';
		}
		fprintf(out, "%llu.%09llu,%s,%s,%s,%s,%llu,%s,%s\n",
			(unsigned long long)(m->realtime_ns / 1000000000),
			(unsigned long long)(m->realtime_ns % 1000000000), m->name, cpu,
			ks_fmt_intnum(lo, sizeof(lo), kstats_slot_low(s, h.frac_bits), u),
			high_num(hi, sizeof(hi), s, h.frac_bits, u),
			(unsigned long long)h.count[s], sum, mean);
	}
	ks_hist_free(&h);
}

void fmt_csv(FILE *out, const struct ks_metric *m, const struct ks_show *sh)
{
	each_row(out, m, sh, csv_one);
}

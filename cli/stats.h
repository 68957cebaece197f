/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A metric's histogram and what it tells: counts per slot, estimates
 * bounded by their slot, percentiles, mean (model.c), and their text
 * (units.c).
 */
#ifndef KSTATSCTL_STATS_H
#define KSTATSCTL_STATS_H

#include "model.h"

/*
 * A dense histogram of one CPU or of all of them, for the formatters:
 * count and part sum per slot (summed over CPUs in 128 bits), plus what
 * every footer needs.
 */
/* The percentiles shown: 50, 90, 99, 99.9, 99.99, or --percentiles' list. */
#define KS_MAX_PCT	16
extern double ks_pcts[KS_MAX_PCT];			/* as fractions */
extern char ks_pct_names[KS_MAX_PCT][24];		/* "p99.5" */
extern size_t ks_nr_pcts;
extern bool ks_pcts_set;
int ks_pcts_parse(const char *s);	/* 0, or EINVAL with a usage error printed */

struct ks_hist {
	uint32_t frac_bits, nslots;
	bool sums_unknown;	/* the metric's */
	ks_u128 *count, *part_sum;
	ks_u128 total;
	uint32_t first, last;	/* non-empty slots; first > last when empty */
	uint32_t used;		/* non-empty slots */
};

/*
 * A value known only to lie in one slot: some integer in [low, last]. The
 * estimate is the middle, and err half the width relative to it, the
 * tightest bound the slot allows (0: a slot of one value, exact).
 */
struct ks_est {
	int slot;		/* -1: no samples */
	uint64_t low, last;
	double value, err;
	/* A percentile's: the samples ranked above it, and whether that is enough. */
	ks_u128 beyond;
	bool supported;
};

/*
 * A percentile is "supported" when at least KS_PCT_MIN_BEYOND samples lie
 * beyond it (count x (1 - q) >= 10); else it rests on the few largest
 * samples (at 0 beyond it, it is the max), is marked where it is shown,
 * and never decides a diff --fail-if condition. Why 10: the samples beyond
 * the value shown are the only evidence of which quantile it is; their
 * number is a Poisson count, whose 95% interval at 10 is 4.8 to 18.4: the
 * tail the value cuts off is within a factor of 2 of 1 - q. At 4 it would
 * be 1.1 to 10.2, at 0 nothing (kstatsctl(8), PERCENTILES).
 */
#define KS_PCT_MIN_BEYOND	10

struct ks_stats {
	ks_u128 count;
	double sum, mean;
	double mean_err;	/* relative bound of sum and mean */
	struct ks_est min, max;
	struct ks_est pct[KS_MAX_PCT];
};
/* "*" after a percentile that is not supported, else "". */
const char *ks_pct_mark(const struct ks_est *e);
/* Does one of @st's percentiles carry it? Then print the footnote. */
bool ks_pct_few(const struct ks_stats *st);
void ks_pct_footnote(FILE *out);

/* @row: a CPU row, or -1 for every CPU. */
void ks_hist_build(struct ks_hist *h, const struct ks_metric *m, int row);
void ks_hist_free(struct ks_hist *h);
void ks_hist_stats(const struct ks_hist *h, struct ks_stats *st);
/*
 * Mean and sum of slot @s's samples; NAN when its sum may have wrapped. Of
 * all CPUs: exact. Of one CPU: inside the slot, its part sum capped
 * (kstats_slot_part_clamp(): a migration can split count and part sum).
 */
double ks_hist_slot_mean(const struct ks_hist *h, uint32_t s);
double ks_hist_slot_sum(const struct ks_hist *h, uint32_t s);
/* @slot as an estimate; the rank and slot of the q-quantile (0..1). */
void ks_est_slot(struct ks_est *e, int slot, uint32_t frac_bits);
ks_u128 ks_quantile_rank(double q, ks_u128 total);
void ks_hist_quantile(const struct ks_hist *h, double q, struct ks_est *e);
/*
 * Formats @e as text: "23.5ns (±32%)", "5ns (exact)"; with @bounds the
 * slot instead, "in [16ns, 32ns)" or "20ns". Tables use the bare forms:
 * "23.5ns ±32%" and "[16ns, 32ns)".
 */
char *ks_fmt_est(char *buf, size_t len, const struct ks_est *e, uint32_t frac_bits,
		 enum ks_unit u, bool bounds, bool table);
/*
 * The same without the ±: in *@err the relative bound ks_fmt_err() would
 * print (0: exact), for tables with one ± column per row.
 */
char *ks_fmt_est_value(char *buf, size_t len, const struct ks_est *e, enum ks_unit u,
		       double *err);
char *ks_fmt_mean_value(char *buf, size_t len, const struct ks_stats *st,
			enum ks_unit u, double *err);
/* "7.469us", or "7.5us (±0.2%)" when the last digits are not all known. */
char *ks_fmt_mean(char *buf, size_t len, const struct ks_stats *st, enum ks_unit u,
		  bool table);

#endif /* KSTATSCTL_STATS_H */

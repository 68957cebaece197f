/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Output formats: show's printers (fmt_*.c, show.c).
 */
#ifndef KSTATSCTL_FMT_H
#define KSTATSCTL_FMT_H

#include "stats.h"

enum ks_format {
	FMT_HIST, FMT_PERCENTILES, FMT_CDF, FMT_RAW, FMT_JSON, FMT_CSV, FMT_PROM,
};

struct ks_show {
	enum ks_format format;
	int cpu;		/* a CPU number, or -1 */
	bool per_cpu;
	bool all_slots;
	int bits;		/* hist: rows at this frac_bits (merged), or -1 */
	const char *cpu_list;	/* --cpu with several CPUs (the metrics hold only them) */
	enum ks_unit units;
	bool units_set;
	const struct ks_source *src;
	/* --watch: this interval (0 otherwise). */
	unsigned int interval;
	double interval_s;
};

int ks_format_parse(const char *s, enum ks_format *f);
extern const char *const ks_format_names[];
/* Prints @nr metrics in sh->format; 0 or an exit code. */
int ks_show_metrics(FILE *out, const struct ks_metric *m, size_t nr,
		    const struct ks_show *sh);

void fmt_hist(FILE *out, const struct ks_metric *m, const struct ks_show *sh);
void fmt_percentiles(FILE *out, const struct ks_metric *m, const struct ks_show *sh);
void fmt_cdf(FILE *out, const struct ks_metric *m, const struct ks_show *sh);
void fmt_raw(FILE *out, const struct ks_metric *m);
void fmt_csv_header(FILE *out, const struct ks_show *sh);
void fmt_csv(FILE *out, const struct ks_metric *m, const struct ks_show *sh);
/* Every metric of @m, and the closing "# EOF". */
void fmt_prom(FILE *out, const struct ks_metric *m, size_t nr, const struct ks_show *sh);
/* The shortest decimal that reads back as @d, as Prometheus writes floats. */
char *ks_prom_float(char *buf, size_t len, double d);
struct json;
void fmt_json_metric(struct json *j, const struct ks_metric *m,
		     const struct ks_show *sh);
void fmt_json_source(struct json *j, const struct ks_source *src);
/*
 * An estimate's members: "low", "high" (exclusive), "value" and "error",
 * or the bounds alone with @bounds (min, max). fmt_json_kest: @key, then
 * {those} or null when there are no samples.
 */
void fmt_json_est(struct json *j, const struct ks_est *e, uint32_t frac_bits,
		  bool bounds);
void fmt_json_kest(struct json *j, const char *key, const struct ks_est *e,
		   uint32_t frac_bits, bool bounds);
/* "selftest.b3 (module kstats_selftest, frac_bits 3, active)" header. */
void fmt_title(FILE *out, const struct ks_metric *m, const char *what);
/* The same, @prefix on each of its lines ("# " in tables). */
void fmt_title_prefixed(FILE *out, const struct ks_metric *m, const char *what,
			const char *prefix);

#endif /* KSTATSCTL_FMT_H */

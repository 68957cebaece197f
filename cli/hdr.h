/* SPDX-License-Identifier: GPL-2.0 */
/*
 * HdrHistogram: the V2 encoding (hdr_codec.c), interval logs (hdr_log.c),
 * export --format hdr (export_hdr.c); what a reading decodes (the selected
 * tags, the --from/--to window), the heatmap's columns, and the
 * "#[kstats: ...]" comment the writer adds per tag.
 */
#ifndef KSTATS_HDR_H
#define KSTATS_HDR_H

#include "model.h"
#include "names.h"


/* One HdrHistogram: its layout and its counts by bucket index. */
struct ks_hdr {
	int32_t sig_figs;
	int64_t lowest, highest;	/* discernible; trackable */
	double ratio;			/* integer to value conversion ratio */
	uint32_t half_mag, unit_mag;	/* log2 of sub-buckets per power of two; of lowest */
	uint64_t *counts;
	size_t nr;
};
char *ks_base64(const uint8_t *p, size_t len);
int ks_unbase64(const char *s, size_t len, uint8_t **out, size_t *out_len,
		char *why, size_t why_len);
uint32_t ks_hdr_half_magnitude(uint32_t sig_figs);
/* The values of bucket @i: [*lo, *hi]. */
void ks_hdr_bucket(const struct ks_hdr *h, uint32_t i, uint64_t *lo, uint64_t *hi);
int ks_hdr_from_metric(const struct ks_metric *m, struct ks_hdr *h, uint64_t *max);
char *ks_hdr_encode(const struct ks_hdr *h);
/* A compressed V2 record; 0, or -1 with @why. */
int ks_hdr_decode(const uint8_t *buf, size_t len, struct ks_hdr *h, char *why,
		  size_t why_len);
void ks_hdr_free(struct ks_hdr *h);

/* Does @buf look like an hlog rather than a snapshot file? */
bool ks_hlog_detect(const void *buf, size_t len);
/* The log as a set: one metric per tag, its intervals summed (hdr.h: which). */
int ks_hlog_parse_set(const char *path, const void *buf, size_t len, struct ks_set *set);
void ks_hlog_write_header(FILE *f, double start_s);
/* One line; -1 when a sample is past HdrHistogram's range (2^63 - 1), 1 when counts were cut. */
int ks_hlog_write_metric(FILE *f, const struct ks_metric *m, double start_s,
			 double length_s);

/*
 * An interval's lines for @set's metrics (those that fit), each since its
 * namesake in @prev (none there: since @tick_s; no @prev: all of it, at
 * its snapshot's time); how many were written (export_hdr.c).
 */
size_t ks_hlog_write_lines(FILE *f, const struct ks_set *set, const struct ks_set *prev,
			   double base_s, double tick_s);
/* @mem's buffered text out to @fd in one write, flushed to the disk for a @path. */
int ks_hlog_push(FILE *mem, char **text, size_t *len, int fd, const char *path);

/* export --format hdr (export_hdr.c): once, or every @interval s to @path. */
int ks_export_hdr_once(FILE *f, const struct ks_set *set);
int ks_export_hdr_loop(const struct ks_names *pats, const char *path, double interval,
		       long count);

/*
 * The tags the next readings decode: those @pats matches (no patterns:
 * all). Other tags' lines are counted and skipped before their base64 is
 * decoded; they stay in the set as names without samples, so that a
 * pattern that matches nothing still lists them. @pats must outlive the
 * readings (NULL: all again).
 */
void ks_hlog_select(const struct ks_names *pats);

/*
 * --from / --to: only the intervals that start in [from, to) are read.
 * @arg is seconds from the log's start (its StartTime, else its first
 * interval), e.g. 3600 or 1.5, or a UTC clock time HH:MM[:SS] (on the
 * log's first day; the next day when earlier than the log's start), or a
 * UTC date and time YYYY-MM-DDTHH:MM[:SS]. 0 or EXIT_USAGE (printed).
 */
int ks_hlog_window_parse(const char *arg, bool to);
/* Is a window set (the notes say so)? */
bool ks_hlog_window_set(void);

struct ks_plot_interval;
/*
 * The heatmap's feed: the intervals of tag @name summed into at most
 * @max_cols columns of equal time (each a whole number of intervals'
 * length); *@iv (freed with ks_hlog_columns_free) holds the columns that
 * have intervals, *@bin_s their width, *@nr_intervals the intervals read.
 * 0 or an exit code (printed).
 */
int ks_hlog_columns(const char *path, const void *buf, size_t len, const char *name,
		    size_t max_cols, struct ks_plot_interval **iv, size_t *nr,
		    double *bin_s, size_t *nr_intervals);
void ks_hlog_columns_free(struct ks_plot_interval *iv, size_t nr);
/* The tags of the log at @buf, for the one-metric rule (names only). */
int ks_hlog_tags(const char *path, const void *buf, size_t len, struct ks_set *set);

/* "#[kstats: tag=NAME frac_bits=N unit=ns|none]": how to read @m's lines back. */
void ks_hlog_write_kstats(FILE *f, const struct ks_metric *m);

#endif

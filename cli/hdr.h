/* SPDX-License-Identifier: GPL-2.0 */
/*
 * HdrHistogram interval logs, beyond kstatsctl.h's V2 codec: what a reading
 * decodes (the selected tags, the --from/--to window), the heatmap's
 * columns, and the "#[kstats: ...]" comment the writer adds per tag.
 */
#ifndef KSTATS_HDR_H
#define KSTATS_HDR_H

#include "kstatsctl.h"

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

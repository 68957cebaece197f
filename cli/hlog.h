/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The HdrHistogram log reader's insides, shared by hdr_log.c (lines),
 * hlog_bits.c (sums and the precision of each tag), hlog_window.c
 * (--from/--to) and hlog_columns.c (the heatmap's columns).
 */
#ifndef KSTATS_HLOG_H
#define KSTATS_HLOG_H

#include "hdr.h"

/* One tag of a log: what its lines in the window add up to. */
struct hlog_tag {
	char name[KSTATS_NAME_LEN];	/* "untagged" for lines without */
	bool selected;			/* decoded (ks_hlog_select) */
	size_t intervals_seen;		/* its lines */
	size_t intervals;		/* of those, in the window and summed */
	/* Per frac_bits b, each bucket's count in the slot of its highest value. */
	uint64_t *sum[KSTATS_FRAC_BITS_MAX + 1];
	uint64_t total;
	int nest;		/* finest b where every bucket lies in one slot; -1 none */
	uint32_t layout_bits;	/* the finest b its layouts could give: min(half_mag, 5) */
	/*
	 * "#[kstats: ...]"'s frac_bits; -1 none, -2 comments that disagree
	 * (values still as they are), -3 one after the tag's first line.
	 */
	int kbits;
	bool kns;		/* ... and its unit: ns, else none */
	double t0, t1, min_len;	/* first start, last end, shortest interval (epoch s) */
};

struct hlog_read;
/* What is done with a decoded line of a selected tag in the window. */
typedef int (*hlog_line_fn)(struct hlog_read *r, struct hlog_tag *t, double start,
			    double length, const struct ks_hdr *h);

struct hlog_read {
	const char *path;
	bool names_only;		/* decode nothing (ks_hlog_tags) */
	const char *only;		/* decode this tag only, not ks_hlog_select's */
	hlog_line_fn line_fn;		/* NULL: sum each tag's lines */
	void *priv;			/* line_fn's */
	unsigned int lineno;
	char why[256];			/* the last line's error */
	double start_time, base_time;	/* NAN: not given */
	double offset;			/* added to each start: BaseTime's */
	double log_start, from, to;	/* epoch s: the window [from, to) */
	bool started;			/* a histogram line was read */
	size_t nr_lines, nr_window;	/* histograms; in the window */
	double first_start, last_start;	/* interval starts (epoch s) */
	struct hlog_tag *tags;
	size_t nr_tags;
	char *line;			/* the line being read, copied */
};

enum ks_unit ks_hlog_unit(void);
struct hlog_tag *ks_hlog_tag(struct hlog_read *r, const char *name);
/* Reads every line of @buf; 0 or an exit code (printed). */
int ks_hlog_scan(struct hlog_read *r, const char *buf, size_t len);
void ks_hlog_read_free(struct hlog_read *r);

/* hlog_bits.c */
int ks_hlog_tag_add(struct hlog_read *r, struct hlog_tag *t, const struct ks_hdr *h);
/* The frac_bits @t is read at, its values' ns per unit, said once (warnings). */
uint32_t ks_hlog_tag_bits(struct hlog_read *r, struct hlog_tag *t, bool warn);
uint64_t ks_hlog_tag_scale(const struct hlog_tag *t);
/* @t's sum as a metric at its frac_bits; 0 or an exit code (printed). */
int ks_hlog_tag_metric(struct hlog_read *r, struct hlog_tag *t, struct ks_metric *m);
/* A metric of one CPU holding @dense (slots of @bits); its name, kind and unit from @t. */
void ks_hlog_metric(const struct hlog_tag *t, uint32_t bits, const uint64_t *dense,
		    double end_s, struct ks_metric *m);

/* hlog_window.c: --from/--to as epoch seconds, for a log starting at @start. */
void ks_hlog_window_resolve(double log_start, double *from, double *to);

#endif

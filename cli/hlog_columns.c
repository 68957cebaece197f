// SPDX-License-Identifier: GPL-2.0
/*
 * The heatmap's feed from an interval log: one tag's intervals summed into
 * at most as many columns of equal time as the plot has pixels, so that a
 * day of 1 s intervals is about 700 columns, each the sum of its
 * intervals, rather than 86,400 rectangles drawn over each other.
 *
 * Two passes over the log, both decoding only that tag: the first finds
 * the frac_bits its counts are read at (hlog_bits.c, as show reads them)
 * and its time span; the second adds each interval into its column's
 * slots at those frac_bits. A column is the heatmap's round width of at
 * least the shortest interval (1 s intervals: a whole number of them), so
 * a log short enough keeps one column per interval.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "kstatsctl.h"
#include "hdr.h"
#include "model.h"
#include "plot.h"
#include "hlog.h"

struct columns {
	uint32_t bits;
	double t0, bin;
	size_t nr;
	uint64_t **dense;	/* per column, NULL until an interval falls in it */
	size_t *intervals;
};

static size_t column_of(const struct columns *c, double start)
{
	double k = c->bin > 0 ? floor((start - c->t0) / c->bin + 1e-9) : 0;

	return k < 0 ? 0 : k >= (double)c->nr ? c->nr - 1 : (size_t)k;
}

static int column_line(struct hlog_read *r, struct hlog_tag *t, double start,
		       double length, const struct ks_hdr *h)
{
	struct columns *c = r->priv;
	uint64_t scale = ks_hlog_tag_scale(t), lo, hi, *d;
	size_t k = column_of(c, start);
	uint32_t i;

	(void)length;
	if (!c->dense[k])
		c->dense[k] = xcalloc(kstats_hist_nslots(c->bits), sizeof(*c->dense[k]));
	d = c->dense[k];
	c->intervals[k]++;
	for (i = 0; i < h->nr; i++) {
		if (!h->counts[i])
			continue;
		ks_hdr_bucket(h, i, &lo, &hi);
		/* The first pass checked hi * scale and the sums. */
		d[kstats_hist_slot(hi * scale, c->bits)] += h->counts[i];
	}
	return 0;
}

/* Columns of whole intervals, at most @max of them. */
static void layout(struct columns *c, const struct hlog_tag *t, size_t max)
{
	double span = t->t1 - t->t0, need;

	c->t0 = t->t0;
	/*
	 * The heatmap's own round width (plot.h), so that it draws each column
	 * once: columns of different numbers of intervals would stripe.
	 */
	need = span / (double)max;
	if (isfinite(t->min_len) && t->min_len > 0)
		need = fmax(need, t->min_len);
	c->bin = ks_plot_round_width(need);
	c->nr = c->bin > 0 ? (size_t)fmax(1, ceil(span / c->bin - 1e-9)) : 1;
	c->dense = xcalloc(c->nr, sizeof(*c->dense));
	c->intervals = xcalloc(c->nr, sizeof(*c->intervals));
}

static void to_intervals(const struct columns *c, const struct hlog_tag *t,
			 struct ks_plot_interval **iv, size_t *nr)
{
	struct ks_metric *ms;
	size_t k, n = 0;

	for (k = 0; k < c->nr; k++)
		n += c->dense[k] != NULL;
	*iv = xcalloc(n ? n : 1, sizeof(**iv));
	ms = xcalloc(n ? n : 1, sizeof(*ms));
	for (k = 0; k < c->nr; k++) {
		double start = c->t0 + (double)k * c->bin;

		if (!c->dense[k])
			continue;
		ks_hlog_metric(t, c->bits, c->dense[k], start + c->bin, &ms[*nr]);
		snprintf(ms[*nr].owner, sizeof(ms[*nr].owner), "HdrHistogram log, %zu "
			 "interval%s", c->intervals[k], c->intervals[k] == 1 ? "" : "s");
		(*iv)[*nr] = (struct ks_plot_interval){ start, c->bin, &ms[*nr] };
		(*nr)++;
	}
}

int ks_hlog_columns(const char *path, const void *buf, size_t len, const char *name,
		    size_t max_cols, struct ks_plot_interval **iv, size_t *nr,
		    double *bin_s, size_t *nr_intervals)
{
	struct hlog_read r1 = { .path = path, .only = name }, r2 = r1;
	struct columns c = { 0 };
	struct hlog_tag *t;
	size_t k;
	int rc;

	*iv = NULL;
	*nr = 0;
	rc = ks_hlog_scan(&r1, buf, len);
	if (rc)
		goto out;
	t = ks_hlog_tag(&r1, name);
	*nr_intervals = t->intervals;
	if (!t->intervals || !max_cols) {
		*bin_s = 0;
		goto out;
	}
	c.bits = ks_hlog_tag_bits(&r1, t, true);
	layout(&c, t, max_cols);
	*bin_s = c.bin;
	r2.line_fn = column_line;
	r2.priv = &c;
	rc = ks_hlog_scan(&r2, buf, len);
	if (!rc)
		to_intervals(&c, t, iv, nr);
out:
	for (k = 0; k < c.nr; k++)
		free(c.dense[k]);
	free(c.dense);
	free(c.intervals);
	ks_hlog_read_free(&r1);
	ks_hlog_read_free(&r2);
	return rc;
}

void ks_hlog_columns_free(struct ks_plot_interval *iv, size_t nr)
{
	size_t i;

	for (i = 0; i < nr; i++)
		ks_metric_free((struct ks_metric *)iv[i].m);
	if (nr)
		free((struct ks_metric *)iv[0].m);
	free(iv);
}

// SPDX-License-Identifier: GPL-2.0
/*
 * plot percentiles: the percentile spectrum, as HdrHistogram users compare
 * tails. x: 1/(1 - p) on a log axis, labelled as the percentile p (1 is
 * 0%, 10 is 90%, 100 is 99%, 1000 is 99.9%), so that each "nine" gets as
 * much room as the body; y: latency, on a log axis.
 *
 * Each curve is what 'show' prints at every percentile: the middle of the
 * slot the percentile lies in (ks_hist_quantile()), drawn over a band, the
 * slot itself, [low, high): all that is known of the value. A curve ends
 * at p = 1 - 1/n, the last rank of its n samples (the max); where fewer
 * than KS_PCT_MIN_BEYOND samples lie beyond a percentile (x > n/10), the
 * line is dashed, as 'show' marks such a percentile with "*".
 */
#include <math.h>
#include <stdlib.h>

#include "kstatsctl.h"
#include "plot.h"
#include "stats.h"


/* The value of 1/(1 - p) at pixel column @px of @x. */
static double tail_at(const struct ks_axis *x, double px)
{
	double t = (px - x->p0) / (x->p1 - x->p0);

	return pow(10, log10(x->lo) + t * (log10(x->hi) - log10(x->lo)));
}

/* One curve: its band (the slots), then its line, solid while supported. */
static void spectrum(FILE *out, const struct ks_hist *h, const struct ks_axis *x,
		     const struct ks_axis *y, const char *color, size_t i)
{
	double end = ks_axis_px(x, (double)h->total), px, *lo, *hi, *mid;
	size_t n = 0, k, cut;
	bool *few;
	struct ks_est e;

	k = (size_t)(end - x->p0) + 2;
	lo = xcalloc(k, sizeof(*lo));
	hi = xcalloc(k, sizeof(*hi));
	mid = xcalloc(k, sizeof(*mid));
	few = xcalloc(k, sizeof(*few));
	for (px = x->p0; n < k; px = fmin(px + 1, end)) {
		ks_hist_quantile(h, 1 - 1 / tail_at(x, px), &e);
		lo[n] = ks_axis_px(y, (double)e.low);
		hi[n] = ks_axis_px(y, (double)e.last + 1);
		mid[n] = ks_axis_px(y, e.value);
		few[n++] = !e.supported;
		if (px >= end)
			break;
	}
	fprintf(out, "<polygon class=\"pctband\" data-series=\"%zu\" fill=\"%s\" "
		"fill-opacity=\"0.25\" stroke=\"none\" points=\"", i, color);
	for (k = 0; k < n; k++)
		fprintf(out, "%.2f,%.2f ", fmin(x->p0 + (double)k, end), hi[k]);
	for (k = n; k-- > 0;)
		fprintf(out, "%.2f,%.2f ", fmin(x->p0 + (double)k, end), lo[k]);
	fputs("\"/>\n", out);
	for (cut = 0; cut < n && !few[cut]; cut++)
		;
	fprintf(out, "<polyline class=\"pct\" data-series=\"%zu\" fill=\"none\" stroke=\"%s\" "
		"stroke-width=\"2\" points=\"", i, color);
	for (k = 0; k < n && k <= cut; k++)
		fprintf(out, "%.2f,%.2f ", fmin(x->p0 + (double)k, end), mid[k]);
	fputs("\"/>\n", out);
	if (cut < n) {
		fprintf(out, "<polyline class=\"pctfew\" data-series=\"%zu\" fill=\"none\" "
			"stroke=\"%s\" stroke-width=\"2\" stroke-dasharray=\"4 3\" points=\"",
			i, color);
		for (k = cut; k < n; k++)
			fprintf(out, "%.2f,%.2f ", fmin(x->p0 + (double)k, end), mid[k]);
		fputs("\"/>\n", out);
	}
	free(lo);
	free(hi);
	free(mid);
	free(few);
}

int ks_plot_pct(FILE *out, const struct ks_plot_series *sr, size_t nr,
		const struct ks_plot *p)
{
	struct ks_hist *h = xcalloc(nr ? nr : 1, sizeof(*h));
	double lo = INFINITY, hi = 0, n_max = 1, top;
	struct ks_axis x, y;
	struct ks_frame f;
	size_t i;
	int rc = 0;

	if (nr > KS_NR_SERIES_COLORS) {
		free(h);
		return ks_fail(EXIT_USAGE, "name the metrics to plot (NAME...)",
			       "%zu curves: a percentile plot draws at most %d", nr,
			       KS_NR_SERIES_COLORS);
	}
	for (i = 0; i < nr; i++) {
		ks_hist_build(&h[i], sr[i].m, -1);
		if (!h[i].total) {
			rc = ks_plot_empty(sr[i].m->name);
			goto out;
		}
		lo = fmin(lo, (double)kstats_slot_low(h[i].first, h[i].frac_bits));
		hi = fmax(hi, kstats_slot_high(h[i].last, h[i].frac_bits));
		n_max = fmax(n_max, (double)h[i].total);
	}
	top = 66 + (double)nr * KS_PLOT_LEGEND_LINE;
	ks_plot_frame(&f, p, top, 30);
	ks_axis_log(&x, 1, n_max, f.x, f.x + f.w);
	ks_axis_log(&y, lo, hi, f.y + f.h, f.y);
	svg_begin(out, p->width, p->height, p->title ? p->title : "percentiles");
	ks_plot_title(out, p, nr == 1 ? sr[0].m->name : "Percentile spectrum",
		      "the value at each percentile in its slot (band); dashed: fewer than "
		      "10 samples beyond it");
	ks_plot_legend(out, f.x, 58, sr, h, nr);
	ks_plot_area(out, &f, false);
	ks_plot_axes(out, &f, &x, AX_TAIL, "percentile (log scale of 1/(1 - p))", &y,
		     AX_LATENCY, ks_plot_value_title(), true);
	for (i = 0; i < nr; i++)
		spectrum(out, &h[i], &x, &y, ks_series_colors[i], i);
	ks_plot_area(out, &f, true);
	svg_end(out);
out:
	for (i = 0; i < nr; i++)
		ks_hist_free(&h[i]);
	free(h);
	return rc;
}

// SPDX-License-Identifier: GPL-2.0
/*
 * plot cdf: the cumulative share of samples at or below each latency, one
 * curve per input, overlaid on one log latency axis. A slot's samples are
 * known only to lie in [low, high): the curve goes from (low, share
 * below the slot) to (high, share up to it) in a straight line, the
 * samples spread evenly as the percentiles assume (kstats_hist_quantile()),
 * and stays flat across empty slots. Every curve ends at 100%, at its last
 * slot's high end.
 *
 * Gridlines mark the percentiles (--percentiles, or p50, p90, p99 and
 * p99.9), labelled at the right; labels that would overlap are pushed down
 * and tied to their line.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "kstatsctl.h"
#include "plot.h"
#include "stats.h"
#include "units.h"

/* Okabe and Ito's colours, told apart with the common colour blindnesses. */
const char *const ks_series_colors[KS_NR_SERIES_COLORS] = {
	"#0072b2", "#d55e00", "#009e73", "#cc79a7", "#e69f00", "#56b4e9", "#000000",
};

/* The curves' legend, a line each from @y0: colour, label, samples. */
void ks_plot_legend(FILE *out, double x, double y0, const struct ks_plot_series *sr,
		    const struct ks_hist *h, size_t nr)
{
	char n[48];
	size_t i;

	fputs("<g class=\"legend\">\n", out);
	for (i = 0; i < nr; i++) {
		double ly = y0 + (double)i * KS_PLOT_LEGEND_LINE;

		svg_line(out, x, ly - 4, x + 24, ly - 4, ks_series_colors[i], 2);
		svg_text(out, x + 30, ly, "", "%s (%s samples)", sr[i].label,
			 ks_fmt_u128(n, sizeof(n), h[i].total));
	}
	fputs("</g>\n", out);
}

static void gridlines(FILE *out, const struct ks_frame *f, const struct ks_axis *y)
{
	static const double defaults[] = { 0.5, 0.9, 0.99, 0.999 };
	double last = -1e9;
	size_t i, n = ks_pcts_set ? ks_nr_pcts : ARRAY_SIZE(defaults);

	for (i = n; i-- > 0;) {	/* from the top, so that labels stack downwards */
		double q = ks_pcts_set ? ks_pcts[i] : defaults[i], py = ks_axis_px(y, q);
		double ly = py + 4 > last + 12 ? py + 4 : last + 12;
		char name[24];

		if (ks_pcts_set)
			snprintf(name, sizeof(name), "%s", ks_pct_names[i]);
		else
			snprintf(name, sizeof(name), "p%g", q * 100);
		fputs("<g class=\"pctline\">\n", out);
		svg_line(out, f->x, py, f->x + f->w, py, "#bbbbbb", 1);
		if (ly - 4 - py > 1)
			svg_line(out, f->x + f->w, py, f->x + f->w + 6, ly - 4, "#bbbbbb", 1);
		svg_text(out, f->x + f->w + 8, ly, "fill=\"#555555\"", "%s", name);
		fputs("</g>\n", out);
		last = ly;
	}
}

static void curve(FILE *out, const struct ks_hist *h, const struct ks_axis *x,
		  const struct ks_axis *y, const char *color, size_t i)
{
	ks_u128 cum = 0;
	uint32_t s;

	fprintf(out, "<polyline class=\"cdf\" data-series=\"%zu\" fill=\"none\" stroke=\"%s\" "
		"stroke-width=\"2\" stroke-linejoin=\"round\" points=\"", i, color);
	for (s = h->first; s <= h->last; s++) {
		if (!h->count[s])
			continue;
		fprintf(out, "%.2f,%.2f ", ks_axis_px(x, (double)kstats_slot_low(s, h->frac_bits)),
			ks_axis_px(y, (double)cum / (double)h->total));
		cum += h->count[s];
		fprintf(out, "%.2f,%.2f ", ks_axis_px(x, kstats_slot_high(s, h->frac_bits)),
			ks_axis_px(y, (double)cum / (double)h->total));
	}
	fputs("\"/>\n", out);
}

int ks_plot_cdf(FILE *out, const struct ks_plot_series *sr, size_t nr,
		const struct ks_plot *p)
{
	struct ks_hist *h = xcalloc(nr, sizeof(*h));
	double lo = INFINITY, hi = 0, top;
	struct ks_axis x, y;
	struct ks_frame f;
	size_t i;
	int rc = 0;

	if (nr > ARRAY_SIZE(ks_series_colors)) {
		free(h);
		return ks_fail(EXIT_USAGE, "name the metrics to plot (NAME...)",
			       "%zu curves: a CDF overlay draws at most %zu", nr,
			       ARRAY_SIZE(ks_series_colors));
	}
	for (i = 0; i < nr; i++) {
		ks_hist_build(&h[i], sr[i].m, -1);
		if (!h[i].total) {
			rc = ks_plot_empty(sr[i].m->name);
			goto out;
		}
		lo = fmin(lo, (double)kstats_slot_low(h[i].first, h[i].frac_bits));
		hi = fmax(hi, kstats_slot_high(h[i].last, h[i].frac_bits));
	}
	top = 50 + (double)nr * KS_PLOT_LEGEND_LINE;
	ks_plot_frame(&f, p, top, 60);
	ks_axis_log(&x, lo, hi, f.x, f.x + f.w);
	ks_axis_linear(&y, 0, 1, f.y + f.h, f.y);
	svg_begin(out, p->width, p->height, p->title ? p->title : "CDF");
	ks_plot_title(out, p, nr == 1 ? sr[0].m->name : "CDF", NULL);
	ks_plot_legend(out, f.x, 42, sr, h, nr);
	ks_plot_area(out, &f, false);
	ks_plot_axes(out, &f, &x, AX_LATENCY, ks_plot_value_title(), &y, AX_SHARE,
		     "share of the samples at or below", true);
	gridlines(out, &f, &y);
	for (i = 0; i < nr; i++)
		curve(out, &h[i], &x, &y, ks_series_colors[i], i);
	ks_plot_area(out, &f, true);
	svg_end(out);
out:
	for (i = 0; i < nr; i++)
		ks_hist_free(&h[i]);
	free(h);
	return rc;
}

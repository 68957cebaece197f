// SPDX-License-Identifier: GPL-2.0
/*
 * plot hist: a metric's distribution as bars, one per non-empty slot,
 * spanning the slot's values [low, high) on a log latency axis.
 *
 * A slot is 2^-b of its power of two wide, linearly, so on a log axis the
 * first slot of an octave is about twice as wide as the last (plot_bins.c):
 * bars as tall as the counts would draw a sawtooth in every octave of a
 * load that is flat in log latency. A bar's height is therefore its
 * density, the count divided by the slot's width in units of 1/2^b octave
 * (the average width of a slot): bar areas are counts, and a log-uniform
 * load plots flat. --per-slot draws the counts as 'show' prints them;
 * --share divides either by the number of samples.
 *
 * The slots are those the data tells apart (ks_plot_data_bits()): a log
 * written at frac_bits 3 and read at 4 holds each count in the last half
 * of a slot of 3, and would draw as bars with gaps between them.
 */
#include <stdlib.h>

#include "kstatsctl.h"
#include "model.h"
#include "plot.h"
#include "stats.h"
#include "units.h"

#define BAR_FILL	"#3a6fb0"

/* What a bar's height means, for the y axis' title. */
static void y_title(char *buf, size_t len, const struct ks_plot *p, uint32_t b)
{
	char per[32];

	if (p->per_slot)
		snprintf(per, sizeof(per), "slot");
	else if (b)
		snprintf(per, sizeof(per), "1/%u octave", 1u << b);
	else
		snprintf(per, sizeof(per), "octave");
	snprintf(buf, len, "%s per %s", p->share ? "share of the samples" : "samples", per);
}

/* Slot @s's bar height: count (or share) per slot, or per 1/2^b octave. */
static double height(const struct ks_plot *p, double count, double total, uint32_t s,
		     uint32_t b)
{
	double v = p->share ? count / total : count;

	return p->per_slot ? v : v / (ks_slot_octaves(s, b) * (double)(1u << b));
}

int ks_plot_hist(FILE *out, const struct ks_metric *m, const char *label,
		 const struct ks_plot *p)
{
	char sub[512], n[48], pct[64], ytitle[96], range[96];
	double max = 0, total, *slot;
	uint32_t s, b, nslots;
	struct ks_axis x, y;
	struct ks_frame f;
	struct ks_hist h;
	struct ks_est e;

	ks_hist_build(&h, m, -1);
	if (!h.total) {
		ks_hist_free(&h);
		return ks_plot_empty(m->name);
	}
	b = ks_plot_data_bits(m);
	nslots = kstats_hist_nslots(b);
	slot = xcalloc(nslots, sizeof(*slot));
	ks_plot_rebin(&h, b, slot);
	total = (double)h.total;
	for (s = 0; s < nslots; s++)
		if (slot[s] && height(p, slot[s], total, s, b) > max)
			max = height(p, slot[s], total, s, b);
	ks_plot_frame(&f, p, 50, 20);
	ks_axis_slots(&x, &h, f.x, f.x + f.w);
	ks_axis_linear(&y, 0, max, f.y + f.h, f.y);
	ks_hist_quantile(&h, 0.5, &e);
	ks_fmt_est(pct, sizeof(pct), &e, h.frac_bits, opts.units, false, true);
	snprintf(sub, sizeof(sub), "%s: %s samples, frac_bits %u, p50 %s", label,
		 ks_fmt_u128(n, sizeof(n), h.total), b, pct);
	y_title(ytitle, sizeof(ytitle), p, b);
	svg_begin(out, p->width, p->height, p->title ? p->title : m->name);
	ks_plot_title(out, p, m->name, sub);
	ks_plot_area(out, &f, false);
	ks_plot_axes(out, &f, &x, AX_LATENCY, ks_plot_value_title(), &y,
		     p->share ? AX_SHARE : AX_COUNT, ytitle, true);
	fputs("<g class=\"bars\" shape-rendering=\"crispEdges\">\n", out);
	for (s = 0; s < nslots; s++) {
		double x0, x1, top, v;

		if (!slot[s])
			continue;
		v = height(p, slot[s], total, s, b);
		x0 = ks_axis_px(&x, (double)kstats_slot_low(s, b));
		x1 = ks_axis_px(&x, kstats_slot_high(s, b));
		if (x1 - x0 < 1)	/* a slot narrower than a pixel still shows */
			x1 = x0 + 1;
		top = ks_axis_px(&y, v);
		svg_rect_title(out, x0, top, x1 - x0, f.y + f.h - top, BAR_FILL, "%s: %.0f sample%s",
			       ks_fmt_slot(range, sizeof(range), s, b, opts.units), slot[s],
			       slot[s] == 1 ? "" : "s");
	}
	fputs("</g>\n", out);
	ks_plot_area(out, &f, true);
	svg_end(out);
	free(slot);
	ks_hist_free(&h);
	return 0;
}

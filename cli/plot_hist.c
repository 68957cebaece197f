// SPDX-License-Identifier: GPL-2.0
/*
 * plot hist: a metric's distribution as bars, one per non-empty slot,
 * spanning the slot's values [low, high) on a log latency axis, as tall as
 * the slot's count (or its share of the samples with --share). Counts are
 * per slot, as 'show' prints them: a slot's width is 2^-frac_bits of its
 * power of two, so on a log axis the bars of one power of two are about
 * equally wide, and a bar's height compares with its neighbours'.
 */
#include "kstatsctl.h"

#define BAR_FILL	"#3a6fb0"

int ks_plot_hist(FILE *out, const struct ks_metric *m, const char *label,
		 const struct ks_plot *p)
{
	char sub[512], n[48], pct[64];
	struct ks_axis x, y;
	struct ks_frame f;
	struct ks_hist h;
	struct ks_est e;
	ks_u128 max = 0;
	uint32_t s;

	ks_hist_build(&h, m, -1);
	if (!h.total) {
		ks_hist_free(&h);
		return ks_plot_empty(m->name);
	}
	for (s = h.first; s <= h.last; s++)
		if (h.count[s] > max)
			max = h.count[s];
	ks_plot_frame(&f, p, 50, 20);
	ks_axis_slots(&x, &h, f.x, f.x + f.w);
	if (p->share)
		ks_axis_linear(&y, 0, (double)max / (double)h.total, f.y + f.h, f.y);
	else
		ks_axis_linear(&y, 0, (double)max, f.y + f.h, f.y);
	ks_hist_quantile(&h, 0.5, &e);
	ks_fmt_est(pct, sizeof(pct), &e, h.frac_bits, opts.units, false, true);
	snprintf(sub, sizeof(sub), "%s: %s samples, frac_bits %u, p50 %s", label,
		 ks_fmt_u128(n, sizeof(n), h.total), h.frac_bits, pct);
	svg_begin(out, p->width, p->height, p->title ? p->title : m->name);
	ks_plot_title(out, p, m->name, sub);
	ks_plot_area(out, &f, false);
	ks_plot_axes(out, &f, &x, AX_LATENCY, "latency (log scale)", &y,
		     p->share ? AX_SHARE : AX_COUNT,
		     p->share ? "share of the samples, per slot" : "samples per slot", true);
	fputs("<g class=\"bars\" shape-rendering=\"crispEdges\">\n", out);
	for (s = h.first; s <= h.last; s++) {
		double x0, x1, top, v = (double)h.count[s];

		if (!h.count[s])
			continue;
		if (p->share)
			v /= (double)h.total;
		x0 = ks_axis_px(&x, (double)kstats_slot_low(s, h.frac_bits));
		x1 = ks_axis_px(&x, kstats_slot_high(s, h.frac_bits));
		if (x1 - x0 < 1)	/* a slot narrower than a pixel still shows */
			x1 = x0 + 1;
		top = ks_axis_px(&y, v);
		svg_rect(out, x0, top, x1 - x0, f.y + f.h - top, BAR_FILL);
	}
	fputs("</g>\n", out);
	ks_plot_area(out, &f, true);
	svg_end(out);
	ks_hist_free(&h);
	return 0;
}

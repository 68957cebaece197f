// SPDX-License-Identifier: GPL-2.0
/*
 * plot heatmap: latency over time. Each interval is a column spanning its
 * time; each row a range of latencies on a log axis; a cell's colour says
 * how many samples of that interval fell in that range, on viridis, a
 * perceptually uniform sequential scale (dark: few, yellow: many), itself
 * on a log scale: latency counts span orders of magnitude, and one sample
 * must still show. A cell without samples is the background: nothing was
 * there.
 *
 * Rows are kstats slots merged to a coarser frac_bits r (every slot of
 * frac_bits b >= r lies inside one slot of r, so merging is exact), the
 * finest r whose narrowest row (the last of a power of two) is still
 * MIN_ROW_PX tall, and no finer than the data: an interval log of frac_bits
 * 3 written at 1 significant digit reads back at 4 with each count in the
 * last half of its slot, which rows of 4 would draw as stripes.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "kstatsctl.h"

#define MIN_ROW_PX	5
#define LEGEND_W	16

/* matplotlib's viridis at 0, 1/9, ..., 1. */
static const unsigned char viridis[][3] = {
	{ 0x44, 0x01, 0x54 }, { 0x48, 0x28, 0x78 }, { 0x3e, 0x49, 0x89 }, { 0x31, 0x68, 0x8e },
	{ 0x26, 0x82, 0x8e }, { 0x1f, 0x9e, 0x89 }, { 0x35, 0xb7, 0x79 }, { 0x6e, 0xce, 0x58 },
	{ 0xb5, 0xde, 0x2b }, { 0xfd, 0xe7, 0x25 },
};

static void color_at(char *buf, size_t len, double t)
{
	double pos = fmin(fmax(t, 0), 1) * (double)(ARRAY_SIZE(viridis) - 1);
	size_t i = (size_t)pos;
	double f = pos - (double)i;
	unsigned int c[3];

	if (i >= ARRAY_SIZE(viridis) - 1) {
		i = ARRAY_SIZE(viridis) - 2;
		f = 1;
	}
	for (int k = 0; k < 3; k++)
		c[k] = (unsigned int)lround(viridis[i][k] * (1 - f) + viridis[i + 1][k] * f);
	snprintf(buf, len, "#%02x%02x%02x", c[0], c[1], c[2]);
}

/* Where @count lies on the colour scale of counts 1 .. @max. */
static double color_pos(double count, double max)
{
	return max > 1 ? log(count) / log(max) : 1;
}

/* Does every count of @m sit in the last of its slot's slots at frac_bits @r? */
static bool at_last_of(const struct ks_metric *m, uint32_t r)
{
	struct ks_hist h;
	bool yes = true;
	uint32_t s;

	ks_hist_build(&h, m, -1);
	for (s = h.first; h.total && s <= h.last && yes; s++) {
		uint64_t last = kstats_slot_last(s, h.frac_bits);

		yes = !h.count[s] || kstats_slot_last(kstats_hist_slot(last, r), r) == last;
	}
	ks_hist_free(&h);
	return yes;
}

/*
 * The frac_bits the intervals' counts tell apart: below @fb while every
 * count of every interval sits in the last slot of a coarser one, as the
 * HdrHistogram writer leaves a coarser kstats layout (hdr_codec.c).
 */
static uint32_t data_bits(const struct ks_plot_interval *iv, size_t nr, uint32_t fb)
{
	size_t i;

	for (; fb > 0; fb--)
		for (i = 0; i < nr; i++)
			if (!at_last_of(iv[i].m, fb - 1))
				return fb;
	return fb;
}

/* The finest frac_bits, at most @fb, whose narrowest row is MIN_ROW_PX tall. */
static uint32_t row_bits(uint32_t fb, const struct ks_axis *y)
{
	double px_per_decade = fabs(y->p1 - y->p0) / log10(y->hi / y->lo);

	for (; fb > 0; fb--) {
		double narrowest = log10(1 + 1 / (ldexp(1, (int)fb + 1) - 1));

		if (narrowest * px_per_decade >= MIN_ROW_PX)
			break;
	}
	return fb;
}

static void legend(FILE *out, const struct ks_frame *f, double max)
{
	double x = f->x + f->w + 20, steps = 64, v;
	char c[8], label[32];
	int i;

	fputs("<g class=\"colorscale\" shape-rendering=\"crispEdges\">\n", out);
	for (i = 0; i < steps; i++) {
		color_at(c, sizeof(c), (i + 0.5) / steps);
		svg_rect(out, x, f->y + f->h * (1 - (i + 1) / steps), LEGEND_W,
			 f->h / steps + 0.5, c);
	}
	fputs("</g>\n", out);
	for (v = 1; v <= max * 1.0001; v *= 10) {
		double py = f->y + f->h * (1 - color_pos(v, max));

		if (max <= 1)
			py = f->y;
		fputs("<g class=\"ctick\">\n", out);
		svg_line(out, x + LEGEND_W, py, x + LEGEND_W + 4, py, "#444444", 1);
		svg_text(out, x + LEGEND_W + 6, py + 4, "", "%s",
			 ks_axis_label(label, sizeof(label), v, AX_COUNT));
		fputs("</g>\n", out);
	}
	if (max > 1 && log10(max) - floor(log10(max)) > 0.15) {	/* the top, unless a tick is there */
		fputs("<g class=\"ctick\">\n", out);
		svg_text(out, x + LEGEND_W + 6, f->y + 4, "", "%s",
			 ks_axis_label(label, sizeof(label), max, AX_COUNT));
		fputs("</g>\n", out);
	}
	svg_text(out, x, f->y - 8, "font-size=\"11\"", "samples");
}

/* One interval's column: its samples per row of frac_bits @r, into @rows. */
static void column(const struct ks_metric *m, uint32_t r, double *rows, uint32_t nrows)
{
	struct ks_hist h;
	uint32_t s;

	memset(rows, 0, nrows * sizeof(*rows));
	ks_hist_build(&h, m, -1);
	for (s = h.first; h.total && s <= h.last; s++)
		if (h.count[s])
			rows[kstats_hist_slot(kstats_slot_low(s, h.frac_bits), r)] +=
				(double)h.count[s];
	ks_hist_free(&h);
}

int ks_plot_heatmap(FILE *out, const struct ks_plot_interval *iv, size_t nr,
		    const struct ks_plot *p)
{
	double lo = INFINITY, hi = 0, t0 = INFINITY, t1 = -INFINITY, max = 0, *rows;
	uint32_t fb = KSTATS_FRAC_BITS_MAX, r, nrows, k;
	struct ks_axis x, y;
	struct ks_frame f;
	char sub[256], when[64], c[8];
	ks_u128 total = 0;
	struct tm tm;
	time_t t;
	size_t i;

	for (i = 0; i < nr; i++) {
		struct ks_hist h;

		t0 = fmin(t0, iv[i].start_s);
		t1 = fmax(t1, iv[i].start_s + iv[i].length_s);
		if (iv[i].m->frac_bits < fb)
			fb = iv[i].m->frac_bits;
		ks_hist_build(&h, iv[i].m, -1);
		if (h.total) {
			lo = fmin(lo, (double)kstats_slot_low(h.first, h.frac_bits));
			hi = fmax(hi, kstats_slot_high(h.last, h.frac_bits));
		}
		total += h.total;
		ks_hist_free(&h);
	}
	if (!total)
		return ks_plot_empty(nr ? iv[0].m->name : "");
	ks_plot_frame(&f, p, 50, 90);
	ks_axis_linear(&x, 0, t1 - t0, f.x, f.x + f.w);
	ks_axis_log(&y, lo, hi, f.y + f.h, f.y);
	r = row_bits(data_bits(iv, nr, fb), &y);
	nrows = kstats_hist_nslots(r);
	rows = xcalloc(nrows, sizeof(*rows));
	for (i = 0; i < nr; i++) {
		column(iv[i].m, r, rows, nrows);
		for (k = 0; k < nrows; k++)
			max = fmax(max, rows[k]);
	}
	t = (time_t)t0;
	gmtime_r(&t, &tm);
	strftime(when, sizeof(when), "%Y-%m-%d %H:%M:%S UTC", &tm);
	/* The log's intervals, summed into columns of bin_s (hlog_columns.c). */
	snprintf(sub, sizeof(sub), "%zu intervals from %s, in columns of %.6g s; rows of "
		 "frac_bits %u", p->nr_intervals ? p->nr_intervals : nr, when,
		 p->bin_s > 0 ? p->bin_s : iv[0].length_s, r);
	svg_begin(out, p->width, p->height, p->title ? p->title : iv[0].m->name);
	ks_plot_title(out, p, iv[0].m->name, sub);
	ks_plot_area(out, &f, false);
	ks_plot_axes(out, &f, &x, AX_SECONDS, "time since the first interval", &y, AX_LATENCY,
		     "latency (log scale)", false);
	fputs("<g class=\"cells\" shape-rendering=\"crispEdges\">\n", out);
	for (i = 0; i < nr; i++) {
		double x0 = ks_axis_px(&x, iv[i].start_s - t0);
		double x1 = ks_axis_px(&x, iv[i].start_s - t0 + iv[i].length_s);

		column(iv[i].m, r, rows, nrows);
		for (k = 0; k < nrows; k++) {
			double y0, y1;

			if (!rows[k])
				continue;
			y0 = ks_axis_px(&y, (double)kstats_slot_low(k, r));
			y1 = ks_axis_px(&y, kstats_slot_high(k, r));
			color_at(c, sizeof(c), color_pos(rows[k], max));
			svg_rect(out, x0, y1, fmax(x1 - x0, 1), fmax(y0 - y1, 1), c);
		}
	}
	fputs("</g>\n", out);
	ks_plot_area(out, &f, true);
	legend(out, &f, max);
	svg_end(out);
	free(rows);
	return 0;
}

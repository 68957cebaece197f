// SPDX-License-Identifier: GPL-2.0
/*
 * plot heatmap: latency over time, from the intervals of an interval log.
 *
 * Columns: time since the first interval in bins of a round width (1, 2, 5,
 * 10, 15, 30 s, 1 min ...), the least that gives a column at least a pixel
 * and an interval; each interval's counts go, summed, to the bin holding
 * its middle (a pixel shows every sample of its time: nothing is painted
 * over). The subtitle gives the bin width. The time axis ends at the last
 * interval's end; a bin no interval covers is grey ("no interval"), unlike
 * a bin whose intervals hold no samples, which is the white background.
 *
 * Rows: kstats slots merged to a coarser frac_bits r (every slot of
 * frac_bits b >= r lies inside one slot of r, so merging is exact), the
 * finest r whose narrowest row (the last of a power of two) is still
 * MIN_ROW_PX tall, and no finer than the data (ks_plot_data_bits()).
 * Rows of one r differ in log height by up to 2x (plot_bins.c): a cell's
 * colour is its density, samples per 1/2^r octave (per average row), so
 * that a load flat in log latency shows no stripes.
 *
 * Colours: --palette, viridis (dark: few, yellow: many; perceptually
 * uniform) or reds (light to dark red, Brendan Gregg's convention), on a
 * log scale: densities span orders of magnitude, and one sample must still
 * show. Each cell's <title> (a tooltip, no script) gives its time, its
 * latency range and its count.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "kstatsctl.h"
#include "model.h"
#include "plot.h"
#include "units.h"

#define MIN_ROW_PX	5
#define LEGEND_W	16
#define NO_INTERVAL	"#d0d0d0"

const char *const ks_palette_names[] = { "viridis", "reds", NULL };

/* matplotlib's viridis at 0, 1/9, ..., 1. */
static const unsigned char viridis[][3] = {
	{ 0x44, 0x01, 0x54 }, { 0x48, 0x28, 0x78 }, { 0x3e, 0x49, 0x89 }, { 0x31, 0x68, 0x8e },
	{ 0x26, 0x82, 0x8e }, { 0x1f, 0x9e, 0x89 }, { 0x35, 0xb7, 0x79 }, { 0x6e, 0xce, 0x58 },
	{ 0xb5, 0xde, 0x2b }, { 0xfd, 0xe7, 0x25 },
};
/* ColorBrewer's Reds without its near-white first step: one sample shows on white. */
static const unsigned char reds[][3] = {
	{ 0xfe, 0xe0, 0xd2 }, { 0xfc, 0xbb, 0xa1 }, { 0xfc, 0x92, 0x72 }, { 0xfb, 0x6a, 0x4a },
	{ 0xef, 0x3b, 0x2c }, { 0xcb, 0x18, 0x1d }, { 0xa5, 0x0f, 0x15 }, { 0x67, 0x00, 0x0d },
};

/* Round bin widths in seconds, from 1 s up (below: 1, 2, 5 times 10^-k). */
static const double round_s[] = {
	1, 2, 5, 10, 15, 30, 60, 120, 300, 600, 900, 1800, 3600, 7200, 10800, 21600,
	43200, 86400,
};

struct heat {
	uint32_t r, nrows;
	size_t ncols;
	double binw;		/* seconds per column */
	double *cell;		/* [col * nrows + row]: samples */
	bool *covered;		/* [col]: some interval covers it */
	double dmin, dmax;	/* densities of the non-empty cells */
};

static void color_at(char *buf, size_t len, int palette, double t)
{
	const unsigned char (*tab)[3] = palette == PAL_REDS ? reds : viridis;
	size_t n = palette == PAL_REDS ? ARRAY_SIZE(reds) : ARRAY_SIZE(viridis);
	double pos = fmin(fmax(t, 0), 1) * (double)(n - 1);
	size_t i = (size_t)pos;
	double f = pos - (double)i;
	unsigned int c[3];

	if (i >= n - 1) {
		i = n - 2;
		f = 1;
	}
	for (int k = 0; k < 3; k++)
		c[k] = (unsigned int)lround(tab[i][k] * (1 - f) + tab[i + 1][k] * f);
	snprintf(buf, len, "#%02x%02x%02x", c[0], c[1], c[2]);
}

/* Where density @d lies on the log colour scale of @hm's densities. */
static double color_pos(const struct heat *hm, double d)
{
	return hm->dmax > hm->dmin ? log(d / hm->dmin) / log(hm->dmax / hm->dmin) : 1;
}

/* Samples per 1/2^r octave in row @k. */
static double density(const struct heat *hm, uint32_t k, double count)
{
	return count / (ks_slot_octaves(k, hm->r) * (double)(1u << hm->r));
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

/* The least round width >= @min seconds (also hlog_columns.c's columns). */
double ks_plot_round_width(double min)
{
	double w = 1;
	size_t i;

	if (!(min > 1e-9))
		min = 1e-9;	/* intervals of no length (a hostile log) */
	if (min <= 1) {
		while (w / 10 >= min)
			w /= 10;
		return w / 5 >= min ? w / 5 : w / 2 >= min ? w / 2 : w;
	}
	for (i = 0; i < ARRAY_SIZE(round_s); i++)
		if (round_s[i] >= min)
			return round_s[i];
	for (w = 86400; w < min; w *= 2)
		;
	return w;
}

/* The median interval length: what one column should hold at least. */
static double median_length(const struct ks_plot_interval *iv, size_t nr)
{
	double *l = xcalloc(nr, sizeof(*l)), m;
	size_t i, j;

	for (i = 0; i < nr; i++) {	/* insertion sort: logs are in time order */
		double v = iv[i].length_s;

		for (j = i; j > 0 && l[j - 1] > v; j--)
			l[j] = l[j - 1];
		l[j] = v;
	}
	m = l[nr / 2];
	free(l);
	return m;
}

/* The intervals binned to columns of @hm->binw from @t0 and summed. */
static void bin(struct heat *hm, const struct ks_plot_interval *iv, size_t nr, double t0)
{
	size_t i, c, last;
	uint32_t k;

	hm->cell = xcalloc(hm->ncols * hm->nrows, sizeof(*hm->cell));
	hm->covered = xcalloc(hm->ncols, sizeof(*hm->covered));
	for (i = 0; i < nr; i++) {
		double from = (iv[i].start_s - t0) / hm->binw, to = from + iv[i].length_s / hm->binw;

		c = (size_t)fmin(floor((from + to) / 2), (double)hm->ncols - 1);
		last = (size_t)fmin(fmax(ceil(to - 1e-6) - 1, 0), (double)hm->ncols - 1);
		for (size_t k2 = (size_t)fmax(floor(from + 1e-6), 0); k2 <= last; k2++)
			hm->covered[k2] = true;
		hm->covered[c] = true;
		ks_plot_add(iv[i].m, hm->r, hm->cell + c * hm->nrows);
	}
	hm->dmin = INFINITY;
	hm->dmax = 0;
	for (c = 0; c < hm->ncols; c++)
		for (k = 0; k < hm->nrows; k++) {
			double n = hm->cell[c * hm->nrows + k];

			if (n) {
				hm->dmin = fmin(hm->dmin, density(hm, k, n));
				hm->dmax = fmax(hm->dmax, density(hm, k, n));
			}
		}
}

static void legend(FILE *out, const struct ks_frame *f, const struct heat *hm, int palette,
		   const char *per)
{
	double x = f->x + f->w + 20, steps = 64, v;
	char c[8], label[32];
	int i;

	fputs("<g class=\"colorscale\" shape-rendering=\"crispEdges\">\n", out);
	for (i = 0; i < steps; i++) {
		color_at(c, sizeof(c), palette, (i + 0.5) / steps);
		svg_rect(out, x, f->y + f->h * (1 - (i + 1) / steps), LEGEND_W,
			 f->h / steps + 0.5, c);
	}
	fputs("</g>\n", out);
	/* Powers of ten, and both ends unless a power of ten is near. */
	for (v = pow(10, ceil(log10(hm->dmin) - 1e-9)); v <= hm->dmax * 1.0001; v *= 10) {
		double py = f->y + f->h * (1 - color_pos(hm, v));

		fputs("<g class=\"ctick\">\n", out);
		svg_line(out, x + LEGEND_W, py, x + LEGEND_W + 4, py, "#444444", 1);
		svg_text(out, x + LEGEND_W + 6, py + 4, "", "%s",
			 ks_axis_label(label, sizeof(label), v, AX_COUNT));
		fputs("</g>\n", out);
	}
	if (log10(hm->dmax) - floor(log10(hm->dmax)) > 0.15) {
		fputs("<g class=\"ctick\">\n", out);
		double top = pow(10, floor(log10(hm->dmax)) - 2);	/* 3 digits */

		svg_text(out, x + LEGEND_W + 6, f->y + 4, "", "%s", ks_axis_label(label,
			 sizeof(label), round(hm->dmax / top) * top, AX_COUNT));
		fputs("</g>\n", out);
	}
	svg_text(out, x, f->y - 20, "class=\"ctitle\" font-size=\"11\"", "samples per");
	svg_text(out, x, f->y - 8, "class=\"ctitle\" font-size=\"11\"", "%s", per);
	fputs("<g class=\"nointerval\">\n", out);
	svg_rect(out, f->x, f->y + f->h + 28, LEGEND_W, 10, NO_INTERVAL);
	svg_text(out, f->x + LEGEND_W + 4, f->y + f->h + 37, "font-size=\"11\"", "no interval");
	fputs("</g>\n", out);
}

static void cells(FILE *out, const struct ks_frame *f, const struct ks_axis *x,
		  const struct ks_axis *y, const struct heat *hm, int palette)
{
	char c[8], range[96];
	uint32_t k;
	size_t col;

	fputs("<g class=\"cells\" shape-rendering=\"crispEdges\">\n", out);
	for (col = 0; col < hm->ncols; col++) {
		double t = (double)col * hm->binw;
		/* Whole pixels: neighbours meet, with no seam between them. */
		double x0 = round(ks_axis_px(x, t)), x1 = round(ks_axis_px(x, t + hm->binw));

		if (!hm->covered[col]) {
			svg_rect_title(out, x0, f->y, x1 - x0, f->h, NO_INTERVAL,
				       "%gs to %gs: no interval", t, t + hm->binw);
			continue;
		}
		for (k = 0; k < hm->nrows; k++) {
			double n = hm->cell[col * hm->nrows + k], y0, y1;

			if (!n)
				continue;
			y0 = ks_axis_px(y, (double)kstats_slot_low(k, hm->r));
			y1 = ks_axis_px(y, kstats_slot_high(k, hm->r));
			color_at(c, sizeof(c), palette, color_pos(hm, density(hm, k, n)));
			svg_rect_title(out, x0, y1, fmax(x1 - x0, 1), fmax(y0 - y1, 1), c,
				       "%gs to %gs: %.0f sample%s in %s", t, t + hm->binw, n,
				       n == 1 ? "" : "s",
				       ks_fmt_slot(range, sizeof(range), k, hm->r, opts.units));
		}
	}
	fputs("</g>\n", out);
}

/*
 * Widens [@lo, @hi) to @m's non-empty slots and adds its samples to
 * @total; whether it has any. Sparse, from the slot entries: a day of
 * intervals is 86,400 of them.
 */
static bool span(const struct ks_metric *m, double *lo, double *hi, ks_u128 *total)
{
	uint32_t i, nslots = kstats_hist_nslots(m->frac_bits);
	bool any = false;

	for (i = 0; i < m->nr_slots; i++) {
		const struct kstats_snap_slot *s = &m->slots[i];

		if (!s->count || s->slot >= nslots)
			continue;
		*lo = fmin(*lo, (double)kstats_slot_low(s->slot, m->frac_bits));
		*hi = fmax(*hi, kstats_slot_high(s->slot, m->frac_bits));
		*total += s->count;
		any = true;
	}
	return any;
}

/* "6 s", "5 min", "2 h": a bin width. */
static void fmt_width(char *buf, size_t len, double s)
{
	if (s >= 3600 && fmod(s, 3600) == 0)
		snprintf(buf, len, "%g h", s / 3600);
	else if (s >= 60 && fmod(s, 60) == 0)
		snprintf(buf, len, "%g min", s / 60);
	else
		snprintf(buf, len, "%g s", s);
}

int ks_plot_heatmap(FILE *out, const struct ks_plot_interval *iv, size_t nr,
		    const struct ks_plot *p)
{
	double lo = INFINITY, hi = 0, t0 = INFINITY, t1 = -INFINITY;
	uint32_t fb = 0, fb_min = KSTATS_FRAC_BITS_MAX;
	struct heat hm = { 0 };
	struct ks_axis x, y;
	struct ks_frame f;
	char sub[320], when[64], width[32], per[32];
	ks_u128 total = 0;
	struct tm tm;
	time_t t;
	size_t i;

	for (i = 0; i < nr; i++) {
		t0 = fmin(t0, iv[i].start_s);
		t1 = fmax(t1, iv[i].start_s + iv[i].length_s);
		if (span(iv[i].m, &lo, &hi, &total)) {	/* empty intervals tell nothing */
			uint32_t b = ks_plot_data_bits(iv[i].m);

			fb = b > fb ? b : fb;
			fb_min = iv[i].m->frac_bits < fb_min ? iv[i].m->frac_bits : fb_min;
		}
	}
	fb = fb < fb_min ? fb : fb_min;	/* rows are merged slots of every interval */
	if (!total)
		return ks_plot_empty(nr ? iv[0].m->name : "");
	ks_plot_frame(&f, p, 64, 90);
	ks_axis_span(&x, 0, t1 - t0, f.x, f.x + f.w);
	ks_axis_log(&y, lo, hi, f.y + f.h, f.y);
	hm.r = row_bits(fb, &y);
	hm.nrows = kstats_hist_nslots(hm.r);
	hm.binw = ks_plot_round_width(fmax((x.hi - x.lo) / f.w, median_length(iv, nr)));
	hm.ncols = (size_t)ceil((x.hi - x.lo) / hm.binw - 1e-6);
	if (!hm.ncols)
		hm.ncols = 1;
	bin(&hm, iv, nr, t0);
	t = (time_t)t0;
	gmtime_r(&t, &tm);
	strftime(when, sizeof(when), "%Y-%m-%d %H:%M:%S UTC", &tm);
	fmt_width(width, sizeof(width), hm.binw);
	if (hm.r)
		snprintf(per, sizeof(per), "1/%u octave", 1u << hm.r);
	else
		snprintf(per, sizeof(per), "octave");
	/* The log's intervals, summed into columns (hlog_columns.c, then bin()). */
	snprintf(sub, sizeof(sub), "%zu intervals from %s; columns of %s, rows of frac_bits %u",
		 p->nr_intervals ? p->nr_intervals : nr, when, width, hm.r);
	svg_begin(out, p->width, p->height, p->title ? p->title : iv[0].m->name);
	ks_plot_title(out, p, iv[0].m->name, sub);
	ks_plot_area(out, &f, false);
	ks_plot_axes(out, &f, &x, AX_SECONDS, "time since the first interval", &y, AX_LATENCY,
		     ks_plot_value_title(), false);
	cells(out, &f, &x, &y, &hm, p->palette);
	ks_plot_area(out, &f, true);
	legend(out, &f, &hm, p->palette, per);
	svg_end(out);
	free(hm.cell);
	free(hm.covered);
	return 0;
}

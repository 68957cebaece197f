// SPDX-License-Identifier: GPL-2.0
/*
 * Axes of the plots: a value range mapped onto a range of pixels, linearly
 * (counts, shares, seconds) or on log10 (latency), its ticks and their
 * labels, and the frame that holds a plot.
 *
 * Latency labels are written by the units code (--units), as every other
 * value kstatsctl prints, with "us" shown as "µs" (a picture has no
 * terminal to worry about). Each tick is a <g class="xtick"> (or ytick,
 * ctick for a colour scale) holding its mark and its label, so that a
 * test can read the axis as a person does: a label beside a position.
 */
#include <math.h>
#include <string.h>

#include "kstatsctl.h"
#include "plot.h"
#include "stats.h"
#include "text.h"
#include "units.h"

/* 1, 2 or 5 times a power of ten, the least one at least @raw. */
static double nice_step(double raw)
{
	double p = pow(10, floor(log10(raw))), f = raw / p;

	if (f <= 1)
		return p;
	if (f <= 2)
		return 2 * p;
	if (f <= 5)
		return 5 * p;
	return 10 * p;
}

void ks_axis_linear(struct ks_axis *a, double min, double max, double p0, double p1)
{
	memset(a, 0, sizeof(*a));
	if (!(max > min))
		max = min + 1;
	a->step = nice_step((max - min) / 6);
	a->lo = floor(min / a->step) * a->step;
	a->hi = ceil(max / a->step) * a->step;
	a->p0 = p0;
	a->p1 = p1;
}

void ks_axis_span(struct ks_axis *a, double min, double max, double p0, double p1)
{
	ks_axis_linear(a, min, max, p0, p1);
	a->lo = min;
	a->hi = max > min ? max : min + 1;
}

void ks_axis_log(struct ks_axis *a, double min, double max, double p0, double p1)
{
	memset(a, 0, sizeof(*a));
	a->log = true;
	if (!(min >= 1))
		min = 1;
	if (!(max > min))
		max = min * 10;
	a->lo = pow(10, floor(log10(min) + 1e-9));
	a->hi = pow(10, ceil(log10(max) - 1e-9));
	if (a->hi <= a->lo)
		a->hi = a->lo * 10;
	a->p0 = p0;
	a->p1 = p1;
}

double ks_axis_px(const struct ks_axis *a, double v)
{
	double t;

	if (a->log)
		t = (log10(v > a->lo ? v : a->lo) - log10(a->lo)) / (log10(a->hi) - log10(a->lo));
	else
		t = (v - a->lo) / (a->hi - a->lo);
	if (t < 0)
		t = 0;
	if (t > 1)
		t = 1;
	return a->p0 + t * (a->p1 - a->p0);
}

/* The values to mark on @a, into @v; how many. */
static size_t ticks(const struct ks_axis *a, double *v, size_t max)
{
	size_t n = 0;
	double d, decades, every;

	if (!a->log) {
		/* From the first round value; to hi, not past it (ks_axis_span). */
		for (d = ceil(a->lo / a->step - 1e-9) * a->step;
		     d <= a->hi + a->step * 1e-6 && n < max; d += a->step)
			v[n++] = fabs(d) < a->step / 1e6 ? 0 : d;
		return n;
	}
	decades = round(log10(a->hi / a->lo));
	every = decades > 10 ? 2 : 1;	/* labels ~40 px apart at most */
	for (d = 0; d <= decades && n < max; d += every) {
		double p = a->lo * pow(10, d);

		v[n++] = p;
		if (decades <= 2 && d < decades && n + 2 <= max) {
			v[n++] = 2 * p;
			v[n++] = 5 * p;
		}
	}
	return n;
}

char *ks_axis_label(char *buf, size_t len, double v, enum ks_axis_kind k)
{
	char *us;

	switch (k) {
	case AX_LATENCY:
		ks_fmt_dbl(buf, len, v, opts.units);
		us = strstr(buf, "us");
		if (us && !us[2] && len > strlen(buf) + 1)
			strcpy(us, "\u00b5s");
		break;
	case AX_COUNT:
		if (v >= 1e9)
			snprintf(buf, len, "%gG", v / 1e9);
		else if (v >= 1e6)
			snprintf(buf, len, "%gM", v / 1e6);
		else if (v >= 1e4)
			snprintf(buf, len, "%gk", v / 1e3);
		else
			snprintf(buf, len, "%g", v);
		break;
	case AX_SHARE:
		snprintf(buf, len, "%g%%", v * 100);
		break;
	case AX_SECONDS:
		snprintf(buf, len, "%gs", v);
		break;
	case AX_TAIL:	/* 1/(1 - p) as p: 10 is 90%, 1000 is 99.9% */
		snprintf(buf, len, "%.*g%%", (int)ceil(log10(v > 1 ? v : 1)) + 2,
			 100 * (1 - 1 / v));
		break;
	}
	return buf;
}

void ks_plot_title(FILE *out, const struct ks_plot *p, const char *title,
		   const char *subtitle)
{
	svg_text(out, p->width / 2.0, 20, "class=\"title\" text-anchor=\"middle\" "
		 "font-size=\"15\" font-weight=\"bold\"", "%s", p->title ? p->title : title);
	if (subtitle)
		svg_text(out, p->width / 2.0, 37, "class=\"subtitle\" text-anchor=\"middle\" "
			 "fill=\"#555555\"", "%s", subtitle);
}

/* Ticks of @a along the bottom (x) or the left (y) of @f; gridlines. */
static void axis_ticks(FILE *out, const struct ks_frame *f, const struct ks_axis *a,
		       enum ks_axis_kind k, bool x, bool grid)
{
	double v[64], p;
	char label[64];
	size_t i, n = ticks(a, v, ARRAY_SIZE(v));

	for (i = 0; i < n; i++) {
		p = ks_axis_px(a, v[i]);
		ks_axis_label(label, sizeof(label), v[i], k);
		fprintf(out, "<g class=\"%s\">\n", x ? "xtick" : "ytick");
		if (x) {
			if (grid)
				svg_line(out, p, f->y, p, f->y + f->h, "#e4e4e4", 1);
			svg_line(out, p, f->y + f->h, p, f->y + f->h + 5, "#444444", 1);
			svg_text(out, p, f->y + f->h + 18, "text-anchor=\"middle\"", "%s", label);
		} else {
			if (grid)
				svg_line(out, f->x, p, f->x + f->w, p, "#e4e4e4", 1);
			svg_line(out, f->x - 5, p, f->x, p, "#444444", 1);
			svg_text(out, f->x - 8, p + 4, "text-anchor=\"end\"", "%s", label);
		}
		fputs("</g>\n", out);
	}
}

void ks_plot_axes(FILE *out, const struct ks_frame *f, const struct ks_axis *x,
		  enum ks_axis_kind xk, const char *xtitle, const struct ks_axis *y,
		  enum ks_axis_kind yk, const char *ytitle, bool grid)
{
	axis_ticks(out, f, x, xk, true, grid);
	axis_ticks(out, f, y, yk, false, grid);
	svg_text(out, f->x + f->w / 2, f->y + f->h + 38, "class=\"xtitle\" text-anchor=\"middle\"",
		 "%s", xtitle);
	fprintf(out, "<g transform=\"translate(16 %.1f) rotate(-90)\">\n", f->y + f->h / 2);
	svg_text(out, 0, 0, "class=\"ytitle\" text-anchor=\"middle\"", "%s", ytitle);
	fputs("</g>\n", out);
}

void ks_plot_area(FILE *out, const struct ks_frame *f, bool border)
{
	fprintf(out, "<rect class=\"%s\" x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" "
		"height=\"%.1f\" fill=\"%s\" stroke=\"%s\"/>\n",
		border ? "plot-border" : "plot-area", f->x, f->y, f->w, f->h,
		border ? "none" : "#ffffff", border ? "#444444" : "none");
}

/* The latency axis of a histogram's non-empty slots, [first low, last high). */
void ks_axis_slots(struct ks_axis *a, const struct ks_hist *h, double p0, double p1)
{
	ks_axis_log(a, (double)kstats_slot_low(h->first, h->frac_bits),
		    kstats_slot_high(h->last, h->frac_bits), p0, p1);
}

void ks_plot_frame(struct ks_frame *f, const struct ks_plot *p, double top, double right)
{
	f->x = 80;
	f->y = top;
	f->w = p->width - f->x - right;
	f->h = p->height - top - 55;
}

int ks_plot_empty(const char *name)
{
	char t[KS_TEXT_LEN(KSTATS_NAME_LEN)];

	return ks_fail(EXIT_RUNTIME, "a plot needs at least one sample: record some, or "
		       "pick another metric", "%s: no samples, nothing to plot",
		       ks_text(t, sizeof(t), name));
}

const char *ks_plot_value_title(void)
{
	return opts.units == UNIT_NONE ? "value (log scale)" : "latency (log scale)";
}

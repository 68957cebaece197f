/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Plots: SVG documents (svg.c), axes (plot_axis.c), the plots themselves
 * (plot_hist.c, plot_cdf.c, plot_heatmap.c), slots read at the precision
 * the data has and measured in octaves (plot_bins.c), SVG cells with
 * tooltips (svg.c), an axis that ends at the data (plot_axis.c), colour
 * scales (plot_heatmap.c) and the percentile spectrum (plot_pct.c).
 */
#ifndef KSTATSCTL_PLOT_H
#define KSTATSCTL_PLOT_H

#include "stats.h"


void svg_begin(FILE *out, int width, int height, const char *title);
void svg_end(FILE *out);
/* @s as XML character data, safe whatever its bytes (ks_text(), then escaped). */
void svg_esc(FILE *out, const char *s);
/* <text> at (@x, @y) with extra @attrs (raw: ours, never a file's). */
void svg_text(FILE *out, double x, double y, const char *attrs, const char *fmt, ...)
	__attribute__((format(printf, 5, 6)));
void svg_rect(FILE *out, double x, double y, double w, double h, const char *fill);
void svg_line(FILE *out, double x1, double y1, double x2, double y2, const char *stroke,
	      double width);

struct ks_plot {
	const char *title;	/* --title, or NULL: the metric's name */
	int width, height;	/* pixels */
	bool share;		/* hist: each slot's share of the samples, not its count */
	bool per_slot;		/* hist: counts per slot, not per 1/2^b octave */
	int palette;		/* heatmap: enum ks_palette (plot.h) */
	double bin_s; size_t nr_intervals;	/* heatmap: its columns' width; intervals in them */
};
/* One curve of a CDF overlay, and its legend. */
struct ks_plot_series {
	const char *label;
	const struct ks_metric *m;
};
/* One column of a heatmap: what @m recorded from @start_s (epoch s) on. */
struct ks_plot_interval {
	double start_s, length_s;
	const struct ks_metric *m;
};
/* Each writes a whole SVG document; 0, or an exit code (printed): no samples. */
int ks_plot_hist(FILE *out, const struct ks_metric *m, const char *label,
		 const struct ks_plot *p);
int ks_plot_cdf(FILE *out, const struct ks_plot_series *s, size_t nr,
		const struct ks_plot *p);
int ks_plot_heatmap(FILE *out, const struct ks_plot_interval *iv, size_t nr,
		    const struct ks_plot *p);

/* Axes: values onto pixels from @p0 (at lo) to @p1 (at hi). */
struct ks_axis {
	double lo, hi, p0, p1;
	double step;		/* linear: between ticks */
	bool log;		/* log10; lo and hi powers of ten */
};
enum ks_axis_kind { AX_LATENCY, AX_COUNT, AX_SHARE, AX_SECONDS, AX_TAIL };
/*
 * The title of the values' axis: "latency (log scale)" for times, "value
 * (log scale)" for numbers without a unit (opts.units UNIT_NONE: a
 * module's or a program's own, a traced value).
 */
const char *ks_plot_value_title(void);
/* The plot area, in pixels. */
struct ks_frame {
	double x, y, w, h;
};
void ks_axis_linear(struct ks_axis *a, double min, double max, double p0, double p1);
void ks_axis_log(struct ks_axis *a, double min, double max, double p0, double p1);
/* The decades around @h's non-empty slots. */
void ks_axis_slots(struct ks_axis *a, const struct ks_hist *h, double p0, double p1);
double ks_axis_px(const struct ks_axis *a, double v);	/* clamped to the axis */
char *ks_axis_label(char *buf, size_t len, double v, enum ks_axis_kind k);
/* The plot area inside @p, below @top and left of @right pixels. */
void ks_plot_frame(struct ks_frame *f, const struct ks_plot *p, double top, double right);
void ks_plot_title(FILE *out, const struct ks_plot *p, const char *title,
		   const char *subtitle);
/* The area's white ground (@border false), or its border, drawn over the data. */
void ks_plot_area(FILE *out, const struct ks_frame *f, bool border);
void ks_plot_axes(FILE *out, const struct ks_frame *f, const struct ks_axis *x,
		  enum ks_axis_kind xk, const char *xtitle, const struct ks_axis *y,
		  enum ks_axis_kind yk, const char *ytitle, bool grid);
/* "NAME: no samples, nothing to plot": exit 1. */
int ks_plot_empty(const char *name);

/* --palette: the heatmap's colour scale, from few samples to many. */
enum ks_palette { PAL_VIRIDIS, PAL_REDS };
extern const char *const ks_palette_names[];	/* NULL-terminated */

/*
 * The frac_bits @m's counts tell apart: below its own while every count
 * sits in the last slot of a coarser one, as the HdrHistogram writer
 * leaves a coarser kstats layout (hdr_codec.c).
 */
uint32_t ks_plot_data_bits(const struct ks_metric *m);
/* Adds @m's counts, merged into slots of frac_bits @r <= m's, to @slots. */
void ks_plot_add(const struct ks_metric *m, uint32_t r, double *slots);
/* @h's counts merged into the nslots(@r) slots of frac_bits @r <= h's. */
void ks_plot_rebin(const struct ks_hist *h, uint32_t r, double *slots);
/* Slot @s of frac_bits @r, log2(high / low): its width in octaves. */
double ks_slot_octaves(uint32_t s, uint32_t r);

/* A rect with a <title> tooltip (text from files is escaped). */
void svg_rect_title(FILE *out, double x, double y, double w, double h, const char *fill,
		    const char *fmt, ...) __attribute__((format(printf, 7, 8)));

/*
 * The heatmap's column width: the least round one (1, 2, 5 s... 1 min, 5 min,
 * ... 1 day) of at least @min seconds, in plot_heatmap.c; hlog_columns.c
 * sums a log's intervals into columns of it, so that each column is drawn
 * once.
 */
double ks_plot_round_width(double min);

/* A linear axis from exactly @min to @max, ticks at round steps inside. */
void ks_axis_span(struct ks_axis *a, double min, double max, double p0, double p1);

/* The overlays' legend (cdf, percentiles): a line of KS_PLOT_LEGEND_LINE px a curve. */
#define KS_PLOT_LEGEND_LINE	16
void ks_plot_legend(FILE *out, double x, double y0, const struct ks_plot_series *sr,
		    const struct ks_hist *h, size_t nr);

/* The curves' colours (Okabe and Ito's, told apart with colour blindness). */
#define KS_NR_SERIES_COLORS	7
extern const char *const ks_series_colors[KS_NR_SERIES_COLORS];

/*
 * The percentile spectrum of each series: latency (log) against 1/(1 - p)
 * (log, labelled as percentiles), as HdrHistogram's plotter draws it.
 */
int ks_plot_pct(FILE *out, const struct ks_plot_series *sr, size_t nr,
		const struct ks_plot *p);

#endif /* KSTATSCTL_PLOT_H */

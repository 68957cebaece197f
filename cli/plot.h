/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The plots' pieces beyond kstatsctl.h's: slots read at the precision the
 * data has and measured in octaves (plot_bins.c), SVG cells with tooltips
 * (svg.c), an axis that ends at the data (plot_axis.c), colour scales
 * (plot_heatmap.c) and the percentile spectrum (plot_pct.c).
 */
#ifndef KSTATSCTL_PLOT_H
#define KSTATSCTL_PLOT_H

#include "kstatsctl.h"

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

// SPDX-License-Identifier: GPL-2.0
/*
 * --format hist (the default for people): one row per slot,
 *
 *   [1.024us, 1.152us)      589 |@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@|
 *
 * from the first to the last non-empty slot (every slot with --all-slots;
 * with --bits B, rows of the coarser slots of frac_bits B, each the sum of
 * whole slots; by default, the finest frac_bits whose rows fit the
 * terminal's height, at most KS_HIST_ROWS, as bpftrace's and funclatency's
 * log2 histograms do, said in a line under the title), bars fitted to the
 * terminal's width and, with --per-cpu,
 * scaled alike on every CPU; then a footer, of the metric's own slots: count, mean, min, max, the percentiles, how many slots are
 * used over which range, and for traces the hits, misses and probe floor.
 * What is known only to a slot says so: min and max as the slot
 * ("max in [16ns, 32ns)"), a percentile as its middle with the half-width
 * relative to the value printed ("p50 23.5ns (±32%)"); what is exact is a
 * bare number ("min 0ns", "p50 5ns (exact)"). A percentile with fewer
 * than KS_PCT_MIN_BEYOND samples beyond it carries a "*" and a footnote.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "kstatsctl.h"
#include "fmt.h"
#include "keys.h"
#include "model.h"
#include "outliers.h"
#include "stats.h"
#include "text.h"
#include "trace.h"
#include "units.h"

#define BAR_WIDTH 52	/* at most; fewer on a narrower terminal */
#define BAR_MIN 10
/* Rows of one histogram by default: about a screen, with its footer. */
#define KS_HIST_ROWS 40
#define KS_HIST_ROWS_MIN 10
#define FOOTER_LINES 8

/* @h with its slots merged into those of frac_bits @bits (<= its own). */
static void hist_merge(struct ks_hist *to, const struct ks_hist *h, uint32_t bits)
{
	uint32_t s, k;

	memset(to, 0, sizeof(*to));
	to->frac_bits = bits;
	to->sums_unknown = h->sums_unknown;
	to->nslots = kstats_hist_nslots(bits);
	to->count = xcalloc(to->nslots, sizeof(*to->count));
	to->part_sum = xcalloc(to->nslots, sizeof(*to->part_sum));
	to->first = to->nslots;
	for (s = 0; s < h->nslots; s++) {
		if (!h->count[s])
			continue;
		k = kstats_hist_slot(kstats_slot_low(s, h->frac_bits), bits);
		to->count[k] += h->count[s];
		to->total += h->count[s];
		to->first = k < to->first ? k : to->first;
		to->last = k;
	}
	for (k = 0; k < to->nslots; k++)
		to->used += !!to->count[k];
}

/* The rows hist_rows() prints for @h: empty runs are one row each. */
static uint32_t hist_nrows(const struct ks_hist *h)
{
	uint32_t s, n = 0;

	for (s = h->first; s <= h->last && s < h->nslots; s++)
		n += h->count[s] || s == h->first || h->count[s - 1];
	return n;
}

/* The rows a histogram may have on @out: KS_HIST_ROWS, less on a short terminal. */
static uint32_t hist_max_rows(FILE *out)
{
	struct winsize ws;
	uint32_t n = KS_HIST_ROWS;

	if (isatty(fileno(out)) && !ioctl(fileno(out), TIOCGWINSZ, &ws) &&
	    ws.ws_row && ws.ws_row < KS_HIST_ROWS + FOOTER_LINES)
		n = ws.ws_row > KS_HIST_ROWS_MIN + FOOTER_LINES ?
		    ws.ws_row - FOOTER_LINES : KS_HIST_ROWS_MIN;
	return n;
}

/*
 * The finest frac_bits, at most @h's own, whose rows fit @max: merging
 * never splits a slot (the slots of frac_bits b are unions of those of
 * b + 1), so each row is the exact sum of the slots in it.
 */
static uint32_t hist_fit_bits(const struct ks_hist *h, uint32_t max)
{
	struct ks_hist merged;
	uint32_t b = h->frac_bits, n = hist_nrows(h);

	while (n > max && b > 0) {
		hist_merge(&merged, h, --b);
		n = hist_nrows(&merged);
		ks_hist_free(&merged);
	}
	return b;
}

void fmt_title_prefixed(FILE *out, const struct ks_metric *m, const char *what,
			const char *prefix)
{
	char t[KS_TEXT_LEN(KSTATS_NAME_LEN)], item[sizeof(t) + 32], cont[16];
	struct ks_wrap w = { out, ks_out_width(out), 0, prefix, cont };

	snprintf(cont, sizeof(cont), "%s  ", prefix);
	fputs(prefix, out);
	snprintf(item, sizeof(item), "%s%s%s:", ks_color(opts.color_out, C_BOLD),
		 ks_metric_label(t, sizeof(t), m->name), ks_color(opts.color_out, C_RESET));
	ks_wrap_item(&w, "", item);
	snprintf(item, sizeof(item), "%s%s%s", ks_kind_name(m->kind),
		 m->owner[0] ? " " : "", ks_text(t, sizeof(t), m->owner));
	ks_wrap_item(&w, " ", item);
	snprintf(item, sizeof(item), "frac_bits %u", m->frac_bits);
	ks_wrap_item(&w, ", ", item);
	ks_wrap_item(&w, ", ", ks_state_name(m->flags));
	snprintf(item, sizeof(item), "%u CPU%s", m->nr_cpus, m->nr_cpus == 1 ? "" : "s");
	ks_wrap_item(&w, ", ", item);
	if (what)
		ks_wrap_item(&w, ", ", what);
	if (m->reset)
		ks_wrap_item(&w, " ", "(reset during the interval)");
	ks_wrap_end(&w);
}

void fmt_title(FILE *out, const struct ks_metric *m, const char *what)
{
	fmt_title_prefixed(out, m, what, "");
}

/*
 * A trace's hits, misses (with their share of the calls: misses are not
 * random, maxactive drops exactly the concurrent, long calls) and floor.
 */
static void trace_counters(FILE *out, const struct ks_metric *m, enum ks_unit u)
{
	double share = (double)m->misses / ((double)m->hits + (double)m->misses);
	char a[64], pct[32] = "";

	if (m->misses)
		snprintf(pct, sizeof(pct), share < 1e-4 ? " (<0.01%%)" : " (%.2g%%)",
			 share * 100);
	fprintf(out, "hits %llu  misses %llu%s", (unsigned long long)m->hits,
		(unsigned long long)m->misses, pct);
	/* The calls of any function of its group its one probe missed. */
	if (m->group_misses)
		fprintf(out, "  group misses %llu", (unsigned long long)m->group_misses);
	/* Shown where they can be other than 0: a value's trace, or any counted. */
	if (m->expr_known && (ks_metric_is_value(m) || m->faults || m->rejected))
		fprintf(out, "  faults %llu  rejected %llu", (unsigned long long)m->faults,
			(unsigned long long)m->rejected);
	/*
	 * The floor is a time, also beside a value; 0 is not measured
	 * (user-space functions, kstats(4)), not a floor of 0.
	 */
	fprintf(out, "  probe floor %s\n", m->floor_ns ?
		ks_fmt_int(a, sizeof(a), m->floor_ns, u == UNIT_NONE ? UNIT_AUTO : u) :
		"not measured");
	if (share > 0.01 && ks_metric_is_value(m))
		fprintf(out, "note: over 1%% of the calls missed; those are the "
			"concurrent, long ones,\n      whose values the histogram "
			"lacks (trace --maxactive N)\n");
	else if (share > 0.01)
		fprintf(out, "note: over 1%% of the calls missed; those are the "
			"concurrent, long ones,\n      so the histogram leans short "
			"(trace --maxactive N)\n");
}

static void fmt_footer(FILE *out, const struct ks_metric *m, const struct ks_hist *h,
		       enum ks_unit u)
{
	char a[128], b[128], n[48], item[512];
	struct ks_wrap w = { out, ks_out_width(out), 0, "", "" };
	struct ks_stats st;
	int i;

	ks_hist_stats(h, &st);
	if (!st.count) {
		fputs("count 0\n", out);
	} else {
		/* Items wrap at the width, never inside one ("p99 31.74us (±3.3%)"). */
		snprintf(item, sizeof(item), "count %s", ks_fmt_u128(n, sizeof(n), st.count));
		ks_wrap_item(&w, "  ", item);
		snprintf(item, sizeof(item), "mean %s", ks_fmt_mean(a, sizeof(a), &st, u, false));
		ks_wrap_item(&w, "  ", item);
		snprintf(item, sizeof(item), "min %s",
			 ks_fmt_est(a, sizeof(a), &st.min, h->frac_bits, u, true, false));
		ks_wrap_item(&w, "  ", item);
		snprintf(item, sizeof(item), "max %s",
			 ks_fmt_est(a, sizeof(a), &st.max, h->frac_bits, u, true, false));
		ks_wrap_item(&w, "  ", item);
		ks_wrap_end(&w);
		for (i = 0; i < (int)ks_nr_pcts; i++) {
			snprintf(item, sizeof(item), "%s %s%s", ks_pct_names[i],
				 ks_fmt_est(a, sizeof(a), &st.pct[i], h->frac_bits, u,
					    false, false), ks_pct_mark(&st.pct[i]));
			ks_wrap_item(&w, "  ", item);
		}
		ks_wrap_end(&w);
		if (ks_pct_few(&st))
			ks_pct_footnote(out);
		fprintf(out, "slots %u of %u used, over [%s, %s)\n", h->used, h->nslots,
			ks_fmt_int(a, sizeof(a), kstats_slot_low(h->first, h->frac_bits), u),
			ks_fmt_high(b, sizeof(b), h->last, h->frac_bits, u));
	}
	/* A key's metric has none of its own: they are its trace's. */
	if (ks_kind_is_trace(m->kind) && m->kind != KSTATS_KIND_KEY)
		trace_counters(out, m, u);
	ks_sampling_note(out, m);
	if (m->has_outliers)
		ks_outliers_line(out, m->name, &m->outl);
}

/* @scale: the count of a full bar (--per-cpu: the same on every CPU), or 0. */
static void hist_rows(FILE *out, const struct ks_hist *h, const struct ks_show *sh,
		      enum ks_unit u, ks_u128 scale)
{
	struct ks_bounds bd;
	uint32_t from = h->first, to = h->last, s;
	char label[112], bar[BAR_WIDTH + 1], num[48];
	ks_u128 max = 0;
	size_t width = 0, cwidth, bar_width = BAR_WIDTH, cols = ks_out_width(out);
	int pass;

	if (sh->all_slots) {
		from = 0;
		to = h->nslots - 1;
	}
	if (from > to)
		return;
	for (s = from; s <= to; s++)
		if (h->count[s] > max)
			max = h->count[s];
	cwidth = strlen(ks_fmt_u128(num, sizeof(num), max));
	cwidth = cwidth > 10 ? cwidth : 10;
	if (scale)
		max = scale;
	/* Pass 0 takes the rows' bounds, 1 measures the labels, 2 prints. */
	ks_bounds_init(&bd, u);
	for (pass = 0; pass < 3; pass++) {
		for (s = from; s <= to; s++) {
			uint32_t e = s;
			size_t n;

			/* A run of empty slots is one row (unless --all-slots). */
			while (!sh->all_slots && !h->count[s] && e < to && !h->count[e + 1])
				e++;
			if (!pass) {
				ks_bounds_add_slot(&bd, s, e, h->frac_bits);
				s = e;
				continue;
			}
			ks_bounds_slot(&bd, label, sizeof(label), s, e, h->frac_bits);
			s = e;
			if (pass == 1) {
				n = strlen(label);
				width = n > width ? n : width;
				continue;
			}
			/* label, count, " |", bar, "|" within the terminal */
			if (s == from) {
				n = width + 1 + cwidth + 3;
				bar_width = cols > n + BAR_MIN ? cols - n : BAR_MIN;
				bar_width = bar_width < BAR_WIDTH ? bar_width : BAR_WIDTH;
			}
			n = max ? (size_t)((double)h->count[s] * bar_width / (double)max) : 0;
			if (h->count[s] && !n)
				n = 1;	/* every non-empty slot shows */
			memset(bar, '@', n);
			memset(bar + n, ' ', bar_width - n);
			bar[bar_width] = '\0';
			fprintf(out, "%-*s %*s |%s%s%s|\n", (int)width, label, (int)cwidth,
				ks_fmt_u128(num, sizeof(num), h->count[s]),
				ks_color(opts.color_out, C_GREEN), bar,
				ks_color(opts.color_out, C_RESET));
		}
	}
}

/*
 * The frac_bits of the rows: -b's, every slot with --all-slots, else the
 * finest that fits the terminal (chosen on all CPUs' samples, so that
 * --per-cpu shows every CPU alike; with --cpu N, on that CPU's).
 */
static uint32_t rows_bits(FILE *out, const struct ks_metric *m, const struct ks_show *sh)
{
	struct ks_hist h;
	uint32_t b;

	if (sh->bits >= 0)
		return (uint32_t)sh->bits < m->frac_bits ? (uint32_t)sh->bits : m->frac_bits;
	if (sh->all_slots)
		return m->frac_bits;
	/* --cpu N: that CPU's rows are the ones shown. */
	ks_hist_build(&h, m, sh->cpu >= 0 ? ks_metric_row(m, (uint32_t)sh->cpu) : -1);
	b = hist_fit_bits(&h, hist_max_rows(out));
	ks_hist_free(&h);
	return b;
}

/* Under the title: the rows are coarser than the metric's slots, and why. */
static void merged_note(FILE *out, const struct ks_metric *m, const struct ks_show *sh,
			uint32_t bits)
{
	if (bits >= m->frac_bits)
		return;
	if (sh->bits >= 0)
		fprintf(out, "rows merged to frac_bits %u (-b %d); -b %u for every slot\n",
			bits, sh->bits, m->frac_bits);
	else
		fprintf(out, "rows merged to frac_bits %u to fit %u lines; -b %u for every slot\n",
			bits, hist_max_rows(out), m->frac_bits);
}

static void one(FILE *out, const struct ks_metric *m, int row,
		const struct ks_show *sh, ks_u128 scale, uint32_t bits)
{
	enum ks_unit u = ks_metric_unit(m, sh->units);
	struct ks_hist h, merged;
	char what[32];

	ks_hist_build(&h, m, row);
	if (row >= 0)
		snprintf(what, sizeof(what), "CPU %u", m->cpus[row].cpu);
	else if (sh->cpu_list)
		snprintf(what, sizeof(what), "CPUs %.26s", sh->cpu_list);
	fmt_title(out, m, row >= 0 || sh->cpu_list ? what : NULL);
	merged_note(out, m, sh, bits);
	if (bits < h.frac_bits) {
		hist_merge(&merged, &h, bits);
		hist_rows(out, &merged, sh, u, scale);
		ks_hist_free(&merged);
	} else {
		hist_rows(out, &h, sh, u, scale);
	}
	fmt_footer(out, m, &h, u);
	ks_hist_free(&h);
}

/* The fullest row of any CPU, at the frac_bits shown: one scale for all. */
static ks_u128 per_cpu_scale(const struct ks_metric *m, uint32_t bits)
{
	struct ks_hist h, merged, *p;
	ks_u128 max = 0;
	uint32_t r, s;

	for (r = 0; r < m->nr_cpus; r++) {
		ks_hist_build(&h, m, (int)r);
		p = &h;
		if (bits < h.frac_bits) {
			hist_merge(&merged, &h, bits);
			p = &merged;
		}
		for (s = 0; s < p->nslots; s++)
			max = p->count[s] > max ? p->count[s] : max;
		if (p == &merged)
			ks_hist_free(&merged);
		ks_hist_free(&h);
	}
	return max;
}

void fmt_hist(FILE *out, const struct ks_metric *m, const struct ks_show *sh)
{
	uint32_t r, bits = rows_bits(out, m, sh);
	bool first = true;
	ks_u128 scale;

	if (sh->cpu >= 0) {
		one(out, m, ks_metric_row(m, (uint32_t)sh->cpu), sh, 0, bits);
	} else if (!sh->per_cpu) {
		one(out, m, -1, sh, 0, bits);
	} else {
		scale = per_cpu_scale(m, bits);
		for (r = 0; r < m->nr_cpus; r++) {
			if (!ks_metric_row_used(m, r))
				continue;
			if (!first)
				fputc('\n', out);
			first = false;
			one(out, m, (int)r, sh, scale, bits);
		}
		if (first)
			one(out, m, -1, sh, 0, bits);
	}
}

// SPDX-License-Identifier: GPL-2.0
/*
 * kstatsctl plot hist FILE [NAME]
 * kstatsctl plot cdf A [B] [NAME...]
 * kstatsctl plot percentiles A [B] [NAME...]
 * kstatsctl plot heatmap FILE.hlog [NAME]
 * kstatsctl plot flame [FILE] NAME
 *
 * Pictures of snapshot files and HdrHistogram interval logs (hist and cdf
 * read a log's intervals summed), as self-contained SVG on standard output
 * or in -o FILE: a metric's distribution (hist), the CDFs of one or two
 * files' metrics overlaid (cdf), latency over time (heatmap, of an interval
 * log: a column per interval), where a trace's slow calls come from
 * (flame: its outliers' stacks, live or from a snapshot file, plot_flame.c).
 * The picture is made in memory first: a plot that fails writes nothing.
 *
 * cdf's operands: A, then B when it names a file that exists, then the
 * metric patterns (a metric named like a file here: write the file as ./B).
 */
#define _GNU_SOURCE	/* vasprintf */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <libgen.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "kstatsctl.h"
#include "hdr.h"
#include "model.h"
#include "names.h"
#include "outliers.h"
#include "plot.h"
#include "snapfile.h"
#include "text.h"
#include "units.h"
#include "diff.h"

enum plot_kind { PLOT_HIST, PLOT_CDF, PLOT_HEATMAP };

struct plot_args {
	const char *kind;
	struct ks_names ops;	/* the operands after the kind */
	const char *output;
	size_t nr_inputs;	/* -i FILEs: the first operands, in their order */
	bool palette_set, height_set;
	bool cumulative;	/* cdf, percentiles: B whole, even when it is A later */
	struct ks_plot p;
};

enum { OPT_TITLE = 0x500, OPT_WIDTH, OPT_HEIGHT, OPT_SHARE, OPT_PER_SLOT, OPT_PALETTE,
       OPT_CUMULATIVE };

static const struct argp_child children[] = {
	{ &ks_global_argp, 0, NULL, 0 },
	{ 0 }
};

static const struct argp_option plot_options[] = {
	{ "output", 'o', "FILE", 0, "Write the SVG to FILE (default: standard output)", 0 },
	{ "input", 'i', "FILE", 0, "A file to plot, as a FILE operand (twice: A, then B)", 0 },
	{ "title", OPT_TITLE, "TEXT", 0, "The picture's title (default: the metric's name)", 0 },
	{ "width", OPT_WIDTH, "PIXELS", 0, "The picture's width (default 800)", 0 },
	{ "height", OPT_HEIGHT, "PIXELS", 0, "The picture's height (default 500)", 0 },
	{ "share", OPT_SHARE, NULL, 0, "hist: shares of the samples, not counts", 0 },
	{ "per-slot", OPT_PER_SLOT, NULL, 0, "hist: bars as tall as each slot's count, as 'show' "
	  "prints them (default: samples per 1/2^b octave, flat where the load is flat in log "
	  "latency)", 0 },
	{ "palette", OPT_PALETTE, "NAME", 0, "heatmap: the colours from few samples to many: "
	  "viridis (default; dark to yellow) or reds (white to dark red, as Brendan Gregg's)", 0 },
	{ "cumulative", OPT_CUMULATIVE, NULL, 0, "cdf, percentiles: B whole, even when it is A "
	  "later (by default B - A, as diff compares them)", 0 },
	{ 0 }
};

static error_t plot_parse(int key, char *arg, struct argp_state *state)
{
	struct plot_args *a = state->input;
	uint32_t v;

	switch (key) {
	case 'o':
		a->output = arg;
		break;
	case 'i': {
		/* -i FILE: what every other command spells it; first, before NAMEs. */
		size_t k;

		a->ops.v = xrealloc(a->ops.v, a->ops.nr + 1, sizeof(*a->ops.v));
		for (k = a->ops.nr++; k > a->nr_inputs; k--)
			a->ops.v[k] = a->ops.v[k - 1];
		a->ops.v[a->nr_inputs++] = arg;
		break;
	}
	case OPT_TITLE:
		a->p.title = arg;
		break;
	case OPT_WIDTH:
	case OPT_HEIGHT:
		if (ks_parse_u32(arg, 10000, &v) || v < 240) {
			ks_usage("--%s: '%s' is not a number of pixels (240 to 10000)",
				 key == OPT_WIDTH ? "width" : "height", arg);
			return EINVAL;
		}
		*(key == OPT_WIDTH ? &a->p.width : &a->p.height) = (int)v;
		a->height_set |= key == OPT_HEIGHT;
		break;
	case OPT_SHARE:
		a->p.share = true;
		break;
	case OPT_PER_SLOT:
		a->p.per_slot = true;
		break;
	case OPT_CUMULATIVE:
		a->cumulative = true;
		break;
	case OPT_PALETTE:
		for (v = 0; ks_palette_names[v] && strcmp(arg, ks_palette_names[v]); v++)
			;
		if (!ks_palette_names[v]) {
			ks_usage("--palette: '%s' is not viridis or reds", arg);
			return EINVAL;
		}
		a->p.palette = (int)v;
		a->palette_set = true;
		break;
	case ARGP_KEY_ARG:
		if (!a->kind)
			a->kind = arg;
		else if (ks_names_add(&a->ops, arg))
			return EINVAL;
		break;
	default:
		return ARGP_ERR_UNKNOWN;
	}
	return 0;
}

const struct argp plot_argp = {
	plot_options, plot_parse,
	"hist FILE [NAME]\ncdf A [B] [NAME...]\npercentiles A [B] [NAME...]\n"
	"heatmap FILE.hlog [NAME]\nflame [FILE] NAME",
	"Draws the metrics of a snapshot file or an HdrHistogram interval log as SVG: a "
	"distribution (hist: samples per 1/2^b octave on a log latency axis), the CDFs of "
	"the metrics of one or two files overlaid (cdf), their percentile spectra (percentiles:"
	" latency against 1/(1-p), labelled 0%, 90%, 99%, 99.9%..., as HdrHistogram's plots), or latency "
	"over time from an interval log (heatmap), or a flame graph of a trace's slow calls "
	"(flame: the stacks of its outliers, live or from a snapshot file; a frame's width is "
	"its share of their time). NAME: a metric, or a shell-style pattern. "
	"With two files, B is drawn as diff compares it with A: the samples recorded "
	"between them (B - A) when B is A later. Not with -j: 'show -j' has the data."
	"\vheatmap takes an interval log; record one with\n"
	"  kstatsctl export --format hdr --interval 1 -o run.hlog\n"
	"Examples:\n"
	"  kstatsctl plot hist run.ksnap tcp_sendmsg -o hist.svg\n"
	"  kstatsctl plot percentiles before.ksnap after.ksnap tcp_sendmsg -o tail.svg\n"
	"  kstatsctl plot flame vfs_read -o flame.svg   (traced with --outliers)",
	children, NULL, NULL
};

/* The metrics of @set that @pats select (all when none); 0 or an exit code. */
static int select_metrics(const char *path, struct ks_set *set, const struct ks_names *pats)
{
	char t[KS_TEXT_LEN(KSTATS_NAME_LEN)];
	size_t i;

	for (i = 0; i < pats->nr; i++) {
		struct ks_names one = { &pats->v[i], 1 };
		size_t k;

		for (k = 0; k < set->nr && !ks_names_fnmatch(&one, set->m[k].name); k++)
			;
		if (k == set->nr) {
			ks_set_hint("'kstatsctl list -i %s' lists the metrics in it", path);
			return ks_fail(EXIT_RUNTIME, NULL, "%s: no metric matches '%s'", path,
				       ks_text(t, sizeof(t), pats->v[i]));
		}
	}
	ks_set_keep(set, pats);
	if (!set->nr)
		return ks_fail(EXIT_RUNTIME, "'kstatsctl snapshot FILE' saves the metrics",
			       "%s: no metrics in it", path);
	return 0;
}

/* hist and heatmap draw one metric: FILE's only one, or the one NAME selects. */
static int one_metric(const char *path, struct ks_set *set, const struct ks_names *pats)
{
	char t[KS_TEXT_LEN(KSTATS_NAME_LEN)];
	int rc = select_metrics(path, set, pats);

	if (rc || set->nr == 1)
		return rc;
	ks_set_hint("name one: 'kstatsctl list -i %s' lists them", path);
	if (pats->nr)
		return ks_fail(EXIT_USAGE, NULL, "'%s' matches %zu metrics in %s; this plot draws one",
			       ks_text(t, sizeof(t), pats->v[0]), set->nr, path);
	return ks_fail(EXIT_USAGE, NULL, "%s holds %zu metrics; this plot draws one", path,
		       set->nr);
}

static int plot_hist(FILE *out, struct plot_args *a)
{
	struct ks_names pats = { a->ops.v + 1, a->ops.nr - 1 };
	struct ks_set set = { 0 };
	char label[4096];
	int rc;

	if (a->ops.nr < 1 || a->ops.nr > 2)
		return ks_usage("plot hist FILE [NAME]: %s", a->ops.nr ? "one metric" :
				"which file?");
	ks_hlog_select(&pats);	/* a log's other tags: not decoded */
	rc = ks_snapfile_read(a->ops.v[0], &set);
	if (!rc)
		rc = one_metric(a->ops.v[0], &set, &pats);
	if (!rc) {
		snprintf(label, sizeof(label), "%s", a->ops.v[0]);
		opts.units = ks_metric_unit(&set.m[0], opts.units);	/* show's unit (units.c) */
		rc = ks_plot_hist(out, &set.m[0], label, &a->p);
	}
	ks_set_free(&set);
	return rc;
}

/*
 * A heatmap of the intervals of an interval log (export --format hdr
 * --interval): the one tag's intervals summed into at most one column per
 * pixel of the plot (hlog_columns.c), so that a day's log draws as fast as
 * it reads.
 */
static int plot_heatmap(FILE *out, struct plot_args *a)
{
	struct ks_names pats = { a->ops.v + 1, a->ops.nr - 1 };
	struct ks_plot_interval *iv = NULL;
	const char *path;
	struct ks_set set;
	struct ks_frame f;
	uint8_t *buf;
	size_t len, nr = 0;
	int rc;

	if (a->ops.nr < 1 || a->ops.nr > 2)
		return ks_usage("plot heatmap FILE.hlog [NAME]: %s", a->ops.nr ? "one metric" :
				"which file?");
	path = a->ops.v[0];
	rc = ks_file_read(path, &buf, &len);
	if (rc)
		return rc;
	if (!ks_hlog_detect(buf, len)) {
		free(buf);
		rc = ks_snapfile_read(path, &set);	/* a damaged file says so first */
		if (!rc)
			ks_set_free(&set);
		return rc ? rc : ks_fail(EXIT_RUNTIME, "'kstatsctl export --format hdr --interval "
					 "S -o FILE.hlog' records one", "%s: a snapshot holds "
					 "one instant; a heatmap needs an interval log", path);
	}
	rc = ks_hlog_tags(path, buf, len, &set);
	if (!rc)
		rc = one_metric(path, &set, &pats);
	if (!rc) {
		/* The frame plot_heatmap.c draws in: one column per pixel at most. */
		ks_plot_frame(&f, &a->p, 64, 90);
		rc = ks_hlog_columns(path, buf, len, set.m[0].name, (size_t)fmax(1, f.w),
				     &iv, &nr, &a->p.bin_s, &a->p.nr_intervals);
		opts.units = !rc && nr ? ks_metric_unit(iv[0].m, opts.units) : opts.units;
	}
	if (!rc)
		rc = nr ? ks_plot_heatmap(out, iv, nr, &a->p) : ks_plot_empty(set.m[0].name);
	ks_hlog_columns_free(iv, nr);
	ks_set_free(&set);
	free(buf);
	return rc;
}

static bool is_file(const char *path)
{
	return access(path, F_OK) == 0;
}

/* The curves of an overlay (cdf, percentiles), and what they hold. */
struct overlay {
	struct ks_plot_series sr[16];
	char *label[16];
	struct pair pair[16];	/* B's side: how it compares with A */
	size_t nr;
};

static void overlay_add(struct overlay *o, const struct ks_metric *m, char *label)
{
	if (o->nr < ARRAY_SIZE(o->sr)) {
		o->sr[o->nr] = (struct ks_plot_series){ label, m };
		o->label[o->nr] = label;
	} else {
		free(label);
	}
	o->nr++;	/* past 16: refused by the plot, which says how many */
}

static char *label_of(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static char *label_of(const char *fmt, ...)
{
	va_list ap;
	char *s;

	va_start(ap, fmt);
	if (vasprintf(&s, fmt, ap) < 0)
		abort();
	va_end(ap);
	return s;
}

/*
 * B's curve for A's metric @a, as diff compares them (diff_classify()):
 * B - A when B is A later, B whole across hosts or with --cumulative; and,
 * where diff compares nothing (a reset, a reboot), B whole, saying so.
 */
static void overlay_b(struct overlay *o, const struct ks_set *sa, const struct ks_set *sb,
		      const struct ks_metric *a, const struct ks_metric *b, const char *na,
		      const char *nb, bool cumulative)
{
	struct pair *p = &o->pair[o->nr < ARRAY_SIZE(o->pair) ? o->nr : 0];
	const char *t = b->name;

	if (o->nr >= ARRAY_SIZE(o->pair) || !a) {
		overlay_add(o, b, label_of("%s: %s%s", nb, t, a ? "" : " (not in A)"));
		return;
	}
	*p = (struct pair){ .a = a, .b = b };
	diff_classify(p, &sa->src, &sb->src, cumulative);
	if (p->cmp == CMP_INTERVAL)
		overlay_add(o, &p->iv, label_of("%s \u2212 %s: %s, recorded between them", nb, na, t));
	else if (p->cmp == CMP_WHOLE)
		overlay_add(o, b, label_of("%s: %s, whole", nb, t));
	else	/* diff's reason, to its details: "reset between A and B" */
		overlay_add(o, b, label_of("%s: %s, whole (diff compares nothing: %.*s)", nb, t,
					   (int)strcspn(p->note, ":("), p->note));
}

static void overlay_free(struct overlay *o)
{
	size_t i;

	for (i = 0; i < o->nr && i < ARRAY_SIZE(o->sr); i++) {
		free(o->label[i]);
		if (o->pair[i].cmp == CMP_INTERVAL)
			ks_metric_free(&o->pair[i].iv);
	}
}

/*
 * plot cdf and plot percentiles: A [B] [NAME...]. One file: a curve per
 * metric. Two: A's metrics, then B's, each B as diff compares it with
 * the metric of the same name in A.
 */
static int plot_overlay(FILE *out, struct plot_args *a, bool pct)
{
	struct ks_set set[2] = { 0 };
	struct overlay o = { .nr = 0 };
	char *base[2] = { 0 };
	struct ks_names pats;
	size_t nf, i, k;
	int rc = 0;

	if (a->ops.nr < 1)
		return ks_usage("plot %s A [B] [NAME...]: which file?", pct ? "percentiles" : "cdf");
	nf = a->ops.nr > 1 && is_file(a->ops.v[1]) ? 2 : 1;
	pats = (struct ks_names){ a->ops.v + nf, a->ops.nr - nf };
	ks_hlog_select(&pats);
	for (i = 0; i < nf && !rc; i++) {
		rc = ks_snapfile_read(a->ops.v[i], &set[i]);
		if (!rc)
			rc = select_metrics(a->ops.v[i], &set[i], &pats);
		base[i] = xstrdup(a->ops.v[i]);
	}
	for (k = 0; !rc && k < set[0].nr; k++) {
		const char *t = set[0].m[k].name;

		overlay_add(&o, &set[0].m[k], nf == 1 ? label_of("%s", t) :
			    label_of("%s: %s", basename(base[0]), t));
	}
	for (k = 0; !rc && nf == 2 && k < set[1].nr; k++)
		overlay_b(&o, &set[0], &set[1], ks_set_find(&set[0], set[1].m[k].name),
			  &set[1].m[k], basename(base[0]), basename(base[1]), a->cumulative);
	for (i = 0; i < o.nr && i < ARRAY_SIZE(o.sr); i++)	/* ns only when every one is */
		opts.units = ks_metric_unit(o.sr[i].m, opts.units);
	if (!rc)
		rc = (pct ? ks_plot_pct : ks_plot_cdf)(out, o.sr, o.nr, &a->p);
	overlay_free(&o);
	free(base[0]);
	free(base[1]);
	ks_set_free(&set[0]);
	ks_set_free(&set[1]);
	return rc;
}

static int write_out(const char *path, const char *buf, size_t len)
{
	FILE *f;

	if (!path) {
		fwrite(buf, 1, len, stdout);
		return 0;
	}
	f = fopen(path, "w");
	if (!f || fwrite(buf, 1, len, f) != len || fclose(f)) {
		int err = errno;

		if (f)
			unlink(path);
		return ks_fail(EXIT_RUNTIME, "check the path and that it is writable",
			       "%s: %s", path, strerror(err));
	}
	return 0;
}

/*
 * plot flame [FILE] NAME: a trace's outliers, from FILE (a snapshot file:
 * -i FILE, or a first operand that is a file) or live.
 */
static int plot_flame(FILE *out, struct plot_args *a)
{
	const char *path = NULL, *name = NULL;

	if (a->ops.nr > 2 || (!a->ops.nr))
		return ks_usage("plot flame [FILE] NAME: %s", a->ops.nr ? "one trace" :
				"which trace?");
	if (a->height_set)
		return ks_usage("--height: a flame graph is as tall as its deepest stack");
	if (a->nr_inputs || a->ops.nr == 2 || access(a->ops.v[0], F_OK) == 0)
		path = a->ops.v[0];
	if (!path || a->ops.nr == 2)
		name = a->ops.v[a->ops.nr - 1];
	return ks_outliers_flame(path, name, out, &a->p);
}

/* An option for another kind of plot is refused, not ignored. */
static bool option_fits(const struct plot_args *a)
{
	static const struct { const char *opt, *kind, *kind2; } only[] = {
		{ "--share", "hist", NULL }, { "--per-slot", "hist", NULL },
		{ "--palette", "heatmap", NULL }, { "--cumulative", "cdf", "percentiles" },
	};
	bool set[] = { a->p.share, a->p.per_slot, a->palette_set, a->cumulative };
	size_t i;

	for (i = 0; i < ARRAY_SIZE(only); i++) {
		if (!set[i] || !strcmp(a->kind, only[i].kind) ||
		    (only[i].kind2 && !strcmp(a->kind, only[i].kind2)))
			continue;
		ks_usage("%s is for plot %s%s%s", only[i].opt, only[i].kind,
			 only[i].kind2 ? " and plot " : "", only[i].kind2 ? only[i].kind2 : "");
		return false;
	}
	return true;
}

int cmd_plot(int argc, char **argv)
{
	struct plot_args a = { .p = { .width = 800, .height = 500 } };
	char *buf = NULL;
	size_t len = 0;
	int rc, done;
	FILE *mem;

	rc = ks_parse(&plot_argp, argc, argv, &a, &done);
	if (rc || done)
		goto out;
	rc = EXIT_USAGE;
	if (opts.json) {
		ks_set_hint("'kstatsctl -j show' prints the same data as JSON");
		ks_usage("plot writes SVG: -j does not apply");
		goto out;
	}
	if (!a.kind) {
		ks_set_hint("'kstatsctl plot --help' shows how");
		ks_usage("plot what? hist, cdf, percentiles, heatmap or flame");
		goto out;
	}
	if (strcmp(a.kind, "hist") && strcmp(a.kind, "cdf") && strcmp(a.kind, "heatmap") &&
	    strcmp(a.kind, "percentiles") && strcmp(a.kind, "flame")) {
		ks_set_hint("'kstatsctl plot --help' shows how");
		ks_usage("plot: '%s' is not hist, cdf, percentiles, heatmap or flame", a.kind);
		goto out;
	}
	if (!option_fits(&a))
		goto out;
	mem = open_memstream(&buf, &len);
	if (!mem)
		abort();
	if (!strcmp(a.kind, "hist"))
		rc = plot_hist(mem, &a);
	else if (!strcmp(a.kind, "cdf") || !strcmp(a.kind, "percentiles"))
		rc = plot_overlay(mem, &a, strcmp(a.kind, "cdf"));
	else if (!strcmp(a.kind, "flame"))
		rc = plot_flame(mem, &a);
	else
		rc = plot_heatmap(mem, &a);
	fclose(mem);
	if (!rc)
		rc = write_out(a.output, buf, len);
out:
	free(buf);
	free(a.ops.v);
	return rc;
}

// SPDX-License-Identifier: GPL-2.0
/*
 * kstatsctl plot hist FILE [NAME]
 * kstatsctl plot cdf A [B] [NAME...]
 * kstatsctl plot heatmap FILE.hlog [NAME]
 *
 * Pictures of snapshot files and HdrHistogram interval logs (hist and cdf
 * read a log's intervals summed), as self-contained SVG on standard output
 * or in -o FILE: a metric's distribution (hist), the CDFs of one or two
 * files' metrics overlaid (cdf), latency over time (heatmap, of an interval
 * log: a column per interval).
 * The picture is made in memory first: a plot that fails writes nothing.
 *
 * cdf's operands: A, then B when it names a file that exists, then the
 * metric patterns (a metric named like a file here: write the file as ./B).
 */
#include <errno.h>
#include <libgen.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "hdr.h"

enum plot_kind { PLOT_HIST, PLOT_CDF, PLOT_HEATMAP };

struct plot_args {
	const char *kind;
	struct ks_names ops;	/* the operands after the kind */
	const char *output;
	struct ks_plot p;
};

enum { OPT_TITLE = 0x500, OPT_WIDTH, OPT_HEIGHT, OPT_SHARE };

static const struct argp_child children[] = {
	{ &ks_global_argp, 0, NULL, 0 },
	{ 0 }
};

static const struct argp_option plot_options[] = {
	{ "output", 'o', "FILE", 0, "Write the SVG to FILE (default: standard output)", 0 },
	{ "title", OPT_TITLE, "TEXT", 0, "The picture's title (default: the metric's name)", 0 },
	{ "width", OPT_WIDTH, "PIXELS", 0, "The picture's width (default 800)", 0 },
	{ "height", OPT_HEIGHT, "PIXELS", 0, "The picture's height (default 500)", 0 },
	{ "share", OPT_SHARE, NULL, 0, "hist: each slot's share of the samples, not its count", 0 },
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
		break;
	case OPT_SHARE:
		a->p.share = true;
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
	"hist FILE [NAME]\ncdf A [B] [NAME...]\nheatmap FILE.hlog [NAME]",
	"Draws the metrics of a snapshot file or an HdrHistogram interval log as SVG: a "
	"distribution (hist, bars per slot on a log latency axis), the CDFs of the metrics "
	"of one or two files overlaid (cdf), or latency over time from an interval log "
	"(heatmap). NAME: a metric, or a shell-style pattern."
	"\vheatmap takes an interval log; record one with\n"
	"  kstatsctl export --format hdr --interval 1 -o run.hlog",
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
		ks_plot_frame(&f, &a->p, 50, 90);
		rc = ks_hlog_columns(path, buf, len, set.m[0].name, (size_t)fmax(1, f.w),
				     &iv, &nr, &a->p.bin_s, &a->p.nr_intervals);
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

static int plot_cdf(FILE *out, struct plot_args *a)
{
	struct ks_plot_series sr[16];
	struct ks_set set[2] = { 0 };
	char *label[16] = { 0 };
	struct ks_names pats;
	size_t nf, i, k, nr = 0;
	int rc = 0;

	if (a->ops.nr < 1)
		return ks_usage("plot cdf A [B] [NAME...]: which file?");
	nf = a->ops.nr > 1 && is_file(a->ops.v[1]) ? 2 : 1;
	pats = (struct ks_names){ a->ops.v + nf, a->ops.nr - nf };
	ks_hlog_select(&pats);
	for (i = 0; i < nf && !rc; i++) {
		rc = ks_snapfile_read(a->ops.v[i], &set[i]);
		if (!rc)
			rc = select_metrics(a->ops.v[i], &set[i], &pats);
	}
	for (i = 0; i < nf && !rc; i++) {
		for (k = 0; k < set[i].nr && nr < ARRAY_SIZE(sr); k++, nr++) {
			char *base = xstrdup(a->ops.v[i]);

			label[nr] = xcalloc(strlen(a->ops.v[i]) + KSTATS_NAME_LEN + 3, 1);
			if (nf == 1)
				sprintf(label[nr], "%s", set[i].m[k].name);
			else
				sprintf(label[nr], "%s: %s", basename(base), set[i].m[k].name);
			free(base);
			sr[nr] = (struct ks_plot_series){ label[nr], &set[i].m[k] };
		}
		if (k < set[i].nr)
			nr = ARRAY_SIZE(sr) + 1;	/* past any overlay: refused */
	}
	if (!rc)
		rc = ks_plot_cdf(out, sr, nr, &a->p);
	for (i = 0; i < ARRAY_SIZE(label); i++)
		free(label[i]);
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
	if (!a.kind) {
		ks_set_hint("'kstatsctl plot --help' shows how");
		ks_usage("plot what? hist, cdf or heatmap");
		goto out;
	}
	if (strcmp(a.kind, "hist") && strcmp(a.kind, "cdf") && strcmp(a.kind, "heatmap")) {
		ks_set_hint("'kstatsctl plot --help' shows how");
		ks_usage("plot: '%s' is not hist, cdf or heatmap", a.kind);
		goto out;
	}
	if (a.p.share && strcmp(a.kind, "hist")) {
		ks_usage("--share is for plot hist");
		goto out;
	}
	mem = open_memstream(&buf, &len);
	if (!mem)
		abort();
	if (!strcmp(a.kind, "hist"))
		rc = plot_hist(mem, &a);
	else if (!strcmp(a.kind, "cdf"))
		rc = plot_cdf(mem, &a);
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

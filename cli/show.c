// SPDX-License-Identifier: GPL-2.0
/*
 * kstatsctl show NAME... | --all  [-i FILE] [--cpu N | --per-cpu]
 *                        [-f FORMAT] [-b BITS] [--all-slots]
 *                        [--interval SECONDS [--count N]]
 *
 * NAMEs are shell-style patterns ('net.*'); a plain name is one metric.
 * Live metrics come from KSTATS_IOC_SNAPSHOT, saved ones from a snapshot
 * file (-i). --interval (--watch, its older name) prints, every SECONDS,
 * the distribution of what was recorded during that interval: the
 * difference of two snapshots.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "kstatsctl.h"
#include "device.h"
#include "fmt.h"
#include "hdr.h"
#include "json.h"
#include "model.h"
#include "outliers.h"
#include "names.h"
#include "snapfile.h"
#include "text.h"

const char *const ks_format_names[] = {
	[FMT_HIST] = "hist", [FMT_PERCENTILES] = "percentiles", [FMT_CDF] = "cdf",
	[FMT_RAW] = "raw", [FMT_JSON] = "json", [FMT_CSV] = "csv",
	[FMT_PROM] = "prometheus",
};

int ks_format_parse(const char *s, enum ks_format *f)
{
	unsigned int i;

	for (i = 0; i <= FMT_PROM; i++) {
		if (!strcmp(s, ks_format_names[i])) {
			*f = (enum ks_format)i;
			return 0;
		}
	}
	return -1;
}

static void interval_header(FILE *out, const struct ks_metric *m,
			    const struct ks_show *sh)
{
	char when[32];
	time_t t = (time_t)(m->realtime_ns / 1000000000);
	struct tm tm;

	localtime_r(&t, &tm);
	strftime(when, sizeof(when), "%Y-%m-%d %H:%M:%S", &tm);
	if (sh->format == FMT_HIST)
		fprintf(out, "%s--- interval %u, %s, %.3f s ---%s\n",
			ks_color(opts.color_out, C_BOLD), sh->interval, when,
			sh->interval_s, ks_color(opts.color_out, C_RESET));
	else if (sh->format != FMT_JSON && sh->format != FMT_CSV)
		fprintf(out, "# interval %u, %s, %.3f s\n", sh->interval, when,
			sh->interval_s);
}

int ks_show_metrics(FILE *out, const struct ks_metric *m, size_t nr,
		    const struct ks_show *sh)
{
	struct json *j;
	size_t i;

	if (sh->format == FMT_JSON) {
		j = json_doc("show");
		fmt_json_source(j, sh->src);
		if (sh->interval) {
			json_key(j, "interval");
			json_obj(j);
			json_ku64(j, "index", sh->interval);
			json_kdbl(j, "length_ns", round(sh->interval_s * 1e9));
			json_obj_end(j);
		}
		json_key(j, "metrics");
		json_arr(j);
		for (i = 0; i < nr; i++)
			fmt_json_metric(j, &m[i], sh);
		json_arr_end(j);
		json_obj_end(j);
		json_end(j);
		return 0;
	}
	if (sh->format == FMT_CSV && sh->interval <= 1)
		fmt_csv_header(out, sh);
	if (sh->interval && nr)
		interval_header(out, &m[0], sh);
	for (i = 0; i < nr; i++) {
		switch (sh->format) {
		case FMT_HIST:
			if (i)
				fputc('\n', out);
			fmt_hist(out, &m[i], sh);
			break;
		case FMT_PERCENTILES:
			if (i)
				fputc('\n', out);
			fmt_percentiles(out, &m[i], sh);
			break;
		case FMT_CDF:
			if (i)
				fputs("\n\n", out);
			fmt_cdf(out, &m[i], sh);
			break;
		case FMT_RAW:
			/* One metric is debugfs' text exactly; several are marked
			 * with a comment line ('grep CPUS' skips it, gnuplot too). */
			if (nr > 1) {
				char t[KS_TEXT_LEN(KSTATS_NAME_LEN)];

				fprintf(out, "# metric %s\n", ks_text(t, sizeof(t), m[i].name));
			}
			fmt_raw(out, &m[i]);
			break;
		case FMT_CSV:
			fmt_csv(out, &m[i], sh);
			break;
		case FMT_PROM:	/* all at once, after this loop */
			break;
		case FMT_JSON:
			break;
		}
	}
	if (sh->format == FMT_PROM)
		fmt_prom(out, m, nr, sh);
	return 0;
}

/* ---- the command ---- */

struct show_args {
	struct ks_names pats;
	bool all;
	const char *input;
	long cpu;
	uint8_t *cpu_mask;	/* --cpu LIST of several CPUs */
	const char *cpu_list;
	bool per_cpu, all_slots, format_set;
	long bits;
	enum ks_format format;
	double watch;
	long count;
	bool folded, by_time, weight_set;	/* --folded, --weight */
};

enum { OPT_CPU = 0x200, OPT_PER_CPU, OPT_ALL_SLOTS, OPT_COUNT, OPT_FOLDED, OPT_WEIGHT };

static const struct argp_option show_options[] = {
	{ "all", 'a', NULL, 0, "Every metric", 0 },
	{ "input", 'i', "FILE", 0, "Read a snapshot file ('-': stdin) instead of "
	  "the live metrics", 0 },
	{ "cpu", OPT_CPU, "LIST", 0, "Only these CPUs, e.g. 2 or 0-3,8 (several: "
	  "their samples together)", 0 },
	{ "per-cpu", OPT_PER_CPU, NULL, 0, "Each CPU separately", 0 },
	{ "format", 'f', "FORMAT", 0, "hist (default), percentiles, cdf, raw, json, "
	  "csv or prometheus", 0 },
	{ "interval", 'w', "SECONDS", 0, "Every SECONDS, show what was recorded in "
	  "that interval (until stopped, or --count)", 0 },
	{ "watch", 0, NULL, OPTION_ALIAS, NULL, 0 },
	{ "count", OPT_COUNT, "N", 0, "With --interval: stop after N intervals", 0 },
	{ "all-slots", OPT_ALL_SLOTS, NULL, 0, "Every slot, empty edges too, none "
	  "merged", 0 },
	{ "bits", 'b', "B", 0, "hist: rows of 2^B slots per power of two, "
	  "merged from the metric's (B below its frac_bits; the metric's own: "
	  "every slot). Default: the finest that fits 40 rows", 0 },
	{ "folded", OPT_FOLDED, NULL, 0, "Of a trace keyed by stack: a line per stack, "
	  "outermost frame first, as flamegraph.pl and speedscope read them", 0 },
	{ "weight", OPT_WEIGHT, "W", 0, "With --folded: count (calls, the default) or "
	  "time (their summed ns)", 0 },
	{ 0 }
};

static error_t show_parse(int key, char *arg, struct argp_state *state)
{
	struct show_args *a = state->input;
	char *end;

	switch (key) {
	case 'a':
		a->all = true;
		break;
	case 'i':
		a->input = arg;
		break;
	case OPT_CPU: {
		uint32_t c, n = 0;

		free(a->cpu_mask);
		a->cpu_mask = xcalloc(KS_CPU_BITS / 8, 1);
		if (ks_parse_cpulist(arg, a->cpu_mask, KS_CPU_BITS)) {
			ks_usage("--cpu: '%s' is not a CPU or a CPU list like 0-3,8", arg);
			return EINVAL;
		}
		for (c = 0; c < KS_CPU_BITS; c++)
			if (a->cpu_mask[c / 8] & (1u << (c % 8)))
				a->cpu = n++ ? a->cpu : (long)c;
		/* One CPU: its own row; several: their samples together. */
		a->cpu_list = n > 1 ? arg : NULL;
		if (n > 1)
			a->cpu = -1;
		break;
	}
	case OPT_PER_CPU:
		a->per_cpu = true;
		break;
	case 'f':
		if (ks_format_parse(arg, &a->format)) {
			ks_usage("--format: '%s' is not hist, percentiles, cdf, raw, "
				 "json, csv or prometheus", arg);
			return EINVAL;
		}
		a->format_set = true;
		break;
	case 'w':
		return ks_parse_seconds("--interval", arg, 0.01, 86400, &a->watch);
	case OPT_COUNT:
		return ks_parse_count("--count", arg, &a->count);
	case 'b':
		errno = 0;
		a->bits = strtol(arg, &end, 10);
		if (errno || *end || end == arg || a->bits < 0 || a->bits > KSTATS_FRAC_BITS_MAX) {
			ks_usage("--bits: '%s' is not 0 to %d", arg, KSTATS_FRAC_BITS_MAX);
			return EINVAL;
		}
		break;
	case OPT_ALL_SLOTS:
		a->all_slots = true;
		break;
	case OPT_FOLDED:
		a->folded = true;
		break;
	case OPT_WEIGHT:
		if (strcmp(arg, "count") && strcmp(arg, "time")) {
			ks_usage("--weight: '%s' is not count or time", arg);
			return EINVAL;
		}
		a->by_time = !strcmp(arg, "time");
		a->weight_set = true;
		break;
	case ARGP_KEY_ARG:
		if (ks_names_add(&a->pats, arg))
			return EINVAL;
		break;
	default:
		return ARGP_ERR_UNKNOWN;
	}
	return 0;
}

static const struct argp_child show_children[] = {
	{ &ks_global_argp, 0, NULL, 0 },
	{ 0 }
};

const struct argp show_argp = {
	show_options, show_parse, "NAME...\n--all\n-i FILE [NAME...]",
	"Shows metrics: their distribution (hist), percentile table, CDF, the "
	"original debugfs text (raw), JSON, CSV or Prometheus text.",
	show_children, NULL, NULL
};

/*
 * The metrics of @set matching @pats, in the order of the patterns (then
 * of @set), each once: "show b a" shows b first. Into @out, a shallow copy.
 */
static void pick(const struct ks_set *set, const struct ks_names *pats,
		 struct ks_set *out)
{
	bool *taken = xcalloc(set->nr, sizeof(*taken));
	size_t p, i;

	out->m = xcalloc(set->nr, sizeof(*out->m));
	out->nr = 0;
	for (p = 0; p < pats->nr; p++) {
		struct ks_names one = { &pats->v[p], 1 };

		for (i = 0; i < set->nr; i++) {
			if (taken[i] || !ks_names_fnmatch(&one, set->m[i].name))
				continue;
			taken[i] = true;
			out->m[out->nr++] = set->m[i];
		}
	}
	free(taken);
}

/* Snapshots the metrics matching the patterns (or every one) into @set. */
static int take(int fd, struct show_args *a, struct ks_set *set)
{
	struct ks_set all = { 0 }, picked;
	int rc = ks_take_matching(fd, &a->pats, &all);

	if (rc || a->all) {
		*set = all;
		return rc;
	}
	pick(&all, &a->pats, &picked);
	free(all.m);	/* picked holds them all, in order */
	set->m = picked.m;
	set->nr = picked.nr;
	return 0;
}

/* Shows @m, with --cpu LIST only those CPUs' rows: 0 or an exit code. */
static int show_out(const struct ks_metric *m, size_t nr, const struct ks_show *sh,
		    const struct show_args *a)
{
	struct ks_metric *f;
	size_t i;
	int rc;

	if (!a->cpu_list)
		return ks_show_metrics(stdout, m, nr, sh);
	f = xcalloc(nr ? nr : 1, sizeof(*f));
	for (i = 0; i < nr; i++)
		ks_metric_cpus(&m[i], a->cpu_mask, &f[i]);
	rc = ks_show_metrics(stdout, f, nr, sh);
	for (i = 0; i < nr; i++)
		ks_metric_free(&f[i]);
	free(f);
	return rc;
}

/* Checks --cpu against every metric; 0 or an exit code. */
static int check_cpu(const struct ks_set *set, const struct show_args *a)
{
	uint32_t c;
	size_t i;

	for (i = 0; a->cpu_list && i < set->nr; i++)
		for (c = 0; c < KS_CPU_BITS; c++)
			if ((a->cpu_mask[c / 8] & (1u << (c % 8))) &&
			    ks_metric_row(&set->m[i], c) < 0)
				return ks_fail(EXIT_RUNTIME, "--per-cpu shows the CPUs there are",
					       "%s: no CPU %u in this snapshot (%u CPUs)",
					       set->m[i].name, c, set->m[i].nr_cpus);
	for (i = 0; a->cpu >= 0 && i < set->nr; i++)
		if (ks_metric_row(&set->m[i], (uint32_t)a->cpu) < 0)
			return ks_fail(EXIT_RUNTIME, "--per-cpu shows the CPUs there are",
				       "%s: no CPU %ld in this snapshot (%u CPUs)",
				       set->m[i].name, a->cpu, set->m[i].nr_cpus);
	return 0;
}

static int watch(int fd, struct show_args *a, struct ks_show *sh)
{
	struct ks_set prev = { 0 }, cur = { 0 };
	struct ks_metric *d;
	struct timespec next;
	long i;
	size_t k;
	int rc;

	rc = take(fd, a, &prev);
	if (rc)
		return rc;
	clock_gettime(CLOCK_MONOTONIC, &next);
	for (i = 1; !a->count || i <= a->count; i++) {
		ks_sleep_until(&next, a->watch);
		memset(&cur, 0, sizeof(cur));
		rc = take(fd, a, &cur);
		if (rc)
			break;
		d = xcalloc(cur.nr, sizeof(*d));
		for (k = 0; k < cur.nr; k++) {
			/* NULL: new since the last interval, all of it */
			ks_metric_since(ks_set_find(&prev, cur.m[k].name), &cur.m[k], &d[k]);
		}
		sh->interval = (unsigned int)i;
		sh->interval_s = cur.nr && prev.nr ?
			(double)(cur.m[0].time_ns - prev.m[0].time_ns) / 1e9 : a->watch;
		ks_source_live((struct ks_source *)sh->src, fd);
		rc = check_cpu(&cur, a);
		if (!rc)
			show_out(d, cur.nr, sh, a);
		for (k = 0; k < cur.nr; k++)
			ks_metric_free(&d[k]);
		free(d);
		ks_set_free(&prev);
		prev = cur;
		if (rc || fflush(stdout))
			break;
	}
	ks_set_free(&prev);
	return rc;
}

int cmd_show(int argc, char **argv)
{
	struct show_args a = { .cpu = -1, .format = FMT_HIST, .bits = -1 };
	struct ks_set set = { 0 };
	struct ks_show sh = { 0 };
	int rc, done, fd = -1;

	rc = ks_parse(&show_argp, argc, argv, &a, &done);
	if (rc || done)
		goto out;
	if (!a.format_set && opts.json)
		a.format = FMT_JSON;
	rc = EXIT_USAGE;
	if (a.cpu >= 0 && a.per_cpu) {
		ks_usage("--cpu and --per-cpu do not go together");
		goto out;
	}
	if (a.count && !a.watch) {
		ks_usage("--count goes with --interval");
		goto out;
	}
	if (a.watch && a.input) {
		ks_usage("--interval reads the live metrics, not a file");
		goto out;
	}
	if (a.all && a.pats.nr) {
		ks_usage("give metric names or --all, not both");
		goto out;
	}
	if (!a.input && !a.all && !a.pats.nr) {
		ks_usage("which metric? give NAME..., or --all");
		goto out;
	}
	for (size_t i = 0; i < a.pats.nr; i++)
		if (ks_pattern_valid(a.pats.v[i]))
			goto out;
	if (a.weight_set && !a.folded) {
		ks_usage("--weight goes with --folded");
		goto out;
	}
	if (a.folded) {
		if (a.watch || a.all || a.format_set || a.cpu >= 0 || a.cpu_list ||
		    a.per_cpu || a.all_slots || a.bits >= 0 || !a.pats.nr) {
			ks_set_hint("kstatsctl show --folded [-i FILE] NAME... [--weight count|time]");
			if (!a.pats.nr)
				ks_usage("--folded prints the stack keys of the traces NAME...: "
					 "which trace?");
			else
				ks_usage("--folded prints the stack keys of the traces NAME...: "
					 "no -w, -a, -f, --cpu, --per-cpu, --all-slots or --bits");
			goto out;
		}
		rc = ks_show_folded(&a.pats, a.input, a.by_time);
		goto out;
	}
	sh.format = a.format;
	sh.cpu = (int)a.cpu;
	sh.cpu_list = a.cpu_list;
	sh.per_cpu = a.per_cpu;
	sh.all_slots = a.all_slots;
	sh.bits = (int)a.bits;
	if (opts.units_set && a.format == FMT_PROM) {
		rc = ks_usage("Prometheus' unit is the second: --units does not apply "
			      "to -f prometheus");
		goto out;
	}
	if (a.bits >= 0 && a.format != FMT_HIST) {
		rc = ks_usage("--bits merges the rows of hist, the default format");
		goto out;
	}
	sh.units = opts.units;
	sh.units_set = opts.units_set;
	sh.src = &set.src;

	if (a.input) {
		ks_hlog_select(&a.pats);	/* a log's other tags: not decoded */
		rc = ks_snapfile_read(a.input, &set);
		if (rc)
			goto out;
		if (a.pats.nr) {
			struct ks_set picked;

			rc = ks_set_check(&set, &a.pats, a.input);
			if (rc)
				goto out;
			pick(&set, &a.pats, &picked);
			rc = check_cpu(&picked, &a);
			if (!rc)
				rc = show_out(picked.m, picked.nr, &sh, &a);
			free(picked.m);
			goto out;
		}
		rc = check_cpu(&set, &a);
		if (!rc)
			rc = show_out(set.m, set.nr, &sh, &a);
		goto out;
	}
	fd = ks_dev_open();
	if (fd < 0) {
		rc = EXIT_RUNTIME;
		goto out;
	}
	ks_source_live(&set.src, fd);
	if (a.watch) {
		rc = watch(fd, &a, &sh);
		goto out;
	}
	rc = take(fd, &a, &set);
	if (!rc)
		rc = check_cpu(&set, &a);
	if (!rc)
		rc = show_out(set.m, set.nr, &sh, &a);
out:
	if (fd >= 0)
		close(fd);
	ks_set_free(&set);
	free(a.pats.v);
	free(a.cpu_mask);
	return rc;
}

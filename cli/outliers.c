// SPDX-License-Identifier: GPL-2.0
/*
 * kstatsctl outliers NAME [--follow] | -i FILE [NAME]: the slow calls a trace kept
 * (trace --outliers), oldest first, each with its task, CPUs and kernel
 * stack, symbolized from /proc/kallsyms as "function+offset [module]"
 * (KSTATS_IOC_OUTLIERS); or those a snapshot file keeps (format 4, 7),
 * symbolized when it was written. Printed by fmt_outliers.c, either way.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "kstatsctl.h"
#include "device.h"
#include "fmt.h"
#include "json.h"
#include "model.h"
#include "names.h"
#include "outliers.h"
#include "snapfile.h"
#include "units.h"

struct outliers_args {
	struct ks_names names;
	const char *input;
	bool follow;
	struct ks_outl_filter filter;
};

/* outliers --folded [--weight time]: how print() prints. */
static bool folded, folded_by_time, weight_given;

enum { OPT_FOLLOW = 0x100, OPT_COMM, OPT_MIN, OPT_FOLDED, OPT_WEIGHT };

static const struct argp_child children[] = {
	{ &ks_global_argp, 0, NULL, 0 },
	{ 0 }
};

static const struct argp_option outliers_options[] = {
	{ "input", 'i', "FILE", 0, "Read a snapshot file ('-': stdin) instead of "
	  "the module; NAME may be left out when it holds one trace's outliers", 0 },
	{ "format", 'f', "FORMAT", 0, "table (default) or json (as -j)", 0 },
	{ "follow", OPT_FOLLOW, NULL, 0, "Print each slow call that ends from now "
	  "on, once, until Ctrl-C; say how many were lost (ring overwritten) or "
	  "over the rate limit. -j: a document at the start, then one per read that "
	  "found something", 0 },
	{ "pid", 'p', "P", 0, "Only the calls of process P (all its threads)", 0 },
	{ "tid", 't', "T", 0, "Only the calls of thread T", 0 },
	{ "cpu", 'C', "LIST", 0, "Only the calls that ended on these CPUs: 0-3,8", 0 },
	{ "comm", OPT_COMM, "COMM", 0, "Only the calls of tasks called COMM (as ps "
	  "-o comm shows it, at most 15 bytes)", 0 },
	{ "min", OPT_MIN, "D", 0, "Only the calls of at least D (5ms, 250us; a bare "
	  "number: ns)", 0 },
	{ "folded", OPT_FOLDED, NULL, 0, "Their stacks as collapsed lines for flame "
	  "graphs (flamegraph.pl, speedscope): 'outer;...;caller;FUNC N'", 0 },
	{ "weight", OPT_WEIGHT, "W", 0, "With --folded: each line's weight, 'count' "
	  "of calls (default) or 'time', their summed ns", 0 },
	{ 0 }
};

static error_t outliers_parse(int key, char *arg, struct argp_state *state)
{
	struct outliers_args *a = state->input;

	switch (key) {
	case 'i':
		a->input = arg;
		break;
	case 'f':
		return ks_parse_table_json(arg);
	case OPT_FOLLOW:
		a->follow = true;
		break;
	case 'p':
	case 't':
		a->filter.on = a->filter.task = true;
		return ks_parse_id(key == 'p' ? "--pid" : "--tid", arg,
				key == 'p' ? &a->filter.pid : &a->filter.tid);
	case 'C':
		a->filter.on = true;
		free(a->filter.cpus);
		a->filter.cpus = xcalloc(KS_CPU_BITS / 8, 1);
		if (ks_parse_cpulist(arg, a->filter.cpus, KS_CPU_BITS)) {
			ks_usage("--cpu: '%s' is not a CPU list (0-3,8; CPUs 0 to %d)", arg,
				 KS_CPU_BITS - 1);
			return EINVAL;
		}
		break;
	case OPT_COMM:
		if (!*arg || strlen(arg) > 15) {
			ks_usage("--comm: '%s' is not a task's name (1 to 15 bytes)", arg);
			return EINVAL;
		}
		a->filter.on = a->filter.task = true;
		snprintf(a->filter.comm, sizeof(a->filter.comm), "%s", arg);
		break;
	case OPT_FOLDED:
		folded = true;
		break;
	case OPT_WEIGHT:
		if (strcmp(arg, "count") && strcmp(arg, "time")) {
			ks_usage("--weight: '%s' is not count or time", arg);
			return EINVAL;
		}
		folded_by_time = !strcmp(arg, "time");
		weight_given = true;
		break;
	case OPT_MIN:
		if (ks_parse_value(arg, &a->filter.min_ns) || !a->filter.min_ns) {
			ks_usage("--min: '%s' is not a duration above 0 (5ms, 250us)", arg);
			return EINVAL;
		}
		a->filter.on = true;
		break;
	case ARGP_KEY_ARG:
		if (ks_names_add(&a->names, arg))
			return EINVAL;
		break;
	default:
		return ARGP_ERR_UNKNOWN;
	}
	return 0;
}

const struct argp outliers_argp = {
	outliers_options, outliers_parse, "NAME [--follow | --folded]\n-i FILE [NAME]",
	"Shows the slowest calls a trace kept (kstatsctl trace FUNC --outliers ...), "
	"oldest first: when each ended, its duration, task, CPUs at entry and exit, "
	"what it returned, and the kernel stack from its caller up, symbolized from "
	"/proc/kallsyms. "
	"Stack addresses need CAP_PERFMON or CAP_SYS_ADMIN (as the trace did); "
	"without, the rest is shown. With -i, those a snapshot file keeps "
	"(kstatsctl snapshot -o FILE), printed the same way.",
	children, NULL, NULL
};

static int outliers_error(int err, const char *name)
{
	if (err == ENOTTY)
		return ks_fail(EXIT_RUNTIME, "a newer kstats module can ('kstatsctl "
			       "info' lists what this one supports)", "this kstats "
			       "module cannot keep outliers");
	if (err == ENOENT)
		return ks_fail(EXIT_RUNTIME, "'kstatsctl list' shows the traces (kind "
			       "trace)", "%s: no such metric", name);
	if (err == EINVAL)
		return ks_fail(EXIT_RUNTIME, "trace it with 'kstatsctl trace FUNC "
			       "--outliers 5ms' (or p99.9)", "%s: not a trace that "
			       "keeps outliers", name);
	return ks_dev_error(err, name);
}

/*
 * A filter on the task where the entries have none (a reader without
 * privilege, or a file such a reader wrote): an error, not "none match".
 */
int ks_outl_filter_refused(const struct ks_outl_filter *f, const struct ks_outl *ol,
			   uint32_t out_flags, const char *path)
{
	uint32_t i;
	bool withheld = out_flags & KSTATS_OUTLIERS_NOADDR;

	for (i = 0; ol && i < ol->nr; i++)
		withheld |= ol->e[i].flags & KSTATS_OUTLIER_NOADDR;
	if (!f->task || !withheld)
		return 0;
	if (path)
		ks_set_hint("%s was written without that privilege, so it keeps no task; "
			    "--cpu and --min work without", path);
	else
		ks_set_hint("run it as root, or with CAP_PERFMON; --cpu and --min work "
			    "without");
	return ks_fail(EXIT_RUNTIME, NULL, "--pid, --tid and --comm need each call's "
		       "task, which only a reader with CAP_PERFMON or CAP_SYS_ADMIN gets");
}

/* @func: the traced function (the trace's target), the folded stacks' leaf. */
/* plot flame: where to draw, instead of printing (ks_outliers_flame()). */
static FILE *flame_out;
static const struct ks_plot *flame_plot;

static int print(const char *name, const char *func, struct ks_outl *ol,
		 const struct ks_source *src, const struct ks_outl_filter *f)
{
	struct json *j;

	ks_outl_filter(ol, f);
	if (flame_out)
		return ks_plot_flame(flame_out, name, func, ol, flame_plot);
	if (folded) {
		fmt_outliers_folded(stdout, func, ol, folded_by_time);
		return 0;
	}
	if (!opts.json) {
		fmt_outliers_table(stdout, name, ol);
		return 0;
	}
	j = json_doc("outliers");
	fmt_json_source(j, src);	/* as show's */
	fmt_outliers_json(j, name, ol);
	json_obj_end(j);
	json_end(j);
	return 0;
}

/* What trace @name times, as LIST's owner gives it ("vfs_read", "a..b"); else @name. */
static const char *trace_target(int fd, const char *name, char *buf, size_t len)
{
	struct kstats_metric_info *e = NULL;
	uint32_t nr = 0, i;

	snprintf(buf, len, "%s", name);
	if ((!folded && !flame_out) || ks_dev_list(fd, &e, &nr))
		return buf;
	for (i = 0; i < nr; i++)
		if (!strncmp((const char *)e[i].name, name, sizeof(e[i].name)))
			snprintf(buf, len, "%.*s", (int)sizeof(e[i].owner),
				 (const char *)e[i].owner);
	free(e);
	return buf;
}

static int from_module(const char *name, const struct ks_outl_filter *f)
{
	struct kstats_outlier *e = NULL;
	struct ks_ksyms k = { 0 };
	struct ks_source src = { 0 };
	char target[KSTATS_NAME_LEN];
	struct kstats_outliers o;
	struct ks_outl *ol;
	int fd, err;

	fd = ks_dev_open();
	if (fd < 0)
		return EXIT_RUNTIME;
	err = ks_outliers_read(fd, name, &o, &e);
	if (!err && opts.json)
		ks_source_live(&src, fd);
	trace_target(fd, name, target, sizeof(target));
	close(fd);
	if (err)
		return outliers_error(err, name);
	ol = xcalloc(1, sizeof(*ol));
	ks_outl_from_module(ol, &o, e, o.nr_entries, &k, false);
	err = ks_outl_filter_refused(f, ol, o.out_flags, NULL);
	if (!err)
		err = print(name, target, ol, &src, f);
	ks_outl_free(ol);
	ks_ksyms_free(&k);
	free(e);
	return err;
}

/* The file's traces that keep outliers, named on one line ("a, b"). */
static void keepers(char *buf, size_t len, const struct ks_set *set, size_t *n)
{
	size_t i, at = 0;

	*n = 0;
	buf[0] = '\0';
	for (i = 0; i < set->nr; i++) {
		if (!set->m[i].has_outliers)
			continue;
		if (at < len)
			at += (size_t)snprintf(buf + at, len - at, "%s%s", *n ? ", " : "",
					       set->m[i].name);
		++*n;
	}
}

/*
 * Every trace of the file that keeps outliers, one after the other, as
 * 'show -i' prints every metric; one of counters alone says so.
 */
static int print_all(const struct ks_set *set, const struct ks_outl_filter *f,
		     const char *path)
{
	bool first = true;
	size_t i;

	for (i = 0; i < set->nr; i++)
		if (ks_outl_filter_refused(f, set->m[i].outl_entries, 0, path))
			return EXIT_RUNTIME;
	for (i = 0; i < set->nr; i++) {
		const struct ks_metric *m = &set->m[i];

		if (!m->has_outliers)
			continue;
		if (!first)
			fputc('\n', stdout);
		first = false;
		if (m->outl_entries)
			(void)print(m->name, m->owner, m->outl_entries, &set->src, f);
		else
			printf("%s: the file keeps its outlier counters alone "
			       "(show -i prints them)\n", m->name);
	}
	return 0;
}

static int from_file(const char *path, const char *name, const struct ks_outl_filter *f)
{
	struct ks_names one = { 0 };
	const struct ks_metric *m = NULL;
	struct ks_set set = { 0 };
	char names[512];
	size_t n, i;
	int rc;

	rc = ks_snapfile_read(path, &set);
	if (rc)
		return rc;
	keepers(names, sizeof(names), &set, &n);
	if (name) {
		ks_names_add(&one, (char *)name);
		rc = ks_set_check(&set, &one, path);
		free(one.v);
		if (rc)
			goto out;
		m = ks_set_find(&set, name);
	} else if (n == 1) {
		for (i = 0; !m; i++)
			m = set.m[i].has_outliers ? &set.m[i] : NULL;
	} else if (n && !opts.json && !folded && !flame_out) {
		rc = print_all(&set, f, path);
		goto out;
	} else {
		/* JSON, folded: one trace's outliers (the schema's; one flame graph). */
		if (n && flame_out)
			ks_set_hint("name one: kstatsctl plot flame -i %s NAME", path);
		else if (n)
			ks_set_hint("name one: kstatsctl %soutliers -i %s NAME%s",
				    folded ? "" : "-j ", path, folded ? " --folded" : "");
		rc = n ? ks_fail(EXIT_RUNTIME, NULL, "%s: %zu traces keep outliers (%s)",
				 path, n, names) :
			 ks_fail(EXIT_RUNTIME, "'kstatsctl trace FUNC --outliers 5ms' keeps "
				 "them, and 'kstatsctl snapshot' saves them",
				 "%s: no trace in it keeps outliers", path);
		goto out;
	}
	rc = EXIT_RUNTIME;
	if (!m->has_outliers) {
		if (n)
			ks_set_hint("the traces in it that keep outliers: %s", names);
		else
			ks_set_hint("no trace in it keeps outliers ('kstatsctl list -i %s' "
				    "lists its metrics)", path);
		ks_fail(rc, NULL, "%s: %s: not a trace that keeps outliers", path, m->name);
	} else if (!m->outl_entries) {
		ks_set_hint("'kstatsctl show -i %s %s' prints them; files of "
			    "format 3 keep no outliers, nor does a snapshot taken while the "
			    "trace's could not be read", path, m->name);
		ks_fail(rc, NULL, "%s: %s: the file keeps the trace's "
			"outlier counters alone, not the outliers", path, m->name);
	} else {
		rc = ks_outl_filter_refused(f, m->outl_entries, 0, path);
		if (!rc)
			rc = print(m->name, m->owner, m->outl_entries, &set.src, f);
	}
out:
	ks_set_free(&set);
	return rc;
}

int ks_outliers_flame(const char *path, const char *name, FILE *out, const struct ks_plot *p)
{
	struct ks_outl_filter none = { 0 };

	flame_out = out;
	flame_plot = p;
	return path ? from_file(path, name, &none) : from_module(name, &none);
}

int cmd_outliers(int argc, char **argv)
{
	struct outliers_args a = { 0 };
	int rc, done;

	rc = ks_parse(&outliers_argp, argc, argv, &a, &done);
	if (rc || done)
		goto out;
	rc = EXIT_USAGE;
	if (a.names.nr > 1 || (!a.input && a.names.nr != 1)) {
		ks_usage(a.input ? "outliers -i FILE takes at most one NAME" :
			 "outliers takes one NAME, or -i FILE");
		goto out;
	}
	if (a.names.nr && ks_name_valid(a.names.v[0]))
		goto out;
	if (folded && (opts.json || a.follow)) {
		ks_usage("--folded is its own format: not with %s",
			 a.follow ? "--follow" : "-j");
	} else if (weight_given && !folded) {
		ks_usage("--weight goes with --folded");
	} else if (a.input && a.follow) {
		ks_set_hint("a file holds what its trace kept when it was written: "
			    "kstatsctl outliers -i %s", a.input);
		ks_usage("--follow reads a live trace, not a file (-i)");
	} else if (a.input) {
		rc = from_file(a.input, a.names.nr ? a.names.v[0] : NULL, &a.filter);
	} else if (a.follow) {
		rc = ks_outliers_follow(a.names.v[0], &a.filter);
		if (rc < 0)
			rc = outliers_error(-rc, a.names.v[0]);
	} else {
		rc = from_module(a.names.v[0], &a.filter);
	}
out:
	free(a.filter.cpus);
	free(a.names.v);
	return rc;
}

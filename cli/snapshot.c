// SPDX-License-Identifier: GPL-2.0
/*
 * kstatsctl snapshot NAME... | --all  -o FILE
 *
 * Saves metrics, as they are now, to a snapshot file (format: snapfile.c
 * and kstatsctl(8)) that show -i and diff read on any machine; with a
 * trace's outliers, symbolized here (outliers -i prints them), and a stack
 * key's frames (show --folded -i).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "kstatsctl.h"
#include "device.h"
#include "json.h"
#include "model.h"
#include "names.h"
#include "outliers.h"
#include "snapfile.h"

struct snapshot_args {
	struct ks_names names;
	bool all;
	const char *output;
};

static const struct argp_child children[] = {
	{ &ks_global_argp, 0, NULL, 0 },
	{ 0 }
};

static const struct argp_option snapshot_options[] = {
	{ "output", 'o', "FILE", 0, "Write to FILE ('-': standard output)", 0 },
	{ "all", 'a', NULL, 0, "Every metric", 0 },
	{ 0 }
};

static error_t snapshot_parse(int key, char *arg, struct argp_state *state)
{
	struct snapshot_args *a = state->input;

	switch (key) {
	case 'o':
		a->output = arg;
		break;
	case 'a':
		a->all = true;
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

/*
 * The outliers of @m, a trace that keeps them, with the counters of the
 * same read: symbolized now, where /proc/kallsyms can name the frames.
 * A trace gone since is saved without them (its counters are).
 */
static void take_outliers(int fd, struct ks_metric *m, struct ks_ksyms *k)
{
	struct kstats_outlier *e = NULL;
	struct kstats_outliers o;
	int err = ks_outliers_read(fd, m->name, &o, &e);

	if (err) {
		ks_warn("%s: its outliers could not be read (%s): the file keeps their "
			"counters only", m->name, strerror(err));
		return;
	}
	m->outl = o;
	m->outl.entries = 0;	/* e's address, freed below */
	m->outl_entries = xcalloc(1, sizeof(*m->outl_entries));
	ks_outl_from_module(m->outl_entries, &o, e, o.nr_entries, k, true);
	free(e);
}

/*
 * One metric; a stack key's frames read with it, and named now as
 * 'show --folded' names them (the file keeps text, never an address).
 */
static int take(int fd, const char *name, struct ks_metric *m, bool missing_ok,
		struct ks_ksyms *k)
{
	const char *key = strchr(name, '{');
	struct ks_key_stack st;
	int rc;

	if (!key || strncmp(key, "{stack=", 7) || !strcmp(key, "{stack=other}"))
		return ks_snapshot_live(fd, name, m, missing_ok);
	memset(&st, 0, sizeof(st));
	rc = ks_snapshot_live_stack(fd, name, m, missing_ok, &st);
	if (!rc)
		m->stack = ks_stack_name(&st, k);
	return rc;
}

const struct argp snapshot_argp = {
	snapshot_options, snapshot_parse, "NAME... -o FILE\n--all -o FILE",
	"Saves metrics to a self-describing snapshot file, readable on any machine "
	"by 'show -i FILE' and 'diff'; a trace's outliers too ('outliers -i FILE').",
	children, NULL, NULL
};

int cmd_snapshot(int argc, char **argv)
{
	struct snapshot_args a = { 0 };
	struct kstats_metric_info *li = NULL;
	struct ks_set set = { 0 };
	struct ks_ksyms k = { 0 };
	uint32_t nr = 0, i;
	int rc, done, fd = -1;
	FILE *f = NULL;

	rc = ks_parse(&snapshot_argp, argc, argv, &a, &done);
	if (rc || done)
		goto out;
	rc = EXIT_USAGE;
	if (!a.output) {
		ks_usage("snapshot needs -o FILE");
		goto out;
	}
	if (!a.all == !a.names.nr) {
		ks_usage("snapshot takes metric names or --all");
		goto out;
	}
	if (ks_names_valid(&a.names))
		goto out;
	rc = EXIT_RUNTIME;
	fd = ks_dev_open();
	if (fd < 0)
		goto out;
	if (a.all) {
		rc = ks_dev_list(fd, &li, &nr);
		if (rc) {
			rc = ks_dev_error(-rc, "listing metrics");
			goto out;
		}
	} else {
		nr = (uint32_t)a.names.nr;
	}
	ks_source_live(&set.src, fd);
	set.m = xcalloc(nr, sizeof(*set.m));
	for (i = 0; i < nr; i++) {
		const char *name = li ? (const char *)li[i].name : a.names.v[i];

		rc = take(fd, name, &set.m[set.nr], li != NULL, &k);
		if (rc < 0)
			continue;
		if (rc)
			goto out;
		if (set.m[set.nr].has_outliers)
			take_outliers(fd, &set.m[set.nr], &k);
		set.nr++;
	}
	f = strcmp(a.output, "-") ? fopen(a.output, "wbe") : stdout;
	if (!f) {
		rc = ks_fail(EXIT_RUNTIME, NULL, "%s: %s", a.output, strerror(errno));
		goto out;
	}
	if (ks_snapfile_write(f, &set, false)) {
		rc = ks_fail(EXIT_RUNTIME, NULL, "writing %s: %s", a.output,
			     strerror(errno));
		goto out;
	}
	rc = 0;
	if (opts.json && f != stdout) {
		struct json *j = json_doc("snapshot");

		json_kstr(j, "file", a.output);
		json_key(j, "metrics");
		json_arr(j);
		for (i = 0; i < set.nr; i++)
			json_str(j, set.m[i].name);
		json_arr_end(j);
		json_obj_end(j);
		json_end(j);
	}
out:
	if (f && f != stdout && fclose(f) && !rc)
		rc = ks_fail(EXIT_RUNTIME, NULL, "writing %s: %s", a.output,
			     strerror(errno));
	if (fd >= 0)
		close(fd);
	ks_set_free(&set);
	ks_ksyms_free(&k);
	free(li);
	free(a.names.v);
	return rc;
}

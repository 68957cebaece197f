// SPDX-License-Identifier: GPL-2.0
/*
 * kstatsctl list [NAME...] [-i FILE] (also plain "kstatsctl"): every metric
 * (or those matching the shell-style NAMEs) with its kind, owner, state,
 * frac_bits and sample count, sorted by name; a table fitted to 80
 * columns (table.c).
 */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "kstatsctl.h"
#include "device.h"
#include "json.h"
#include "keys.h"
#include "model.h"
#include "names.h"
#include "snapfile.h"
#include "stats.h"
#include "text.h"
#include "units.h"

static const struct argp_child list_children[] = {
	{ &ks_global_argp, 0, NULL, 0 },
	{ 0 }
};

static const struct argp_option list_options[] = {
	{ "input", 'i', "FILE", 0, "The metrics a snapshot file holds, instead of "
	  "the live ones", 0 },
	{ "format", 'f', "FORMAT", 0, "table (default) or json (as -j)", 0 },
	{ 0 }
};

struct list_args {
	const char *input;
	struct ks_names pats;
};

static error_t list_parse(int key, char *arg, struct argp_state *state)
{
	struct list_args *a = state->input;

	if (key == 'i') {
		a->input = arg;
		return 0;
	}
	if (key == 'f')
		return ks_parse_table_json(arg);
	if (key == ARGP_KEY_ARG) {
		return ks_names_add(&a->pats, arg) ? EINVAL : 0;
	}
	return ARGP_ERR_UNKNOWN;
}

const struct argp list_argp = {
	list_options, list_parse, "[NAME...] [-i FILE]",
	"Lists every metric (or those matching a shell-style NAME, as 'net.*'): "
	"name, kind (module, user, trace, gap), owner, state, frac_bits and number "
	"of samples; with -i, those of a snapshot file.",
	list_children, NULL, NULL
};

/* One line of the list, from LIST or from a snapshot file. */
struct row {
	const char *name, *owner;
	uint32_t kind, flags, frac_bits, owner_uid;
	int64_t owner_pid;
	ks_u128 count;
};

static int by_name(const void *a, const void *b)
{
	return strcmp(((const struct row *)a)->name, ((const struct row *)b)->name);
}

static void print_rows(struct row *r, size_t nr)
{
	static const char *const head[] = { "NAME", "KIND", "OWNER", "STATE", "BITS",
					    "COUNT" };
	struct ks_table t;
	char n[48];
	size_t i;

	qsort(r, nr, sizeof(*r), by_name);
	if (opts.json) {
		struct json *j = json_doc("list");

		json_key(j, "metrics");
		json_arr(j);
		for (i = 0; i < nr; i++) {
			json_obj(j);
			json_kstr(j, "name", r[i].name);
			json_kstr(j, "kind", ks_kind_name(r[i].kind));
			json_kstr(j, "owner", r[i].owner);
			json_kstr(j, "state", ks_state_name(r[i].flags));
			json_kbool(j, "autoremove", r[i].flags & KSTATS_METRIC_AUTOREMOVE);
			json_ku64(j, "frac_bits", r[i].frac_bits);
			json_ku128(j, "count", r[i].count);
			json_ku64(j, "owner_uid", r[i].owner_uid);
			json_ki64(j, "owner_pid", r[i].owner_pid);
			json_obj_end(j);
		}
		json_arr_end(j);
		json_obj_end(j);
		json_end(j);
		return;
	}
	if (!nr) {
		printf("no metrics\n");
		return;
	}
	ks_table_init(&t, "llllrr");
	for (i = 0; i < ARRAY_SIZE(head); i++)
		ks_table_add(&t, head[i]);
	for (i = 0; i < nr; i++) {
		/* An owner may be a process's name, which that process chose. */
		char name[KS_TEXT_LEN(KSTATS_NAME_LEN)], owner[sizeof(name)] = "-";

		if (r[i].owner[0])
			ks_text(owner, sizeof(owner), r[i].owner);
		ks_table_add(&t, ks_metric_label(name, sizeof(name), r[i].name));
		ks_table_add(&t, ks_kind_name(r[i].kind));
		ks_table_add(&t, owner);
		ks_table_add(&t, ks_state_name(r[i].flags));
		snprintf(n, sizeof(n), "%u", r[i].frac_bits);
		ks_table_add(&t, n);
		ks_table_add(&t, ks_fmt_u128(n, sizeof(n), r[i].count));
	}
	ks_table_print(stdout, &t, ks_out_width(stdout));
	ks_table_free(&t);
}

static int list_file(const char *path, const struct ks_names *pats)
{
	struct ks_set set = { 0 };
	struct row *r;
	struct ks_hist h;
	size_t i;
	int rc = ks_snapfile_read(path, &set);

	if (!rc)
		rc = ks_set_check(&set, pats, path);
	if (rc) {
		ks_set_free(&set);
		return rc;
	}
	ks_set_keep(&set, pats);
	r = xcalloc(set.nr, sizeof(*r));
	for (i = 0; i < set.nr; i++) {
		const struct ks_metric *m = &set.m[i];

		ks_hist_build(&h, m, -1);
		r[i] = (struct row){ m->name, m->owner, m->kind, m->flags, m->frac_bits,
				     m->owner_uid, m->owner_pid, h.total };
		ks_hist_free(&h);
	}
	print_rows(r, set.nr);
	free(r);
	ks_set_free(&set);
	return 0;
}

int cmd_list(int argc, char **argv)
{
	struct kstats_metric_info *e = NULL;
	struct list_args a = { 0 };
	const char **names;
	uint32_t nr = 0, i, k;
	struct row *r;
	int rc, done, fd;

	rc = ks_parse(&list_argp, argc, argv, &a, &done);
	if (rc || done)
		goto out;
	if (a.input) {
		rc = list_file(a.input, &a.pats);
		goto out;
	}
	rc = EXIT_RUNTIME;
	fd = ks_dev_open();
	if (fd < 0)
		goto out;
	rc = ks_dev_list(fd, &e, &nr);
	close(fd);
	if (rc) {
		rc = ks_dev_error(-rc, "listing metrics");
		goto out;
	}
	names = xcalloc(nr, sizeof(*names));
	for (i = 0; i < nr; i++) {
		e[i].name[KSTATS_NAME_LEN - 1] = '\0';
		e[i].owner[KSTATS_NAME_LEN - 1] = '\0';
		names[i] = (const char *)e[i].name;
	}
	rc = ks_names_check(&a.pats, names, nr, NULL);
	free(names);
	if (rc)
		goto out;
	r = xcalloc(nr, sizeof(*r));
	for (i = k = 0; i < nr; i++) {
		if (a.pats.nr && !ks_names_fnmatch(&a.pats, (const char *)e[i].name))
			continue;
		r[k++] = (struct row){ (const char *)e[i].name, (const char *)e[i].owner,
				     e[i].kind, e[i].flags, e[i].frac_bits, e[i].owner_uid,
				     e[i].owner_pid, e[i].count };
	}
	print_rows(r, k);
	free(r);
out:
	free(e);
	free(a.pats.v);
	return rc;
}

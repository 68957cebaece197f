// SPDX-License-Identifier: GPL-2.0
/*
 * kstatsctl list (also plain "kstatsctl"): every metric with its kind,
 * owner, state, frac_bits and sample count, sorted by name.
 */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "kstatsctl.h"

static const struct argp_child list_children[] = {
	{ &ks_global_argp, 0, NULL, 0 },
	{ 0 }
};

static const struct argp_option list_options[] = {
	{ "input", 'i', "FILE", 0, "The metrics a snapshot file holds, instead of "
	  "the live ones", 0 },
	{ 0 }
};

static error_t list_parse(int key, char *arg, struct argp_state *state)
{
	const char **input = state->input;

	if (key == 'i') {
		*input = arg;
		return 0;
	}
	if (key == ARGP_KEY_ARG) {
		ks_usage("list takes no arguments ('%s')", arg);
		return EINVAL;
	}
	return ARGP_ERR_UNKNOWN;
}

const struct argp list_argp = {
	list_options, list_parse, "[-i FILE]",
	"Lists every metric: name, kind (module, user, trace, gap), owner, state, "
	"frac_bits and number of samples; with -i, those of a snapshot file.",
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
	printf("%s%-32s %-7s %-20s %-8s %4s %12s%s\n", ks_color(opts.color_out, C_BOLD),
	       "NAME", "KIND", "OWNER", "STATE", "BITS", "COUNT",
	       ks_color(opts.color_out, C_RESET));
	for (i = 0; i < nr; i++) {
		/* An owner may be a process's name, which that process chose. */
		char name[KS_TEXT_LEN(KSTATS_NAME_LEN)], owner[sizeof(name)] = "-";

		if (r[i].owner[0])
			ks_text(owner, sizeof(owner), r[i].owner);
		printf("%-32s %-7s %-20s %-8s %4u %12s\n",
		       ks_text(name, sizeof(name), r[i].name), ks_kind_name(r[i].kind),
		       owner, ks_state_name(r[i].flags), r[i].frac_bits,
		       ks_fmt_u128(n, sizeof(n), r[i].count));
	}
}

static int list_file(const char *path)
{
	struct ks_set set = { 0 };
	struct row *r;
	struct ks_hist h;
	size_t i;
	int rc = ks_snapfile_read(path, &set);

	if (rc)
		return rc;
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
	const char *input = NULL;
	uint32_t nr = 0, i;
	struct row *r;
	int rc, done, fd;

	rc = ks_parse(&list_argp, argc, argv, &input, &done);
	if (rc || done)
		return rc;
	if (input)
		return list_file(input);
	fd = ks_dev_open();
	if (fd < 0)
		return EXIT_RUNTIME;
	rc = ks_dev_list(fd, &e, &nr);
	close(fd);
	if (rc)
		return ks_dev_error(-rc, "listing metrics");
	r = xcalloc(nr, sizeof(*r));
	for (i = 0; i < nr; i++) {
		e[i].name[KSTATS_NAME_LEN - 1] = '\0';
		e[i].owner[KSTATS_NAME_LEN - 1] = '\0';
		r[i] = (struct row){ (const char *)e[i].name, (const char *)e[i].owner,
				     e[i].kind, e[i].flags, e[i].frac_bits, e[i].owner_uid,
				     e[i].owner_pid, e[i].count };
	}
	print_rows(r, nr);
	free(r);
	free(e);
	return 0;
}

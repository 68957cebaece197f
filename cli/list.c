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
	{ &ks_global_argp, 0, "Global options:", 1 },
	{ 0 }
};

static error_t list_parse(int key, char *arg, struct argp_state *state)
{
	(void)state;
	if (key == ARGP_KEY_ARG) {
		ks_usage("list takes no arguments ('%s')", arg);
		return EINVAL;
	}
	return ARGP_ERR_UNKNOWN;
}

const struct argp list_argp = {
	NULL, list_parse, NULL,
	"Lists every metric: name, kind (module, user, trace, gap), owner, state, "
	"frac_bits and number of samples.",
	list_children, NULL, NULL
};

static int by_name(const void *a, const void *b)
{
	return strncmp((const char *)((const struct kstats_metric_info *)a)->name,
		       (const char *)((const struct kstats_metric_info *)b)->name,
		       KSTATS_NAME_LEN);
}

int cmd_list(int argc, char **argv)
{
	struct kstats_metric_info *e = NULL;
	uint32_t nr = 0, i;
	int rc, done, fd;

	rc = ks_parse(&list_argp, argc, argv, NULL, &done);
	if (rc || done)
		return rc;
	fd = ks_dev_open();
	if (fd < 0)
		return EXIT_RUNTIME;
	rc = ks_dev_list(fd, &e, &nr);
	close(fd);
	if (rc)
		return ks_dev_error(-rc, "listing metrics");
	for (i = 0; i < nr; i++) {
		e[i].name[KSTATS_NAME_LEN - 1] = '\0';
		e[i].owner[KSTATS_NAME_LEN - 1] = '\0';
	}
	qsort(e, nr, sizeof(*e), by_name);
	if (opts.json) {
		struct json *j = json_doc("list");

		json_key(j, "metrics");
		json_arr(j);
		for (i = 0; i < nr; i++) {
			json_obj(j);
			json_kstr(j, "name", (const char *)e[i].name);
			json_kstr(j, "kind", ks_kind_name(e[i].kind));
			json_kstr(j, "owner", (const char *)e[i].owner);
			json_kstr(j, "state", ks_state_name(e[i].flags));
			json_kbool(j, "autoremove", e[i].flags & KSTATS_METRIC_AUTOREMOVE);
			json_ku64(j, "frac_bits", e[i].frac_bits);
			json_ku64(j, "count", e[i].count);
			json_ku64(j, "owner_uid", e[i].owner_uid);
			json_ki64(j, "owner_pid", e[i].owner_pid);
			json_obj_end(j);
		}
		json_arr_end(j);
		json_obj_end(j);
		json_end(j);
		free(e);
		return 0;
	}
	if (!nr) {
		printf("no metrics\n");
		free(e);
		return 0;
	}
	printf("%s%-32s %-7s %-20s %-8s %4s %12s%s\n", ks_color(opts.color_out, C_BOLD),
	       "NAME", "KIND", "OWNER", "STATE", "BITS", "COUNT",
	       ks_color(opts.color_out, C_RESET));
	for (i = 0; i < nr; i++) {
		/* An owner may be a process's name, which that process chose. */
		char name[KS_TEXT_LEN(KSTATS_NAME_LEN)], owner[sizeof(name)] = "-";

		if (e[i].owner[0])
			ks_text(owner, sizeof(owner), (const char *)e[i].owner);
		printf("%-32s %-7s %-20s %-8s %4u %12llu\n",
		       ks_text(name, sizeof(name), (const char *)e[i].name),
		       ks_kind_name(e[i].kind), owner,
		       ks_state_name(e[i].flags),
		       e[i].frac_bits, (unsigned long long)e[i].count);
	}
	free(e);
	return 0;
}

// SPDX-License-Identifier: GPL-2.0
/*
 * NAME... operands: argp collects them; delete, untrace and start/stop/reset
 * then share one shape (delete and untrace all of it: ks_names_cmd),
 * checking every name before touching the device and stopping at the first
 * failure.
 */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "kstatsctl.h"
#include "device.h"
#include "json.h"
#include "keys.h"
#include "names.h"

/* A key's metric typed with an error's name is kept as the module names it. */
int ks_names_add(struct ks_names *n, char *arg)
{
	char name[KSTATS_NAME_LEN + 32];

	if (ks_key_name_canonical(arg, name, sizeof(name)))
		return EXIT_USAGE;
	if (strcmp(name, arg))
		arg = xstrdup(name);	/* lives as long as the command */
	n->v = xrealloc(n->v, n->nr + 1, sizeof(*n->v));
	n->v[n->nr++] = arg;
	return 0;
}

int ks_names_valid(const struct ks_names *n)
{
	size_t i;

	for (i = 0; i < n->nr; i++)
		if (ks_name_valid(n->v[i]))
			return EXIT_USAGE;
	return 0;
}

error_t ks_names_parse(int key, char *arg, struct argp_state *state)
{
	if (key != ARGP_KEY_ARG)
		return ARGP_ERR_UNKNOWN;
	return ks_names_add(state->input, arg) ? EINVAL : 0;
}

int ks_names_cmd(const struct argp *argp, const char *cmd, int argc, char **argv,
		 int (*op)(int fd, const char *name, void *ctx))
{
	struct ks_names n = { 0 };
	int rc, done;

	rc = ks_parse(argp, argc, argv, &n, &done);
	for (size_t i = 0; !rc && !done && i < n.nr; i++) {
		/* 'tcp_*': these commands change metrics, one named each. */
		if (strpbrk(n.v[i], "*?[")) {
			ks_set_hint("'kstatsctl list \"%s\"' shows the names that match",
				    n.v[i]);
			rc = ks_usage("'%s': %s takes metric names, not patterns", n.v[i],
				      cmd);
		}
	}
	if (!rc && !done)
		rc = n.nr ? ks_each_name(cmd, &n, NULL, op, NULL) :
			    ks_usage("%s needs a NAME", cmd);
	free(n.v);
	return rc;
}

int ks_each_name(const char *cmd, const struct ks_names *n, const bool *all,
		 int (*op)(int fd, const char *name, void *ctx), void *ctx)
{
	bool every = all && *all;
	int rc, fd;
	size_t i;

	rc = ks_names_valid(n);
	if (rc)
		return rc;
	fd = ks_dev_open();
	if (fd < 0)
		return EXIT_RUNTIME;
	for (i = 0; i < (every ? 1 : n->nr); i++) {
		if (op(fd, every ? NULL : n->v[i], ctx)) {
			close(fd);
			return EXIT_RUNTIME;
		}
	}
	close(fd);
	if (opts.json) {
		struct json *j = json_doc(cmd);

		if (all)
			json_kbool(j, "all", *all);
		json_key(j, "names");
		json_arr(j);
		for (i = 0; i < n->nr; i++)
			json_str(j, n->v[i]);
		json_arr_end(j);
		json_obj_end(j);
		json_end(j);
	}
	return 0;
}

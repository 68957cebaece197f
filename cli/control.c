// SPDX-License-Identifier: GPL-2.0
/*
 * kstatsctl start|stop|reset NAME... | --all
 *
 * A stopped metric keeps its samples and drops new ones; reset empties
 * every slot of every CPU (KSTATS_IOC_CONTROL).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "kstatsctl.h"

struct control_args {
	char **names;
	size_t nr;
	bool all;
};

static const struct argp_child children[] = {
	{ &ks_global_argp, 0, "Global options:", 1 },
	{ 0 }
};

static const struct argp_option control_options[] = {
	{ "all", 'a', NULL, 0, "Every metric", 0 },
	{ 0 }
};

static error_t control_parse(int key, char *arg, struct argp_state *state)
{
	struct control_args *a = state->input;

	switch (key) {
	case 'a':
		a->all = true;
		break;
	case ARGP_KEY_ARG:
		a->names = xrealloc(a->names, a->nr + 1, sizeof(*a->names));
		a->names[a->nr++] = arg;
		break;
	default:
		return ARGP_ERR_UNKNOWN;
	}
	return 0;
}

const struct argp control_argp = {
	control_options, control_parse, "NAME...\n--all",
	"start resumes recording, stop pauses it (samples are kept, new ones "
	"dropped), reset empties the histograms.",
	children, NULL, NULL
};

static int control(int argc, char **argv, uint32_t op, const char *cmd)
{
	struct control_args a = { 0 };
	struct kstats_control c;
	int rc, done, fd = -1;
	size_t i;

	rc = ks_parse(&control_argp, argc, argv, &a, &done);
	if (rc || done)
		goto out;
	rc = EXIT_USAGE;
	if (!a.all == !a.nr) {
		ks_usage("%s takes metric names or --all", cmd);
		goto out;
	}
	for (i = 0; i < a.nr; i++)
		if (ks_name_valid(a.names[i]))
			goto out;
	rc = EXIT_RUNTIME;
	fd = ks_dev_open();
	if (fd < 0)
		goto out;
	for (i = 0; i < (a.all ? 1 : a.nr); i++) {
		memset(&c, 0, sizeof(c));
		c.op = op;
		if (a.all)
			c.flags = KSTATS_CONTROL_ALL;
		else
			snprintf((char *)c.name, sizeof(c.name), "%s", a.names[i]);
		if (ioctl(fd, KSTATS_IOC_CONTROL, &c)) {
			ks_dev_error(errno, a.all ? "all metrics" : a.names[i]);
			goto out;
		}
	}
	if (opts.json) {
		struct json *j = json_doc(cmd);

		json_kbool(j, "all", a.all);
		json_key(j, "names");
		json_arr(j);
		for (i = 0; i < a.nr; i++)
			json_str(j, a.names[i]);
		json_arr_end(j);
		json_obj_end(j);
		json_end(j);
	}
	rc = 0;
out:
	if (fd >= 0)
		close(fd);
	free(a.names);
	return rc;
}

int cmd_start(int argc, char **argv)
{
	return control(argc, argv, KSTATS_OP_START, "start");
}

int cmd_stop(int argc, char **argv)
{
	return control(argc, argv, KSTATS_OP_STOP, "stop");
}

int cmd_reset(int argc, char **argv)
{
	return control(argc, argv, KSTATS_OP_RESET, "reset");
}

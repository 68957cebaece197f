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
#include "device.h"
#include "names.h"

struct control_args {
	struct ks_names names;
	bool all;
};

static const struct argp_child children[] = {
	{ &ks_global_argp, 0, NULL, 0 },
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
		if (ks_names_add(&a->names, arg))
			return EINVAL;
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

static int control_one(int fd, const char *name, void *op)
{
	struct kstats_control c = { .op = *(uint32_t *)op };

	if (name)
		snprintf((char *)c.name, sizeof(c.name), "%s", name);
	else
		c.flags = KSTATS_CONTROL_ALL;
	if (!ioctl(fd, KSTATS_IOC_CONTROL, &c))
		return 0;
	return ks_dev_error(errno, name ? name : "all metrics");
}

static int control(int argc, char **argv, uint32_t op, const char *cmd)
{
	struct control_args a = { 0 };
	int rc, done;

	rc = ks_parse(&control_argp, argc, argv, &a, &done);
	if (rc || done)
		goto out;
	if (!a.all == !a.names.nr)
		rc = ks_usage("%s takes metric names or --all", cmd);
	else
		rc = ks_each_name(cmd, &a.names, &a.all, control_one, &op);
out:
	free(a.names.v);
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

// SPDX-License-Identifier: GPL-2.0
/*
 * kstatsctl create NAME [--bits B] [--autoremove]
 * kstatsctl delete NAME...
 *
 * create makes a metric to record into from user space (record, or
 * KSTATS_IOC_RECORD). With --autoremove the metric lives only as long as
 * the command: it waits for Ctrl-C (or SIGTERM) and the metric goes with
 * it. delete removes metrics made that way (not a module's, not a trace's).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "kstatsctl.h"
#include "device.h"
#include "json.h"
#include "names.h"

struct create_args {
	const char *name;
	uint32_t bits;
	bool autoremove;
};

enum { OPT_AUTOREMOVE = 0x300 };

static const struct argp_child children[] = {
	{ &ks_global_argp, 0, NULL, 0 },
	{ 0 }
};

static const struct argp_option create_options[] = {
	{ "bits", 'b', "B", 0, "frac_bits, 0 to 5: 2^B slots per power of two "
	  "(default 3: at most 12.5% wide)", 0 },
	{ "autoremove", OPT_AUTOREMOVE, NULL, 0, "Delete the metric when this "
	  "command ends (it waits for Ctrl-C)", 0 },
	{ 0 }
};

static error_t create_parse(int key, char *arg, struct argp_state *state)
{
	struct create_args *a = state->input;

	switch (key) {
	case 'b':
		if (ks_parse_u32(arg, KSTATS_FRAC_BITS_MAX, &a->bits)) {
			ks_usage("--bits: '%s' is not 0 to %d", arg, KSTATS_FRAC_BITS_MAX);
			return EINVAL;
		}
		break;
	case OPT_AUTOREMOVE:
		a->autoremove = true;
		break;
	case ARGP_KEY_ARG:
		if (a->name) {
			ks_usage("create takes one NAME");
			return EINVAL;
		}
		a->name = arg;
		break;
	default:
		return ARGP_ERR_UNKNOWN;
	}
	return 0;
}

const struct argp create_argp = {
	create_options, create_parse, "NAME",
	"Creates a metric to record into from user space ('kstatsctl record', or "
	"KSTATS_IOC_RECORD).",
	children, NULL, NULL
};

static void done_json(const char *cmd, const char *name)
{
	struct json *j = json_doc(cmd);

	json_kstr(j, "name", name);
	json_obj_end(j);
	json_end(j);
}

int cmd_create(int argc, char **argv)
{
	struct create_args a = { .bits = 3 };
	struct kstats_create c;
	int rc, done, fd;

	rc = ks_parse(&create_argp, argc, argv, &a, &done);
	if (rc || done)
		return rc;
	if (!a.name)
		return ks_usage("create needs a NAME");
	if (ks_name_valid(a.name))
		return EXIT_USAGE;
	fd = ks_dev_open();
	if (fd < 0)
		return EXIT_RUNTIME;
	memset(&c, 0, sizeof(c));
	snprintf((char *)c.name, sizeof(c.name), "%s", a.name);
	c.frac_bits = a.bits;
	c.flags = a.autoremove ? KSTATS_CREATE_AUTOREMOVE : 0;
	if (ioctl(fd, KSTATS_IOC_CREATE, &c)) {
		rc = ks_dev_error(errno, a.name);
		close(fd);
		return rc;
	}
	if (opts.json)
		done_json("create", a.name);
	if (a.autoremove) {
		if (!opts.json)
			fprintf(stderr, "kstatsctl: %s exists until this command ends "
				"(Ctrl-C)\n", a.name);
		ks_hold_until_signal();
	}
	close(fd);
	return 0;
}

const struct argp delete_argp = {
	NULL, ks_names_parse, "NAME...",
	"Deletes metrics created from user space. A module's metrics go with the "
	"module; a trace's with 'kstatsctl untrace'.",
	children, NULL, NULL
};

static int delete_one(int fd, const char *name, void *ctx)
{
	struct kstats_delete d = { 0 };

	(void)ctx;
	snprintf((char *)d.name, sizeof(d.name), "%s", name);
	return ioctl(fd, KSTATS_IOC_DELETE, &d) ? ks_dev_error(errno, name) : 0;
}

int cmd_delete(int argc, char **argv)
{
	return ks_names_cmd(&delete_argp, "delete", argc, argv, delete_one);
}

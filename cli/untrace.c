// SPDX-License-Identifier: GPL-2.0
/*
 * kstatsctl untrace NAME...
 *
 * Removes traces (KSTATS_IOC_UNTRACE): each probe detached, its handlers
 * in flight waited for, and its metrics deleted.
 */
#include <errno.h>
#include <string.h>
#include <sys/ioctl.h>

#include "kstatsctl.h"
#include "device.h"
#include "names.h"
#include "trace.h"

static const struct argp_child children[] = {
	{ &ks_global_argp, 0, NULL, 0 },
	{ 0 }
};

const struct argp untrace_argp = {
	NULL, ks_names_parse, "NAME...",
	"Removes traces and their metrics.", children, NULL, NULL
};

static int untrace_one(int fd, const char *name, void *ctx)
{
	struct kstats_untrace u = { 0 };

	(void)ctx;
	snprintf((char *)u.name, sizeof(u.name), "%s", name);
	if (!ioctl(fd, KSTATS_IOC_UNTRACE, &u))
		return 0;
	if (errno == EOPNOTSUPP)
		return ks_trace_unsupported();
	if (errno == ENOENT)
		return ks_fail(EXIT_RUNTIME, "'kstatsctl list' shows the traces (kind trace, "
			       "or value)", "%s: no such trace", name);
	if (errno == ENOMEM || errno == EBUSY)
		return ks_fail(EXIT_RUNTIME, "run 'kstatsctl untrace' again; the kernel "
			       "log says why", "%s: the kernel did not detach the trace "
			       "(%s); it stays, attached and recording", name,
			       strerror(errno));
	return ks_dev_error(errno, name);
}

int cmd_untrace(int argc, char **argv)
{
	return ks_names_cmd(&untrace_argp, "untrace", argc, argv, untrace_one);
}

// SPDX-License-Identifier: GPL-2.0
/*
 * kstatsctl record NAME [VALUE...]
 *
 * Adds samples to a metric (KSTATS_IOC_RECORD): the values given, or, with
 * none, whitespace-separated values read from standard input. A value is
 * a number of nanoseconds, or a number with a unit: 1500, 1.5us, 2ms, 1s.
 * Values go in batches of the module's record_max (4096).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "kstatsctl.h"
#include "device.h"
#include "json.h"
#include "units.h"

struct record_args {
	char **args;
	size_t nr;
};

static const struct argp_child children[] = {
	{ &ks_global_argp, 0, NULL, 0 },
	{ 0 }
};

static error_t record_parse(int key, char *arg, struct argp_state *state)
{
	struct record_args *a = state->input;

	if (key != ARGP_KEY_ARG)
		return ARGP_ERR_UNKNOWN;
	a->args = xrealloc(a->args, a->nr + 1, sizeof(*a->args));
	a->args[a->nr++] = arg;
	return 0;
}

const struct argp record_argp = {
	NULL, record_parse, "NAME [VALUE...]",
	"Adds samples to a metric: the VALUEs, or whitespace-separated values "
	"from standard input. A value is in ns, or has a unit: 1500, 1.5us, 2ms, 1s.",
	children, NULL, NULL
};

struct batch {
	int fd;
	const char *name;
	uint64_t *v;
	uint32_t n, max;
	uint64_t total;
};

static int flush(struct batch *b)
{
	struct kstats_record r;

	if (!b->n)
		return 0;
	memset(&r, 0, sizeof(r));
	snprintf((char *)r.name, sizeof(r.name), "%s", b->name);
	r.values = (uint64_t)(uintptr_t)b->v;
	r.count = b->n;
	if (ioctl(b->fd, KSTATS_IOC_RECORD, &r))
		return ks_dev_error(errno, b->name);
	b->total += b->n;
	b->n = 0;
	return 0;
}

static int parse(const char *s, uint64_t *v)
{
	if (ks_parse_value(s, v))
		return ks_usage("'%s' is not a value (ns, or with a unit: 1.5us, 2ms)", s);
	return 0;
}

static int add(struct batch *b, uint64_t v)
{
	b->v[b->n++] = v;
	return b->n == b->max ? flush(b) : 0;
}

int cmd_record(int argc, char **argv)
{
	struct record_args a = { 0 };
	struct kstats_info info;
	struct batch b = { .fd = -1 };
	uint64_t *vals = NULL, v;
	char word[128];
	int rc, done;
	size_t i;

	rc = ks_parse(&record_argp, argc, argv, &a, &done);
	if (rc || done)
		goto out;
	rc = EXIT_USAGE;
	if (!a.nr) {
		ks_usage("record needs a NAME");
		goto out;
	}
	if (ks_name_valid(a.args[0]))
		goto out;
	b.name = a.args[0];
	/* Every value given is checked before anything is recorded. */
	vals = xcalloc(a.nr, sizeof(*vals));
	for (i = 1; i < a.nr; i++)
		if (parse(a.args[i], &vals[i]))
			goto out;
	rc = EXIT_RUNTIME;
	b.fd = ks_dev_open();
	if (b.fd < 0)
		goto out;
	b.max = !ks_dev_info(b.fd, &info) && info.record_max ? info.record_max :
		KSTATS_RECORD_MAX;
	b.v = xcalloc(b.max, sizeof(*b.v));
	rc = 0;
	for (i = 1; !rc && i < a.nr; i++)
		rc = add(&b, vals[i]);
	if (a.nr == 1) {
		while (!rc && scanf("%127s", word) == 1)
			rc = parse(word, &v) ?: add(&b, v);
	}
	if (!rc)
		rc = flush(&b);
	if (!rc && opts.json) {
		struct json *j = json_doc("record");

		json_kstr(j, "name", b.name);
		json_ku64(j, "recorded", b.total);
		json_obj_end(j);
		json_end(j);
	}
out:
	if (b.fd >= 0)
		close(b.fd);
	free(b.v);
	free(vals);
	free(a.args);
	return rc;
}

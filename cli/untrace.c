// SPDX-License-Identifier: GPL-2.0
/*
 * kstatsctl untrace NAME|'PATTERN'... | --all
 *
 * Removes traces (KSTATS_IOC_UNTRACE): each probe detached, its handlers
 * in flight waited for, and its metrics deleted. A pattern (fnmatch, as
 * list takes them) and --all stand for the traces LIST shows now: the
 * metric a trace is named by, not its GAP-, SELF-, split, value or key
 * metrics, which go with it.
 */
#include <errno.h>
#include <fnmatch.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "kstatsctl.h"
#include "device.h"
#include "names.h"
#include "trace.h"

struct untrace_args {
	struct ks_names names;
	bool all;
};

static const struct argp_child children[] = {
	{ &ks_global_argp, 0, NULL, 0 },
	{ 0 }
};

static const struct argp_option untrace_options[] = {
	{ "all", 'a', NULL, 0, "Every trace", 0 },
	{ 0 }
};

static error_t untrace_parse(int key, char *arg, struct argp_state *state)
{
	struct untrace_args *a = state->input;

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

const struct argp untrace_argp = {
	untrace_options, untrace_parse, "NAME...\n'PATTERN'...\n--all",
	"Removes traces and their metrics: those named, those whose names match "
	"a shell pattern ('vfs_*', quoted), or --all of them.", children, NULL, NULL
};

static bool is_pattern(const char *s)
{
	return strpbrk(s, "*?[") != NULL;
}

/* @name in @n? */
static bool has(const struct ks_names *n, const char *name)
{
	size_t i;

	for (i = 0; i < n->nr; i++)
		if (!strcmp(n->v[i], name))
			return true;
	return false;
}

/*
 * The names of the traces in @li[0..nr): their own metric, of kind trace,
 * or value for a trace that records values (whose VALUE-NAME and NEG-NAME
 * are its metrics too, not traces).
 */
static void trace_names(const struct kstats_metric_info *li, uint32_t nr,
			struct ks_names *out)
{
	struct ks_names own = { 0 };
	const char *name, *dash;
	uint32_t i;

	for (i = 0; i < nr; i++) {
		name = (const char *)li[i].name;
		if ((li[i].kind == KSTATS_KIND_TRACE || li[i].kind == KSTATS_KIND_VALUE) &&
		    !strchr(name, '{')) {
			own.v = xrealloc(own.v, own.nr + 1, sizeof(*own.v));
			own.v[own.nr++] = (char *)name;
		}
	}
	for (i = 0; i < own.nr; i++) {
		name = own.v[i];
		dash = strchr(name, '-');
		if (dash && (!strncmp(name, "VALUE-", 6) || !strncmp(name, "NEG-", 4)) &&
		    has(&own, dash + 1))
			continue;
		out->v = xrealloc(out->v, out->nr + 1, sizeof(*out->v));
		out->v[out->nr++] = xstrdup(name);
	}
	free(own.v);
}

/* "traces now: a, b, c" (at most 8), for the hint of a pattern matching none. */
static void hint_traces(const struct ks_names *traces)
{
	char buf[512];
	size_t i, n = 0;

	if (!traces->nr) {
		ks_set_hint("no trace exists now ('kstatsctl list' shows the metrics)");
		return;
	}
	for (i = 0; i < traces->nr && i < 8 && n < sizeof(buf); i++)
		n += snprintf(buf + n, sizeof(buf) - n, "%s%s", i ? ", " : "", traces->v[i]);
	if (traces->nr > 8 && n < sizeof(buf))
		snprintf(buf + n, sizeof(buf) - n, " and %zu more ('kstatsctl list')",
			 traces->nr - 8);
	ks_set_hint("the traces now: %s", buf);
}

/*
 * @a's names with its patterns, or --all, replaced by the traces they
 * stand for, into @out; @listed: those that came from LIST, not typed. 0 or
 * an exit code, with nothing untraced.
 */
static int expand(const struct untrace_args *a, struct ks_names *out, struct ks_names *listed)
{
	struct kstats_metric_info *li = NULL;
	struct ks_names traces = { 0 };
	uint32_t nli = 0;
	size_t i, j, matched;
	int fd, rc = 0;

	fd = ks_dev_open();
	if (fd < 0)
		return EXIT_RUNTIME;
	rc = ks_dev_list(fd, &li, &nli) ? EXIT_RUNTIME : 0;
	close(fd);
	if (rc)
		return rc;
	trace_names(li, nli, &traces);
	free(li);
	for (i = 0; a->all && i < traces.nr; i++)
		ks_names_add(listed, traces.v[i]);
	for (i = 0; !a->all && i < a->names.nr && !rc; i++) {
		const char *arg = a->names.v[i];

		if (!is_pattern(arg)) {
			if (!has(out, arg))
				ks_names_add(out, (char *)arg);
			continue;
		}
		for (j = matched = 0; j < traces.nr; j++) {
			if (fnmatch(arg, traces.v[j], 0))
				continue;
			matched++;
			if (!has(listed, traces.v[j]))
				ks_names_add(listed, traces.v[j]);
		}
		if (!matched) {
			hint_traces(&traces);
			rc = ks_fail(EXIT_RUNTIME, NULL, "'%s' matches no trace", arg);
		}
	}
	/* Typed names first, as given; then what patterns matched, in LIST's order. */
	for (i = 0; i < listed->nr; i++)
		if (!has(out, listed->v[i]))
			ks_names_add(out, listed->v[i]);
	/* The names point into traces' strings: they live as long as the command. */
	free(traces.v);
	return rc;
}

static int untrace_one(int fd, const char *name, void *listed)
{
	struct kstats_untrace u = { 0 };

	snprintf((char *)u.name, sizeof(u.name), "%s", name);
	if (!ioctl(fd, KSTATS_IOC_UNTRACE, &u))
		return 0;
	if (errno == EOPNOTSUPP)
		return ks_trace_unsupported();
	/* Listed a moment ago, gone since (a one-shot trace that ended): as asked. */
	if (errno == ENOENT && listed && has(listed, name))
		return 0;
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
	struct untrace_args a = { 0 };
	struct ks_names names = { 0 }, listed = { 0 };
	bool patterns = false;
	int rc, done;
	size_t i;

	rc = ks_parse(&untrace_argp, argc, argv, &a, &done);
	if (rc || done)
		goto out;
	if (!a.all == !a.names.nr) {
		ks_set_hint("'kstatsctl list' shows the traces; 'vfs_*' (quoted) "
			    "stands for those it matches");
		rc = ks_usage("untrace takes trace names, patterns or --all");
		goto out;
	}
	for (i = 0; i < a.names.nr; i++)
		patterns |= is_pattern(a.names.v[i]);
	if (!a.all && !patterns) {
		rc = ks_each_name("untrace", &a.names, NULL, untrace_one, NULL);
		goto out;
	}
	for (i = 0; i < a.names.nr; i++)
		if (!is_pattern(a.names.v[i]) && ks_name_valid(a.names.v[i])) {
			rc = EXIT_USAGE;
			goto out;
		}
	rc = expand(&a, &names, &listed);
	if (!rc)
		rc = ks_each_name("untrace", &names, NULL, untrace_one, &listed);
out:
	free(names.v);
	free(listed.v);
	free(a.names.v);
	return rc;
}

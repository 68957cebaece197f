// SPDX-License-Identifier: GPL-2.0
/*
 * kstatsctl trace FUNC [--duration S] [--interval S [--count N] [-o FILE]]
 *		       [-f FORMAT]
 *
 * One-shot tracing (trace's default; trace_mode.c), the way funclatency and
 * `perf ftrace latency` work: the trace is made with KSTATS_TRACE_AUTOREMOVE
 * on this command's descriptor, so the kernel removes it when the command
 * ends however it ends (done, Ctrl-C, killed). Until then it waits; then it
 * prints what the trace recorded: the whole run, or each interval's share
 * of it (the difference of two snapshots, as show --interval computes it).
 * Ctrl-C (SIGINT), SIGTERM or SIGHUP ends the run early and still prints
 * what was recorded; a second one ends the command at once. With -o, each
 * interval also goes to an HdrHistogram log (trace_hlog.c).
 */
#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "kstatsctl.h"
#include "device.h"
#include "fmt.h"
#include "model.h"
#include "trace.h"

static bool ts_before(const struct timespec *a, const struct timespec *b)
{
	return a->tv_sec < b->tv_sec ||
	       (a->tv_sec == b->tv_sec && a->tv_nsec < b->tv_nsec);
}

/*
 * Waits until @until (CLOCK_MONOTONIC) or one of the signals in @sigs,
 * which are blocked. Returns true when a signal ended the wait.
 */
static bool wait_until(const sigset_t *sigs, const struct timespec *until)
{
	struct timespec now, left;

	for (;;) {
		clock_gettime(CLOCK_MONOTONIC, &now);
		if (!ts_before(&now, until))
			return false;
		left.tv_sec = until->tv_sec - now.tv_sec;
		left.tv_nsec = until->tv_nsec - now.tv_nsec;
		if (left.tv_nsec < 0) {
			left.tv_sec--;
			left.tv_nsec += 1000000000;
		}
		if (sigtimedwait(sigs, NULL, &left) > 0)
			return true;
		/* EAGAIN: the time came (checked above); EINTR: again. */
	}
}

/* The metric called @name in @m[0..n), or NULL. */
static const struct ks_metric *find(const struct ks_metric *m, size_t n, const char *name)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (!strcmp(m[i].name, name))
			return &m[i];
	return NULL;
}

/*
 * Prints @cur's share since @prev (none: all of @cur), by name: a key's
 * metric first seen now has none before.
 */
static int print_part(const struct ks_metric *prev, size_t nprev,
		      const struct ks_metric *cur, size_t n, struct ks_show *sh)
{
	struct ks_metric *d = xcalloc(n ? n : 1, sizeof(*d));
	size_t i;
	int rc;

	for (i = 0; i < n; i++)
		ks_metric_since(find(prev, nprev, cur[i].name), &cur[i], &d[i]);
	rc = ks_show_metrics(stdout, d, n, sh);
	for (i = 0; i < n; i++)
		ks_metric_free(&d[i]);
	free(d);
	if (!rc && fflush(stdout))
		rc = ks_fail(EXIT_RUNTIME, NULL, "writing the output: %s",
			     strerror(errno));
	return rc;
}

static void free_all(struct ks_metric *m, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		ks_metric_free(&m[i]);
	free(m);
}

/* Whether @name is a key's metric of one of @names[0..n): NAME{KEY=VALUE}. */
static bool key_of(const char *name, const char *const *names, size_t n)
{
	size_t i, len;

	for (i = 0; i < n; i++) {
		len = strlen(names[i]);
		if (!strncmp(name, names[i], len) && name[len] == '{')
			return true;
	}
	return false;
}

/*
 * Snapshots @names[0..n), then, for a keyed trace, its key's metrics (in
 * the registry as LIST makes them), into a new array; its length in @nr.
 */
static int snap_all(int fd, const char *const *names, size_t n, bool keyed,
		    struct ks_metric **out, size_t *nr)
{
	struct kstats_metric_info *li = NULL;
	struct ks_metric *m;
	size_t k = n, i;
	uint32_t nli = 0;
	int rc = 0;

	if (keyed && ks_dev_list(fd, &li, &nli))
		return EXIT_RUNTIME;
	m = xcalloc(n + nli, sizeof(*m));
	for (i = 0; i < n && !rc; i++)
		rc = ks_snapshot_live(fd, names[i], &m[i], false);
	for (i = 0; i < nli && !rc; i++)
		if (key_of((const char *)li[i].name, names, n))
			rc = ks_snapshot_live(fd, (const char *)li[i].name, &m[k++], false);
	free(li);
	*out = m;
	*nr = k;
	if (rc) {
		free_all(m, k);
		*out = NULL;
	}
	return rc;
}

/* @names: the trace's metrics to print, its own first. */
int ks_trace_run(int fd, const char *const *names, size_t n, bool keyed,
		 const struct ks_trace_run *r)
{
	struct ks_metric *prev = NULL, *cur = NULL;
	struct ks_trace_hlog hl;
	struct ks_source src = { 0 };
	struct ks_show sh = { 0 };
	struct timespec start, end, next;
	bool stop = false, signalled;
	const char *name = r->label ? r->label : names[0];
	size_t nprev = 0, ncur = 0;
	uint64_t start_ns;
	sigset_t sigs;
	long i;
	int rc = 0;

	ks_block_stop_signals(&sigs);
	ks_source_live(&src, fd);
	sh.format = r->format;
	sh.cpu = -1;
	sh.bits = -1;
	sh.units = opts.units;
	sh.units_set = opts.units_set;
	sh.src = &src;
	rc = ks_trace_hlog_open(&hl, r->output);
	if (rc)
		goto out;
	if (!opts.json) {
		if (r->duration > 0)
			fprintf(stderr, "kstatsctl: tracing %s for %g s (Ctrl-C "
				"ends it sooner)\n", name, r->duration);
		else
			fprintf(stderr, "kstatsctl: tracing %s until Ctrl-C\n", name);
	}
	clock_gettime(CLOCK_MONOTONIC, &start);
	/* The first interval runs from here: the trace is as old as this. */
	start_ns = (uint64_t)start.tv_sec * 1000000000 + (uint64_t)start.tv_nsec;
	end = start;
	ks_timespec_add(&end, r->duration > 0 ? r->duration : 1e9);
	next = start;
	for (i = 1; !stop; i++) {
		if (r->interval > 0) {
			ks_timespec_add(&next, r->interval);
			if (!ts_before(&next, &end))
				next = end;
		} else {
			next = end;
		}
		signalled = wait_until(&sigs, &next);
		/* A second Ctrl-C ends the command at once; the kernel untraces. */
		if (signalled)
			sigprocmask(SIG_UNBLOCK, &sigs, NULL);
		stop = signalled || !ts_before(&next, &end) || (r->count && i >= r->count);
		rc = snap_all(fd, names, n, keyed, &cur, &ncur);
		if (rc)
			break;
		if (r->interval > 0) {
			sh.interval = (unsigned int)i;
			sh.interval_s = (double)(cur[0].time_ns - (prev ?
						 prev[0].time_ns : start_ns)) / 1e9;
		}
		rc = print_part(prev, nprev, cur, ncur, &sh);
		if (!rc)
			rc = ks_trace_hlog_add(&hl, prev, nprev, cur, ncur);
		free_all(prev, nprev);
		prev = cur;
		nprev = ncur;
		cur = NULL;
		if (rc)
			break;
	}
	free_all(prev, nprev);
out:
	ks_trace_hlog_close(&hl);
	return rc;
}

// SPDX-License-Identifier: GPL-2.0
/*
 * kstatsctl export --format hdr: the metrics as an HdrHistogram interval
 * log (hdr_log.c writes it), tag = metric name, values in nanoseconds
 * (or plain numbers, for a metric that does not hold ns).
 *
 * Before a tag's first line, a comment that HdrHistogram's readers skip
 * says how kstatsctl reads it back: "#[kstats: tag=NAME frac_bits=N
 * unit=ns|none]". HdrHistogram has 1 or 2 significant digits where kstats
 * has frac_bits 0..5, and each slot's count sits at the slot's last value;
 * without the comment a reader could not tell a count known to lie in
 * [8, 16) from a count of exactly 15 (hlog_bits.c).
 *
 * Once (no --interval): one line per metric, what it holds, at the time of
 * its snapshot with length 0 (kstats does not know when its samples
 * began); with -o the file is replaced atomically, as for Prometheus.
 * With --interval S [--count N]: a snapshot first, then every S seconds
 * one line per metric for what it recorded since the last (ks_metric_since,
 * as show --watch), start and length from the snapshots' own clocks. Each
 * interval goes out in one write and is flushed (and fsync'ed to a file),
 * so the file is always a valid log up to its last whole interval.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "kstatsctl.h"
#include "device.h"
#include "hdr.h"
#include "model.h"
#include "names.h"

/*
 * Does @m fit HdrHistogram? A sample at or past 2^63 ns does not: the
 * metric is left out, with a warning, and the others written. A slot of
 * more than 2^63 - 1 samples is written as that many, with a warning.
 */
static bool hdr_fits(const struct ks_metric *m, bool warn)
{
	struct ks_hdr h;
	uint64_t max;
	int rc = ks_hdr_from_metric(m, &h, &max);

	ks_hdr_free(&h);
	if (!warn)
		return rc >= 0;
	if (rc < 0)
		ks_warn("%s: a sample at or past 2^63 ns, beyond HdrHistogram's values: "
			"left out of the log", m->name);
	else if (rc > 0)
		ks_warn("%s: a slot of more than 2^63 - 1 samples, HdrHistogram's most: "
			"written as 2^63 - 1", m->name);
	return rc >= 0;
}

size_t ks_hlog_write_lines(FILE *f, const struct ks_set *set, const struct ks_set *prev,
			double base_s, double tick_s)
{
	struct ks_metric iv;
	size_t i, n = 0;

	for (i = 0; i < set->nr; i++) {
		const struct ks_metric *cur = &set->m[i], *old = NULL;
		double end_s = (double)cur->realtime_ns / 1e9, start_s = end_s;

		if (prev) {
			old = ks_set_find(prev, cur->name);
			start_s = old ? (double)old->realtime_ns / 1e9 : tick_s;
			ks_metric_since(old, cur, &iv);
		} else {
			iv = *cur;
		}
		if (hdr_fits(&iv, true)) {
			if (!prev || !old || old->frac_bits != cur->frac_bits)
				ks_hlog_write_kstats(f, cur);	/* first, new, or made again */
			ks_hlog_write_metric(f, &iv, start_s - base_s, end_s - start_s);
			n++;
		}
		if (prev)
			ks_metric_free(&iv);
	}
	return n;
}

static double set_start(const struct ks_set *set)
{
	double t = 0;
	size_t i;

	for (i = 0; i < set->nr; i++)
		if (!t || (double)set->m[i].realtime_ns / 1e9 < t)
			t = (double)set->m[i].realtime_ns / 1e9;
	return t;
}

/* One log of @set as it is, into @f; an error when no metric fits. */
int ks_export_hdr_once(FILE *f, const struct ks_set *set)
{
	double base = set_start(set);
	size_t i, fit = 0;

	for (i = 0; i < set->nr; i++)
		fit += hdr_fits(&set->m[i], false);
	if (set->nr && !fit) {
		for (i = 0; i < set->nr; i++)
			hdr_fits(&set->m[i], true);
		return ks_fail(EXIT_RUNTIME, "HdrHistogram takes values below 2^63 ns",
			       "no metric fits an HdrHistogram: nothing written");
	}
	ks_hlog_write_header(f, base);
	ks_hlog_write_lines(f, set, NULL, base, base);
	return 0;
}

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

int ks_hlog_push(FILE *mem, char **text, size_t *len, int fd, const char *path)
{
	ssize_t n;

	fflush(mem);
	n = write(fd, *text, *len);
	if (n < 0 || (size_t)n != *len || (path && fsync(fd) && errno != EINVAL))
		return ks_fail(EXIT_RUNTIME, NULL, "writing %s: %s",
			       path ? path : "standard output",
			       n >= 0 && (size_t)n != *len ? "short write" : strerror(errno));
	rewind(mem);
	*len = 0;
	return 0;
}

int ks_export_hdr_loop(const struct ks_names *pats, const char *path, double interval,
		       long count)
{
	struct ks_set prev = { 0 }, cur = { 0 };
	struct timespec next;
	char *text = NULL;
	size_t len = 0;
	FILE *mem = open_memstream(&text, &len);
	int fd = 1, dev, rc;
	double base, tick;
	long n;

	if (!mem)
		return ks_fail(EXIT_RUNTIME, NULL, "open_memstream: %s", strerror(errno));
	dev = ks_dev_open();
	if (dev < 0) {
		rc = EXIT_RUNTIME;
		goto out;
	}
	if (path && strcmp(path, "-")) {
		fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
		if (fd < 0) {
			rc = ks_fail(EXIT_RUNTIME, NULL, "%s: %s", path, strerror(errno));
			goto out;
		}
	} else {
		path = NULL;
	}
	clock_gettime(CLOCK_MONOTONIC, &next);
	base = tick = now_s();
	rc = ks_take_matching(dev, pats, &prev);
	if (rc)
		goto out;
	ks_hlog_write_header(mem, base);
	for (n = 0; n < (long)prev.nr; n++)
		ks_hlog_write_kstats(mem, &prev.m[n]);
	rc = ks_hlog_push(mem, &text, &len, fd, path);
	for (n = 0; !rc && (!count || n < count); n++) {
		ks_sleep_until(&next, interval);
		tick = now_s();
		rc = ks_take_matching(dev, pats, &cur);
		if (!rc)
			ks_hlog_write_lines(mem, &cur, &prev, base, tick);
		if (!rc)
			rc = ks_hlog_push(mem, &text, &len, fd, path);
		ks_set_free(&prev);
		prev = cur;
		memset(&cur, 0, sizeof(cur));
	}
out:
	if (fd > 1)
		close(fd);
	if (dev >= 0)
		close(dev);
	ks_set_free(&prev);
	fclose(mem);
	free(text);
	return rc;
}

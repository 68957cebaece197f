// SPDX-License-Identifier: GPL-2.0
/*
 * kstatsctl outliers NAME --follow: funcslower's habit. Each slow call
 * that ends from now on, once, in the order the module numbered them
 * (seq), until Ctrl-C. The ring is read every 200 ms; a
 * number missing between two read is either still being written (a
 * writer runs with preemption off: microseconds) or gone (overwritten, or
 * its slot was taken), so printing waits at a gap for 200 ms, then says
 * how many were lost and goes on. Calls over the trace's rate limit never
 * get a number: their count is said as it grows. -j: one "outliers"
 * document when it starts (no calls: the counters then), then one per read
 * that found something new, with "lost" and "ratelimited_since" (since the
 * previous document).
 */
#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "kstatsctl.h"
#include "device.h"
#include "fmt.h"
#include "json.h"
#include "model.h"
#include "outliers.h"

#define FOLLOW_PERIOD_S	0.2	/* between reads; also how long a gap may wait */

struct follow {
	uint64_t last;			/* the last seq printed (or said lost) */
	uint64_t ratelimited;		/* at the previous read */
	struct timespec gap_seen;	/* when the gap after @last was first seen */
	bool gap;
	uint64_t printed, lost, limited;	/* for the summary */
	const struct ks_outl_filter *filter;
	uint64_t unmatched, unmatched_since;	/* in all; since the last document */
};

static double since(const struct timespec *t)
{
	struct timespec now;

	clock_gettime(CLOCK_MONOTONIC, &now);
	return (double)(now.tv_sec - t->tv_sec) + (now.tv_nsec - t->tv_nsec) / 1e9;
}

/*
 * Of @n entries (seq ascending), those to print now into @out; what was
 * lost before them in @lost. Stops at a gap younger than the period,
 * unless @final (the last read: nothing more will come).
 */
static uint32_t pick(struct follow *f, const struct kstats_outlier *e, uint32_t n,
		     struct kstats_outlier *out, uint64_t *lost, bool final)
{
	uint32_t i, nr = 0;

	*lost = 0;
	for (i = 0; i < n; i++) {
		if (e[i].seq <= f->last)
			continue;
		if (e[i].seq > f->last + 1) {
			if (!f->gap) {
				f->gap = true;
				clock_gettime(CLOCK_MONOTONIC, &f->gap_seen);
			}
			if (!final && since(&f->gap_seen) < FOLLOW_PERIOD_S)
				break;
			*lost += e[i].seq - f->last - 1;
		}
		f->gap = false;
		f->last = e[i].seq;
		out[nr++] = e[i];
	}
	return nr;
}

static void say_lost(uint64_t lost, uint64_t limited, const struct kstats_outliers *o)
{
	if (lost)
		printf("# %llu slow call%s lost (overwritten or taken before read: "
		       "--outlier-ring %u is small for this rate)\n",
		       (unsigned long long)lost, lost == 1 ? "" : "s", o->capacity);
	if (limited)
		printf("# %llu slow call%s over the trace's --outlier-rate, not kept\n",
		       (unsigned long long)limited, limited == 1 ? "" : "s");
}

static void print_new(const char *name, struct ks_outl *ol, int fd, uint64_t lost,
		      uint64_t limited)
{
	struct ks_source src = { 0 };
	struct json *j;
	uint32_t i;

	if (opts.json) {
		ol->follow = true;
		ol->lost = lost;
		ol->ratelimited_since = limited;
		ks_source_live(&src, fd);
		j = json_doc("outliers");
		fmt_json_source(j, &src);
		fmt_outliers_json(j, name, ol);
		json_obj_end(j);
		json_end(j);
	} else {
		say_lost(lost, limited, &ol->o);
		for (i = 0; i < ol->nr; i++)
			fmt_outlier_entry(stdout, ol, i);
	}
	fflush(stdout);
}

/*
 * One read: prints what is new. @final: after the last wait, every number
 * not read is lost, up to the newest given (head). 0, or the ioctl's errno.
 */
static int follow_once(struct follow *f, int fd, const char *name, struct ks_ksyms *k,
		       bool final)
{
	struct kstats_outlier *e = NULL, *pickd;
	struct kstats_outliers o;
	uint64_t lost, limited;
	struct ks_outl *ol;
	uint32_t nr;
	int err;

	err = ks_outliers_read(fd, name, &o, &e);
	if (err)
		return err;
	pickd = xcalloc(o.nr_entries ? o.nr_entries : 1, sizeof(*pickd));
	nr = pick(f, e, o.nr_entries, pickd, &lost, final);
	if (final && o.head > f->last) {
		lost += o.head - f->last;
		f->last = o.head;
	}
	/* A reset zeroes the counters: what came since is new. */
	limited = o.ratelimited >= f->ratelimited ? o.ratelimited - f->ratelimited :
		  o.ratelimited;
	f->ratelimited = o.ratelimited;
	ol = xcalloc(1, sizeof(*ol));
	ks_outl_from_module(ol, &o, pickd, nr, k, false);
	ks_outl_filter(ol, f->filter);
	f->unmatched += ol->unmatched;
	f->unmatched_since += ol->unmatched;
	nr = ol->nr;
	if (nr || lost || limited) {
		ol->unmatched = f->unmatched_since;
		f->unmatched_since = 0;
		print_new(name, ol, fd, lost, limited);
	}
	ks_outl_free(ol);
	f->printed += nr;
	f->lost += lost;
	f->limited += limited;
	free(pickd);
	free(e);
	return 0;
}

int ks_outliers_follow(const char *name, const struct ks_outl_filter *filter)
{
	struct follow f = { .filter = filter };
	struct ks_ksyms k = { 0 };
	struct timespec period = { 0, (long)(FOLLOW_PERIOD_S * 1e9) };
	struct kstats_outliers o;
	struct kstats_outlier *e = NULL;
	bool stopped = false;
	char thr[128];
	sigset_t stop;
	int fd, err, rc = 0;

	fd = ks_dev_open();
	if (fd < 0)
		return EXIT_RUNTIME;
	/*
	 * Refusals first. What ended before now is the past: followed from
	 * the newest number given (a module without head: the newest kept).
	 */
	err = ks_outliers_read(fd, name, &o, &e);
	if (err) {
		close(fd);
		return -err;
	}
	f.last = o.head ? o.head : o.nr_entries ? e[o.nr_entries - 1].seq : 0;
	f.ratelimited = o.ratelimited;
	free(e);
	if (ks_outl_filter_refused(filter, NULL, o.out_flags, NULL)) {
		close(fd);
		return EXIT_RUNTIME;
	}
	ks_block_stop_signals(&stop);
	/* Followed from here: said at once (a reader may wait for it). */
	if (opts.json) {
		struct ks_outl *ol = xcalloc(1, sizeof(*ol));

		ks_outl_from_module(ol, &o, NULL, 0, &k, false);
		ks_outl_filter(ol, filter);
		print_new(name, ol, fd, 0, 0);
		ks_outl_free(ol);
	} else {
		printf("# %s: slow calls (%s) as they end; Ctrl-C to stop\n", name,
		       ks_outliers_threshold(thr, sizeof(thr), &o));
		fflush(stdout);
	}
	while (!stopped) {
		stopped = sigtimedwait(&stop, NULL, &period) > 0;
		/*
		 * After Ctrl-C, one period more for a capture being written
		 * (microseconds, with preemption off), then the last read.
		 */
		if (stopped)
			nanosleep(&period, NULL);
		err = follow_once(&f, fd, name, &k, stopped);
		if (err)
			break;
	}
	if (err == ENOENT || err == EINVAL)
		fprintf(stderr, "# %s: the trace is gone\n", name);
	else if (err)
		rc = -err;
	if (!opts.json && filter->on)
		printf("# %llu printed, %llu not matching, %llu lost, %llu over the rate "
		       "limit\n", (unsigned long long)f.printed,
		       (unsigned long long)f.unmatched, (unsigned long long)f.lost,
		       (unsigned long long)f.limited);
	else if (!opts.json)
		printf("# %llu printed, %llu lost, %llu over the rate limit\n",
		       (unsigned long long)f.printed, (unsigned long long)f.lost,
		       (unsigned long long)f.limited);
	fflush(stdout);
	ks_ksyms_free(&k);
	close(fd);
	return rc;
}

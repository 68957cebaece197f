// SPDX-License-Identifier: GPL-2.0
/*
 * Self time (KSTATS_TRACE_SELF) on the target's recursion: 4 levels, each
 * working 100 us of its own after its inner call returns. The target times
 * every level itself, with the probes' clock, from its first line to its
 * last; a level's own time is then its duration less its inner call's.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>

#include "trace_test.h"

#define LEVELS	4
#define WORK_NS	(100 * NS_PER_US)
#define RECURSE	"recurse 4 100 20"	/* DEPTH US N */

/*
 * Ranks of @h whose slot lies wholly more than @slack away from the sorted
 * truth @t: the probes' own time around an inner call (its entry before
 * the target's first line, its exit after the last) falls on either side.
 */
static uint64_t off_truth(const struct hist *h, const uint64_t *t, uint64_t n,
			  uint64_t slack)
{
	uint32_t b = h->sn.frac_bits, s;
	uint64_t r = 0, c, off = 0;

	for (s = 0; s < kstats_hist_nslots(b); s++)
		for (c = 0; c < h->counts[s] && r < n; c++, r++)
			off += kstats_slot_last(s, b) + slack < t[r] ||
			       kstats_slot_low(s, b) > t[r] + slack;
	return off;
}

static int reset(const char *name)
{
	struct kstats_control c = { .op = KSTATS_OP_RESET };

	snprintf((char *)c.name, sizeof(c.name), "%s", name);
	return ioctl(fd, KSTATS_IOC_CONTROL, &c) ? errno : 0;
}

/* How far the part sums may round a slot's sum of @count samples. */
static double slot_rounding(uint32_t slot, uint32_t b, uint64_t count)
{
	uint32_t shift = kstats_bucket_sum_shift(slot >> b);

	return shift ? (double)count * ldexp(1.0, (int)shift - 1) : 0;
}

/* The sum of @h's samples, and in @err how far the part sums may round it. */
static double hist_sum(const struct hist *h, double *err)
{
	uint32_t b = h->sn.frac_bits, s;
	double sum = 0;

	*err = 0;
	for (s = 0; s < kstats_hist_nslots(b); s++) {
		if (!h->counts[s])
			continue;
		sum += kstats_slot_sum(s, b, h->counts[s], h->parts[s]);
		*err += slot_rounding(s, b, h->counts[s]);
	}
	return sum;
}

/* At least the sum of @h's @k largest samples. */
static double top_sum(const struct hist *h, uint64_t k)
{
	uint32_t b = h->sn.frac_bits, s = kstats_hist_nslots(b);
	double sum = 0;
	uint64_t c;

	while (s-- > 0 && k) {
		c = h->counts[s] < k ? h->counts[s] : k;
		if (!c)
			continue;
		if (c == h->counts[s])
			sum += kstats_slot_sum(s, b, c, h->parts[s]) + slot_rounding(s, b, c);
		else
			sum += (double)c * (double)kstats_slot_last(s, b);
		k -= c;
	}
	return sum;
}

static void self_refusals(const char *m, uint32_t mech)
{
	struct req r = { .name = "t.selfsec", .start = "ktarget_sec_start",
			 .end = "ktarget_sec_end", .flags = KSTATS_TRACE_SELF };
	char name[KSTATS_NAME_LEN];
	struct hist h;

	ok(trace(fd, &r) == EINVAL && snap("t.selfsec", &h) == ENOENT,
	   "%s: --self on a section: EINVAL, nothing made", m);
	/* 59 bytes: GAP-NAME fits, SELF-NAME does not. */
	snprintf(name, sizeof(name), "%059d", 0);
	r = (struct req){ .name = name, .func = "ktarget_empty", .mech = mech,
			  .flags = KSTATS_TRACE_SELF };
	ok(trace(fd, &r) == EINVAL && snap(name, &h) == ENOENT,
	   "%s: --self with a 59-byte name: EINVAL, nothing made", m);
}

void test_self(uint32_t mech, const char *m, int supported)
{
	struct req r = { .name = "t.self", .func = "ktarget_recurse", .mech = mech,
			 .flags = KSTATS_TRACE_SELF, .bits = 2 };
	uint64_t d[MAX_CALLS], truth[MAX_CALLS], n, i, calls, off, floor, below2;
	uint32_t work = kstats_hist_slot(WORK_NS, 2);
	double sum, err, top, roots = 0;
	struct hist h, s;

	if (!supported) {
		ok(trace(fd, &r) == EOPNOTSUPP && snap("t.self", &h) == ENOENT,
		   "%s: --self without KSTATS_FEAT_SELF: EOPNOTSUPP", m);
		return;
	}
	self_refusals(m, mech);
	if (!ok(trace(fd, &r) == 0, "%s: --self trace of ktarget_recurse", m))
		return;
	/*
	 * Once first, then from zero: the emulator translates the handlers'
	 * code the first time it runs, which makes the first call's entry and
	 * exit hundreds of microseconds longer than any other's.
	 */
	ok(target("recurse 4 100 2") == 2 && !reset("t.self") && !reset("SELF-t.self"),
	   "%s: two calls, then both metrics reset", m);
	calls = LEVELS * target(RECURSE);
	snap("t.self", &h);
	snap("SELF-t.self", &s);
	/* Hits count since the attach: the two warm-up calls too. */
	ok(h.total == calls && s.total == calls && !h.sn.misses && !s.sn.misses &&
	   s.sn.hits == h.sn.hits && h.sn.hits == calls + 2 * LEVELS,
	   "%s: %llu calls, depth 4: NAME %llu samples, SELF-NAME %llu, no misses, "
	   "hits %llu and %llu", m, (unsigned long long)calls,
	   (unsigned long long)h.total, (unsigned long long)s.total,
	   (unsigned long long)h.sn.hits, (unsigned long long)s.sn.hits);
	ok(s.sn.kind == KSTATS_KIND_SELF, "%s: SELF-t.self is of kind SELF", m);
	floor = h.sn.floor_ns;

	/* Level k's own time: its duration less level k-1's (0: innermost). */
	n = read_durations_in_order(d, MAX_CALLS);	/* innermost first */
	for (i = 0; i < n; i++) {
		truth[i] = i % LEVELS ? d[i] - d[i - 1] : d[i];
		if (i % LEVELS == LEVELS - 1)
			roots += d[i];
	}
	qsort(truth, n, sizeof(*truth), cmp_u64);
	/*
	 * A self time is the target's own figure give or take the probes'
	 * time between its clock reads and kstats', around the level less
	 * around its inner call: each of those up to a floor. Without the
	 * callees taken off, three levels in four would be a whole level
	 * (100 us) or more over; taking off every descendant instead would
	 * leave the outer levels nothing (misses): 60 of 80 off. An interrupt
	 * or an emulation stall inside a probe moves a rank: under the
	 * sanitizers, beside another lane, 11 of 80 once; up to a quarter.
	 */
	off = off_truth(&s, truth, n, floor);
	if (!ok(n == s.total && off * 4 <= n,
		"%s: each level's self time within the floor (%llu ns) of its own "
		"duration less its inner call's, as the target measured them: %llu of "
		"%llu further", m, (unsigned long long)floor, (unsigned long long)off,
		(unsigned long long)n))
		dump(&s);
	/*
	 * None below the slot holding 100 us (each level spins 100 us of its
	 * own, by the probes' clock, inside its window and outside its
	 * callee's), and three in four below 200 us' slot: self times that
	 * kept their callee's time would be 200 us or more at three levels in
	 * four. How far above 100 us is not kstats' to say: under the
	 * sanitizers the target's bookkeeping and the probes around each inner
	 * call add 15-30 us, and emulation stalls of milliseconds hit a few
	 * calls (the previous check holds each to the target's own clock).
	 */
	below2 = kstats_slot_low(kstats_hist_slot(2 * WORK_NS, 2), 2) - 1;
	if (!ok(within(&s, kstats_slot_low(work, 2), below2, 75),
		"%s: self times at least 100 us' slot [%llu, ...], 3 in 4 below 200 us' "
		"slot (<= %llu ns)", m, (unsigned long long)kstats_slot_low(work, 2),
		(unsigned long long)below2))
		dump(&s);
	/*
	 * A call's self times add up to its root's duration as kstats timed
	 * it: not below the root's own (the target's clock reads lie inside
	 * kstats'), and not above the 20 longest samples of NAME, which hold
	 * the roots. Self times that kept a callee's time, or every level's
	 * whole time, would pass the latter by 100 us or more a call.
	 */
	sum = hist_sum(&s, &err);
	top = top_sum(&h, n / LEVELS);
	ok(n && sum + err >= roots && sum - err <= top,
	   "%s: the self times add up to between the roots' own durations and "
	   "NAME's %llu longest: %.0f <= %.0f <= %.0f ns", m,
	   (unsigned long long)(n / LEVELS), roots, sum, top);
	ok(untrace("t.self") == 0 && snap("SELF-t.self", &s) == ENOENT,
	   "%s: untrace removes SELF-t.self", m);
}

// SPDX-License-Identifier: GPL-2.0
/*
 * Keyed traces (KSTATS_KEY_ERRNO): the target's calls with known return
 * values, made in order by one task, split by kstats into exact counts.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>

#include "trace_test.h"

#define CALLS	300		/* of each target function */
#define WORK_US	200		/* what a call that returns -EAGAIN works */

static void key_refusals(const char *m, uint32_t mech)
{
	char name[KSTATS_NAME_LEN];
	struct req r = { .name = "t.ksec", .start = "ktarget_sec_start",
			 .end = "ktarget_sec_end", .key = KSTATS_KEY_ERRNO };
	struct hist h;

	ok(trace(fd, &r) == EINVAL && snap("t.ksec", &h) == ENOENT,
	   "%s: --by errno on a section: EINVAL, nothing made", m);
	r = (struct req){ .name = "t.kbad", .func = "ktarget_errno", .mech = mech, .key = 8 };
	ok(trace(fd, &r) == EINVAL, "%s: an unknown key: EINVAL", m);
	r.key = 0;
	r.nr_keys = 4;
	ok(trace(fd, &r) == EINVAL, "%s: nr_keys without a key: EINVAL", m);
	r.key = KSTATS_KEY_ERRNO;
	r.nr_keys = KSTATS_KEYS_MAX + 1;
	ok(trace(fd, &r) == EINVAL && snap("t.kbad", &h) == ENOENT,
	   "%s: nr_keys %d: EINVAL, nothing made", m, KSTATS_KEYS_MAX + 1);
	/* NAME{errno=-4095} must fit: 50 bytes do, 51 do not. */
	snprintf(name, sizeof(name), "%051d", 0);
	r = (struct req){ .name = name, .func = "ktarget_errno", .mech = mech,
			  .key = KSTATS_KEY_ERRNO };
	ok(trace(fd, &r) == EINVAL && snap(name, &h) == ENOENT,
	   "%s: a key with a 51-byte name: EINVAL, nothing made", m);
	name[50] = 0;
	ok(trace(fd, &r) == 0 && untrace(name) == 0,
	   "%s: a key with a 50-byte name: traced, untraced", m);
}

/* @name's samples, or ~0 when it does not exist. */
uint64_t samples(const char *name)
{
	struct hist h;

	return snap(name, &h) ? ~0ULL : h.total;
}

static void key_counts(const char *m)
{
	uint64_t errs = (CALLS + 2) / 3, es = CALLS / 20;
	char name[KSTATS_NAME_LEN];
	struct hist h, e;
	int i, exact = 1;

	/* ktarget_errno: -EAGAIN on calls 0, 3, 6...; no error on the rest. */
	ok(samples("t.ke") == CALLS && samples("t.ke{errno=-11}") == errs &&
	   samples("t.ke{errno=0}") == CALLS - errs,
	   "%s: ktarget_errno: %d calls, %llu -EAGAIN, %llu without error (kernel "
	   "addresses among them): t.ke %llu, {errno=-11} %llu, {errno=0} %llu", m,
	   CALLS, (unsigned long long)errs, (unsigned long long)(CALLS - errs),
	   (unsigned long long)samples("t.ke"),
	   (unsigned long long)samples("t.ke{errno=-11}"),
	   (unsigned long long)samples("t.ke{errno=0}"));
	snap("t.ke{errno=-11}", &e);
	snap("t.ke{errno=0}", &h);
	ok(e.sn.kind == KSTATS_KIND_KEY && h.sn.kind == KSTATS_KIND_KEY,
	   "%s: the key's metrics are of kind KEY (%u, %u)", m, e.sn.kind, h.sn.kind);
	/* A key's hits are its own calls, not the trace's (issue 30 W4). */
	ok(e.sn.hits == e.total && h.sn.hits == h.total && e.total + h.total == CALLS,
	   "%s: SNAPSHOT of a key: hits %llu and %llu, its own counts %llu and %llu", m,
	   (unsigned long long)e.sn.hits, (unsigned long long)h.sn.hits,
	   (unsigned long long)e.total, (unsigned long long)h.total);
	/* The errors worked 200 us each; the others returned at once. */
	if (!ok(within(&e, WORK_US * NS_PER_US, UINT64_MAX, 100),
		"%s: every -EAGAIN call in its own slots, at least %d us", m, WORK_US))
		dump(&e);
	if (!ok(within(&h, 0, WORK_US * NS_PER_US - 1, 90),
		"%s: nine in ten calls without error below %d us", m, WORK_US))
		dump(&h);
	/* ktarget_errno32: an int, -EINTR on odd calls. */
	ok(samples("t.ke32{errno=-4}") == CALLS / 2 && samples("t.ke32{errno=0}") == CALLS / 2,
	   "%s: ktarget_errno32 (an int): %d -EINTR and %d without error", m,
	   CALLS / 2, CALLS / 2);
	/* ktarget_errnos: -1..-20 in turn; the 8 first seen keep their own. */
	for (i = 1; i <= 8; i++) {
		snprintf(name, sizeof(name), "t.kes{errno=-%d}", i);
		exact &= samples(name) == es;
	}
	ok(exact && samples("t.kes{errno=-9}") == ~0ULL &&
	   samples("t.kes{errno=other}") == CALLS - 8 * es,
	   "%s: 20 distinct errors, 8 kept: -1..-8 %llu each, no -9, other %llu (%llu)", m,
	   (unsigned long long)es, (unsigned long long)(CALLS - 8 * es),
	   (unsigned long long)samples("t.kes{errno=other}"));
}

/*
 * Values fixed at TRACE (issue 30 D1): ktarget_errnos returns -1..-20 in
 * turn, so first come would give -1..-8 their metrics; with -5, -12 and 0
 * (no error: never here) fixed, those three alone have one, from the
 * start, and the other 20 - 2 errors go to other, whoever comes first.
 */
static void key_values(const char *m, uint32_t mech)
{
	uint64_t vals[3] = { 5, 12, 0 }, dup[2] = { 7, 7 }, big[1] = { 4096 };
	struct kstats_trace t = { .frac_bits = 3, .mechanism = mech, .key = KSTATS_KEY_ERRNO,
				  .func = (uintptr_t)"ktarget_errnos", .nr_keys = 3,
				  .key_values = (uintptr_t)vals };
	uint64_t es = CALLS / 20;
	struct hist h;
	int err;

	strcpy((char *)t.name, "t.kv");
	err = ioctl(fd, KSTATS_IOC_TRACE, &t) ? errno : 0;
	if (!ok(!err, "%s: --by errno with 3 values fixed (%s)", m, strerror(err)))
		return;
	ok(samples("t.kv{errno=-5}") == 0 && samples("t.kv{errno=-12}") == 0 &&
	   samples("t.kv{errno=0}") == 0, "%s: the fixed values' metrics exist before a call", m);
	target("errno 300 0");
	ok(samples("t.kv{errno=-5}") == es && samples("t.kv{errno=-12}") == es &&
	   samples("t.kv{errno=0}") == 0 && samples("t.kv{errno=-1}") == ~0ULL &&
	   samples("t.kv{errno=other}") == CALLS - 2 * es && snap("t.kv", &h) == 0 &&
	   h.total == CALLS,
	   "%s: -1..-20 in turn: -5 and -12 %llu each, 0 none, no -1 (first come), other %llu "
	   "(%llu)", m, (unsigned long long)es, (unsigned long long)(CALLS - 2 * es),
	   (unsigned long long)samples("t.kv{errno=other}"));
	untrace("t.kv");
	t.nr_keys = 2;
	t.key_values = (uintptr_t)dup;
	ok(ioctl(fd, KSTATS_IOC_TRACE, &t) && errno == EINVAL && snap("t.kv", &h) == ENOENT,
	   "%s: a value given twice: EINVAL, nothing made", m);
	t.nr_keys = 1;
	t.key_values = (uintptr_t)big;
	ok(ioctl(fd, KSTATS_IOC_TRACE, &t) && errno == EINVAL, "%s: errno 4096: EINVAL", m);
	t.key_values = 8;
	ok(ioctl(fd, KSTATS_IOC_TRACE, &t) && errno == EFAULT && snap("t.kv", &h) == ENOENT,
	   "%s: key_values unreadable: EFAULT, nothing made", m);
}

void test_keys(uint32_t mech, const char *m, int supported)
{
	struct req r[] = {
		{ .name = "t.ke", .func = "ktarget_errno" },
		{ .name = "t.ke32", .func = "ktarget_errno32" },
		{ .name = "t.kes", .func = "ktarget_errnos", .nr_keys = 8 },
	};
	struct hist h;
	int i, err = 0;

	for (i = 0; i < 3; i++) {
		r[i].mech = mech;
		r[i].key = KSTATS_KEY_ERRNO;
	}
	if (!supported) {
		ok(trace(fd, &r[0]) == EINVAL && snap("t.ke", &h) == ENOENT,
		   "%s: a key without KSTATS_FEAT_KEYS: EINVAL", m);
		return;
	}
	key_refusals(m, mech);
	key_values(m, mech);
	for (i = 0; i < 3; i++)
		err |= trace(fd, &r[i]);
	if (!ok(!err, "%s: three --by errno traces", m))
		return;
	ok(samples("t.ke{errno=0}") == ~0ULL, "%s: no key's metric before a call", m);
	ok(target("errno 300 200") == CALLS, "%s: %d calls of each", m, CALLS);
	key_counts(m);
	for (i = 0; i < 3; i++)
		err |= untrace(r[i].name);
	ok(!err && samples("t.ke{errno=-11}") == ~0ULL && samples("t.kes{errno=other}") == ~0ULL,
	   "%s: untrace removes the key's metrics", m);
}

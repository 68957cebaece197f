// SPDX-License-Identifier: GPL-2.0
/*
 * What a uprobe reports and costs here: a user-space trace's probe floor
 * and the governor's costs (kstats(4): TRACE's user_floor_ns, user_call_ps
 * and user_skip_ps). The module measures kernel probes on empty functions
 * of its own, but cannot run user code, so kstatsctl does the same on its
 * own: it traces empty functions of its own, in this thread only, and
 * takes
 * - the floor: the median of what 32 calls back to back are recorded as;
 * - the call cost: the fastest batch of 32 probed calls less the fastest
 *   batch of 32 calls of an unprobed twin, interleaved, 9 batches each
 *   (an interrupt or a preemption only ever adds time). Fewer than the
 *   module's 15 of 64 for kernel probes: a uprobe call costs microseconds,
 *   a fifth of a millisecond under KASAN and emulation, and every
 *   user-space trace pays for the measurement;
 * - the skip cost: the same on a trace that declines all calls but 1 in
 *   KSTATS_TRACE_SAMPLE_MAX.
 * A USDT section's are a section's: a start and an end, each its own
 * function's first instruction, called back to back.
 *
 * What uprobes does at a breakpoint depends on the instruction there: it
 * emulates a few (push, a jump, a call), and steps the others out of line,
 * one trap more. The empty functions begin as most compiled functions do,
 * with push %rbp (emulated).
 */
#define _GNU_SOURCE	/* gettid */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "device.h"
#include "kstatsctl.h"
#include "model.h"
#include "trace.h"
#include "usym.h"

#define UCOST_CALLS	32
#define UCOST_BATCHES	9

/*
 * Six empty functions, alike but for their names: a function's probed,
 * declined and unprobed twins (0, 1, 2), and a section's ends (3, 4, 5).
 * In assembly, so that each begins with exactly push %rbp.
 */
void ks_ucost_fn0(void), ks_ucost_fn1(void), ks_ucost_fn2(void);
void ks_ucost_fn3(void), ks_ucost_fn4(void), ks_ucost_fn5(void);
#define UCOST_FN(n) \
	".globl ks_ucost_fn" #n "\n.hidden ks_ucost_fn" #n "\n" \
	".type ks_ucost_fn" #n ", @function\nks_ucost_fn" #n ":\n" \
	"\tpush %rbp\n\tmov %rsp, %rbp\n\tpop %rbp\n\tret\n" \
	".size ks_ucost_fn" #n ", . - ks_ucost_fn" #n "\n"
#ifdef __x86_64__
asm(".text\n.p2align 4\n" UCOST_FN(0) ".p2align 4\n" UCOST_FN(1) ".p2align 4\n" UCOST_FN(2)
    ".p2align 4\n" UCOST_FN(3) ".p2align 4\n" UCOST_FN(4) ".p2align 4\n" UCOST_FN(5));
#else
/* kstats traces user code on x86-64 only (kstats(4)): never measured here. */
#define UCOST_C(n) __attribute__((noinline)) void ks_ucost_fn##n(void) { asm volatile(""); }
UCOST_C(0) UCOST_C(1) UCOST_C(2) UCOST_C(3) UCOST_C(4) UCOST_C(5)
#endif

struct ucost_site {
	void (*start)(void);
	void (*end)(void);		/* a section's, or NULL */
};

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000 + (uint64_t)ts.tv_nsec;
}

static uint64_t batch(const struct ucost_site *s)
{
	uint64_t t0 = now_ns();
	int i;

	for (i = 0; i < UCOST_CALLS; i++) {
		s->start();
		if (s->end)
			s->end();
	}
	return now_ns() - t0;
}

/* ps per call (or section) that @probed costs over @bare. */
static uint64_t cost_ps(const struct ucost_site *probed, const struct ucost_site *bare)
{
	uint64_t with = UINT64_MAX, without = UINT64_MAX;
	int b;

	for (b = 0; b < UCOST_BATCHES; b++) {
		uint64_t x = batch(bare), y = batch(probed);

		without = x < without ? x : without;
		with = y < with ? y : with;
	}
	return with > without ? (with - without) * 1000 / UCOST_CALLS : 0;
}

struct where {
	uintptr_t addr;
	uint64_t off;
	dev_t dev;
	ino_t ino;
	bool found;
};

static int find_text(uint64_t start, uint64_t end, uint64_t off, const char *path, void *arg)
{
	struct where *w = arg;
	struct stat st;

	if (w->addr < start || w->addr >= end)
		return 0;
	w->off = w->addr - start + off;
	w->found = !stat(path, &st) && st.st_dev == w->dev && st.st_ino == w->ino;
	return 1;
}

/* @fn's offset in this program's file @exe: 0, or -1. */
static int self_offset(int exe, void (*fn)(void), __u64 *off)
{
	struct where w = { .addr = (uintptr_t)fn };
	struct stat st;

	if (fstat(exe, &st))
		return -1;
	w.dev = st.st_dev;
	w.ino = st.st_ino;
	if (ks_maps_each(getpid(), find_text, &w) != 1 || !w.found)
		return -1;
	*off = w.off;
	return 0;
}

/* A trace of @s in this thread, recording 1 call in @every: 0 or -errno. */
static int trace_self(int fd, int exe, const char *name, const struct ucost_site *s,
		      uint32_t every)
{
	struct kstats_uprobe up[2] = { { .fd = exe }, { .fd = exe } };
	struct kstats_trace t = { 0 };
	int i;

	snprintf((char *)t.name, sizeof(t.name), "%s", name);
	t.frac_bits = KSTATS_FRAC_BITS_MAX;
	t.mechanism = KSTATS_MECH_UPROBE;
	t.flags = KSTATS_TRACE_AUTOREMOVE | KSTATS_TRACE_PID;
	t.pid = gettid();
	t.sample_every = every;
	if (self_offset(exe, s->start, &up[0].offset) ||
	    (s->end && self_offset(exe, s->end, &up[1].offset)))
		return -ENOENT;
	if (s->end) {
		t.start = (uint64_t)(uintptr_t)"kstatsctl:start";
		t.end = (uint64_t)(uintptr_t)"kstatsctl:end";
		up[0].role = KSTATS_UPROBE_START;
		up[1].role = KSTATS_UPROBE_END;
	} else {
		t.func = (uint64_t)(uintptr_t)"kstatsctl:empty";
		up[0].role = KSTATS_UPROBE_FUNC;
	}
	t.uprobes = (uint64_t)(uintptr_t)up;
	t.nr_uprobes = s->end ? 2 : 1;
	t.uprobe_size = sizeof(up[0]);
	i = ioctl(fd, KSTATS_IOC_TRACE, &t);
	return i ? -errno : 0;
}

static void untrace_self(int fd, const char *name)
{
	struct kstats_untrace u = { 0 };

	snprintf((char *)u.name, sizeof(u.name), "%s", name);
	ioctl(fd, KSTATS_IOC_UNTRACE, &u);
}

static int u64_cmp(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/* The median of @name's samples, each taken as its slot's mean; 0 if none. */
static uint64_t median(int fd, const char *name)
{
	uint64_t v[UCOST_CALLS], med = 0;
	struct ks_metric m = { 0 };
	uint32_t i, n = 0, c;

	if (ks_snapshot_live(fd, name, &m, true))
		return 0;
	for (i = 0; i < m.nr_slots; i++) {
		const struct kstats_snap_slot *sl = &m.slots[i];
		uint64_t mean = kstats_slot_mean(sl->slot, m.frac_bits, sl->count,
						 sl->part_sum);

		for (c = 0; c < sl->count && n < UCOST_CALLS; c++)
			v[n++] = mean;
	}
	if (n) {
		qsort(v, n, sizeof(v[0]), u64_cmp);
		med = v[n / 2];
	}
	ks_metric_free(&m);
	return med;
}

int ks_ucost_measure(int fd, bool section, struct ks_ucost *c)
{
	const struct ucost_site rec = { ks_ucost_fn0, section ? ks_ucost_fn3 : NULL },
		skip = { ks_ucost_fn1, section ? ks_ucost_fn4 : NULL },
		bare = { ks_ucost_fn2, section ? ks_ucost_fn5 : NULL };
	char rec_name[KSTATS_NAME_LEN], skip_name[KSTATS_NAME_LEN];
	int exe, err;

	memset(c, 0, sizeof(*c));
#ifndef __x86_64__
	return -EOPNOTSUPP;
#endif
	exe = open("/proc/self/exe", O_RDONLY | O_CLOEXEC);
	if (exe < 0)
		return -errno;
	snprintf(rec_name, sizeof(rec_name), "kstatsctl.ucost.%d", (int)gettid());
	snprintf(skip_name, sizeof(skip_name), "kstatsctl.ucost.%d.skip", (int)gettid());
	err = trace_self(fd, exe, rec_name, &rec, 1);
	if (!err) {
		err = trace_self(fd, exe, skip_name, &skip, KSTATS_TRACE_SAMPLE_MAX);
		if (err)
			untrace_self(fd, rec_name);
	}
	close(exe);
	if (err)
		return err;
	batch(&rec);
	c->floor_ns = median(fd, rec_name);
	c->call_ps = cost_ps(&rec, &bare);
	c->skip_ps = cost_ps(&skip, &bare);
	untrace_self(fd, rec_name);
	untrace_self(fd, skip_name);
	if (!c->floor_ns || !c->call_ps || !c->skip_ps)
		return -ERANGE;
	/* The module's bounds: a host that slow measures nothing usable. */
	if (c->floor_ns > KSTATS_TRACE_USER_COST_MAX ||
	    c->call_ps > (uint64_t)KSTATS_TRACE_USER_COST_MAX * 1000 ||
	    c->skip_ps > (uint64_t)KSTATS_TRACE_USER_COST_MAX * 1000)
		return -ERANGE;
	return 0;
}

int ks_ucost_fill(int fd, struct kstats_trace *t, bool section, struct ks_ucost *cache)
{
	struct kstats_info info;
	struct ks_ucost c;
	int err;

	if (ks_dev_info(fd, &info) || !(info.features & KSTATS_FEAT_UPROBE_COST)) {
		if (!t->budget_ppm)
			return 0;	/* floor and cost not known: show says so */
		ks_set_hint("update kstats (modinfo kstats shows the version loaded)");
		return ks_fail(EXIT_RUNTIME, NULL, "--budget: this kstats module cannot govern "
			       "a user-space function (it takes no measured cost)");
	}
	if (cache && cache->call_ps) {
		c = *cache;
	} else {
		err = ks_ucost_measure(fd, section, &c);
		if (err) {
			if (!t->budget_ppm)
				return 0;
			ks_set_hint("trace without --budget: every call is recorded");
			return ks_fail(EXIT_RUNTIME, NULL, "--budget: what a uprobe costs here "
				       "could not be measured: %s", strerror(-err));
		}
		if (cache)
			*cache = c;
	}
	t->user_floor_ns = c.floor_ns;
	t->user_call_ps = c.call_ps;
	t->user_skip_ps = c.skip_ps;
	return 0;
}

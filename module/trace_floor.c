// SPDX-License-Identifier: GPL-2.0
/*
 * The probe floor: what a mechanism reports for an empty function (or an
 * empty section), measured at every TRACE on probes of kstats' own, and
 * the calibration of what a call costs (governor.c) on the same functions.
 */
#include <linux/kprobes.h>
#include <linux/mutex.h>
#include <linux/slab.h>
#include <linux/sort.h>

#include "trace.h"

#define KSTATS_FLOOR_CALLS	64

/*
 * The empty functions the probe floor is measured on: one per mechanism,
 * so that a floor probe never sits on another's function and a floor is the
 * same whatever was traced before. Not inlined, cloned or notrace: probed
 * exactly like a target. The bodies differ so that the compiler cannot fold
 * them into one function.
 */
static noinline __noclone void kstats_floor_fprobe(void)
{
	asm volatile("nop");
}

static noinline __noclone void kstats_floor_kretprobe(void)
{
	asm volatile("nop; nop");
}

static noinline __noclone void kstats_floor_start(void)
{
	asm volatile("nop; nop; nop");
}

static noinline __noclone void kstats_floor_end(void)
{
	asm volatile("nop; nop; nop; nop");
}

/* Probed by nothing: what a call costs without kstats (governor.c). */
noinline __noclone void kstats_floor_call_bare(void)
{
	asm volatile("nop; nop; nop; nop; nop");
}

static int kstats_u64_cmp(const void *a, const void *b)
{
	u64 x = *(const u64 *)a, y = *(const u64 *)b;

	return x < y ? -1 : x > y;
}

/*
 * One probe per mode and mechanism on the empty functions, attached at the
 * first trace that needs it and kept until kstats unloads (fprobe's until
 * the last fprobe trace goes: kstats_floor_fprobe_put()): it costs nothing
 * while they are not called, and measuring the floor then patches no code.
 * Under kstats_trace_lock.
 */
static struct kstats_probe *kstats_floor_probes[2][KSTATS_MECH_TRACEPOINT + 1];
/* A point's: its handler run directly, as a tracepoint pair's (no floor: no duration). */
static struct kstats_probe *kstats_floor_point;

/* kstats is unloading: a probe the kernel keeps is never freed (see exit). */
static void kstats_floor_probe_free(struct kstats_probe *p)
{
	if (p->mech != KSTATS_MECH_TRACEPOINT && kstats_detach_retrying(p))
		return;
	kstats_free_bare(p->time);
	kstats_probe_free(p);
}

static struct kstats_probe *kstats_floor_probe(u32 mode, u32 mech, bool point)
{
	struct kstats_probe **slot = point ? &kstats_floor_point :
				     &kstats_floor_probes[mode][mech], *p = *slot;
	int err = 0;

	lockdep_assert_held(&kstats_trace_lock);
	if (p)
		return p;
	p = kstats_probe_alloc();
	if (!p)
		return NULL;
	p->mode = mode;
	p->mech = mech;
	p->point = point;
	p->time = kstats_alloc_bare(KSTATS_FRAC_BITS_MAX);
	if (!p->time) {
		kstats_probe_free(p);
		return NULL;
	}
	if (point) {
		/* Nothing attached: kstats_floor_call() runs its handler. */
	} else if (mech == KSTATS_MECH_TRACEPOINT) {
		err = kstats_pair_init(p);
	} else if (mode == KSTATS_MODE_SECTION) {
		p->addr[0] = (unsigned long)kstats_floor_start;
		p->addr[1] = (unsigned long)kstats_floor_end;
		err = kstats_pair_attach(p, NULL, NULL);
	} else {
		err = kstats_func_attach(p, mech == KSTATS_MECH_FPROBE ?
					 (unsigned long)kstats_floor_fprobe :
					 (unsigned long)kstats_floor_kretprobe, 0);
	}
	if (err) {
		kstats_free_bare(p->time);
		kstats_probe_free(p);
		return NULL;
	}
	*slot = p;
	return p;
}

/*
 * The fprobe floor probe goes with the last attached fprobe trace (@gone,
 * just removed or detached, may be it). From
 * 6.14 fprobe runs on the function graph, and there any fprobe with an exit
 * handler can make the function_graph tracer on other functions warn
 * (fprobe_return finds no data for their frames: Debian's 7.3.4, with the
 * kernel's own fprobe events too), so kstats holds none it does not use.
 * Refused (no memory), it stays until the next chance, or kstats unloads.
 */
void kstats_floor_fprobe_put(struct kstats_probe *gone)
{
	struct kstats_probe **slot = &kstats_floor_probes[KSTATS_MODE_FUNC][KSTATS_MECH_FPROBE];
	struct kstats_probe *p;

	lockdep_assert_held(&kstats_trace_lock);
	if (gone->mech != KSTATS_MECH_FPROBE || !*slot)
		return;
	list_for_each_entry(p, &kstats_probes, node)
		if (p->mech == KSTATS_MECH_FPROBE && !p->detached)
			return;
	if (kstats_func_detach(*slot))
		return;
	synchronize_rcu();
	kstats_free_bare((*slot)->time);
	kstats_probe_free(*slot);
	*slot = NULL;
}

/* One call of the empty function (or section, or point) floor probe @floor is on. */
void kstats_floor_call(struct kstats_probe *floor)
{
	u32 mode = floor->mode, mech = floor->mech;

	if (floor->point)
		kstats_point_run_empty(floor);
	else if (mech == KSTATS_MECH_TRACEPOINT)
		kstats_pair_run_empty(floor);
	else if (mode == KSTATS_MODE_SECTION)
		kstats_floor_start(), kstats_floor_end();
	else if (mech == KSTATS_MECH_FPROBE)
		kstats_floor_fprobe();
	else
		kstats_floor_kretprobe();
}

/*
 * The probe floor: the median of what the same mechanism reports for an
 * empty function (or an empty section), called back to back, now. Then
 * what a call costs in all (governor.c) on those same functions. A point
 * times nothing, so it has no floor (0), only its cost.
 */
u64 kstats_measure_floor(struct kstats_probe *trace)
{
	struct kstats_probe *p = kstats_floor_probe(trace->mode, trace->mech, trace->point);
	struct kstats_copy *copy = NULL;
	u64 *vals, floor = 0;
	u32 n = 0, i;

	if (!p)
		return 0;
	kstats_clear(p->time);
	for (i = 0; i < KSTATS_FLOOR_CALLS && !trace->point; i++)
		kstats_floor_call(p);
	/* Each sample is taken as its slot's mean: within 1/32 of it. */
	if (!trace->point)
		copy = kstats_copy_bare(p->time, U32_MAX, NULL);
	if (IS_ERR(copy))
		copy = NULL;
	vals = copy ? kcalloc(KSTATS_FLOOR_CALLS, sizeof(*vals), GFP_KERNEL) : NULL;
	for (i = 0; vals && i < copy->nr_slots; i++) {
		struct kstats_snap_slot *sl = &copy->slots[i];
		u64 c, mean = kstats_slot_mean(sl->slot, KSTATS_FRAC_BITS_MAX,
					       sl->count, sl->part_sum);

		for (c = 0; c < sl->count && n < KSTATS_FLOOR_CALLS; c++)
			vals[n++] = mean;
	}
	if (n) {
		sort(vals, n, sizeof(*vals), kstats_u64_cmp, NULL);
		floor = vals[n / 2];
	}
	kfree(vals);
	kstats_copy_free(copy);
	kstats_gov_calibrate(trace, p);
	return floor;
}

/* kstats unloads: every floor probe goes (or, kept by the kernel, leaks). */
void kstats_floors_free(void)
{
	u32 mode, mech;

	for (mode = 0; mode < ARRAY_SIZE(kstats_floor_probes); mode++)
		for (mech = 0; mech < ARRAY_SIZE(kstats_floor_probes[0]); mech++)
			if (kstats_floor_probes[mode][mech])
				kstats_floor_probe_free(kstats_floor_probes[mode][mech]);
	if (kstats_floor_point)
		kstats_floor_probe_free(kstats_floor_point);
}

/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kstats: per-CPU log-linear histograms of 64-bit samples, for kernel code.
 *
 *	static struct kstats *ks;
 *
 *	ks = kstats_new("mydrv_xmit", 3);	// in module init
 *	if (IS_ERR(ks))
 *		return PTR_ERR(ks);
 *	...
 *	u64 t0 = ktime_get_ns();
 *	<code to measure>
 *	kstats_record(ks, ktime_get_ns() - t0);
 *	...
 *	kstats_delete(ks);			// in module exit
 *
 * The metric shows up in /sys/kernel/debug/kstats/<name> and /dev/kstats.
 * Build against kstats' Module.symvers (KBUILD_EXTRA_SYMBOLS) and put
 * MODULE_IMPORT_NS_KSTATS() in your module.
 */
#ifndef _LINUX_KSTATS_H
#define _LINUX_KSTATS_H

#include <linux/types.h>
#include <linux/compiler.h>
#include <linux/module.h>
#include <linux/percpu.h>
#include <linux/math64.h>

#define kstats_div64(a, b)	div64_u64(a, b)
#include "../kstats_hist.h"

/* Longest metric name, without the terminating NUL. */
#define KSTATS_NAME_MAX		63

/*
 * Imports the KSTATS symbol namespace. The namespace is spelled as a string
 * in .modinfo on every kernel, so writing the modinfo entry directly works
 * whether the kernel's MODULE_IMPORT_NS() takes an identifier (<= 6.12) or
 * a string literal (6.13+).
 */
#define MODULE_IMPORT_NS_KSTATS()	MODULE_INFO(import_ns, "KSTATS")

/* One histogram slot. Count and part sum share a cache line (16-aligned). */
struct kstats_slot {
	u64 count;
	u64 part_sum;	/* see kstats_hist.h: scaled offsets from the slot low */
} __aligned(16);

/*
 * The part of a metric that kstats_record() reads. Only kstats.ko writes it;
 * everything else about a metric is private to kstats.ko.
 */
struct kstats {
	unsigned int active;		/* recording on/off: READ_ONCE'd */
	unsigned int frac_bits;
	struct kstats_slot __percpu *slots;
	unsigned int unit;		/* 1 << frac_bits, for the record path */
};

struct module;
struct kstats *__kstats_new(const char *name, u8 frac_bits,
			    struct module *owner);

/**
 * kstats_new() - create a metric and start it
 * @name: 1 to %KSTATS_NAME_MAX characters of ASCII [A-Za-z0-9_.:-], unique,
 *	not ".", ".." or "_control"
 * @frac_bits: 0..5; each power of two is split into 2^@frac_bits slots
 *
 * Context: process context, may sleep.
 * Return: the metric, or ERR_PTR(-EINVAL) for a bad name or frac_bits,
 * -EEXIST if the name is taken, -ENOMEM. The calling module owns the metric:
 * if it is unloaded without kstats_delete(), kstats warns and deletes it.
 */
#define kstats_new(name, frac_bits)	__kstats_new(name, frac_bits, THIS_MODULE)

/**
 * kstats_delete() - remove a metric and free it
 * @ks: a metric from kstats_new(), or NULL / an ERR_PTR (ignored)
 *
 * The caller must make sure no kstats_record() on @ks runs or starts once
 * this is called, as with any object it frees.
 * Context: process context, may sleep.
 */
void kstats_delete(struct kstats *ks);

/**
 * kstats_start() - resume recording into @ks
 * @ks: the metric
 *
 * Context: any.
 */
void kstats_start(struct kstats *ks);

/**
 * kstats_stop() - stop recording into @ks; samples recorded so far are kept
 * @ks: the metric
 *
 * A stopped metric costs kstats_record() one load and a branch. A record
 * already past that check when stop is called still lands.
 * Context: any.
 */
void kstats_stop(struct kstats *ks);

/**
 * kstats_reset() - empty every slot of @ks on every CPU
 * @ks: the metric
 *
 * Each CPU clears its own slots, with interrupts off, so a record on that CPU
 * lands entirely before or after the clear, except a record interrupted
 * between its two adds (at most one per context: task, softirq, hardirq,
 * NMI): its count may survive without its part sum or the other way round.
 * So right after a reset each slot's count and part sum agree up to the
 * samples that were in flight, and none recorded before the reset remains.
 * Context: process context, may sleep (it waits for every CPU).
 */
void kstats_reset(struct kstats *ks);

/**
 * kstats_record() - add one sample to @ks
 * @ks: the metric
 * @value: the sample, usually nanoseconds; any u64
 *
 * No locks, no locked atomics, no calls (make check disassembles it): safe
 * in any context, NMI included. Each per-CPU add is one instruction, so it
 * needs no preemption guard; a task preempted and migrated between the two
 * adds (a window of one instruction) leaves its count in one CPU's slot and
 * its part sum in another's. So one CPU's count and part sum of a slot need
 * not match; folded over all CPUs they are exact once no record is in
 * flight, and a per-CPU mean is clamped to its slot when read
 * (kstats_slot_part_clamp()). The preempt_enable() a guard would need may
 * call the scheduler, which is what this path must never do.
 */
static __always_inline void kstats_record(struct kstats *ks, u64 value)
{
	struct kstats_slot __percpu *slot;
	u64 part;

	if (!READ_ONCE(ks->active))
		return;
	slot = ks->slots + kstats_hist_index(value, ks->frac_bits, ks->unit, &part);
	this_cpu_add(slot->count, 1);
	this_cpu_add(slot->part_sum, part);
}

#endif /* _LINUX_KSTATS_H */

// SPDX-License-Identifier: GPL-2.0
/*
 * kstats record-path benchmark, run by `make bench` in the VM. Loading it
 * runs every measurement and prints one "kstats_bench:" line per figure;
 * it then refuses to stay loaded (-EAGAIN), so nothing is left behind.
 *
 * Each figure is the best of several rounds (the least disturbed by
 * interrupts and other vCPUs), in ns per call including the loop.
 */
#include <linux/kstats.h>
#include <linux/ktime.h>
#include <linux/module.h>
#include <linux/random.h>
#include <linux/sched.h>
#include <linux/sched/clock.h>
#include <linux/slab.h>
#include <linux/timekeeping.h>

#define CALLS		200000
#define ROUNDS		7
#define COLD_METRICS	256

static struct kstats *cold[COLD_METRICS];

enum bench_kind { EMPTY, KTIME, MONO_FAST, LOCAL, HOT, STOPPED, COLD };

/*
 * kstats_record() alone, as every consumer inlines it: tests/record-path.sh
 * disassembles this function (no call, no lock prefix, one slot) and counts
 * its instructions.
 */
static noinline __used void kstats_record_site(struct kstats *ks, u64 value)
{
	kstats_record(ks, value);
}

static u64 run_once(enum bench_kind kind, struct kstats *hot, const u64 *vals)
{
	u64 t0, t1, sink = 0;
	unsigned int i;

	preempt_disable();
	t0 = ktime_get_ns();
	for (i = 0; i < CALLS; i++) {
		switch (kind) {
		case EMPTY:
			barrier();
			break;
		case KTIME:
			sink += ktime_get_ns();
			break;
		case MONO_FAST:		/* what kstats' probe handlers read */
			sink += ktime_get_mono_fast_ns();
			break;
		case LOCAL:		/* ftrace's default trace clock */
			sink += local_clock();
			break;
		case HOT:
		case STOPPED:
			kstats_record(hot, i & 1023);
			break;
		case COLD:
			kstats_record(cold[i % COLD_METRICS], vals[i & 1023]);
			break;
		}
	}
	t1 = ktime_get_ns();
	preempt_enable();
	OPTIMIZER_HIDE_VAR(sink);
	return t1 - t0;
}

/* Best round, in picoseconds per call. */
static u64 best_ps(enum bench_kind kind, struct kstats *hot, const u64 *vals)
{
	u64 best = U64_MAX;
	int r;

	for (r = 0; r < ROUNDS; r++) {
		best = min(best, run_once(kind, hot, vals));
		cond_resched();
	}
	return div_u64(best * 1000, CALLS);
}

static void print_ps(const char *what, u64 ps)
{
	pr_info("kstats_bench: %-22s %5llu.%03llu ns/call\n", what,
		ps / 1000, ps % 1000);
}

static int __init bench_init(void)
{
	u64 empty, ktime, mono_fast, local, hot_ps, stopped, cold_ps, *vals;
	struct kstats *hot;
	char name[32];
	int i, b, err = 0;

	vals = kmalloc_array(1024, sizeof(*vals), GFP_KERNEL);
	hot = kstats_new("bench.hot", 3);
	if (!vals || IS_ERR(hot)) {
		kfree(vals);
		return IS_ERR(hot) ? PTR_ERR(hot) : -ENOMEM;
	}
	/* Values spread over many slots, so the cold path misses too. */
	for (i = 0; i < 1024; i++)
		vals[i] = get_random_u32() >> (get_random_u32() % 32);
	for (i = 0; i < COLD_METRICS; i++) {
		snprintf(name, sizeof(name), "bench.cold%03d", i);
		cold[i] = kstats_new(name, 3);
		if (IS_ERR(cold[i])) {
			err = PTR_ERR(cold[i]);
			goto out;
		}
	}

	empty = best_ps(EMPTY, hot, vals);
	ktime = best_ps(KTIME, hot, vals);
	mono_fast = best_ps(MONO_FAST, hot, vals);
	local = best_ps(LOCAL, hot, vals);
	hot_ps = best_ps(HOT, hot, vals);
	cold_ps = best_ps(COLD, hot, vals);
	kstats_stop(hot);
	stopped = best_ps(STOPPED, hot, vals);

	print_ps("empty_loop", empty);
	print_ps("ktime_get_ns", ktime);
	print_ps("ktime_get_mono_fast_ns", mono_fast);
	print_ps("local_clock", local);
	print_ps("record_hot", hot_ps);
	print_ps("record_cold", cold_ps);
	print_ps("record_stopped", stopped);
	/* Ratios in thousandths, loop overhead included and excluded. */
	pr_info("kstats_bench: ratio_hot_over_ktime %llu/1000 (net of loop %llu/1000)\n",
		div64_u64(hot_ps * 1000, ktime),
		div64_u64(max(hot_ps, empty) * 1000 - empty * 1000,
			  max(ktime - empty, 1ULL)));
	pr_info("kstats_bench: ratio_cold_over_ktime %llu/1000\n",
		div64_u64(cold_ps * 1000, ktime));
	for (b = 0; b <= KSTATS_FRAC_BITS_MAX; b++)
		pr_info("kstats_bench: memory frac_bits=%d slots=%u bytes_per_cpu=%zu\n",
			b, kstats_hist_nslots(b),
			kstats_hist_nslots(b) * sizeof(struct kstats_slot));
	pr_info("kstats_bench: done\n");
out:
	while (i-- > 0)
		if (!IS_ERR_OR_NULL(cold[i]))
			kstats_delete(cold[i]);
	kstats_delete(hot);
	kfree(vals);
	return err;
}

static void __exit bench_exit(void)
{
}

module_init(bench_init);
module_exit(bench_exit);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("kstats record-path benchmark (runs at load)");
MODULE_IMPORT_NS_KSTATS();

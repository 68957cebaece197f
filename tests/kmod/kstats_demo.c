// SPDX-License-Identifier: GPL-2.0
/*
 * kstats demo: times real kernel work at load so `make demo` has a real
 * distribution to show. demo.kmalloc: kmalloc + memset + kfree of random
 * sizes up to 64 KiB; demo.tick_sleep: sleeping one
 * timer tick, which shows the tick length and the wakeup latency.
 */
#include <linux/sched.h>
#include <linux/kstats.h>
#include <linux/ktime.h>
#include <linux/module.h>
#include <linux/random.h>
#include <linux/slab.h>

static struct kstats *kmalloc_ks, *tick_sleep_ks;

static int __init demo_init(void)
{
	unsigned int i;

	kmalloc_ks = kstats_new("demo.kmalloc", 3);
	if (IS_ERR(kmalloc_ks))
		return PTR_ERR(kmalloc_ks);
	tick_sleep_ks = kstats_new("demo.tick_sleep", 3);
	if (IS_ERR(tick_sleep_ks)) {
		kstats_delete(kmalloc_ks);
		return PTR_ERR(tick_sleep_ks);
	}
	for (i = 0; i < 20000; i++) {
		size_t size = 1 + get_random_u32() % (64 << 10);
		u64 t0 = ktime_get_ns();
		void *p = kmalloc(size, GFP_KERNEL);

		if (p)
			memset(p, 0, size);
		kfree(p);
		kstats_record(kmalloc_ks, ktime_get_ns() - t0);
		if (!(i & 255))
			cond_resched();
	}
	for (i = 0; i < 100; i++) {
		u64 t0 = ktime_get_ns();

		schedule_timeout_uninterruptible(1);
		kstats_record(tick_sleep_ks, ktime_get_ns() - t0);
	}
	return 0;
}

static void __exit demo_exit(void)
{
	kstats_delete(tick_sleep_ks);
	kstats_delete(kmalloc_ks);
}

module_init(demo_init);
module_exit(demo_exit);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("kstats demo: times kmalloc and a one-tick sleep");
MODULE_IMPORT_NS_KSTATS();

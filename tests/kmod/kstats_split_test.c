// SPDX-License-Identifier: GPL-2.0
/*
 * Split slots on purpose. kstats_record() has no preemption guard, so a
 * task migrated between its two adds leaves the count on one CPU and the
 * part sum on another. That window is one instruction wide: rather than
 * wait for it, this module writes such splits straight into the per-CPU
 * slots of metric splittest.m (frac_bits 3, created empty), so that
 * tests/guest/split-tests.sh can check every reader against exact means.
 *
 * Each write of "add" to /sys/kernel/debug/kstats_split_test/ctl adds 10
 * samples, sum 6802 (mean 680.2); each slot holds one value, so its mean is
 * exact:
 *  - 3 x 1000, slot [960, 1024), part 40: the counts on CPU A, the part
 *    sum (120) on CPU B, where that slot has no count;
 *  - 2 x 1151, slot [1024, 1152), part 127: a count on each of A and B,
 *    both parts (254) on B, whose own mean would be 1278 unclamped;
 *  - 100, 200, 300, 400, 500 through kstats_record().
 * And to splittest.wide (frac_bits 3), 17 x 2^64 - 1 (the top slot, 2^60
 * wide, part 4095 in units of 2^48): 16 counted on A, 1 on B, all 17 parts
 * on B. B's own mean must be the slot's top, not what 17 x 4095 units
 * shifted left by 48 wrap to.
 * A and B are the first two possible CPUs: loading needs two.
 */
#include <linux/cpumask.h>
#include <linux/debugfs.h>
#include <linux/kstats.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/uaccess.h>

#define SPLIT_BITS	3

static struct kstats *ks, *wide;
static struct dentry *dir;
static DEFINE_MUTEX(ctl_lock);		/* the only writer of the slots */
static int cpu_a, cpu_b;

/* Adds @count samples of @value to CPU @cc's slot and their part to @cp's. */
static void split_add(struct kstats *m, u64 value, u64 count, int cc, int cp)
{
	struct kstats_slot *sc, *sp;
	u64 part;
	u32 s = kstats_hist_locate(value, SPLIT_BITS, &part);

	sc = per_cpu_ptr(m->slots, cc) + s;
	sp = per_cpu_ptr(m->slots, cp) + s;
	/* Readers READ_ONCE() each field: whole stores, never torn. */
	WRITE_ONCE(sc->count, sc->count + count);
	WRITE_ONCE(sp->part_sum, sp->part_sum + count * part);
}

static void split_round(void)
{
	u64 v;

	split_add(ks, 1000, 3, cpu_a, cpu_b);
	split_add(ks, 1151, 1, cpu_a, cpu_b);
	split_add(ks, 1151, 1, cpu_b, cpu_b);
	for (v = 100; v <= 500; v += 100)
		kstats_record(ks, v);
	split_add(wide, U64_MAX, 16, cpu_a, cpu_b);
	split_add(wide, U64_MAX, 1, cpu_b, cpu_b);
}

static ssize_t ctl_write(struct file *file, const char __user *ubuf,
			 size_t len, loff_t *ppos)
{
	char buf[8];

	if (len >= sizeof(buf))
		return -EINVAL;
	if (copy_from_user(buf, ubuf, len))
		return -EFAULT;
	buf[len] = '\0';
	if (strcmp(strim(buf), "add"))
		return -EINVAL;
	mutex_lock(&ctl_lock);
	split_round();
	mutex_unlock(&ctl_lock);
	return len;
}

static const struct file_operations ctl_fops = {
	.owner = THIS_MODULE,
	.write = ctl_write,
};

static int __init split_test_init(void)
{
	cpu_a = cpumask_first(cpu_possible_mask);
	cpu_b = cpumask_next(cpu_a, cpu_possible_mask);
	if (cpu_b >= nr_cpu_ids) {
		pr_err("kstats_split_test: needs two possible CPUs\n");
		return -ENODEV;
	}
	ks = kstats_new("splittest.m", SPLIT_BITS);
	if (IS_ERR(ks))
		return PTR_ERR(ks);
	wide = kstats_new("splittest.wide", SPLIT_BITS);
	if (IS_ERR(wide)) {
		kstats_delete(ks);
		return PTR_ERR(wide);
	}
	dir = debugfs_create_dir("kstats_split_test", NULL);
	debugfs_create_file("ctl", 0200, dir, NULL, &ctl_fops);
	return 0;
}

static void __exit split_test_exit(void)
{
	debugfs_remove(dir);
	kstats_delete(wide);
	kstats_delete(ks);
}

module_init(split_test_init);
module_exit(split_test_exit);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("kstats: slots whose count and part sum are on different CPUs");
MODULE_IMPORT_NS_KSTATS();

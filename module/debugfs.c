// SPDX-License-Identifier: GPL-2.0
/*
 * debugfs kstats/NAME: the original patch's text view, kept so its scripts
 * and gnuplot one-liners keep working. For every non-empty slot, one line
 * per CPU with samples in it, then a CPUS line for all CPUs:
 *
 *   slot 55  CPU  0    count      589 avg      480 p 0.027613
 *   slot 55  CPUS 28   count      814 avg      480 p 0.002474
 *
 * p is the cumulative fraction of samples up to and including the slot, for
 * that CPU or for all. Writing start, stop or reset (any case) does that.
 */
#include <linux/debugfs.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/uaccess.h>

#include "metric.h"

static struct dentry *kstats_dir;

/* Prints num/den as 0.xxxxxx (or 1.000000) without floating point. */
static void kstats_seq_fraction(struct seq_file *sf, u64 num, u64 den)
{
	u64 micro = den ? mul_u64_u64_div_u64(num, 1000000, den) : 0;
	u32 frac;
	u64 whole = div_u64_rem(micro, 1000000, &frac);

	seq_printf(sf, " p %llu.%06u\n", whole, frac);
}

static void kstats_seq_slot_line(struct seq_file *sf, u32 slot, const char *who,
				 u32 cpu, u32 frac_bits, u64 count, u64 part_sum)
{
	seq_printf(sf, "slot %-3u %s%3u %*scount %8llu avg %8llu", slot, who, cpu,
		   who[3] ? 2 : 3, "", count,
		   kstats_slot_mean(slot, frac_bits, count, part_sum));
}

static int kstats_view_show(struct seq_file *sf, void *unused)
{
	struct kstats_metric *m = sf->private;
	struct kstats_copy *c = kstats_copy_take(m);
	u64 *cpu_total, *cpu_cum, total = 0, cum = 0;
	u32 s, r;

	if (!c)
		return -ENOMEM;
	cpu_total = kcalloc(2 * (size_t)c->nr_rows, sizeof(u64), GFP_KERNEL);
	if (!cpu_total) {
		kstats_copy_free(c);
		return -ENOMEM;
	}
	cpu_cum = cpu_total + c->nr_rows;
	for (r = 0; r < c->nr_rows; r++)
		for (s = 0; s < c->nslots; s++)
			cpu_total[r] += c->slots[(size_t)r * c->nslots + s].count;
	for (r = 0; r < c->nr_rows; r++)
		total += cpu_total[r];

	for (s = 0; s < c->nslots; s++) {
		u64 count = 0, part_sum = 0;

		for (r = 0; r < c->nr_rows; r++) {
			struct kstats_slot *sl = &c->slots[(size_t)r * c->nslots + s];

			if (!sl->count)
				continue;
			count += sl->count;
			part_sum += sl->part_sum;
			cpu_cum[r] += sl->count;
			kstats_seq_slot_line(sf, s, "CPU", c->cpu[r], c->frac_bits,
					     sl->count, sl->part_sum);
			kstats_seq_fraction(sf, cpu_cum[r], cpu_total[r]);
		}
		if (!count)
			continue;
		cum += count;
		kstats_seq_slot_line(sf, s, "CPUS", c->nr_rows, c->frac_bits,
				     count, part_sum);
		kstats_seq_fraction(sf, cum, total);
	}
	kfree(cpu_total);
	kstats_copy_free(c);
	return 0;
}

static int kstats_view_open(struct inode *inode, struct file *file)
{
	return single_open(file, kstats_view_show, inode->i_private);
}

static ssize_t kstats_view_write(struct file *file, const char __user *ubuf,
				 size_t len, loff_t *ppos)
{
	struct kstats_metric *m = file_inode(file)->i_private;
	char buf[16];
	char *cmd;

	if (len >= sizeof(buf))
		return -EINVAL;
	if (copy_from_user(buf, ubuf, len))
		return -EFAULT;
	buf[len] = '\0';
	cmd = strim(buf);
	if (!strcasecmp(cmd, "start"))
		kstats_start(&m->ks);
	else if (!strcasecmp(cmd, "stop"))
		kstats_stop(&m->ks);
	else if (!strcasecmp(cmd, "reset"))
		kstats_reset(&m->ks);
	else
		return -EINVAL;
	return len;
}

static const struct file_operations kstats_view_fops = {
	.owner = THIS_MODULE,
	.open = kstats_view_open,
	.read = seq_read,
	.llseek = seq_lseek,
	.release = single_release,
	.write = kstats_view_write,
};

void kstats_debugfs_add(struct kstats_metric *m)
{
	m->dentry = debugfs_create_file(m->name, 0644, kstats_dir, m,
					&kstats_view_fops);
}

void kstats_debugfs_remove(struct kstats_metric *m)
{
	debugfs_remove(m->dentry);
	m->dentry = NULL;
}

int kstats_debugfs_init(void)
{
	kstats_dir = debugfs_create_dir("kstats", NULL);
	return 0;
}

void kstats_debugfs_exit(void)
{
	debugfs_remove(kstats_dir);
}

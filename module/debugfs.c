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
 * that CPU or for all. A CPUS line's avg is exact once no record is in
 * flight; a CPU line's is inside the slot, but its count and part sum may
 * be split across CPUs (see kstats_record()). Writing start, stop or reset
 * (any case) does that.
 */
#include <linux/debugfs.h>
#include <linux/mm.h>
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

/*
 * A CPU number of 100 or more gets a space of its own: "CPUS240" would
 * shift every column after it (the original recipes split on whitespace).
 */
static void kstats_seq_slot_line(struct seq_file *sf, u32 slot, const char *who,
				 u32 cpu, u32 frac_bits, u64 count, u64 part_sum)
{
	seq_printf(sf, "slot %-3u %s%s%3u %*scount %8llu avg %8llu", slot, who,
		   cpu >= 100 ? " " : "", cpu, who[3] ? 2 : 3, "", count,
		   kstats_slot_mean(slot, frac_bits, count, part_sum));
}

/* A CPU with samples, as the view walks its slots in order. */
struct kstats_view_row {
	u32 next, end;			/* its entries in the copy's slots */
	u64 count, cum;			/* its samples, and up to this slot */
};

static int kstats_view_show(struct seq_file *sf, void *unused)
{
	struct kstats_copy *c = sf->private;
	struct kstats_view_row *rows;
	u32 s, r, nr = 0, first = 0;
	u64 total = 0, cum = 0;

	/* Only the CPUs with samples: memory in proportion to the output. */
	for (r = 0; r < c->nr_rows; r++)
		nr += !!c->rows[r].nr_slots;
	rows = kvcalloc(nr ?: 1, sizeof(*rows), GFP_KERNEL_ACCOUNT);
	if (!rows)
		return -ENOMEM;
	for (r = 0, nr = 0; r < c->nr_rows; r++) {
		u32 n = c->rows[r].nr_slots;

		total += c->rows[r].count;
		if (n)
			rows[nr++] = (struct kstats_view_row){
				.next = first, .end = first + n,
				.count = c->rows[r].count,
			};
		first += n;
	}
	for (s = 0; s < c->nslots; s++) {
		u64 count = 0, part_sum = 0;

		for (r = 0; r < nr; r++) {
			struct kstats_view_row *row = &rows[r];
			struct kstats_snap_slot *sl = &c->slots[row->next];

			if (row->next == row->end || sl->slot != s)
				continue;
			row->next++;
			/*
			 * A part sum without a count here belongs to samples
			 * counted on another CPU (a migration between the
			 * record's two adds): it counts in the CPUS line.
			 */
			count += sl->count;
			part_sum += sl->part_sum;
			if (!sl->count)
				continue;
			row->cum += sl->count;
			kstats_seq_slot_line(sf, s, "CPU", sl->cpu, c->frac_bits,
					     sl->count, sl->part_sum);
			kstats_seq_fraction(sf, row->cum, row->count);
		}
		if (!count)
			continue;
		cum += count;
		kstats_seq_slot_line(sf, s, "CPUS", c->nr_rows, c->frac_bits,
				     count, part_sum);
		kstats_seq_fraction(sf, cum, total);
	}
	kvfree(rows);
	return 0;
}

/*
 * The copy is taken once, at open: when seq_file doubles its buffer and
 * prints again, it reprints the same copy.
 */
static int kstats_view_open(struct inode *inode, struct file *file)
{
	struct kstats_metric *m = inode->i_private;
	struct kstats_copy *c = kstats_copy_take(m, U32_MAX, NULL);
	int err;

	if (IS_ERR_OR_NULL(c))
		return c ? PTR_ERR(c) : -ENOMEM;
	err = single_open(file, kstats_view_show, c);
	if (err)
		kstats_copy_free(c);
	return err;
}

static int kstats_view_release(struct inode *inode, struct file *file)
{
	kstats_copy_free(((struct seq_file *)file->private_data)->private);
	return single_release(inode, file);
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
	.release = kstats_view_release,
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
	kstats_control_init(kstats_dir);
	return 0;
}

void kstats_debugfs_exit(void)
{
	debugfs_remove(kstats_dir);
}

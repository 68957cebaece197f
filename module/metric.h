/* SPDX-License-Identifier: GPL-2.0 */
/* What kstats.ko knows about a metric beyond what kstats_record() reads. */
#ifndef KSTATS_METRIC_H
#define KSTATS_METRIC_H

#include <linux/kref.h>
#include <linux/list.h>
#include <linux/kstats.h>

struct dentry;

struct kstats_metric {
	struct kstats ks;		/* what the record path reads */
	char name[KSTATS_NAME_MAX + 1];
	struct module *owner;		/* creating module, or NULL */
	struct list_head node;		/* in the registry, under kstats_lock */
	struct dentry *dentry;		/* debugfs view */
	struct kref ref;		/* registry + readers */
};

/* A copy of a metric's slots, one row of nslots per possible CPU. */
struct kstats_copy {
	u32 frac_bits;
	u32 nslots;
	u32 nr_rows;
	u32 *cpu;			/* CPU number of each row */
	struct kstats_slot *slots;	/* [nr_rows][nslots] */
};

static inline struct kstats_metric *to_metric(struct kstats *ks)
{
	return container_of(ks, struct kstats_metric, ks);
}

int kstats_name_check(const char *name);
void kstats_metric_get(struct kstats_metric *m);
void kstats_metric_put(struct kstats_metric *m);
struct kstats_copy *kstats_copy_take(struct kstats_metric *m);
void kstats_copy_free(struct kstats_copy *copy);
void kstats_delete_owned_by(struct module *mod);
void kstats_delete_all(void);

int kstats_debugfs_init(void);
void kstats_debugfs_exit(void);
void kstats_debugfs_add(struct kstats_metric *m);
void kstats_debugfs_remove(struct kstats_metric *m);

#endif /* KSTATS_METRIC_H */

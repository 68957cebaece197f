/* SPDX-License-Identifier: GPL-2.0 */
/* What kstats.ko knows about a metric beyond what kstats_record() reads. */
#ifndef KSTATS_METRIC_H
#define KSTATS_METRIC_H

#include <linux/kref.h>
#include <linux/list.h>
#include <linux/kstats.h>
#include <uapi/linux/kstats.h>

struct dentry;
struct file;
struct kstats_probe;

struct kstats_metric {
	struct kstats ks;		/* what the record path reads */
	char name[KSTATS_NAME_MAX + 1];
	u32 kind;			/* KSTATS_KIND_* */
	bool autoremove;		/* unlinked when @creator closes */
	struct module *module;		/* creating module (KIND_MODULE) */
	struct file *creator;		/* creating /dev/kstats file, or NULL */
	char owner[KSTATS_NAME_MAX + 1]; /* module name, comm, or target */
	pid_t owner_pid;		/* creator's tgid; -1 for modules */
	uid_t owner_uid;		/* creator's uid (initial namespace) */
	struct list_head node;		/* in kstats_metrics, under kstats_lock */
	struct dentry *dentry;		/* debugfs view */
	struct kref ref;		/* registry + users in flight */
	struct kstats_probe *probe;	/* its trace, under kstats_trace_lock */
	u64 resumed_ns;			/* kstats_probe_now() at the last start */
	bool detached;			/* its trace detached (module gone, governor) */
	bool sampled;			/* its trace records 1 call in N */
	bool value;			/* holds a traced value, not a time */
	u64 generation;			/* new at creation and every reset */
	bool registered;		/* in kstats_metrics (a key's: once seen) */
};

/* Who creates a metric: the fields of struct kstats_metric it fills. */
struct kstats_origin {
	u32 kind;
	struct module *module;
	struct file *creator;
	bool autoremove;
	bool value;			/* traces: a value, not a time */
	const char *owner;		/* traces: what is traced */
};

/* A copy of a metric's non-empty slots, laid out as SNAPSHOT returns it. */
struct kstats_copy {
	u32 frac_bits;
	u32 nslots;			/* of a CPU's histogram */
	u32 nr_rows;			/* possible CPUs */
	u32 nr_slots, max_slots;	/* in @slots, and room there */
	struct kstats_snap_cpu *rows;	/* [nr_rows], ascending CPU */
	struct kstats_snap_slot *slots;	/* [nr_slots], CPU then slot order */
};

static inline struct kstats_metric *to_metric(struct kstats *ks)
{
	return container_of(ks, struct kstats_metric, ks);
}

/* The registry: every metric, by name. */
extern struct list_head kstats_metrics;
int kstats_registry_lock(void);		/* killable: 0 or -EINTR */
void kstats_registry_unlock(void);
struct kstats_metric *kstats_find(const char *name);	/* registry locked */
void kstats_unlink(struct kstats_metric *m);		/* registry locked */
struct kstats_metric *kstats_get_by_name(const char *name);
void kstats_file_closed(struct file *file);

int kstats_name_check(const char *name);
int kstats_lookup_name_check(const char *name);
struct kstats_metric *kstats_metric_new(const char *name, u32 frac_bits,
					const struct kstats_origin *origin);
struct kstats_metric *kstats_metric_alloc(u32 frac_bits, const struct kstats_origin *origin);
int kstats_metric_register(struct kstats_metric *m, const char *name);
void kstats_metric_get(struct kstats_metric *m);
void kstats_metric_put(struct kstats_metric *m);
u64 kstats_metric_count(struct kstats_metric *m);
u32 kstats_metric_flags(struct kstats_metric *m);
void kstats_metric_delete(struct kstats_metric *m);
void kstats_metric_set_probe(struct kstats_metric *m, struct kstats_probe *p);

/* Histograms outside the registry (the probe floor). */
struct kstats *kstats_alloc_bare(u32 frac_bits);
void kstats_clear(struct kstats *ks);
void kstats_free_bare(struct kstats *ks);
u32 kstats_count_used(struct kstats *ks);
struct kstats_copy *kstats_copy_bare(struct kstats *ks, u32 max_slots, u32 *needed);
struct kstats_copy *kstats_copy_take(struct kstats_metric *m, u32 max_slots, u32 *needed);
void kstats_copy_free(struct kstats_copy *copy);
void kstats_delete_owned_by(struct module *mod);
void kstats_delete_all(void);

int kstats_dev_init(void);
bool kstats_dev_file(struct file *file);
void kstats_dev_exit(void);

int kstats_debugfs_init(void);
/* debugfs kstats/_control (control.c): no metric may take its name. */
#define KSTATS_CONTROL_NAME	"_control"
void kstats_control_init(struct dentry *dir);
void kstats_debugfs_exit(void);
void kstats_debugfs_add(struct kstats_metric *m);
void kstats_debugfs_remove(struct kstats_metric *m);

#endif /* KSTATS_METRIC_H */

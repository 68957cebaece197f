// SPDX-License-Identifier: GPL-2.0
/*
 * Metrics: creation, the name registry, start/stop/reset, copies for
 * readers, and deletion.
 */
#include <linux/cpu.h>
#include <linux/ctype.h>
#include <linux/err.h>
#include <linux/mutex.h>
#include <linux/slab.h>
#include <linux/smp.h>
#include <linux/string.h>

#include "compat.h"
#include "metric.h"

static DEFINE_MUTEX(kstats_lock);	/* the registry: kstats_metrics */
static LIST_HEAD(kstats_metrics);

/* 1..KSTATS_NAME_MAX bytes of [A-Za-z0-9_.:-]: also a safe file name. */
int kstats_name_check(const char *name)
{
	size_t i, len = strnlen(name, KSTATS_NAME_MAX + 1);

	if (!len || len > KSTATS_NAME_MAX)
		return -EINVAL;
	for (i = 0; i < len; i++)
		if (!isalnum(name[i]) && !strchr("_.:-", name[i]))
			return -EINVAL;
	return 0;
}

static struct kstats_metric *kstats_find(const char *name)
{
	struct kstats_metric *m;

	lockdep_assert_held(&kstats_lock);
	list_for_each_entry(m, &kstats_metrics, node)
		if (!strcmp(m->name, name))
			return m;
	return NULL;
}

static void kstats_metric_release(struct kref *ref)
{
	struct kstats_metric *m = container_of(ref, struct kstats_metric, ref);

	free_percpu(m->ks.slots);
	kfree(m);
}

void kstats_metric_get(struct kstats_metric *m)
{
	kref_get(&m->ref);
}

void kstats_metric_put(struct kstats_metric *m)
{
	kref_put(&m->ref, kstats_metric_release);
}

struct kstats *__kstats_new(const char *name, u8 frac_bits,
			    struct module *owner)
{
	struct kstats_metric *m;
	size_t size;
	int err;

	if (!name || kstats_name_check(name)) {
		pr_err("kstats: invalid metric name \"%.*s\"\n",
		       KSTATS_NAME_MAX + 1, name ?: "(null)");
		return ERR_PTR(-EINVAL);
	}
	if (frac_bits > KSTATS_FRAC_BITS_MAX) {
		pr_err("kstats: %s: frac_bits %u out of range 0..%u\n",
		       name, frac_bits, KSTATS_FRAC_BITS_MAX);
		return ERR_PTR(-EINVAL);
	}

	m = kzalloc(sizeof(*m), GFP_KERNEL);
	if (!m)
		return ERR_PTR(-ENOMEM);
	size = kstats_hist_nslots(frac_bits) * sizeof(struct kstats_slot);
	m->ks.slots = __alloc_percpu(size, __alignof__(struct kstats_slot));
	if (!m->ks.slots) {
		kfree(m);
		return ERR_PTR(-ENOMEM);
	}
	m->ks.frac_bits = frac_bits;
	m->ks.active = 1;
	m->owner = owner;
	strscpy(m->name, name, sizeof(m->name));
	kref_init(&m->ref);

	mutex_lock(&kstats_lock);
	if (kstats_find(name)) {
		err = -EEXIST;
		goto fail;
	}
	list_add_tail(&m->node, &kstats_metrics);
	kstats_debugfs_add(m);
	mutex_unlock(&kstats_lock);
	return &m->ks;

fail:
	mutex_unlock(&kstats_lock);
	kstats_metric_put(m);
	return ERR_PTR(err);
}
EXPORT_SYMBOL_NS_GPL(__kstats_new, KSTATS_NS);

/* Takes the metric out of the registry and drops the registry's reference. */
static void kstats_unlink(struct kstats_metric *m)
{
	lockdep_assert_held(&kstats_lock);
	list_del(&m->node);
	/* Waits for debugfs readers in flight. */
	kstats_debugfs_remove(m);
	kstats_metric_put(m);
}

void kstats_delete(struct kstats *ks)
{
	if (IS_ERR_OR_NULL(ks))
		return;
	mutex_lock(&kstats_lock);
	kstats_unlink(to_metric(ks));
	mutex_unlock(&kstats_lock);
}
EXPORT_SYMBOL_NS_GPL(kstats_delete, KSTATS_NS);

void kstats_delete_owned_by(struct module *mod)
{
	struct kstats_metric *m, *tmp;

	mutex_lock(&kstats_lock);
	list_for_each_entry_safe(m, tmp, &kstats_metrics, node) {
		if (m->owner != mod)
			continue;
		pr_warn("kstats: module %s unloaded without kstats_delete(\"%s\"); deleting it\n",
			mod->name, m->name);
		kstats_unlink(m);
	}
	mutex_unlock(&kstats_lock);
}

void kstats_delete_all(void)
{
	struct kstats_metric *m, *tmp;

	mutex_lock(&kstats_lock);
	list_for_each_entry_safe(m, tmp, &kstats_metrics, node)
		kstats_unlink(m);
	mutex_unlock(&kstats_lock);
}

void kstats_start(struct kstats *ks)
{
	WRITE_ONCE(ks->active, 1);
}
EXPORT_SYMBOL_NS_GPL(kstats_start, KSTATS_NS);

void kstats_stop(struct kstats *ks)
{
	WRITE_ONCE(ks->active, 0);
}
EXPORT_SYMBOL_NS_GPL(kstats_stop, KSTATS_NS);

static size_t kstats_row_size(struct kstats *ks)
{
	return kstats_hist_nslots(ks->frac_bits) * sizeof(struct kstats_slot);
}

/* Runs on each online CPU with interrupts off: see kstats_reset(). */
static void kstats_reset_local(void *info)
{
	struct kstats *ks = info;

	memset(this_cpu_ptr(ks->slots), 0, kstats_row_size(ks));
}

void kstats_reset(struct kstats *ks)
{
	int cpu;

	might_sleep();
	cpus_read_lock();
	on_each_cpu(kstats_reset_local, ks, 1);
	/* Offline CPUs record nothing: clear them from here. */
	for_each_possible_cpu(cpu)
		if (!cpu_online(cpu))
			memset(per_cpu_ptr(ks->slots, cpu), 0, kstats_row_size(ks));
	cpus_read_unlock();
}
EXPORT_SYMBOL_NS_GPL(kstats_reset, KSTATS_NS);

/*
 * Copies every possible CPU's slots without stopping recorders: each field
 * is one aligned 64-bit load, so a slot's count and part sum can differ only
 * by samples recorded while it is read.
 */
struct kstats_copy *kstats_copy_take(struct kstats_metric *m)
{
	u32 nslots = kstats_hist_nslots(m->ks.frac_bits);
	struct kstats_copy *copy;
	u32 row = 0, s;
	int cpu;

	copy = kzalloc(sizeof(*copy), GFP_KERNEL);
	if (!copy)
		return NULL;
	copy->frac_bits = m->ks.frac_bits;
	copy->nslots = nslots;
	copy->cpu = kvcalloc(num_possible_cpus(), sizeof(*copy->cpu), GFP_KERNEL);
	copy->slots = kvcalloc(array_size(num_possible_cpus(), nslots),
			       sizeof(*copy->slots), GFP_KERNEL);
	if (!copy->cpu || !copy->slots) {
		kstats_copy_free(copy);
		return NULL;
	}
	for_each_possible_cpu(cpu) {
		struct kstats_slot *src = per_cpu_ptr(m->ks.slots, cpu);
		struct kstats_slot *dst = copy->slots + (size_t)row * nslots;

		for (s = 0; s < nslots; s++) {
			dst[s].count = READ_ONCE(src[s].count);
			dst[s].part_sum = READ_ONCE(src[s].part_sum);
		}
		copy->cpu[row++] = cpu;
	}
	copy->nr_rows = row;
	return copy;
}

void kstats_copy_free(struct kstats_copy *copy)
{
	if (!copy)
		return;
	kvfree(copy->cpu);
	kvfree(copy->slots);
	kfree(copy);
}

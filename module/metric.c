// SPDX-License-Identifier: GPL-2.0
/*
 * Metrics: creation, the name registry, start/stop/reset, copies for
 * readers, and deletion.
 */
#include <linux/cpu.h>
#include <linux/cred.h>
#include <linux/sched/signal.h>
#include <linux/err.h>
#include <linux/fs.h>
#include <linux/mm.h>
#include <linux/mutex.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/smp.h>
#include <linux/string.h>
#include <linux/timekeeping.h>

#include "compat.h"
#include "metric.h"

static DEFINE_MUTEX(kstats_lock);	/* the registry: kstats_metrics */
static atomic64_t kstats_generations;	/* the last generation handed out */
LIST_HEAD(kstats_metrics);

int kstats_registry_lock(void)
{
	return mutex_lock_killable(&kstats_lock);
}

void kstats_registry_unlock(void)
{
	mutex_unlock(&kstats_lock);
}

/*
 * The kernel's isalnum() takes Latin-1 letters too: spell the ASCII set out.
 * "." and ".." would name no file in debugfs.
 */
static bool kstats_name_char(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	       (c >= '0' && c <= '9') || c == '_' || c == '.' || c == ':' ||
	       c == '-';
}

/* 1..KSTATS_NAME_MAX bytes of [A-Za-z0-9_.:-], not "." or "..": a file name. */
int kstats_name_check(const char *name)
{
	size_t i, len = strnlen(name, KSTATS_NAME_MAX + 1);

	if (!len || len > KSTATS_NAME_MAX || !strcmp(name, ".") ||
	    !strcmp(name, "..") || !strcmp(name, KSTATS_CONTROL_NAME))
		return -EINVAL;
	for (i = 0; i < len; i++)
		if (!kstats_name_char(name[i]))
			return -EINVAL;
	return 0;
}

/* [a-z0-9-]: a key's name or value. */
static size_t kstats_key_span(const char *s)
{
	size_t n = 0;

	while ((s[n] >= 'a' && s[n] <= 'z') || (s[n] >= '0' && s[n] <= '9') || s[n] == '-')
		n++;
	return n;
}

/* A metric's name, or a key's metric's: NAME{KEY=VALUE} (trace_keys.c). */
int kstats_lookup_name_check(const char *name)
{
	char base[KSTATS_NAME_MAX + 1];
	const char *brace = strchr(name, '{'), *s;
	size_t n;

	if (!brace)
		return kstats_name_check(name);
	if (brace - name > KSTATS_NAME_MAX)
		return -EINVAL;
	strscpy(base, name, brace - name + 1);
	s = brace + 1;
	n = kstats_key_span(s);
	if (kstats_name_check(base) || !n || s[n] != '=')
		return -EINVAL;
	s += n + 1;
	n = kstats_key_span(s);
	return n && s[n] == '}' && !s[n + 1] ? 0 : -EINVAL;
}

struct kstats_metric *kstats_find(const char *name)
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

/* Who made it, as LIST shows it. */
static void kstats_set_owner(struct kstats_metric *m,
			     const struct kstats_origin *origin)
{
	m->kind = origin->kind;
	m->module = origin->module;
	m->creator = origin->creator;
	m->autoremove = origin->autoremove;
	m->value = origin->value;
	if (origin->kind == KSTATS_KIND_MODULE) {
		strscpy(m->owner, origin->module ? module_name(origin->module) :
			"kernel", sizeof(m->owner));
		m->owner_pid = -1;
		m->owner_uid = 0;
	} else {
		char comm[TASK_COMM_LEN];

		strscpy(m->owner, origin->owner ?: get_task_comm(comm, current),
			sizeof(m->owner));
		m->owner_pid = task_tgid_nr(current);
		m->owner_uid = from_kuid_munged(&init_user_ns, current_uid());
	}
}

/*
 * What kstats_record() reads besides the slots, set in one place: a unit
 * other than 1 << frac_bits would index past the slots.
 */
static void kstats_layout_init(struct kstats *ks, u32 frac_bits)
{
	ks->frac_bits = frac_bits;
	ks->unit = 1u << frac_bits;
	ks->active = 1;
}

/* A metric outside the registry, for kstats_metric_register(). */
struct kstats_metric *kstats_metric_alloc(u32 frac_bits, const struct kstats_origin *origin)
{
	/* Charged to the caller's memory cgroup, unless a module asks. */
	gfp_t gfp = origin->kind == KSTATS_KIND_MODULE ? GFP_KERNEL : GFP_KERNEL_ACCOUNT;
	struct kstats_metric *m;
	size_t size;

	if (frac_bits > KSTATS_FRAC_BITS_MAX)
		return ERR_PTR(-EINVAL);
	/*
	 * A creator may RECORD unprivileged; only a /dev/kstats file forgets
	 * being one when it closes (dev.c), so no other file may become one.
	 */
	if (WARN_ON_ONCE(origin->creator && !kstats_dev_file(origin->creator)))
		return ERR_PTR(-EINVAL);
	m = kzalloc(sizeof(*m), gfp);
	if (!m)
		return ERR_PTR(-ENOMEM);
	size = kstats_hist_nslots(frac_bits) * sizeof(struct kstats_slot);
	m->ks.slots = __alloc_percpu_gfp(size, __alignof__(struct kstats_slot), gfp);
	if (!m->ks.slots) {
		kfree(m);
		return ERR_PTR(-ENOMEM);
	}
	kstats_layout_init(&m->ks, frac_bits);
	m->generation = atomic64_inc_return(&kstats_generations);
	kstats_set_owner(m, origin);
	kref_init(&m->ref);
	return m;
}

/*
 * Puts @m, from kstats_metric_alloc(), in the registry as @name (checked by
 * the caller): -EEXIST if the name is taken, -EINTR. On error @m stays the
 * caller's.
 */
int kstats_metric_register(struct kstats_metric *m, const char *name)
{
	/* Killable for user space (ioctl); kstats_new() just waits. */
	if (m->kind == KSTATS_KIND_MODULE)
		mutex_lock(&kstats_lock);
	else if (kstats_registry_lock())
		return -EINTR;
	if (kstats_find(name)) {
		kstats_registry_unlock();
		return -EEXIST;
	}
	strscpy(m->name, name, sizeof(m->name));
	list_add_tail(&m->node, &kstats_metrics);
	m->registered = true;
	kstats_debugfs_add(m);
	kstats_registry_unlock();
	return 0;
}

struct kstats_metric *kstats_metric_new(const char *name, u32 frac_bits,
					const struct kstats_origin *origin)
{
	struct kstats_metric *m;
	int err;

	if (!name || kstats_name_check(name))
		return ERR_PTR(-EINVAL);
	m = kstats_metric_alloc(frac_bits, origin);
	if (IS_ERR(m))
		return m;
	err = kstats_metric_register(m, name);
	if (err) {
		kstats_metric_put(m);
		return ERR_PTR(err);
	}
	return m;
}

struct kstats *__kstats_new(const char *name, u8 frac_bits,
			    struct module *owner)
{
	struct kstats_origin origin = {
		.kind = KSTATS_KIND_MODULE,
		.module = owner,
	};
	struct kstats_metric *m;

	if (!name || kstats_name_check(name)) {
		pr_err("kstats: invalid metric name \"%*pE\"\n",
		       name ? (int)strnlen(name, KSTATS_NAME_MAX + 1) : 6,
		       name ?: "(null)");
		return ERR_PTR(-EINVAL);
	}
	if (frac_bits > KSTATS_FRAC_BITS_MAX) {
		pr_err("kstats: %s: frac_bits %u out of range 0..%u\n",
		       name, frac_bits, KSTATS_FRAC_BITS_MAX);
		return ERR_PTR(-EINVAL);
	}
	m = kstats_metric_new(name, frac_bits, &origin);
	return IS_ERR(m) ? ERR_CAST(m) : &m->ks;
}

KSTATS_EXPORT(__kstats_new);

/* Takes the metric out of the registry and drops the registry's reference. */
void kstats_unlink(struct kstats_metric *m)
{
	lockdep_assert_held(&kstats_lock);
	list_del(&m->node);
	m->registered = false;
	/* Waits for debugfs readers in flight. */
	kstats_debugfs_remove(m);
	kstats_metric_put(m);
}

/* Out of the registry, or, never registered, the allocation's reference dropped. */
void kstats_metric_delete(struct kstats_metric *m)
{
	mutex_lock(&kstats_lock);
	if (m->registered)
		kstats_unlink(m);
	else
		kstats_metric_put(m);
	mutex_unlock(&kstats_lock);
}

void kstats_delete(struct kstats *ks)
{
	if (!IS_ERR_OR_NULL(ks))
		kstats_metric_delete(to_metric(ks));
}

KSTATS_EXPORT(kstats_delete);

void kstats_metric_set_probe(struct kstats_metric *m, struct kstats_probe *p)
{
	m->probe = p;
}

/* A reference to the metric called @name, or ERR_PTR(-ENOENT / -EINTR). */
struct kstats_metric *kstats_get_by_name(const char *name)
{
	struct kstats_metric *m;
	int err = kstats_registry_lock();

	if (err)
		return ERR_PTR(err);
	m = kstats_find(name);
	if (m)
		kstats_metric_get(m);
	kstats_registry_unlock();
	return m ?: ERR_PTR(-ENOENT);
}

/*
 * A /dev/kstats file closes: its auto-remove metrics go, the rest stay.
 * Traces (and their metrics) are taken down before, by trace.c.
 */
void kstats_file_closed(struct file *file)
{
	struct kstats_metric *m, *tmp;

	mutex_lock(&kstats_lock);
	list_for_each_entry_safe(m, tmp, &kstats_metrics, node) {
		if (m->creator != file)
			continue;
		m->creator = NULL;
		if (m->kind == KSTATS_KIND_USER && m->autoremove)
			kstats_unlink(m);
	}
	mutex_unlock(&kstats_lock);
}

void kstats_delete_owned_by(struct module *mod)
{
	struct kstats_metric *m, *tmp;

	mutex_lock(&kstats_lock);
	list_for_each_entry_safe(m, tmp, &kstats_metrics, node) {
		if (m->kind != KSTATS_KIND_MODULE || m->module != mod)
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

/* KSTATS_METRIC_* of @m, as LIST and SNAPSHOT report them. */
u32 kstats_metric_flags(struct kstats_metric *m)
{
	return (READ_ONCE(m->ks.active) ? KSTATS_METRIC_ACTIVE : 0) |
	       (m->autoremove ? KSTATS_METRIC_AUTOREMOVE : 0) |
	       (READ_ONCE(m->detached) ? KSTATS_METRIC_DETACHED : 0) |
	       (READ_ONCE(m->sampled) ? KSTATS_METRIC_SAMPLED : 0) |
	       (m->value ? KSTATS_METRIC_VALUE : 0);
}

void kstats_start(struct kstats *ks)
{
	if (READ_ONCE(ks->active))
		return;
	/* GAP ignores exits older than this (trace.h). */
	WRITE_ONCE(to_metric(ks)->resumed_ns, ktime_get_mono_fast_ns());
	/* Set before recording resumes: whoever sees active sees it. */
	smp_wmb();
	WRITE_ONCE(ks->active, 1);
}

KSTATS_EXPORT(kstats_start);

void kstats_stop(struct kstats *ks)
{
	WRITE_ONCE(ks->active, 0);
}

KSTATS_EXPORT(kstats_stop);

/* Samples in all slots of all CPUs, read without stopping recorders. */
u64 kstats_metric_count(struct kstats_metric *m)
{
	u32 nslots = kstats_hist_nslots(m->ks.frac_bits), s;
	u64 count = 0;
	int cpu;

	/* CPUs x slots of work: never where kstats_new()/delete() wait. */
	lockdep_assert_not_held(&kstats_lock);
	for_each_possible_cpu(cpu) {
		struct kstats_slot *row = per_cpu_ptr(m->ks.slots, cpu);

		for (s = 0; s < nslots; s++)
			count += READ_ONCE(row[s].count);
	}
	return count;
}

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

/* Empties every slot of @ks on every CPU (a metric's or a bare one's). */
void kstats_clear(struct kstats *ks)
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

void kstats_reset(struct kstats *ks)
{
	/*
	 * A new generation before the slots clear: a snapshot that sees the
	 * old one was taken before the reset (or during it, when some count
	 * then falls below an earlier snapshot's, which readers check too).
	 */
	WRITE_ONCE(to_metric(ks)->generation, atomic64_inc_return(&kstats_generations));
	kstats_clear(ks);
}

KSTATS_EXPORT(kstats_reset);

/* Non-empty slots of all CPUs: what a copy of @ks needs room for now. */
u32 kstats_count_used(struct kstats *ks)
{
	u32 nslots = kstats_hist_nslots(ks->frac_bits), s, n = 0;
	int cpu;

	for_each_possible_cpu(cpu) {
		struct kstats_slot *row = per_cpu_ptr(ks->slots, cpu);

		for (s = 0; s < nslots; s++)
			if (READ_ONCE(row[s].count) || READ_ONCE(row[s].part_sum))
				n++;
	}
	return n;
}

/*
 * Fills @c's rows and up to @c->max_slots non-empty slots; returns false
 * if more became non-empty since they were counted. A slot with a part sum
 * and no count is kept: a migration between kstats_record()'s two adds put
 * its samples' counts on another CPU, and readers fold the CPUs together.
 */
static bool kstats_copy_fill(struct kstats *ks, struct kstats_copy *c)
{
	u32 s, r = 0;
	int cpu;

	c->nr_slots = 0;
	for_each_possible_cpu(cpu) {
		struct kstats_slot *src = per_cpu_ptr(ks->slots, cpu);
		struct kstats_snap_cpu *row = &c->rows[r++];

		*row = (struct kstats_snap_cpu){ .cpu = cpu };
		for (s = 0; s < c->nslots; s++) {
			u64 count = READ_ONCE(src[s].count);
			u64 part_sum = READ_ONCE(src[s].part_sum);

			if (!count && !part_sum)
				continue;
			if (c->nr_slots == c->max_slots)
				return false;
			c->slots[c->nr_slots++] = (struct kstats_snap_slot){
				.cpu = cpu, .slot = s,
				.count = count, .part_sum = part_sum,
			};
			row->nr_slots++;
			row->count += count;
		}
	}
	return true;
}

/*
 * Copies @ks without stopping recorders: its non-empty slots only, so the
 * memory is what SNAPSHOT returns (one row per possible CPU and the slots
 * in use), charged to the caller. NULL when out of memory; ERR_PTR(-ENOSPC)
 * when more than @max_slots are in use (@needed says how many were), or
 * ERR_PTR(-EINTR) on a fatal signal.
 */
struct kstats_copy *kstats_copy_bare(struct kstats *ks, u32 max_slots, u32 *needed)
{
	struct kstats_copy *c;
	u32 used, tries;

	lockdep_assert_not_held(&kstats_lock);
	c = kzalloc(sizeof(*c), GFP_KERNEL_ACCOUNT);
	if (!c)
		return NULL;
	c->frac_bits = ks->frac_bits;
	c->nslots = kstats_hist_nslots(ks->frac_bits);
	c->nr_rows = num_possible_cpus();
	c->rows = kvcalloc(c->nr_rows, sizeof(*c->rows), GFP_KERNEL_ACCOUNT);
	if (!c->rows)
		goto nomem;
	/* Slots fill in while the copy is made: then retry with room to spare. */
	for (used = kstats_count_used(ks), tries = 0; ; tries++) {
		if (needed)
			*needed = used;
		if (used > max_slots || fatal_signal_pending(current)) {
			kstats_copy_free(c);
			return ERR_PTR(used > max_slots ? -ENOSPC : -EINTR);
		}
		kvfree(c->slots);
		c->max_slots = tries ? min_t(u64, max_slots, 2ULL * used + 16) : used;
		c->slots = kvcalloc(c->max_slots ?: 1, sizeof(*c->slots), GFP_KERNEL_ACCOUNT);
		if (!c->slots)
			goto nomem;
		if (kstats_copy_fill(ks, c))
			return c;
		used = kstats_count_used(ks);
	}
nomem:
	kstats_copy_free(c);
	return NULL;
}

struct kstats_copy *kstats_copy_take(struct kstats_metric *m, u32 max_slots, u32 *needed)
{
	return kstats_copy_bare(&m->ks, max_slots, needed);
}

struct kstats *kstats_alloc_bare(u32 frac_bits)
{
	struct kstats *ks = kzalloc(sizeof(*ks), GFP_KERNEL);

	if (!ks)
		return NULL;
	ks->slots = __alloc_percpu(kstats_hist_nslots(frac_bits) *
				   sizeof(struct kstats_slot),
				   __alignof__(struct kstats_slot));
	if (!ks->slots) {
		kfree(ks);
		return NULL;
	}
	kstats_layout_init(ks, frac_bits);
	return ks;
}

void kstats_free_bare(struct kstats *ks)
{
	if (!ks)
		return;
	free_percpu(ks->slots);
	kfree(ks);
}

void kstats_copy_free(struct kstats_copy *copy)
{
	if (!copy)
		return;
	kvfree(copy->rows);
	kvfree(copy->slots);
	kfree(copy);
}

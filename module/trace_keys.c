// SPDX-License-Identifier: GPL-2.0
/*
 * Keys: a trace's calls split by a value of each call (KSTATS_KEY_*: the
 * return value's error, the task's cgroup, process, thread, the CPU), a
 * metric per value,
 * NAME{KEY=VALUE}. The first nr values seen claim a metric each with one
 * cmpxchg, once (or nr values given at TRACE hold them from the start, and
 * nothing is claimed); after that a call finds its metric with plain
 * loads, and other values go to NAME{KEY=other}. The metrics
 * are allocated with the trace (no allocation in a handler) and enter the
 * registry, which takes a mutex, from process context: at the next LIST,
 * or SNAPSHOT or CONTROL of such a name (kstats_trace_publish_keys()).
 */
#include <linux/err.h>
#include <linux/once.h>
#include <linux/random.h>
#include <linux/sched.h>
#include <linux/siphash.h>
#include <linux/slab.h>
#include <linux/threads.h>
#include <linux/uaccess.h>

#include "trace.h"

/*
 * Each key: its name, the longest "{KEY=VALUE}" it adds to NAME, and
 * whether it needs a function's return value.
 */
static const struct {
	const char *name;
	u32 suffix_max;
	bool func_only;
} kstats_key_kinds[] = {
	[KSTATS_KEY_ERRNO] = { "errno", sizeof("{errno=-4095}") - 1, true },
	[KSTATS_KEY_CGROUP] = { "cgroup", sizeof("{cgroup=18446744073709551615}") - 1 },
	[KSTATS_KEY_PID] = { "pid", sizeof("{pid=4194304}") - 1 },
	[KSTATS_KEY_TID] = { "tid", sizeof("{tid=4194304}") - 1 },
	[KSTATS_KEY_CPU] = { "cpu", sizeof("{cpu=99999}") - 1 },
	[KSTATS_KEY_COMM] = { "comm", sizeof("{comm=}") - 1 + 2 * (TASK_COMM_LEN - 1) },
	[KSTATS_KEY_STACK] = { "stack", sizeof("{stack=0123456789abcdef}") - 1 },
};

/* Random at the first comm (stack) key: what a comm's (stack's) code is a hash with. */
static siphash_key_t kstats_comm_key, kstats_stack_key;

/* Keys whose values are the module's hashes: none can be given. */
static bool kstats_key_hashed(u32 kind)
{
	return kind == KSTATS_KEY_COMM || kind == KSTATS_KEY_STACK;
}

bool kstats_keys_args_ok(const struct kstats_trace *t)
{
	if (!t->key)
		return !t->nr_keys && !t->key_values;
	if (t->key_values && (!t->nr_keys || kstats_key_hashed(t->key)))
		return false;
	if (t->key >= ARRAY_SIZE(kstats_key_kinds) || !kstats_key_kinds[t->key].name ||
	    (kstats_key_kinds[t->key].func_only && !t->func) ||
	    t->nr_keys > KSTATS_KEYS_MAX)
		return false;
#ifndef KSTATS_HAVE_CGROUP
	if (t->key == KSTATS_KEY_CGROUP)
		return false;
#endif
	return strnlen((const char *)t->name, KSTATS_NAME_LEN) +
	       kstats_key_kinds[t->key].suffix_max <= KSTATS_NAME_MAX;
}

/*
 * A key value given at TRACE as its code (kstats_errno_code()'s, a cgroup
 * id, an id or CPU + 1), or 0 if it is out of range.
 */
static u64 kstats_key_value_code(u32 kind, u64 v)
{
	switch (kind) {
	case KSTATS_KEY_ERRNO:
		return v <= MAX_ERRNO ? v + 1 : 0;
	case KSTATS_KEY_PID:
	case KSTATS_KEY_TID:
		return v <= PID_MAX_LIMIT ? v + 1 : 0;
	case KSTATS_KEY_CPU:
		return v < nr_cpu_ids ? v + 1 : 0;
	}
	return v;
}

/* The values of key_values (VER5), fixed: no other value claims a metric. */
static int kstats_keys_fix(struct kstats_keys *k, const struct kstats_trace *req)
{
	u64 *vals = memdup_user(u64_to_user_ptr(req->key_values), k->nr * sizeof(u64));
	u32 i, j;
	int err = 0;

	if (IS_ERR(vals))
		return PTR_ERR(vals);
	for (i = 0; i < k->nr && !err; i++) {
		k->vals[i] = kstats_key_value_code(k->kind, vals[i]);
		for (j = 0; j < i && k->vals[i]; j++)
			if (k->vals[j] == k->vals[i])
				k->vals[i] = 0;
		if (!k->vals[i])
			err = -EINVAL;
	}
	kfree(vals);
	return err;
}

int kstats_keys_setup(struct kstats_probe *p, const struct kstats_trace *req,
		      const struct kstats_origin *origin)
{
	struct kstats_keys *k;
	struct kstats_metric *m;
	u32 i;
	int err;

	if (!req->key)
		return 0;
	k = kzalloc(sizeof(*k), GFP_KERNEL_ACCOUNT);
	if (!k)
		return -ENOMEM;
	p->keys = k;
	k->kind = req->key;
	k->nr = req->nr_keys ?: KSTATS_KEYS_DEFAULT;
	k->vals = kcalloc(k->nr, sizeof(*k->vals), GFP_KERNEL_ACCOUNT);
	/* A NULL left by a failed allocation ends kstats_probe_metric()'s walk. */
	k->metrics = kcalloc(k->nr + 1, sizeof(*k->metrics), GFP_KERNEL_ACCOUNT);
	if (!k->vals || !k->metrics)
		return -ENOMEM;
	if (k->kind == KSTATS_KEY_COMM) {
		get_random_once(&kstats_comm_key, sizeof(kstats_comm_key));
		k->comms = kcalloc(k->nr, sizeof(*k->comms), GFP_KERNEL_ACCOUNT);
		if (!k->comms)
			return -ENOMEM;
	}
	if (k->kind == KSTATS_KEY_STACK) {
		get_random_once(&kstats_stack_key, sizeof(kstats_stack_key));
		k->stacks = kcalloc(k->nr, sizeof(*k->stacks), GFP_KERNEL_ACCOUNT);
		if (!k->stacks)
			return -ENOMEM;
	}
	if (kstats_key_hashed(k->kind)) {
		k->ready = kcalloc(k->nr, sizeof(*k->ready), GFP_KERNEL_ACCOUNT);
		if (!k->ready)
			return -ENOMEM;
	}
	if (req->key_values) {
		err = kstats_keys_fix(k, req);
		if (err)
			return err;
	}
	for (i = 0; i <= k->nr; i++) {
		m = kstats_metric_alloc(req->frac_bits, origin);
		if (IS_ERR(m))
			return PTR_ERR(m);
		/* The probe's reference, as for the trace's other metrics. */
		kstats_metric_get(m);
		k->metrics[i] = m;
	}
	return 0;
}

/* Frees what kstats_keys_setup() made but the metrics' references. */
void kstats_keys_free(struct kstats_probe *p)
{
	if (!p->keys)
		return;
	kfree(p->keys->vals);
	kfree(p->keys->metrics);
	kfree(p->keys->comms);
	kfree(p->keys->stacks);
	kfree(p->keys->ready);
	kfree(p->keys);
	p->keys = NULL;
}

struct kstats_metric *kstats_keys_metric(struct kstats_probe *p, unsigned int i)
{
	return p->keys && p->keys->metrics && i <= p->keys->nr ? p->keys->metrics[i] : NULL;
}

/*
 * A call's errno key, never 0: 1 + N for a return value of -N, -4095..-1
 * (MAX_ERRNO) in the whole register or, the upper half zero (an int), in
 * its lower half; 1 for any other.
 */
static __always_inline u64 kstats_errno_code(unsigned long ret)
{
	if (IS_ERR_VALUE(ret))
		return 1 - (long)ret;
	if (!(ret >> 32) && IS_ERR_VALUE((unsigned long)(long)(int)ret))
		return 1 - (int)ret;
	return 1;
}

/* The metric of key @code (not 0): its own, claimed now if need be, or "other". */
static __always_inline u32 kstats_key_index(struct kstats_keys *k, u64 code)
{
	u64 v;
	u32 i;

	for (i = 0; i < k->nr; i++) {
		v = READ_ONCE(k->vals[i]);
		if (!v)
			v = cmpxchg(&k->vals[i], 0, code) ?: code;
		if (v == code)
			break;
	}
	return i;
}

/*
 * A call's key code, never 0: from the return value @retval (functions),
 * the calling task's cgroup (an id is never 0), its ids or the CPU (+ 1:
 * the idle task is 0, so is the first CPU).
 */
static __always_inline u64 kstats_key_code(u32 kind, unsigned long retval)
{
	switch (kind) {
	case KSTATS_KEY_ERRNO:
		return kstats_errno_code(retval);
	case KSTATS_KEY_PID:
		return (u64)current->tgid + 1;
	case KSTATS_KEY_TID:
		return (u64)current->pid + 1;
	case KSTATS_KEY_CPU:
		return (u64)raw_smp_processor_id() + 1;
	}
	return kstats_current_cgroup_id();
}

/*
 * The comm key: the task's name up to its NUL (the bytes after it may be
 * stale: not every kernel pads comm), its code a keyed hash of it, never
 * 0. The CPU that claims a slot writes the name there, then marks it
 * ready: kstats_keys_publish() names the metric from it.
 */
static noinline void kstats_keys_record_comm(struct kstats_keys *k, u64 wall)
{
	char comm[TASK_COMM_LEN] = {};
	u64 code, v;
	u32 i;

	for (i = 0; i < TASK_COMM_LEN - 1 && current->comm[i]; i++)
		comm[i] = READ_ONCE(current->comm[i]);
	code = siphash(comm, sizeof(comm), &kstats_comm_key) | 1;
	for (i = 0; i < k->nr; i++) {
		v = READ_ONCE(k->vals[i]);
		if (!v) {
			v = cmpxchg(&k->vals[i], 0, code);
			if (!v) {
				memcpy(k->comms[i], comm, sizeof(comm));
				/* The name before ready: publish's acquire sees it whole. */
				smp_store_release(&k->ready[i], 1);
				break;
			}
		}
		if (v == code)
			break;
	}
	kstats_record(&k->metrics[i]->ks, wall);
}

/*
 * The stack key: the stack from the call's caller up (@ret: where the
 * call returns; 0 for a section's end), its code a keyed hash of its
 * frames, never 0. As for comm, the claimer writes the frames, then marks
 * the slot ready. A stack that cannot be taken now goes to "other".
 */
static noinline void kstats_keys_record_stack(struct kstats_probe *p, unsigned long ret,
					      u64 wall)
{
	unsigned long f[KSTATS_OUTLIER_FRAMES];
	struct kstats_keys *k = p->keys;
	bool truncated;
	u64 code, v, t0;
	u32 n, i;

	/* The walk costs microseconds, not a constant: the governor adds it up. */
	t0 = ktime_get_mono_fast_ns();
	n = kstats_probe_stack(p, f, ret, &truncated);
	this_cpu_add(p->pcpu->stack_ns, ktime_get_mono_fast_ns() - t0);
	if (!n) {
		kstats_record(&k->metrics[k->nr]->ks, wall);
		return;
	}
	code = siphash(f, n * sizeof(*f), &kstats_stack_key) | 1;
	for (i = 0; i < k->nr; i++) {
		v = READ_ONCE(k->vals[i]);
		if (!v) {
			v = cmpxchg(&k->vals[i], 0, code);
			if (!v) {
				memcpy(k->stacks[i].frames, f, sizeof(f));
				k->stacks[i].nr = n;
				k->stacks[i].flags = truncated ? KSTATS_OUTLIER_TRUNCATED : 0;
				if (p->mech == KSTATS_MECH_UPROBE) {
					k->stacks[i].flags |= KSTATS_OUTLIER_USER;
					k->stacks[i].tgid = current->tgid;
				}
				/* The frames before ready: a reader's acquire sees them whole. */
				smp_store_release(&k->ready[i], 1);
				break;
			}
		}
		if (v == code)
			break;
	}
	kstats_record(&k->metrics[i]->ks, wall);
}

/*
 * A recorded call's sample @wall (its duration, or its value), by @p's
 * key; @ret where the call returns (0: none, a section's end).
 */
void kstats_keys_record(struct kstats_probe *p, unsigned long retval, unsigned long ret,
			u64 wall)
{
	struct kstats_keys *k = p->keys;
	u64 code;

	if (k->kind == KSTATS_KEY_COMM) {
		kstats_keys_record_comm(k, wall);
		return;
	}
	if (k->kind == KSTATS_KEY_STACK) {
		/* With outliers, only those: a shorter call pays no stack walk. */
		if (!p->outliers || p->expr || wall >= READ_ONCE(p->outlier_ns))
			kstats_keys_record_stack(p, ret, wall);
		return;
	}
	code = kstats_key_code(k->kind, retval);
	kstats_record(&k->metrics[kstats_key_index(k, code)]->ks, wall);
}

/*
 * SNAPSHOT's frames of @m, a stack key's metric (else nothing): copied to
 * @dst for a privileged reader, withheld (NOADDR) from any other. Under
 * kstats_trace_lock.
 */
int kstats_keys_frames(struct kstats_metric *m, struct kstats_snapshot *sn, bool privileged)
{
	struct kstats_probe *p = m->probe;
	struct kstats_keys *k = p ? p->keys : NULL;
	u32 i;

	lockdep_assert_held(&kstats_trace_lock);
	if (!k || k->kind != KSTATS_KEY_STACK)
		return 0;
	for (i = 0; i < k->nr && k->metrics[i] != m; i++)
		;
	/* Pairs with the claimer's release: ready, the frames are whole. */
	if (i == k->nr || !smp_load_acquire(&k->ready[i]))
		return 0;
	if (!privileged) {
		sn->frames_flags = KSTATS_OUTLIER_NOADDR;
		return 0;
	}
	sn->nr_frames = k->stacks[i].nr;
	sn->frames_flags = k->stacks[i].flags;
	sn->frames_tgid = k->stacks[i].tgid;
	if (sn->frames && copy_to_user(u64_to_user_ptr(sn->frames), k->stacks[i].frames,
				       sizeof(k->stacks[i].frames)))
		return -EFAULT;
	return 0;
}

/*
 * Each claimed value's metric, and "other" once it has samples, into the
 * registry. Under kstats_trace_lock; a metric that cannot go in yet (a
 * signal) waits for the next reader.
 */
void kstats_keys_publish(struct kstats_probe *p)
{
	struct kstats_keys *k = p->keys;
	/* Room for what the compiler sees; NAME is short enough (kstats_keys_args_ok()). */
	char name[KSTATS_NAME_LEN + 48];
	struct kstats_metric *m;
	int len;
	u64 v;
	u32 i;

	if (!k)
		return;
	for (i = 0; i <= k->nr; i++) {
		m = k->metrics[i];
		if (m->registered)
			continue;
		if (i < k->nr) {
			v = READ_ONCE(k->vals[i]);
			if (!v)
				break;	/* claimed in order: none after */
			/* Name not written yet (pairs with the claimer's release): next reader. */
			if (kstats_key_hashed(k->kind) && !smp_load_acquire(&k->ready[i]))
				continue;
			if (k->kind == KSTATS_KEY_STACK)
				len = snprintf(name, sizeof(name), "%s{stack=%016llx}",
					       p->time_metric->name, v);
			else if (k->kind == KSTATS_KEY_COMM)
				len = snprintf(name, sizeof(name), "%s{comm=%*phN}",
					       p->time_metric->name,
					       (int)strnlen(k->comms[i], TASK_COMM_LEN),
					       k->comms[i]);
			else if (k->kind == KSTATS_KEY_ERRNO)
				len = snprintf(name, sizeof(name), "%s{errno=%lld}",
					       p->time_metric->name, -(s64)(v - 1));
			else if (k->kind != KSTATS_KEY_CGROUP)	/* an id or CPU + 1 */
				len = snprintf(name, sizeof(name), "%s{%s=%llu}",
					       p->time_metric->name,
					       kstats_key_kinds[k->kind].name, v - 1);
			else
				len = snprintf(name, sizeof(name), "%s{%s=%llu}",
					       p->time_metric->name,
					       kstats_key_kinds[k->kind].name, v);
		} else {
			if (!kstats_metric_count(m))
				break;
			len = snprintf(name, sizeof(name), "%s{%s=other}", p->time_metric->name,
				       kstats_key_kinds[k->kind].name);
		}
		if (!WARN_ON_ONCE(len > KSTATS_NAME_MAX))
			kstats_metric_register(m, name);
	}
}

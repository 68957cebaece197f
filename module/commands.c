// SPDX-License-Identifier: GPL-2.0
/*
 * The /dev/kstats commands. Each checks its own fields (flags, reserved,
 * names), then privilege, then does the work; dev.c has already copied the
 * argument in and copies it back out.
 */
#include <linux/cred.h>
#include <linux/fs.h>
#include <linux/mm.h>
#include <linux/security.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/timekeeping.h>
#include <linux/uaccess.h>

#include "commands.h"
#include "trace.h"
#include "version.h"

#define KSTATS_FEATURES (KSTATS_FEAT_CREATE | KSTATS_FEAT_DELETE | \
			 KSTATS_FEAT_LIST | KSTATS_FEAT_CONTROL | \
			 KSTATS_FEAT_SNAPSHOT | KSTATS_FEAT_RECORD | \
			 KSTATS_FEAT_TRACE | KSTATS_FEAT_OUTLIERS | KSTATS_FEAT_KEYS | \
			 KSTATS_FEAT_KEY_VALUES | KSTATS_FEAT_EXPR | KSTATS_FEAT_UPROBE | \
			 KSTATS_FEAT_USDT | KSTATS_FEAT_UPROBE_EXPR | KSTATS_FEAT_TASK_KEYS | \
			 KSTATS_FEAT_COMM_KEY | KSTATS_FEAT_MATCHED | KSTATS_FEAT_STACK_KEY | \
			 KSTATS_FEAT_UPROBE_SPLIT | KSTATS_FEAT_UPROBE_OUTLIERS | \
			 KSTATS_FEAT_UPROBE_COST | KSTATS_FEAT_UPROBE_STACK | \
			 KSTATS_FEAT_USDT_EXPR | KSTATS_FEAT_UPROBE_LOADS | KSTATS_FEAT_GROUP)

#define reserved_zero(a)	kstats_arg_zero((a)->reserved, sizeof((a)->reserved))

/* @name's metric: a key's may wait for its first reader (trace_keys.c). */
static struct kstats_metric *kstats_lookup(const char *name)
{
	struct kstats_metric *m = kstats_get_by_name(name);
	int err;

	if (PTR_ERR(m) != -ENOENT || !strchr(name, '{'))
		return m;
	err = kstats_trace_publish_keys();
	return err ? ERR_PTR(err) : kstats_get_by_name(name);
}

int kstats_cmd_info(struct file *file, void *arg)
{
	struct kstats_info *info = arg;
	struct kstats_metric *m;
	int err;

	info->abi_version = KSTATS_ABI_VERSION;
	info->max_frac_bits = KSTATS_FRAC_BITS_MAX;
	info->features = KSTATS_FEATURES;
#ifdef KSTATS_HAVE_SPLIT
	info->features |= KSTATS_FEAT_SPLIT | KSTATS_FEAT_SELF;
#endif
#ifdef KSTATS_HAVE_CGROUP
	info->features |= KSTATS_FEAT_CGROUP;
#endif
	info->mechanisms = BIT_ULL(KSTATS_MECH_KRETPROBE) | BIT_ULL(KSTATS_MECH_KPROBE);
	if (kstats_have_fprobe)
		info->mechanisms |= BIT_ULL(KSTATS_MECH_FPROBE);
#ifdef KSTATS_HAVE_TRACEPOINT_PAIRS
	info->mechanisms |= BIT_ULL(KSTATS_MECH_TRACEPOINT);
#endif
	if (kstats_have_uprobe)
		info->mechanisms |= BIT_ULL(KSTATS_MECH_UPROBE);
#ifdef KSTATS_UPROBE_DATA
	info->flags |= KSTATS_INFO_UPROBE_SESSION;
#endif
	info->nr_cpus = num_possible_cpus();
	info->record_max = KSTATS_RECORD_MAX;
	if (security_locked_down(LOCKDOWN_KPROBES))
		info->flags |= KSTATS_INFO_LOCKDOWN;
	strscpy((char *)info->version, KSTATS_VERSION, sizeof(info->version));
	err = kstats_registry_lock();
	if (err)
		return err;
	list_for_each_entry(m, &kstats_metrics, node)
		info->nr_metrics++;
	kstats_registry_unlock();
	return 0;
}

int kstats_cmd_create(struct file *file, void *arg)
{
	struct kstats_create *c = arg;
	struct kstats_origin origin = {
		.kind = KSTATS_KIND_USER,
		.creator = file,
		.autoremove = c->flags & KSTATS_CREATE_AUTOREMOVE,
	};
	struct kstats_metric *m;

	if ((c->flags & ~KSTATS_CREATE_AUTOREMOVE) || !reserved_zero(c) ||
	    kstats_arg_name(c->name) || c->frac_bits > KSTATS_FRAC_BITS_MAX)
		return -EINVAL;
	if (!kstats_file_privileged(file))
		return -EPERM;
	m = kstats_metric_new((const char *)c->name, c->frac_bits, &origin);
	return PTR_ERR_OR_ZERO(m);
}

int kstats_cmd_delete(struct file *file, void *arg)
{
	struct kstats_delete *d = arg;
	struct kstats_metric *m;
	int err;

	if (d->flags || d->pad || !reserved_zero(d) || kstats_arg_name(d->name))
		return -EINVAL;
	if (!kstats_file_privileged(file))
		return -EPERM;
	err = kstats_registry_lock();
	if (err)
		return err;
	m = kstats_find((const char *)d->name);
	if (!m)
		err = -ENOENT;
	else if (m->kind != KSTATS_KIND_USER)
		err = -EBUSY;
	else
		kstats_unlink(m);
	kstats_registry_unlock();
	return err;
}

static void kstats_fill_info(struct kstats_metric_info *e, struct kstats_metric *m)
{
	strscpy((char *)e->name, m->name, sizeof(e->name));
	strscpy((char *)e->owner, m->owner, sizeof(e->owner));
	e->kind = m->kind;
	e->frac_bits = m->ks.frac_bits;
	e->flags = kstats_metric_flags(m);
	e->owner_uid = m->owner_uid;
	e->owner_pid = m->owner_pid;
	e->count = kstats_metric_count(m);
}

int kstats_cmd_list(struct file *file, void *arg)
{
	struct kstats_list *l = arg;
	struct kstats_metric_info *info = NULL;
	struct kstats_metric **ms = NULL, *m;
	u8 __user *dst = u64_to_user_ptr(l->entries);
	size_t len, n = 0, i;
	int err;

	if (l->flags || l->pad || !reserved_zero(l) ||
	    l->entry_size < KSTATS_METRIC_INFO_SIZE_VER0 || l->entry_size % 8 ||
	    l->entry_size > PAGE_SIZE)
		return -EINVAL;
	len = min_t(size_t, l->entry_size, sizeof(*info));
	/* Only references under the lock: the counts are summed outside it. */
	err = kstats_trace_publish_keys() ?: kstats_registry_lock();
	if (err)
		return err;
	list_for_each_entry(m, &kstats_metrics, node)
		n++;
	if (n > l->nr_entries) {
		err = -ENOSPC;
	} else {
		ms = kvcalloc(n, sizeof(*ms), GFP_KERNEL_ACCOUNT);
		if (n && !ms)
			err = -ENOMEM;
	}
	i = 0;
	if (!err)
		list_for_each_entry(m, &kstats_metrics, node) {
			kstats_metric_get(m);
			ms[i++] = m;
		}
	kstats_registry_unlock();
	l->nr_entries = n;
	if (!err && n) {
		info = kmalloc(sizeof(*info), GFP_KERNEL_ACCOUNT);
		if (!info)
			err = -ENOMEM;
	}
	for (i = 0; !err && i < n; i++, dst += l->entry_size) {
		memset(info, 0, sizeof(*info));
		kstats_fill_info(info, ms[i]);
		if (copy_to_user(dst, info, len) ||
		    clear_user(dst + len, l->entry_size - len))
			err = -EFAULT;
	}
	for (i = 0; ms && i < n; i++)
		kstats_metric_put(ms[i]);
	kfree(info);
	kvfree(ms);
	return err;
}

static void kstats_control_one(struct kstats_metric *m, u32 op)
{
	if (op == KSTATS_OP_START)
		kstats_start(&m->ks);
	else if (op == KSTATS_OP_STOP)
		kstats_stop(&m->ks);
	else
		kstats_reset(&m->ks);
}

int kstats_cmd_control(struct file *file, void *arg)
{
	struct kstats_control *c = arg;
	struct kstats_metric *m;
	int err;

	if (c->op < KSTATS_OP_START || c->op > KSTATS_OP_RESET ||
	    (c->flags & ~KSTATS_CONTROL_ALL) || !reserved_zero(c))
		return -EINVAL;
	if (c->flags & KSTATS_CONTROL_ALL ? !kstats_arg_zero(c->name, sizeof(c->name)) :
	    kstats_arg_lookup_name(c->name))
		return -EINVAL;
	if (!kstats_file_privileged(file))
		return -EPERM;
	if (c->flags & KSTATS_CONTROL_ALL) {
		/* Every key's metric too, also those no reader has seen yet. */
		err = kstats_trace_publish_keys() ?: kstats_registry_lock();
		if (err)
			return err;
		list_for_each_entry(m, &kstats_metrics, node)
			kstats_control_one(m, c->op);
		kstats_registry_unlock();
		return 0;
	}
	m = kstats_lookup((const char *)c->name);
	if (IS_ERR(m))
		return PTR_ERR(m);
	kstats_control_one(m, c->op);
	kstats_metric_put(m);
	return 0;
}

int kstats_cmd_snapshot(struct file *file, void *arg)
{
	struct kstats_snapshot *sn = arg;
	size_t rows_len = num_possible_cpus() * sizeof(struct kstats_snap_cpu);
	u8 __user *dst = u64_to_user_ptr(sn->buf);
	struct kstats_metric *m;
	struct kstats_copy *c;
	u32 needed = 0;
	int err = 0;

	if (sn->flags || !reserved_zero(sn) || sn->frames_tgid || sn->group_misses ||
	    kstats_arg_lookup_name(sn->name))
		return -EINVAL;
	sn->nr_frames = 0;
	sn->frames_flags = 0;
	/* Output fields are ignored on input: a struct back from -ENOSPC is reused. */
	sn->frac_bits = 0;
	sn->nr_cpus = 0;
	sn->nr_slots = 0;
	sn->kind = 0;
	sn->metric_flags = 0;
	sn->hits = 0;
	sn->misses = 0;
	sn->floor_ns = 0;
	sn->generation = 0;
	sn->trace_mode = 0;
	sn->sample_every = 0;
	sn->mode_since_ns = 0;
	sn->skipped = 0;
	sn->budget_ppm = 0;
	sn->cost_ppm = 0;
	sn->full_cost_ppm = 0;
	sn->trace_flags = 0;
	sn->call_cost_ps = 0;
	sn->skip_cost_ps = 0;
	sn->faults = 0;
	sn->rejected = 0;
	m = kstats_lookup((const char *)sn->name);
	if (IS_ERR(m))
		return PTR_ERR(m);
	sn->generation = READ_ONCE(m->generation);
	/* The generation before the copy: pairs with kstats_reset()'s order. */
	smp_rmb();
	sn->time_ns = ktime_get_ns();	/* also with -ENOSPC: harmless */
	sn->realtime_ns = ktime_get_real_ns();
	/* Memory in proportion to what is returned: never more than fits. */
	c = kstats_copy_take(m, sn->buf_len < rows_len ? 0 :
			     min_t(u64, U32_MAX, (sn->buf_len - rows_len) /
				   sizeof(struct kstats_snap_slot)), &needed);
	if (IS_ERR_OR_NULL(c)) {
		err = c ? PTR_ERR(c) : -ENOMEM;
		c = NULL;
	} else if (sn->buf_len < rows_len) {
		err = -ENOSPC;
	}
	if (err == -ENOSPC)
		sn->buf_len = rows_len + (u64)needed * sizeof(struct kstats_snap_slot);
	if (err)
		goto out;
	if (copy_to_user(dst, c->rows, rows_len) ||
	    copy_to_user(dst + rows_len, c->slots,
			 (size_t)c->nr_slots * sizeof(*c->slots))) {
		err = -EFAULT;
		goto out;
	}
	sn->buf_len = rows_len + (size_t)c->nr_slots * sizeof(*c->slots);
	sn->frac_bits = c->frac_bits;
	sn->nr_cpus = c->nr_rows;
	sn->nr_slots = c->nr_slots;
	sn->kind = m->kind;
	if (m->kind >= KSTATS_KIND_TRACE)	/* every kind a trace makes */
		err = kstats_trace_stats(m, sn);
	if (!err && m->kind == KSTATS_KIND_KEY)
		err = kstats_trace_key_frames(m, sn, kstats_file_privileged(file));
	sn->metric_flags = kstats_metric_flags(m);
out:
	kstats_copy_free(c);
	kstats_metric_put(m);
	return err;
}

int kstats_cmd_record(struct file *file, void *arg)
{
	struct kstats_record *r = arg;
	struct kstats_metric *m;
	u64 *vals;
	u32 i;
	int err = 0;

	if (!r->count || r->count > KSTATS_RECORD_MAX || r->flags ||
	    !reserved_zero(r) || kstats_arg_name(r->name))
		return -EINVAL;
	m = kstats_get_by_name((const char *)r->name);
	if (IS_ERR(m))
		return PTR_ERR(m);
	/* READ_ONCE: the creator field is cleared when that file closes. */
	if (READ_ONCE(m->creator) != file && !kstats_file_privileged(file)) {
		err = -EPERM;
		goto out;
	}
	/* All or nothing: no sample lands unless every value could be read. */
	vals = vmemdup_user(u64_to_user_ptr(r->values),
			    array_size(r->count, sizeof(*vals)));
	if (IS_ERR(vals)) {
		err = PTR_ERR(vals);
		goto out;
	}
	for (i = 0; i < r->count; i++)
		kstats_record(&m->ks, vals[i]);
	kvfree(vals);
out:
	kstats_metric_put(m);
	return err;
}

/*
 * Whether the string at @uptr starts "tp:", read before the privilege
 * check for the expr's site (unreadable: no; the copy says -EFAULT later).
 */
static bool kstats_arg_tracepoint(u64 uptr)
{
	char head[4] = "";

	return uptr && strncpy_from_user(head, u64_to_user_ptr(uptr), 3) == 3 &&
	       !memcmp(head, "tp:", 3);
}

/* Where TRACE's expr runs: its sources (trace_expr.c); @up: its uprobes' checked roles. */
static enum kstats_expr_site kstats_arg_site(const struct kstats_trace *t,
					     const struct kstats_uprobe *up)
{
	if (up)
		return up->role == KSTATS_UPROBE_FUNC ? KSTATS_SITE_UFUNC :
		       up->role == KSTATS_UPROBE_POINT ? KSTATS_SITE_UPOINT :
		       KSTATS_SITE_USECTION;
	if (t->func)
		return kstats_arg_tracepoint(t->func) ? KSTATS_SITE_POINT : KSTATS_SITE_FUNC;
	return kstats_arg_tracepoint(t->start) && kstats_arg_tracepoint(t->end) ?
	       KSTATS_SITE_TP_SECTION : KSTATS_SITE_SECTION;
}

/*
 * Whether the string at @uptr names a trace event with its system,
 * "tp:system:event", as an end read by its record must (unreadable: yes;
 * the copy says -EFAULT later).
 */
static bool kstats_arg_event(u64 uptr)
{
	char *s = strndup_user(u64_to_user_ptr(uptr), KSTATS_SYM_MAX);
	bool ok = IS_ERR(s) || (!strncmp(s, "tp:", 3) && strchr(s + 3, ':'));

	if (!IS_ERR(s))
		kfree(s);
	return ok;
}

/* The ends @e reads by their records name their events' systems. */
static int kstats_arg_records(const struct kstats_trace *t, const struct kstats_expr_prog *e)
{
	u32 ends = kstats_expr_record_ends(e);

	if ((ends & BIT(0)) && !kstats_arg_event(t->func ?: t->start))
		return -EINVAL;
	if ((ends & BIT(1)) && !kstats_arg_event(t->end))
		return -EINVAL;
	return 0;
}

/* A "[module:]symbol" or "tp:[system:]event" from user space, or NULL. */
static char *kstats_arg_symbol(u64 uptr, int *err)
{
	char *sym;

	if (!uptr || *err)
		return NULL;
	sym = strndup_user(u64_to_user_ptr(uptr), KSTATS_SYM_MAX);
	if (IS_ERR(sym)) {
		*err = PTR_ERR(sym) == -EFAULT ? -EFAULT : -EINVAL;
		return NULL;
	}
	if (!*sym) {
		*err = -EINVAL;
		kfree(sym);
		return NULL;
	}
	return sym;
}

/*
 * The CPU filter: cpus_len bytes where CPU n is bit n % 8 of byte n / 8, on
 * every machine (a raw copy into longs would pick wrong CPUs on big-endian
 * ones); no CPU past nr_cpu_ids.
 */
static int kstats_arg_cpus(const struct kstats_trace *t, unsigned long *cpus)
{
	u8 *bytes;
	u32 i, bit;
	int err = 0;

	if (!(t->flags & KSTATS_TRACE_CPUS))
		return t->cpus || t->cpus_len ? -EINVAL : 0;
	if (!t->cpus_len || t->cpus_len > 4096)
		return -EINVAL;
	bytes = memdup_user(u64_to_user_ptr(t->cpus), t->cpus_len);
	if (IS_ERR(bytes))
		return PTR_ERR(bytes);
	for (i = 0; i < t->cpus_len && !err; i++)
		for (bit = 0; bit < BITS_PER_BYTE && !err; bit++) {
			u32 cpu = i * BITS_PER_BYTE + bit;

			if (!(bytes[i] & BIT(bit)))
				continue;
			if (cpu >= nr_cpu_ids)
				err = -EINVAL;
			else
				__set_bit(cpu, cpus);
		}
	kfree(bytes);
	return err;
}

/* What the caller measured of a uprobe (kstats(4)): its own, bounded. */
static bool kstats_user_cost_ok(const struct kstats_trace *t)
{
	const u64 max_ps = (u64)KSTATS_TRACE_USER_COST_MAX * 1000;

	if (t->mechanism != KSTATS_MECH_UPROBE)
		return !t->user_floor_ns && !t->user_call_ps && !t->user_skip_ps;
	return t->user_floor_ns <= KSTATS_TRACE_USER_COST_MAX &&
	       t->user_call_ps <= max_ps && t->user_skip_ps <= max_ps &&
	       (t->user_call_ps || !t->user_skip_ps);
}

int kstats_cmd_trace(struct file *file, void *arg)
{
	struct kstats_trace *t = arg;
	const u32 known = KSTATS_TRACE_AUTOREMOVE | KSTATS_TRACE_PID |
			  KSTATS_TRACE_TGID | KSTATS_TRACE_CPUS | KSTATS_TRACE_SPLIT |
			  KSTATS_TRACE_OUTLIERS | KSTATS_TRACE_SELF | KSTATS_TRACE_CGROUP |
			  KSTATS_TRACE_MATCHED | KSTATS_TRACE_DEFER;
	struct kstats_uprobe *up;
	struct kstats_expr_prog *expr;
	char *func, *start, *end;
	unsigned long *cpus;
	int err = 0;

	if ((t->flags & ~known) || t->pad || !reserved_zero(t) ||
	    kstats_arg_name(t->name) || t->frac_bits > KSTATS_FRAC_BITS_MAX ||
	    t->mechanism > KSTATS_MECH_UPROBE ||
	    t->maxactive > kstats_maxactive_limit() ||
	    t->budget_ppm > KSTATS_TRACE_BUDGET_MAX ||
	    t->sample_every > KSTATS_TRACE_SAMPLE_MAX ||
	    (t->budget_ppm && t->sample_every) ||
	    (!(t->flags & KSTATS_TRACE_PID) && t->pid) ||
	    (!(t->flags & KSTATS_TRACE_TGID) && t->tgid) ||
	    (!(t->flags & KSTATS_TRACE_CGROUP) && t->cgroup_fd) || t->cgroup_pad ||
	    !t->func == !(t->start || t->end) || !t->start != !t->end ||
	    ((t->flags & (KSTATS_TRACE_SELF | KSTATS_TRACE_MATCHED | KSTATS_TRACE_DEFER)) &&
	     !t->func) ||
	    ((t->flags & (KSTATS_TRACE_MATCHED | KSTATS_TRACE_DEFER)) &&
	     t->mechanism == KSTATS_MECH_UPROBE) ||
	    !kstats_outlier_args_ok(t) || !kstats_keys_args_ok(t) ||
	    !kstats_user_cost_ok(t))
		return -EINVAL;
	/* A user function's form first: its roles decide the expr's site. */
	err = kstats_uprobe_args(t, &up);
	if (err)
		goto free_up;
	/* The expr is checked before the privilege, as every other field. */
	err = kstats_expr_copy(t, kstats_arg_site(t, up), &expr);
	if (err)
		goto free_up;
	err = kstats_arg_records(t, expr);
	if (err)
		goto free_expr;
	err = -EPERM;
	if (!kstats_file_privileged(file))
		goto free_expr;
	err = -ENOMEM;
	cpus = bitmap_zalloc(nr_cpu_ids, GFP_KERNEL);
	if (!cpus)
		goto free_expr;
	err = 0;
	err = kstats_arg_cpus(t, cpus);
	func = kstats_arg_symbol(t->func, &err);
	start = kstats_arg_symbol(t->start, &err);
	end = kstats_arg_symbol(t->end, &err);
	if (!err)
		err = kstats_trace_start(file, t, func, start, end, cpus, expr, up);
	else
		kstats_expr_free(expr);
	kfree(func);
	kfree(start);
	kfree(end);
	bitmap_free(cpus);
	kfree(up);
	return err;
free_expr:
	kstats_expr_free(expr);
free_up:
	kfree(up);
	return err;
}

int kstats_cmd_attach(struct file *file, void *arg)
{
	struct kstats_attach *a = arg;

	if (a->flags || !reserved_zero(a))
		return -EINVAL;
	a->attached = 0;
	if (!kstats_file_privileged(file))
		return -EPERM;
	return kstats_trace_attach(file, &a->attached);
}

int kstats_cmd_untrace(struct file *file, void *arg)
{
	struct kstats_untrace *u = arg;

	if (u->flags || u->pad || !reserved_zero(u) || kstats_arg_name(u->name))
		return -EINVAL;
	if (!kstats_file_privileged(file))
		return -EPERM;
	return kstats_trace_stop(file, (const char *)u->name);
}

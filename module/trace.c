// SPDX-License-Identifier: GPL-2.0
/*
 * TRACE and UNTRACE: checking a request, finding what to probe, creating
 * the metrics (NAME; GAP-NAME for a function; ONCPU-, RUNQ- and
 * BLOCKED-NAME with --split), measuring the probe floor (trace_floor.c),
 * attaching, and taking it all down again.
 *
 * GAP-NAME is the original patch's definition: the time from the end of
 * one call to the start of the next call on the same CPU.
 */
#include <linux/delay.h>
#include <linux/fault-inject.h>
#include <linux/kprobes.h>
#include <linux/mm.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/pid.h>
#include <linux/security.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/string.h>

#include "trace.h"

DEFINE_MUTEX(kstats_trace_lock);	/* kstats_probes; attach/detach */
LIST_HEAD(kstats_probes);

static bool kstats_is_tracepoint(const char *name)
{
	return !strncmp(name, "tp:", 3);
}

/*
 * What a new trace of @p's on the function at @addr would break for the
 * traces already there: -EBUSY for a second --self trace (both would keep
 * the task's one callee clock for the same frame, and each take the
 * other's time for a callee's), -ENOSPC past the entry data that fprobe on
 * the function graph shares between all probes of a function
 * (kstats_func_entry_words(), a group's kstats_group_words()); -EBUSY for
 * a second deferred trace of one file there (one group, one slot each).
 */
static int kstats_addr_shareable(struct kstats_probe *p, unsigned long addr)
{
	u32 words = kstats_func_entry_words(p) + kstats_group_words(addr);
	struct kstats_probe *q;

	list_for_each_entry(q, &kstats_probes, node) {
		if (q->detached || q->mode != KSTATS_MODE_FUNC || q->addr[0] != addr)
			continue;
		if ((p->self && q->self) ||
		    (p->deferred && q->deferred && q->creator == p->creator))
			return -EBUSY;
		if (q->mech == p->mech)
			words += kstats_func_entry_words(q);
	}
	return words > KSTATS_FGRAPH_WORDS_BUDGET ? -ENOSPC : 0;
}

static int kstats_attach(struct kstats_probe *p, const char *func,
			 const char *start, const char *end, u32 maxactive,
			 const struct kstats_uprobe *up, u32 nr_up)
{
	unsigned long addr = 0;
	int err;

	if (p->mech == KSTATS_MECH_UPROBE)
		return up ? kstats_uprobe_attach(p, up, nr_up) : -EINVAL;	/* labels only */
	if (p->mode == KSTATS_MODE_SECTION) {
		/* By kprobe: both ends must be probeable and not kstats. */
		if (p->mech == KSTATS_MECH_KPROBE && start) {
			err = kstats_resolve(start, &p->addr[0], NULL) ?:
			      kstats_resolve(end, &p->addr[1], NULL);
			if (err)
				return err;
		}
		return kstats_pair_attach(p, start, end);
	}
	/* A pattern's match was resolved by its check, under this lock. */
	addr = p->addr[0];
	err = (addr ? 0 : kstats_resolve(func, &addr, NULL)) ?:
	      kstats_addr_shareable(p, addr);
	if (err)
		return err;
	p->addr[0] = addr;
	p->maxactive = maxactive;
	return p->deferred ? 0 : kstats_func_attach(p, addr, maxactive);
}

/*
 * 0 once no handler of @p runs or can start; otherwise the kernel refused
 * to let go of @p, which stays attached and must not be freed.
 */
/*
 * Where the kernel has fault injection (the debug kernel): a failure point
 * for the kernel refusing to detach a probe, reached only through a task's
 * /proc/self/fail-nth (probability 0), as if an allocation there failed.
 * On 6.12 UNTRACE allocates nothing, and the kernels whose unregistration
 * does (6.14+) ship without fault injection: tests reach kstats' handling
 * of that refusal through here.
 */
#ifdef CONFIG_FAULT_INJECTION
static DECLARE_FAULT_ATTR(kstats_fail_detach);

static bool kstats_detach_refused(void)
{
	kstats_fail_detach.verbose = 0;	/* a stack dump would fail the lanes */
	return should_fail(&kstats_fail_detach, 1);
}
#else
static bool kstats_detach_refused(void)
{
	return false;
}
#endif

static int kstats_detach(struct kstats_probe *p)
{
	int err = kstats_detach_refused() ? -ENOMEM :
		  p->mech == KSTATS_MECH_UPROBE ? kstats_uprobe_detach(p) :
		  p->mode == KSTATS_MODE_SECTION ? kstats_pair_detach(p) :
		  kstats_func_detach(p);

	/* Exit handlers that started before the unregistration are done. */
	synchronize_rcu();
	if (!err && p->mode == KSTATS_MODE_FUNC)
		kstats_func_detached(p);
	/* The trace's module reference keeps kstats' handlers loaded meanwhile. */
	if (err)
		pr_warn("kstats: trace %s: the kernel did not detach its probe (%d); it stays\n",
			p->time_metric ? p->time_metric->name : "(floor)", err);
	return err;
}

/*
 * kstats is unloading and nobody can be told: the kernel gets a few more
 * chances to let go of @p (its failures are allocation failures). If it
 * never does, @p and what it points at are leaked, never freed. Only the
 * floor probes can be here (each trace holds a reference to kstats, so
 * kstats unloads only once no trace is left), and none of them uses the
 * scheduler's probes or a task context.
 */
int kstats_detach_retrying(struct kstats_probe *p)
{
	int tries = 10, err;

	while ((err = kstats_detach(p)) && --tries)
		msleep(100);
	WARN(err, "kstats: a probe the kernel keeps is leaked\n");
	return err;
}

void kstats_probe_free(struct kstats_probe *p)
{
	struct kstats_metric *m;
	unsigned int i;

	for (i = 0; (m = kstats_probe_metric(p, i)); i++)
		kstats_metric_put(m);
	kstats_keys_free(p);
	kstats_expr_free(p->expr);
	kstats_outlier_free(p);
	kstats_uprobe_free(p);
	if (p->cgroup)
		kstats_cgroup_put(p->cgroup);
	free_percpu(p->pcpu);
	free_cpumask_var(p->cpus);
	kvfree(p->tasks);
	kvfree(p->marks);
	kfree(p);
}

struct kstats_probe *kstats_probe_alloc(void)
{
	/* Charged to the tracer's memory cgroup (TRACE), as its metrics are. */
	struct kstats_probe *p = kzalloc(sizeof(*p), GFP_KERNEL_ACCOUNT);

	if (!p)
		return NULL;
	p->outlier_ns = U64_MAX;	/* no outliers until set up */
	p->pcpu = alloc_percpu_gfp(struct kstats_probe_pcpu, GFP_KERNEL_ACCOUNT);
	if (!p->pcpu || !zalloc_cpumask_var(&p->cpus, GFP_KERNEL_ACCOUNT)) {
		kstats_probe_free(p);
		return NULL;
	}
	return p;
}

/* @p's handlers are done: the scheduler's probes may go with the last. */
static void kstats_split_disarm(struct kstats_probe *p)
{
	if (p->split_armed)
		kstats_split_put();
	p->split_armed = false;
}

/* The mechanism for @mode that @want asks for, or an error. */
static int kstats_pick_mech(struct kstats_probe *p, u32 want, bool tracepoints)
{
	/* A user-space function, or a section between USDT probes. */
	if (want == KSTATS_MECH_UPROBE) {
		p->mech = want;
		return kstats_have_uprobe ? 0 : -EOPNOTSUPP;
	}
	if (p->mode == KSTATS_MODE_SECTION) {
		u32 mech = tracepoints ? KSTATS_MECH_TRACEPOINT : KSTATS_MECH_KPROBE;

#ifndef KSTATS_HAVE_TRACEPOINT_PAIRS
		if (tracepoints)
			return -EOPNOTSUPP;	/* a CFI kernel (compat.h) */
#endif

		if (want != KSTATS_MECH_AUTO && want != mech)
			return -EINVAL;
		p->mech = mech;
		return 0;
	}
	if (want == KSTATS_MECH_AUTO)
		want = kstats_have_fprobe ? KSTATS_MECH_FPROBE : KSTATS_MECH_KRETPROBE;
	if (want == KSTATS_MECH_FPROBE && !kstats_have_fprobe)
		return -EOPNOTSUPP;
	if (want != KSTATS_MECH_FPROBE && want != KSTATS_MECH_KRETPROBE)
		return -EINVAL;
	p->mech = want;
	return 0;
}

/*
 * A pid in the caller's namespace, as the kernel sees it everywhere; for a
 * tgid, only a thread group's leader has one (another thread's id would
 * match nothing).
 */
static int kstats_global_pid(s64 nr, enum pid_type type, pid_t *global)
{
	struct pid *pid;
	int err = 0;

	if (nr <= 0 || nr > PID_MAX_LIMIT)
		return -EINVAL;
	rcu_read_lock();
	pid = find_vpid(nr);
	if (!pid || !pid_task(pid, type))
		err = -ESRCH;
	else
		*global = pid_nr(pid);
	rcu_read_unlock();
	return err;
}

static int kstats_probe_filters(struct kstats_probe *p, const struct kstats_trace *req,
				const unsigned long *cpus)
{
	int err = 0;

	p->filter = req->flags & (KSTATS_TRACE_PID | KSTATS_TRACE_TGID | KSTATS_TRACE_CPUS |
				  KSTATS_TRACE_CGROUP);
	if (p->filter & KSTATS_TRACE_PID)
		err = kstats_global_pid(req->pid, PIDTYPE_PID, &p->pid);
	if (!err && (p->filter & KSTATS_TRACE_TGID))
		err = kstats_global_pid(req->tgid, PIDTYPE_TGID, &p->tgid);
	if (!err && (p->filter & KSTATS_TRACE_CPUS)) {
		bitmap_copy(cpumask_bits(p->cpus), cpus, nr_cpu_ids);
		if (cpumask_empty(p->cpus))
			err = -EINVAL;
	}
	if (!err && (p->filter & KSTATS_TRACE_CGROUP)) {
		p->cgroup = kstats_cgroup_get(req->cgroup_fd);
		if (IS_ERR(p->cgroup)) {
			err = PTR_ERR(p->cgroup);
			p->cgroup = NULL;
		}
	}
	return err;
}

static struct kstats_probe *kstats_probe_find(const char *name)
{
	struct kstats_probe *p;

	lockdep_assert_held(&kstats_trace_lock);
	list_for_each_entry(p, &kstats_probes, node)
		if (!strcmp(p->time_metric->name, name))
			return p;
	return NULL;
}

/*
 * A TRACE request, its strings, CPU mask, expr and uprobe already copied
 * in and checked for form by commands.c: func for a function, or start and
 * end. @expr (or NULL) is the trace's from here, whatever the outcome.
 */
int kstats_trace_start(struct file *file, const struct kstats_trace *req,
		       const char *func, const char *start, const char *end,
		       const unsigned long *cpus, struct kstats_expr_prog *expr,
		       const struct kstats_uprobe *up)
{
	struct kstats_probe *p;
	char target[KSTATS_NAME_MAX + 1];
	bool tracepoints = false;
	int err;

	err = security_locked_down(LOCKDOWN_KPROBES);
	p = err ? NULL : kstats_probe_alloc();
	if (!p) {
		kstats_expr_free(expr);
		return err ? -EPERM : -ENOMEM;
	}
	p->expr = expr;
	p->creator = file;
	p->autoremove = req->flags & KSTATS_TRACE_AUTOREMOVE;
	p->deferred = req->flags & KSTATS_TRACE_DEFER;
	if (func && req->mechanism != KSTATS_MECH_UPROBE &&
	    kstats_is_tracepoint(func)) {
		/* A point: a section of one tracepoint, a value per hit (commands.c). */
		p->mode = KSTATS_MODE_SECTION;
		p->point = true;
		tracepoints = true;
		start = func;
		func = NULL;
		snprintf(target, sizeof(target), "%s", start);
	} else if (func && up && up->role == KSTATS_UPROBE_POINT) {
		/* A USDT point: a value per hit, as a tracepoint's (trace_usdt.c). */
		p->mode = KSTATS_MODE_SECTION;
		p->point = true;
		snprintf(target, sizeof(target), "%s", func);
	} else if (func) {
		p->mode = KSTATS_MODE_FUNC;
		snprintf(target, sizeof(target), "%s", func);
	} else {
		p->mode = KSTATS_MODE_SECTION;
		tracepoints = kstats_is_tracepoint(start);
		snprintf(target, sizeof(target), "%s..%s", start, end);
	}
	err = (!func && !p->point && tracepoints != kstats_is_tracepoint(end)) ? -EINVAL :
	      kstats_pick_mech(p, req->mechanism, tracepoints) ?:
	      kstats_probe_filters(p, req, cpus) ?:
	      kstats_gov_setup(p, req);
	if (err)
		goto free;

	/* A pattern's match, a deferred trace: a kernel function. */
	if ((req->flags & (KSTATS_TRACE_MATCHED | KSTATS_TRACE_DEFER)) &&
	    (p->mode != KSTATS_MODE_FUNC || p->mech == KSTATS_MECH_UPROBE)) {
		err = -EINVAL;
		goto free;
	}
	/* Only a file can ATTACH what it deferred. */
	if (p->deferred && !file) {
		err = -EINVAL;
		goto free;
	}
	err = mutex_lock_killable(&kstats_trace_lock);
	if (err)
		goto free;
	err = kstats_defer_check(p);
	if (err)
		goto unlock;
	if (req->flags & KSTATS_TRACE_MATCHED) {
		err = kstats_match_check(func, &p->addr[0]);
		if (err)
			goto unlock;
	}
	/*
	 * The module cannot call user code: a user function's floor and costs
	 * are what the caller measured (kstats(4)), or unknown. No floor
	 * either for an event read by its record: perf builds the record,
	 * which the floor probes cannot time (trace_record.c). Without a
	 * calibrated cost the governor records every call, and says so.
	 */
	if (p->mech == KSTATS_MECH_UPROBE)
		kstats_gov_given(p, req->user_floor_ns, req->user_call_ps, req->user_skip_ps);
	else if (!kstats_expr_record_ends(p->expr) && !kstats_defer_floor(p))
		p->floor_ns = kstats_measure_floor(p);
	err = kstats_trace_metrics(p, req, target);
	if (err)
		goto unlock;
	/* The scheduler's probes before the first call that needs them. */
	err = kstats_outlier_setup(p, req) ?: p->task_ctx ? kstats_split_get() : 0;
	if (!err) {
		p->split_armed = p->task_ctx;
		err = kstats_attach(p, func, start, end, req->maxactive, up,
				    req->nr_uprobes);
	}
	if (err) {
		kstats_split_disarm(p);
		kstats_trace_metrics_delete(p);
		goto unlock;
	}
	list_add_tail(&p->node, &kstats_probes);
	/*
	 * Until UNTRACE removes it: the kernel points at kstats' handlers, and
	 * a probe it refuses to drop at unload would outlive them (rmmod is
	 * EBUSY while a trace exists). The caller's open file holds kstats.
	 */
	__module_get(THIS_MODULE);
	kstats_outlier_started(p);
	if (file)
		file->private_data = &kstats_probes;	/* see kstats_trace_file_closed() */
	kstats_probe_link(p, p);
	kstats_gov_mark(p);
	mutex_unlock(&kstats_trace_lock);
	if (p->gov.budget_ppm)
		kstats_gov_kick();
	return 0;
unlock:
	mutex_unlock(&kstats_trace_lock);
free:
	kstats_probe_free(p);
	return err;
}

/*
 * Detaches @p, waits for its handlers, deletes its metrics and frees it.
 * If the kernel does not let go of the probe, nothing changes: the trace
 * stays, attached and listed, and an error says why.
 */
static int kstats_probe_remove(struct kstats_probe *p)
{
	int err;

	lockdep_assert_held(&kstats_trace_lock);
	if (!p->detached && !p->deferred) {
		err = kstats_detach(p);
		if (err)
			return err;
	}
	list_del(&p->node);
	kstats_split_disarm(p);
	kstats_trace_metrics_delete(p);
	kstats_floor_fprobe_put(p);
	kstats_probe_free(p);
	module_put(THIS_MODULE);
	return 0;
}

int kstats_trace_stop(struct file *file, const char *name)
{
	struct kstats_probe *p;
	int err = mutex_lock_killable(&kstats_trace_lock);

	if (err)
		return err;
	p = kstats_probe_find(name);
	err = p ? kstats_probe_remove(p) : -ENOENT;
	mutex_unlock(&kstats_trace_lock);
	return err;
}

/* Every key value seen since the last call gets its metric in the registry. */
int kstats_trace_publish_keys(void)
{
	struct kstats_probe *p;
	int err = mutex_lock_killable(&kstats_trace_lock);

	if (err)
		return err;
	list_for_each_entry(p, &kstats_probes, node)
		kstats_keys_publish(p);
	mutex_unlock(&kstats_trace_lock);
	return 0;
}

int kstats_trace_names(struct seq_file *sf)
{
	struct kstats_probe *p;
	int err = mutex_lock_killable(&kstats_trace_lock);

	if (err)
		return err;
	list_for_each_entry(p, &kstats_probes, node)
		seq_printf(sf, "%s\n", p->time_metric->name);
	mutex_unlock(&kstats_trace_lock);
	return 0;
}

/*
 * @file closes: its auto-remove traces go. One the kernel keeps attached
 * stays, owned by no file, for UNTRACE to take down later. No trace keeps
 * a pointer to @file, whatever the outcome.
 */
void kstats_trace_file_closed(struct file *file)
{
	struct kstats_probe *p, *tmp;

	/*
	 * A file that never made a trace has none to take down, and must not
	 * wait for the lock: its process may be dying of SIGKILL in a SNAPSHOT
	 * queued behind an UNTRACE's grace period. (/dev/kstats keeps nothing
	 * else in private_data.)
	 */
	if (file->private_data != &kstats_probes)
		return;
	mutex_lock(&kstats_trace_lock);
	list_for_each_entry_safe(p, tmp, &kstats_probes, node) {
		if (p->creator != file)
			continue;
		/* Never attached: a deferred trace goes with its file. */
		if ((!p->autoremove && !p->deferred) || kstats_probe_remove(p)) {
			p->creator = NULL;
			p->autoremove = false;
		}
	}
	mutex_unlock(&kstats_trace_lock);
}

/*
 * SNAPSHOT's trace fields (hits, misses, skipped, floor, mode and cost) of
 * the trace @m belongs to; zeros otherwise.
 */
int kstats_trace_stats(struct kstats_metric *m, struct kstats_snapshot *sn)
{
	struct kstats_probe *p;
	u64 split_misses = 0, self_misses = 0, part_misses;
	int cpu, err;

	/* SNAPSHOT needs no privilege: it must not wait unkillably on TRACE. */
	err = mutex_lock_killable(&kstats_trace_lock);
	if (err)
		return err;
	p = m->probe;
	if (p) {
		for_each_possible_cpu(cpu) {
			sn->hits += per_cpu_ptr(p->pcpu, cpu)->hits;
			sn->misses += per_cpu_ptr(p->pcpu, cpu)->misses;
			sn->skipped += per_cpu_ptr(p->pcpu, cpu)->skipped;
			split_misses += per_cpu_ptr(p->pcpu, cpu)->split_misses;
			self_misses += per_cpu_ptr(p->pcpu, cpu)->self_misses;
			sn->faults += per_cpu_ptr(p->pcpu, cpu)->faults;
			sn->rejected += per_cpu_ptr(p->pcpu, cpu)->rejected;
		}
		sn->misses += p->mech == KSTATS_MECH_UPROBE ? 0 :
			      p->mode == KSTATS_MODE_FUNC ? kstats_func_missed(p) :
							    kstats_pair_missed(p);
		sn->group_misses = kstats_group_missed(p);
		sn->floor_ns = p->floor_ns;
		kstats_gov_snapshot(p, sn);
		/* A split part or self time misses also the calls recorded without one. */
		part_misses = m->kind == KSTATS_KIND_SELF ? self_misses :
			      m->kind == KSTATS_KIND_ONCPU || m->kind == KSTATS_KIND_RUNQ ||
			      m->kind == KSTATS_KIND_BLOCKED ? split_misses : 0;
		sn->misses += part_misses;
		sn->hits -= min(sn->hits, part_misses);
		/*
		 * A key's metric: the calls keyed to it. A missed or declined
		 * call has no key (its end was not seen): those stay the trace's.
		 */
		if (m->kind == KSTATS_KIND_KEY)
			sn->hits = kstats_metric_count(m);
		/*
		 * The metrics a value has beside the trace's own NAME
		 * (VALUE-NAME, NEG-NAME): the calls each holds. NAME keeps the
		 * trace's hits, as it keeps its misses, faults and rejected.
		 */
		if (m == p->value_metric || m == p->neg_metric)
			sn->hits = kstats_metric_count(m);
	}
	mutex_unlock(&kstats_trace_lock);
	return 0;
}

/* SNAPSHOT of a key's metric: a stack key's frames (trace_keys.c). */
int kstats_trace_key_frames(struct kstats_metric *m, struct kstats_snapshot *sn,
			    bool privileged)
{
	int err = mutex_lock_killable(&kstats_trace_lock);

	if (err)
		return err;
	err = kstats_keys_frames(m, sn, privileged);
	mutex_unlock(&kstats_trace_lock);
	return err;
}

/*
 * The governor's look at every budgeted trace (governor.c decides); one
 * whose declined calls alone cost more than its budget detaches here.
 * Runs again while any trace has a budget.
 */
void kstats_gov_run(void)
{
	u64 now = ktime_get_ns();
	struct kstats_probe *p;
	bool again = false;

	mutex_lock(&kstats_trace_lock);
	list_for_each_entry(p, &kstats_probes, node) {
		if (p->detached || p->deferred || !p->gov.budget_ppm)
			continue;
		again = true;
		if (!kstats_gov_update(p, now) || kstats_detach(p))
			continue;
		p->detached = true;
		kstats_split_disarm(p);
		kstats_probe_mark_detached(p);
		kstats_gov_detached(p, ktime_get_ns());
		kstats_floor_fprobe_put(p);
	}
	mutex_unlock(&kstats_trace_lock);
	if (again)
		kstats_gov_kick();
}

/*
 * @fn on the trace named @name, or on every trace (@name NULL), under the
 * trace lock: @fn's result (for every trace, the OR of them), -ENOENT when
 * there is no such trace, or -EINTR. Needs no privilege: killable.
 */
int kstats_trace_call(const char *name, int (*fn)(struct kstats_probe *p, void *arg),
		      void *arg)
{
	struct kstats_probe *p;
	int ret = mutex_lock_killable(&kstats_trace_lock);

	if (ret)
		return ret;
	if (name) {
		p = kstats_probe_find(name);
		ret = p ? fn(p, arg) : -ENOENT;
	} else {
		list_for_each_entry(p, &kstats_probes, node)
			ret |= fn(p, arg);
	}
	mutex_unlock(&kstats_trace_lock);
	return ret;
}

/* Whether @addr is text of @mod that is going away: all of it, or its init. */
static bool kstats_text_gone(unsigned long addr, struct module *mod, bool init_only)
{
	return init_only ? within_module_init(addr, mod) : within_module(addr, mod);
}

/*
 * Text of @mod goes away: all of it (the module unloads), or its init text
 * (init is done and the module is live). Traces on it detach now, while
 * the text is still there (a stale probe would otherwise time whatever is
 * loaded at that address later). Their metrics stay, with what they
 * recorded, marked detached, until UNTRACE. Tracepoint pairs hold their
 * events' module, so none of them is ever here.
 */
void kstats_trace_module_text_gone(struct module *mod, bool init_only)
{
	struct kstats_probe *p;

	mutex_lock(&kstats_trace_lock);
	list_for_each_entry(p, &kstats_probes, node) {
		if (p->detached || p->mech == KSTATS_MECH_TRACEPOINT ||
		    !(kstats_text_gone(p->addr[0], mod, init_only) ||
		      kstats_text_gone(p->addr[1], mod, init_only)))
			continue;
		/* Kept attached: the kernel drops probes on text it frees. */
		if (!p->deferred && kstats_detach(p))
			continue;
		p->deferred = false;	/* ATTACH skips it */
		p->detached = true;
		kstats_split_disarm(p);
		kstats_probe_mark_detached(p);
		kstats_floor_fprobe_put(p);
		pr_info("kstats: trace %s detached: module %s %s\n",
			p->time_metric->name, mod->name,
			init_only ? "freed its init code" : "unloaded");
	}
	mutex_unlock(&kstats_trace_lock);
}

void kstats_trace_exit(void)
{
	struct kstats_probe *p, *tmp;

	kstats_gov_stop();	/* it takes the lock */
	mutex_lock(&kstats_trace_lock);
	list_for_each_entry_safe(p, tmp, &kstats_probes, node) {
		if (!p->detached && !p->deferred && kstats_detach_retrying(p))
			continue;	/* leaked: see kstats_detach_retrying() */
		p->detached = true;
		kstats_probe_remove(p);
	}
	kstats_floors_free();
	kstats_split_exit();
	mutex_unlock(&kstats_trace_lock);
	kstats_outlier_exit();
}

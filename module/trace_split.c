// SPDX-License-Identifier: GPL-2.0
/*
 * Where a traced call's time went (TRACE with KSTATS_TRACE_SPLIT): on a
 * CPU, waiting on a runqueue (runnable, not running), or blocked (asleep).
 *
 * A task inside a split call owns a context: two clocks that only move
 * while it is off its CPU, time runnable and time blocked. The scheduler's
 * own events keep them: sched_switch says when the task leaves its CPU and
 * whether it stays runnable (preempted, or woken before it could block) or
 * blocks (prev_state, read by the scheduler itself, so no wakeup can race
 * it, and whether the task is still on its runqueue: see
 * kstats_task_stays_runnable()); sched_wakeup says when a blocked task
 * becomes runnable again; the next sched_switch that runs it adds what
 * passed. A call keeps the two
 * clocks' values at entry, and at exit records the differences: waiting
 * (runqueue), blocked, and the rest of its wall time, on a CPU. The three
 * sum to the wall time by construction.
 *
 * The probes on the scheduler exist only while a split trace does; a
 * context switch then costs a look at one per-CPU pointer, and a hash
 * lookup only while some task is inside a split call. Contexts are kept in
 * one table for all split traces, claimed and given back by their own task
 * only (first entry, last exit, or its death), so nested and recursive
 * calls, and calls of several traces, share one.
 *
 * Self time (TRACE with KSTATS_TRACE_SELF) keeps one more clock there: the
 * time in --self calls that ended while the task's current one runs. A
 * call keeps it at entry; at exit the difference is its callees' time, and
 * the clock is set back to the entry's value plus this call's duration, so
 * its caller sees this call's whole time once and none of its callees'.
 */
#include <linux/hash.h>
#include <linux/mm.h>
#include <linux/sched.h>
#include <linux/sched/task.h>
#include <linux/slab.h>
#include <linux/tracepoint.h>

#include "trace.h"

#ifdef KSTATS_HAVE_SPLIT

#define KSTATS_CTX_WINDOW	16	/* slots a task may live in */

/*
 * Tasks that can be inside split or self calls at once, all traces
 * together: a power of two, read when the first such trace attaches. A
 * task asleep inside a traced call holds its context meanwhile.
 */
static unsigned int kstats_ctx_slots = 4096;
module_param_named(task_contexts, kstats_ctx_slots, uint, 0644);
MODULE_PARM_DESC(task_contexts,
		 "tasks inside --split/--self calls at once (a power of two, 64..1048576; default 4096)");
static unsigned int kstats_ctx_bits;	/* ilog2 of the table's size, while it exists */

enum kstats_ctx_state {
	KSTATS_CTX_RUNNING,
	KSTATS_CTX_RUNNABLE,		/* off its CPU, still runnable */
	KSTATS_CTX_BLOCKED,		/* off its CPU, asleep */
};

struct kstats_task_ctx {
	u64 owner;			/* generation << 32 | tid; tid 0: free */
#define KSTATS_CTX_CLAIMING	U32_MAX	/* the tid while a claimer fills it in */
	u64 start_time;			/* the owner's task->start_time */
	u32 depth;			/* split calls in flight */
	u32 state;			/* enum kstats_ctx_state */
	u64 t_out;			/* when it left its CPU */
	u64 t_wake;			/* when woken, if blocked; or 0 */
	u64 runq_ns, blocked_ns;	/* only ever grow */
	u64 callee_ns;			/* --self: see above */
};

static struct kstats_task_ctx *kstats_ctxs;
static atomic_t kstats_ctxs_owned = ATOMIC_INIT(0);
static DEFINE_PER_CPU(struct kstats_task_ctx *, kstats_cur_ctx);
static unsigned int kstats_split_users;	/* split traces, under kstats_trace_lock */
static struct tracepoint *kstats_tp_switch, *kstats_tp_wakeup;

static struct kstats_task_ctx *kstats_ctx_slot(struct task_struct *t, u32 i)
{
	return &kstats_ctxs[(hash_32(t->pid, kstats_ctx_bits) + i) &
			    ((1U << kstats_ctx_bits) - 1)];
}

static bool kstats_ctx_owned_by(struct kstats_task_ctx *c, struct task_struct *t)
{
	/* Pairs with the claim's release: start_time is the owner's. */
	u64 owner = smp_load_acquire(&c->owner);

	return lower_32_bits(owner) == t->pid &&
	       READ_ONCE(c->start_time) == t->start_time;
}

static struct kstats_task_ctx *kstats_ctx_find(struct task_struct *t)
{
	u32 i;

	for (i = 0; i < KSTATS_CTX_WINDOW; i++) {
		struct kstats_task_ctx *c = kstats_ctx_slot(t, i);

		if (kstats_ctx_owned_by(c, t))
			return c;
	}
	return NULL;
}

/*
 * A claim's first step, which one cmpxchg wins among tasks racing for a
 * free slot: from then until kstats_ctx_claim_end() the slot is neither
 * free nor anyone's.
 */
static bool kstats_ctx_claim_begin(struct kstats_task_ctx *c, u64 seen)
{
	return cmpxchg(&c->owner, seen, (u64)(upper_32_bits(seen) + 1) << 32 |
		       KSTATS_CTX_CLAIMING) == seen;
}

static void kstats_ctx_claim_end(struct kstats_task_ctx *c, struct task_struct *t)
{
	c->start_time = t->start_time;
	c->depth = 0;
	c->state = KSTATS_CTX_RUNNING;
	c->t_wake = 0;
	c->runq_ns = 0;
	c->blocked_ns = 0;
	c->callee_ns = 0;
	/* The fields before the tid: whoever sees it owned sees them. */
	smp_store_release(&c->owner, (u64)upper_32_bits(c->owner) << 32 | t->pid);
	atomic_inc(&kstats_ctxs_owned);
}

/* The current task's context, claimed if it has none; NULL if all taken. */
static struct kstats_task_ctx *kstats_ctx_get(void)
{
	struct kstats_task_ctx *c = this_cpu_read(kstats_cur_ctx);
	u64 seen;
	u32 i;

	if (c && kstats_ctx_owned_by(c, current))
		return c;
	c = kstats_ctx_find(current);
	if (c) {
		this_cpu_write(kstats_cur_ctx, c);
		return c;
	}
	for (i = 0; i < KSTATS_CTX_WINDOW; i++) {
		c = kstats_ctx_slot(current, i);
		seen = READ_ONCE(c->owner);
		if (lower_32_bits(seen) || !kstats_ctx_claim_begin(c, seen))
			continue;
		kstats_ctx_claim_end(c, current);
		this_cpu_write(kstats_cur_ctx, c);
		return c;
	}
	return NULL;
}

/* Only its owner gives a context back: at its last exit or its death. */
static void kstats_ctx_put(struct kstats_task_ctx *c)
{
	/* Our last writes to it before the slot is seen free. */
	smp_store_release(&c->owner, (u64)(upper_32_bits(c->owner) + 1) << 32);
	atomic_dec(&kstats_ctxs_owned);
	if (this_cpu_read(kstats_cur_ctx) == c)
		this_cpu_write(kstats_cur_ctx, NULL);
}

/*
 * Whether @prev, leaving its CPU, stays runnable. @prev_state is the state
 * the scheduler read before deciding; before upstream 8feb053d5319 (6.16,
 * and stable trees that took it) it stays the sleep state when a pending
 * signal kept the task on its runqueue. on_rq tells, under the runqueue
 * lock held here; a task whose dequeue is delayed (EEVDF, 6.12+) is still
 * on it, asleep.
 */
static bool kstats_task_stays_runnable(bool preempt, struct task_struct *prev,
				       unsigned int prev_state)
{
	if (preempt || prev_state == TASK_RUNNING)
		return true;
	return READ_ONCE(prev->on_rq) && !kstats_sched_delayed(prev);
}

/* Called with the runqueue locked and interrupts off (RT included). */
static void kstats_sched_switch(void *data, bool preempt, struct task_struct *prev,
				struct task_struct *next, unsigned int prev_state)
{
	struct kstats_task_ctx *c = this_cpu_read(kstats_cur_ctx);
	u64 now;

	if (!c && !atomic_read(&kstats_ctxs_owned))
		return;
	now = kstats_probe_now();
	if (c && kstats_ctx_owned_by(c, prev)) {
		if (prev_state & TASK_DEAD) {
			/* Its calls never return. */
			kstats_ctx_put(c);
		} else {
			WRITE_ONCE(c->t_wake, 0);
			WRITE_ONCE(c->t_out, now);
			WRITE_ONCE(c->state, kstats_task_stays_runnable(preempt, prev, prev_state) ?
				   KSTATS_CTX_RUNNABLE : KSTATS_CTX_BLOCKED);
		}
	}
	this_cpu_write(kstats_cur_ctx, NULL);
	/* The idle task (pid 0 on every CPU) owns no context. */
	if (!next->pid || !atomic_read(&kstats_ctxs_owned))
		return;
	c = kstats_ctx_find(next);
	if (!c)
		return;
	if (c->state != KSTATS_CTX_RUNNING && now >= c->t_out) {
		u64 woken = READ_ONCE(c->t_wake);

		if (c->state == KSTATS_CTX_RUNNABLE) {
			c->runq_ns += now - c->t_out;
		} else if (woken >= c->t_out && woken <= now) {
			c->blocked_ns += woken - c->t_out;
			c->runq_ns += now - woken;
		} else {
			/* No wakeup seen (or a clock step): all of it asleep. */
			c->blocked_ns += now - c->t_out;
		}
	}
	c->state = KSTATS_CTX_RUNNING;
	this_cpu_write(kstats_cur_ctx, c);
}

/* Under the woken task's runqueue lock, on any CPU. */
static void kstats_sched_wakeup(void *data, struct task_struct *p)
{
	struct kstats_task_ctx *c;

	if (!p->pid || !atomic_read(&kstats_ctxs_owned))
		return;
	c = kstats_ctx_find(p);
	if (c && READ_ONCE(c->state) == KSTATS_CTX_BLOCKED && !READ_ONCE(c->t_wake))
		WRITE_ONCE(c->t_wake, kstats_probe_now());
}

/*
 * A call begins: keep where the current task's clocks stand. Outside task
 * context (interrupts) a call cannot leave its CPU: no context, all of it
 * on a CPU. A task that finds the table full has no split for this call.
 */
void kstats_split_begin(struct kstats_probe *p, struct kstats_split_mark *m)
{
	struct kstats_task_ctx *c;

	m->ctx = NULL;
	if (!in_task() || !current->pid)
		return;
	c = kstats_ctx_get();
	if (!c) {
		m->ctx = KSTATS_CTX_MISSED;
		return;
	}
	c->depth++;
	m->ctx = c;
	m->runq_ns = c->runq_ns;
	m->blocked_ns = c->blocked_ns;
	m->callee_ns = c->callee_ns;
}

/*
 * The call that began with @m ends, @wall ns later (KSTATS_NOT_RECORDED:
 * the trace did not record it, but its context still counts it out).
 */
void kstats_split_end(struct kstats_probe *p, const struct kstats_split_mark *m, u64 wall)
{
	struct kstats_task_ctx *c = m->ctx;
	u64 runq = 0, blocked = 0, callees = 0;
	bool missed = c == KSTATS_CTX_MISSED;

	if (missed) {
		c = NULL;
	} else if (c && !kstats_ctx_owned_by(c, current)) {
		missed = true;	/* given back at a detach; see kstats_split_put() */
	} else if (c) {
		runq = c->runq_ns - m->runq_ns;
		blocked = c->blocked_ns - m->blocked_ns;
		callees = c->callee_ns - m->callee_ns;
		if (p->self && wall != KSTATS_NOT_RECORDED)
			c->callee_ns = m->callee_ns + wall;
		if (!--c->depth)
			kstats_ctx_put(c);
	}
	if (wall == KSTATS_NOT_RECORDED)
		return;
	/*
	 * Callees ran between this call's two clock reads, on its task; a call
	 * outside task context (no context) has no callees known.
	 */
	if (p->self) {
		if (missed || !c || callees > wall)
			this_cpu_inc(p->pcpu->self_misses);
		else
			kstats_record(p->self, wall - callees);
	}
	if (!p->split[0])
		return;
	/* Off-CPU time lies between the call's own two clock reads. */
	if (missed || runq > wall || blocked > wall - runq) {
		this_cpu_inc(p->pcpu->split_misses);
		return;
	}
	kstats_record(p->split[KSTATS_SPLIT_ONCPU], wall - runq - blocked);
	kstats_record(p->split[KSTATS_SPLIT_RUNQ], runq);
	kstats_record(p->split[KSTATS_SPLIT_BLOCKED], blocked);
}

/*
 * A split trace is attaching: the scheduler's probes, if not there yet.
 * This and kstats_split_put() run under trace.c's kstats_trace_lock.
 */
int kstats_split_get(void)
{
	int err;

	if (kstats_split_users) {
		kstats_split_users++;
		return 0;
	}
	if (!kstats_ctxs) {
		unsigned int slots = READ_ONCE(kstats_ctx_slots);

		if (slots < 64 || slots > 1U << 20 || !is_power_of_2(slots))
			return -EINVAL;
		kstats_ctxs = kvcalloc(slots, sizeof(*kstats_ctxs), GFP_KERNEL);
		if (!kstats_ctxs)
			return -ENOMEM;
		kstats_ctx_bits = ilog2(slots);
	}
	kstats_tp_switch = kstats_core_tracepoint("sched_switch");
	kstats_tp_wakeup = kstats_core_tracepoint("sched_wakeup");
	if (!kstats_tp_switch || !kstats_tp_wakeup)
		return -EOPNOTSUPP;
	err = tracepoint_probe_register(kstats_tp_switch, kstats_sched_switch, NULL);
	if (err)
		return err;
	err = tracepoint_probe_register(kstats_tp_wakeup, kstats_sched_wakeup, NULL);
	if (err) {
		tracepoint_probe_unregister(kstats_tp_switch, kstats_sched_switch, NULL);
		tracepoint_synchronize_unregister();
		return err;
	}
	kstats_split_users = 1;
	return 0;
}

/*
 * The last split trace is gone (its handlers too): no probe on the
 * scheduler, and no context left owned, not even by calls whose exits were
 * lost with a detached trace.
 */
void kstats_split_put(void)
{
	int cpu;

	if (WARN_ON_ONCE(!kstats_split_users) || --kstats_split_users)
		return;
	tracepoint_probe_unregister(kstats_tp_switch, kstats_sched_switch, NULL);
	tracepoint_probe_unregister(kstats_tp_wakeup, kstats_sched_wakeup, NULL);
	tracepoint_synchronize_unregister();
	atomic_set(&kstats_ctxs_owned, 0);
	for_each_possible_cpu(cpu)
		per_cpu(kstats_cur_ctx, cpu) = NULL;
	/* The next first split trace reads the size again. */
	kvfree(kstats_ctxs);
	kstats_ctxs = NULL;
}

void kstats_split_exit(void)
{
	WARN_ON_ONCE(kstats_split_users);
	kvfree(kstats_ctxs);
}

#else /* no prev_state in sched_switch (before 5.18) */

void kstats_split_begin(struct kstats_probe *p, struct kstats_split_mark *m)
{
}

void kstats_split_end(struct kstats_probe *p, const struct kstats_split_mark *m, u64 wall)
{
}

int kstats_split_get(void)
{
	return -EOPNOTSUPP;
}

void kstats_split_put(void)
{
}

void kstats_split_exit(void)
{
}

#endif

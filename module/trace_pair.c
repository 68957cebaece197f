// SPDX-License-Identifier: GPL-2.0
/*
 * Timing a section: from reaching one point (a function entry, by kprobe,
 * or a tracepoint) to reaching another, per task. The start time is kept
 * in a small hash table keyed by task, so a task that is preempted or
 * migrates between the two points is still paired with its own start:
 * never with another task's. A start that finds the table full, or that
 * comes again before its end, is counted as missed. Only task context
 * counts: points reached from interrupts belong to no task's section.
 */
#include <linux/hash.h>
#include <linux/kprobes.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/tracepoint.h>

#include "trace.h"

#define KSTATS_TASK_WINDOW	16	/* slots a task may live in */
#define KSTATS_TASK_STALE_NS	(10ULL * NSEC_PER_SEC)

struct kstats_task_slot {
	struct task_struct *task;	/* owner, claimed with cmpxchg */
	u64 start_time;			/* the owner's task->start_time */
	u64 t0;				/* when it reached the start point */
};

static bool kstats_slot_mine(struct kstats_task_slot *s, struct task_struct *t)
{
	/* start_time tells a task from a later one at the same address. */
	return READ_ONCE(s->task) == t && s->start_time == t->start_time;
}

static void kstats_section_begin(struct kstats_probe *p)
{
	u32 h = hash_ptr(current, ilog2(KSTATS_TASK_SLOTS)), i;
	u64 now = kstats_probe_now();
	struct task_struct *old;
	struct kstats_task_slot *s;

	if (!in_task() || !kstats_probe_wants(p))
		return;
	for (i = 0; i < KSTATS_TASK_WINDOW; i++) {
		s = &p->tasks[(h + i) % KSTATS_TASK_SLOTS];
		if (kstats_slot_mine(s, current)) {
			/* Started again without ending: the first is lost. */
			this_cpu_inc(p->pcpu->misses);
			s->t0 = now;
			return;
		}
	}
	for (i = 0; i < KSTATS_TASK_WINDOW; i++) {
		u64 t0;

		s = &p->tasks[(h + i) % KSTATS_TASK_SLOTS];
		old = READ_ONCE(s->task);
		t0 = READ_ONCE(s->t0);
		/*
		 * Free, or a start never ended for 10 s (its task is gone?).
		 * A t0 newer than now (another CPU just claimed the slot) is
		 * not stale: now - t0 would wrap.
		 */
		if (old && !(now > t0 && now - t0 >= KSTATS_TASK_STALE_NS))
			continue;
		if (cmpxchg(&s->task, old, current) != old)
			continue;
		s->start_time = current->start_time;
		s->t0 = now;
		return;
	}
	this_cpu_inc(p->pcpu->misses);
}

static void kstats_section_end(struct kstats_probe *p)
{
	u32 h = hash_ptr(current, ilog2(KSTATS_TASK_SLOTS)), i;
	struct kstats_task_slot *s;

	if (!in_task())
		return;
	for (i = 0; i < KSTATS_TASK_WINDOW; i++) {
		s = &p->tasks[(h + i) % KSTATS_TASK_SLOTS];
		if (kstats_slot_mine(s, current)) {
			u64 t0 = READ_ONCE(s->t0);

			/*
			 * Free the slot only if it is still ours, not reclaimed
			 * as stale meanwhile; the full barrier keeps the t0 read
			 * before it, so t0 is our own.
			 */
			if (cmpxchg(&s->task, current, NULL) != current)
				return;
			/* Stopped or filtered since the start: drop it quietly. */
			if (kstats_probe_wants(p))
				kstats_probe_end(p, t0);
			return;
		}
	}
	/* An end without a start (or its start was dropped): not a section. */
}

static int kstats_kprobe_start(struct kprobe *kp, struct pt_regs *regs)
{
	kstats_section_begin(container_of(kp, struct kstats_probe, kp[0]));
	return 0;
}

static int kstats_kprobe_end(struct kprobe *kp, struct pt_regs *regs)
{
	kstats_section_end(container_of(kp, struct kstats_probe, kp[1]));
	return 0;
}

#ifdef KSTATS_HAVE_TRACEPOINT_PAIRS
/* Registered on events of any prototype: the arguments are not read. */
static void kstats_tp_start(void *data)
{
	kstats_section_begin(data);
}

static void kstats_tp_end(void *data)
{
	kstats_section_end(data);
}

struct kstats_tp_search {
	const char *name;
	struct tracepoint *found;
};

static void kstats_tp_match(struct tracepoint *tp, void *priv)
{
	struct kstats_tp_search *search = priv;

	if (!strcmp(tp->name, search->name))
		search->found = tp;
}

/* "tp:[system:]event": core kernel tracepoints, by event name. */
int kstats_tracepoint_find(const char *name, struct tracepoint **tp)
{
	struct kstats_tp_search search = { .name = strrchr(name, ':') + 1 };

	for_each_kernel_tracepoint(kstats_tp_match, &search);
	*tp = search.found;
	return search.found ? 0 : -ENOENT;
}
#else
int kstats_tracepoint_find(const char *name, struct tracepoint **tp)
{
	return -EOPNOTSUPP;
}
#endif

int kstats_pair_init(struct kstats_probe *p)
{
	p->tasks = kvcalloc(KSTATS_TASK_SLOTS, sizeof(*p->tasks), GFP_KERNEL);
	return p->tasks ? 0 : -ENOMEM;
}

int kstats_pair_attach(struct kstats_probe *p, const char *start, const char *end)
{
	int err = kstats_pair_init(p);

	if (err)
		return err;
#ifdef KSTATS_HAVE_TRACEPOINT_PAIRS
	if (p->mech == KSTATS_MECH_TRACEPOINT) {
		err = kstats_tracepoint_find(start, &p->tp[0]) ?:
		      kstats_tracepoint_find(end, &p->tp[1]);
		if (err)
			return err;
		if (p->tp[0] == p->tp[1])
			return -EINVAL;
		err = tracepoint_probe_register(p->tp[0], kstats_tp_start, p);
		if (err)
			return err;
		err = tracepoint_probe_register(p->tp[1], kstats_tp_end, p);
		if (err) {
			tracepoint_probe_unregister(p->tp[0], kstats_tp_start, p);
			tracepoint_synchronize_unregister();
		}
		return err;
	}
#endif
	p->kp[0].symbol_name = start;
	p->kp[0].pre_handler = kstats_kprobe_start;
	p->kp[1].symbol_name = end;
	p->kp[1].pre_handler = kstats_kprobe_end;
	err = register_kprobe(&p->kp[0]);
	if (err)
		return err;
	err = register_kprobe(&p->kp[1]);
	if (err)
		unregister_kprobe(&p->kp[0]);
	return err;
}

/* Returns once no handler of @p runs or can start. */
void kstats_pair_detach(struct kstats_probe *p)
{
#ifdef KSTATS_HAVE_TRACEPOINT_PAIRS
	if (p->mech == KSTATS_MECH_TRACEPOINT) {
		tracepoint_probe_unregister(p->tp[0], kstats_tp_start, p);
		tracepoint_probe_unregister(p->tp[1], kstats_tp_end, p);
		tracepoint_synchronize_unregister();
		return;
	}
#endif
	unregister_kprobe(&p->kp[0]);
	unregister_kprobe(&p->kp[1]);
}

u64 kstats_pair_missed(struct kstats_probe *p)
{
	if (p->mech == KSTATS_MECH_TRACEPOINT)
		return 0;
	return (u64)READ_ONCE(p->kp[0].nmissed) + READ_ONCE(p->kp[1].nmissed);
}

/* The floor of tracepoint pairs: their handlers, back to back. */
void kstats_pair_run_empty(struct kstats_probe *p)
{
	kstats_section_begin(p);
	kstats_section_end(p);
}

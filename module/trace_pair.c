// SPDX-License-Identifier: GPL-2.0
/*
 * Timing a section: from reaching one point (a function entry, by kprobe,
 * or a tracepoint) to reaching another, per task. The start time is kept
 * in a small hash table keyed by task, so a task that is preempted or
 * migrates between the two points is still paired with its own start:
 * never with another task's. A start that finds the table full, or that
 * comes again before its end, is counted as missed. Only task context
 * counts: points reached from interrupts belong to no task's section.
 * An expr reads the start's arguments at the start (kept in the task's
 * slot, as a function's entry data) and the end's at the end: a
 * tracepoint's as its probe gets them, a function's from the kprobe's
 * registers at its entry. A point (one tracepoint) records a value at
 * every hit, from any context.
 */
#include <linux/hash.h>
#include <linux/kprobes.h>
#include <linux/mm.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/trace_events.h>
#include <linux/tracepoint.h>

#include "trace.h"

#define KSTATS_TASK_WINDOW	16	/* slots a task may live in */
#define KSTATS_TASK_STALE_NS	(10ULL * NSEC_PER_SEC)

/*
 * A slot's owner word: a generation in the high half, bumped by every claim
 * and release, and the owner's thread id in the low half (0: free). A claim
 * or release is one cmpxchg of the whole word, so it succeeds only if
 * nobody claimed or released the slot since it was read: a start is never
 * stolen half-written, nor freed by anyone but its owner. While the owner
 * fills in t0 the tid is KSTATS_TID_CLAIMING, which no one takes.
 */
#define KSTATS_TID_CLAIMING	U32_MAX

struct kstats_task_slot {
	u64 owner;			/* generation << 32 | tid */
	u64 start_time;			/* the owner's task->start_time */
	u64 t0;				/* when it reached the start point */
	u32 cpu;			/* and on which CPU, for outliers */
	struct kstats_call_expr cx;	/* an expr's, from the start */
};

static u32 kstats_owner_tid(u64 owner)
{
	return lower_32_bits(owner);
}

static u64 kstats_owner_next(u64 owner, u32 tid)
{
	return (u64)(upper_32_bits(owner) + 1) << 32 | tid;
}

/* Whether @s holds a start of the current task, and its owner word. */
static bool kstats_slot_mine(struct kstats_task_slot *s, u64 *owner)
{
	/* Pairs with the claim's release: start_time and t0 are the owner's. */
	*owner = smp_load_acquire(&s->owner);
	/* start_time tells a task from a later one with the same tid. */
	return kstats_owner_tid(*owner) == current->pid &&
	       READ_ONCE(s->start_time) == current->start_time;
}

static bool kstats_slot_claim(struct kstats_task_slot *s, u64 seen, u64 now,
			      const struct kstats_call_expr *cx)
{
	if (cmpxchg(&s->owner, seen, kstats_owner_next(seen, KSTATS_TID_CLAIMING)) != seen)
		return false;
	WRITE_ONCE(s->start_time, current->start_time);
	WRITE_ONCE(s->t0, now);
	s->cx = *cx;
	/* Raw: the floor of tracepoint pairs runs this preemptible. */
	WRITE_ONCE(s->cpu, raw_smp_processor_id());
	/* t0, cpu, cx, start_time before the tid: a reader that sees us sees them. */
	smp_store_release(&s->owner, kstats_owner_next(seen, current->pid));
	return true;
}

/* A start never ended for 10 s: its task is gone, or blocked for good. */
static bool kstats_slot_stale(struct kstats_task_slot *s, u64 seen, u64 now)
{
	u32 tid = kstats_owner_tid(seen);
	u64 t0 = READ_ONCE(s->t0);

	return tid && tid != KSTATS_TID_CLAIMING && now > t0 &&
	       now - t0 >= KSTATS_TASK_STALE_NS;
}

static struct kstats_task_slot *kstats_task_window(struct kstats_probe *p, u32 i)
{
	u32 h = hash_32(current->pid, ilog2(KSTATS_TASK_SLOTS));

	return &p->tasks[(h + i) % KSTATS_TASK_SLOTS];
}

/* Only task context counts; the idle tasks (tid 0) run no sections. */
static bool kstats_section_task(void)
{
	return in_task() && current->pid;
}

/*
 * --split: a section's mark sits beside its slot (p->marks, same index),
 * written by the slot's owner once it holds the slot.
 */
static void kstats_section_split_begin(struct kstats_probe *p, struct kstats_task_slot *s)
{
	if (p->marks)
		kstats_split_begin(p, &p->marks[s - p->tasks]);
}

/*
 * A start declined by sampling: an earlier start of this task, never
 * ended, must not pair with the end of this section. It is lost, as when
 * a start comes again before its end.
 */
static void kstats_section_forget(struct kstats_probe *p)
{
	struct kstats_split_mark mark;
	struct kstats_task_slot *s;
	u64 seen;
	u32 i;

	for (i = 0; i < KSTATS_TASK_WINDOW; i++) {
		s = kstats_task_window(p, i);
		if (!kstats_slot_mine(s, &seen))
			continue;
		if (p->marks)
			mark = p->marks[s - p->tasks];
		if (cmpxchg(&s->owner, seen, kstats_owner_next(seen, 0)) != seen)
			return;
		this_cpu_inc(p->pcpu->misses);
		if (p->marks)
			kstats_split_end(p, &mark, KSTATS_NOT_RECORDED);
		return;
	}
}

/*
 * @args: the start's arguments (KSTATS_SECTION_ARGS), or NULL (no expr: a
 * USDT probe, the floor): read by an expr here. A start its predicate declines
 * or whose read faults (counted there) starts nothing, and ends an earlier
 * start of the task as sampling does.
 */
void kstats_section_begin(struct kstats_probe *p, const unsigned long *args)
{
	u64 now = kstats_probe_now(), seen;
	struct kstats_call_expr cx = { .decided = true };
	struct kstats_task_slot *s;
	u32 i;

	if (!kstats_section_task() || !kstats_probe_wants(p))
		return;
	if (kstats_probe_declines(p, READ_ONCE(p->sample_every)) ||
	    (unlikely(p->expr) && args && kstats_expr_begin_args(p, args, &cx))) {
		kstats_section_forget(p);
		return;
	}
	for (i = 0; i < KSTATS_TASK_WINDOW; i++) {
		s = kstats_task_window(p, i);
		if (kstats_slot_mine(s, &seen)) {
			/* Started again without ending: the first is lost. */
			this_cpu_inc(p->pcpu->misses);
			if (p->marks)
				kstats_split_end(p, &p->marks[s - p->tasks],
						 KSTATS_NOT_RECORDED);
			/*
			 * Through a claim, never a plain store: another task
			 * may be taking the slot as stale right now.
			 */
			if (kstats_slot_claim(s, seen, now, &cx))
				goto claimed;
			break;	/* it did: look for a slot anew */
		}
	}
	/* A free slot first: a stale one may yet be ended by its task. */
	for (i = 0; i < KSTATS_TASK_WINDOW; i++) {
		s = kstats_task_window(p, i);
		seen = READ_ONCE(s->owner);
		if (!kstats_owner_tid(seen) && kstats_slot_claim(s, seen, now, &cx))
			goto claimed;
	}
	for (i = 0; i < KSTATS_TASK_WINDOW; i++) {
		s = kstats_task_window(p, i);
		/* Pairs with the claim's release: t0 is the owner's. */
		seen = smp_load_acquire(&s->owner);
		if (kstats_slot_stale(s, seen, now) && kstats_slot_claim(s, seen, now, &cx)) {
			/* The stale start is lost (its task's split with it). */
			this_cpu_inc(p->pcpu->misses);
			goto claimed;
		}
	}
	this_cpu_inc(p->pcpu->misses);
	return;
claimed:
	kstats_section_split_begin(p, s);
}

/*
 * @args: the end's arguments, or NULL (no expr: the floor); @ret: a USDT
 * end's address, where its user stack starts, else 0.
 */
void kstats_section_end(struct kstats_probe *p, const unsigned long *args, unsigned long ret)
{
	struct kstats_split_mark mark;
	struct kstats_call_expr cx;
	struct kstats_task_slot *s;
	u64 seen, t0, wall;
	u32 i, cpu;

	if (!kstats_section_task())
		return;
	for (i = 0; i < KSTATS_TASK_WINDOW; i++) {
		s = kstats_task_window(p, i);
		if (!kstats_slot_mine(s, &seen))
			continue;
		t0 = READ_ONCE(s->t0);
		if (p->marks)
			mark = p->marks[s - p->tasks];
		cpu = READ_ONCE(s->cpu);
		cx = s->cx;
		/*
		 * Release the slot only if the word is what we read: then no
		 * one reclaimed it meanwhile, and t0 and the mark (read before
		 * this full barrier) are our own.
		 */
		if (cmpxchg(&s->owner, seen, kstats_owner_next(seen, 0)) != seen)
			return;
		/* Stopped or filtered since the start: drop it quietly. */
		if (!kstats_probe_wants(p)) {
			wall = KSTATS_NOT_RECORDED;
		} else if (unlikely(p->expr) && args) {
			struct kstats_call call = { .t0 = t0, .cpu = cpu };

			/* Keys too: a value trace's keys hold values. */
			wall = kstats_expr_end(p, &call, &cx, ret, 0, args);
		} else {
			wall = kstats_probe_end(p, t0, cpu, ret, 0);
			if (unlikely(p->keys) && wall != KSTATS_NOT_RECORDED)
				kstats_keys_record(p, 0, ret, wall);	/* no return value */
		}
		if (p->marks)
			kstats_split_end(p, &mark, wall);
		return;
	}
	/* An end without a start (or its start was dropped): not a section. */
}

/*
 * A kprobe at a function's entry: its arguments into @args, as a function
 * trace reads them (regs_get_kernel_argument()); NULL without an expr,
 * which reads none.
 */
static const unsigned long *kstats_kprobe_args(const struct kstats_probe *p,
					       struct pt_regs *regs, unsigned long *args)
{
	u32 i;

	if (likely(!p->expr))
		return NULL;
	for (i = 0; i < KSTATS_SECTION_ARGS; i++)
		args[i] = regs_get_kernel_argument(regs, i);
	return args;
}

static int kstats_kprobe_start(struct kprobe *kp, struct pt_regs *regs)
{
	struct kstats_probe *p = container_of(kp, struct kstats_probe, kp[0]);
	unsigned long args[KSTATS_SECTION_ARGS];

	kstats_section_begin(p, kstats_kprobe_args(p, regs, args));
	return 0;
}

static int kstats_kprobe_end(struct kprobe *kp, struct pt_regs *regs)
{
	struct kstats_probe *p = container_of(kp, struct kstats_probe, kp[1]);
	unsigned long args[KSTATS_SECTION_ARGS];

	kstats_section_end(p, kstats_kprobe_args(p, regs, args), 0);
	return 0;
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

/* A core kernel tracepoint by name (no module's), or NULL. */
struct tracepoint *kstats_core_tracepoint(const char *name)
{
	struct kstats_tp_search search = { .name = name };

	for_each_kernel_tracepoint(kstats_tp_match, &search);
	return search.found;
}

#ifdef KSTATS_HAVE_TRACEPOINT_PAIRS
/*
 * Registered on events of any prototype (no CFI kernel: compat.h): the
 * event passes its data then its TP_PROTO arguments, of which x86-64 has
 * the first KSTATS_TP_ARGS in registers; past the event's own, a register
 * holds whatever was left there, so the CLI reads only the event's
 * arguments (BTF's btf_trace_EVENT); the 6th of args, a function's, stays
 * 0 (an index above 4 is refused there). Since 6.13 some tracepoints
 * (syscalls) call their probes preemptible: the CPU filter and the
 * per-CPU counters want one CPU throughout.
 */
static void kstats_tp_start(void *data, unsigned long a0, unsigned long a1,
			    unsigned long a2, unsigned long a3, unsigned long a4)
{
	const unsigned long args[KSTATS_SECTION_ARGS] = { a0, a1, a2, a3, a4 };

	preempt_disable_notrace();
	kstats_section_begin(data, args);
	preempt_enable_notrace();
}

static void kstats_tp_end(void *data, unsigned long a0, unsigned long a1,
			  unsigned long a2, unsigned long a3, unsigned long a4)
{
	const unsigned long args[KSTATS_SECTION_ARGS] = { a0, a1, a2, a3, a4 };

	preempt_disable_notrace();
	kstats_section_end(data, args, 0);
	preempt_enable_notrace();
}

/*
 * A point: its value at every hit the trace wants (kstats_expr_point());
 * @ret: a USDT probe's address, else 0.
 */
void kstats_point_hit(struct kstats_probe *p, const unsigned long *args, unsigned long ret)
{
	preempt_disable_notrace();
	if (kstats_probe_wants(p) && !kstats_probe_declines(p, READ_ONCE(p->sample_every)))
		kstats_expr_point(p, args, ret);
	preempt_enable_notrace();
}

static void kstats_tp_point(void *data, unsigned long a0, unsigned long a1,
			    unsigned long a2, unsigned long a3, unsigned long a4)
{
	const unsigned long args[KSTATS_SECTION_ARGS] = { a0, a1, a2, a3, a4 };

	kstats_point_hit(data, args, 0);
}

/*
 * "tp:system:event": the trace event's own tracepoint, core or module (the
 * event file holds the module while traced). A dynamic event (kprobe,
 * synthetic) has no tracepoint: -EOPNOTSUPP.
 */
static int kstats_trace_event_find(const char *name, struct tracepoint **tp,
				   struct trace_event_file **file)
{
	const char *event = strrchr(name, ':') + 1;
	size_t len = event - 1 - (name + 3);
	char system[KSTATS_SYM_MAX];
	struct trace_event_file *f;

	if (!IS_ENABLED(CONFIG_EVENT_TRACING))
		return -ENOENT;
	memcpy(system, name + 3, len);
	system[len] = '\0';
	f = trace_get_event_file(NULL, system, event);
	if (IS_ERR(f))
		return PTR_ERR(f) == -EINVAL ? -ENOENT : PTR_ERR(f);
	if (!(f->event_call->flags & TRACE_EVENT_FL_TRACEPOINT)) {
		trace_put_event_file(f);
		return -EOPNOTSUPP;
	}
	*tp = f->event_call->tp;
	*file = f;
	return 0;
}

/*
 * "tp:event" is a core kernel tracepoint by name; "tp:system:event" is a
 * trace event of the core or of a loaded module, in that system.
 */
int kstats_tracepoint_find(const char *name, struct tracepoint **tp,
			   struct trace_event_file **file)
{
	*file = NULL;
	if (strchr(name + 3, ':'))
		return kstats_trace_event_find(name, tp, file);
	*tp = kstats_core_tracepoint(name + 3);
	return *tp ? 0 : -ENOENT;
}

static void kstats_tp_put(struct kstats_probe *p)
{
	int i;

	for (i = 0; i < 2; i++)
		if (p->tp_file[i])
			trace_put_event_file(p->tp_file[i]);
}
#else
int kstats_tracepoint_find(const char *name, struct tracepoint **tp,
			   struct trace_event_file **file)
{
	return -EOPNOTSUPP;
}
#endif

int kstats_pair_init(struct kstats_probe *p)
{
	p->tasks = kvcalloc(KSTATS_TASK_SLOTS, sizeof(*p->tasks), GFP_KERNEL_ACCOUNT);
	if (p->tasks && p->split[0])
		p->marks = kvcalloc(KSTATS_TASK_SLOTS, sizeof(*p->marks), GFP_KERNEL_ACCOUNT);
	return p->tasks && (p->marks || !p->split[0]) ? 0 : -ENOMEM;
}

#ifdef KSTATS_HAVE_TRACEPOINT_PAIRS
/* End @i of @p: by a probe of its tracepoint with @handler, or by its record. */
static int kstats_tp_end_attach(struct kstats_probe *p, unsigned int i, void *handler)
{
	if (kstats_expr_record_ends(p->expr) & BIT(i))
		return kstats_record_attach(p, i);
	return tracepoint_probe_register(p->tp[i], handler, p);
}

static int kstats_tp_end_detach(struct kstats_probe *p, unsigned int i, void *handler)
{
	if (!(kstats_expr_record_ends(p->expr) & BIT(i)))
		return tracepoint_probe_unregister(p->tp[i], handler, p);
	kstats_record_detach(p, i);
	return 0;
}

/* A point: tp[0] only, no task slots. */
static int kstats_point_attach(struct kstats_probe *p, const char *point)
{
	int err = kstats_tracepoint_find(point, &p->tp[0], &p->tp_file[0]);

	if (!err)
		err = kstats_tp_end_attach(p, 0, kstats_tp_point);
	if (err) {
		p->tp[0] = NULL;
		kstats_tp_put(p);
	}
	return err;
}
#endif

int kstats_pair_attach(struct kstats_probe *p, const char *start, const char *end)
{
	int err;

#ifdef KSTATS_HAVE_TRACEPOINT_PAIRS
	if (p->point)
		return kstats_point_attach(p, start);
#endif
	err = kstats_pair_init(p);
	if (err)
		return err;
#ifdef KSTATS_HAVE_TRACEPOINT_PAIRS
	if (p->mech == KSTATS_MECH_TRACEPOINT) {
		err = kstats_tracepoint_find(start, &p->tp[0], &p->tp_file[0]) ?:
		      kstats_tracepoint_find(end, &p->tp[1], &p->tp_file[1]);
		if (!err && p->tp[0] == p->tp[1])
			err = -EINVAL;
		if (!err)
			err = kstats_tp_end_attach(p, 0, kstats_tp_start);
		if (err)
			goto put;
		err = kstats_tp_end_attach(p, 1, kstats_tp_end);
		if (!err)
			return 0;
		kstats_tp_end_detach(p, 0, kstats_tp_start);
		tracepoint_synchronize_unregister();
put:
		kstats_tp_put(p);
		return err;
	}
#endif
	/* By the addresses trace.c resolved: kprobes keeps symbol_name. */
	p->kp[0].addr = (kprobe_opcode_t *)p->addr[0];
	p->kp[0].pre_handler = kstats_kprobe_start;
	p->kp[1].addr = (kprobe_opcode_t *)p->addr[1];
	p->kp[1].pre_handler = kstats_kprobe_end;
	err = register_kprobe(&p->kp[0]);
	if (err)
		return err;
	p->kp_live = BIT(0);
	err = register_kprobe(&p->kp[1]);
	if (err)
		kstats_pair_detach(p);
	else
		p->kp_live |= BIT(1);
	return err;
}

/*
 * Returns once no handler of @p runs or can start, or an error if the
 * kernel still points at @p (which then must stay). A tracepoint end
 * already unregistered is not registered again by a retry.
 */
int kstats_pair_detach(struct kstats_probe *p)
{
	int i, err = 0;

#ifdef KSTATS_HAVE_TRACEPOINT_PAIRS
	if (p->mech == KSTATS_MECH_TRACEPOINT) {
		static void * const handler[2] = { kstats_tp_start, kstats_tp_end };

		for (i = 0; i < 2; i++) {
			if (!p->tp[i])
				continue;
			if (kstats_tp_end_detach(p, i, p->point ? kstats_tp_point : handler[i]))
				err = -EBUSY;
			else
				p->tp[i] = NULL;
		}
		tracepoint_synchronize_unregister();
		if (err)
			return err;
		kstats_tp_put(p);
		return 0;
	}
#endif
	/*
	 * kprobes leaves a probe it cannot disarm in place, kp.addr cleared:
	 * it stays live and is never unregistered again. One unregistered is
	 * not unregistered again by a retry.
	 */
	for (i = 0; i < 2; i++) {
		if (!(p->kp_live & BIT(i)))
			continue;
		if (p->kp[i].addr)
			unregister_kprobe(&p->kp[i]);
		if (p->kp[i].addr)
			p->kp_live &= ~BIT(i);
		else
			err = -EBUSY;
	}
	return err;
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
	kstats_section_begin(p, NULL);
	kstats_section_end(p, NULL, 0);
}

/*
 * The floor probe of points: a point's handler, recording a constant where
 * a point records its value (governor.c adds what the expr's reads cost).
 */
void kstats_point_run_empty(struct kstats_probe *p)
{
	preempt_disable_notrace();
	if (kstats_probe_wants(p) && !kstats_probe_declines(p, READ_ONCE(p->sample_every))) {
		kstats_record(p->time, 1);
		this_cpu_inc(p->pcpu->hits);
	}
	preempt_enable_notrace();
}

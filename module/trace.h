/* SPDX-License-Identifier: GPL-2.0 */
/* Run-time tracing: one struct kstats_probe per TRACE request. */
#ifndef KSTATS_TRACE_H
#define KSTATS_TRACE_H

#include <linux/cpumask.h>
#include <linux/kprobes.h>
#include <linux/sched.h>
#include <linux/timekeeping.h>
#include <linux/tracepoint.h>

struct seq_file;

#include "compat.h"
#include "metric.h"

#define KSTATS_SYM_MAX		512	/* "[module:]symbol" or "tp:[system:]event" */
#define KSTATS_TASK_SLOTS	4096	/* per-task section starts, per trace */

enum kstats_trace_mode {
	KSTATS_MODE_FUNC,		/* execution time of one function + GAP */
	KSTATS_MODE_SECTION,		/* from reaching start to reaching end */
};

struct kstats_probe_pcpu {
	u64 hits;			/* samples recorded */
	u64 misses;			/* calls that could not be recorded */
	u64 skipped;			/* calls declined by sampling */
	u64 last_exit;			/* GAP: end of the last call on this CPU */
	u64 split_misses;		/* recorded calls with no split */
	u64 self_misses;		/* recorded calls with no self time */
	u32 countdown;			/* sampling: calls to decline before a record */
	u64 gov_recorded, gov_skipped;	/* governor: counts at its last look */
	/* Outliers (trace_outlier.c): this CPU's rate limit. */
	u64 outlier_window;		/* now >> 30 of the last capture */
	u64 outlier_in_window;		/* captures in that window */
	u64 ratelimited;		/* outliers not kept for the limit */
	u64 stack_ns;			/* --by stack: time spent walking stacks */
	u64 gov_stack_ns;		/* governor: stack_ns at its last look */
	u64 faults;			/* expr: calls whose reads faulted */
	u64 rejected;			/* expr: calls its predicate declined */
};

/* --split: where a call's time went (trace_split.c). */
enum kstats_split_part {
	KSTATS_SPLIT_ONCPU,
	KSTATS_SPLIT_RUNQ,		/* runnable, waiting for a CPU */
	KSTATS_SPLIT_BLOCKED,		/* asleep */
	KSTATS_SPLIT_NR
};

struct kstats_task_ctx;

/*
 * Where the calling task's off-CPU clocks, and the time of its --self
 * calls, stood when a split or self call began.
 */
struct kstats_split_mark {
	/* NULL: not a task's call; KSTATS_CTX_MISSED: no context was free */
	struct kstats_task_ctx *ctx;
	u64 runq_ns, blocked_ns;
	u64 callee_ns;			/* --self */
};

#define KSTATS_CTX_MISSED	((struct kstats_task_ctx *)1)

/*
 * A function call's entry data, kept with the invocation. Small: on the
 * function graph (6.14+) every fprobe of a function shares 32 words of it
 * (kstats_func_entry_words()). Without --split or --self, up to @mark.
 * With an expr, struct kstats_call_expr follows, at the probe's expr_off.
 */
struct kstats_call {
	u64 t0;
	u32 instance;			/* fprobe: the trace that saw the entry */
	u32 cpu;			/* at entry, for outliers */
	struct kstats_split_mark mark;	/* with --split or --self */
};

/* What an expr's exit needs from its entry (trace_expr.c). */
struct kstats_call_expr {
	u64 value;			/* an argument's value, read at entry */
	u8 open;			/* BIT(g): group g waits for its exit terms */
	bool decided;			/* the predicate holds (or there is none) */
};

/*
 * A trace's key (trace_keys.c): the first @nr values seen get a metric
 * each, claimed by one cmpxchg and in the registry from the next reader on;
 * later values go to the last metric, "other".
 */
struct kstats_keys {
	u32 kind;			/* KSTATS_KEY_* */
	u32 nr;				/* values with a metric of their own */
	u64 *vals;			/* [nr]: a value's code once claimed, 0 free */
	struct kstats_metric **metrics;	/* [nr + 1]: the last is "other" */
	/* KSTATS_KEY_COMM, _STACK: each claimed value's name or stack, ready once written. */
	char (*comms)[TASK_COMM_LEN];	/* [nr] */
	struct kstats_key_stack {
		u32 nr, flags;		/* frames; KSTATS_OUTLIER_TRUNCATED, _USER */
		pid_t tgid;		/* _USER: whose addresses */
		unsigned long frames[KSTATS_OUTLIER_FRAMES];
	} *stacks;			/* [nr] */
	u8 *ready;			/* [nr] */
};

struct kstats_task_slot;
struct kstats_group;
struct kstats_outlier_ring;
struct kstats_utrace;
struct kstats_usdt;
struct trace_event_file;
struct perf_event;

/* A trace's cost and recording mode (governor.c), under kstats_trace_lock. */
struct kstats_gov {
	u32 budget_ppm;			/* 0: no governor */
	u32 mode;			/* KSTATS_TRACE_MODE_* */
	u64 since_ns;			/* when mode last changed */
	u64 call_ps, skip_ps;		/* calibrated cost: recorded, declined */
	u32 cost_ppm, full_cost_ppm;	/* estimates at the last look */
	u64 last_ns;			/* the last look */
};

struct kstats_probe {
	struct list_head node;		/* kstats_probes, under kstats_trace_lock */
	enum kstats_trace_mode mode;
	u32 mech;			/* KSTATS_MECH_* in use */
	struct kstats *time;		/* where durations go */
	struct kstats *gap;		/* where gaps go, or NULL */
	struct kstats_metric *time_metric, *gap_metric;
	struct kstats *split[KSTATS_SPLIT_NR];	/* --split, or NULLs */
	struct kstats_metric *split_metric[KSTATS_SPLIT_NR];
	struct kstats *self;		/* --self, or NULL */
	struct kstats_metric *self_metric;
	struct kstats_keys *keys;	/* a key, or NULL */
	struct kstats_expr_prog *expr;	/* a value and/or predicate, or NULL */
	struct kstats *value, *neg;	/* where values go: NAME or VALUE-NAME; NEG-NAME */
	struct kstats_metric *value_metric, *neg_metric;	/* VALUE-NAME, NEG-NAME */
	u32 expr_off;			/* struct kstats_call_expr in the entry data */
	bool task_ctx;			/* --split or --self: a task context per call */
	bool split_armed;		/* holds the scheduler's probes */
	struct file *creator;
	bool autoremove;
	u32 filter;			/* KSTATS_TRACE_PID | _TGID | _CPUS | _CGROUP */
	pid_t pid, tgid;		/* in the initial pid namespace */
	struct cgroup *cgroup;		/* KSTATS_TRACE_CGROUP: held */
	cpumask_var_t cpus;
	struct kstats_probe_pcpu __percpu *pcpu;
	u64 floor_ns;
	bool point;			/* one tracepoint, tp[0]: a value per hit */
	u32 instance;			/* fprobe: new at every attach */
	u8 kp_live;			/* section by kprobe: BIT(i), kp[i] registered */
	unsigned long addr[2];		/* what is probed: function, or start/end */
	bool detached;			/* its target's module went away */
	/* KSTATS_TRACE_DEFER: made, resolved, attached by ATTACH (trace.c). */
	bool deferred;
	u32 maxactive;			/* deferred: what TRACE asked for */
	struct kstats_group *group;	/* fprobe: the one it shares, or NULL */
	u32 sample_every;		/* 1 call in N recorded: READ_ONCE'd */
	struct kstats_gov gov;		/* cost and mode: governor.c */
	struct kstats_task_slot *tasks;	/* section modes */
	struct kstats_split_mark *marks;	/* sections with --split: by task slot */
	/* Outliers: calls of at least outlier_ns (U64_MAX: none) are kept. */
	u64 outlier_ns;
	struct kstats_outlier_ring *outliers;	/* or NULL */
	struct kstats_utrace *up;	/* KSTATS_MECH_UPROBE (trace_uprobe.c) */
	struct kstats_usdt *usdt;	/* KSTATS_MECH_UPROBE sections (trace_usdt.c) */
	union {
#ifdef KSTATS_HAVE_FPROBE
		struct fprobe fp;
#endif
		struct kretprobe rp;
		struct kprobe kp[2];	/* section: start, end */
		struct {		/* section: start, end */
			struct tracepoint *tp[2];
			struct trace_event_file *tp_file[2];	/* or NULL */
			/* Ends read by their record: a perf counter per CPU (trace_record.c). */
			struct perf_event * __percpu *tp_rec[2];
		};
	};
};

/* Whether this call is one the user asked for; cheap when unfiltered. */
static __always_inline bool kstats_probe_wants(struct kstats_probe *p)
{
	if (!READ_ONCE(p->time->active))
		return false;
	if (likely(!p->filter))
		return true;
	if ((p->filter & KSTATS_TRACE_PID) && current->pid != p->pid)
		return false;
	if ((p->filter & KSTATS_TRACE_TGID) && current->tgid != p->tgid)
		return false;
	if ((p->filter & KSTATS_TRACE_CGROUP) && !kstats_current_under(p->cgroup))
		return false;
	return !(p->filter & KSTATS_TRACE_CPUS) ||
	       cpumask_test_cpu(smp_processor_id(), p->cpus);
}

/*
 * Sampling: whether to decline this call (1 in @n is recorded, per CPU).
 * Handlers run with preemption off: the countdown is this CPU's alone.
 * A countdown left from a larger N is cut short.
 */
static __always_inline bool kstats_probe_declines(struct kstats_probe *p, u32 n)
{
	u32 left;

	if (likely(n <= 1))
		return false;
	left = this_cpu_read(p->pcpu->countdown);
	if (left && left < n) {
		this_cpu_write(p->pcpu->countdown, left - 1);
		this_cpu_inc(p->pcpu->skipped);
		return true;
	}
	this_cpu_write(p->pcpu->countdown, n - 1);
	return false;
}

/* Monotonic, NMI-safe and not traceable: safe inside any probe. */
static __always_inline u64 kstats_probe_now(void)
{
	return ktime_get_mono_fast_ns();
}

/*
 * GAP: from the last exit on this CPU to this entry, both while the trace
 * was recording every call; an exit from before the last start (a stop, or
 * sampling, in between: the governor moves resumed_ns) begins no gap, or
 * the gap would span calls not seen. Sampled calls record no gap.
 */
static __always_inline void kstats_probe_begin_gap(struct kstats_probe *p, u64 now)
{
	u64 last;

	if (!p->gap)
		return;
	/* Pairs with kstats_start(): seen active, so its resumed_ns is seen. */
	smp_rmb();
	last = this_cpu_read(p->pcpu->last_exit);
	if (last > READ_ONCE(p->time_metric->resumed_ns) && now > last)
		kstats_record(p->gap, now - last);
}

/*
 * trace_outlier.c: what the exit of an outlier adds, out of line. Scalars,
 * not a struct: nothing on the hot path's stack (no stack protector).
 * @ret: the call's return address, or 0.
 */
void kstats_outlier_capture(struct kstats_probe *p, u64 t0, u64 now, u32 cpu_start,
			    unsigned long ret, unsigned long retval);

/*
 * A call that began while recording ends. It counts only if the trace still
 * records (a stop in between drops it: neither a hit nor a miss). An exit
 * read earlier than its entry (the fast clock may step back across a
 * timekeeping update, or between CPUs) is a miss, never a sample of ~2^64.
 * An outlier costs a load and a compare here; its capture is out of line.
 * @retval: what a function returns (an outlier keeps it), 0 for a section.
 * Returns the duration recorded, or KSTATS_NOT_RECORDED.
 */
#define KSTATS_NOT_RECORDED	U64_MAX
static __always_inline u64 kstats_probe_end(struct kstats_probe *p, u64 t0,
					    u32 cpu_start, unsigned long ret,
					    unsigned long retval)
{
	u64 now = kstats_probe_now();

	if (!READ_ONCE(p->time->active))
		return KSTATS_NOT_RECORDED;
	if (unlikely(now < t0)) {
		this_cpu_inc(p->pcpu->misses);
		return KSTATS_NOT_RECORDED;
	}
	kstats_record(p->time, now - t0);
	this_cpu_inc(p->pcpu->hits);
	this_cpu_write(p->pcpu->last_exit, now);
	if (unlikely(now - t0 >= READ_ONCE(p->outlier_ns)))
		kstats_outlier_capture(p, t0, now, cpu_start, ret, retval);
	return now - t0;
}

/* trace_split.c: --split and --self (need sched_switch's prev_state, 5.18+) */
void kstats_split_begin(struct kstats_probe *p, struct kstats_split_mark *m);
void kstats_split_end(struct kstats_probe *p, const struct kstats_split_mark *m, u64 wall);
int kstats_split_get(void);
void kstats_split_put(void);
void kstats_split_exit(void);

/* trace_func.c: one function, by fprobe or kretprobe */
u32 kstats_maxactive_limit(void);
int kstats_func_attach(struct kstats_probe *p, unsigned long addr, u32 maxactive);
int kstats_func_detach(struct kstats_probe *p);
void kstats_func_detached(struct kstats_probe *p);
u64 kstats_func_missed(struct kstats_probe *p);
/* One fprobe over many functions: a group (trace_func.c) */
int kstats_group_attach(struct kstats_probe **ps, u32 n);
u64 kstats_group_missed(const struct kstats_probe *p);
u32 kstats_group_words(unsigned long addr);
u32 kstats_func_entry_words(const struct kstats_probe *p);
extern bool kstats_have_fprobe;
/*
 * fprobe on the function graph (6.14+) keeps the entry data of every
 * fprobe of a function in one frame of 32 words (FGRAPH_MAX_DATA_SIZE):
 * past it, every call is missed by every fprobe there, kstats' or not.
 * kstats' traces of one function take at most this many, leaving the rest
 * to other users (BPF kprobe.multi, fprobe events).
 */
#define KSTATS_FGRAPH_WORDS_BUDGET	24

/* trace_uprobe.c: a user-space function */
extern bool kstats_have_uprobe;
int kstats_uprobe_args(const struct kstats_trace *t, struct kstats_uprobe **up);
int kstats_uprobe_attach(struct kstats_probe *p, const struct kstats_uprobe *u, u32 nr);
int kstats_uprobe_detach(struct kstats_probe *p);
void kstats_uprobe_free(struct kstats_probe *p);
#ifdef KSTATS_HAVE_UPROBE
int kstats_uprobe_mm(const struct kstats_probe *p, struct mm_struct **mmp);
int kstats_uprobe_file(const struct kstats_uprobe *u, struct path *path,
		       struct kstats_uprobe_site *site);
#endif
/* trace_usdt.c: a section between USDT probes */
int kstats_usdt_attach(struct kstats_probe *p, const struct kstats_uprobe *u, u32 nr);
int kstats_usdt_detach(struct kstats_probe *p);
void kstats_usdt_free(struct kstats_probe *p);

/* trace_pair.c: a section between two functions or two tracepoints */
int kstats_pair_init(struct kstats_probe *p);
int kstats_pair_attach(struct kstats_probe *p, const char *start, const char *end);
int kstats_pair_detach(struct kstats_probe *p);
/* @args: a tracepoint's arguments, or NULL (a kprobe, a USDT probe, the floor) */
void kstats_section_begin(struct kstats_probe *p, const unsigned long *args);
void kstats_section_end(struct kstats_probe *p, const unsigned long *args, unsigned long ret);
void kstats_point_hit(struct kstats_probe *p, const unsigned long *args, unsigned long ret);
/* trace_record.c: a tracepoint end read by its record, through perf */
int kstats_record_attach(struct kstats_probe *p, unsigned int end);
void kstats_record_detach(struct kstats_probe *p, unsigned int end);
u64 kstats_pair_missed(struct kstats_probe *p);
void kstats_pair_run_empty(struct kstats_probe *p);	/* floor, tracepoints */
void kstats_point_run_empty(struct kstats_probe *p);	/* floor, points */
int kstats_tracepoint_find(const char *name, struct tracepoint **tp,
			   struct trace_event_file **file);
struct tracepoint *kstats_core_tracepoint(const char *name);

/* governor.c: cost calibration and the overhead governor */
extern unsigned int kstats_budget_ppm;
int kstats_gov_setup(struct kstats_probe *p, const struct kstats_trace *req);
void kstats_gov_calibrate(struct kstats_probe *p, struct kstats_probe *floor);
void kstats_gov_given(struct kstats_probe *p, u64 floor_ns, u64 call_ps, u64 skip_ps);
bool kstats_gov_update(struct kstats_probe *p, u64 now);
void kstats_gov_detached(struct kstats_probe *p, u64 now);
void kstats_gov_snapshot(struct kstats_probe *p, struct kstats_snapshot *sn);
void kstats_gov_mark(struct kstats_probe *p);
void kstats_gov_kick(void);
void kstats_gov_stop(void);
/* trace_outlier.c */
int kstats_outlier_setup(struct kstats_probe *p, const struct kstats_trace *req);
void kstats_outlier_free(struct kstats_probe *p);
bool kstats_outlier_args_ok(const struct kstats_trace *t);
void kstats_outlier_started(struct kstats_probe *p);
void kstats_outlier_exit(void);

/* trace_expr.c: a value and a predicate per call */
struct kstats_expr_prog;
/* Where an expr runs: what its sources can be. */
enum kstats_expr_site {
	KSTATS_SITE_FUNC,		/* a function: arguments, return, duration */
	KSTATS_SITE_POINT,		/* one tracepoint: its arguments */
	KSTATS_SITE_TP_SECTION,		/* tracepoints: start's, end's arguments, duration */
	KSTATS_SITE_SECTION,		/* functions by kprobe: as tracepoints */
	KSTATS_SITE_UFUNC,		/* a user function: arguments, return, duration */
	KSTATS_SITE_UPOINT,		/* a USDT probe alone: its registers */
	KSTATS_SITE_USECTION,		/* USDT probes: start's, end's registers, duration */
};

/* A tracepoint probe's arguments after its data: x86-64's 5 other registers. */
#define KSTATS_TP_ARGS		5
/*
 * A section end's arguments, as kstats_section_begin/end() get them: a
 * function's 6 (a USDT probe's: its KSTATS_OPERAND_REGS registers).
 */
#define KSTATS_SECTION_ARGS	6
int kstats_expr_copy(const struct kstats_trace *t, enum kstats_expr_site site,
		     struct kstats_expr_prog **out);
void kstats_expr_free(struct kstats_expr_prog *e);
u32 kstats_expr_flags(const struct kstats_expr_prog *e);
bool kstats_expr_signed(const struct kstats_expr_prog *e);
int kstats_expr_begin(struct kstats_probe *p, struct pt_regs *regs,
		      struct kstats_call_expr *cx);
#ifdef KSTATS_HAVE_FPROBE
int kstats_expr_begin_fprobe(struct kstats_probe *p, struct kstats_fprobe_regs *regs,
			     struct kstats_call_expr *cx);
#endif
int kstats_expr_begin_args(struct kstats_probe *p, const unsigned long *args,
			   struct kstats_call_expr *cx);
void kstats_expr_point(struct kstats_probe *p, const unsigned long *args, unsigned long ret);
/* BIT(0): the point's or start's operands are record fields, BIT(1): the end's. */
u32 kstats_expr_record_ends(const struct kstats_expr_prog *e);
u64 kstats_expr_end(struct kstats_probe *p, struct kstats_call *call,
		    struct kstats_call_expr *cx, unsigned long ret, unsigned long retval,
		    const unsigned long *end_args);
void kstats_expr_cal_call(const struct kstats_probe *p);

/* Where an expr trace keeps its part of @call's entry data. */
static inline struct kstats_call_expr *
kstats_call_expr(const struct kstats_probe *p, struct kstats_call *call)
{
	return (struct kstats_call_expr *)((char *)call + p->expr_off);
}

/* trace_keys.c */
int kstats_keys_setup(struct kstats_probe *p, const struct kstats_trace *req,
		      const struct kstats_origin *origin);
bool kstats_keys_args_ok(const struct kstats_trace *t);
void kstats_keys_record(struct kstats_probe *p, unsigned long retval, unsigned long ret,
			u64 wall);
int kstats_keys_frames(struct kstats_metric *m, struct kstats_snapshot *sn, bool privileged);
/* trace_outlier.c: the stack from a call's caller up (stack keys, outliers) */
u32 kstats_ustack_walk(unsigned long *f, unsigned long ret);
u32 kstats_probe_stack(const struct kstats_probe *p, unsigned long *f, unsigned long ret,
		       bool *truncated);
struct kstats_metric *kstats_keys_metric(struct kstats_probe *p, unsigned int i);
void kstats_keys_publish(struct kstats_probe *p);
void kstats_keys_free(struct kstats_probe *p);

/* trace_metrics.c: a trace's metrics, as one set */
/*
 * Every metric of @p, in order: NAME, GAP-NAME, SELF-NAME, the split ones,
 * then a key's (in the registry or not yet):
 * for (i = 0; (m = kstats_probe_metric(p, i)); i++)
 */
struct kstats_metric *kstats_probe_metric(struct kstats_probe *p, unsigned int i);
int kstats_trace_metrics(struct kstats_probe *p, const struct kstats_trace *req,
			 const char *target);
void kstats_trace_metrics_delete(struct kstats_probe *p);
void kstats_probe_link(struct kstats_probe *p, struct kstats_probe *probe);
void kstats_probe_mark_detached(struct kstats_probe *p);

/* trace.c: every trace, under its lock; a probe's life */
extern struct mutex kstats_trace_lock;
extern struct list_head kstats_probes;
struct kstats_probe *kstats_probe_alloc(void);
void kstats_probe_free(struct kstats_probe *p);
int kstats_detach_retrying(struct kstats_probe *p);
/* trace_floor.c: the probe floor, on kstats' own empty functions */
u64 kstats_measure_floor(struct kstats_probe *trace);
void kstats_floor_fprobe_put(struct kstats_probe *gone);
void kstats_floors_free(void);
void kstats_floor_call(struct kstats_probe *floor);
void kstats_floor_call_bare(void);
/* trace.c */
void kstats_gov_run(void);
int kstats_trace_start(struct file *file, const struct kstats_trace *req,
		       const char *func, const char *start, const char *end,
		       const unsigned long *cpus, struct kstats_expr_prog *expr,
		       const struct kstats_uprobe *up);
int kstats_trace_stop(struct file *file, const char *name);
/* trace_defer.c: KSTATS_TRACE_DEFER and ATTACH */
int kstats_defer_check(struct kstats_probe *p);
bool kstats_defer_floor(struct kstats_probe *p);
int kstats_trace_attach(struct file *file, u32 *attached);
/* Every trace's name, a line each (debugfs kstats/_control). */
int kstats_trace_names(struct seq_file *sf);
void kstats_trace_file_closed(struct file *file);
int kstats_trace_stats(struct kstats_metric *m, struct kstats_snapshot *sn);
int kstats_trace_key_frames(struct kstats_metric *m, struct kstats_snapshot *sn,
			    bool privileged);
int kstats_trace_publish_keys(void);
int kstats_trace_call(const char *name, int (*fn)(struct kstats_probe *p, void *arg),
		      void *arg);
void kstats_trace_module_text_gone(struct module *mod, bool init_only);
void kstats_trace_exit(void);
/* trace_match.c: where a function is; one a pattern matched (KSTATS_TRACE_MATCHED) */
int kstats_resolve(const char *sym, unsigned long *addr, bool *on_ftrace);
int kstats_match_check(const char *sym, unsigned long *addr);
bool kstats_own_symbol(const char *sym);

#endif /* KSTATS_TRACE_H */

// SPDX-License-Identifier: GPL-2.0
/*
 * What a trace costs, and the overhead governor that keeps it within a
 * budget.
 *
 * Cost: at attach, on the floor probe of the trace's mode and mechanism
 * (trace.c), the time of a batch of calls of its empty function, probed,
 * less that of a batch of an unprobed empty function: per call, once with
 * every call recorded (call_ps) and once with every call declined by
 * sampling (skip_ps). The fastest of a few batches of each: an interrupt,
 * a preemption or (under emulation) a host that runs something else only
 * ever adds time.
 *
 * Governor: every KSTATS_GOV_PERIOD, per budgeted trace, the calls of each
 * CPU since the last look (recorded, missed and declined) times their
 * costs, over the time between the looks, is that CPU's share spent in
 * the trace; the busiest CPU's is the estimate. Over the budget: record
 * 1 call in N, with N the smallest that fits; below half of it at full
 * recording: every call again (so it does not flap); when declining every
 * call would still not fit, the trace detaches. Nothing runs while no
 * trace has a budget.
 */
#include <linux/kernel.h>	/* kstrtouint() */
#include <linux/math64.h>
#include <linux/moduleparam.h>
#include <linux/workqueue.h>

#include "trace.h"

#define KSTATS_GOV_PERIOD	(HZ / 2)
#define KSTATS_CAL_CALLS	64	/* per batch */
#define KSTATS_CAL_BATCHES	15

unsigned int kstats_budget_ppm;

/* The module parameter: at most one whole CPU, as TRACE's budget_ppm. */
static int kstats_budget_set(const char *val, const struct kernel_param *kp)
{
	unsigned int ppm;
	int err = kstrtouint(val, 0, &ppm);

	if (err)
		return err;
	if (ppm > KSTATS_TRACE_BUDGET_MAX)
		return -EINVAL;
	WRITE_ONCE(kstats_budget_ppm, ppm);
	return 0;
}

static const struct kernel_param_ops kstats_budget_ops = {
	.set = kstats_budget_set,
	.get = param_get_uint,
};

module_param_cb(budget_ppm, &kstats_budget_ops, &kstats_budget_ppm, 0644);
MODULE_PARM_DESC(budget_ppm,
		 "Default cost budget of a new trace, ppm of one CPU (0: none, counts exact)");

static const char *const kstats_gov_mode_name[] = {
	[KSTATS_TRACE_MODE_FULL] = "records every call",
	[KSTATS_TRACE_MODE_SAMPLED] = "samples",
	[KSTATS_TRACE_MODE_FIXED] = "samples",
	[KSTATS_TRACE_MODE_GOV_DETACHED] = "detached: over its budget even declining every call",
};

/* The request's sampling and budget; checked for range by commands.c. */
int kstats_gov_setup(struct kstats_probe *p, const struct kstats_trace *req)
{
	p->gov.since_ns = ktime_get_ns();
	p->gov.last_ns = p->gov.since_ns;
	p->sample_every = 1;
	if (req->sample_every > 1) {
		p->sample_every = req->sample_every;
		p->gov.mode = KSTATS_TRACE_MODE_FIXED;
	} else if (!req->sample_every) {
		p->gov.budget_ppm = req->budget_ppm ?: READ_ONCE(kstats_budget_ppm);
	}
	return 0;
}

/* What a calibration batch runs, KSTATS_CAL_CALLS times. */
enum kstats_cal_work {
	KSTATS_CAL_BARE,	/* an unprobed empty function */
	KSTATS_CAL_FLOOR,	/* the floor probe's empty function */
	KSTATS_CAL_NOTHING,	/* the loop alone */
	KSTATS_CAL_RECORD,	/* kstats_record() into the floor's histogram */
	KSTATS_CAL_EXPR,	/* the trace's expr, every read made */
};

static u64 kstats_gov_batch(struct kstats_probe *floor, enum kstats_cal_work work,
			    const struct kstats_probe *p)
{
	u64 t0 = ktime_get_ns();
	int i;

	for (i = 0; i < KSTATS_CAL_CALLS; i++) {
		if (work == KSTATS_CAL_BARE)
			kstats_floor_call_bare();
		else if (work == KSTATS_CAL_FLOOR)
			kstats_floor_call(floor);
		else if (work == KSTATS_CAL_RECORD)
			kstats_record(floor->time, 1000 + i);
		else if (work == KSTATS_CAL_EXPR)
			kstats_expr_cal_call(p);
		else
			barrier();
	}
	return ktime_get_ns() - t0;
}

/*
 * ps per call that @work costs over @base: the fastest batch of each,
 * interleaved.
 */
static u64 kstats_gov_cost(struct kstats_probe *floor, enum kstats_cal_work work,
			   enum kstats_cal_work base, const struct kstats_probe *p)
{
	u64 with = U64_MAX, without = U64_MAX;
	int b;

	for (b = 0; b < KSTATS_CAL_BATCHES; b++) {
		without = min(without, kstats_gov_batch(floor, base, p));
		with = min(with, kstats_gov_batch(floor, work, p));
	}
	return with > without ? div_u64((with - without) * 1000, KSTATS_CAL_CALLS) : 0;
}

/* ps per call of @floor's empty function over a bare one, recording 1 in @n. */
static u64 kstats_gov_measure(struct kstats_probe *floor, u32 n)
{
	u64 ps;

	WRITE_ONCE(floor->sample_every, n);
	ps = kstats_gov_cost(floor, KSTATS_CAL_FLOOR, KSTATS_CAL_BARE, NULL);
	WRITE_ONCE(floor->sample_every, 1);
	return ps;
}

/*
 * @p's costs, on @floor, the floor probe of its mode and mechanism. Both
 * stay 0 when a cost is not measurable: then the governor records every
 * call, and says so.
 */
void kstats_gov_calibrate(struct kstats_probe *p, struct kstats_probe *floor)
{
	/* Section pairs: a floor "call" is a start and an end. */
	u64 call = kstats_gov_measure(floor, 1);
	u64 skip = kstats_gov_measure(floor, KSTATS_TRACE_SAMPLE_MAX);

	/* A function's recorded call also records its GAP; floor probes have none. */
	if (p->mode == KSTATS_MODE_FUNC && call) {
		call += kstats_gov_cost(floor, KSTATS_CAL_RECORD, KSTATS_CAL_NOTHING, p);
		kstats_clear(floor->time);
	}
	/*
	 * An expr: its reads and compares at their dearest, on every call
	 * (one declined by sampling reads nothing), and a value's record.
	 */
	if (p->expr && call) {
		call += kstats_gov_cost(floor, KSTATS_CAL_EXPR, KSTATS_CAL_NOTHING, p);
		if (kstats_expr_flags(p->expr) & KSTATS_EXPR_TIME)
			call += kstats_gov_cost(floor, KSTATS_CAL_RECORD, KSTATS_CAL_NOTHING, p);
		kstats_clear(floor->time);
	}

	if (!call || !skip)
		return;
	p->gov.call_ps = call;
	p->gov.skip_ps = min(skip, call);
}

/* A user function's floor and costs, as its tracer measured them (kstats(4)). */
void kstats_gov_given(struct kstats_probe *p, u64 floor_ns, u64 call_ps, u64 skip_ps)
{
	p->floor_ns = floor_ns;
	if (!call_ps || !skip_ps)
		return;
	p->gov.call_ps = call_ps;
	p->gov.skip_ps = min(skip_ps, call_ps);
}

/* LIST and SNAPSHOT flag a sampling trace's metrics. */
void kstats_gov_mark(struct kstats_probe *p)
{
	struct kstats_metric *m;
	unsigned int i;

	for (i = 0; (m = kstats_probe_metric(p, i)); i++)
		WRITE_ONCE(m->sampled, p->sample_every > 1);
}

static void kstats_gov_set(struct kstats_probe *p, u32 mode, u32 n, u64 now)
{
	const char *name = p->time_metric->name;

	if (mode == KSTATS_TRACE_MODE_FULL && p->sample_every > 1)
		/* GAP begins afresh: exits seen while sampling bound nothing. */
		WRITE_ONCE(p->time_metric->resumed_ns, kstats_probe_now());
	/* An entry that sees every call recorded sees the new resumed_ns. */
	smp_wmb();
	WRITE_ONCE(p->sample_every, n);
	kstats_gov_mark(p);
	if (mode == p->gov.mode)
		return;
	p->gov.mode = mode;
	p->gov.since_ns = now;
	if (mode == KSTATS_TRACE_MODE_SAMPLED)
		pr_info_ratelimited("kstats: trace %s samples 1 call in %u: it would cost %u ppm of a CPU at full recording, over its budget of %u\n",
				    name, n, p->gov.full_cost_ppm, p->gov.budget_ppm);
	else
		pr_info_ratelimited("kstats: trace %s %s (estimated cost %u ppm of a CPU, budget %u)\n",
				    name, kstats_gov_mode_name[mode], p->gov.full_cost_ppm,
				    p->gov.budget_ppm);
}

/* ppm of @elapsed ns that @calls calls of @ps each take. */
static u32 kstats_gov_ppm(u64 calls, u64 ps, u64 elapsed)
{
	u64 ppm = div64_u64(mul_u64_u64_div_u64(calls, ps, 1000) * 1000000,
			    max_t(u64, elapsed, 1));

	return min_t(u64, ppm, U32_MAX);
}

/*
 * The governor's look at @p (budgeted, attached), at @now: updates its
 * estimates and sampling. Returns true if @p must detach. Under
 * kstats_trace_lock.
 */
bool kstats_gov_update(struct kstats_probe *p, u64 now)
{
	struct kstats_gov *g = &p->gov;
	u64 elapsed = now - g->last_ns, busiest = 0, cost, max_cost = 0;
	u64 rec_all = 0, stack_all = 0, call;
	u32 budget = g->budget_ppm, full, entry, n;
	int cpu;

	for_each_possible_cpu(cpu) {
		struct kstats_probe_pcpu *pc = per_cpu_ptr(p->pcpu, cpu);
		/* An expr's faulted and declined calls cost up to a recorded one. */
		u64 rec = READ_ONCE(pc->hits) + READ_ONCE(pc->misses) +
			  READ_ONCE(pc->faults) + READ_ONCE(pc->rejected);
		u64 skip = READ_ONCE(pc->skipped);
		u64 drec = rec - pc->gov_recorded, dskip = skip - pc->gov_skipped;
		/* --by stack's walks, measured as they happen (not calibrated). */
		u64 stack = READ_ONCE(pc->stack_ns), dstack = stack - pc->gov_stack_ns;

		pc->gov_recorded = rec;
		pc->gov_skipped = skip;
		pc->gov_stack_ns = stack;
		cost = drec * g->call_ps + dskip * g->skip_ps + dstack * 1000;
		rec_all += drec;
		stack_all += dstack;
		max_cost = max(max_cost, cost);
		busiest = max(busiest, drec + dskip);
	}
	g->last_ns = now;
	if (!g->call_ps)
		return false;	/* not calibrated: every call, said so */
	g->cost_ppm = kstats_gov_ppm(max_cost, 1, elapsed);
	/* A recorded call: its calibrated cost and its mean stack walk. */
	call = g->call_ps + (rec_all ? div64_u64(stack_all * 1000, rec_all) : 0);
	full = kstats_gov_ppm(busiest, call, elapsed);
	entry = kstats_gov_ppm(busiest, g->skip_ps, elapsed);
	g->full_cost_ppm = full;
	if (full <= budget / 2 ||
	    (full <= budget && g->mode == KSTATS_TRACE_MODE_FULL)) {
		kstats_gov_set(p, KSTATS_TRACE_MODE_FULL, 1, now);
		return false;
	}
	if (full <= budget)
		return false;	/* sampled, and near the budget at full: stay */
	if (entry >= budget)
		return true;
	/* r(c_full - c_skip) / (budget - r c_skip), all in ppm of a CPU. */
	n = min_t(u64, DIV_ROUND_UP_ULL(full - entry, budget - entry), KSTATS_TRACE_SAMPLE_MAX);
	kstats_gov_set(p, n > 1 ? KSTATS_TRACE_MODE_SAMPLED : KSTATS_TRACE_MODE_FULL,
		       max(n, 1U), now);
	return false;
}

/* @p was detached by the governor (trace.c). */
void kstats_gov_detached(struct kstats_probe *p, u64 now)
{
	kstats_gov_set(p, KSTATS_TRACE_MODE_GOV_DETACHED, p->sample_every, now);
}

void kstats_gov_snapshot(struct kstats_probe *p, struct kstats_snapshot *sn)
{
	const struct kstats_gov *g = &p->gov;

	sn->trace_mode = g->mode;
	sn->sample_every = READ_ONCE(p->sample_every);
	sn->mode_since_ns = g->since_ns;
	sn->budget_ppm = g->budget_ppm;
	sn->cost_ppm = g->cost_ppm;
	sn->full_cost_ppm = g->full_cost_ppm;
	sn->call_cost_ps = g->call_ps;
	sn->skip_cost_ps = g->skip_ps;
	if (!g->call_ps)
		sn->trace_flags |= KSTATS_TRACE_STATE_UNCALIBRATED;
}

static void kstats_gov_work(struct work_struct *work)
{
	kstats_gov_run();
}

static DECLARE_DELAYED_WORK(kstats_gov_dwork, kstats_gov_work);

/*
 * A trace has a budget: look in a period, unless a look is already due.
 * Unbound: the look must not wait for the very CPU the trace keeps busy
 * (an idle CPU's timers expire on a busy one, and a per-CPU worker there
 * waits for the busy code to reach a scheduling point).
 */
void kstats_gov_kick(void)
{
	queue_delayed_work(system_unbound_wq, &kstats_gov_dwork, KSTATS_GOV_PERIOD);
}

void kstats_gov_stop(void)
{
	cancel_delayed_work_sync(&kstats_gov_dwork);
}

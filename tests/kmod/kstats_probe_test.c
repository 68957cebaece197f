// SPDX-License-Identifier: GPL-2.0
/*
 * White-box test of what a trace's handlers do when a call ends
 * (module/trace.h): it drives kstats_probe_end() and
 * kstats_probe_begin_gap() on a probe of its own, with entry times chosen
 * to hit the edge cases, and checks the metrics and counters exactly.
 * Loading succeeds only if every check passes ("probe checks passed").
 *
 *  - an exit read earlier than its entry (the fast clock stepping back) is
 *    a miss, never a sample near 2^64;
 *  - a call that ends after its trace was stopped is neither a hit nor a
 *    sample;
 *  - after stop and start, the first entry on a CPU begins no GAP that
 *    spans the stopped time; the next one does;
 *  - a kretprobe is registered by address alone (module/trace_func.c,
 *    built in here): kprobes keeps kp.symbol_name for the probe's life,
 *    and a name taken from a TRACE request is freed when the ioctl returns;
 *  - fprobe: a call that entered under one trace and returns after a new
 *    trace was attached in the very same struct (what the next TRACE often
 *    gets back from the allocator) is not timed into the new one. On the
 *    function graph (6.14+) its exit handler is found by that address;
 *  - a task context being claimed is neither free nor anyone's.
 */
#include <linux/completion.h>
#include <linux/kstats.h>
#include <linux/kthread.h>
#include <linux/module.h>
#include <linux/percpu.h>
#include <linux/slab.h>

#include "../../module/trace_func.c"
/* What trace_func.c calls with --split (never here: no probe splits). */
#include "../../module/trace_split.c"

struct tracepoint *kstats_core_tracepoint(const char *name)
{
	return NULL;
}

/* What trace_func.c's groups assert held (none is made here). */
DEFINE_MUTEX(kstats_trace_lock);

#include "kstats_whitebox.h"

static u64 pcpu_sum(struct kstats_probe *p, bool hits)
{
	u64 n = 0;
	int cpu;

	for_each_possible_cpu(cpu)
		n += hits ? per_cpu_ptr(p->pcpu, cpu)->hits :
			    per_cpu_ptr(p->pcpu, cpu)->misses;
	return n;
}

static int expect(struct kstats_probe *p, const char *step, u64 samples,
		  u64 hits, u64 misses, u64 gaps)
{
	u64 s = kstats_whitebox_count(p->time), h = pcpu_sum(p, true);
	u64 m = pcpu_sum(p, false), g = kstats_whitebox_count(p->gap);

	if (s == samples && h == hits && m == misses && g == gaps)
		return 0;
	pr_err("kstats_probe_test: %s: samples %llu hits %llu misses %llu gaps %llu, want %llu %llu %llu %llu\n",
	       step, s, h, m, g, samples, hits, misses, gaps);
	return -EINVAL;
}

/* The handlers run with preemption off, on one CPU: so do the steps. */
static int run_checks(struct kstats_probe *p)
{
	u64 now;
	int err;

	preempt_disable();
	now = kstats_probe_now();
	kstats_probe_end(p, now + NSEC_PER_SEC, 0, 0, 0);
	err = expect(p, "exit before entry", 0, 0, 1, 0);

	now = kstats_probe_now();
	kstats_probe_end(p, now > 1000 ? now - 1000 : 0, 0, 0, 0);
	err = err ?: expect(p, "an ordinary call", 1, 1, 1, 0);

	kstats_stop(p->time);
	kstats_probe_end(p, kstats_probe_now(), 0, 0, 0);
	err = err ?: expect(p, "a call that ends after stop", 1, 1, 1, 0);

	kstats_start(p->time);
	kstats_probe_begin_gap(p, kstats_probe_now());
	err = err ?: expect(p, "first entry after start", 1, 1, 1, 0);

	kstats_probe_end(p, kstats_probe_now(), 0, 0, 0);
	kstats_probe_begin_gap(p, kstats_probe_now());
	err = err ?: expect(p, "the next call", 2, 2, 1, 1);
	preempt_enable();
	return err;
}

static noinline int probe_test_target(int x)
{
	return x + 1;
}

static int check_attach(struct kstats_probe *p)
{
	int err;

	p->mech = KSTATS_MECH_KRETPROBE;
	err = kstats_func_attach(p, (unsigned long)probe_test_target, 0);
	if (err) {
		pr_err("kstats_probe_test: kretprobe on a function of ours: %d\n", err);
		return err;
	}
	if (p->rp.kp.symbol_name) {
		pr_err("kstats_probe_test: the kretprobe keeps a symbol_name\n");
		err = -EINVAL;
	}
	kstats_func_detach(p);
	return err;
}

#ifdef KSTATS_HAVE_FPROBE
static DECLARE_COMPLETION(sleeper_in);
static DECLARE_COMPLETION(sleeper_go);
static DECLARE_COMPLETION(sleeper_done);

static noinline int probe_test_sleeper(int x)
{
	complete(&sleeper_in);
	wait_for_completion(&sleeper_go);
	return x + 1;
}

static int sleeper_thread(void *unused)
{
	probe_test_sleeper(1);
	complete(&sleeper_done);
	return 0;
}

static int attach_sleeper(struct kstats_probe *p)
{
	memset(&p->fp, 0, sizeof(p->fp));
	p->mech = KSTATS_MECH_FPROBE;
	return kstats_func_attach(p, (unsigned long)probe_test_sleeper, 0);
}

/*
 * Another fprobe, kept registered throughout: on the function graph the
 * last fprobe's removal takes fprobe's graph hooks with it, and then no
 * call in flight returns to any handler at all.
 */
static struct fprobe keeper;

static int check_stale_instance(struct kstats_probe *p)
{
	unsigned long keep_at = (unsigned long)probe_test_target;
	struct task_struct *t;
	u64 before, stale, fresh;
	int err = register_fprobe_ips(&keeper, &keep_at, 1) ?: attach_sleeper(p);

	if (err) {
		pr_err("kstats_probe_test: fprobe on a function of ours: %d\n", err);
		unregister_fprobe(&keeper);	/* -EINVAL if it never was */
		return err;
	}
	t = kthread_run(sleeper_thread, NULL, "kstats_sleeper");
	if (IS_ERR(t)) {
		kstats_func_detach(p);
		unregister_fprobe(&keeper);
		return PTR_ERR(t);
	}
	wait_for_completion(&sleeper_in);
	/* The call is in flight: its trace goes, a new one takes its place. */
	err = kstats_func_detach(p);
	synchronize_rcu();
	err = err ?: attach_sleeper(p);
	before = kstats_whitebox_count(p->time);
	complete_all(&sleeper_go);
	wait_for_completion(&sleeper_done);
	stale = kstats_whitebox_count(p->time) - before;
	probe_test_sleeper(2);	/* released already: returns at once */
	fresh = kstats_whitebox_count(p->time) - before - stale;
	if (!err)
		err = kstats_func_detach(p);
	synchronize_rcu();
	unregister_fprobe(&keeper);
	if (!err && (stale || fresh != 1)) {
		pr_err("kstats_probe_test: the new trace timed %llu calls that entered under the old one and %llu of its own (want 0 and 1)\n",
		       stale, fresh);
		err = -EINVAL;
	}
	return err;
}
#else
static int check_stale_instance(struct kstats_probe *p)
{
	return 0;
}
#endif

#ifdef KSTATS_HAVE_SPLIT
/*
 * Task contexts (trace_split.c, issue 30 W2): a slot another task has won
 * the cmpxchg for, but not yet filled in, is neither free nor anyone's.
 * Before, it looked free (tid 0) until the claimer's release, and a
 * second task could claim it too: two owners of one context.
 */
static int check_ctx_claim(void)
{
	struct kstats_task_ctx *other, *c;
	int err = 0;

	/* The table (no scheduler probes here: -EOPNOTSUPP after it is made). */
	kstats_split_get();
	if (!kstats_ctxs)
		return -ENOMEM;
	preempt_disable();
	other = kstats_ctx_slot(current, 0);
	if (!kstats_ctx_claim_begin(other, READ_ONCE(other->owner))) {
		err = -EINVAL;
	} else {
		c = kstats_ctx_get();
		if (!c || c == other || kstats_ctx_find(current) != c ||
		    atomic_read(&kstats_ctxs_owned) != 1)
			err = -EINVAL;
		if (c)
			kstats_ctx_put(c);
		if (atomic_read(&kstats_ctxs_owned))
			err = -EINVAL;
	}
	preempt_enable();
	if (err)
		pr_err("kstats_probe_test: a context being claimed by another task was taken, or shared\n");
	kstats_split_exit();
	kstats_ctxs = NULL;
	return err;
}
#else
/* No task contexts before sched_switch's prev_state (5.18): nothing to claim. */
static int check_ctx_claim(void)
{
	return 0;
}
#endif

static int __init probe_test_init(void)
{
	struct kstats_probe *p = kzalloc(sizeof(*p), GFP_KERNEL);
	int err = -ENOMEM;

	if (!p)
		return -ENOMEM;
	p->outlier_ns = U64_MAX;	/* no outliers */
	p->pcpu = alloc_percpu(struct kstats_probe_pcpu);
	p->time = kstats_new("probetest.time", 3);
	p->gap = kstats_new("probetest.gap", 3);
	if (p->pcpu && !IS_ERR(p->time) && !IS_ERR(p->gap)) {
		p->time_metric = to_metric(p->time);
		p->gap_metric = to_metric(p->gap);
		err = run_checks(p) ?: check_attach(p) ?: check_stale_instance(p) ?:
		      check_ctx_claim();
	}
	kstats_delete(p->time);
	kstats_delete(p->gap);
	free_percpu(p->pcpu);
	kfree(p);
	if (!err)
		pr_info("kstats_probe_test: probe checks passed\n");
	return err;
}

static void __exit probe_test_exit(void)
{
}

module_init(probe_test_init);
module_exit(probe_test_exit);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("kstats: white-box test of the trace handlers' exit path");
MODULE_IMPORT_NS_KSTATS();

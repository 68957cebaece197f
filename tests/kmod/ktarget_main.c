// SPDX-License-Identifier: GPL-2.0
/*
 * Functions for the tracing tests to trace, and the code that calls them in
 * known ways. Commands written to /sys/kernel/debug/kstats_target/ctl run
 * to completion before the write returns (except spin); "calls" then reads
 * how many calls of the traced function they made, "hz" the tick rate.
 *
 *   empty N			ktarget_empty() N times, here; "elapsed" reads the ns
 *   empty_cold N		the same, with 256 KiB of other memory written
 *				between calls so the probe's data is not cached
 *   hammer N			ktarget_empty() N times on every CPU at once
 *   spin / stop		ktarget_empty() on every CPU until stop
 *   spin1 [LOOPS] / stop	the same on the first online CPU only, with
 *				LOOPS of an empty loop after each call (no
 *				clock reads: code like the caller's); "spun"
 *				reads its calls so far, live
 *   sleep US N [migrate]	ktarget_sleep(US) N times, a sleeping call that
 *				with "migrate" moves to another CPU half way
 *   busy US N			ktarget_busy(US) N times, here, in the writer's
 *				own task: US of work with cond_resched();
 *				"busy_run_delay" then reads the kernel's own
 *				count of the runqueue waits inside those calls
 *				(schedstat's run_delay just around each; 0
 *				without CONFIG_SCHED_INFO)
 *   sigstale SCHEDS N		SIGUSR1 to the writer (which must handle it), then
 *				ktarget_sigstale(SCHEDS) N times: SCHEDS calls of
 *				schedule() in TASK_INTERRUPTIBLE with the signal
 *				pending, so the task never leaves its runqueue
 *   recurse DEPTH US N		ktarget_recurse(DEPTH): each level works US
 *				after its inner call, N times; "durations" then
 *				reads how long each call took inside, in ns
 *   interval US N		ktarget_empty() N times, US apart, on CPU 0
 *   errno N US			here, N calls each of ktarget_errno() (-EAGAIN
 *				after US of work on calls 0, 3, 6...),
 *				ktarget_errno32() (-EINTR after US on
 *				odd calls) and ktarget_errnos()
 *   pingpong N			N round trips with a kthread on the writer's CPU,
 *				by completions: 2N context switches, no traced
 *				call; "elapsed" reads the ns
 *   section US N		on every CPU: ktarget_sec_start(), US of work
 *				around a move to the next CPU, ktarget_sec_end()
 *   kmalloc_prepare		a kthread that will kmalloc/kfree: "pid" reads it
 *   kmalloc_go US N		it does N x { kmalloc(64); US of work; kfree }
 *   tpsection US N		N x { trace_ktarget_begin(); US of work;
 *				trace_ktarget_end() }: this module's own events
 *   mix N US M US2		ktarget_work(US) N times, each with preemption
 *				off, and ktarget_work(US2) M times, spread
 *				evenly among them: outliers among short calls;
 *				"durations" then reads the short calls that
 *				took 1 ms or more all the same (a host that
 *				stalls the emulated CPU), in ns
 *   values N SEED BITS		N calls of ktarget_value(o, v) (N <= 2048): v signed,
 *				of at most BITS bits, from SEED; o a chain
 *				o->mid->inner, NULL in the middle on some calls;
 *				"values" then reads each call's struct kv_call
 *   values_hot N		N calls of ktarget_value(o, 5000), o's chain whole,
 *				back to back; "elapsed" reads the ns
 *   values_tp_hot N		N hits of the event ktarget_value_start(o, 5000)
 *				alone, back to back; "elapsed" reads the ns
 *   many N R			the first N of ktarget_many_00.._31 (N <= 32)
 *				round-robin R times, and ktarget_many_notrace()
 *				each round; "many_counts" reads each one's calls
 *				since load (ktarget_many.c)
 *   many_one I R		ktarget_many_I R times (I from 0)
 *   hold			ktarget_held() once, in flight until "holding"
 *				is written 0 (ktarget_many.c)
 *   wide N R			the first N of ktarget_wide_0000.._1023 (N <= 1024)
 *				round-robin R times, back to back; "elapsed"
 *				reads the ns, "wide_counts" each one's calls
 *				since load (ktarget_wide.c)
 *   paths A B C		ktarget_leaf() through three call paths, A, B and
 *				C times (ktarget_paths.c); "paths_calls" reads
 *				each path's calls since load
 *   rcu_hold			work inside one RCU read-side section, so that
 *				synchronize_rcu() elsewhere waits, until 0 is
 *				written to "rcu_holding" (which reads 1
 *				meanwhile), or for 15 s at most
 */
#include <linux/completion.h>
#include <linux/cpumask.h>
#include <linux/debugfs.h>
#include <linux/delay.h>
#include <linux/hrtimer.h>
#include <linux/kthread.h>
#include <linux/module.h>
#include <linux/sched/signal.h>
#include <linux/rcupdate.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/uaccess.h>
#include <linux/vmalloc.h>

#define CREATE_TRACE_POINTS
#include "ktarget_trace.h"
#include "ktarget_many.h"
#include "ktarget_wide.h"
#include "ktarget_paths.h"
#include "ktarget_values.h"

static struct dentry *dir;
static DEFINE_MUTEX(ctl_lock);
static u64 calls, hz = HZ, kmalloc_pid, elapsed, busy_run_delay;
static atomic64_t spun;
static u32 rcu_holding;

/* What each recursion level took, from its first line to its last. */
#define MAX_DURATIONS 1024
static u32 durations[MAX_DURATIONS];
static atomic_t nr_durations;
/* What the errno targets return, kept so their results are used. */
static long errno_sink;
static struct debugfs_u32_array durations_array = { .array = durations };

/* Sleeps exactly @us (no timer slack), as far as the hrtimer can. */
static void precise_sleep(unsigned int us)
{
	ktime_t t = ns_to_ktime((u64)us * NSEC_PER_USEC);

	set_current_state(TASK_UNINTERRUPTIBLE);
	schedule_hrtimeout_range(&t, 0, HRTIMER_MODE_REL);
}

/*
 * Busy for at least @us by the clock the probes use. udelay() is not:
 * where it counts calibrated loops (6.1 under emulation) it can be short.
 */
static void spin_us(unsigned int us)
{
	u64 end = ktime_get_mono_fast_ns() + (u64)us * NSEC_PER_USEC;

	while (ktime_get_mono_fast_ns() < end)
		cpu_relax();
}

/* Traced by the tests: never inlined nor cloned, so one symbol each. */

/* Each body differs, so the compiler cannot fold them into one function. */
static noinline __noclone void ktarget_empty(void)
{
	asm volatile("nop");
}

static noinline __noclone void ktarget_sleep(unsigned int us, bool migrate)
{
	int cpu;

	precise_sleep(us / 2);
	if (migrate) {
		cpu = cpumask_next(raw_smp_processor_id(), cpu_online_mask);
		if (cpu >= nr_cpu_ids)
			cpu = cpumask_first(cpu_online_mask);
		set_cpus_allowed_ptr(current, cpumask_of(cpu));
	}
	precise_sleep(us - us / 2);
}

static noinline __noclone void ktarget_recurse(unsigned int depth, unsigned int us)
{
	u64 t0 = ktime_get_mono_fast_ns();
	int i;

	if (depth > 1)
		ktarget_recurse(depth - 1, us);
	spin_us(us);
	i = atomic_inc_return(&nr_durations) - 1;
	if (i < MAX_DURATIONS)
		durations[i] = ktime_get_mono_fast_ns() - t0;
}

/*
 * Return values for keyed traces: -EAGAIN after @us of work on a third of
 * the calls; a kernel address (negative as a long, no error) or a positive
 * number, at once, on the rest.
 */
static noinline __noclone long ktarget_errno(unsigned int i, unsigned int us)
{
	if (i % 3 == 0) {
		spin_us(us);
		return -EAGAIN;
	}
	return i % 3 == 1 ? (long)&nr_durations : i;
}

/* An int: -EINTR after @us of work on odd calls, 0 at once on the rest. */
static noinline __noclone int ktarget_errno32(unsigned int i, unsigned int us)
{
	if (i % 2) {
		spin_us(us);
		return -EINTR;
	}
	return 0;
}

/* 20 distinct errors in turn, -1..-20: more than a trace keeps. */
static noinline __noclone long ktarget_errnos(unsigned int i)
{
	return -(long)(1 + i % 20);
}

static noinline __noclone void ktarget_work(unsigned int us)
{
	spin_us(us);
	asm volatile("nop; nop; nop; nop");
}

/*
 * The short calls cannot be preempted, so none of them becomes an outlier
 * by waiting for the CPU: only the M long ones, and a short one the host
 * stalled (under emulation), which is timed here to tell.
 */
static void run_mix(unsigned int n, unsigned int us, unsigned int m, unsigned int us2)
{
	unsigned int i, every = m ? n / m : 0, longs = 0, stalls = 0;
	u64 t0, d;

	for (i = 0; i < n || longs < m; i++) {
		if (longs < m && (!every || i % every == 0 || i >= n)) {
			ktarget_work(us2);
			longs++;
			cond_resched();
		}
		if (i < n) {
			preempt_disable();
			t0 = ktime_get_mono_fast_ns();
			ktarget_work(us);
			d = ktime_get_mono_fast_ns() - t0;
			preempt_enable();
			if (d >= NSEC_PER_MSEC && stalls < MAX_DURATIONS)
				durations[stalls++] = min_t(u64, d, U32_MAX);
		}
		if (!(i & 1023))
			cond_resched();
	}
	calls = (u64)n + m;
	durations_array.n_elements = stalls;
}

/*
 * This task's runqueue waits so far, as the scheduler counts them
 * (schedstat's run_delay), or 0: the split tests' oracle.
 */
static u64 ktarget_run_delay(void)
{
#ifdef CONFIG_SCHED_INFO
	return READ_ONCE(current->sched_info.run_delay);
#else
	return 0;
#endif
}

/*
 * Busy for @us, as a long kernel loop should be: offering the CPU at every
 * turn, so a task that needs it more gets it (also where only explicit
 * points preempt: PREEMPT_VOLUNTARY).
 */
static noinline __noclone void ktarget_busy(unsigned int us)
{
	u64 end = ktime_get_mono_fast_ns() + (u64)us * NSEC_PER_USEC;

	while (ktime_get_mono_fast_ns() < end)
		cond_resched();
}

/*
 * schedule() in TASK_INTERRUPTIBLE with a signal pending, @scheds times:
 * the scheduler sets the task running again and keeps it on its runqueue
 * (it never sleeps), but before upstream 8feb053d5319 (Debian's 6.1)
 * sched_switch still reports it as TASK_INTERRUPTIBLE whenever another
 * task runs meanwhile (issue 30 W3). -EAGAIN without a signal pending.
 */
static noinline __noclone long ktarget_sigstale(unsigned int scheds)
{
	unsigned int i;

	if (!signal_pending(current))
		return -EAGAIN;
	for (i = 0; i < scheds; i++) {
		set_current_state(TASK_INTERRUPTIBLE);
		schedule();
	}
	__set_current_state(TASK_RUNNING);
	return 0;
}

static noinline __noclone void ktarget_sec_start(void)
{
	asm volatile("nop; nop");
}

static noinline __noclone void ktarget_sec_end(void)
{
	asm volatile("nop; nop; nop");
}

struct job {
	const char *what;
	unsigned int us, n, cpu;
	bool migrate;
	struct completion *go;
	struct completion done;
	struct task_struct *task;
	u64 calls;
};

static void move_to_next_cpu(void)
{
	int cpu = cpumask_next(raw_smp_processor_id(), cpu_online_mask);

	if (cpu >= nr_cpu_ids)
		cpu = cpumask_first(cpu_online_mask);
	set_cpus_allowed_ptr(current, cpumask_of(cpu));
}

static int job_thread(void *data)
{
	struct job *j = data;
	unsigned int i, k;
	void *p;

	wait_for_completion(j->go);
	for (i = 0; i < j->n || !strcmp(j->what, "spin"); i++) {
		if (!strcmp(j->what, "spin")) {
			if (kthread_should_stop())
				break;
			ktarget_empty();
			atomic64_inc(&spun);
			for (k = 0; k < j->us; k++)	/* spin1's work per call */
				barrier();
			/* A real sleep now and then: RCU-tasks (ftrace) waits for one. */
			if (!(i & 1023))
				precise_sleep(10);
			continue;
		}
		if (!strcmp(j->what, "hammer")) {
			ktarget_empty();
		} else if (!strcmp(j->what, "sleep")) {
			ktarget_sleep(j->us, j->migrate);
		} else if (!strcmp(j->what, "recurse")) {
			ktarget_recurse(j->cpu, j->us);	/* cpu holds the depth */
		} else if (!strcmp(j->what, "interval")) {
			ktarget_empty();
			precise_sleep(j->us);
		} else if (!strcmp(j->what, "section")) {
			ktarget_sec_start();
			spin_us(j->us / 2);
			move_to_next_cpu();
			spin_us(j->us - j->us / 2);
			ktarget_sec_end();
		} else if (!strcmp(j->what, "kmalloc")) {
			p = kmalloc(64, GFP_KERNEL);
			spin_us(j->us);
			kfree(p);
		}
		j->calls++;
	}
	complete(&j->done);
	/* Stay until reaped, so the job's task_struct stays ours to stop. */
	while (!kthread_should_stop())
		schedule_timeout_interruptible(HZ);
	return 0;
}

static struct job *jobs;
static unsigned int nr_jobs;
static DECLARE_COMPLETION(go);

/* Starts one job per CPU (or one on CPU 0), all held until @go. */
static int jobs_create(const char *what, unsigned int us, unsigned int n,
		       bool migrate, bool all_cpus, unsigned int depth)
{
	int cpu;

	jobs = kcalloc(num_online_cpus(), sizeof(*jobs), GFP_KERNEL);
	if (!jobs)
		return -ENOMEM;
	reinit_completion(&go);
	nr_jobs = 0;
	for_each_online_cpu(cpu) {
		struct job *j = &jobs[nr_jobs];

		*j = (struct job){ .what = what, .us = us, .n = n, .go = &go,
				   .migrate = migrate, .cpu = depth };
		init_completion(&j->done);
		j->task = kthread_create(job_thread, j, "ktarget/%d", cpu);
		if (IS_ERR(j->task))
			return PTR_ERR(j->task);	/* jobs_reap() cleans up */
		get_task_struct(j->task);
		kthread_bind(j->task, cpu);
		wake_up_process(j->task);
		nr_jobs++;
		if (!all_cpus)
			break;
	}
	return 0;
}

static void jobs_wait(void)
{
	unsigned int i;

	for (i = 0; i < nr_jobs; i++)
		wait_for_completion(&jobs[i].done);
}

static void jobs_reap(void)
{
	unsigned int i;

	complete_all(&go);
	for (i = 0; i < nr_jobs; i++) {
		kthread_stop(jobs[i].task);
		calls += jobs[i].calls;
		put_task_struct(jobs[i].task);
	}
	kfree(jobs);
	jobs = NULL;
	nr_jobs = 0;
}

static int run(const char *what, unsigned int us, unsigned int n, bool migrate,
	       bool all_cpus, unsigned int depth)
{
	int err = jobs_create(what, us, n, migrate, all_cpus, depth);

	if (!err) {
		complete_all(&go);
		jobs_wait();
	}
	jobs_reap();
	return err;
}

#define COLD_BYTES (256 << 10)

/*
 * Calls ktarget_empty() back to back, or with the caches disturbed. Cold
 * calls are timed one by one, so "elapsed" leaves out the disturbing writes,
 * which take far longer than the call and would drown its cost in noise.
 */
static int run_empty(unsigned int n, bool cold)
{
	u8 *junk = cold ? vmalloc(COLD_BYTES) : NULL;
	unsigned int i, j;
	u64 t0, sum = 0;

	if (cold && !junk)
		return -ENOMEM;
	t0 = ktime_get_ns();
	for (i = 0; i < n; i++) {
		if (cold) {
			for (j = 0; j < COLD_BYTES; j += L1_CACHE_BYTES)
				WRITE_ONCE(junk[j], i);
			t0 = ktime_get_ns();
		}
		ktarget_empty();
		if (cold)
			sum += ktime_get_ns() - t0;
		if (!(i & 1023))
			cond_resched();
	}
	elapsed = cold ? sum : ktime_get_ns() - t0;
	calls = n;
	vfree(junk);
	return 0;
}

static struct completion pp_ping, pp_pong;

static int pp_thread(void *data)
{
	unsigned int i, n = (uintptr_t)data;

	for (i = 0; i < n; i++) {
		wait_for_completion(&pp_ping);
		complete(&pp_pong);
	}
	/* Stay until stopped: the writer reaps it before it returns. */
	while (!kthread_should_stop())
		schedule_timeout_interruptible(HZ);
	return 0;
}

/* What a context switch costs, with and without --split's probes. */
static int run_pingpong(unsigned int n)
{
	struct task_struct *t;
	cpumask_var_t old;
	unsigned int i;
	int cpu, err = 0;
	u64 t0;

	if (!alloc_cpumask_var(&old, GFP_KERNEL))
		return -ENOMEM;
	cpumask_copy(old, current->cpus_ptr);
	cpu = raw_smp_processor_id();
	set_cpus_allowed_ptr(current, cpumask_of(cpu));
	init_completion(&pp_ping);
	init_completion(&pp_pong);
	t = kthread_create(pp_thread, (void *)(uintptr_t)n, "ktarget_pong");
	if (IS_ERR(t)) {
		err = PTR_ERR(t);
		goto out;
	}
	kthread_bind(t, cpu);
	get_task_struct(t);
	wake_up_process(t);
	t0 = ktime_get_ns();
	for (i = 0; i < n; i++) {
		complete(&pp_ping);
		wait_for_completion(&pp_pong);
	}
	elapsed = ktime_get_ns() - t0;
	kthread_stop(t);
	put_task_struct(t);
out:
	set_cpus_allowed_ptr(current, old);
	free_cpumask_var(old);
	return err;
}

static int ctl_cmd(char *buf)
{
	unsigned int a = 0, b = 0, c = 0;
	char cmd[24], opt[16] = "";
	int n = sscanf(buf, "%23s %u %u %u", cmd, &a, &b, &c);

	if (n < 1)
		return -EINVAL;
	if (!strcmp(cmd, "stop")) {
		if (!jobs)
			return -EINVAL;
		jobs_reap();
		calls = atomic64_read(&spun);
		return 0;
	}
	if (jobs)
		return -EBUSY;	/* spin or kmalloc_prepare pending */
	calls = 0;
	if ((!strcmp(cmd, "empty") || !strcmp(cmd, "empty_cold")) && n == 2)
		return run_empty(a, !strcmp(cmd, "empty_cold"));
	if (!strcmp(cmd, "errno") && n == 3) {
		/* From the writing task, in order: N calls of each. */
		long sum = 0;

		for (c = 0; c < a; c++)
			sum += ktarget_errno(c, b) + ktarget_errno32(c, b) + ktarget_errnos(c);
		WRITE_ONCE(errno_sink, sum);
		calls = a;
		return 0;
	}
	if (!strcmp(cmd, "values") && n == 4)
		return ktarget_values(a, b, c, &calls);
	if (!strcmp(cmd, "many") && n == 3)
		return kmany_run(a, b, &calls);
	if (!strcmp(cmd, "many_one") && n == 3)
		return kmany_run_one(a, b, &calls);
	if (!strcmp(cmd, "hold") && n == 1)
		return kmany_hold(&calls);
	if (!strcmp(cmd, "wide") && n == 3)
		return kwide_run(a, b, &calls, &elapsed);
	if (!strcmp(cmd, "paths") && n == 4)
		return kpaths_run(a, b, c, &calls);
	if (!strcmp(cmd, "values_hot") && n == 2)
		return ktarget_values_hot(a, &calls, &elapsed);
	if (!strcmp(cmd, "values_tp_hot") && n == 2)
		return ktarget_values_tp_hot(a, &calls, &elapsed);
	if (!strcmp(cmd, "hammer") && n == 2)
		return run("hammer", 0, a, false, true, 0);
	if (!strcmp(cmd, "pingpong") && n == 2 && a)
		return run_pingpong(a);
	if (!strcmp(cmd, "sigstale") && n == 3) {
		long err = 0;

		send_sig(SIGUSR1, current, 1);
		for (calls = 0; calls < b && !err; calls++)
			err = ktarget_sigstale(a);
		return err;
	}
	if (!strcmp(cmd, "busy") && n == 3) {
		busy_run_delay = 0;
		for (calls = 0; calls < b; calls++) {
			u64 before = ktarget_run_delay();

			ktarget_busy(a);
			busy_run_delay += ktarget_run_delay() - before;
		}
		return 0;
	}
	if ((!strcmp(cmd, "spin") && n == 1) || (!strcmp(cmd, "spin1") && n <= 2)) {
		atomic64_set(&spun, 0);
		n = jobs_create("spin", a, 0, false, !strcmp(cmd, "spin"), 0);
		if (n)
			jobs_reap();
		else
			complete_all(&go);
		return n;
	}
	if (!strcmp(cmd, "sleep") && n >= 3) {
		if (sscanf(buf, "%*s %*u %*u %15s", opt) != 1)
			opt[0] = '\0';
		return run("sleep", a, b, !strcmp(opt, "migrate"), false, 0);
	}
	if (!strcmp(cmd, "recurse") && n == 4 && a > 0 && a <= 16) {
		atomic_set(&nr_durations, 0);
		n = run("recurse", b, c, false, false, a);
		durations_array.n_elements = min(atomic_read(&nr_durations), MAX_DURATIONS);
		return n;
	}
	if (!strcmp(cmd, "interval") && n == 3)
		return run("interval", a, b, false, false, 0);
	if (!strcmp(cmd, "section") && n == 3)
		return run("section", a, b, false, true, 0);
	if (!strcmp(cmd, "tpsection") && n == 3) {
		for (calls = 0; calls < b; calls++) {
			trace_ktarget_begin(calls);
			spin_us(a);
			trace_ktarget_end(calls);
		}
		return 0;
	}
	if (!strcmp(cmd, "mix") && n == 4) {
		unsigned int us2;

		if (sscanf(buf, "%*s %*u %*u %*u %u", &us2) != 1)
			return -EINVAL;
		run_mix(a, b, c, us2);
		return 0;
	}
	if (!strcmp(cmd, "rcu_hold") && n == 1) {
		/* Ended by the test; bounded below RCU's 21 s stall warning. */
		u64 end = ktime_get_mono_fast_ns() + 15 * NSEC_PER_SEC;

		rcu_read_lock();
		WRITE_ONCE(rcu_holding, 1);
		while (READ_ONCE(rcu_holding) && ktime_get_mono_fast_ns() < end)
			cpu_relax();
		WRITE_ONCE(rcu_holding, 0);
		rcu_read_unlock();
		return 0;
	}
	if (!strcmp(cmd, "kmalloc_prepare") && n == 1) {
		n = jobs_create("kmalloc", 0, 0, false, false, 0);
		if (n) {
			jobs_reap();
			return n;
		}
		kmalloc_pid = task_pid_nr(jobs[0].task);
		return 0;
	}
	return -EINVAL;
}

static ssize_t ctl_write(struct file *file, const char __user *ubuf,
			 size_t len, loff_t *ppos)
{
	unsigned int us, n;
	char buf[64];
	int err;

	if (len >= sizeof(buf))
		return -EINVAL;
	if (copy_from_user(buf, ubuf, len))
		return -EFAULT;
	buf[len] = '\0';
	mutex_lock(&ctl_lock);
	if (sscanf(buf, "kmalloc_go %u %u", &us, &n) == 2 && jobs &&
	    !strcmp(jobs[0].what, "kmalloc")) {
		jobs[0].us = us;
		jobs[0].n = n;
		complete_all(&go);
		jobs_wait();
		jobs_reap();
		err = 0;
	} else {
		err = ctl_cmd(buf);
	}
	mutex_unlock(&ctl_lock);
	return err ? err : len;
}

static int spun_get(void *data, u64 *val)
{
	*val = atomic64_read(&spun);
	return 0;
}

DEFINE_DEBUGFS_ATTRIBUTE(spun_fops, spun_get, NULL, "%llu\n");

static const struct file_operations ctl_fops = {
	.owner = THIS_MODULE,
	.write = ctl_write,
};

static int __init target_init(void)
{
	dir = debugfs_create_dir("kstats_target", NULL);
	debugfs_create_file("ctl", 0200, dir, NULL, &ctl_fops);
	debugfs_create_u64("calls", 0400, dir, &calls);
	debugfs_create_u64("hz", 0400, dir, &hz);
	debugfs_create_u64("pid", 0400, dir, &kmalloc_pid);
	debugfs_create_u64("elapsed", 0400, dir, &elapsed);
	debugfs_create_u64("busy_run_delay", 0400, dir, &busy_run_delay);
	debugfs_create_file_unsafe("spun", 0400, dir, NULL, &spun_fops);
	debugfs_create_u32("rcu_holding", 0600, dir, &rcu_holding);
	debugfs_create_u32_array("durations", 0400, dir, &durations_array);
	ktarget_values_init(dir);
	kmany_init(dir);
	kwide_init(dir);
	kpaths_init(dir);
	return 0;
}

static void __exit target_exit(void)
{
	debugfs_remove(dir);
	mutex_lock(&ctl_lock);
	if (jobs)
		jobs_reap();
	mutex_unlock(&ctl_lock);
}

module_init(target_init);
module_exit(target_exit);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("kstats tracing tests: functions to trace, called in known ways");

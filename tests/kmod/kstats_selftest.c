// SPDX-License-Identifier: GPL-2.0
/*
 * kstats self-test: a consumer module that records known samples from every
 * CPU at once, from hardirq context, and concurrently with reset/stop/start.
 * Commands are written to /sys/kernel/debug/kstats_selftest/ctl and run to
 * completion before the write returns; the checker then predicts the
 * debugfs view of each metric exactly (tests/guest/kstats_check.c).
 *
 *   record N	each online CPU records selftest_seq(cpu, 0..N-1) into
 *		selftest.b0 .. selftest.b5, all CPUs at once
 *   irq N	a hard hrtimer records selftest_seq(0, 0..N-1) in hardirq
 *   race N	every CPU records SELFTEST_RACE_VALUE into selftest.race while
 *		this thread runs N rounds of reset, stop, start; then stops them
 * The file "made" reads the number of records the last race attempted.
 */
#include <linux/completion.h>
#include <linux/debugfs.h>
#include <linux/delay.h>
#include <linux/err.h>
#include <linux/hrtimer.h>
#include <linux/kstats.h>
#include <linux/kthread.h>
#include <linux/module.h>
#include <linux/slab.h>
#include <linux/uaccess.h>

#include "../../module/compat.h"
#include "selftest_seq.h"

#define NR_BITS (KSTATS_FRAC_BITS_MAX + 1)

static struct kstats *metrics[NR_BITS];
static struct kstats *race_metric;
static struct dentry *dir;
static DEFINE_MUTEX(ctl_lock);		/* one command at a time */
static u64 race_made;

static int api_expect(const char *name, int bits, long want)
{
	struct kstats *ks = kstats_new(name, bits);
	long got = IS_ERR(ks) ? PTR_ERR(ks) : 0;

	if (!IS_ERR(ks))
		kstats_delete(ks);
	if (got != want) {
		pr_err("kstats_selftest: kstats_new(\"%s\", %d) = %ld, want %ld\n",
		       name ?: "(null)", bits, got, want);
		return -EINVAL;
	}
	return 0;
}

/* Bad arguments are refused with the documented errno, never adjusted. */
static int api_checks(void)
{
	static const char *const bad_names[] = {
		NULL, "", "a/b", "a b", "tab\tname", "ctl\x01", "quote\"",
		"0123456789012345678901234567890123456789012345678901234567890123",
	};
	int err = 0;
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(bad_names); i++)
		err |= api_expect(bad_names[i], 3, -EINVAL);
	err |= api_expect("selftest.bits6", 6, -EINVAL);
	err |= api_expect("selftest.bits255", 255, -EINVAL);
	err |= api_expect("selftest.b0", 0, -EEXIST);	/* taken by init */
	err |= api_expect("aZ09_.:-", 5, 0);
	err |= api_expect("012345678901234567890123456789012345678901234567890123456789012", 0, 0);
	kstats_delete(NULL);
	kstats_delete(ERR_PTR(-EINVAL));
	return err;
}

struct cpu_job {
	struct completion *go;
	atomic_t *left;
	struct completion *done;
	unsigned int cpu, n;
	u64 made;
};

static int record_thread(void *data)
{
	struct cpu_job *job = data;
	unsigned int i, b;

	wait_for_completion(job->go);
	for (i = 0; i < job->n; i++)
		for (b = 0; b < NR_BITS; b++)
			kstats_record(metrics[b], selftest_seq(job->cpu, i));
	if (atomic_dec_and_test(job->left))
		complete(job->done);
	return 0;
}

static int race_thread(void *data)
{
	struct cpu_job *job = data;

	wait_for_completion(job->go);
	while (!kthread_should_stop()) {
		kstats_record(race_metric, SELFTEST_RACE_VALUE);
		if (!(++job->made & 1023))
			cond_resched();
	}
	return 0;
}

/*
 * Runs fn on every online CPU, all released at once by @go. Either every
 * thread is started, or none ran and an error is returned.
 */
static int start_on_cpus(int (*fn)(void *), struct cpu_job *jobs,
			 struct task_struct **tasks, struct completion *go,
			 unsigned int n, unsigned int max)
{
	unsigned int nr = 0, i;
	int cpu;

	for_each_online_cpu(cpu) {
		struct task_struct *t;

		if (nr == max)
			break;
		jobs[nr].go = go;
		jobs[nr].cpu = cpu;
		jobs[nr].n = n;
		t = kthread_create(fn, &jobs[nr], "kstats_st/%d", cpu);
		if (IS_ERR(t)) {
			while (nr--) {
				kthread_stop(tasks[nr]);
				put_task_struct(tasks[nr]);
				tasks[nr] = NULL;
			}
			return PTR_ERR(t);
		}
		kthread_bind(t, cpu);
		get_task_struct(t);
		tasks[nr++] = t;
	}
	atomic_set(jobs[0].left, nr);
	for (i = 0; i < nr; i++)
		wake_up_process(tasks[i]);
	complete_all(go);
	return nr;
}

static int cmd_record(unsigned int n, bool race)
{
	unsigned int nr_cpus = num_online_cpus(), i;
	DECLARE_COMPLETION_ONSTACK(go);
	DECLARE_COMPLETION_ONSTACK(done);
	struct task_struct **tasks;
	struct cpu_job *jobs;
	atomic_t left;
	int nr;

	jobs = kcalloc(nr_cpus, sizeof(*jobs), GFP_KERNEL);
	tasks = kcalloc(nr_cpus, sizeof(*tasks), GFP_KERNEL);
	if (!jobs || !tasks) {
		nr = -ENOMEM;
		goto out;
	}
	for (i = 0; i < nr_cpus; i++) {
		jobs[i].left = &left;
		jobs[i].done = &done;
	}
	nr = start_on_cpus(race ? race_thread : record_thread, jobs, tasks,
			   &go, n, nr_cpus);
	if (nr < 0)
		goto out;
	if (!race) {
		wait_for_completion(&done);
	} else {
		for (i = 0; i < n; i++) {
			kstats_reset(race_metric);
			kstats_stop(race_metric);
			kstats_start(race_metric);
		}
	}
	race_made = 0;
	for (i = 0; i < nr; i++) {
		if (race)
			kthread_stop(tasks[i]);
		race_made += jobs[i].made;
		put_task_struct(tasks[i]);
	}
out:
	kfree(tasks);
	kfree(jobs);
	return nr < 0 ? nr : 0;
}

struct irq_job {
	struct hrtimer timer;
	unsigned int i, n, not_hardirq;
	struct completion done;
};

static enum hrtimer_restart irq_fire(struct hrtimer *timer)
{
	struct irq_job *job = container_of(timer, struct irq_job, timer);
	unsigned int b;

	if (!in_hardirq())
		job->not_hardirq++;
	for (b = 0; b < NR_BITS; b++)
		kstats_record(metrics[b], selftest_seq(0, job->i));
	if (++job->i == job->n) {
		complete(&job->done);
		return HRTIMER_NORESTART;
	}
	hrtimer_forward_now(timer, ns_to_ktime(50 * NSEC_PER_USEC));
	return HRTIMER_RESTART;
}

static int cmd_irq(unsigned int n)
{
	struct irq_job *job = kzalloc(sizeof(*job), GFP_KERNEL);
	int err = 0;

	if (!job)
		return -ENOMEM;
	if (!n)
		goto out;
	job->n = n;
	init_completion(&job->done);
	kstats_hrtimer_setup(&job->timer, irq_fire, CLOCK_MONOTONIC, HRTIMER_MODE_REL_HARD);
	hrtimer_start(&job->timer, ns_to_ktime(50 * NSEC_PER_USEC),
		      HRTIMER_MODE_REL_HARD);
	wait_for_completion(&job->done);
	hrtimer_cancel(&job->timer);
	if (job->not_hardirq) {
		pr_err("kstats_selftest: %u timer records outside hardirq\n",
		       job->not_hardirq);
		err = -EIO;
	}
out:
	kfree(job);
	return err;
}

static ssize_t ctl_write(struct file *file, const char __user *ubuf,
			 size_t len, loff_t *ppos)
{
	char buf[32], cmd[8];
	unsigned int n;
	int err;

	if (len >= sizeof(buf))
		return -EINVAL;
	if (copy_from_user(buf, ubuf, len))
		return -EFAULT;
	buf[len] = '\0';
	if (sscanf(buf, "%7s %u", cmd, &n) != 2)
		return -EINVAL;
	mutex_lock(&ctl_lock);
	if (!strcmp(cmd, "record"))
		err = cmd_record(n, false);
	else if (!strcmp(cmd, "race"))
		err = cmd_record(n, true);
	else if (!strcmp(cmd, "irq"))
		err = cmd_irq(n);
	else
		err = -EINVAL;
	mutex_unlock(&ctl_lock);
	return err ? err : len;
}

static const struct file_operations ctl_fops = {
	.owner = THIS_MODULE,
	.write = ctl_write,
};

static int __init selftest_init(void)
{
	char name[KSTATS_NAME_MAX + 1];
	unsigned int b;
	int err;

	for (b = 0; b < NR_BITS; b++) {
		snprintf(name, sizeof(name), SELFTEST_METRIC_FMT, b);
		metrics[b] = kstats_new(name, b);
		if (IS_ERR(metrics[b])) {
			err = PTR_ERR(metrics[b]);
			goto fail;
		}
	}
	race_metric = kstats_new(SELFTEST_RACE_METRIC, SELFTEST_RACE_BITS);
	if (IS_ERR(race_metric)) {
		err = PTR_ERR(race_metric);
		goto fail;
	}
	err = api_checks();
	if (err)
		goto fail;
	dir = debugfs_create_dir("kstats_selftest", NULL);
	debugfs_create_file("ctl", 0200, dir, NULL, &ctl_fops);
	debugfs_create_u64("made", 0400, dir, &race_made);
	pr_info("kstats_selftest: API checks passed\n");
	return 0;
fail:
	kstats_delete(race_metric);
	while (b--)
		kstats_delete(metrics[b]);
	return err;
}

static void __exit selftest_exit(void)
{
	unsigned int b;

	debugfs_remove(dir);
	kstats_delete(race_metric);
	for (b = 0; b < NR_BITS; b++)
		kstats_delete(metrics[b]);
}

module_init(selftest_init);
module_exit(selftest_exit);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("kstats self-test: known samples from every context");
MODULE_IMPORT_NS_KSTATS();

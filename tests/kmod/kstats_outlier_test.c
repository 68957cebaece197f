// SPDX-License-Identifier: GPL-2.0
/*
 * White-box test of the outlier capture's reentrancy guard
 * (module/trace_outlier.c, built in here). On 6.14-6.16 without upstream
 * 0db0934e7f9b, fprobe's return path lets a probe on a function the
 * capture calls (stack_trace_save(), the unwinder) run inside another
 * probe's exit: an outlier of that probe would capture again, and so on
 * until the kernel stack overflows. Debian ships no such kernel, so this
 * module stands in for that probe: its stack_trace_save() captures again,
 * as the probe's exit would, and counts how deep the captures nest.
 * Loading succeeds only if every check passes ("outlier checks passed"):
 *
 *  - captures never nest on a CPU: depth 1 however many are attempted;
 *  - each nested attempt is counted as rate-limited, never lost unseen;
 *  - each outer capture is kept, with its entry complete.
 */
#include <linux/kstats.h>
#include <linux/module.h>
#include <linux/percpu.h>
#include <linux/slab.h>
#include <linux/stacktrace.h>

#include "../../module/trace.h"

unsigned int kstats_test_stack_trace_save(unsigned long *store, unsigned int size,
					  unsigned int skip);
#define stack_trace_save kstats_test_stack_trace_save
#include "../../module/trace_outlier.c"
#undef stack_trace_save

/* What trace_outlier.c's reader calls in kstats.ko: never reached here. */
int kstats_trace_call(const char *name, int (*fn)(struct kstats_probe *p, void *arg),
		      void *arg)
{
	return -ENOENT;
}

struct kstats_metric *kstats_get_by_name(const char *name)
{
	return ERR_PTR(-ENOENT);
}

void kstats_metric_put(struct kstats_metric *m)
{
}

u32 kstats_ustack_walk(unsigned long *f, unsigned long ret)
{
	return 0;
}

bool kstats_file_privileged(struct file *file)
{
	return false;
}

int kstats_arg_name(const __u8 name[KSTATS_NAME_LEN])
{
	return -EINVAL;
}

bool kstats_arg_zero(const void *p, size_t len)
{
	return false;
}

#define NESTING_TRIES	8	/* bound without the guard: the test's own stack */
#define OUTER_CAPTURES	5

static struct kstats_probe *probe;
static unsigned int depth, max_depth, attempts;

/*
 * The probed stack_trace_save(): its exit's capture runs inside the outer
 * capture, before the walk (where the unguarded kernel would recurse).
 */
unsigned int kstats_test_stack_trace_save(unsigned long *store, unsigned int size,
					  unsigned int skip)
{
	unsigned int n;

	max_depth = max(max_depth, ++depth);
	if (depth < NESTING_TRIES) {
		attempts++;
		kstats_outlier_capture(probe, 0, kstats_probe_now(), 0, 0, 0);
	}
	n = stack_trace_save(store, size, skip);
	depth--;
	return n;
}

static u64 ratelimited_sum(struct kstats_probe *p)
{
	u64 n = 0;
	int cpu;

	for_each_possible_cpu(cpu)
		n += per_cpu_ptr(p->pcpu, cpu)->ratelimited;
	return n;
}

static int run_checks(struct kstats_probe *p)
{
	struct kstats_outlier_ring *r = p->outliers;
	u64 head;
	int i;

	/* The handlers run with preemption off, on one CPU: so do the captures. */
	preempt_disable();
	for (i = 0; i < OUTER_CAPTURES; i++)
		kstats_outlier_capture(p, 0, kstats_probe_now(), 0, 0, 0);
	preempt_enable();
	head = atomic64_read(&r->head);
	if (max_depth != 1 || attempts != OUTER_CAPTURES ||
	    ratelimited_sum(p) != OUTER_CAPTURES || head != OUTER_CAPTURES) {
		pr_err("kstats_outlier_test: captures nested %u deep (want 1); %u nested attempts, %llu rate-limited, %llu kept (want %d each)\n",
		       max_depth, attempts, ratelimited_sum(p), head, OUTER_CAPTURES);
		return -EINVAL;
	}
	for (i = 0; i < OUTER_CAPTURES; i++) {
		struct kstats_outlier *e = &r->e[i];

		if (e->seq != (u64)(i + 1) << 1 || e->pid != current->pid || !e->nr_frames) {
			pr_err("kstats_outlier_test: entry %d: seq %llu pid %u frames %u\n",
			       i, e->seq, e->pid, e->nr_frames);
			return -EINVAL;
		}
	}
	return 0;
}

static int __init outlier_test_init(void)
{
	struct kstats_trace req = {
		.flags = KSTATS_TRACE_OUTLIERS,
		.outlier_ns = 1,
		.outlier_ring = OUTER_CAPTURES * 2,
		.outlier_rate = KSTATS_OUTLIER_RATE_MAX,
	};
	int err = -ENOMEM;

	probe = kzalloc(sizeof(*probe), GFP_KERNEL);
	if (!probe)
		return -ENOMEM;
	probe->pcpu = alloc_percpu(struct kstats_probe_pcpu);
	probe->time = kstats_new("outliertest.time", 3);
	if (probe->pcpu && !IS_ERR(probe->time)) {
		probe->time_metric = to_metric(probe->time);
		err = kstats_outlier_setup(probe, &req) ?: run_checks(probe);
	}
	kstats_outlier_free(probe);
	if (!IS_ERR(probe->time))
		kstats_delete(probe->time);
	free_percpu(probe->pcpu);
	kfree(probe);
	if (!err)
		pr_info("kstats_outlier_test: outlier checks passed\n");
	return err;
}

static void __exit outlier_test_exit(void)
{
}

module_init(outlier_test_init);
module_exit(outlier_test_exit);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("kstats: white-box test of the outlier capture's reentrancy guard");
MODULE_IMPORT_NS_KSTATS();

// SPDX-License-Identifier: GPL-2.0
/*
 * White-box test of the section start table (module/trace_pair.c, built in
 * here with its static functions): loading succeeds only if every check
 * passes ("section checks passed").
 *
 *  - a start takes a free slot of its window before a stale one (a start
 *    never ended for 10 s may still be ended by its task);
 *  - its end pairs with it and frees the slot;
 *  - a claim made from an owner word read before someone else claimed and
 *    released the slot fails (the generation in the word), so a start is
 *    never stolen from a word read too early.
 */
#include "../../module/trace_pair.c"
/* What trace_pair.c calls with --split (never here: no section splits). */
#include "../../module/trace_split.c"

#include <linux/module.h>

#include "kstats_whitebox.h"

#define OTHER_TID	(U32_MAX - 1)	/* a task that is not us */

static int check(bool cond, const char *what)
{
	if (!cond)
		pr_err("kstats_section_test: %s\n", what);
	return cond ? 0 : -EINVAL;
}

static int run_checks(struct kstats_probe *p)
{
	struct kstats_task_slot *s0 = kstats_task_window(p, 0);
	struct kstats_task_slot *s1 = kstats_task_window(p, 1);
	u64 now = kstats_probe_now(), stale, seen;
	struct kstats_call_expr cx = { .decided = true };
	int err;

	/* The first slot of our window: another task's start, 11 s old. */
	stale = (u64)7 << 32 | OTHER_TID;
	s0->owner = stale;
	s0->start_time = 1;
	s0->t0 = now - 11 * NSEC_PER_SEC;

	preempt_disable();
	kstats_section_begin(p, NULL);
	preempt_enable();
	err = check(s0->owner == stale, "a start took a stale slot while a free one was there");
	err = err ?: check(lower_32_bits(s1->owner) == current->pid,
			   "the start is not in the free slot");

	seen = s1->owner;
	preempt_disable();
	kstats_section_end(p, NULL, 0);
	preempt_enable();
	err = err ?: check(kstats_whitebox_count(p->time) == 1,
			   "the end did not record its section");
	err = err ?: check(!lower_32_bits(s1->owner), "the end did not free its slot");

	/* Claimed and released since @seen was read: a claim from it fails. */
	err = err ?: check(!kstats_slot_claim(s1, seen, now, &cx),
			   "a claim from an owner word read before a release succeeded");
	return err;
}

static int __init section_test_init(void)
{
	struct kstats_probe *p = kzalloc(sizeof(*p), GFP_KERNEL);
	int err = -ENOMEM;

	if (!p)
		return -ENOMEM;
	p->outlier_ns = U64_MAX;	/* no outliers */
	p->pcpu = alloc_percpu(struct kstats_probe_pcpu);
	p->time = kstats_new("sectiontest.time", 3);
	if (p->pcpu && !IS_ERR(p->time) && !kstats_pair_init(p)) {
		p->time_metric = to_metric(p->time);
		err = run_checks(p);
	}
	kvfree(p->tasks);
	kstats_delete(p->time);
	free_percpu(p->pcpu);
	kfree(p);
	if (!err)
		pr_info("kstats_section_test: section checks passed\n");
	return err;
}

static void __exit section_test_exit(void)
{
}

module_init(section_test_init);
module_exit(section_test_exit);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("kstats: white-box test of the section start table");
MODULE_IMPORT_NS_KSTATS();

// SPDX-License-Identifier: GPL-2.0
/*
 * Many functions as one probe: TRACE with KSTATS_TRACE_DEFER makes a trace
 * (metrics, checks, its function resolved) without attaching it; ATTACH
 * then attaches every trace its file deferred, on fprobe as one fprobe
 * over all their functions (a group, trace_func.c). Until then the kernel
 * points at none of them: a deferred trace is removed without detaching.
 */
#include <linux/fs.h>
#include <linux/mm.h>
#include <linux/slab.h>
#include <linux/string.h>

#include "trace.h"

/* A file's deferred traces are of one mechanism: ATTACH makes one group of them. */
int kstats_defer_check(struct kstats_probe *p)
{
	struct kstats_probe *q;

	if (!p->deferred)
		return 0;
	list_for_each_entry(q, &kstats_probes, node)
		if (q->deferred && q->creator == p->creator && q->mech != p->mech)
			return -EINVAL;
	return 0;
}

/*
 * A deferred trace's floor and costs: those measured for its file's last
 * deferred trace, when neither has an expr. Both are functions on one
 * mechanism, so the floor probe and the calibration would be the same
 * ones: a group's are measured once, not once per function (under KASAN a
 * measure costs tens of ms, a thousand of them half a minute).
 */
bool kstats_defer_floor(struct kstats_probe *p)
{
	struct kstats_probe *q;

	if (!p->deferred || p->expr)
		return false;
	list_for_each_entry_reverse(q, &kstats_probes, node) {
		if (!q->deferred || q->creator != p->creator || q->expr)
			continue;
		p->floor_ns = q->floor_ns;
		p->gov.call_ps = q->gov.call_ps;
		p->gov.skip_ps = q->gov.skip_ps;
		return true;
	}
	return false;
}

/*
 * ATTACH: every trace @file deferred, attached: on fprobe as one group, on
 * kretprobe one by one. All or none: on an error, those attached so far
 * are detached again, and all stay deferred.
 */
int kstats_trace_attach(struct file *file, u32 *attached)
{
	struct kstats_probe *p, **ps;
	u32 n = 0, i = 0;
	int err = mutex_lock_killable(&kstats_trace_lock);

	if (err)
		return err;
	list_for_each_entry(p, &kstats_probes, node)
		n += p->deferred && p->creator == file;
	err = -ENOENT;
	if (!n)
		goto unlock;
	err = -ENOMEM;
	ps = kvmalloc_array(n, sizeof(*ps), GFP_KERNEL);
	if (!ps)
		goto unlock;
	list_for_each_entry(p, &kstats_probes, node)
		if (p->deferred && p->creator == file)
			ps[i++] = p;
	if (ps[0]->mech == KSTATS_MECH_FPROBE) {
		err = kstats_group_attach(ps, n);
		i = err ? 0 : n;
	} else {
		for (i = 0, err = 0; i < n; i++) {
			err = kstats_func_attach(ps[i], ps[i]->addr[0], ps[i]->maxactive);
			if (err) {
				/* Registered afresh next time, as if never used. */
				memset(&ps[i]->rp, 0, sizeof(ps[i]->rp));
				break;
			}
		}
	}
	/* Undone: nothing in the kernel points at these yet but the ones attached. */
	while (err && i) {
		p = ps[--i];
		if (!kstats_detach_retrying(p) && p->mech == KSTATS_MECH_KRETPROBE)
			memset(&p->rp, 0, sizeof(p->rp));
	}
	for (i = 0; i < n && !err; i++)
		ps[i]->deferred = false;
	if (!err)
		*attached = n;
	kvfree(ps);
unlock:
	mutex_unlock(&kstats_trace_lock);
	if (!err)
		kstats_gov_kick();
	return err;
}


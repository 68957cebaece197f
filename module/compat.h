/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Differences between kernel versions, detected from the kernel's headers
 * at build time (compat.mk) or from its configuration, by the shape of what
 * kstats uses and never by the version number. Core files use only what
 * this header defines.
 */
#ifndef KSTATS_COMPAT_H
#define KSTATS_COMPAT_H

#include <linux/err.h>
#include <linux/export.h>
#include <linux/hrtimer.h>
#include <linux/kconfig.h>
#include <linux/types.h>

/*
 * kstats_record() is two per-CPU adds of u64s, which are single
 * instructions, NMI-safe and never torn only on 64-bit kernels.
 */
#ifndef CONFIG_64BIT
#error "kstats needs a 64-bit kernel: its per-CPU u64 adds are not NMI-safe and can tear on 32-bit"
#endif

/*
 * EXPORT_SYMBOL_NS_GPL() takes the namespace as an identifier up to 6.12
 * and as a string literal from 6.13 (and in stable trees that took the
 * change). Before, it stringifies the argument: with __stringify(), which
 * expands it first, or, up to early 5.15.y, with a bare #ns, which does
 * not (a namespace literally named "KSTATS_NS" that no consumer imports).
 * KSTATS_EXPORT() expands KSTATS_NS before the kernel's macro sees it.
 */
#ifdef KSTATS_NS_IS_STRING
#define KSTATS_NS	"KSTATS"
#else
#define KSTATS_NS	KSTATS
#endif
#define __KSTATS_EXPORT(sym, ns)	EXPORT_SYMBOL_NS_GPL(sym, ns)
#define KSTATS_EXPORT(sym)		__KSTATS_EXPORT(sym, KSTATS_NS)

/*
 * fprobe: added in 5.18; per-call entry data (what makes a call that sleeps
 * or migrates measurable) in 6.4 and in 6.1.y backports; ret_ip among the
 * handlers' parameters from 6.5 (not in those backports); struct
 * ftrace_regs instead of struct pt_regs (arguments and return value read
 * through its own accessors) and no instance pool (so no nr_maxactive)
 * from 6.14, on the function graph. Without entry data kstats
 * does not use fprobe at all.
 */
#if IS_ENABLED(CONFIG_FPROBE) && defined(KSTATS_FPROBE_ENTRY_DATA)
#define KSTATS_HAVE_FPROBE
#include <linux/fprobe.h>

#ifdef KSTATS_FPROBE_FTRACE_REGS
#define kstats_fprobe_regs ftrace_regs
#define kstats_fprobe_retval(regs)	ftrace_regs_get_return_value(regs)
#define kstats_fprobe_argument(regs, n)	ftrace_regs_get_argument(regs, n)
#else
#define kstats_fprobe_regs pt_regs
#define kstats_fprobe_retval(regs)	regs_return_value(regs)
#define kstats_fprobe_argument(regs, n)	regs_get_kernel_argument(regs, n)
#endif

/* The parameters of an fprobe entry or exit handler: fp and data are used. */
#ifdef KSTATS_FPROBE_RET_IP
#define KSTATS_FPROBE_HANDLER_ARGS					\
	struct fprobe *fp, unsigned long ip, unsigned long ret_ip,	\
	struct kstats_fprobe_regs *regs, void *data
#else
#define KSTATS_FPROBE_HANDLER_ARGS					\
	struct fprobe *fp, unsigned long ip,				\
	struct kstats_fprobe_regs *regs, void *data
#endif

/* Concurrent calls followed; on the function graph there is no bound. */
static inline void kstats_fprobe_set_maxactive(struct fprobe *fp, u32 maxactive)
{
#ifdef KSTATS_FPROBE_MAXACTIVE
	fp->nr_maxactive = maxactive;
#endif
}
#endif /* fprobe */

/*
 * Tracepoint probes are registered with a prototype that ignores the
 * event's arguments: fine on the C ABI, but kernel CFI type-checks every
 * indirect call, so on CFI kernels (CONFIG_CFI_CLANG up to 6.17,
 * CONFIG_CFI from 6.18) tracepoint pairs are refused with -EOPNOTSUPP.
 */
#if !IS_ENABLED(CONFIG_CFI_CLANG) && !IS_ENABLED(CONFIG_CFI)
#define KSTATS_HAVE_TRACEPOINT_PAIRS	1
#endif

/* Test modules: a timer with its function, however the kernel sets one up. */
static inline void kstats_hrtimer_setup(struct hrtimer *timer,
					enum hrtimer_restart (*fn)(struct hrtimer *),
					clockid_t clock, enum hrtimer_mode mode)
{
#ifdef KSTATS_HAVE_HRTIMER_SETUP
	hrtimer_setup(timer, fn, clock, mode);
#else
	hrtimer_init(timer, clock, mode);
	timer->function = fn;
#endif
}

/*
 * Cgroup v2 (--cgroup, --by cgroup): the calling task's cgroup, read in a
 * handler (in an interrupt, the interrupted task's). The function probes'
 * handlers run with preemption off, which is an RCU-sched read side
 * (task_css_set_check() accepts it); the notrace disable makes sure of it,
 * and its enable cannot schedule there. Tracepoint probes can run
 * preemptible (6.13+ syscall events; RT): trace_pair.c's handlers disable
 * preemption before they get here.
 */
#ifdef CONFIG_CGROUPS
#include <linux/cgroup.h>
#define KSTATS_HAVE_CGROUP
static __always_inline u64 kstats_current_cgroup_id(void)
{
	u64 id;

	preempt_disable_notrace();
	id = cgroup_id(task_dfl_cgroup(current));
	preempt_enable_notrace();
	return id;
}

static __always_inline bool kstats_current_under(struct cgroup *cgrp)
{
	bool under;

	preempt_disable_notrace();
	under = task_under_cgroup_hierarchy(current, cgrp);
	preempt_enable_notrace();
	return under;
}

#define kstats_cgroup_get(fd)		cgroup_get_from_fd(fd)
#define kstats_cgroup_put(cgrp)		cgroup_put(cgrp)
#else
struct cgroup;
static inline u64 kstats_current_cgroup_id(void) { return 1; }
static inline bool kstats_current_under(struct cgroup *cgrp) { return true; }
static inline struct cgroup *kstats_cgroup_get(int fd) { return ERR_PTR(-EOPNOTSUPP); }
static inline void kstats_cgroup_put(struct cgroup *cgrp) { }
#endif

/*
 * --split: whether a task leaving its CPU with its dequeue delayed (EEVDF,
 * 6.12+: still on the runqueue, but asleep). Read under the runqueue lock.
 */
#ifdef KSTATS_HAVE_SCHED_DELAYED
#define kstats_sched_delayed(t)		READ_ONCE((t)->se.sched_delayed)
#else
struct task_struct;
static inline bool kstats_sched_delayed(struct task_struct *t) { return false; }
#endif

/*
 * uprobes (trace_uprobe.c), x86-64 only (the return's stack pointer rule
 * is the entry's + 8 there). Three API shapes, detected by compat.mk: the
 * handlers' and filter's parameters, registration and unregistration.
 */
#if IS_ENABLED(CONFIG_UPROBES) && defined(CONFIG_X86_64)
#define KSTATS_HAVE_UPROBE
#include <linux/uprobes.h>

#ifdef KSTATS_UPROBE_DATA
#define KSTATS_UPROBE_ENTRY_ARGS	struct uprobe_consumer *uc, struct pt_regs *regs, \
					__u64 *data
#define KSTATS_UPROBE_RET_ARGS		struct uprobe_consumer *uc, unsigned long func, \
					struct pt_regs *regs, __u64 *data
#define kstats_uprobe_cookie()		(data)
#else
#define KSTATS_UPROBE_ENTRY_ARGS	struct uprobe_consumer *uc, struct pt_regs *regs
#define KSTATS_UPROBE_RET_ARGS		struct uprobe_consumer *uc, unsigned long func, \
					struct pt_regs *regs
#define kstats_uprobe_cookie()		((__u64 *)NULL)
#endif

#ifdef KSTATS_UPROBE_FILTER_CTX
#define KSTATS_UPROBE_FILTER_ARGS	struct uprobe_consumer *uc, enum uprobe_filter_ctx ctx, \
					struct mm_struct *mm
#else
#define KSTATS_UPROBE_FILTER_ARGS	struct uprobe_consumer *uc, struct mm_struct *mm
#endif

/*
 * What an entry handler returns for a call it does not time: IGNORE (6.13+)
 * skips its return handler; before, anything but 0 or REMOVE warns.
 */
#ifdef UPROBE_HANDLER_IGNORE
#define KSTATS_UPROBE_DECLINE		UPROBE_HANDLER_IGNORE
#else
#define KSTATS_UPROBE_DECLINE		0
#endif

/* One registered consumer; the caller keeps @inode (and its mount) referenced. */
struct kstats_uprobe_site {
	struct uprobe_consumer uc;
	struct uprobe *u;		/* 6.12+ */
	struct inode *inode;
	loff_t off;
};

static inline int kstats_uprobe_register(struct kstats_uprobe_site *s, loff_t ref_ctr)
{
#ifdef KSTATS_UPROBE_PTR
	s->u = uprobe_register(s->inode, s->off, ref_ctr, &s->uc);
	return PTR_ERR_OR_ZERO(s->u);
#else
	return ref_ctr ? uprobe_register_refctr(s->inode, s->off, ref_ctr, &s->uc) :
			 uprobe_register(s->inode, s->off, &s->uc);
#endif
}

/* Off the uprobe's list; handlers may still run until the sync. */
static inline void kstats_uprobe_unregister_nosync(struct kstats_uprobe_site *s)
{
#ifdef KSTATS_UPROBE_PTR
	uprobe_unregister_nosync(s->u, &s->uc);
#else
	uprobe_unregister(s->inode, s->off, &s->uc);	/* synchronous */
#endif
}

static inline void kstats_uprobe_unregister_sync(void)
{
#ifdef KSTATS_UPROBE_PTR
	uprobe_unregister_sync();
#endif
}
#endif /* uprobes */

/* sched_process_exit's probe prototype (CFI checks it). */
#ifdef KSTATS_EXIT_GROUP_DEAD
#define KSTATS_EXIT_PROBE_ARGS	void *data, struct task_struct *t, bool group_dead
#else
#define KSTATS_EXIT_PROBE_ARGS	void *data, struct task_struct *t
#endif

#endif /* KSTATS_COMPAT_H */

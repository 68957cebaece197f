// SPDX-License-Identifier: GPL-2.0
/*
 * A section between USDT probes (KSTATS_MECH_UPROBE, START and END
 * entries), or a point (POINT entries): one uprobe consumer per probe
 * site, with an entry handler only. A START site begins the thread's
 * section, an END site ends it, through the kernel sections' own per-task
 * table (trace_pair.c), so pairing, a second start, an end without a start
 * and a thread exiting inside behave as they do for kernel sections. A
 * POINT site records a value, as a tracepoint alone does. An expr reads
 * the probe's arguments where its note says they are: in the user's
 * registers, or in memory they point to. A site with a semaphore
 * is registered with its ref_ctr_offset: the kernel raises the program's
 * semaphore in each process where the breakpoint is in, and lowers it when
 * it is taken out.
 */
#include <linux/fs.h>
#include <linux/path.h>
#include <linux/sched/mm.h>
#include <linux/slab.h>

#include "trace.h"

#ifdef KSTATS_HAVE_UPROBE
struct kstats_usite {
	struct kstats_uprobe_site site;
	struct kstats_usdt *usdt;
	struct path path;		/* the file, held for the trace's life */
	u32 role;			/* KSTATS_UPROBE_START, _END or _POINT */
	bool live;			/* registered */
};

struct kstats_usdt {
	struct kstats_probe *p;
	struct mm_struct *mm;		/* -p: the process's (mmgrab), or NULL */
	u32 nr;
	struct kstats_usite sites[];
};

/* The user's registers, by their x86-64 DWARF numbers (KSTATS_OPERAND_REG). */
static void kstats_usdt_regs(const struct pt_regs *regs, unsigned long *r)
{
#ifdef CONFIG_X86_64
	r[0] = regs->ax;
	r[1] = regs->dx;
	r[2] = regs->cx;
	r[3] = regs->bx;
	r[4] = regs->si;
	r[5] = regs->di;
	r[6] = regs->bp;
	r[7] = regs->sp;
	r[8] = regs->r8;
	r[9] = regs->r9;
	r[10] = regs->r10;
	r[11] = regs->r11;
	r[12] = regs->r12;
	r[13] = regs->r13;
	r[14] = regs->r14;
	r[15] = regs->r15;
#else
	memset(r, 0, KSTATS_OPERAND_REGS * sizeof(*r));
#endif
}

/*
 * uprobes points the registers' ip at the probe before its handlers run:
 * the first frame of a user stack taken here.
 */
static int kstats_usdt_hit(KSTATS_UPROBE_ENTRY_ARGS)
{
	struct kstats_usite *s = container_of(uc, struct kstats_usite, site.uc);
	struct kstats_usdt *usdt = s->usdt;
	struct kstats_probe *p = usdt->p;
	unsigned long r[KSTATS_OPERAND_REGS];
	const unsigned long *args = NULL;

	/* Another process (a fork, or a breakpoint another tool asked for). */
	if (usdt->mm && current->mm != usdt->mm)
		return UPROBE_HANDLER_REMOVE;
	if (p->expr) {
		kstats_usdt_regs(regs, r);
		args = r;
	}
	/* Handlers run preemptible: the per-CPU state wants one CPU. */
	preempt_disable_notrace();
	if (s->role == KSTATS_UPROBE_POINT)
		kstats_point_hit(p, args, instruction_pointer(regs));
	else if (s->role == KSTATS_UPROBE_END)
		kstats_section_end(p, args, instruction_pointer(regs));
	else
		kstats_section_begin(p, args);
	preempt_enable_notrace();
	return 0;
}

/* -p: only the target's address space gets the breakpoints. */
static bool kstats_usdt_filter(KSTATS_UPROBE_FILTER_ARGS)
{
	return mm == container_of(uc, struct kstats_usite, site.uc)->usdt->mm;
}

/* Takes every registered site out; handlers may run until the sync. */
static void kstats_usdt_unregister(struct kstats_usdt *usdt)
{
	u32 i;

	for (i = 0; i < usdt->nr; i++)
		if (usdt->sites[i].live)
			kstats_uprobe_unregister_nosync(&usdt->sites[i].site);
	kstats_uprobe_unregister_sync();
	for (i = 0; i < usdt->nr; i++)
		usdt->sites[i].live = false;
}

/* Two entries at one place of one file would be one uprobe twice. */
static bool kstats_usdt_dup(const struct kstats_usdt *usdt, u32 n)
{
	const struct kstats_uprobe_site *s = &usdt->sites[n].site;
	u32 i;

	for (i = 0; i < n; i++)
		if (usdt->sites[i].site.inode == s->inode && usdt->sites[i].site.off == s->off)
			return true;
	return false;
}

int kstats_usdt_attach(struct kstats_probe *p, const struct kstats_uprobe *u, u32 nr)
{
	struct kstats_usdt *usdt;
	int err;
	u32 i;

	usdt = kzalloc(struct_size(usdt, sites, nr), GFP_KERNEL_ACCOUNT);
	if (!usdt)
		return -ENOMEM;
	usdt->p = p;
	usdt->nr = nr;
	p->usdt = usdt;		/* kstats_usdt_free() takes it down on failure */
	err = p->point ? 0 : kstats_pair_init(p);	/* a point keeps no starts */
	if (!err && (p->filter & (KSTATS_TRACE_PID | KSTATS_TRACE_TGID)))
		err = kstats_uprobe_mm(p, &usdt->mm);
	for (i = 0; !err && i < nr; i++) {
		struct kstats_usite *s = &usdt->sites[i];

		s->usdt = usdt;
		s->role = u[i].role;
		err = kstats_uprobe_file(&u[i], &s->path, &s->site);
		if (!err && kstats_usdt_dup(usdt, i))
			err = -EINVAL;
	}
	for (i = 0; !err && i < nr; i++) {
		struct kstats_usite *s = &usdt->sites[i];

		s->site.uc.handler = kstats_usdt_hit;
		if (usdt->mm)
			s->site.uc.filter = kstats_usdt_filter;
		err = kstats_uprobe_register(&s->site, u[i].ref_ctr_offset);
		s->live = !err;
	}
	if (err)
		kstats_usdt_unregister(usdt);
	/* The kernel's -ENOTSUPP (524) is no errno user space knows. */
	return err == -ENOTSUPP ? -EOPNOTSUPP : err;
}

int kstats_usdt_detach(struct kstats_probe *p)
{
	kstats_usdt_unregister(p->usdt);
	return 0;
}

void kstats_usdt_free(struct kstats_probe *p)
{
	struct kstats_usdt *usdt = p->usdt;
	u32 i;

	if (!usdt)
		return;
	for (i = 0; i < usdt->nr; i++)
		if (usdt->sites[i].path.dentry)
			path_put(&usdt->sites[i].path);
	if (usdt->mm)
		mmdrop(usdt->mm);
	kfree(usdt);
	p->usdt = NULL;
}
#else
int kstats_usdt_attach(struct kstats_probe *p, const struct kstats_uprobe *u, u32 nr)
{
	return -EOPNOTSUPP;
}

int kstats_usdt_detach(struct kstats_probe *p)
{
	return 0;
}

void kstats_usdt_free(struct kstats_probe *p)
{
}
#endif

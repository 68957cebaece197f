// SPDX-License-Identifier: GPL-2.0
/*
 * Timing a user-space function (KSTATS_MECH_UPROBE): one uprobe consumer
 * with an entry and a return handler on (file, offset).
 *
 * Before 6.13 nothing pairs a return with its entry: every return instance
 * of the uprobe reaches every consumer, also calls this trace declined or
 * saw begin under another registration. So each thread keeps its own stack
 * of the calls in flight, each with the stack pointer the caller will have
 * after the return (x86-64: the entry's + 8), and a return times only the
 * entry with exactly its stack pointer. From 6.13 the kernel hands each
 * return the cookie its entry set (a session consumer), naming the entry.
 *
 * A call that never returns (longjmp or an exception out of it, the thread
 * killed or exec'ing inside it) gets no return from uprobes. Its entry is
 * dropped, and counted missed, by uprobes' own rule: at a later entry in
 * the thread, every entry whose frame is at or below the new one is dead;
 * at a return, every entry below the returning frame; at the thread's
 * exit (sched_process_exit), all. No entry is ever timed into a later
 * call: a return matches only its own frame. With --split or --self a
 * dropped entry also leaves its task's context (trace_split.c), as a call
 * not recorded would.
 */
#include <linux/file.h>
#include <linux/fs.h>
#include <linux/hash.h>
#include <linux/pid.h>
#include <linux/rculist.h>
#include <linux/sched/mm.h>
#include <linux/sched/task.h>
#include <linux/sched/task_stack.h>	/* task_pt_regs(): on 5.15 no other header brings it */
#include <linux/slab.h>
#include <linux/tracepoint.h>
#include <linux/uaccess.h>

#include "trace.h"

#ifdef KSTATS_HAVE_UPROBE
bool kstats_have_uprobe = true;

#define KSTATS_UREC_BITS	10	/* threads with calls in flight, per trace */
#define KSTATS_UREC_WINDOW	16	/* records a thread may sit in, from its hash */
#define KSTATS_UDEPTH		16	/* calls in flight per thread; deeper: missed */

struct kstats_ucall {
	u64 ret_sp;			/* the caller's stack pointer after the return */
	u64 t0;
	u32 cpu;
	u32 seq;			/* the cookie's check (6.13+) */
	struct kstats_call_expr cx;	/* an expr's, from the entry */
};

/*
 * A thread's calls in flight. Claimed by its first traced entry, released
 * when its stack empties or it exits: only the owner writes it.
 */
struct kstats_urec {
	u32 tid;			/* 0: free */
	u32 depth;
	u32 seq;
	struct mm_struct *mm;		/* at claim: a different one means exec */
	struct kstats_ucall stack[KSTATS_UDEPTH];
};

struct kstats_utrace {
	struct kstats_uprobe_site site;
	struct kstats_probe *p;
	struct path path;		/* the file, held for the trace's life */
	struct mm_struct *mm;		/* -p: the process's (mmgrab), or NULL */
	struct list_head node;		/* kstats_utraces */
	bool listed;
	/* --split, --self: record r's call d began at marks[r][d]; else NULL. */
	struct kstats_split_mark (*marks)[KSTATS_UDEPTH];
	struct kstats_urec recs[1U << KSTATS_UREC_BITS];
};

/* Where @r's call @depth began, for --split and --self. */
static struct kstats_split_mark *kstats_ucall_mark(struct kstats_utrace *ut,
						   struct kstats_urec *r, u32 depth)
{
	return &ut->marks[r - ut->recs][depth];
}

/* Every attached user-function trace, for the exit hook; under kstats_trace_lock, RCU. */
static LIST_HEAD(kstats_utraces);
static struct tracepoint *kstats_tp_exit;

/* @tid's record, or with @claim a free one taken for it; NULL if none. */
static struct kstats_urec *kstats_urec_find(struct kstats_utrace *ut, u32 tid, bool claim)
{
	u32 h = hash_32(tid, KSTATS_UREC_BITS), i;
	struct kstats_urec *r;

	for (i = 0; i < KSTATS_UREC_WINDOW; i++) {
		r = &ut->recs[(h + i) & ((1U << KSTATS_UREC_BITS) - 1)];
		if (READ_ONCE(r->tid) == tid)
			return r;
	}
	for (i = 0; claim && i < KSTATS_UREC_WINDOW; i++) {
		r = &ut->recs[(h + i) & ((1U << KSTATS_UREC_BITS) - 1)];
		if (!READ_ONCE(r->tid) && !cmpxchg(&r->tid, 0, tid)) {
			r->depth = 0;
			r->mm = current->mm;
			return r;
		}
	}
	return NULL;
}

static void kstats_urec_release(struct kstats_urec *r)
{
	r->depth = 0;
	/* The next owner, seeing it free, sees it empty. */
	smp_store_release(&r->tid, 0);
}

/*
 * Entries that will never return, dropped: each a miss, and (--split,
 * --self) counted out of its task's context, as a call not recorded. Only
 * ever in the thread that made them (or at its exit), which owns it.
 */
static void kstats_urec_drop(struct kstats_utrace *ut, struct kstats_urec *r, u32 depth)
{
	struct kstats_probe *p = ut->p;

	this_cpu_add(p->pcpu->misses, r->depth - depth);
	while (unlikely(p->task_ctx) && r->depth > depth)
		kstats_split_end(p, kstats_ucall_mark(ut, r, --r->depth), KSTATS_NOT_RECORDED);
	r->depth = depth;
}

/*
 * A new entry at @ret_sp: entries whose frame is not above it are dead
 * (uprobes' RP_CHECK_CALL rule), and so is everything after an exec.
 */
static void kstats_urec_clean(struct kstats_utrace *ut, struct kstats_urec *r, u64 ret_sp)
{
	u32 depth = r->depth;

	if (r->mm != current->mm) {
		depth = 0;
		r->mm = current->mm;
	}
	while (depth && r->stack[depth - 1].ret_sp <= ret_sp)
		depth--;
	kstats_urec_drop(ut, r, depth);
}

static int kstats_uprobe_entry(KSTATS_UPROBE_ENTRY_ARGS)
{
	struct kstats_utrace *ut = container_of(uc, struct kstats_utrace, site.uc);
	struct kstats_probe *p = ut->p;
	u64 ret_sp = user_stack_pointer(regs) + sizeof(long), now;
	u64 *cookie = kstats_uprobe_cookie();
	int ret = KSTATS_UPROBE_DECLINE;
	struct kstats_call_expr cx;
	struct kstats_ucall *c;
	struct kstats_urec *r;
	u32 n;

	/* Another process (a fork, or a breakpoint another tool asked for). */
	if (ut->mm && current->mm != ut->mm)
		return UPROBE_HANDLER_REMOVE;
	/* Handlers run preemptible: the per-CPU state wants one CPU. */
	preempt_disable_notrace();
	r = kstats_urec_find(ut, current->pid, false);
	/* Even for a call declined below: the dead go first. */
	if (r)
		kstats_urec_clean(ut, r, ret_sp);
	n = READ_ONCE(p->sample_every);
	if (!kstats_probe_wants(p) || kstats_probe_declines(p, n))
		goto out;
	/* The user's registers, as a kprobe's: rejected or not, counted there. */
	if (unlikely(p->expr) && kstats_expr_begin(p, regs, &cx))
		goto out;
	if (!r)
		r = kstats_urec_find(ut, current->pid, true);
	if (!r || r->depth == KSTATS_UDEPTH) {
		this_cpu_inc(p->pcpu->misses);
		goto out;
	}
	c = &r->stack[r->depth];
	/* Before the clock: claiming the task's context is not the call's time. */
	if (unlikely(p->task_ctx))
		kstats_split_begin(p, kstats_ucall_mark(ut, r, r->depth));
	now = kstats_probe_now();
	if (n <= 1)
		kstats_probe_begin_gap(p, now);
	c->ret_sp = ret_sp;
	c->t0 = now;
	c->cpu = smp_processor_id();
	c->seq = ++r->seq;
	if (unlikely(p->expr))
		c->cx = cx;
	if (cookie)
		*cookie = (u64)c->seq << 32 | r->depth;
	r->depth++;
	ret = 0;
out:
	if (r && !r->depth)
		kstats_urec_release(r);
	preempt_enable_notrace();
	return ret;
}

/* The entry this return ends: its index in @r's stack, or -1 (not ours). */
static int kstats_ucall_match(struct kstats_urec *r, u64 sp, const u64 *cookie)
{
	int i;

	if (cookie) {	/* 6.13+: the entry's own cookie */
		i = (u32)*cookie;
		return i < r->depth && r->stack[i].seq == *cookie >> 32 ? i : -1;
	}
	for (i = r->depth - 1; i >= 0 && r->stack[i].ret_sp < sp; i--)
		;
	return i >= 0 && r->stack[i].ret_sp == sp ? i : -1;
}

static int kstats_uprobe_return(KSTATS_UPROBE_RET_ARGS)
{
	struct kstats_utrace *ut = container_of(uc, struct kstats_utrace, site.uc);
	struct kstats_probe *p = ut->p;
	struct kstats_ucall *c;
	struct kstats_urec *r;
	u64 wall;
	int i;

	preempt_disable_notrace();
	r = kstats_urec_find(ut, current->pid, false);
	if (!r || r->mm != current->mm)
		goto out;	/* entered before the trace, declined, or a fork's */
	i = kstats_ucall_match(r, user_stack_pointer(regs), kstats_uprobe_cookie());
	if (i < 0)
		goto out;
	/* Deeper entries are dead: longjmp'd over. */
	kstats_urec_drop(ut, r, i + 1);
	c = &r->stack[i];
	/* The registers' ip is where the call returns to. */
	if (unlikely(p->expr)) {
		struct kstats_call call = { .t0 = c->t0, .cpu = c->cpu };

		/* The predicate's rest, the value, the key: as a kernel function's. */
		wall = kstats_expr_end(p, &call, &c->cx, instruction_pointer(regs),
				       regs_return_value(regs), NULL);
	} else {
		wall = kstats_probe_end(p, c->t0, c->cpu, instruction_pointer(regs),
					regs_return_value(regs));
		if (unlikely(p->keys) && wall != KSTATS_NOT_RECORDED)
			kstats_keys_record(p, regs_return_value(regs), instruction_pointer(regs),
					   wall);
	}
	if (unlikely(p->task_ctx))
		kstats_split_end(p, kstats_ucall_mark(ut, r, i), wall);
	r->depth = i;
	if (!r->depth)
		kstats_urec_release(r);
out:
	preempt_enable_notrace();
	return 0;
}

/*
 * A user-space function's stack at its return, into @f (KSTATS_OUTLIER_FRAMES,
 * zero-filled past the frames): @ret, where the call returns to, then
 * each caller's return address up the program's frame-pointer chain, as
 * perf's user callchains (and so bpftrace's ustack) walk it. The kernel
 * exports no user unwinder to modules. Each frame is read without
 * faulting: a page not in memory ends the walk, as does a frame that is
 * not above the last (the stack grows down). Code built without frame
 * pointers breaks the chain where it runs, and may leave a wrong frame
 * there, as it does for perf. Returns the number of frames, at least 1.
 */
u32 kstats_ustack_walk(unsigned long *f, unsigned long ret)
{
	unsigned long fp = task_pt_regs(current)->bp, frame[2];
	u32 n = 0;

	memset(f, 0, KSTATS_OUTLIER_FRAMES * sizeof(*f));
	f[n++] = ret;
	while (n < KSTATS_OUTLIER_FRAMES && fp && !(fp % sizeof(long))) {
		if (copy_from_user_nofault(frame, (const void __user *)fp, sizeof(frame)) ||
		    !frame[1])
			break;
		f[n++] = frame[1];
		if (frame[0] <= fp)
			break;
		fp = frame[0];
	}
	return n;
}

/* -p: only the target's address space gets the breakpoint. */
static bool kstats_uprobe_filter(KSTATS_UPROBE_FILTER_ARGS)
{
	return mm == container_of(uc, struct kstats_utrace, site.uc)->mm;
}

/* A thread exits: its calls in flight never return (neither does uprobes call us). */
static void kstats_uprobe_task_exit(KSTATS_EXIT_PROBE_ARGS)
{
	struct kstats_utrace *ut;
	struct kstats_urec *r;

	preempt_disable_notrace();
	rcu_read_lock();
	list_for_each_entry_rcu(ut, &kstats_utraces, node) {
		r = kstats_urec_find(ut, t->pid, false);
		if (!r)
			continue;
		kstats_urec_drop(ut, r, 0);
		kstats_urec_release(r);
	}
	rcu_read_unlock();
	preempt_enable_notrace();
}

/* The exit hook, while any user-function trace is listed. */
static int kstats_utrace_list(struct kstats_utrace *ut)
{
	int err;

	lockdep_assert_held(&kstats_trace_lock);
	if (list_empty(&kstats_utraces)) {
		kstats_tp_exit = kstats_core_tracepoint("sched_process_exit");
		if (!kstats_tp_exit)
			return -EOPNOTSUPP;
		err = tracepoint_probe_register(kstats_tp_exit, kstats_uprobe_task_exit, NULL);
		if (err)
			return err;
	}
	list_add_rcu(&ut->node, &kstats_utraces);
	ut->listed = true;
	return 0;
}

/* Readers of @ut may remain until a grace period (trace.c waits for one). */
static void kstats_utrace_unlist(struct kstats_utrace *ut)
{
	lockdep_assert_held(&kstats_trace_lock);
	if (!ut->listed)
		return;
	list_del_rcu(&ut->node);
	ut->listed = false;
	if (list_empty(&kstats_utraces)) {
		tracepoint_probe_unregister(kstats_tp_exit, kstats_uprobe_task_exit, NULL);
		tracepoint_synchronize_unregister();
	}
}

/* -p: the address space of the process (or thread) @p is filtered on, held (mmgrab). */
int kstats_uprobe_mm(const struct kstats_probe *p, struct mm_struct **mmp)
{
	pid_t nr = p->filter & KSTATS_TRACE_PID ? p->pid : p->tgid;
	struct task_struct *t;
	struct mm_struct *mm;

	rcu_read_lock();
	t = pid_task(find_pid_ns(nr, &init_pid_ns),
		     p->filter & KSTATS_TRACE_PID ? PIDTYPE_PID : PIDTYPE_TGID);
	if (t)
		get_task_struct(t);
	rcu_read_unlock();
	if (!t)
		return -ESRCH;
	mm = get_task_mm(t);
	put_task_struct(t);
	if (!mm)
		return -ESRCH;	/* exiting, or a kernel thread */
	mmgrab(mm);
	mmput(mm);
	*mmp = mm;
	return 0;
}

/* @u's file, held in @path, and where in it, in @site. */
int kstats_uprobe_file(const struct kstats_uprobe *u, struct path *path,
		       struct kstats_uprobe_site *site)
{
	struct file *f = fget(u->fd);
	int err = 0;

	if (!f)
		return -EBADF;
	if (!(f->f_mode & FMODE_READ))
		err = -EBADF;
	else if (!S_ISREG(file_inode(f)->i_mode))
		err = -EINVAL;
	if (!err) {
		*path = f->f_path;
		path_get(path);
	}
	fput(f);
	if (err)
		return err;
	/* The file underneath an overlay, as the kernel's uprobe events do. */
	site->inode = d_real_inode(path->dentry);
	site->off = u->offset;
	return u->offset < i_size_read(site->inode) ? 0 : -EINVAL;
}

int kstats_uprobe_attach(struct kstats_probe *p, const struct kstats_uprobe *u, u32 nr)
{
	struct kstats_utrace *ut;
	int err;

	lockdep_assert_held(&kstats_trace_lock);
	if (u->role != KSTATS_UPROBE_FUNC)
		return kstats_usdt_attach(p, u, nr);
	ut = kvzalloc(sizeof(*ut), GFP_KERNEL_ACCOUNT);
	if (!ut)
		return -ENOMEM;
	ut->p = p;
	p->up = ut;
	if (p->task_ctx) {
		ut->marks = kvcalloc(ARRAY_SIZE(ut->recs), sizeof(*ut->marks), GFP_KERNEL_ACCOUNT);
		if (!ut->marks)
			return -ENOMEM;	/* kstats_uprobe_free() takes it down */
	}
	err = kstats_uprobe_file(u, &ut->path, &ut->site);
	if (!err && (p->filter & (KSTATS_TRACE_PID | KSTATS_TRACE_TGID)))
		err = kstats_uprobe_mm(p, &ut->mm);
	if (err)
		return err;	/* kstats_uprobe_free() takes it down */
	ut->site.uc.handler = kstats_uprobe_entry;
	ut->site.uc.ret_handler = kstats_uprobe_return;
	if (ut->mm)
		ut->site.uc.filter = kstats_uprobe_filter;
	err = kstats_utrace_list(ut);
	if (err)
		return err;
	err = kstats_uprobe_register(&ut->site, u->ref_ctr_offset);
	if (err) {
		kstats_utrace_unlist(ut);
		synchronize_rcu();
	}
	/* The kernel's -ENOTSUPP (524) is no errno user space knows. */
	return err == -ENOTSUPP ? -EOPNOTSUPP : err;
}

/* Always lets go (a breakpoint it cannot remove, the kernel leaks and warns). */
int kstats_uprobe_detach(struct kstats_probe *p)
{
	if (p->usdt)
		return kstats_usdt_detach(p);
	kstats_uprobe_unregister_nosync(&p->up->site);
	kstats_uprobe_unregister_sync();
	kstats_utrace_unlist(p->up);
	return 0;
}

void kstats_uprobe_free(struct kstats_probe *p)
{
	struct kstats_utrace *ut = p->up;

	kstats_usdt_free(p);
	if (!ut)
		return;
	if (ut->path.dentry)
		path_put(&ut->path);
	if (ut->mm)
		mmdrop(ut->mm);
	kvfree(ut->marks);
	kvfree(ut);
	p->up = NULL;
}
#else
bool kstats_have_uprobe;

u32 kstats_ustack_walk(unsigned long *f, unsigned long ret)
{
	memset(f, 0, KSTATS_OUTLIER_FRAMES * sizeof(*f));
	f[0] = ret;
	return 1;
}

int kstats_uprobe_attach(struct kstats_probe *p, const struct kstats_uprobe *u, u32 nr)
{
	return -EOPNOTSUPP;
}

int kstats_uprobe_detach(struct kstats_probe *p)
{
	return 0;
}

void kstats_uprobe_free(struct kstats_probe *p)
{
}
#endif

/*
 * TRACE's uprobes, checked for form before the privilege check: what is
 * wrong is -EINVAL, what is right but not built yet -EOPNOTSUPP. *@up gets
 * the entries (kfree), or NULL for another mechanism.
 */
int kstats_uprobe_args(const struct kstats_trace *t, struct kstats_uprobe **up)
{
	u32 i, roles = 0;
	int err;

	*up = NULL;
	if (t->mechanism != KSTATS_MECH_UPROBE)
		return t->uprobes || t->nr_uprobes || t->uprobe_size ? -EINVAL : 0;
	if (!t->uprobes || !t->nr_uprobes ||
	    t->uprobe_size < KSTATS_UPROBE_SIZE_VER0 || t->uprobe_size % 8 ||
	    t->uprobe_size > PAGE_SIZE)
		return -EINVAL;
	if (t->nr_uprobes > KSTATS_UPROBES_MAX)
		return -E2BIG;
	*up = kcalloc(t->nr_uprobes, sizeof(**up), GFP_KERNEL);
	if (!*up)
		return -ENOMEM;
	for (i = 0; i < t->nr_uprobes; i++) {
		struct kstats_uprobe *u = &(*up)[i];

		err = copy_struct_from_user(u, sizeof(*u), u64_to_user_ptr(t->uprobes) +
					    (size_t)i * t->uprobe_size, t->uprobe_size);
		if (err)
			return err == -E2BIG ? -EINVAL : err;
		if (u->role > KSTATS_UPROBE_POINT || u->reserved || u->ref_ctr_offset % 2)
			return -EINVAL;
		roles |= BIT(u->role);
	}
	/*
	 * A function: one FUNC entry; a point: POINTs, named by func; a
	 * section: STARTs and ENDs, no func.
	 */
	if (roles == BIT(KSTATS_UPROBE_FUNC) || roles == BIT(KSTATS_UPROBE_POINT)) {
		if (!t->func || t->start || t->end)
			return -EINVAL;
	} else if (roles != (BIT(KSTATS_UPROBE_START) | BIT(KSTATS_UPROBE_END)) || t->func) {
		return -EINVAL;
	}
	if ((roles & BIT(KSTATS_UPROBE_FUNC) && t->nr_uprobes != 1) || !kstats_have_uprobe)
		return -EOPNOTSUPP;
	return 0;
}

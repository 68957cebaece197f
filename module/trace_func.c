// SPDX-License-Identifier: GPL-2.0
/*
 * Timing one function: the start time is kept with the invocation (fprobe
 * entry data or kretprobe instance data), never per CPU or per task, so a
 * call that sleeps, migrates, recurses or runs on many CPUs at once is
 * timed by its own entry and exit. A call the mechanism cannot follow
 * (no free instance, recursion inside a probe) is counted as missed.
 */
#include <linux/hash.h>
#include <linux/kprobes.h>
#include <linux/log2.h>
#include <linux/slab.h>

#include "trace.h"

/*
 * Both mechanisms' exit: the duration, then where it went, then its key.
 * @ret is where the call returns to: the frame an outlier's stack starts
 * from; @retval what it returns.
 */
static __always_inline void kstats_call_end(struct kstats_probe *p, struct kstats_call *call,
					    unsigned long ret, unsigned long retval)
{
	u64 wall;

	if (unlikely(p->expr)) {
		/* Keys too: a value trace's keys hold values. */
		wall = kstats_expr_end(p, call, kstats_call_expr(p, call), ret, retval, NULL);
	} else {
		wall = kstats_probe_end(p, call->t0, call->cpu, ret, retval);
		if (unlikely(p->keys) && wall != KSTATS_NOT_RECORDED)
			kstats_keys_record(p, retval, ret, wall);
	}
	if (unlikely(p->task_ctx))
		kstats_split_end(p, &call->mark, wall);
}

/*
 * A call's entry data: with the split mark only for --split and --self,
 * then with an expr what its exit needs (at expr_off).
 */
static u32 kstats_call_expr_off(const struct kstats_probe *p)
{
	return p->task_ctx ? sizeof(struct kstats_call) : offsetof(struct kstats_call, mark);
}

static u32 kstats_call_size(const struct kstats_probe *p)
{
	return kstats_call_expr_off(p) + (p->expr ? sizeof(struct kstats_call_expr) : 0);
}

#ifdef KSTATS_HAVE_FPROBE
bool kstats_have_fprobe = true;

/*
 * On the function graph (6.14+) the exit handler of a call is found by the
 * fprobe's address alone: a call that entered under a trace since removed
 * returns into whatever trace now sits at that address (the next TRACE
 * often gets the same object back). The instance in the entry data tells
 * the trace that saw the entry from any later one.
 */
static atomic_t kstats_instances = ATOMIC_INIT(0);

static __always_inline int kstats_fprobe_begin(struct kstats_probe *p,
					       struct kstats_fprobe_regs *regs,
					       struct kstats_call *call)
{
	u32 n = READ_ONCE(p->sample_every);
	u64 now;

	if (!kstats_probe_wants(p) || kstats_probe_declines(p, n))
		return 1;	/* no exit handler for this call */
	/* Declined or faulted at entry: over, counted. */
	if (unlikely(p->expr) && kstats_expr_begin_fprobe(p, regs, kstats_call_expr(p, call)))
		return 1;
	/* Before the clock: claiming the task's context is not the call's time. */
	if (unlikely(p->task_ctx))
		kstats_split_begin(p, &call->mark);
	now = kstats_probe_now();
	if (n <= 1)
		kstats_probe_begin_gap(p, now);
	call->t0 = now;
	call->instance = p->instance;
	call->cpu = smp_processor_id();
	return 0;
}

static int kstats_fprobe_entry(KSTATS_FPROBE_HANDLER_ARGS)
{
	return kstats_fprobe_begin(container_of(fp, struct kstats_probe, fp), regs, data);
}

/*
 * Before 6.5 (no ret_ip parameter) fprobe's exit ran on rethook, which sets
 * the registers' ip to the return address before calling the handler.
 */
#ifdef KSTATS_FPROBE_RET_IP
#define KSTATS_FPROBE_RET	ret_ip
#else
#define KSTATS_FPROBE_RET	instruction_pointer(regs)
#endif

/*
 * Entered under another trace: neither a hit nor a miss of this one. On
 * the function graph the data is what the fprobe that last had this
 * address kept, and none if it kept none.
 */
static __always_inline void kstats_fprobe_finish(struct kstats_probe *p,
						 struct kstats_call *call,
						 struct kstats_fprobe_regs *regs,
						 unsigned long ret)
{
	if (likely(call) && call->instance == READ_ONCE(p->instance))
		kstats_call_end(p, call, ret, kstats_fprobe_retval(regs));
}

static void kstats_fprobe_exit(KSTATS_FPROBE_HANDLER_ARGS)
{
	struct kstats_probe *p = container_of(fp, struct kstats_probe, fp);
	struct kstats_call *call = data;

	kstats_fprobe_finish(p, call, regs, KSTATS_FPROBE_RET);
}

/*
 * A group: one fprobe over many functions (a pattern's, KSTATS_TRACE_DEFER
 * then ATTACH), so that the kernel calls one probe, not one per function
 * on its list. Its handlers find a call's trace by the function's address
 * (the ftrace call site: what kprobes resolved, kstats_resolve()) in a
 * table built before the fprobe is registered and never rebuilt while it
 * is: open addressing, at most half full, each lookup bounded by the
 * longest probe run the build made. A trace that leaves clears its slot's
 * trace (its calls are ignored from then on, its function still probed)
 * and the fprobe goes with the last. Under kstats_trace_lock.
 */
struct kstats_group_slot {
	unsigned long ip;		/* 0: empty */
	struct kstats_probe *p;		/* NULL: its trace has left */
};

struct kstats_group {
	struct fprobe fp;
	struct list_head node;		/* kstats_groups */
	u32 members;			/* traces still in it */
	u32 bits, max_run;
	u32 words;			/* 6.14+: its share of each function's graph frame */
	u64 __percpu *unmatched;	/* calls at an address not in the table: none */
	struct kstats_group_slot slot[];
};

static LIST_HEAD(kstats_groups);

static __always_inline struct kstats_group_slot *
kstats_group_find(struct kstats_group *g, unsigned long ip)
{
	u32 mask = BIT(g->bits) - 1, i = hash_long(ip, g->bits), run;

	for (run = 0; run <= g->max_run; run++, i = (i + 1) & mask)
		if (g->slot[i].ip == ip)
			return &g->slot[i];
	return NULL;
}

static int kstats_group_entry(KSTATS_FPROBE_HANDLER_ARGS)
{
	struct kstats_group *g = container_of(fp, struct kstats_group, fp);
	struct kstats_group_slot *s = kstats_group_find(g, ip);
	struct kstats_probe *p;

	if (unlikely(!s)) {
		this_cpu_inc(*g->unmatched);
		return 1;
	}
	p = READ_ONCE(s->p);
	return p ? kstats_fprobe_begin(p, regs, data) : 1;
}

/* Before 6.5 and since, fprobe gives the exit the entry's address too. */
static void kstats_group_exit(KSTATS_FPROBE_HANDLER_ARGS)
{
	struct kstats_group *g = container_of(fp, struct kstats_group, fp);
	struct kstats_group_slot *s = kstats_group_find(g, ip);
	struct kstats_probe *p = s ? READ_ONCE(s->p) : NULL;
	struct kstats_call *call = data;

	if (p)
		kstats_fprobe_finish(p, call, regs, KSTATS_FPROBE_RET);
}

static void kstats_group_free(struct kstats_group *g)
{
	free_percpu(g->unmatched);
	kvfree(g);
}

/* The ftrace words @p's calls take on its function's graph frame (6.14+). */
static u32 kstats_fprobe_words(u32 data_size)
{
#ifdef KSTATS_FPROBE_FTRACE_REGS
	return 2 + DIV_ROUND_UP(data_size, sizeof(long));
#else
	return 0;
#endif
}

/*
 * @ps[0..@n): deferred fprobe traces of one file, on distinct functions
 * (trace.c checked), attached as one fprobe. 0, or an error and nothing
 * attached.
 */
int kstats_group_attach(struct kstats_probe **ps, u32 n)
{
	u32 bits = max_t(u32, 1, order_base_2(2 * n)), mask = BIT(bits) - 1;
	u32 i, run, data = 0, maxactive = 0;
	struct kstats_group *g;
	unsigned long *ips;
	int err = -ENOMEM;

	lockdep_assert_held(&kstats_trace_lock);
	g = kvzalloc(struct_size(g, slot, BIT(bits)), GFP_KERNEL_ACCOUNT);
	ips = kvmalloc_array(n, sizeof(*ips), GFP_KERNEL);
	if (!g || !ips)
		goto free;
	g->unmatched = alloc_percpu_gfp(u64, GFP_KERNEL_ACCOUNT);
	if (!g->unmatched)
		goto free;
	g->bits = bits;
	for (i = 0; i < n; i++) {
		struct kstats_probe *p = ps[i];
		u32 h = hash_long(p->addr[0], bits);

		for (run = 0; g->slot[h].ip; run++)
			h = (h + 1) & mask;	/* never full: 2n slots at least */
		g->slot[h].ip = p->addr[0];
		g->slot[h].p = p;
		g->max_run = max(g->max_run, run);
		ips[i] = p->addr[0];
		p->expr_off = kstats_call_expr_off(p);
		data = max(data, kstats_call_size(p));
		maxactive = max(maxactive, p->maxactive);
	}
	/* Up to 6.13, one pool for all their calls in flight: a few functions' worth. */
	maxactive = maxactive ?: min_t(u32, max_t(u32, 10, 2 * num_possible_cpus() * min(n, 8U)),
				       kstats_maxactive_limit());
	g->words = kstats_fprobe_words(data);
	g->fp.entry_handler = kstats_group_entry;
	g->fp.exit_handler = kstats_group_exit;
	g->fp.entry_data_size = data;
	kstats_fprobe_set_maxactive(&g->fp, maxactive);
	for (i = 0; i < n; i++)
		WRITE_ONCE(ps[i]->instance, atomic_inc_return(&kstats_instances));
	err = register_fprobe_ips(&g->fp, ips, n);
	if (err)
		goto free;
	kvfree(ips);
	for (i = 0; i < n; i++)
		ps[i]->group = g;
	g->members = n;
	list_add_tail(&g->node, &kstats_groups);
	return 0;
free:
	kvfree(ips);
	if (g)
		kstats_group_free(g);
	return err;
}

/*
 * @p leaves its group: its calls are ignored from now on (its handlers in
 * flight are done after trace.c's grace period). The last one takes the
 * fprobe down, or, refused, stays in it.
 */
static int kstats_group_leave(struct kstats_probe *p)
{
	struct kstats_group *g = p->group;
	struct kstats_group_slot *s = kstats_group_find(g, p->addr[0]);
	int err;

	WRITE_ONCE(s->p, NULL);
	if (g->members > 1) {
		g->members--;
		p->group = NULL;
		return 0;
	}
	err = unregister_fprobe(&g->fp);
	if (err) {
		WRITE_ONCE(s->p, p);
		return err;
	}
	g->members = 0;		/* freed after the grace period: kstats_func_detached() */
	return 0;
}

/* The calls of any of @p's group's functions that none of them counted. */
u64 kstats_group_missed(const struct kstats_probe *p)
{
	struct kstats_group *g = p->group;
	u64 n;
	int cpu;

	if (!g)
		return 0;
	n = READ_ONCE(g->fp.nmissed);
	for_each_possible_cpu(cpu)
		n += *per_cpu_ptr(g->unmatched, cpu);
	return n;
}

/*
 * The words of @addr's graph frame that groups take (6.14+), whether their
 * trace there is still in them or not: the fprobe stays on the function.
 */
u32 kstats_group_words(unsigned long addr)
{
	struct kstats_group *g;
	u32 words = 0;

	lockdep_assert_held(&kstats_trace_lock);
	list_for_each_entry(g, &kstats_groups, node)
		if (kstats_group_find(g, addr))
			words += g->words;
	return words;
}

static int kstats_fprobe_attach(struct kstats_probe *p, unsigned long addr,
				u32 maxactive)
{
	WRITE_ONCE(p->instance, atomic_inc_return(&kstats_instances));
	p->fp.entry_handler = kstats_fprobe_entry;
	p->fp.exit_handler = kstats_fprobe_exit;
	p->fp.entry_data_size = kstats_call_size(p);
	kstats_fprobe_set_maxactive(&p->fp, maxactive);
	return register_fprobe_ips(&p->fp, &addr, 1);
}
#else
bool kstats_have_fprobe;

int kstats_group_attach(struct kstats_probe **ps, u32 n)
{
	return -EOPNOTSUPP;
}

u64 kstats_group_missed(const struct kstats_probe *p)
{
	return 0;
}

u32 kstats_group_words(unsigned long addr)
{
	return 0;
}
#endif

static int kstats_kretprobe_entry(struct kretprobe_instance *ri, struct pt_regs *regs)
{
	struct kstats_probe *p = container_of(get_kretprobe(ri), struct kstats_probe, rp);
	struct kstats_call *call = (struct kstats_call *)ri->data;
	u32 n = READ_ONCE(p->sample_every);
	u64 now;

	if (!kstats_probe_wants(p) || kstats_probe_declines(p, n))
		return 1;	/* no return probe for this call */
	if (unlikely(p->expr) && kstats_expr_begin(p, regs, kstats_call_expr(p, call)))
		return 1;
	if (unlikely(p->task_ctx))
		kstats_split_begin(p, &call->mark);
	now = kstats_probe_now();
	if (n <= 1)
		kstats_probe_begin_gap(p, now);
	call->t0 = now;
	call->cpu = smp_processor_id();
	return 0;
}

/* The registers' ip is where the call returns to (the kretprobe sets it). */
static int kstats_kretprobe_exit(struct kretprobe_instance *ri, struct pt_regs *regs)
{
	kstats_call_end(container_of(get_kretprobe(ri), struct kstats_probe, rp),
			(struct kstats_call *)ri->data, instruction_pointer(regs),
			regs_return_value(regs));
	return 0;
}

/*
 * The most calls in flight a trace may ask for: kretprobe's instance pool
 * (objpool, 6.7+) gives every possible CPU a ring for all of them, so the
 * cost is CPUs x maxactive.
 */
u32 kstats_maxactive_limit(void)
{
	return KSTATS_MAXACTIVE_MAX(num_possible_cpus());
}

/*
 * Registered by address (resolved and checked by trace.c), never by name:
 * kprobes keeps symbol_name and the request's copy of it is freed on return.
 */
int kstats_func_attach(struct kstats_probe *p, unsigned long addr, u32 maxactive)
{
	/* The kretprobe default, but never fewer than the CPUs can use. */
	maxactive = maxactive ?: min(max_t(u32, 10, 2 * num_possible_cpus()),
				     kstats_maxactive_limit());
	p->expr_off = kstats_call_expr_off(p);
#ifdef KSTATS_HAVE_FPROBE
	if (p->mech == KSTATS_MECH_FPROBE)
		return kstats_fprobe_attach(p, addr, maxactive);
#endif
	p->rp.entry_handler = kstats_kretprobe_entry;
	p->rp.handler = kstats_kretprobe_exit;
	p->rp.data_size = kstats_call_size(p);
	p->rp.maxactive = maxactive;
	p->rp.kp.addr = (kprobe_opcode_t *)addr;
	return register_kretprobe(&p->rp);
}

/*
 * Unregisters @p; once trace.c's synchronize_rcu() returns, no handler of
 * it runs or can start. Either can fail, and then the kernel still points
 * at @p, which must stay: unregister_fprobe() returns ftrace's errors
 * (-ENOMEM from 6.14); unregister_kretprobe() returns nothing, but when
 * kprobes cannot disarm a probe (ftrace's allocation failed; it WARNs) it
 * leaves the probe in place and clears kp.addr.
 */
int kstats_func_detach(struct kstats_probe *p)
{
#ifdef KSTATS_HAVE_FPROBE
	if (p->group)
		return kstats_group_leave(p);
	if (p->mech == KSTATS_MECH_FPROBE)
		return unregister_fprobe(&p->fp);
#endif
	/* Lost before: unregistering again would free its rethook twice. */
	if (!p->rp.kp.addr)
		return -EBUSY;
	unregister_kretprobe(&p->rp);
	return p->rp.kp.addr ? 0 : -EBUSY;
}

/* After the grace period that followed kstats_func_detach(): a group's last goes. */
void kstats_func_detached(struct kstats_probe *p)
{
#ifdef KSTATS_HAVE_FPROBE
	struct kstats_group *g = p->group;

	if (!g || g->members)
		return;
	p->group = NULL;
	list_del(&g->node);
	kstats_group_free(g);
#endif
}

/*
 * The words of the function graph's per-call frame that @p takes on its
 * function (6.14+: fprobe's header, up to two words, and its entry data);
 * 0 where each probe keeps its own (kretprobe; fprobe before 6.14). A
 * group's are counted by kstats_group_words().
 */
u32 kstats_func_entry_words(const struct kstats_probe *p)
{
#ifdef KSTATS_HAVE_FPROBE
	if (p->mech == KSTATS_MECH_FPROBE && !p->group)
		return kstats_fprobe_words(kstats_call_size(p));
#endif
	return 0;
}

/* Misses of @p's function alone: a group's are kstats_group_missed(). */
u64 kstats_func_missed(struct kstats_probe *p)
{
#ifdef KSTATS_HAVE_FPROBE
	if (p->group)
		return 0;
	if (p->mech == KSTATS_MECH_FPROBE)
		return READ_ONCE(p->fp.nmissed);
#endif
	return (u64)READ_ONCE(p->rp.nmissed) + READ_ONCE(p->rp.kp.nmissed);
}

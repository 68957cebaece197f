// SPDX-License-Identifier: GPL-2.0
/*
 * Timing one function: the start time is kept with the invocation (fprobe
 * entry data or kretprobe instance data), never per CPU or per task, so a
 * call that sleeps, migrates, recurses or runs on many CPUs at once is
 * timed by its own entry and exit. A call the mechanism cannot follow
 * (no free instance, recursion inside a probe) is counted as missed.
 */
#include <linux/kprobes.h>

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

static int kstats_fprobe_entry(KSTATS_FPROBE_HANDLER_ARGS)
{
	struct kstats_probe *p = container_of(fp, struct kstats_probe, fp);
	struct kstats_call *call = data;
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

/*
 * Before 6.5 (no ret_ip parameter) fprobe's exit ran on rethook, which sets
 * the registers' ip to the return address before calling the handler.
 */
#ifdef KSTATS_FPROBE_RET_IP
#define KSTATS_FPROBE_RET	ret_ip
#else
#define KSTATS_FPROBE_RET	instruction_pointer(regs)
#endif

static void kstats_fprobe_exit(KSTATS_FPROBE_HANDLER_ARGS)
{
	struct kstats_probe *p = container_of(fp, struct kstats_probe, fp);
	struct kstats_call *call = data;

	/*
	 * Entered under another trace: neither a hit nor a miss of this one.
	 * On the function graph the data is what the fprobe that last had
	 * this address kept, and none if it kept none.
	 */
	if (likely(call) && call->instance == READ_ONCE(p->instance))
		kstats_call_end(p, call, KSTATS_FPROBE_RET, kstats_fprobe_retval(regs));
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
	if (p->mech == KSTATS_MECH_FPROBE)
		return unregister_fprobe(&p->fp);
#endif
	/* Lost before: unregistering again would free its rethook twice. */
	if (!p->rp.kp.addr)
		return -EBUSY;
	unregister_kretprobe(&p->rp);
	return p->rp.kp.addr ? 0 : -EBUSY;
}

/*
 * The words of the function graph's per-call frame that @p takes on its
 * function (6.14+: fprobe's header, up to two words, and its entry data);
 * 0 where each probe keeps its own (kretprobe; fprobe before 6.14).
 */
u32 kstats_func_entry_words(const struct kstats_probe *p)
{
#if defined(KSTATS_HAVE_FPROBE) && defined(KSTATS_FPROBE_FTRACE_REGS)
	if (p->mech == KSTATS_MECH_FPROBE)
		return 2 + DIV_ROUND_UP(kstats_call_size(p), sizeof(long));
#endif
	return 0;
}

u64 kstats_func_missed(struct kstats_probe *p)
{
#ifdef KSTATS_HAVE_FPROBE
	if (p->mech == KSTATS_MECH_FPROBE)
		return READ_ONCE(p->fp.nmissed);
#endif
	return (u64)READ_ONCE(p->rp.nmissed) + READ_ONCE(p->rp.kp.nmissed);
}

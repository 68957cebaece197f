// SPDX-License-Identifier: GPL-2.0
/*
 * Outliers: the calls of a trace that take at least its threshold are kept,
 * with their task and kernel stack, in one ring per trace that overwrites
 * the oldest (KSTATS_IOC_OUTLIERS reads it). The capture runs in the
 * probe's exit handler, in any context up to NMI: no lock, no allocation,
 * rate-limited per CPU. One ring per trace, not per CPU: "the N newest"
 * needs no merge, and memory does not grow with the CPUs.
 */
#include <linux/mm.h>
#include <linux/module.h>
#include <linux/sched.h>
#include <linux/stacktrace.h>
#include <linux/string.h>
#include <linux/timekeeping.h>
#include <linux/uaccess.h>
#include <linux/workqueue.h>

#include "commands.h"
#include "trace.h"

/* What the counters were at the last reset of the trace's metric. */
struct kstats_outlier_base {
	u64 head, collided, ratelimited;
};

/*
 * Entry n (1-based, since the trace began) lives in e[(n - 1) % capacity];
 * its seq word is n << 1, with bit 0 set while a writer fills it.
 */
struct kstats_outlier_ring {
	atomic64_t head;		/* outliers claimed since the trace began */
	atomic64_t collided;		/* claims that lost their slot to another */
	u64 generation;			/* the metric's, when @base was taken */
	struct kstats_outlier_base base;
	u32 capacity, rate, ppm;
	u64 *fold;			/* ppm: the histogram summed over CPUs */
	struct kstats_outlier e[];
};

static void kstats_outlier_tick(struct work_struct *work);
static DECLARE_DELAYED_WORK(kstats_outlier_work, kstats_outlier_tick);

static u64 kstats_outlier_ratelimited(struct kstats_probe *p)
{
	u64 sum = 0;
	int cpu;

	for_each_possible_cpu(cpu)
		sum += READ_ONCE(per_cpu_ptr(p->pcpu, cpu)->ratelimited);
	return sum;
}

/*
 * The metric was reset since @r last looked: counting starts again from
 * now. The first to notice (a writer, or a reader) takes the new base.
 */
static void kstats_outlier_rebase(struct kstats_probe *p, struct kstats_outlier_ring *r)
{
	u64 gen = READ_ONCE(p->time_metric->generation), seen = READ_ONCE(r->generation);

	if (likely(gen == seen) || cmpxchg(&r->generation, seen, gen) != seen)
		return;
	WRITE_ONCE(r->base.head, atomic64_read(&r->head));
	WRITE_ONCE(r->base.collided, atomic64_read(&r->collided));
	WRITE_ONCE(r->base.ratelimited, kstats_outlier_ratelimited(p));
}

/* Over this CPU's captures for the current window (2^30 ns): not kept. */
static bool kstats_outlier_limited(struct kstats_probe *p, u32 rate, u64 now)
{
	u64 window = now >> 30;

	if (this_cpu_read(p->pcpu->outlier_window) != window) {
		this_cpu_write(p->pcpu->outlier_window, window);
		this_cpu_write(p->pcpu->outlier_in_window, 0);
	}
	if (this_cpu_inc_return(p->pcpu->outlier_in_window) <= rate)
		return false;
	this_cpu_inc(p->pcpu->ratelimited);
	return true;
}

/*
 * Captures in progress on this CPU. The capture calls out of kstats
 * (stack_trace_save() and the unwinder): where the kernel lets a probe on
 * one of those run inside another probe's exit (fprobe's return path on
 * 6.14-6.16 without upstream 0db0934e7f9b), an outlier of that probe would
 * capture again, and again, until the stack overflows. One capture per
 * CPU at a time (outliers and stack keys alike); a nested one (that, or
 * an NMI's) is refused.
 */
static DEFINE_PER_CPU(u32, kstats_capturing);

/*
 * The kernel stack from the call's caller up, into @f (KSTATS_OUTLIER_FRAMES,
 * zero-filled past the frames); their number, or 0 if a capture already
 * runs on this CPU. The walk starts here, in kstats and the probe's
 * trampoline (how many frames that is varies by kernel): everything before
 * the call's return address @ret goes. If the unwinder did not get past the
 * trampoline (kretprobe on 5.15, fprobe on 6.14-6.17 without the ORC fix;
 * rarely fprobe on later x86 kernels, when an interrupt between the call's
 * ret and return_to_handler overwrote the slot the unwinder reads there),
 * the caller alone is kept and *@truncated set: never a chain that is not
 * the caller's. A section end (@ret 0) drops kstats' own frames only.
 */
static u32 kstats_stack_capture(unsigned long *f, unsigned long ret, bool *truncated)
{
	u32 n = 0, i = 0;

	*truncated = false;
	if (this_cpu_inc_return(kstats_capturing) > 1)
		goto out;
	n = stack_trace_save(f, KSTATS_OUTLIER_FRAMES, 0);
	if (ret) {
		while (i < n && f[i] != ret)
			i++;
		if (i == n) {
			memset(f, 0, KSTATS_OUTLIER_FRAMES * sizeof(*f));
			f[0] = ret;
			*truncated = true;
			n = 1;
			goto out;
		}
	} else {
		while (i < n && within_module(f[i], THIS_MODULE))
			i++;
	}
	memmove(f, f + i, (n - i) * sizeof(*f));
	memset(f + n - i, 0, (KSTATS_OUTLIER_FRAMES - n + i) * sizeof(*f));
	n -= i;
out:
	this_cpu_dec(kstats_capturing);
	return n;
}

/*
 * A user-space function's stack (kstats_ustack_walk()), into @f as
 * kstats_stack_capture() fills it, @ret its first frame: the number of
 * frames, 0 if a capture already runs on this CPU (a probe on what the
 * walk calls). One frame alone is *@truncated.
 */
static u32 kstats_ustack_capture(unsigned long *f, unsigned long ret, bool *truncated)
{
	u32 n = 0;

	*truncated = false;
	if (this_cpu_inc_return(kstats_capturing) == 1) {
		n = kstats_ustack_walk(f, ret);
		*truncated = n == 1;
	}
	this_cpu_dec(kstats_capturing);
	return n;
}

/*
 * @p's stack for a call that ends at @ret (0: a kernel section's end): the
 * kernel's, or user code's by its frame pointers (the kernel's stack there
 * is the breakpoint's). User code without @ret has none.
 */
u32 kstats_probe_stack(const struct kstats_probe *p, unsigned long *f, unsigned long ret,
		       bool *truncated)
{
	if (p->mech != KSTATS_MECH_UPROBE)
		return kstats_stack_capture(f, ret, truncated);
	*truncated = false;
	if (!ret) {
		memset(f, 0, KSTATS_OUTLIER_FRAMES * sizeof(*f));
		return 0;
	}
	return kstats_ustack_capture(f, ret, truncated);
}

/* An outlier ends: keep it, unless rate-limited or its slot is taken. */
noinline void kstats_outlier_capture(struct kstats_probe *p, u64 t0, u64 now, u32 cpu_start,
				     unsigned long ret, unsigned long retval)
{
	struct kstats_outlier_ring *r = p->outliers;
	struct kstats_outlier *e;
	bool truncated;
	u64 seq, old;

	if (!r)
		return;
	/* A capture running on this CPU: kstats_stack_capture() would refuse. */
	if (this_cpu_read(kstats_capturing)) {
		this_cpu_inc(p->pcpu->ratelimited);
		return;
	}
	if (kstats_outlier_limited(p, r->rate, now))
		return;
	kstats_outlier_rebase(p, r);
	seq = atomic64_inc_return(&r->head);
	e = &r->e[(seq - 1) % r->capacity];
	old = READ_ONCE(e->seq);
	/* A writer is in it, or one that lapped us filled it with a newer one. */
	if ((old & 1) || (old >> 1) > seq || cmpxchg(&e->seq, old, seq << 1 | 1) != old) {
		atomic64_inc(&r->collided);
		return;
	}
	e->time_ns = now;
	e->duration_ns = now - t0;
	e->pid = current->pid;
	e->tgid = current->tgid;
	e->cpu_start = cpu_start;
	e->cpu_end = smp_processor_id();
	strscpy_pad((char *)e->comm, current->comm, sizeof(e->comm));
	e->flags = in_task() ? 0 : KSTATS_OUTLIER_NOTASK;
	/* A function's return value; a section has none. */
	e->retval = 0;
	if (p->mode == KSTATS_MODE_FUNC) {
		e->retval = retval;
		e->flags |= KSTATS_OUTLIER_RETVAL;
	}
	BUILD_BUG_ON(sizeof(unsigned long) != sizeof(e->frames[0]));
	if (p->mech == KSTATS_MECH_UPROBE)
		e->flags |= KSTATS_OUTLIER_USER;
	e->nr_frames = kstats_probe_stack(p, (unsigned long *)e->frames, ret, &truncated);
	if (truncated)
		e->flags |= KSTATS_OUTLIER_TRUNCATED;
	/* The entry before its seq: a reader that sees the seq sees it. */
	smp_store_release(&e->seq, seq << 1);
}

/* TRACE's outlier fields, for form (the floor is checked at setup). */
bool kstats_outlier_args_ok(const struct kstats_trace *t)
{
	if (!(t->flags & KSTATS_TRACE_OUTLIERS))
		return !t->outlier_ns && !t->outlier_ppm && !t->outlier_ring &&
		       !t->outlier_rate && !t->outlier_pad;
	return !t->outlier_ns != !t->outlier_ppm && t->outlier_ppm < 1000000 &&
	       t->outlier_ring <= KSTATS_OUTLIER_RING_MAX &&
	       t->outlier_rate <= KSTATS_OUTLIER_RATE_MAX && !t->outlier_pad;
}

/* Before the trace attaches; its metrics exist and its floor is known. */
int kstats_outlier_setup(struct kstats_probe *p, const struct kstats_trace *req)
{
	u32 capacity = req->outlier_ring ?: KSTATS_OUTLIER_RING_DEFAULT;
	struct kstats_outlier_ring *r;

	if (!(req->flags & KSTATS_TRACE_OUTLIERS))
		return 0;
	if (req->outlier_ns && req->outlier_ns < p->floor_ns)
		return -ERANGE;
	/* Charged to the tracer's memory cgroup, as the trace is. */
	r = kvzalloc(struct_size(r, e, capacity), GFP_KERNEL_ACCOUNT);
	if (!r)
		return -ENOMEM;
	if (req->outlier_ppm) {
		r->fold = kvcalloc(kstats_hist_nslots(p->time->frac_bits), sizeof(u64),
				   GFP_KERNEL_ACCOUNT);
		if (!r->fold) {
			kvfree(r);
			return -ENOMEM;
		}
	}
	r->capacity = capacity;
	r->rate = req->outlier_rate ?: KSTATS_OUTLIER_RATE_DEFAULT;
	r->ppm = req->outlier_ppm;
	r->generation = p->time_metric->generation;
	p->outliers = r;
	/* A quantile: none until the worker has one (kstats_outlier_started()). */
	WRITE_ONCE(p->outlier_ns, req->outlier_ns ?: U64_MAX);
	return 0;
}

/* After the trace's handlers are done for good. */
void kstats_outlier_free(struct kstats_probe *p)
{
	if (p->outliers)
		kvfree(p->outliers->fold);
	kvfree(p->outliers);
	p->outliers = NULL;
}

/*
 * The live threshold: the ppm-quantile of what the trace recorded since it
 * began or was reset, by the integer twin of the CLI's quantile
 * (kstats_hist.h). None (U64_MAX) until there are 1 / (1 - q) samples, so
 * that the quantile is a sample and not the maximum.
 */
static int kstats_outlier_requantile(struct kstats_probe *p, void *unused)
{
	struct kstats_outlier_ring *r = p->outliers;
	u32 nslots, s, ppm;
	u64 total = 0, v;
	int cpu;

	if (!r || !r->ppm)
		return 0;
	ppm = r->ppm;
	nslots = kstats_hist_nslots(p->time->frac_bits);
	memset(r->fold, 0, nslots * sizeof(*r->fold));
	for_each_possible_cpu(cpu) {
		const struct kstats_slot *sl = per_cpu_ptr(p->time->slots, cpu);

		for (s = 0; s < nslots; s++)
			r->fold[s] += READ_ONCE(sl[s].count);
	}
	for (s = 0; s < nslots; s++)
		total += r->fold[s];
	if (total < DIV_ROUND_UP(1000000, 1000000 - ppm)) {
		v = U64_MAX;
	} else {
		v = max_t(u64, 1, kstats_hist_quantile_ppm(r->fold, nslots,
							   p->time->frac_bits, ppm));
	}
	WRITE_ONCE(p->outlier_ns, v);
	return 1;
}

/* About once a second while a trace has a quantile threshold. */
static void kstats_outlier_tick(struct work_struct *work)
{
	if (kstats_trace_call(NULL, kstats_outlier_requantile, NULL) > 0)
		queue_delayed_work(system_unbound_wq, &kstats_outlier_work, HZ);
}

/* @p is listed: a quantile threshold starts the worker, if it is not on. */
void kstats_outlier_started(struct kstats_probe *p)
{
	if (p->outliers && p->outliers->ppm)
		queue_delayed_work(system_unbound_wq, &kstats_outlier_work, HZ);
}

/* kstats unloads, its traces gone: so is the worker after this. */
void kstats_outlier_exit(void)
{
	cancel_delayed_work_sync(&kstats_outlier_work);
}

/*
 * What OUTLIERS asks of a trace, and gets back: the counters once, then
 * the entries a chunk at a time, each copied under the trace lock and
 * written out after it: the lock is never held across copy_to_user(), and
 * a reader holds one chunk of memory, whatever the ring's size.
 */
#define KSTATS_OUTLIER_CHUNK	32

struct kstats_outlier_read {
	struct kstats_outliers *o;
	struct kstats_outlier_ring *ring;	/* NULL until the counters are read */
	u64 next, last;			/* the entries still to copy, by seq */
	struct kstats_outlier *buf;	/* [KSTATS_OUTLIER_CHUNK] */
	u32 nr;				/* entries in @buf */
};

/* The counters into @rd->o, and what to copy; -ENOSPC if it will not fit. */
static int kstats_outlier_count(struct kstats_probe *p, struct kstats_outlier_read *rd)
{
	struct kstats_outliers *o = rd->o;
	struct kstats_outlier_ring *r = p->outliers;
	u64 head, captured, kept, w;

	kstats_outlier_rebase(p, r);
	head = atomic64_read(&r->head);
	captured = head - READ_ONCE(r->base.head);
	kept = min_t(u64, captured, r->capacity);
	o->captured = captured;
	o->overwritten = captured - kept + atomic64_read(&r->collided) -
			 READ_ONCE(r->base.collided);
	o->ratelimited = kstats_outlier_ratelimited(p) - READ_ONCE(r->base.ratelimited);
	w = READ_ONCE(p->outlier_ns);
	o->threshold_ns = w == U64_MAX ? 0 : w;
	o->threshold_ppm = r->ppm;
	o->capacity = r->capacity;
	o->time_ns = ktime_get_ns();
	o->realtime_ns = ktime_get_real_ns();
	o->head = head;
	if (kept > o->nr_entries) {
		o->nr_entries = kept;
		return -ENOSPC;
	}
	rd->ring = r;
	rd->next = head - kept + 1;
	rd->last = head;
	return 0;
}

/*
 * The counters at the first call, then the next chunk of entries into
 * @rd->buf. Under the trace lock (kstats_trace_call()), so the ring stays.
 * An entry being written, or overwritten since the counters were read or
 * while copied, is skipped. -EINVAL: @p keeps no outliers; -ENOENT: the
 * trace read at first is gone.
 */
static int kstats_outlier_copy(struct kstats_probe *p, void *arg)
{
	struct kstats_outlier_read *rd = arg;
	struct kstats_outlier_ring *r = p->outliers;
	u64 w;
	int err;

	if (!rd->ring) {
		if (!r)
			return -EINVAL;
		err = kstats_outlier_count(p, rd);
		if (err)
			return err;
	} else if (r != rd->ring) {
		return -ENOENT;
	}
	for (rd->nr = 0; rd->next <= rd->last && rd->nr < KSTATS_OUTLIER_CHUNK; rd->next++) {
		struct kstats_outlier *e = &r->e[(rd->next - 1) % r->capacity];
		struct kstats_outlier *to = &rd->buf[rd->nr];

		/* Pairs with the writer's release: the entry is complete. */
		w = smp_load_acquire(&e->seq);
		if (w != rd->next << 1)
			continue;
		memcpy(to, e, sizeof(*e));
		/* The copy before the recheck: a writer since then tore it. */
		smp_rmb();
		if (READ_ONCE(e->seq) != w)
			continue;
		to->seq = rd->next;
		rd->nr++;
	}
	return 0;
}

/* Not a trace's name: -ENOENT, or -EINVAL for a metric that is not a trace. */
static int kstats_outlier_no_trace(const char *name)
{
	struct kstats_metric *m = kstats_get_by_name(name);

	if (IS_ERR(m))
		return -ENOENT;
	kstats_metric_put(m);
	return -EINVAL;
}

/*
 * KSTATS_IOC_OUTLIERS. The frames are kernel addresses (a KASLR leak), so
 * may a return value be (a pointer), and pid, tgid and comm name every
 * user's tasks in the initial pid namespace, past hidepid= and the
 * reader's own namespace: all five only for a file opened with
 * privilege, as every other privileged use (a descriptor passed to
 * another process keeps its opener's rights).
 */
int kstats_cmd_outliers(struct file *file, void *arg)
{
	struct kstats_outliers *o = arg;
	struct kstats_outlier_read rd = { .o = o };
	u8 __user *dst = u64_to_user_ptr(o->entries);
	bool addresses = kstats_file_privileged(file);
	struct kstats_outlier *e;
	u32 n = 0, i;
	size_t len;
	int err;

	if (o->flags || kstats_arg_name(o->name) ||
	    !kstats_arg_zero(o->reserved, sizeof(o->reserved)) ||
	    o->entry_size < KSTATS_OUTLIER_SIZE_VER0 || o->entry_size % 8 ||
	    o->entry_size > PAGE_SIZE)
		return -EINVAL;
	len = min_t(size_t, o->entry_size, sizeof(*e));
	/* Output fields are ignored on input: kstats_outlier_count() sets each. */
	o->out_flags = addresses ? 0 : KSTATS_OUTLIERS_NOADDR;
	rd.buf = kmalloc_array(KSTATS_OUTLIER_CHUNK, sizeof(*rd.buf), GFP_KERNEL_ACCOUNT);
	if (!rd.buf)
		return -ENOMEM;
	err = kstats_trace_call((const char *)o->name, kstats_outlier_copy, &rd);
	if (err == -ENOENT)
		err = kstats_outlier_no_trace((const char *)o->name);
	if (err)
		goto out;	/* -ENOSPC: nr_entries says how many there are */
	for (;;) {
		for (i = 0, e = rd.buf; i < rd.nr && !err; i++, e++, n++, dst += o->entry_size) {
			if (!addresses) {
				/* Who ran it too: no more than ps would tell. */
				memset(e->frames, 0, sizeof(e->frames));
				e->pid = 0;
				e->tgid = 0;
				memset(e->comm, 0, sizeof(e->comm));
				e->retval = 0;
				e->flags &= ~KSTATS_OUTLIER_RETVAL;
				e->flags |= KSTATS_OUTLIER_NOADDR;
			}
			if (copy_to_user(dst, e, len) || clear_user(dst + len, o->entry_size - len))
				err = -EFAULT;
		}
		if (err || rd.next > rd.last)
			break;
		/* Gone since (UNTRACE): so are its entries; what was read stands. */
		if (kstats_trace_call((const char *)o->name, kstats_outlier_copy, &rd))
			break;
	}
	o->nr_entries = n;
out:
	kfree(rd.buf);
	return err;
}

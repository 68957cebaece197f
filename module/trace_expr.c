// SPDX-License-Identifier: GPL-2.0
/*
 * A trace's expr (TRACE VER6): a value recorded per call and a predicate
 * deciding which calls are recorded, as the bounded program the uapi
 * header describes. Copied in and checked whole before the privilege
 * check; run in the probe handlers in at most (1 + KSTATS_EXPR_TERMS) x
 * KSTATS_EXPR_LOADS reads, with no lock and no allocation, every pointer
 * read through copy_from_kernel_nofault() (at a uprobe, the program's
 * memory through copy_from_user_nofault()).
 *
 * Evaluation order, which decides what a call is counted as:
 * - at entry, the terms that read only arguments, group by group in order:
 *   a group stops at its first false term, and the predicate at the first
 *   group that holds with no exit terms left; no group left: rejected.
 *   Then an argument value is read.
 * - at exit, the exit terms of the groups still open, in the same order;
 *   then a return value is read.
 * Only a read that is made can fault; the first one that does ends the
 * call, counted in faults.
 */
#include <linux/slab.h>
#include <linux/uaccess.h>

#include "trace.h"

/* The program, checked, and what the handlers need of it at hand. */
struct kstats_expr_prog {
	struct kstats_expr x;
	u8 arg_mask;			/* BIT(i): argument i is read at entry */
	u8 nr_groups;
	u8 group_start[KSTATS_EXPR_TERMS + 1];	/* terms of group g: [start[g], start[g+1]) */
	u8 group_exit;			/* BIT(g): group g has exit terms */
	bool value_at_entry;		/* the value is an argument's */
	u8 record_ends;			/* read by record: BIT(0) point or start, BIT(1) end */
	bool user;			/* at a uprobe: loads read the program's memory */
};

/*
 * A field's source holds its record's address: the handler's args[0]
 * (trace_record.c). A USDT probe's registers are its args (kstats_usdt_hit()).
 */
static bool kstats_operand_at_entry(const struct kstats_operand *o)
{
	return o->source == KSTATS_OPERAND_ARG || o->source == KSTATS_OPERAND_FIELD ||
	       o->source == KSTATS_OPERAND_REG;
}

/*
 * The sources each site has: a function its arguments, return value and
 * duration; a tracepoint its arguments (5 registers: the probe's first is
 * its data); a section its start's and end's arguments (a function's 6, a
 * tracepoint's 5) and its duration.
 */
static bool kstats_source_ok(u8 source, u8 index, enum kstats_expr_site site)
{
	switch (site) {
	case KSTATS_SITE_FUNC:
	case KSTATS_SITE_UFUNC:
		return source == KSTATS_OPERAND_ARG ? index <= 5 :
		       !index && source >= KSTATS_OPERAND_RETVAL &&
		       source <= KSTATS_OPERAND_DURATION;
	case KSTATS_SITE_POINT:
		return (source == KSTATS_OPERAND_ARG && index <= 4) ||
		       (source == KSTATS_OPERAND_FIELD && !index);
	case KSTATS_SITE_TP_SECTION:
		if (source == KSTATS_OPERAND_FIELD || source == KSTATS_OPERAND_END_FIELD)
			return !index;
		fallthrough;
	case KSTATS_SITE_SECTION:
		return source == KSTATS_OPERAND_ARG || source == KSTATS_OPERAND_END_ARG ?
		       index <= (site == KSTATS_SITE_SECTION ? 5 : 4) :
		       !index && source == KSTATS_OPERAND_DURATION;
	case KSTATS_SITE_UPOINT:
		return source == KSTATS_OPERAND_REG && index < KSTATS_OPERAND_REGS;
	case KSTATS_SITE_USECTION:
		return source == KSTATS_OPERAND_REG || source == KSTATS_OPERAND_END_REG ?
		       index < KSTATS_OPERAND_REGS :
		       !index && source == KSTATS_OPERAND_DURATION;
	default:
		return false;
	}
}

/* One operand's form; @is_value: the recorded value (no duration). */
static bool kstats_operand_ok(const struct kstats_operand *o, bool is_value,
			      enum kstats_expr_site site)
{
	u32 i;

	if ((o->flags & ~KSTATS_OPERAND_SIGNED) || memchr_inv(o->pad, 0, sizeof(o->pad)) ||
	    o->nr_loads > KSTATS_EXPR_LOADS || hweight8(o->size) != 1 || o->size > 8)
		return false;
	if (!kstats_source_ok(o->source, o->index, site))
		return false;
	if (o->source == KSTATS_OPERAND_DURATION && (is_value || o->nr_loads))
		return false;
	/* A record's address is no value: a field is read from it. */
	if ((o->source == KSTATS_OPERAND_FIELD || o->source == KSTATS_OPERAND_END_FIELD) &&
	    !o->nr_loads)
		return false;
	for (i = o->nr_loads; i < KSTATS_EXPR_LOADS; i++)
		if (o->offsets[i])
			return false;
	return true;
}

static bool kstats_term_ok(const struct kstats_term *t, enum kstats_expr_site site)
{
	return kstats_operand_ok(&t->operand, false, site) && t->cmp >= KSTATS_CMP_EQ &&
	       t->cmp <= KSTATS_CMP_AND && !(t->flags & ~KSTATS_TERM_OR);
}

static bool kstats_expr_ok(const struct kstats_expr *x, enum kstats_expr_site site)
{
	static const struct kstats_term zero_term;
	static const struct kstats_operand zero_operand;
	bool value = x->flags & KSTATS_EXPR_VALUE;
	u32 i;

	if ((x->flags & ~(KSTATS_EXPR_VALUE | KSTATS_EXPR_TIME)) ||
	    x->nr_terms > KSTATS_EXPR_TERMS || (!value && !x->nr_terms) ||
	    ((x->flags & KSTATS_EXPR_TIME) && !value) ||
	    memchr_inv(x->reserved, 0, sizeof(x->reserved)))
		return false;
	if (value ? !kstats_operand_ok(&x->value, true, site) :
		    memcmp(&x->value, &zero_operand, sizeof(zero_operand)))
		return false;
	for (i = 0; i < KSTATS_EXPR_TERMS; i++)
		if (i < x->nr_terms ? !kstats_term_ok(&x->terms[i], site) :
				      memcmp(&x->terms[i], &zero_term, sizeof(zero_term)))
			return false;
	return true;
}

/*
 * What the rest of the request must be for @x: no time-only option on a
 * value-only trace (outliers, --split and --self are about a duration it
 * does not record), a point's value alone (it has no duration) keyed by
 * cgroup or not at all, and a NAME that leaves room for VALUE-NAME and
 * NEG-NAME.
 */
static bool kstats_expr_fits(const struct kstats_trace *t, const struct kstats_expr *x,
			     enum kstats_expr_site site)
{
	size_t len = strnlen((const char *)t->name, KSTATS_NAME_LEN);
	bool value = x->flags & KSTATS_EXPR_VALUE, timed = x->flags & KSTATS_EXPR_TIME;
	const u32 timed_only = KSTATS_TRACE_OUTLIERS | KSTATS_TRACE_SPLIT | KSTATS_TRACE_SELF;

	/* A point has no return value to key by errno. */
	if ((site == KSTATS_SITE_POINT || site == KSTATS_SITE_UPOINT) &&
	    (!value || timed || t->key == KSTATS_KEY_ERRNO || (t->flags & timed_only)))
		return false;
	if (value && !timed && (t->flags & timed_only))
		return false;
	if (timed && len + sizeof("VALUE-") - 1 > KSTATS_NAME_MAX)
		return false;
	return !(value && (x->value.flags & KSTATS_OPERAND_SIGNED) &&
		 len + sizeof("NEG-") - 1 > KSTATS_NAME_MAX);
}

/* Which end @o reads (0: the point's or start's, 1: the end's), and whether by record. */
static void kstats_operand_end(const struct kstats_operand *o, u8 *args, u8 *records)
{
	if (o->source == KSTATS_OPERAND_ARG)
		*args |= BIT(0);
	else if (o->source == KSTATS_OPERAND_END_ARG)
		*args |= BIT(1);
	else if (o->source == KSTATS_OPERAND_FIELD)
		*records |= BIT(0);
	else if (o->source == KSTATS_OPERAND_END_FIELD)
		*records |= BIT(1);
}

/*
 * The ends read by their records into @e->record_ends: false if an end
 * reads its arguments too (a record's end is attached by perf, which
 * passes no arguments).
 */
static bool kstats_expr_records(struct kstats_expr_prog *e)
{
	const struct kstats_expr *x = &e->x;
	u8 args = 0, records = 0;
	u32 i;

	if (x->flags & KSTATS_EXPR_VALUE)
		kstats_operand_end(&x->value, &args, &records);
	for (i = 0; i < x->nr_terms; i++)
		kstats_operand_end(&x->terms[i].operand, &args, &records);
	e->record_ends = records;
	return !(args & records);
}

u32 kstats_expr_record_ends(const struct kstats_expr_prog *e)
{
	return e ? e->record_ends : 0;
}

/* Groups, and which reads happen at entry. */
static void kstats_expr_plan(struct kstats_expr_prog *e)
{
	const struct kstats_expr *x = &e->x;
	u32 i, g = 0;

	e->group_start[0] = 0;
	for (i = 0; i < x->nr_terms; i++) {
		const struct kstats_operand *o = &x->terms[i].operand;

		if (o->source == KSTATS_OPERAND_ARG)
			e->arg_mask |= BIT(o->index);
		if (!kstats_operand_at_entry(o))
			e->group_exit |= BIT(g);
		if ((x->terms[i].flags & KSTATS_TERM_OR) || i + 1 == x->nr_terms)
			e->group_start[++g] = i + 1;
	}
	e->nr_groups = g;
	if ((x->flags & KSTATS_EXPR_VALUE) && kstats_operand_at_entry(&x->value)) {
		e->value_at_entry = true;
		if (x->value.source == KSTATS_OPERAND_ARG)
			e->arg_mask |= BIT(x->value.index);
	}
}

/*
 * TRACE's expr, from user memory, checked for @site: *@out is NULL without
 * one, else for kstats_expr_attach(). -EFAULT, -EINVAL (also a point
 * without one), -ENOMEM; called before the privilege check.
 */
int kstats_expr_copy(const struct kstats_trace *t, enum kstats_expr_site site,
		     struct kstats_expr_prog **out)
{
	struct kstats_expr_prog *e;

	*out = NULL;
	if (!t->expr)
		return site == KSTATS_SITE_POINT || site == KSTATS_SITE_UPOINT ? -EINVAL : 0;
	e = kzalloc(sizeof(*e), GFP_KERNEL_ACCOUNT);
	if (!e)
		return -ENOMEM;
	if (copy_from_user(&e->x, u64_to_user_ptr(t->expr), sizeof(e->x))) {
		kfree(e);
		return -EFAULT;
	}
	if (!kstats_expr_ok(&e->x, site) || !kstats_expr_fits(t, &e->x, site) ||
	    !kstats_expr_records(e)) {
		kfree(e);
		return -EINVAL;
	}
	e->user = site == KSTATS_SITE_UFUNC || site == KSTATS_SITE_UPOINT ||
		  site == KSTATS_SITE_USECTION;
	kstats_expr_plan(e);
	*out = e;
	return 0;
}

void kstats_expr_free(struct kstats_expr_prog *e)
{
	kfree(e);
}

u32 kstats_expr_flags(const struct kstats_expr_prog *e)
{
	return e ? e->x.flags : 0;
}

bool kstats_expr_signed(const struct kstats_expr_prog *e)
{
	return e && (e->x.flags & KSTATS_EXPR_VALUE) &&
	       (e->x.value.flags & KSTATS_OPERAND_SIGNED);
}

/* Calibration reads this word, which points at itself, at every load. */
static unsigned long kstats_expr_chain = (unsigned long)&kstats_expr_chain;

/* @size bytes at @at: the kernel's, or (@user) the current program's. */
static __always_inline long kstats_expr_load(void *dst, unsigned long at, size_t size,
					     bool user)
{
	if (user)
		return copy_from_user_nofault(dst, (const void __user *)at, size);
	return copy_from_kernel_nofault(dst, (const void *)at, size);
}

/*
 * @o's value from its source register @v: its loads, then its width and
 * sign. @cal: every offset taken as 0 (calibration's chain); @user: the
 * loads read the program's memory. Returns nonzero if a read faulted.
 */
static __always_inline int kstats_operand_read(const struct kstats_operand *o,
					       unsigned long v, bool cal, bool user,
					       u64 *out)
{
	u32 i, last = o->nr_loads - 1;
	bool sgn = o->flags & KSTATS_OPERAND_SIGNED;
	u8 b;
	u16 h;
	u32 w;
	u64 q = v;

	for (i = 0; o->nr_loads && i < last; i++)
		if (kstats_expr_load(&v, v + (cal ? 0 : o->offsets[i]), sizeof(v), user))
			return -EFAULT;
	if (o->nr_loads) {
		unsigned long at = v + (cal ? 0 : o->offsets[last]);

		switch (o->size) {
		case 1:
			if (kstats_expr_load(&b, at, 1, user))
				return -EFAULT;
			q = b;
			break;
		case 2:
			if (kstats_expr_load(&h, at, 2, user))
				return -EFAULT;
			q = h;
			break;
		case 4:
			if (kstats_expr_load(&w, at, 4, user))
				return -EFAULT;
			q = w;
			break;
		default:
			if (kstats_expr_load(&q, at, 8, user))
				return -EFAULT;
		}
	}
	switch (o->size) {
	case 1:
		q = sgn ? (u64)(s64)(s8)q : (u8)q;
		break;
	case 2:
		q = sgn ? (u64)(s64)(s16)q : (u16)q;
		break;
	case 4:
		q = sgn ? (u64)(s64)(s32)q : (u32)q;
		break;
	}
	*out = q;
	return 0;
}

static __always_inline bool kstats_term_holds(const struct kstats_term *t, u64 v)
{
	bool sgn = t->operand.flags & KSTATS_OPERAND_SIGNED;
	u64 c = t->constant;

	switch (t->cmp) {
	case KSTATS_CMP_EQ:
		return v == c;
	case KSTATS_CMP_NE:
		return v != c;
	case KSTATS_CMP_LT:
		return sgn ? (s64)v < (s64)c : v < c;
	case KSTATS_CMP_LE:
		return sgn ? (s64)v <= (s64)c : v <= c;
	case KSTATS_CMP_GT:
		return sgn ? (s64)v > (s64)c : v > c;
	case KSTATS_CMP_GE:
		return sgn ? (s64)v >= (s64)c : v >= c;
	default:
		return v & c;
	}
}

/*
 * What the sources are at this point of a call: the entry's (a point's, a
 * start's) arguments, or a USDT probe's registers, and an end's.
 */
struct kstats_expr_regs {
	const unsigned long *args;
	const unsigned long *end_args;
	unsigned long retval;
	u64 duration;
};

static __always_inline unsigned long kstats_source(const struct kstats_operand *o,
						   const struct kstats_expr_regs *r)
{
	return kstats_operand_at_entry(o) ? r->args[o->index] :
	       o->source == KSTATS_OPERAND_END_ARG || o->source == KSTATS_OPERAND_END_REG ||
	       o->source == KSTATS_OPERAND_END_FIELD ? r->end_args[o->index] :
	       o->source == KSTATS_OPERAND_RETVAL ? r->retval : r->duration;
}

/*
 * Group @g's terms read at entry (@exit false) or at exit: 1 if all hold,
 * 0 if one does not, -EFAULT.
 */
static int kstats_group_holds(const struct kstats_expr_prog *e, u32 g, bool exit,
			      const struct kstats_expr_regs *r)
{
	u32 i;
	u64 v;

	for (i = e->group_start[g]; i < e->group_start[g + 1]; i++) {
		const struct kstats_term *t = &e->x.terms[i];

		if (kstats_operand_at_entry(&t->operand) == exit)
			continue;
		if (kstats_operand_read(&t->operand, kstats_source(&t->operand, r), false,
					e->user, &v))
			return -EFAULT;
		if (!kstats_term_holds(t, v))
			return 0;
	}
	return 1;
}

static void kstats_expr_count(struct kstats_probe *p, int res)
{
	if (res == -EFAULT)
		this_cpu_inc(p->pcpu->faults);
	else
		this_cpu_inc(p->pcpu->rejected);
}

/*
 * A call's entry, with its arguments in @r: 0 to go on to its exit, else
 * it is over (rejected, or a read faulted: counted).
 */
static int kstats_expr_entry(struct kstats_probe *p, const struct kstats_expr_regs *r,
			     struct kstats_call_expr *cx)
{
	const struct kstats_expr_prog *e = p->expr;
	int res = 0;
	u32 g;

	cx->open = 0;
	cx->decided = !e->nr_groups;
	for (g = 0; g < e->nr_groups && !cx->decided; g++) {
		res = kstats_group_holds(e, g, false, r);
		if (res < 0)
			break;
		if (res && !(e->group_exit & BIT(g)))
			cx->decided = true;
		else if (res)
			cx->open |= BIT(g);
	}
	if (res >= 0 && !cx->decided && !cx->open)
		res = -EPERM;
	else if (res >= 0 && e->value_at_entry)
		res = kstats_operand_read(&e->x.value, kstats_source(&e->x.value, r), false,
					  e->user, &cx->value);
	if (res >= 0)
		return 0;
	kstats_expr_count(p, res);
	return res;
}

/*
 * A kprobe's or a uprobe's entry registers: a uprobe's are the user's, and
 * x86-64's SysV user ABI passes arguments in the kernel's registers.
 */
int kstats_expr_begin(struct kstats_probe *p, struct pt_regs *regs, struct kstats_call_expr *cx)
{
	unsigned long args[KSTATS_SECTION_ARGS];
	struct kstats_expr_regs r = { .args = args };
	u32 i;

	for (i = 0; i < ARRAY_SIZE(args); i++)
		if (p->expr->arg_mask & BIT(i))
			args[i] = regs_get_kernel_argument(regs, i);
	return kstats_expr_entry(p, &r, cx);
}

/*
 * A point's or a section start's sources (@args: KSTATS_SECTION_ARGS
 * arguments, or a USDT probe's KSTATS_OPERAND_REGS registers).
 */
int kstats_expr_begin_args(struct kstats_probe *p, const unsigned long *args,
			   struct kstats_call_expr *cx)
{
	struct kstats_expr_regs r = { .args = args };

	return kstats_expr_entry(p, &r, cx);
}

/*
 * A point (one tracepoint, @args its arguments; or a USDT probe, @args its
 * registers and @ret its address): the predicate, then the value into
 * NAME, or its magnitude into NEG-NAME. A value alone: no duration, no
 * exit (kstats_expr_fits()); a key's metric holds what NAME holds (a
 * negative value is only in NEG-NAME).
 */
void kstats_expr_point(struct kstats_probe *p, const unsigned long *args, unsigned long ret)
{
	struct kstats_call_expr cx;
	u64 v;

	if (kstats_expr_begin_args(p, args, &cx))
		return;
	v = cx.value;
	if (p->neg && (s64)v < 0) {
		kstats_record(p->neg, -v);
	} else {
		kstats_record(p->value, v);
		if (unlikely(p->keys))
			kstats_keys_record(p, 0, ret, v);	/* no return value */
	}
	this_cpu_inc(p->pcpu->hits);
}

#ifdef KSTATS_HAVE_FPROBE
int kstats_expr_begin_fprobe(struct kstats_probe *p, struct kstats_fprobe_regs *regs,
			     struct kstats_call_expr *cx)
{
	unsigned long args[KSTATS_SECTION_ARGS];
	struct kstats_expr_regs r = { .args = args };
	u32 i;

	for (i = 0; i < ARRAY_SIZE(args); i++)
		if (p->expr->arg_mask & BIT(i))
			args[i] = kstats_fprobe_argument(regs, i);
	return kstats_expr_entry(p, &r, cx);
}
#endif

/* The open groups' exit terms, then a return value: 0, -EPERM, -EFAULT. */
static int kstats_expr_exit(const struct kstats_expr_prog *e, const struct kstats_expr_regs *r,
			    struct kstats_call_expr *cx)
{
	int res = cx->decided;
	u32 g;

	for (g = 0; g < e->nr_groups && !res; g++) {
		if (!(cx->open & BIT(g)))
			continue;
		res = kstats_group_holds(e, g, true, r);
		if (res < 0)
			return res;
	}
	if (!res)
		return -EPERM;
	if ((e->x.flags & KSTATS_EXPR_VALUE) && !e->value_at_entry)
		return kstats_operand_read(&e->x.value, kstats_source(&e->x.value, r), false,
					   e->user, &cx->value);
	return 0;
}

/*
 * An expr trace's exit, for kstats_call_end() and a section's end (@end_args
 * its tracepoint's arguments, else NULL): the predicate's rest, then the
 * value (NEG-NAME for a negative), the duration with KSTATS_EXPR_TIME, and
 * the key's sample: what NAME records. Returns the duration recorded, or
 * KSTATS_NOT_RECORDED.
 */
u64 kstats_expr_end(struct kstats_probe *p, struct kstats_call *call,
		    struct kstats_call_expr *cx, unsigned long ret, unsigned long retval,
		    const unsigned long *end_args)
{
	const struct kstats_expr_prog *e = p->expr;
	u64 now = kstats_probe_now(), v, key_sample;
	struct kstats_expr_regs r;
	bool timed = e->x.flags & KSTATS_EXPR_TIME;
	int res;

	if (!READ_ONCE(p->time->active))
		return KSTATS_NOT_RECORDED;
	if (unlikely(now < call->t0)) {
		this_cpu_inc(p->pcpu->misses);
		return KSTATS_NOT_RECORDED;
	}
	r.retval = retval;
	r.end_args = end_args;
	r.duration = now - call->t0;
	res = kstats_expr_exit(e, &r, cx);
	if (res) {
		kstats_expr_count(p, res);
		return KSTATS_NOT_RECORDED;
	}
	key_sample = r.duration;
	if (e->x.flags & KSTATS_EXPR_VALUE) {
		v = cx->value;
		key_sample = timed ? r.duration : v;
		if (p->neg && (s64)v < 0) {
			kstats_record(p->neg, -v);
			/* A key's metrics hold what NAME holds: no negatives. */
			if (!timed)
				key_sample = KSTATS_NOT_RECORDED;
		} else {
			kstats_record(p->value, v);
		}
	}
	if (timed || !(e->x.flags & KSTATS_EXPR_VALUE))
		kstats_record(p->time, r.duration);
	this_cpu_inc(p->pcpu->hits);
	this_cpu_write(p->pcpu->last_exit, now);
	if (unlikely(p->keys) && key_sample != KSTATS_NOT_RECORDED)
		kstats_keys_record(p, retval, ret, key_sample);
	if (unlikely(r.duration >= READ_ONCE(p->outlier_ns)))
		kstats_outlier_capture(p, call->t0, now, call->cpu, ret, retval);
	return r.duration;
}

/*
 * What calibration runs for a call's expr, at its dearest: every operand
 * read, down its whole chain (kstats_expr_chain, offsets taken as 0), and
 * compared.
 */
void kstats_expr_cal_call(const struct kstats_probe *p)
{
	const struct kstats_expr *x = &p->expr->x;
	unsigned long src = (unsigned long)&kstats_expr_chain;
	u64 v = 0, sink = 0;
	u32 i;

	if (x->flags & KSTATS_EXPR_VALUE)
		sink += !kstats_operand_read(&x->value, src, true, false, &v) + v;
	for (i = 0; i < x->nr_terms; i++)
		if (!kstats_operand_read(&x->terms[i].operand, src, true, false, &v))
			sink += kstats_term_holds(&x->terms[i], v);
	OPTIMIZER_HIDE_VAR(sink);
}

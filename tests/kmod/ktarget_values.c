// SPDX-License-Identifier: GPL-2.0
/*
 * kstats_target's values for the expr tests (ktarget_main.c's "values" and
 * "values_hot"): ktarget_value(o, v) called with arguments, a pointer
 * chain and return values the test knows, each call reported in debugfs
 * kstats_target/values. "values" also emits the trace events
 * ktarget_value_start(o, v) before each call and ktarget_value_done(o, ret)
 * after it, in the same task, and calls ktarget_value_open(o, v) and
 * ktarget_value_close(o, ret) inside them (a section between functions).
 */
#include <linux/debugfs.h>
#include <linux/ktime.h>
#include <linux/sched.h>

#include "ktarget_trace.h"
#include "ktarget_values.h"

/* What a call passed and got; chain: 0 o->mid NULL, 1 mid->inner NULL, 2 whole. */
struct kv_call {
	s64 arg, ret, level;
	u64 size;
	u32 chain, pad;
};

#define MAX_VALUES 2048
static struct kv_call kv_calls[MAX_VALUES];
static struct debugfs_blob_wrapper kv_blob = { .data = kv_calls };
/* What ktarget_value() returns, kept so its results are used. */
static long kv_sink;

static noinline __noclone long ktarget_value(struct kv_outer *o, long v)
{
	asm volatile("" : : "r"(o) : "memory");
	return v / 4 - 100;
}

/*
 * A section between functions around each call: ktarget_value_open(o, v)
 * before it, ktarget_value_close(o, ret) after it, as the events are.
 */
static noinline __noclone void ktarget_value_open(struct kv_outer *o, long v)
{
	asm volatile("nop" : : "r"(o), "r"(v) : "memory");
}

/* Not the same body as the open's: the compiler must not fold the two into one. */
static noinline __noclone void ktarget_value_close(struct kv_outer *o, long ret)
{
	asm volatile("nop; nop" : : "r"(o), "r"(ret) : "memory");
}

static u64 kv_next(u64 *s)
{
	*s = *s * 6364136223846793005ULL + 1442695040888963407ULL;
	return *s;
}

int ktarget_values(unsigned int n, unsigned int seed, unsigned int bits, u64 *calls)
{
	struct kv_inner inner = { 0 };
	struct kv_mid mid = { .tag = 1 };
	struct kv_outer outer = { .id = 2, .self = &outer };
	u64 s = seed, r, mag;
	long sum = 0;
	unsigned int i, b;

	if (n > MAX_VALUES || !bits || bits > 64)
		return -EINVAL;
	for (i = 0; i < n; i++) {
		struct kv_call *c = &kv_calls[i];

		r = kv_next(&s);
		b = (r >> 8) % bits;	/* significant bits, below BITS */
		mag = b ? kv_next(&s) >> (64 - b) : 0;
		c->arg = i % 16 == 1 ? 0 : i % 16 == 2 ? 1 :
			 (r & 7) ? (s64)mag : -(s64)mag;
		c->chain = (r >> 4) % 4 < 2 ? (r >> 4) % 4 : 2;
		c->level = (s32)(kv_next(&s) >> 32);
		c->size = mag;
		inner.level = c->level;
		inner.size = c->size;
		mid.inner = c->chain >= 1 ? &inner : NULL;
		outer.mid = c->chain >= 1 ? &mid : NULL;
		if (c->chain == 1)
			mid.inner = NULL;
		trace_ktarget_value_start(&outer, c->arg);
		ktarget_value_open(&outer, c->arg);
		c->ret = ktarget_value(&outer, c->arg);
		ktarget_value_close(&outer, c->ret);
		trace_ktarget_value_done(&outer, c->ret);
		sum += c->ret;
	}
	WRITE_ONCE(kv_sink, sum);
	kv_blob.size = n * sizeof(struct kv_call);
	*calls = n;
	return 0;
}

/* make bench: N hits of the event ktarget_value_start alone, back to back. */
int ktarget_values_tp_hot(unsigned int n, u64 *calls, u64 *elapsed)
{
	struct kv_outer outer = { .id = 2, .self = &outer };
	unsigned int i;
	u64 t0 = ktime_get_ns();

	for (i = 0; i < n; i++) {
		trace_ktarget_value_start(&outer, 5000 + (i & 7));
		if (!(i & 1023))
			cond_resched();
	}
	*elapsed = ktime_get_ns() - t0;
	*calls = n;
	return 0;
}

/* make bench: N calls of ktarget_value() with a whole chain, back to back. */
int ktarget_values_hot(unsigned int n, u64 *calls, u64 *elapsed)
{
	struct kv_inner inner = { .level = 7, .size = 4096 };
	struct kv_mid mid = { .tag = 1, .inner = &inner };
	struct kv_outer outer = { .id = 2, .mid = &mid, .self = &outer };
	unsigned int i;
	long sum = 0;
	u64 t0 = ktime_get_ns();

	for (i = 0; i < n; i++) {
		sum += ktarget_value(&outer, 5000);
		if (!(i & 1023))
			cond_resched();
	}
	*elapsed = ktime_get_ns() - t0;
	WRITE_ONCE(kv_sink, sum);
	*calls = n;
	return 0;
}

void ktarget_values_init(struct dentry *dir)
{
	debugfs_create_blob("values", 0400, dir, &kv_blob);
}

// SPDX-License-Identifier: GPL-2.0
/*
 * Many functions for one pattern (issue 32): ktarget_many_00 to _31, each
 * counting its own calls, and ktarget_many_notrace, which has no ftrace
 * call site and which a pattern must skip. "many N R" calls the first N
 * round-robin R times, "many_one I R" the I-th alone; "many_counts" reads
 * each one's calls since load (the notrace one last). "hold" calls
 * ktarget_held(), which stays inside until "holding" is written 0: a call
 * in flight while its trace leaves a group.
 */
#include <linux/compiler.h>
#include <linux/debugfs.h>
#include <linux/delay.h>
#include <linux/kernel.h>
#include <linux/timekeeping.h>

#include "ktarget_many.h"

static u32 counts[KTARGET_MANY + 1];
static struct debugfs_u32_array counts_array = { counts, ARRAY_SIZE(counts) };

/* Distinct bodies (identical ones could be folded into one), never inlined. */
#define MANY(i)							\
	static noinline int ktarget_many_##i(void)		\
	{							\
		WRITE_ONCE(counts[1##i - 100], counts[1##i - 100] + 1);	\
		barrier();					\
		return 1##i - 100;				\
	}

MANY(00) MANY(01) MANY(02) MANY(03) MANY(04) MANY(05) MANY(06) MANY(07)
MANY(08) MANY(09) MANY(10) MANY(11) MANY(12) MANY(13) MANY(14) MANY(15)
MANY(16) MANY(17) MANY(18) MANY(19) MANY(20) MANY(21) MANY(22) MANY(23)
MANY(24) MANY(25) MANY(26) MANY(27) MANY(28) MANY(29) MANY(30) MANY(31)

static noinline notrace int ktarget_many_notrace(void)
{
	WRITE_ONCE(counts[KTARGET_MANY], counts[KTARGET_MANY] + 1);
	barrier();
	return KTARGET_MANY;
}

/*
 * Called through pointers only: a direct call of a static function lets
 * the compiler clone it (gcc 14 made ktarget_many_notrace.isra.0).
 */
static int (*notrace_fn)(void) = ktarget_many_notrace;
static int (*const many[KTARGET_MANY])(void) = {
	ktarget_many_00, ktarget_many_01, ktarget_many_02, ktarget_many_03,
	ktarget_many_04, ktarget_many_05, ktarget_many_06, ktarget_many_07,
	ktarget_many_08, ktarget_many_09, ktarget_many_10, ktarget_many_11,
	ktarget_many_12, ktarget_many_13, ktarget_many_14, ktarget_many_15,
	ktarget_many_16, ktarget_many_17, ktarget_many_18, ktarget_many_19,
	ktarget_many_20, ktarget_many_21, ktarget_many_22, ktarget_many_23,
	ktarget_many_24, ktarget_many_25, ktarget_many_26, ktarget_many_27,
	ktarget_many_28, ktarget_many_29, ktarget_many_30, ktarget_many_31,
};

static int many_sink;
static u32 holding;

/* In flight until "holding" is written 0; bounded (30 s) if never. */
static noinline int ktarget_held(void)
{
	u64 end = ktime_get_mono_fast_ns() + 30 * NSEC_PER_SEC;

	WRITE_ONCE(holding, 1);
	while (READ_ONCE(holding) && ktime_get_mono_fast_ns() < end)
		usleep_range(1000, 2000);
	WRITE_ONCE(holding, 0);
	return 0;
}

static int (*held_fn)(void) = ktarget_held;

int kmany_hold(u64 *calls)
{
	WRITE_ONCE(many_sink, READ_ONCE(held_fn)());
	*calls = 1;
	return 0;
}

int kmany_run(unsigned int n, unsigned int rounds, u64 *calls)
{
	unsigned int r, i;
	int sum = 0;

	if (!n || n > KTARGET_MANY)
		return -EINVAL;
	for (r = 0; r < rounds; r++) {
		for (i = 0; i < n; i++)
			sum += many[i]();
		sum += READ_ONCE(notrace_fn)();
	}
	WRITE_ONCE(many_sink, sum);
	*calls = (u64)n * rounds;
	return 0;
}

int kmany_run_one(unsigned int i, unsigned int rounds, u64 *calls)
{
	unsigned int r;
	int sum = 0;

	if (i >= KTARGET_MANY)
		return -EINVAL;
	for (r = 0; r < rounds; r++)
		sum += many[i]();
	WRITE_ONCE(many_sink, sum);
	*calls = rounds;
	return 0;
}

void kmany_init(struct dentry *dir)
{
	debugfs_create_u32_array("many_counts", 0400, dir, &counts_array);
	debugfs_create_u32("holding", 0600, dir, &holding);
}

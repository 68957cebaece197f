/* SPDX-License-Identifier: GPL-2.0 */
/* kstats_target's values for the expr tests (ktarget_values.c). */
#ifndef KTARGET_VALUES_H
#define KTARGET_VALUES_H

#include <linux/types.h>

struct dentry;

/* ktarget_value()'s chain: o->mid->inner, with a NULL in the middle on known calls. */
struct kv_inner {
	u32 pad;
	s32 level;
	u64 size;
};

struct kv_mid {
	u64 tag;
	struct kv_inner *inner;
};

struct kv_outer {
	u32 id;
	struct kv_mid *mid;
	struct kv_outer *self;	/* itself: a chain as long as a test wants */
};

int ktarget_values(unsigned int n, unsigned int seed, unsigned int bits, u64 *calls);
int ktarget_values_hot(unsigned int n, u64 *calls, u64 *elapsed);
int ktarget_values_tp_hot(unsigned int n, u64 *calls, u64 *elapsed);
void ktarget_values_init(struct dentry *dir);

#endif /* KTARGET_VALUES_H */

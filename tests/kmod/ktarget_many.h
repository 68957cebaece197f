/* SPDX-License-Identifier: GPL-2.0 */
/* kstats_target's many functions for patterns (ktarget_many.c). */
#ifndef KTARGET_MANY_H
#define KTARGET_MANY_H

#include <linux/types.h>

#define KTARGET_MANY	32	/* ktarget_many_00 to _31 */

struct dentry;

int kmany_run(unsigned int n, unsigned int rounds, u64 *calls);
int kmany_run_one(unsigned int i, unsigned int rounds, u64 *calls);
int kmany_hold(u64 *calls);
void kmany_init(struct dentry *dir);

#endif /* KTARGET_MANY_H */

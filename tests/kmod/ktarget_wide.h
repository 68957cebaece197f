/* SPDX-License-Identifier: GPL-2.0 */
/* kstats_target's thousand functions for one pattern (ktarget_wide.c). */
#ifndef KTARGET_WIDE_H
#define KTARGET_WIDE_H

#include <linux/types.h>

#define KTARGET_WIDE	1024	/* ktarget_wide_0000 to _1023 */

struct dentry;

int kwide_run(unsigned int n, unsigned int rounds, u64 *calls, u64 *elapsed);
void kwide_init(struct dentry *dir);

#endif /* KTARGET_WIDE_H */

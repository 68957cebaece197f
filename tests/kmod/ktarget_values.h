/* SPDX-License-Identifier: GPL-2.0 */
/* kstats_target's values for the expr tests (ktarget_values.c). */
#ifndef KTARGET_VALUES_H
#define KTARGET_VALUES_H

#include <linux/types.h>

struct dentry;

int ktarget_values(unsigned int n, unsigned int seed, unsigned int bits, u64 *calls);
int ktarget_values_hot(unsigned int n, u64 *calls, u64 *elapsed);
void ktarget_values_init(struct dentry *dir);

#endif /* KTARGET_VALUES_H */

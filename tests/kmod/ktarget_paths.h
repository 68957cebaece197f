/* SPDX-License-Identifier: GPL-2.0 */
/* kstats_target's call paths for keys by stack (ktarget_paths.c). */
#ifndef KTARGET_PATHS_H
#define KTARGET_PATHS_H

#include <linux/types.h>

struct dentry;

int kpaths_run(unsigned int a, unsigned int b, unsigned int c, u64 *calls);
void kpaths_init(struct dentry *dir);

#endif /* KTARGET_PATHS_H */

/* SPDX-License-Identifier: GPL-2.0 */
/* Shared by the white-box test modules (kstats_probe_test, kstats_section_test). */
#ifndef KSTATS_WHITEBOX_H
#define KSTATS_WHITEBOX_H

#include <linux/kstats.h>
#include <linux/percpu.h>

/* Samples in every slot of @ks on every possible CPU. */
static inline u64 kstats_whitebox_count(struct kstats *ks)
{
	u32 s, nslots = kstats_hist_nslots(ks->frac_bits);
	u64 n = 0;
	int cpu;

	for_each_possible_cpu(cpu)
		for (s = 0; s < nslots; s++)
			n += per_cpu_ptr(ks->slots, cpu)[s].count;
	return n;
}

#endif /* KSTATS_WHITEBOX_H */

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

/*
 * The white-box probes capture no outliers (outlier_ns is U64_MAX): the
 * capture, in kstats.ko's trace_outlier.c, is never reached from them.
 */
void kstats_outlier_capture(struct kstats_probe *p, u64 t0, u64 now, u32 cpu_start,
			    unsigned long ret)
{
	WARN_ON_ONCE(1);
}

/* Nor do they have a key: kstats_keys_record() is never reached either. */
void kstats_keys_record(struct kstats_keys *k, unsigned long retval, u64 wall)
{
	WARN_ON_ONCE(1);
}

#endif /* KSTATS_WHITEBOX_H */

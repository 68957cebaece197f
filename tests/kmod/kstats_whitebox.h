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
			    unsigned long ret, unsigned long retval)
{
	WARN_ON_ONCE(1);
}

/* Nor do they have a key: kstats_keys_record() is never reached either. */
void kstats_keys_record(struct kstats_probe *p, unsigned long retval, unsigned long ret,
			u64 wall)
{
	WARN_ON_ONCE(1);
}

/* Nor an expr: its entry and exit (trace_expr.c) are never reached. */
int kstats_expr_begin(struct kstats_probe *p, struct pt_regs *regs,
		      struct kstats_call_expr *cx)
{
	WARN_ON_ONCE(1);
	return 1;
}

#ifdef KSTATS_HAVE_FPROBE
int kstats_expr_begin_fprobe(struct kstats_probe *p, struct kstats_fprobe_regs *regs,
			     struct kstats_call_expr *cx)
{
	WARN_ON_ONCE(1);
	return 1;
}
#endif

int kstats_expr_begin_args(struct kstats_probe *p, const unsigned long *args,
			   struct kstats_call_expr *cx)
{
	WARN_ON_ONCE(1);
	return 1;
}

void kstats_expr_point(struct kstats_probe *p, const unsigned long *args, unsigned long ret)
{
	WARN_ON_ONCE(1);
}

/* No expr here: no end is read by its record. */
u32 kstats_expr_record_ends(const struct kstats_expr_prog *e)
{
	return 0;
}

int kstats_record_attach(struct kstats_probe *p, unsigned int end)
{
	WARN_ON_ONCE(1);
	return -EINVAL;
}

void kstats_record_detach(struct kstats_probe *p, unsigned int end)
{
	WARN_ON_ONCE(1);
}

u64 kstats_expr_end(struct kstats_probe *p, struct kstats_call *call,
		    struct kstats_call_expr *cx, unsigned long ret, unsigned long retval,
		    const unsigned long *end_args)
{
	WARN_ON_ONCE(1);
	return KSTATS_NOT_RECORDED;
}

#endif /* KSTATS_WHITEBOX_H */

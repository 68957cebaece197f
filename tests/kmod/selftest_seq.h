/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The sample sequences the self-test module records, shared with the
 * checker that predicts the debugfs view. Pure C: the includer provides
 * uint64_t.
 */
#ifndef KSTATS_SELFTEST_SEQ_H
#define KSTATS_SELFTEST_SEQ_H

#define SELFTEST_METRIC_FMT	"selftest.b%u"
#define SELFTEST_RACE_METRIC	"selftest.race"
#define SELFTEST_RACE_BITS	3
/* Race value: inside a wide slot, off its low bound, so sums are checked. */
#define SELFTEST_RACE_VALUE	((1ULL << 20) + (1ULL << 17) + 12345)

/*
 * The i-th sample recorded on @cpu: powers of two, their neighbours, and
 * points inside, across the whole 64-bit range, plus 0 and UINT64_MAX.
 */
static inline uint64_t selftest_seq(unsigned int cpu, unsigned int i)
{
	unsigned int k = i % 64;
	uint64_t base = (uint64_t)1 << k;

	if (i % 97 == 0)
		return ~(uint64_t)0;
	if (i % 89 == 0)
		return 0;
	switch ((i / 64) % 4) {
	case 0:
		return base;
	case 1:
		return base - 1;
	case 2:
		return base + 1 + cpu;
	default:
		return base + (base >> 1) + i;
	}
}

#endif /* KSTATS_SELFTEST_SEQ_H */

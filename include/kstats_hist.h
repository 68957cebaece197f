/* SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note */
/*
 * kstats histogram math: the one definition of how a value maps to a slot,
 * what a slot covers, and how percentiles and CDFs are read back.
 *
 * Shared unchanged by the kernel module, kstatsctl and the tests. It has no
 * kernel includes: the includer provides uint64_t/uint32_t (<linux/types.h>
 * in the kernel, <stdint.h> in user space). The floating-point readers at
 * the end are compiled outside the kernel only, and include <math.h>.
 *
 * Layout, for frac_bits b (0..5):
 * - values 0 .. 2^b - 1 have a slot each (exact);
 * - every higher power of two [2^e, 2^(e+1)) is split into 2^b slots of
 *   width 2^(e-b);
 * - slot = (bucket << b) | sub, bucket = e - b + 1, sub = the b bits below
 *   the leading one. There are (65 - b) << b slots in all.
 *
 * Per slot we keep a count and a "part sum": the sum of each value's offset
 * from the slot's low bound, shifted right so that one sample adds less than
 * 2^KSTATS_SUM_BITS. So part_sum <= count * (2^KSTATS_SUM_BITS - 1) over
 * all CPUs (one CPU's count and part sum may be split by a migration: see
 * kstats_slot_part_clamp()): it cannot wrap before count reaches
 * 2^(64 - KSTATS_SUM_BITS), and a reader knows exactly when that could have
 * happened (kstats_slot_sum_may_wrap()).
 * Slots narrower than 2^KSTATS_SUM_BITS keep exact sums; wider ones lose
 * less than one unit of 2^(width_log2 - KSTATS_SUM_BITS) per sample, which
 * the mean puts back as half a unit: the slot mean is then within
 * width / 2^(KSTATS_SUM_BITS + 1) of the true mean, i.e. a relative error
 * below 2^-(KSTATS_SUM_BITS + b + 1).
 */
#ifndef KSTATS_HIST_H
#define KSTATS_HIST_H

#define KSTATS_FRAC_BITS_MAX	5
#define KSTATS_SUM_BITS		12
/* The largest slot count, at frac_bits 5. */
#define KSTATS_SLOTS_MAX	((65 - KSTATS_FRAC_BITS_MAX) << KSTATS_FRAC_BITS_MAX)

/*
 * The record path's helpers are always inlined: kstats_record() promises
 * no calls, whatever the compiler would otherwise decide.
 */
#ifndef __always_inline
#define __always_inline	inline __attribute__((__always_inline__))
#endif

/* 64-bit division: the kernel maps this to div64_u64 (32-bit builds). */
#ifndef kstats_div64
#define kstats_div64(a, b)	((a) / (b))
#endif

static inline uint32_t kstats_hist_nslots(uint32_t frac_bits)
{
	return (65 - frac_bits) << frac_bits;
}

/* Index of the most significant set bit; value must not be 0. */
static __always_inline uint32_t kstats_msb64(uint64_t value)
{
	/* 63 - clz, written so that compilers see one bsr. */
	return 63 ^ (uint32_t)__builtin_clzll(value);
}

/* log2 of the width of the slots in a bucket (bucket 0 holds exact values). */
static __always_inline uint32_t kstats_bucket_width_log2(uint32_t bucket)
{
	return bucket ? bucket - 1 : 0;
}

/* How far a slot's offsets are shifted before they are summed. */
static __always_inline uint32_t kstats_bucket_sum_shift(uint32_t bucket)
{
	uint32_t w = kstats_bucket_width_log2(bucket);

	return w > KSTATS_SUM_BITS ? w - KSTATS_SUM_BITS : 0;
}

/*
 * The slot of @value, and in @part what it adds to the slot's part sum, for
 * frac_bits b and @unit = 2^b, which the record path keeps precomputed.
 * Branch-free, one formula for every value: with w = msb(value | unit) - b,
 * a value below 2^b gets w = 0 and is its own slot; above, value >> w is
 * the leading one and the b bits below it (2^b | sub), and the slot
 * ((w + 1) << b) | sub is that plus w << b. The offset from the slot low is
 * the w bits shifted out, summed at most KSTATS_SUM_BITS wide. The index is
 * 64-bit, as the pointer math wants it.
 */
static __always_inline uint64_t kstats_hist_index(uint64_t value,
						  uint32_t frac_bits,
						  uint32_t unit,
						  uint64_t *part)
{
	uint32_t w = kstats_msb64(value | unit) - frac_bits;
	int32_t shift = (int32_t)w - KSTATS_SUM_BITS;
	uint64_t top;

	/* True for any b <= 63; lets the compiler drop shift range checks. */
	if (w > 63)
		__builtin_unreachable();
	top = value >> w;
	*part = (value - (top << w)) >> (shift < 0 ? 0 : shift);
	return top + (uint64_t)w * unit;
}

/* The same, for a @frac_bits not precomputed. */
static __always_inline uint32_t kstats_hist_locate(uint64_t value,
						   uint32_t frac_bits,
						   uint64_t *part)
{
	return (uint32_t)kstats_hist_index(value, frac_bits, 1u << frac_bits, part);
}

static inline uint32_t kstats_hist_slot(uint64_t value, uint32_t frac_bits)
{
	uint64_t part;

	return kstats_hist_locate(value, frac_bits, &part);
}

/* Smallest value in @slot. */
static inline uint64_t kstats_slot_low(uint32_t slot, uint32_t frac_bits)
{
	uint32_t bucket = slot >> frac_bits;
	uint64_t sub = slot & ((1u << frac_bits) - 1);

	if (!bucket)
		return sub;
	return (((uint64_t)1 << frac_bits) | sub) << (bucket - 1);
}

/* Largest value in @slot (inclusive: the top slot ends at 2^64 - 1). */
static inline uint64_t kstats_slot_last(uint32_t slot, uint32_t frac_bits)
{
	uint32_t w = kstats_bucket_width_log2(slot >> frac_bits);

	return kstats_slot_low(slot, frac_bits) + ((((uint64_t)1 << w) - 1));
}

static inline uint32_t kstats_slot_width_log2(uint32_t slot, uint32_t frac_bits)
{
	return kstats_bucket_width_log2(slot >> frac_bits);
}

/*
 * True when @count is large enough that the part sum could have wrapped, so
 * the slot's mean is no longer trustworthy (count >= 2^(64 - SUM_BITS)).
 */
static inline int kstats_slot_sum_may_wrap(uint64_t count)
{
	return (count >> (64 - KSTATS_SUM_BITS)) != 0;
}

/*
 * @part_sum, capped at the most that @count samples of @slot can add:
 * count times the largest part one sample adds. kstats_record() has no
 * preempt guard, so a task migrated between its two adds leaves the count
 * on one CPU and the part on another: one CPU's slot may hold more part sum
 * than its count explains. Capped, its mean stays inside the slot. Totals
 * over all CPUs need no cap once no record is in flight. Left as it is when
 * the sum may have wrapped (nothing is known then).
 */
static inline uint64_t kstats_slot_part_clamp(uint32_t slot, uint32_t frac_bits,
					      uint64_t count, uint64_t part_sum)
{
	uint32_t bucket = slot >> frac_bits;
	uint64_t unit_max = (((uint64_t)1 << kstats_bucket_width_log2(bucket)) - 1) >>
			    kstats_bucket_sum_shift(bucket);

	if (kstats_slot_sum_may_wrap(count) || part_sum <= count * unit_max)
		return part_sum;
	return count * unit_max;
}

/*
 * Mean of the samples in @slot, rounded down, from its count and part sum
 * (capped: see kstats_slot_part_clamp()), so always inside the slot. The
 * shifted-away low bits are put back as half a unit (see top of file).
 */
static inline uint64_t kstats_slot_mean(uint32_t slot, uint32_t frac_bits,
					uint64_t count, uint64_t part_sum)
{
	uint32_t w = kstats_slot_width_log2(slot, frac_bits);
	uint32_t shift = kstats_bucket_sum_shift(slot >> frac_bits);
	uint32_t left, step;
	uint64_t units, rem, offset, frac, q;

	if (!count)
		return kstats_slot_low(slot, frac_bits);
	/* Else units << shift can wrap past 2^64 and land low in the slot. */
	part_sum = kstats_slot_part_clamp(slot, frac_bits, count, part_sum);
	units = kstats_div64(part_sum, count);
	offset = units << shift;
	if (shift) {
		/*
		 * Long division of the remainder, SUM_BITS bits at a time:
		 * rem < count < 2^(64 - SUM_BITS) unless the sum may wrap.
		 */
		rem = part_sum - units * count;
		frac = 0;
		for (left = shift; left; left -= step) {
			step = left < KSTATS_SUM_BITS ? left : KSTATS_SUM_BITS;
			rem <<= step;
			q = kstats_div64(rem, count);
			rem -= q * count;
			frac = (frac << step) + q;
		}
		offset += frac + ((uint64_t)1 << (shift - 1));
	}
	if (offset > (((uint64_t)1 << w) - 1))
		offset = ((uint64_t)1 << w) - 1;
	return kstats_slot_low(slot, frac_bits) + offset;
}

/*
 * The slot holding the sample of @rank, and in *@before the number of
 * samples in lower slots. Returns -1 when the histogram has fewer samples.
 */
static inline int kstats_hist_rank_slot(const uint64_t *counts, uint32_t nslots,
					uint64_t rank, uint64_t *before)
{
	uint64_t cum = 0;
	uint32_t s;

	for (s = 0; s < nslots; s++) {
		if (counts[s] && cum + counts[s] >= rank) {
			*before = cum;
			return (int)s;
		}
		cum += counts[s];
	}
	return -1;
}

/*
 * Integer quantiles, for the kernel (which has no floating point): the same
 * definitions as kstats_quantile_rank() and kstats_hist_quantile() below,
 * with q given in millionths (999000 is p99.9). The unit tests prove them
 * equal to the double versions.
 *
 * The rank of the q-quantile of @total samples, nearest-rank:
 * max(1, ceil(ppm * total / 10^6)), exactly (the double version agrees
 * while ppm * total / 10^6 stays below 2^40 / 10^6, where its 2^-40 shave
 * cannot matter; past that it can be one rank lower).
 */
static inline uint64_t kstats_quantile_rank_ppm(uint32_t ppm, uint64_t total)
{
	uint64_t q = kstats_div64(total, 1000000), r = total - q * 1000000, rank;

	if (ppm >= 1000000)
		return total;
	/* ppm * total / 10^6 without overflow: split total at 10^6. */
	rank = (uint64_t)ppm * q + ((uint64_t)ppm * r + 999999) / 1000000;
	if (rank < 1)
		return 1;
	return rank > total ? total : rank;
}

/*
 * The k-th (1-based) of @count samples in @slot, placed as
 * kstats_hist_quantile() does: low + (k - 0.5) / count * width, rounded
 * down. @count must be below 2^63. Bit by bit: no 128-bit product, no
 * overflow.
 */
static inline uint64_t kstats_slot_nth(uint32_t slot, uint32_t frac_bits,
				       uint64_t k, uint64_t count)
{
	uint32_t w = kstats_slot_width_log2(slot, frac_bits), i;
	uint64_t low = kstats_slot_low(slot, frac_bits), num, rem, off;

	if (!(slot >> frac_bits) || !w)
		return low;
	/* (2k - 1) * 2^(w-1) / count: the first quotient bit, then w - 1 more. */
	num = 2 * k - 1;
	off = num >= count ? 1 : 0;
	rem = num - off * count;
	for (i = 1; i < w; i++) {
		if (rem >= count - rem) {
			off = off << 1 | 1;
			rem -= count - rem;
		} else {
			off <<= 1;
			rem <<= 1;
		}
	}
	return low + off;
}

/* The q-quantile (@ppm millionths) of a histogram, or 0 when it is empty. */
static inline uint64_t kstats_hist_quantile_ppm(const uint64_t *counts, uint32_t nslots,
						uint32_t frac_bits, uint32_t ppm)
{
	uint64_t total = 0, before = 0, rank;
	uint32_t s;
	int slot;

	for (s = 0; s < nslots; s++)
		total += counts[s];
	if (!total)
		return 0;
	rank = kstats_quantile_rank_ppm(ppm, total);
	slot = kstats_hist_rank_slot(counts, nslots, rank, &before);
	if (slot < 0)
		return 0;
	return kstats_slot_nth((uint32_t)slot, frac_bits, rank - before, counts[slot]);
}

#ifndef __KERNEL__
/*
 * Floating-point readers, for user space only.
 *
 * A histogram handed to them is an array of slot counts indexed by slot
 * (0 .. kstats_hist_nslots() - 1). Quantiles use the nearest-rank
 * definition: the q-quantile of n samples is the sample of rank
 * max(1, ceil(q * n)) in sorted order. That sample lies in the slot where
 * the cumulative count first reaches the rank, so an estimate inside that
 * slot is off by less than the slot's width: exact below 2^b, and at most
 * 2^-b relative above (kstats_slot_rel_error()).
 */
#include <math.h>

#define KSTATS_RANK_SHAVE	(1.0 - 1.0 / 1099511627776.0)	/* 1 - 2^-40 */

/*
 * Sum of all values in @slot as a double (exact while below 2^53), from its
 * part sum capped as kstats_slot_mean() does: sum / count stays in the slot.
 */
static inline double kstats_slot_sum(uint32_t slot, uint32_t frac_bits,
				     uint64_t count, uint64_t part_sum)
{
	uint32_t shift = kstats_bucket_sum_shift(slot >> frac_bits);
	double sum = (double)count * (double)kstats_slot_low(slot, frac_bits);

	part_sum = kstats_slot_part_clamp(slot, frac_bits, count, part_sum);
	sum += ldexp((double)part_sum, (int)shift);
	if (shift)
		sum += (double)count * ldexp(1.0, (int)shift - 1);
	return sum;
}

/* Exclusive upper bound of @slot as a double (2^64 for the last slot). */
static inline double kstats_slot_high(uint32_t slot, uint32_t frac_bits)
{
	return (double)kstats_slot_low(slot, frac_bits) +
	       ldexp(1.0, (int)kstats_slot_width_log2(slot, frac_bits));
}

/* Worst relative error of a value placed in @slot: width / low. */
static inline double kstats_slot_rel_error(uint32_t slot, uint32_t frac_bits)
{
	uint64_t low = kstats_slot_low(slot, frac_bits);

	if (!(slot >> frac_bits))
		return 0.0;
	return ldexp(1.0, (int)kstats_slot_width_log2(slot, frac_bits)) /
	       (double)low;
}

/* The rank (1-based) that the q-quantile of @total samples refers to. */
static inline uint64_t kstats_quantile_rank(double q, uint64_t total)
{
	/* Shaves 2^-40 off so that e.g. 0.07 * 100 is rank 7, not 8. */
	double r = ceil(q * (double)total * KSTATS_RANK_SHAVE);

	if (q >= 1.0)
		return total;
	if (!(r >= 1.0))	/* also NaN */
		return 1;
	if (r >= (double)total)
		return total;
	return (uint64_t)r;
}

/*
 * The q-quantile, interpolated linearly inside its slot: the k-th of the n
 * samples in [low, high) is placed at low + (k - 0.5) / n * width. Exact
 * slots return their value. Returns NAN on an empty histogram.
 */
static inline double kstats_hist_quantile(const uint64_t *counts,
					  uint32_t nslots, uint32_t frac_bits,
					  double q)
{
	uint64_t total = 0, before = 0, rank;
	uint32_t s;
	int slot;
	double low, width;

	for (s = 0; s < nslots; s++)
		total += counts[s];
	if (!total)
		return NAN;
	rank = kstats_quantile_rank(q, total);
	slot = kstats_hist_rank_slot(counts, nslots, rank, &before);
	if (slot < 0)
		return NAN;
	low = (double)kstats_slot_low((uint32_t)slot, frac_bits);
	if (!((uint32_t)slot >> frac_bits))
		return low;
	width = ldexp(1.0, (int)kstats_slot_width_log2((uint32_t)slot, frac_bits));
	return low + width * ((double)(rank - before) - 0.5) /
		     (double)counts[slot];
}

/*
 * Cumulative fraction of samples at or below each slot, into @cdf
 * (nslots entries). Returns the total number of samples.
 */
static inline uint64_t kstats_hist_cdf(const uint64_t *counts, uint32_t nslots,
				       double *cdf)
{
	uint64_t total = 0, cum = 0;
	uint32_t s;

	for (s = 0; s < nslots; s++)
		total += counts[s];
	for (s = 0; s < nslots; s++) {
		cum += counts[s];
		cdf[s] = total ? (double)cum / (double)total : 0.0;
	}
	return total;
}
#endif /* !__KERNEL__ */

#endif /* KSTATS_HIST_H */

// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests for include/kstats_hist.h (cmocka), against a deliberately naive
 * reference model written from the documented layout only: slots found by a
 * loop over powers of two, bounds from "2^b exact slots, then 2^b slots per
 * power of two", sums in 128-bit integers, quantiles from sorted samples.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <math.h>
#include <cmocka.h>

#include "kstats_hist.h"

typedef unsigned __int128 u128;

#define NFRAC		(KSTATS_FRAC_BITS_MAX + 1)
#define SUM_UNITS	((uint64_t)1 << KSTATS_SUM_BITS)
#define P2(k)		((uint64_t)1 << (k))
#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))
#define MAX_SAMPLES	10000

/* ---- checks that count themselves and say what was being checked ---- */

static unsigned long n_checks;
static char ctx[160];		/* set with CTX() before a batch of checks */

#define CTX(...)	snprintf(ctx, sizeof(ctx), __VA_ARGS__)

#define CHECK(cond) do {						\
	n_checks++;							\
	if (!(cond))							\
		fail_msg("%s [%s]", #cond, ctx);			\
} while (0)

#define CHECK_EQ(got, want) do {					\
	uint64_t got_ = (uint64_t)(got), want_ = (uint64_t)(want);	\
	n_checks++;							\
	if (got_ != want_)						\
		fail_msg("%s = %" PRIu64 ", want %" PRIu64 " [%s]",	\
			 #got, got_, want_, ctx);			\
} while (0)

/* ---- deterministic PRNG ---- */

static uint64_t rng_state;

static uint64_t rng(void)	/* xorshift64 */
{
	rng_state ^= rng_state << 13;
	rng_state ^= rng_state >> 7;
	rng_state ^= rng_state << 17;
	return rng_state;
}

static uint64_t rng_below(uint64_t n) { return n ? rng() % n : 0; }

/* A value of random magnitude: every power of two equally likely. */
static uint64_t rng_loguniform(void)
{
	uint64_t shift = rng_below(64);	/* keep the two rng() calls in order */

	return rng() >> shift;
}

/* ---- reference model ---- */

/* Largest e with 2^e <= v (v > 0), by walking up the powers of two. */
static uint32_t ref_log2(uint64_t v)
{
	uint32_t e = 0;

	while (e < 63 && v >= P2(e + 1))
		e++;
	return e;
}

/* 2^b exact slots, then 2^b slots for each power of two 2^b .. 2^63. */
static uint32_t ref_nslots(uint32_t b)
{
	return (uint32_t)(P2(b) + (64 - b) * P2(b));
}

static uint32_t ref_slot(uint64_t v, uint32_t b)
{
	uint32_t e;

	if (v < P2(b))
		return (uint32_t)v;
	e = ref_log2(v);
	/* skip the exact slots and the 2^b slots of each lower power */
	return (uint32_t)(P2(b) + (e - b) * P2(b) + (v - P2(e)) / P2(e - b));
}

struct ref_bounds { uint64_t low, last; uint32_t wlog, shift; };

static struct ref_bounds ref_bounds(uint32_t s, uint32_t b)
{
	struct ref_bounds r = { .low = s, .last = s };
	uint32_t e, idx;

	if (s >= P2(b)) {
		e = b + (uint32_t)((s - P2(b)) / P2(b));	/* which power */
		idx = (uint32_t)((s - P2(b)) % P2(b));		/* which slice */
		r.wlog = e - b;
		r.low = P2(e) + (uint64_t)idx * P2(r.wlog);
		r.last = r.low + (P2(r.wlog) - 1);
	}
	/* parts are offsets >> max(0, wlog - SUM_BITS) */
	r.shift = r.wlog > KSTATS_SUM_BITS ? r.wlog - KSTATS_SUM_BITS : 0;
	return r;
}

/* Nearest rank of q = num/den among n samples, in integers. */
static uint64_t ref_rank(uint64_t num, uint64_t den, uint64_t n)
{
	uint64_t r = (uint64_t)(((u128)num * n + den - 1) / den);

	return r < 1 ? 1 : r > n ? n : r;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/* ---- sample sets ---- */

enum { UNIFORM, UNIFORM64, EXPONENTIAL, LOGUNIFORM, ALL_EQUAL, SINGLE,
       POWERS, SLOT_EDGES, NEAR_MAX, TINY, TWO_POINTS, NSETS };

static const struct { const char *name; size_t n; } sets[NSETS] = {
	[UNIFORM]	= { "uniform [0,1e6)", 10000 },
	[UNIFORM64]	= { "uniform 64-bit", 10000 },
	[EXPONENTIAL]	= { "exponential mean 1e6", 10000 },
	[LOGUNIFORM]	= { "log-uniform", 10000 },
	[ALL_EQUAL]	= { "all equal", 4321 },
	[SINGLE]	= { "single sample", 1 },
	[POWERS]	= { "0, 1, 2^k-1, 2^k, 2^k+1, UINT64_MAX", 195 },
	[SLOT_EDGES]	= { "both ends of every slot at b=5", 2 * KSTATS_SLOTS_MAX },
	[NEAR_MAX]	= { "near UINT64_MAX", 1000 },
	[TINY]		= { "below 2^5", 1000 },
	[TWO_POINTS]	= { "0 and UINT64_MAX", 1000 },
};

/* Sample @i of set @id (unsorted). */
static uint64_t gen_one(int id, size_t i)
{
	struct ref_bounds r;

	switch (id) {
	case UNIFORM:	 return rng_below(1000000);
	case UNIFORM64:	 return rng();
	case EXPONENTIAL: /* -ln(u) * mean, u in (0, 1] */
		return (uint64_t)(-log(((double)(rng() >> 11) + 1) * 0x1p-53) * 1e6);
	case LOGUNIFORM: return rng_loguniform();
	case ALL_EQUAL:	 return 123456789;
	case SINGLE:	 return 777;
	case POWERS:	/* 0, 1, then 2^k - 1, 2^k, 2^k + 1, then UINT64_MAX */
		return i < 2 ? i : i >= 2 + 3 * 64 ? UINT64_MAX :
		       P2((i - 2) / 3) - 1 + (i - 2) % 3;
	case SLOT_EDGES: /* slot edges at b = 5 are slot edges for any b */
		r = ref_bounds((uint32_t)(i / 2), KSTATS_FRAC_BITS_MAX);
		return i & 1 ? r.last : r.low;
	case NEAR_MAX:	 return i % 10 ? UINT64_MAX - rng_below(P2(40)) : UINT64_MAX;
	case TINY:	 return rng_below(P2(KSTATS_FRAC_BITS_MAX));
	default:	 return i & 1 ? UINT64_MAX : 0;
	}
}

static uint64_t samples[MAX_SAMPLES];
static uint64_t counts[KSTATS_SLOTS_MAX];

/* Generate sample set @id (sorted) and its histogram at frac_bits @b. */
static size_t load_set(int id, uint32_t b)
{
	size_t n = sets[id].n;

	rng_state = 0xC0FFEE + (uint64_t)id;
	for (size_t j = 0; j < n; j++)
		samples[j] = gen_one(id, j);
	qsort(samples, n, sizeof(*samples), cmp_u64);
	memset(counts, 0, sizeof(counts));
	for (size_t j = 0; j < n; j++)
		counts[kstats_hist_slot(samples[j], b)]++;
	return n;
}

/* ================= 1. slot layout ================= */

/* Slot, bounds, width and part of one value, against the reference. */
static void check_value(uint64_t v, uint32_t b)
{
	uint64_t part = ~0ULL;
	uint32_t s = kstats_hist_slot(v, b);
	struct ref_bounds r = ref_bounds(s, b);

	CTX("b=%u v=%" PRIu64 " slot=%u", b, v, s);
	CHECK_EQ(s, ref_slot(v, b));
	CHECK_EQ(kstats_hist_locate(v, b, &part), s);
	CHECK(s < kstats_hist_nslots(b));
	CHECK(kstats_slot_low(s, b) <= v && v <= kstats_slot_last(s, b));
	CHECK_EQ(kstats_slot_low(s, b), r.low);
	CHECK_EQ(kstats_slot_last(s, b), r.last);
	if (v < P2(b)) {		/* exact */
		CHECK_EQ(s, v);
		CHECK_EQ(kstats_slot_low(s, b), kstats_slot_last(s, b));
	} else {			/* width 2^(e-b) in [2^e, 2^(e+1)) */
		CHECK_EQ(kstats_slot_width_log2(s, b), ref_log2(v) - b);
		CHECK_EQ(kstats_slot_last(s, b) - kstats_slot_low(s, b) + 1,
			 P2(ref_log2(v) - b));
	}
	CHECK(part < SUM_UNITS);
	CHECK_EQ(part, (v - r.low) >> r.shift);
	if (r.wlog <= KSTATS_SUM_BITS)
		CHECK_EQ(part, v - r.low);
}

/* check_value() along sorted values; slots must never go down. */
static void check_sorted_values(const uint64_t *vals, size_t n)
{
	for (uint32_t b = 0; b < NFRAC; b++)
		for (size_t i = 0; i < n; i++) {
			check_value(vals[i], b);
			CHECK(i == 0 || kstats_hist_slot(vals[i - 1], b) <=
					kstats_hist_slot(vals[i], b));
		}
}

static void test_boundary_values(void **state)
{
	(void)state;
	check_sorted_values(samples, load_set(POWERS, 0));
}

static void test_sample_set_values(void **state)
{
	(void)state;
	for (int set = 0; set < NSETS; set++)
		check_sorted_values(samples, load_set(set, 0));
}

static void test_slots_tile_range(void **state)
{
	(void)state;
	CTX("limits");
	CHECK_EQ(KSTATS_SLOTS_MAX, ref_nslots(KSTATS_FRAC_BITS_MAX));
	/* 8 KiB per CPU at frac_bits 3: a count and a part sum per slot */
	CHECK(kstats_hist_nslots(3) * 16 <= 8192);
	for (uint32_t b = 0; b < NFRAC; b++) {
		uint32_t ns = kstats_hist_nslots(b);

		CTX("b=%u", b);
		CHECK_EQ(ns, ref_nslots(b));
		CHECK(ns <= KSTATS_SLOTS_MAX);
		CHECK_EQ(kstats_hist_slot(UINT64_MAX, b), ns - 1);
		CHECK_EQ(kstats_slot_low(0, b), 0);
		CHECK_EQ(kstats_slot_last(ns - 1, b), UINT64_MAX);
		for (uint32_t s = 0; s < ns; s++) {
			struct ref_bounds r = ref_bounds(s, b);
			uint64_t low = kstats_slot_low(s, b);
			uint64_t last = kstats_slot_last(s, b);
			double rel = kstats_slot_rel_error(s, b);

			CTX("b=%u s=%u", b, s);
			CHECK_EQ(low, r.low);
			CHECK_EQ(last, r.last);
			CHECK_EQ(kstats_slot_width_log2(s, b), r.wlog);
			CHECK_EQ(kstats_hist_slot(low, b), s);
			CHECK_EQ(kstats_hist_slot(last, b), s);
			CHECK(s + 1 == ns || last + 1 == kstats_slot_low(s + 1, b));
			CHECK((long double)kstats_slot_high(s, b) == (long double)last + 1);
			/* width / low, 0 for exact slots, at most 2^-b */
			CHECK(rel == (s < P2(b) ? 0.0 : (double)(ldexpl(1, (int)r.wlog) / low)));
			CHECK(rel <= ldexp(1.0, -(int)b));
		}
	}
}

/* ================= 2. part sums and means ================= */

struct slot_acc { uint32_t slot; uint64_t count, part_sum; u128 sum; };

static void acc_add(struct slot_acc *a, uint64_t v, uint32_t b)
{
	uint64_t part;

	CHECK_EQ(kstats_hist_locate(v, b, &part), a->slot);
	a->count++;
	a->part_sum += part;
	a->sum += v;
}

/* n random values from [lo, hi], all inside slot s */
static struct slot_acc fill_slot(uint32_t s, uint32_t b, uint64_t lo,
				 uint64_t hi, uint64_t n)
{
	struct slot_acc a = { .slot = s };

	CTX("fill: b=%u s=%u [%" PRIu64 ", %" PRIu64 "]", b, s, lo, hi);
	while (n--)
		acc_add(&a, lo + rng_below(hi - lo + 1), b);
	return a;
}

/*
 * The mean is within width / 2^(SUM_BITS+1) = 2^(shift-1) of the exact one
 * (+1 as both are rounded down), plus @extra; always inside the slot. The
 * slot sum is off by at most count times that (+ double rounding).
 */
static void check_mean(const struct slot_acc *a, uint32_t b,
		       const char *what, uint64_t extra)
{
	struct ref_bounds r = ref_bounds(a->slot, b);
	uint64_t mean = kstats_slot_mean(a->slot, b, a->count, a->part_sum);
	uint64_t exact = (uint64_t)(a->sum / a->count);
	uint64_t tol = (r.shift ? P2(r.shift - 1) : 0) + extra;
	long double sum = kstats_slot_sum(a->slot, b, a->count, a->part_sum);

	CTX("%s: b=%u s=%u n=%" PRIu64 " mean=%" PRIu64 " exact=%" PRIu64
	    " tol=%" PRIu64 "+1", what, b, a->slot, a->count, mean, exact, tol);
	CHECK(mean >= r.low && mean <= r.last);
	CHECK((mean > exact ? mean - exact : exact - mean) <= tol + 1);
	CHECK(fabsl(sum - (long double)a->sum) <= (long double)a->count * tol +
						 ldexpl((long double)a->sum, -50));
}

static void test_part_sums(void **state)
{
	(void)state;
	rng_state = 12345;
	for (uint32_t b = 0; b < NFRAC; b++)
		for (uint32_t s = 0; s < kstats_hist_nslots(b); s++) {
			struct ref_bounds r = ref_bounds(s, b);

			for (int set = 0; set < 3; set++) {
				uint64_t n = 1 + rng_below(set == 2 ? 2000 : 50);
				struct slot_acc a = fill_slot(s, b, r.low, r.last, n);

				check_mean(&a, b, "random", 0);
				CHECK(a.part_sum <= n * (SUM_UNITS - 1));
				if (r.wlog > KSTATS_SUM_BITS)
					continue;
				/* narrow slot: the sums are exact */
				CHECK_EQ(a.part_sum, (uint64_t)(a.sum - (u128)n * r.low));
				CHECK(kstats_slot_sum(s, b, n, a.part_sum) == (double)a.sum);
				CHECK_EQ(kstats_slot_mean(s, b, n, a.part_sum),
					 (uint64_t)(a.sum / n));
			}
		}
}

/* Hand-placed samples: at the edges of the slot and of its part units. */
static void test_mean_edges(void **state)
{
	(void)state;
	rng_state = 777;
	for (uint32_t b = 0; b < NFRAC; b++)
		for (uint32_t s = 0; s < kstats_hist_nslots(b); s++) {
			struct ref_bounds r = ref_bounds(s, b);
			uint64_t unit = P2(r.shift), mid = r.low + unit / 2;
			struct slot_acc a;

			CTX("empty: b=%u s=%u", b, s);
			CHECK_EQ(kstats_slot_mean(s, b, 0, 0), r.low);
			a = fill_slot(s, b, r.low, r.low, 7);
			check_mean(&a, b, "all at low", 0);
			a = fill_slot(s, b, r.last, r.last, 7);
			check_mean(&a, b, "all at last", 0);
			a = fill_slot(s, b, r.low, r.low + unit - 1, 9);
			check_mean(&a, b, "first unit", 0);
			a = fill_slot(s, b, r.last - unit + 1, r.last, 9);
			check_mean(&a, b, "last unit", 0);
			a = fill_slot(s, b, mid, mid, 1);
			check_mean(&a, b, "one mid-unit sample", 0);
			/* even a bogus (wrapped) part sum keeps the mean inside */
			CTX("bogus part sum: b=%u s=%u", b, s);
			CHECK(kstats_slot_mean(s, b, 1, UINT64_MAX) <= r.last);
			CHECK(kstats_slot_mean(s, b, 3, 3 * SUM_UNITS) <= r.last);
		}
}

/*
 * Worst cases for the mean: all samples at the top of their unit, with random
 * parts and with remainders that a truncated division of the part sum would
 * round down most (4096 x 0 and 1 x 1): the documented bound must hold.
 */
static void test_mean_worst_case(void **state)
{
	(void)state;
	rng_state = 4242;
	for (uint32_t b = 0; b < NFRAC; b++)
		for (uint32_t s = 0; s < kstats_hist_nslots(b); s++) {
			struct ref_bounds r = ref_bounds(s, b);
			uint64_t unit = P2(r.shift);
			uint64_t extra = 0;
			struct slot_acc a = { .slot = s }, t = { .slot = s };

			if (!r.shift)
				continue;
			CTX("worst case: b=%u s=%u", b, s);
			acc_add(&a, r.low + 2 * unit - 1, b);
			for (int i = 0; i < 4096; i++)
				acc_add(&a, r.low + unit - 1, b);
			check_mean(&a, b, "worst case", extra);
			for (uint64_t n = 1 + rng_below(300); n--; )
				acc_add(&t, r.low + rng_below(SUM_UNITS) * unit + unit - 1, b);
			check_mean(&t, b, "tops of units", extra);
		}
}

static void test_sum_may_wrap(void **state)
{
	const uint64_t limit = P2(64 - KSTATS_SUM_BITS);
	const uint64_t cnt[] = { 0, 1, 2, limit / 2, limit - 1, limit,
				 limit + 1, 2 * limit, UINT64_MAX };

	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(cnt); i++) {
		CTX("count=%" PRIu64, cnt[i]);
		CHECK_EQ(!!kstats_slot_sum_may_wrap(cnt[i]), cnt[i] >= limit);
	}
	/* the most samples that cannot wrap, all at a slot's last value */
	for (uint32_t b = 0; b < NFRAC; b++)
		for (uint32_t s = 0; s < kstats_hist_nslots(b); s++) {
			uint64_t part, c = limit - 1;

			kstats_hist_locate(kstats_slot_last(s, b), b, &part);
			CTX("b=%u s=%u count=%" PRIu64 " part=%" PRIu64, b, s, c, part);
			CHECK((u128)c * part <= (u128)c * (SUM_UNITS - 1));
			CHECK((u128)c * part <= UINT64_MAX);
			CHECK(!kstats_slot_sum_may_wrap(c));
		}
}

/*
 * A migration between kstats_record()'s two adds leaves a sample's count on
 * one CPU and its part on another. Each CPU's slot mean stays inside the
 * slot (the part sum capped at what its count can hold), and folding the
 * CPUs gives back the exact slot.
 */
static void test_split_slots(void **state)
{
	(void)state;
	rng_state = 9191;
	for (uint32_t b = 0; b < NFRAC; b++)
		for (uint32_t s = 0; s < kstats_hist_nslots(b); s++) {
			struct ref_bounds r = ref_bounds(s, b);
			uint64_t umax = (P2(r.wlog) - 1) >> r.shift;
			uint64_t n = 2 + rng_below(40), c0, p0, top;
			const uint64_t big[] = { 1, umax + 1, P2(30), P2(40),
						 P2(52), UINT64_MAX / 2, UINT64_MAX };
			struct slot_acc a = fill_slot(s, b, r.low, r.last, n);

			CTX("clamp: b=%u s=%u n=%" PRIu64, b, s, n);
			CHECK_EQ(kstats_slot_part_clamp(s, b, n, a.part_sum), a.part_sum);
			CHECK_EQ(kstats_slot_part_clamp(s, b, n, n * umax), n * umax);
			CHECK_EQ(kstats_slot_part_clamp(s, b, n, n * umax + 1), n * umax);
			CHECK_EQ(kstats_slot_part_clamp(s, b, 0, 5), 0);
			/* a sum that may have wrapped is all there is */
			CHECK_EQ(kstats_slot_part_clamp(s, b, P2(52), 7), 7);
			/* any part sum, however far past the count: the slot's top */
			top = kstats_slot_mean(s, b, n, n * umax);
			CHECK(top <= r.last && r.last - top < P2(r.shift));
			for (size_t i = 0; i < ARRAY_SIZE(big); i++) {
				uint64_t p = n * umax + big[i];

				CTX("past the count: b=%u s=%u n=%" PRIu64 " part=%" PRIu64,
				    b, s, n, p);
				if (p < n * umax)
					p = UINT64_MAX;
				CHECK_EQ(kstats_slot_mean(s, b, n, p), top);
				CHECK(kstats_slot_sum(s, b, n, p) / (double)n <=
				      (double)r.last);
				CHECK_EQ(kstats_slot_mean(s, b, 1, big[i] * (umax > 0)),
					 kstats_slot_mean(s, b, 1, umax < big[i] ? umax : big[i]));
			}
			/* n samples: c0 counted on CPU 0, p0 of the part on CPU 0 */
			c0 = rng_below(n + 1);
			p0 = rng_below(a.part_sum + 1);
			CTX("split: b=%u s=%u n=%" PRIu64 " c0=%" PRIu64 " p0=%" PRIu64,
			    b, s, n, c0, p0);
			for (int cpu = 0; cpu < 2; cpu++) {
				uint64_t c = cpu ? n - c0 : c0;
				uint64_t p = cpu ? a.part_sum - p0 : p0;
				uint64_t m = kstats_slot_mean(s, b, c, p);

				CHECK(m >= r.low && m <= r.last);
				if (c)
					CHECK(kstats_slot_sum(s, b, c, p) / (double)c >=
					      (double)r.low &&
					      kstats_slot_sum(s, b, c, p) / (double)c <=
					      (double)r.last);
			}
			CHECK_EQ(kstats_slot_mean(s, b, c0 + (n - c0), p0 + (a.part_sum - p0)),
				 kstats_slot_mean(s, b, n, a.part_sum));
		}
}

/* ================= 3. quantiles and CDF ================= */

/* q = num / den, kept as a fraction for the integer reference rank */
static const struct { uint64_t num, den; } quants[] = {
	{ 0, 1 }, { 1, 1000 }, { 1, 4 }, { 1, 2 }, { 9, 10 }, { 99, 100 },
	{ 999, 1000 }, { 9999, 10000 }, { 1, 1 },
};
#define QVAL(i)	((double)quants[i].num / (double)quants[i].den)
#define QRANK(i, n)	ref_rank(quants[i].num, quants[i].den, n)

static void test_quantiles(void **state)
{
	(void)state;
	for (int set = 0; set < NSETS; set++)
		for (uint32_t b = 0; b < NFRAC; b++) {
			size_t n = load_set(set, b);
			uint32_t ns = kstats_hist_nslots(b);

			for (size_t qi = 0; qi < ARRAY_SIZE(quants); qi++) {
				double q = QVAL(qi);
				uint64_t rank = QRANK(qi, n);
				uint64_t exact = samples[rank - 1], before = ~0ULL;
				uint32_t s = ref_slot(exact, b);
				struct ref_bounds r = ref_bounds(s, b);
				double est = kstats_hist_quantile(counts, ns, b, q);
				long double err = fabsl((long double)est - exact);
				size_t below = 0;

				while (below < n && samples[below] < r.low)
					below++;
				CTX("%s: b=%u q=%g rank=%" PRIu64 " exact=%" PRIu64
				    " est=%.17g", sets[set].name, b, q, rank, exact, est);
				CHECK_EQ(kstats_quantile_rank(q, n), rank);
				CHECK_EQ(kstats_hist_rank_slot(counts, ns, rank, &before), s);
				CHECK_EQ(before, below);
				/* inside the exact sample's slot */
				CHECK(est >= r.low && (long double)est < (long double)r.last + 1);
				CHECK(err < ldexpl(1.0L, (int)r.wlog));
				if (exact < P2(b)) {
					CHECK(est == (double)exact);
				} else {
					CHECK(err / exact <= kstats_slot_rel_error(s, b));
					CHECK(kstats_slot_rel_error(s, b) <= ldexp(1.0, -(int)b));
				}
			}
		}
}

static void test_quantile_rank(void **state)
{
	(void)state;
	CTX("edge cases");
	CHECK_EQ(kstats_quantile_rank(0.0, 1), 1);
	CHECK_EQ(kstats_quantile_rank(1.0, 1), 1);
	CHECK_EQ(kstats_quantile_rank(0.5, 1), 1);
	CHECK_EQ(kstats_quantile_rank(0.0, UINT64_MAX), 1);
	CHECK_EQ(kstats_quantile_rank(1.0, UINT64_MAX), UINT64_MAX);
	CHECK_EQ(kstats_quantile_rank(-0.5, 10), 1);
	CHECK_EQ(kstats_quantile_rank(2.0, 10), 10);
	CHECK_EQ(kstats_quantile_rank(NAN, 10), 1);
	/* 0.07 * 100 is 7.000000000000001 in doubles: still rank 7. */
	CHECK_EQ(kstats_quantile_rank(0.07, 100), 7);
	CHECK_EQ(kstats_quantile_rank(0.29, 100), 29);
	for (uint64_t n = 1; n <= 20000; n++) {
		CTX("n=%" PRIu64, n);
		CHECK_EQ(kstats_quantile_rank(0.0, n), 1);
		CHECK_EQ(kstats_quantile_rank(1.0, n), n);
		for (size_t qi = 0; qi < ARRAY_SIZE(quants); qi++)
			CHECK_EQ(kstats_quantile_rank(QVAL(qi), n), QRANK(qi, n));
	}
}

/*
 * The kernel's integer twins (q in millionths): the rank is exactly the
 * nearest-rank one everywhere, and the double version's wherever its 2^-40
 * shave cannot matter (ppm * n / 10^6 below 2^40 / 10^6); the in-slot
 * value is the double version's, rounded down.
 */
static void test_quantile_ppm(void **state)
{
	static const uint32_t edge_ppm[] = { 0, 1, 2, 499999, 500000, 500001, 900000,
					     990000, 999000, 999001, 999900, 999990, 999999 };
	uint64_t x = 0x9e3779b97f4a7c15ULL;

	(void)state;
	for (uint64_t n = 1; n <= 500; n++)
		for (uint32_t ppm = 0; ppm < 1000000; ppm += n <= 10 ? 3 : 997) {
			CTX("ppm=%u n=%" PRIu64, ppm, n);
			CHECK_EQ(kstats_quantile_rank_ppm(ppm, n), ref_rank(ppm, 1000000, n));
			CHECK_EQ(kstats_quantile_rank_ppm(ppm, n), kstats_quantile_rank(ppm / 1e6, n));
		}
	for (int i = 0; i < 200000; i++) {
		uint32_t ppm = (uint32_t)((x = x * 6364136223846793005ULL + 1) >> 44) % 1000000;
		uint64_t big, n;

		x = x * 6364136223846793005ULL + 1;
		big = x >> (x >> 58);
		n = 1 + (x >> 20) % (ppm ? 1000000000000ULL / ppm : 1000000ULL);

		CTX("ppm=%u n=%" PRIu64 " big=%" PRIu64, ppm, n, big);
		CHECK_EQ(kstats_quantile_rank_ppm(ppm, n), kstats_quantile_rank(ppm / 1e6, n));
		if (big)
			CHECK_EQ(kstats_quantile_rank_ppm(ppm, big), ref_rank(ppm, 1000000, big));
	}
	CHECK_EQ(kstats_quantile_rank_ppm(999999, UINT64_MAX),
		 ref_rank(999999, 1000000, UINT64_MAX));
	CHECK_EQ(kstats_quantile_rank_ppm(1000000, 7), 7);

	for (int set = 0; set < NSETS; set++)
		for (uint32_t b = 0; b < NFRAC; b++) {
			uint32_t ns = kstats_hist_nslots(b);

			load_set(set, b);
			for (size_t i = 0; i < ARRAY_SIZE(edge_ppm); i++) {
				double d = kstats_hist_quantile(counts, ns, b, edge_ppm[i] / 1e6);
				uint64_t v = kstats_hist_quantile_ppm(counts, ns, b, edge_ppm[i]);
				double ulp = nextafter(d, INFINITY) - d;

				CTX("%s: b=%u ppm=%u double %.17g int %" PRIu64, sets[set].name, b,
				    edge_ppm[i], d, v);
				/* floor(d), up to d's own rounding (exact below 2^53) */
				CHECK((long double)v <= (long double)d + ulp &&
				      (long double)d < (long double)v + 1 + ulp);
			}
		}
	/* Every slot, count and position, against the exact value (128-bit). */
	for (uint32_t b = 0; b < NFRAC; b++)
		for (uint32_t s = 0; s < kstats_hist_nslots(b); s++) {
			static const uint64_t cs[] = { 1, 2, 3, 7, 1000, 1048577, 1ULL << 40 };
			uint32_t w = kstats_slot_width_log2(s, b);

			for (size_t ci = 0; ci < ARRAY_SIZE(cs); ci++) {
				uint64_t c = cs[ci], ks[] = { 1, c / 2 + 1, c };

				for (size_t ki = 0; ki < 3; ki++) {
					/* exact: low + floor((2k - 1) * 2^(w-1) / c) */
					uint64_t want = kstats_slot_low(s, b) + ((s >> b) && w ?
						(uint64_t)((((u128)2 * ks[ki] - 1) << (w - 1)) / c) : 0);

					CTX("b=%u slot=%u count=%" PRIu64 " k=%" PRIu64, b, s, c, ks[ki]);
					CHECK_EQ(kstats_slot_nth(s, b, ks[ki], c), want);
				}
			}
		}
}

static void test_empty_histogram(void **state)
{
	uint64_t before = 0;
	double cdf[KSTATS_SLOTS_MAX];

	(void)state;
	memset(counts, 0, sizeof(counts));
	for (uint32_t b = 0; b < NFRAC; b++) {
		uint32_t ns = kstats_hist_nslots(b);

		CTX("b=%u", b);
		for (size_t qi = 0; qi < ARRAY_SIZE(quants); qi++)
			CHECK(isnan(kstats_hist_quantile(counts, ns, b, QVAL(qi))));
		CHECK_EQ(kstats_hist_rank_slot(counts, ns, 1, &before), (uint64_t)-1);
		CHECK_EQ(kstats_hist_cdf(counts, ns, cdf), 0);
		for (uint32_t s = 0; s < ns; s++)
			CHECK(cdf[s] == 0.0);
	}
	CTX("rank past the total");
	counts[3] = 2;
	CHECK_EQ(kstats_hist_rank_slot(counts, 10, 3, &before), (uint64_t)-1);
	CHECK_EQ(kstats_hist_rank_slot(counts, 10, 2, &before), 3);
	CHECK_EQ(before, 0);
}

static void test_cdf(void **state)
{
	double cdf[KSTATS_SLOTS_MAX];

	(void)state;
	for (int set = 0; set < NSETS; set++)
		for (uint32_t b = 0; b < NFRAC; b++) {
			size_t n = load_set(set, b), j = 0;
			uint32_t ns = kstats_hist_nslots(b);

			CTX("%s: b=%u", sets[set].name, b);
			CHECK_EQ(kstats_hist_cdf(counts, ns, cdf), n);
			CHECK(cdf[ns - 1] == 1.0);
			for (uint32_t s = 0; s < ns; s++) {
				/* samples at or below the slot's last value */
				while (j < n && samples[j] <= ref_bounds(s, b).last)
					j++;
				CTX("%s: b=%u s=%u cdf=%.17g", sets[set].name, b, s, cdf[s]);
				CHECK(cdf[s] == (double)j / (double)n);
				CHECK(s == 0 || cdf[s] >= cdf[s - 1]);
			}
		}
}

static int report_checks(void **state)
{
	(void)state;
	printf("[  INFO    ] %lu checks\n", n_checks);
	return 0;
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_boundary_values),
		cmocka_unit_test(test_sample_set_values),
		cmocka_unit_test(test_slots_tile_range),
		cmocka_unit_test(test_part_sums),
		cmocka_unit_test(test_mean_edges),
		cmocka_unit_test(test_mean_worst_case),
		cmocka_unit_test(test_sum_may_wrap),
		cmocka_unit_test(test_split_slots),
		cmocka_unit_test(test_quantile_rank),
		cmocka_unit_test(test_quantiles),
		cmocka_unit_test(test_quantile_ppm),
		cmocka_unit_test(test_empty_histogram),
		cmocka_unit_test(test_cdf),
	};

	return cmocka_run_group_tests(tests, NULL, report_checks);
}

// SPDX-License-Identifier: GPL-2.0
/*
 * `make bench`, part record, on the host's own CPU: the emulator prices
 * instructions and clock reads unlike a CPU does, so the ratio of
 * kstats_record() to a clock read is also measured where it is real. The
 * record is include/linux/kstats.h's, with its per-CPU adds as plain adds
 * to one thread's slots (the same two read-modify-write instructions without
 * the %gs prefix); the clock is clock_gettime(CLOCK_MONOTONIC) through the
 * vDSO, the user-space twin of ktime_get_ns() (one rdtsc and the same
 * conversion). Best of 11 rounds of 2M calls each, as the kernel part.
 */
#include <stdint.h>
#include <stdio.h>
#include <time.h>

#include "kstats_hist.h"

#define CALLS	2000000u
#define ROUNDS	11

struct slot {
	uint64_t count, part_sum;
} __attribute__((aligned(16)));

/* The layout kstats_record() reads (include/linux/kstats.h). */
struct metric {
	unsigned int active, frac_bits;
	struct slot *slots;
	unsigned int unit;
};

static struct slot slots[KSTATS_SLOTS_MAX];
static struct metric hot = { 1, 3, slots, 1u << 3 };

static inline void record(struct metric *m, uint64_t value)
{
	struct slot *s;
	uint64_t part;

	if (!__atomic_load_n(&m->active, __ATOMIC_RELAXED))
		return;
	s = m->slots + kstats_hist_index(value, m->frac_bits, m->unit, &part);
	__asm__ volatile("addq $1, %0" : "+m"(s->count));
	__asm__ volatile("addq %1, %0" : "+m"(s->part_sum) : "r"(part));
}

static uint64_t now_ns(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (uint64_t)t.tv_sec * 1000000000u + (uint64_t)t.tv_nsec;
}

int main(void)
{
	double empty = 1e9, clock = 1e9, rec = 1e9;
	uint64_t sink = 0, t0, t1, t2, t3;
	unsigned int i, r;

	for (r = 0; r < ROUNDS; r++) {
		t0 = now_ns();
		for (i = 0; i < CALLS; i++)
			__asm__ volatile("");
		t1 = now_ns();
		for (i = 0; i < CALLS; i++)
			sink += now_ns();
		t2 = now_ns();
		for (i = 0; i < CALLS; i++)
			record(&hot, i & 1023);
		t3 = now_ns();
		if ((t1 - t0) / (double)CALLS < empty)
			empty = (t1 - t0) / (double)CALLS;
		if ((t2 - t1) / (double)CALLS < clock)
			clock = (t2 - t1) / (double)CALLS;
		if ((t3 - t2) / (double)CALLS < rec)
			rec = (t3 - t2) / (double)CALLS;
	}
	__asm__ volatile("" : : "r"(sink));
	printf("# the record path on the host CPU (user-space replica, vDSO clock)\n");
	printf("empty_loop      %8.3f ns/call\n", empty);
	printf("clock_gettime   %8.3f ns/call\n", clock);
	printf("record_hot      %8.3f ns/call\n", rec);
	printf("ratio_hot_over_clock %.3f (net of loop %.3f; target <= 0.15)\n",
	       rec / clock, (rec - empty) / (clock - empty));
	return 0;
}

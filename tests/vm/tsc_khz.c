// SPDX-License-Identifier: GPL-2.0
/*
 * Prints this machine's TSC rate in kHz, measured against CLOCK_MONOTONIC_RAW
 * over 200 ms. Under QEMU's TCG the guest's TSC is the host's, so run.sh
 * passes this as tsc_early_khz= to the debug lane's kernel, whose microvm
 * machine has no HPET or ACPI PM timer to calibrate against, and whose PIT
 * calibration fails on a loaded host (the TSC is then dropped for jiffies).
 */
#include <stdint.h>
#include <stdio.h>
#include <time.h>
#include <x86intrin.h>

static uint64_t now_ns(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC_RAW, &t);
	return (uint64_t)t.tv_sec * 1000000000u + (uint64_t)t.tv_nsec;
}

/* A clock reading and the TSC at that moment: the tightest of 9 brackets. */
static void sample(uint64_t *ns, uint64_t *tsc)
{
	uint64_t best = UINT64_MAX, c0, c1, t;

	for (int i = 0; i < 9; i++) {
		c0 = __rdtsc();
		t = now_ns();
		c1 = __rdtsc();
		if (c1 - c0 < best) {
			best = c1 - c0;
			*ns = t;
			*tsc = c0 + (c1 - c0) / 2;
		}
	}
}

int main(void)
{
	struct timespec wait = { 0, 200000000 };
	uint64_t t0, c0, t1, c1;

	sample(&t0, &c0);
	nanosleep(&wait, NULL);
	sample(&t1, &c1);
	if (t1 <= t0 || c1 <= c0)
		return 1;
	printf("%llu\n", (unsigned long long)((c1 - c0) * 1000000u / (t1 - t0)));
	return 0;
}

// SPDX-License-Identifier: GPL-2.0
/*
 * `make bench`, user-space functions: calls u_empty() (an empty function,
 * never inlined) in rounds and prints the fastest round's cost per call in
 * picoseconds, so that tests/guest/uprobe-bench.sh can set the untraced
 * cost beside kstats' and bpftrace's uprobe + uretprobe on the same calls.
 * Usage: ubench ROUNDS CALLS   (waits for a line on stdin first, so that
 *        the tracer attaches before any call is made)
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#define NOT_OPTIMIZED	__attribute__((noinline, noipa, used))

NOT_OPTIMIZED void u_empty(unsigned int i)
{
	__asm__ volatile("" : : "r"(i) : "memory");
}

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

int main(int argc, char **argv)
{
	uint64_t best = UINT64_MAX, t0, dt;
	unsigned int rounds, calls, r, i;
	char line[16];

	if (argc != 3 || (rounds = atoi(argv[1])) == 0 || (calls = atoi(argv[2])) == 0) {
		fprintf(stderr, "usage: ubench ROUNDS CALLS\n");
		return 2;
	}
	if (!fgets(line, sizeof(line), stdin))
		return 1;
	for (r = 0; r < rounds; r++) {
		t0 = now_ns();
		for (i = 0; i < calls; i++)
			u_empty(i);
		dt = now_ns() - t0;
		if (dt < best)
			best = dt;
	}
	printf("%llu\n", (unsigned long long)(best * 1000 / calls));
	return 0;
}

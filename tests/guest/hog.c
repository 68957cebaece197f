// SPDX-License-Identifier: GPL-2.0
/*
 * timesplit.py's hog (run SCHED_FIFO, pinned): spins 2 ms, sleeps to an
 * absolute deadline 2 ms later, again, until SIGTERM; then prints
 * "late NS N": how late it ran after its N deadlines, summed. A deadline's
 * lateness holds the time from the timer's expiry through the wakeup to
 * the switch to the hog: within it, the task the hog preempts keeps
 * running after the scheduler has dated its wait (wakeup_preempt()).
 * Prints "spinning" once it runs.
 */
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <time.h>

static volatile sig_atomic_t stop;

static void on_term(int sig)
{
	(void)sig;
	stop = 1;
}

static uint64_t ns(const struct timespec *t)
{
	return (uint64_t)t->tv_sec * 1000000000u + (uint64_t)t->tv_nsec;
}

static uint64_t now_ns(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return ns(&t);
}

int main(void)
{
	uint64_t late = 0, n = 0, t0, deadline;
	struct timespec d;

	signal(SIGTERM, on_term);
	printf("spinning\n");
	fflush(stdout);
	while (!stop) {
		t0 = now_ns();
		while (now_ns() - t0 < 2000000)
			;
		deadline = now_ns() + 2000000;
		d.tv_sec = (time_t)(deadline / 1000000000u);
		d.tv_nsec = (long)(deadline % 1000000000u);
		if (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &d, NULL))
			continue;	/* the signal: no deadline met */
		late += now_ns() - deadline;
		n++;
	}
	printf("late %llu %llu\n", (unsigned long long)late, (unsigned long long)n);
	return 0;
}

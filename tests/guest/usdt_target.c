// SPDX-License-Identifier: GPL-2.0
/*
 * The USDT sections usdt_test.py times: probes from <sys/sdt.h>, each with
 * a semaphore (as `dtrace -h` makes them), so the program can tell whether
 * a tool has them enabled. Commands, one a line on stdin:
 *   sem       prints "sem START END": the two probes' semaphores
 *   go N DIR  two threads ("usdt-a", "usdt-b"), started, print "tids A B" and
 *             wait for a line (to be traced by thread); then each runs N
 *             sections between
 *             ktest:sec__start and ktest:sec__end, interleaved, 20 to
 *             100 us on CPU or asleep; sec__start only while its semaphore
 *             is on. Each section's own duration (from just after the start
 *             probe to just before the end probe, CLOCK_MONOTONIC: the clock
 *             kstats reads) goes to DIR/own, a line each; then ktest:stop
 *             fires. Prints "go SECTIONS ENABLED": sections run, and how
 *             many found the start semaphore on.
 *   edge      one thread: start, start again, end (one section, timed from
 *             the second start: written to DIR/own too); an end alone;
 *             another thread: a start, then it exits; another: an end alone.
 *             Prints "edge".
 *   quit
 */
#define _GNU_SOURCE
#define _SDT_HAS_SEMAPHORES 1
#include <sys/sdt.h>

#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define SEMAPHORE __attribute__((section(".probes"), used))
volatile unsigned short ktest_sec__start_semaphore SEMAPHORE;
volatile unsigned short ktest_sec__end_semaphore SEMAPHORE;
volatile unsigned short ktest_stop_semaphore SEMAPHORE;

static FILE *own;
static pthread_mutex_t own_lock = PTHREAD_MUTEX_INITIALIZER;
static unsigned int sections, enabled;

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static void spin_ns(uint64_t ns)
{
	uint64_t t0 = now_ns();

	while (now_ns() - t0 < ns)
		;
}

static void keep(uint64_t t0, uint64_t t1)
{
	pthread_mutex_lock(&own_lock);
	fprintf(own, "%llu\n", (unsigned long long)(t1 - t0));
	pthread_mutex_unlock(&own_lock);
}

/* One section: on CPU or asleep for @ns inside. */
static void section(uint64_t ns, int asleep)
{
	struct timespec ts = { 0, (long)ns };
	int on = ktest_sec__start_semaphore != 0;
	uint64_t t0, t1;

	if (on)
		DTRACE_PROBE(ktest, sec__start);
	t0 = now_ns();
	if (asleep)
		nanosleep(&ts, NULL);
	else
		spin_ns(ns);
	t1 = now_ns();
	DTRACE_PROBE(ktest, sec__end);
	pthread_mutex_lock(&own_lock);
	sections++;
	enabled += on;
	pthread_mutex_unlock(&own_lock);
	if (on)
		keep(t0, t1);
}

struct worker {
	const char *name;
	unsigned int n, seed;
	pid_t tid;
};

static pthread_barrier_t ready, run;

static void *run_sections(void *arg)
{
	struct worker *w = arg;
	unsigned int i;

	pthread_setname_np(pthread_self(), w->name);
	w->tid = gettid();
	pthread_barrier_wait(&ready);
	pthread_barrier_wait(&run);
	for (i = 0; i < w->n; i++) {
		/* Each thread's sections interleave with the other's. */
		section(20000 + (uint64_t)((i * 37 + w->seed) % 81) * 1000, i % 5 == w->seed % 5);
		usleep(50);
	}
	return NULL;
}

static void *start_and_exit(void *arg)
{
	(void)arg;
	DTRACE_PROBE(ktest, sec__start);
	return NULL;
}

static void *end_alone(void *arg)
{
	(void)arg;
	DTRACE_PROBE(ktest, sec__end);
	return NULL;
}

static void edge(void)
{
	pthread_t t;
	uint64_t t0, t1;

	DTRACE_PROBE(ktest, sec__start);
	DTRACE_PROBE(ktest, sec__start);	/* the first is lost: a miss */
	t0 = now_ns();
	spin_ns(30000);
	t1 = now_ns();
	DTRACE_PROBE(ktest, sec__end);
	keep(t0, t1);
	DTRACE_PROBE(ktest, sec__end);		/* no start: nothing */
	pthread_create(&t, NULL, start_and_exit, NULL);
	pthread_join(t, NULL);
	pthread_create(&t, NULL, end_alone, NULL);
	pthread_join(t, NULL);
}

int main(void)
{
	char line[4200], dir[4096];
	unsigned int n;

	setvbuf(stdout, NULL, _IOLBF, 0);
	while (fgets(line, sizeof(line), stdin)) {
		if (!strcmp(line, "sem\n")) {
			printf("sem %u %u\n", ktest_sec__start_semaphore, ktest_sec__end_semaphore);
		} else if (sscanf(line, "go %u %4095s", &n, dir) == 2) {
			struct worker a = { "usdt-a", n, 1, 0 }, b = { "usdt-b", n, 3, 0 };
			pthread_t ta, tb;
			char path[4200];

			snprintf(path, sizeof(path), "%s/own", dir);
			own = fopen(path, "w");
			if (!own)
				return 1;
			pthread_barrier_init(&ready, NULL, 3);
			pthread_barrier_init(&run, NULL, 3);
			pthread_create(&ta, NULL, run_sections, &a);
			pthread_create(&tb, NULL, run_sections, &b);
			pthread_barrier_wait(&ready);
			printf("tids %d %d\n", (int)a.tid, (int)b.tid);
			if (!fgets(line, sizeof(line), stdin))
				return 1;
			pthread_barrier_wait(&run);
			pthread_join(ta, NULL);
			pthread_join(tb, NULL);
			DTRACE_PROBE(ktest, stop);
			printf("go %u %u\n", sections, enabled);
		} else if (!strcmp(line, "edge\n") && own) {
			edge();
			fclose(own);
			own = NULL;
			printf("edge\n");
		} else if (!strcmp(line, "quit\n")) {
			break;
		}
	}
	return 0;
}

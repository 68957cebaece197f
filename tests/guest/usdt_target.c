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
 *             kstats reads) goes to DIR/own, a line each, and its outer
 *             duration (from just before the start probe to just after the
 *             end probe: kstats' window lies inside) to DIR/outer; then
 *             ktest:stop
 *             fires. Prints "go SECTIONS ENABLED": sections run, and how
 *             many found the start semaphore on.
 *   edge      one thread: start, start again, end (one section, timed from
 *             the second start: written to DIR/own and DIR/outer too); an
 *             end alone;
 *             another thread: a start, then it exits; another: an end alone.
 *             Prints "edge".
 *   vals N    N hits of ktest:val(int v, long w) with known values, each
 *             reached through one of two call paths (val_path_a, or
 *             val_path_b -> val_mid: every third), then of ktest:mem(long w,
 *             int v), whose arguments a function built without
 *             optimisation leaves in memory on its stack (-8@-24(%rbp)).
 *             Prints "v w" a line for each hit, then "vals A B": the hits
 *             by path.
 *   reqs N DIR N sections between ktest:req__start(id, size) and
 *             ktest:req__done(id, status), 20 to 60 us each; each's own
 *             duration, size and status (negative for every fourth) go
 *             to DIR/reqs, a line each. Prints "reqs N".
 *   stop      fires ktest:stop (bpftrace's cue to end), prints "stop"
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
volatile unsigned short ktest_val_semaphore SEMAPHORE;
volatile unsigned short ktest_mem_semaphore SEMAPHORE;
volatile unsigned short ktest_req__start_semaphore SEMAPHORE;
volatile unsigned short ktest_req__done_semaphore SEMAPHORE;

static FILE *own, *outer;
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

/* A section: @t0 to @t1 inside it, @before to @after around its probes. */
static void keep(uint64_t before, uint64_t t0, uint64_t t1, uint64_t after)
{
	pthread_mutex_lock(&own_lock);
	fprintf(own, "%llu\n", (unsigned long long)(t1 - t0));
	fprintf(outer, "%llu\n", (unsigned long long)(after - before));
	pthread_mutex_unlock(&own_lock);
}

/* One section: on CPU or asleep for @ns inside. */
static void section(uint64_t ns, int asleep)
{
	struct timespec ts = { 0, (long)ns };
	int on = ktest_sec__start_semaphore != 0;
	uint64_t before, t0, t1, after;

	before = now_ns();
	if (on)
		DTRACE_PROBE(ktest, sec__start);
	t0 = now_ns();
	if (asleep)
		nanosleep(&ts, NULL);
	else
		spin_ns(ns);
	t1 = now_ns();
	DTRACE_PROBE(ktest, sec__end);
	after = now_ns();
	pthread_mutex_lock(&own_lock);
	sections++;
	enabled += on;
	pthread_mutex_unlock(&own_lock);
	if (on)
		keep(before, t0, t1, after);
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

/* ktest:val's values: both signs, spread over many slots. */
static long val_of(unsigned int i)
{
	long w = (long)((i * 2654435761u) % 100000u) * (long)(i % 7 + 1);

	return i % 5 == 2 ? -w : w;
}

static __attribute__((noinline)) void val_note(void)
{
	__asm__ volatile("" ::: "memory");
}

/*
 * Not a leaf: gcc gives a leaf function no frame of its own even with
 * -fno-omit-frame-pointer, and a probe there would hide its caller from
 * a frame-pointer walk (perf's, bpftrace's, kstats').
 */
static __attribute__((noinline)) void val_fire(long w)
{
	val_note();
	DTRACE_PROBE2(ktest, val, (int)(w / 3), w);
	__asm__ volatile("" ::: "memory");	/* no tail call: a frame of its own */
}

/* noipa: gcc would fold the identical val_path_a and val_mid into one. */
static __attribute__((noinline, noipa)) void val_path_a(long w)
{
	val_fire(w);
	__asm__ volatile("" ::: "memory");
}

static __attribute__((noinline, noipa)) void val_mid(long w)
{
	val_fire(w);
	__asm__ volatile("" ::: "memory");
}

static __attribute__((noinline, noipa)) void val_path_b(long w)
{
	val_mid(w);
	__asm__ volatile("" ::: "memory");
}

/* Unoptimised: its arguments are spilled to the stack, and read there. */
static __attribute__((noinline, optimize("O0"))) void mem_fire(long w, int v)
{
	DTRACE_PROBE2(ktest, mem, w, v);
}

static void vals(unsigned int n)
{
	unsigned int i, a = 0, b = 0;
	long w;

	for (i = 0; i < n; i++) {
		w = val_of(i);
		if (i % 3 == 2) {
			val_path_b(w);
			b++;
		} else {
			val_path_a(w);
			a++;
		}
		mem_fire(w, (int)(w / 3));
		printf("%d %ld\n", (int)(w / 3), w);
	}
	printf("vals %u %u\n", a, b);
}

static void reqs(unsigned int n, const char *dir)
{
	char path[4200];
	uint64_t t0, t1, size;
	unsigned int i;
	FILE *f;
	int status;

	snprintf(path, sizeof(path), "%s/reqs", dir);
	f = fopen(path, "w");
	if (!f)
		exit(1);
	for (i = 0; i < n; i++) {
		size = 512ull << (i % 9);
		status = i % 4 == 3 ? -(int)(i % 50) - 1 : (int)(i % 13);
		DTRACE_PROBE2(ktest, req__start, i, size);
		t0 = now_ns();
		spin_ns(20000 + (uint64_t)(i * 7919 % 41) * 1000);
		t1 = now_ns();
		DTRACE_PROBE2(ktest, req__done, i, status);
		fprintf(f, "%llu %llu %d\n", (unsigned long long)(t1 - t0),
			(unsigned long long)size, status);
	}
	fclose(f);
	printf("reqs %u\n", n);
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
	uint64_t before, t0, t1, after;

	DTRACE_PROBE(ktest, sec__start);
	before = now_ns();
	DTRACE_PROBE(ktest, sec__start);	/* the first is lost: a miss */
	t0 = now_ns();
	spin_ns(30000);
	t1 = now_ns();
	DTRACE_PROBE(ktest, sec__end);
	after = now_ns();
	keep(before, t0, t1, after);
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
			snprintf(path, sizeof(path), "%s/outer", dir);
			outer = fopen(path, "w");
			if (!own || !outer)
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
			fclose(outer);
			own = NULL;
			printf("edge\n");
		} else if (sscanf(line, "vals %u", &n) == 1) {
			vals(n);
		} else if (sscanf(line, "reqs %u %4095s", &n, dir) == 2) {
			reqs(n, dir);
		} else if (!strcmp(line, "stop\n")) {
			DTRACE_PROBE(ktest, stop);
			printf("stop\n");
		} else if (!strcmp(line, "quit\n")) {
			break;
		}
	}
	return 0;
}

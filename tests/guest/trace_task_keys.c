// SPDX-License-Identifier: GPL-2.0
/*
 * Keys by task and CPU (KSTATS_KEY_PID, _TID, _CPU, _COMM): two
 * processes, one of them with two threads, each thread pinned to its own
 * CPU and given its own name (prctl), make known numbers of the target's
 * calls; kstats' counts per process, per thread, per CPU and per name must
 * be those numbers, exactly, against the ids the kernel gave the tasks
 * (gettid()), the CPUs they were pinned to and the names they took.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include "trace_test.h"

/* Who calls how often, on which CPU: A1 and A2 are one process's threads. */
enum { A1, A2, B, NR_CALLERS };
static const unsigned int calls_of[NR_CALLERS] = { 150, 50, 120 };
/* A space, a slash and a colon, and the longest a name can be (15 bytes). */
static const char *const comm_of[NR_CALLERS] = { "kk a1", "kk/a2:x", "abcdefghijklmno" };

struct caller {
	unsigned int cpu, calls;
	const char *comm;
	pid_t tid;
};

/* Pinned to its CPU (so the call ends there), the caller's calls. */
static void *make_calls(void *arg)
{
	struct caller *c = arg;
	char cmd[32];
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(c->cpu, &set);
	c->tid = gettid();
	if (sched_setaffinity(0, sizeof(set), &set))
		diag("sched_setaffinity(%u): %s", c->cpu, strerror(errno));
	if (prctl(PR_SET_NAME, c->comm))
		diag("PR_SET_NAME %s: %s", c->comm, strerror(errno));
	snprintf(cmd, sizeof(cmd), "errno %u 0", c->calls);
	target(cmd);
	return NULL;
}

/*
 * Runs callers [@first, @last] in a child process (A: the first one in the
 * main thread, the next one in a second thread) and sends back their tids.
 */
static pid_t run_process(struct caller *c, int first, int last)
{
	pid_t tids[NR_CALLERS];
	int p[2], i, st;
	pthread_t th;
	pid_t pid;

	if (pipe(p))
		return -1;
	pid = fork();
	if (!pid) {
		make_calls(&c[first]);
		tids[first] = c[first].tid;
		for (i = first + 1; i <= last; i++) {
			if (pthread_create(&th, NULL, make_calls, &c[i]) || pthread_join(th, NULL))
				_exit(1);
			tids[i] = c[i].tid;
		}
		_exit(write(p[1], &tids[first], (last - first + 1) * sizeof(pid_t)) < 0);
	}
	close(p[1]);
	if (pid < 0 || read(p[0], &tids[first], (last - first + 1) * sizeof(pid_t)) !=
	    (ssize_t)((last - first + 1) * sizeof(pid_t)))
		pid = -1;
	close(p[0]);
	if (pid > 0 && (waitpid(pid, &st, 0) != pid || !WIFEXITED(st) || WEXITSTATUS(st)))
		pid = -1;
	for (i = first; pid > 0 && i <= last; i++)
		c[i].tid = tids[i];
	return pid;
}

static uint64_t key_samples(const char *trace, const char *key, unsigned long long v)
{
	char name[KSTATS_NAME_LEN];

	snprintf(name, sizeof(name), "%s{%s=%llu}", trace, key, v);
	return samples(name);
}

static int possible_cpus(void)
{
	FILE *f = fopen("/sys/devices/system/cpu/possible", "r");
	int lo = 0, hi = 0;

	if (!f || fscanf(f, "%d-%d", &lo, &hi) < 1)
		hi = lo;
	if (f)
		fclose(f);
	return hi + 1;
}

/* NAME{comm=HEX}'s calls: the name in hex, as the module spells it. */
static uint64_t comm_samples(const char *trace, const char *comm)
{
	char name[KSTATS_NAME_LEN];
	int at = snprintf(name, sizeof(name), "%s{comm=", trace);

	for (; *comm; comm++)
		at += snprintf(name + at, sizeof(name) - at, "%02x", (unsigned char)*comm);
	snprintf(name + at, sizeof(name) - at, "}");
	return samples(name);
}

/* Values fixed at TRACE: ids up to PID_MAX_LIMIT, CPUs the machine can have. */
static void task_key_values(const char *m, uint32_t mech)
{
	uint64_t v[1];
	struct kstats_trace t = { .frac_bits = 3, .mechanism = mech, .nr_keys = 1,
				  .func = (uintptr_t)"ktarget_errno", .key_values = (uintptr_t)v };
	struct hist h;

	strcpy((char *)t.name, "t.tkv");
	t.key = KSTATS_KEY_CPU;
	v[0] = (uint64_t)possible_cpus();
	ok(ioctl(fd, KSTATS_IOC_TRACE, &t) && errno == EINVAL && snap("t.tkv", &h) == ENOENT,
	   "%s: --key-values cpu %llu, past the possible CPUs: EINVAL, nothing made", m,
	   (unsigned long long)v[0]);
	v[0]--;
	ok(!ioctl(fd, KSTATS_IOC_TRACE, &t) && key_samples("t.tkv", "cpu", v[0]) == 0 &&
	   !untrace("t.tkv"), "%s: --key-values cpu %llu, the last: its metric from the start",
	   m, (unsigned long long)v[0]);
	t.key = KSTATS_KEY_TID;
	v[0] = 4194305;
	ok(ioctl(fd, KSTATS_IOC_TRACE, &t) && errno == EINVAL,
	   "%s: --key-values tid 4194305 (past PID_MAX_LIMIT): EINVAL", m);
	t.key = KSTATS_KEY_PID;
	v[0] = 4194304;
	ok(!ioctl(fd, KSTATS_IOC_TRACE, &t) && !untrace("t.tkv"),
	   "%s: --key-values pid 4194304 (PID_MAX_LIMIT): traced", m);
	t.key = KSTATS_KEY_COMM;
	v[0] = 1;
	ok(ioctl(fd, KSTATS_IOC_TRACE, &t) && errno == EINVAL && snap("t.tkv", &h) == ENOENT,
	   "%s: --key-values with a key by comm (its codes are the module's hashes): EINVAL",
	   m);
	strcpy((char *)t.name, "t.tkv.twenty-seven-bytes-ab");
	t.key_values = 0;
	ok(ioctl(fd, KSTATS_IOC_TRACE, &t) && errno == EINVAL,
	   "%s: a key by comm on a NAME of 27 bytes (26 leave room for 15 in hex): EINVAL", m);
}

void test_task_keys(uint32_t mech, const char *m, uint64_t features)
{
	struct req r[] = {
		{ .name = "t.kp", .func = "ktarget_errno", .key = KSTATS_KEY_PID },
		{ .name = "t.kt", .func = "ktarget_errno32", .key = KSTATS_KEY_TID },
		{ .name = "t.kc", .func = "ktarget_errnos", .key = KSTATS_KEY_CPU },
		{ .name = "t.kp1", .func = "ktarget_errno", .key = KSTATS_KEY_PID, .nr_keys = 1 },
		{ .name = "t.km", .func = "ktarget_errno32", .key = KSTATS_KEY_COMM },
		{ .name = "t.km1", .func = "ktarget_errnos", .key = KSTATS_KEY_COMM, .nr_keys = 1 },
	};
	int supported = !!(features & KSTATS_FEAT_TASK_KEYS);
	int comm = !!(features & KSTATS_FEAT_COMM_KEY), nr = comm ? 6 : 4;
	int ncpu = (int)sysconf(_SC_NPROCESSORS_ONLN), i, err = 0, exact = 1;
	struct caller c[NR_CALLERS];
	uint64_t per_cpu[4] = { 0 };
	pid_t pa, pb;
	struct hist h;

	if (!supported) {
		r[0].mech = mech;
		ok(trace(fd, &r[0]) == EINVAL && snap("t.kp", &h) == ENOENT,
		   "%s: a key by pid without KSTATS_FEAT_TASK_KEYS: EINVAL", m);
		return;
	}
	task_key_values(m, mech);
	for (i = 0; i < nr; i++) {
		r[i].mech = mech;
		err |= trace(fd, &r[i]);
	}
	if (!ok(!err, "%s: traces by pid, tid, cpu, pid with one key%s", m,
		comm ? ", comm and comm with one key" : ""))
		return;
	for (i = 0; i < NR_CALLERS; i++) {
		c[i] = (struct caller){ .cpu = (unsigned int)((i + 1) % ncpu), .calls = calls_of[i],
					.comm = comm_of[i] };
		per_cpu[c[i].cpu] += c[i].calls;
	}
	pa = run_process(c, A1, A2);
	pb = run_process(c, B, B);
	if (ok(pa > 0 && pb > 0, "%s: process A (threads %d, %d) and B (%d) made their calls",
	       m, (int)c[A1].tid, (int)c[A2].tid, (int)c[B].tid)) {
		ok(key_samples("t.kp", "pid", pa) == calls_of[A1] + calls_of[A2] &&
		   key_samples("t.kp", "pid", pb) == calls_of[B] && samples("t.kp") == 320,
		   "%s: by pid: A %llu (of 200), B %llu (of 120)", m,
		   (unsigned long long)key_samples("t.kp", "pid", pa),
		   (unsigned long long)key_samples("t.kp", "pid", pb));
		for (i = 0; i < NR_CALLERS; i++)
			exact &= key_samples("t.kt", "tid", c[i].tid) == calls_of[i];
		ok(exact && c[A2].tid != pa, "%s: by tid: 150, 50 and 120, A's second thread "
		   "apart from A", m);
		exact = 1;
		for (i = 0; i < 4; i++)
			exact &= key_samples("t.kc", "cpu", i) == (per_cpu[i] ? per_cpu[i] : ~0ULL);
		ok(exact, "%s: by cpu: each pinned thread's calls on its CPU (%d online)", m, ncpu);
		ok(key_samples("t.kp1", "pid", pa) == 200 && samples("t.kp1{pid=other}") == 120,
		   "%s: one key: the first process 200, the other in {pid=other} (%llu)", m,
		   (unsigned long long)samples("t.kp1{pid=other}"));
		if (comm) {
			exact = samples("t.km") == 320;
			for (i = 0; i < NR_CALLERS; i++)
				exact &= comm_samples("t.km", comm_of[i]) == calls_of[i];
			ok(exact, "%s: by comm: '%s' 150, '%s' 50, '%s' 120 (names in hex)", m,
			   comm_of[A1], comm_of[A2], comm_of[B]);
			ok(comm_samples("t.km1", comm_of[A1]) == 150 &&
			   samples("t.km1{comm=other}") == 170,
			   "%s: by comm, one key: the first name 150, the others in {comm=other} "
			   "(%llu)", m, (unsigned long long)samples("t.km1{comm=other}"));
		}
	}
	for (i = 0; i < nr; i++)
		untrace(r[i].name);
}

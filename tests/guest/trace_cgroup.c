// SPDX-License-Identifier: GPL-2.0
/*
 * Traces by cgroup (KSTATS_TRACE_CGROUP, KSTATS_KEY_CGROUP): two processes,
 * one in each of two sibling cgroups v2, each make exactly CG_CALLS calls;
 * kstats must count each cgroup's own, by key and by filter; a section and
 * a point (one tracepoint's value) by key too. A cgroup's id
 * is its directory's inode number (cgroup_id() is its kernfs node's id).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/ioctl.h>
#include <sys/wait.h>
#include <unistd.h>
#include <linux/magic.h>

#include "trace_test.h"

#define CG		"/sys/fs/cgroup"
#define CG_TOP		CG "/kstats-t"
#define CG_CALLS	100000		/* of ktarget_empty() in each cgroup */
#define CG_SECTIONS	50		/* tracepoint sections in cgroup b */

/* The cgroup v2 hierarchy at CG, mounted if need be. */
static int cgroup2_ready(void)
{
	struct statfs s;

	if (!statfs(CG, &s) && s.f_type == CGROUP2_SUPER_MAGIC)
		return 1;
	if (mount("cgroup2", CG, "cgroup2", 0, NULL))
		return 0;
	return !statfs(CG, &s) && s.f_type == CGROUP2_SUPER_MAGIC;
}

static unsigned long long cg_id(const char *dir)
{
	struct stat st;

	return stat(dir, &st) ? 0 : (unsigned long long)st.st_ino;
}

/* A process that joins cgroup @dir, then runs @cmd at the target: its calls, or ~0. */
static uint64_t run_in(const char *dir, const char *cmd)
{
	char path[128], pid[24];
	uint64_t calls = ~0ULL;
	int p[2], cg, status;
	pid_t child;

	if (pipe(p))
		return ~0ULL;
	child = fork();
	if (!child) {
		snprintf(path, sizeof(path), "%s/cgroup.procs", dir);
		snprintf(pid, sizeof(pid), "%d", getpid());
		cg = open(path, O_WRONLY);
		if (cg >= 0 && write(cg, pid, strlen(pid)) == (ssize_t)strlen(pid))
			calls = target(cmd);
		else
			diag("cannot join %s: %s", dir, strerror(errno));
		_exit(write(p[1], &calls, sizeof(calls)) != sizeof(calls));
	}
	close(p[1]);
	if (child < 0 || read(p[0], &calls, sizeof(calls)) != sizeof(calls))
		calls = ~0ULL;
	close(p[0]);
	if (child > 0)
		waitpid(child, &status, 0);
	return calls;
}

static void cgroup_refusals(const char *m, uint32_t mech)
{
	char name[KSTATS_NAME_LEN];
	struct req r = { .name = "t.cgbad", .func = "ktarget_empty", .mech = mech,
			 .flags = KSTATS_TRACE_CGROUP };
	int file = open(CG "/cgroup.procs", O_RDONLY), dir = open("/tmp", O_RDONLY | O_DIRECTORY);
	struct hist h;

	r.cgroup_fd = -1;
	ok(trace(fd, &r) == EBADF, "%s: --cgroup with fd -1: EBADF", m);
	r.cgroup_fd = file;
	ok(trace(fd, &r) == EBADF, "%s: --cgroup with a cgroup's file, not its directory: EBADF", m);
	r.cgroup_fd = dir;
	ok(trace(fd, &r) == EBADF && snap("t.cgbad", &h) == ENOENT,
	   "%s: --cgroup with a directory not in a cgroup v2 hierarchy: EBADF, nothing made", m);
	r.flags = 0;
	ok(trace(fd, &r) == EINVAL, "%s: a cgroup_fd without KSTATS_TRACE_CGROUP: EINVAL", m);
	close(file);
	close(dir);
	/* NAME{cgroup=18446744073709551615} must fit: 34 bytes do, 35 do not. */
	snprintf(name, sizeof(name), "%035d", 0);
	r = (struct req){ .name = name, .func = "ktarget_empty", .mech = mech,
			  .key = KSTATS_KEY_CGROUP };
	ok(trace(fd, &r) == EINVAL && snap(name, &h) == ENOENT,
	   "%s: --by cgroup with a 35-byte name: EINVAL, nothing made", m);
	name[34] = 0;
	ok(trace(fd, &r) == 0 && untrace(name) == 0,
	   "%s: --by cgroup with a 34-byte name: traced, untraced", m);
}

static void cgroup_counts(const char *m, const char *a, const char *b)
{
	unsigned long long ida = cg_id(a), idb = cg_id(b);
	char ka[KSTATS_NAME_LEN], kb[KSTATS_NAME_LEN], pa[KSTATS_NAME_LEN], pb[KSTATS_NAME_LEN];
	struct hist h;

	snprintf(ka, sizeof(ka), "t.cg{cgroup=%llu}", ida);
	snprintf(kb, sizeof(kb), "t.cg{cgroup=%llu}", idb);
	snprintf(pa, sizeof(pa), "t.cgp{cgroup=%llu}", ida);
	snprintf(pb, sizeof(pb), "t.cgp{cgroup=%llu}", idb);
	ok(samples("t.cg") == 2 * CG_CALLS && samples(ka) == CG_CALLS && samples(kb) == CG_CALLS &&
	   samples("t.cg{cgroup=other}") == ~0ULL,
	   "%s: --by cgroup: %d calls in each of a (%llu) and b (%llu): t.cg %llu, a %llu, "
	   "b %llu, no other", m, CG_CALLS, ida, idb, (unsigned long long)samples("t.cg"),
	   (unsigned long long)samples(ka), (unsigned long long)samples(kb));
	if (snap(ka, &h))
		h.sn.kind = 0;
	ok(h.sn.kind == KSTATS_KIND_KEY, "%s: %s is of kind KEY (%u)", m, ka, h.sn.kind);
	ok(samples("t.cga") == CG_CALLS,
	   "%s: --cgroup a: its own %d calls only (%llu)", m, CG_CALLS,
	   (unsigned long long)samples("t.cga"));
	ok(samples("t.cgp") == 2 * CG_CALLS && samples(pa) == CG_CALLS && samples(pb) == CG_CALLS,
	   "%s: --cgroup of their parent, --by cgroup: both below it, each by its own "
	   "(%llu: %llu, %llu)", m, (unsigned long long)samples("t.cgp"),
	   (unsigned long long)samples(pa), (unsigned long long)samples(pb));
}

/* A section's end keys it by cgroup too: tracepoints, in the writer's task. */
static void cgroup_section(const char *m, const char *b)
{
	char kb[KSTATS_NAME_LEN];
	struct req r = { .name = "t.cgs", .start = "tp:kstats_target:ktarget_begin",
			 .end = "tp:kstats_target:ktarget_end", .key = KSTATS_KEY_CGROUP };
	uint64_t calls, in_b, all;
	char cmd[32];

	snprintf(kb, sizeof(kb), "t.cgs{cgroup=%llu}", cg_id(b));
	snprintf(cmd, sizeof(cmd), "tpsection 0 %d", CG_SECTIONS);
	if (!ok(trace(fd, &r) == 0, "%s: a section by cgroup", m))
		return;
	calls = run_in(b, cmd);
	in_b = samples(kb);
	all = samples("t.cgs");
	ok(calls == CG_SECTIONS && in_b == CG_SECTIONS && all == CG_SECTIONS,
	   "%s: a section by cgroup: %d sections in b, all in %s (%llu of %llu)", m,
	   CG_SECTIONS, kb, (unsigned long long)in_b, (unsigned long long)all);
	untrace("t.cgs");
}

/*
 * A point keyed by cgroup (a value at every hit of one tracepoint): the
 * target's ktarget_value_start(o, v) events, all from a process in b; v
 * read unsigned, so every hit is in NAME and in b's key.
 */
static void cgroup_point(const char *m, const char *b)
{
	struct kstats_expr x = { .flags = KSTATS_EXPR_VALUE,
				 .value = { .source = KSTATS_OPERAND_ARG, .index = 1, .size = 8 } };
	struct kstats_trace t = {
		.func = (uintptr_t)"tp:kstats_target:ktarget_value_start", .sample_every = 1,
		.key = KSTATS_KEY_CGROUP, .expr = (uintptr_t)&x, .name = "t.cgv",
	};
	struct kstats_info info = { 0 };
	char kb[KSTATS_NAME_LEN], cmd[32];
	uint64_t calls, in_b, all;

	if (ioctl(fd, KSTATS_IOC_INFO, &info) || !(info.features & KSTATS_FEAT_EXPR)) {
		ok(1, "# SKIP %s: a point by cgroup: no expr", m);
		return;
	}
	snprintf(kb, sizeof(kb), "t.cgv{cgroup=%llu}", cg_id(b));
	snprintf(cmd, sizeof(cmd), "values %d 5 64", CG_SECTIONS);
	if (!ok(ioctl(fd, KSTATS_IOC_TRACE, &t) == 0, "%s: a point by cgroup", m))
		return;
	calls = run_in(b, cmd);
	in_b = samples(kb);
	all = samples("t.cgv");
	ok(calls == CG_SECTIONS && in_b == CG_SECTIONS && all == CG_SECTIONS &&
	   samples("t.cgv{cgroup=other}") == ~0ULL,
	   "%s: a point by cgroup: %d hits in b, all in %s (%llu of %llu), no other", m,
	   CG_SECTIONS, kb, (unsigned long long)in_b, (unsigned long long)all);
	untrace("t.cgv");
}

void test_cgroup(uint32_t mech, const char *m, int supported, int tracepoints)
{
	const char *a = CG_TOP "/a", *b = CG_TOP "/b";
	char cmd[32];
	struct req r[] = {
		{ .name = "t.cg", .func = "ktarget_empty", .key = KSTATS_KEY_CGROUP },
		{ .name = "t.cga", .func = "ktarget_empty", .flags = KSTATS_TRACE_CGROUP },
		{ .name = "t.cgp", .func = "ktarget_empty", .flags = KSTATS_TRACE_CGROUP,
		  .key = KSTATS_KEY_CGROUP },
	};
	int i, err = 0, dir_a, dir_top;
	struct hist h;

	if (!supported) {
		ok(trace(fd, &r[0]) == EINVAL && snap("t.cg", &h) == ENOENT,
		   "%s: --by cgroup without KSTATS_FEAT_CGROUP: EINVAL", m);
		return;
	}
	if (!ok(cgroup2_ready(), "%s: cgroup v2 at " CG, m))
		return;
	cgroup_refusals(m, mech);
	if (!ok((!mkdir(CG_TOP, 0755) || errno == EEXIST) && (!mkdir(a, 0755) || errno == EEXIST) &&
		(!mkdir(b, 0755) || errno == EEXIST), "%s: cgroups %s and %s", m, a, b))
		return;
	dir_a = open(a, O_RDONLY | O_DIRECTORY);
	dir_top = open(CG_TOP, O_RDONLY | O_DIRECTORY);
	r[1].cgroup_fd = dir_a;
	r[2].cgroup_fd = dir_top;
	for (i = 0; i < 3; i++) {
		r[i].mech = mech;
		err |= trace(fd, &r[i]);
	}
	if (ok(!err, "%s: three traces by cgroup", m)) {
		snprintf(cmd, sizeof(cmd), "empty %d", CG_CALLS);
		ok(run_in(a, cmd) == CG_CALLS && run_in(b, cmd) == CG_CALLS,
		   "%s: %d calls from a process in each cgroup", m, CG_CALLS);
		cgroup_counts(m, a, b);
		/* The trace holds its cgroup: the directory can go; it then sees nothing. */
		ok(!rmdir(a) && target("empty 10") == 10 && samples("t.cga") == CG_CALLS,
		   "%s: a removed under --cgroup a: the trace stays, recording nothing", m);
		ok(trace(fd, &(struct req){ .name = "t.cga2", .func = "ktarget_empty",
					    .mech = mech, .flags = KSTATS_TRACE_CGROUP,
					    .cgroup_fd = dir_a }) == ENOENT,
		   "%s: --cgroup of a removed cgroup: ENOENT", m);
	}
	for (i = 0; i < 3; i++)
		untrace(r[i].name);
	ok(samples("t.cg") == ~0ULL && samples("t.cgp{cgroup=other}") == ~0ULL &&
	   snap("t.cga", &h) == ENOENT, "%s: untrace removes them", m);
	if (tracepoints) {
		cgroup_section(m, b);
		cgroup_point(m, b);
	}
	close(dir_a);
	close(dir_top);
	rmdir(a);
	ok(!rmdir(b) && !rmdir(CG_TOP), "%s: the cgroups removed", m);
}

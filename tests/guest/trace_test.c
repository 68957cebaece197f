// SPDX-License-Identifier: GPL-2.0
/*
 * Tracing tests, run in the guest with kstats.ko and kstats_target.ko
 * loaded. Each checks what a traced function's histogram must show given
 * how tests/kmod/ktarget_main.c called it. Prints TAP.
 *
 *   trace_test		all tests but churn
 *   trace_test churn MECH [N]	trace/untrace xN (100) while every CPU calls the target
 *   trace_test leave NAME [MECH]	attach a persistent trace NAME and exit (rmmod tests)
 *   trace_test detached NAME N [call]	NAME's module left: it is detached, keeps
 *				its N samples (and records none of [call]'s)
 *   trace_test lockdown	TRACE must fail with EPERM, INFO must say so
 */
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "trace_expr.h"

static const char *mech_name(uint32_t m)
{
	return m == KSTATS_MECH_FPROBE ? "fprobe" : "kretprobe";
}

/*
 * fprobe runs on the function graph from Linux 6.14: per-call data on the
 * task's shadow stack, no instance pool, so maxactive has no effect there
 * (kstats(4) says so).
 */
static int fprobe_on_fgraph(void)
{
	struct utsname u;
	int major = 0, minor = 0;

	uname(&u);
	sscanf(u.release, "%d.%d", &major, &minor);
	return major > 6 || (major == 6 && minor >= 14);
}

static void test_function(uint32_t mech, int ncpus)
{
	const char *m = mech_name(mech);
	struct req r = { .name = "t.empty", .func = "ktarget_empty", .mech = mech };
	uint64_t calls, tick = 1000000000ULL / hz;
	struct hist h, g;
	uint32_t s, mode = 0;

	if (!ok(trace(fd, &r) == 0, "%s: trace ktarget_empty", m))
		return;
	calls = target("empty 2000");
	snap("t.empty", &h);
	accounted(m, &h, calls);
	ok(h.sn.floor_ns > 0 && h.sn.kind == KSTATS_KIND_TRACE,
	   "%s: probe floor measured at attach: %llu ns", m,
	   (unsigned long long)h.sn.floor_ns);
	snap("GAP-t.empty", &g);
	/* One gap per call after the first on each CPU it ran on. */
	ok(g.sn.kind == KSTATS_KIND_GAP && g.total + ncpus >= calls && g.total < calls,
	   "%s: GAP-t.empty recorded %llu gaps for %llu calls", m,
	   (unsigned long long)g.total, (unsigned long long)calls);
	calls += target("hammer 3000");
	snap("t.empty", &h);
	accounted("all CPUs at once", &h, calls);
	ok(untrace("t.empty") == 0 && snap("t.empty", &h) == ENOENT &&
	   snap("GAP-t.empty", &g) == ENOENT, "%s: untrace removes both metrics", m);

	/* Sleeping calls, also migrating half way, land at their duration. */
	r.name = "t.sleep";
	r.func = "ktarget_sleep";
	trace(fd, &r);
	calls = target("sleep 20000 10");
	calls += target("sleep 20000 10 migrate");
	snap("t.sleep", &h);
	accounted("sleeping and migrating calls", &h, calls);
	/*
	 * None may be shorter than the sleep. A call paired with another
	 * call's start (per-CPU or overwritten start times) is off by at least
	 * one whole 20 ms call, and that would hit most migrating calls (10 of
	 * 20): so at most 2 may reach 40 ms, for emulation stalls, which only
	 * lengthen a call. Half of them must be within floor + one tick.
	 */
	ok(within(&h, 20000 * NS_PER_US, 40000 * NS_PER_US - 1, 90) &&
	   within(&h, 20000 * NS_PER_US, 20000 * NS_PER_US + h.sn.floor_ns + tick, 50),
	   "%s: 20 ms sleeps: none shorter, at most 2 of 20 at 40 ms or more, "
	   "half within floor + one tick (%llu ns)", m,
	   (unsigned long long)(h.sn.floor_ns + tick));
	untrace("t.sleep");

	/* Recursion: each level once, with its own duration. */
	r.name = "t.recurse";
	r.func = "ktarget_recurse";
	trace(fd, &r);
	calls = 4 * target("recurse 4 500 20");
	snap("t.recurse", &h);
	accounted("recursive calls, depth 4", &h, calls);
	{
		uint64_t cum = 0, per_level = calls / 4, truth[MAX_CALLS], n, under, over;
		uint32_t b = h.sn.frac_bits, good = 1;

		/*
		 * Level L (from the innermost, 0) works (L + 1) x 500 us in all,
		 * so the sample of rank r (1-based) is at least ceil(r / N) x
		 * 500 us. A tool that let an inner call overwrite the outer's
		 * start time would report every level as short as the innermost.
		 */
		for (s = 0; s < kstats_hist_nslots(b) && good; s++) {
			if (!h.counts[s])
				continue;
			cum += h.counts[s];
			if (kstats_slot_last(s, b) <
			    (cum + per_level - 1) / per_level * 500 * NS_PER_US)
				good = 0;
		}
		if (!ok(good && per_level, "%s: every level at least its own duration", m))
			dump(&h);
		/*
		 * And each sample is its own call's: at least what the call took
		 * from its first line to its last (the target measures that with
		 * the probes' clock), and less than one level (500 us) more. Sorting
		 * keeps this true rank by rank. A tool that let an inner call
		 * overwrite the outer's start time puts samples below their call; one
		 * that timed inner calls from an outer entry puts a quarter or more
		 * of them (a whole level) 500 us or more over. Emulation stalls in
		 * the probe's few microseconds only lengthen isolated calls: up to
		 * an eighth may be over, half of what the smallest such bug gives.
		 */
		n = read_durations(truth, MAX_CALLS);
		under = against_truth(&h, truth, n, 500 * NS_PER_US, &over);
		if (!ok(n == h.total && !under && over * 8 <= n,
			"%s: each sample within [own duration, +500 us) of its call, as the "
			"target measured it: %llu of %llu below, %llu a level over", m,
			(unsigned long long)under, (unsigned long long)n,
			(unsigned long long)over))
			dump(&h);
	}
	untrace("t.recurse");

	/* GAP: calls 5 ms apart on one CPU. */
	r.name = "t.gap";
	r.func = "ktarget_empty";
	trace(fd, &r);
	target("interval 5000 40");
	snap("GAP-t.gap", &g);
	for (s = 0; s < kstats_hist_nslots(g.sn.frac_bits); s++)
		if (g.counts[s] > g.counts[mode])
			mode = s;
	{
		uint64_t mean = kstats_slot_mean(mode, g.sn.frac_bits, g.counts[mode],
						 g.parts[mode]);

		ok(mean >= 5000 * NS_PER_US && mean <= 5000 * NS_PER_US + tick + g.sn.floor_ns,
		   "%s: GAP mode at the 5 ms interval (%llu ns)", m,
		   (unsigned long long)mean);
	}
	untrace("t.gap");

	/*
	 * maxactive 1: only the outermost call of each recursion has an
	 * instance; fprobe on the function graph has no instances to bound.
	 */
	r = (struct req){ .name = "t.max", .func = "ktarget_recurse", .mech = mech,
			  .maxactive = 1 };
	if (ok(trace(fd, &r) == 0, "%s: trace with maxactive 1", m)) {
		calls = target("recurse 4 200 10");
		snap("t.max", &h);
		if (mech == KSTATS_MECH_FPROBE && fprobe_on_fgraph())
			ok(calls == 10 && h.total == 40 && h.sn.misses == 0,
			   "%s: maxactive 1, depth 4, on the function graph (6.14+): "
			   "no bound, all 40 calls recorded: %llu + %llu", m,
			   (unsigned long long)h.total, (unsigned long long)h.sn.misses);
		else
			ok(calls == 10 && h.total == 10 && h.sn.misses == 30 &&
			   within(&h, 800 * NS_PER_US, UINT64_MAX, 100),
			   "%s: maxactive 1, depth 4: the 10 outermost calls (>= 800 us) "
			   "recorded, the 30 inner missed: %llu + %llu", m,
			   (unsigned long long)h.total, (unsigned long long)h.sn.misses);
		untrace("t.max");
	}

	/* A CPU list: only calls made on those CPUs. */
	r = (struct req){ .name = "t.cpu", .func = "ktarget_empty", .mech = mech,
			  .flags = KSTATS_TRACE_CPUS, .cpus = 1ULL << (ncpus - 1) };
	if (ok(trace(fd, &r) == 0, "%s: trace on CPU %d only", m, ncpus - 1)) {
		calls = target("hammer 1000");
		snap("t.cpu", &h);
		ok(calls == 1000ULL * ncpus && h.total + h.sn.misses == 1000 &&
		   h.cpu_mask == r.cpus,
		   "%s: of %llu calls on %d CPUs, the 1000 on CPU %d: %llu + %llu, "
		   "CPUs 0x%llx", m, (unsigned long long)calls, ncpus, ncpus - 1,
		   (unsigned long long)h.total, (unsigned long long)h.sn.misses,
		   (unsigned long long)h.cpu_mask);
		untrace("t.cpu");
	}

	/* module:function */
	r = (struct req){ .name = "t.mod", .func = "kstats_target:ktarget_empty", .mech = mech };
	if (ok(trace(fd, &r) == 0, "%s: trace kstats_target:ktarget_empty", m)) {
		calls = target("empty 100");
		snap("t.mod", &h);
		accounted("module:function", &h, calls);
		untrace("t.mod");
	}
}

static uint64_t floor_of(uint32_t mech)
{
	struct req r = { .name = "t.floor", .func = "ktarget_empty", .mech = mech };
	struct hist h = { 0 };

	if (trace(fd, &r) || snap("t.floor", &h) || untrace("t.floor"))
		return 0;
	return h.sn.floor_ns;
}

/* The kstats_floor_* functions ftrace probes: how many, shared, fprobe's. */
static unsigned int floor_funcs(unsigned int *shared, unsigned int *fprobe)
{
	FILE *f = tracefs_ready() ? fopen(TRACEFS "enabled_functions", "r") : NULL;
	unsigned int funcs = 0;
	char line[256];

	*shared = *fprobe = 0;
	while (f && fgets(line, sizeof(line), f)) {
		if (strncmp(line, "kstats_floor_", 13) || !strchr(line, '('))
			continue;
		funcs++;
		*fprobe += !strncmp(line, "kstats_floor_fprobe", 19);
		if (strtoul(strchr(line, '(') + 1, NULL, 10) != 1) {
			diag("%s", line);
			(*shared)++;
		}
	}
	if (f)
		fclose(f);
	return funcs;
}

/*
 * The probe floor of a mechanism is the same whatever was traced before:
 * no floor probe may sit on another's empty function, or a floor measured
 * later would include the other probe's whole cost. Traced with kretprobe,
 * then fprobe (kept), then kretprobe again: ftrace's enabled_functions
 * must list a kstats_floor_* function per mechanism, each with exactly one
 * user. The fprobe one goes with the last fprobe trace (a kept fprobe
 * makes the function_graph tracer warn on 6.14+); the kretprobe one stays.
 */
static void test_floor(void)
{
	struct req r = { .name = "t.fpkeep", .func = "ktarget_empty",
			 .mech = KSTATS_MECH_FPROBE };
	uint64_t kr1 = floor_of(KSTATS_MECH_KRETPROBE), fp = 0, kr2;
	unsigned int funcs, shared, fprobe, after, shared2, fprobe2;
	struct hist h = { 0 };

	if (!trace(fd, &r) && !snap("t.fpkeep", &h))
		fp = h.sn.floor_ns;
	kr2 = floor_of(KSTATS_MECH_KRETPROBE);
	funcs = floor_funcs(&shared, &fprobe);
	ok(kr1 && fp && kr2 && funcs == 2 && !shared && fprobe == 1,
	   "floor: kretprobe %llu ns, then fprobe %llu ns, then kretprobe %llu ns again, "
	   "on %u empty functions, %u shared", (unsigned long long)kr1,
	   (unsigned long long)fp, (unsigned long long)kr2, funcs, shared);
	untrace("t.fpkeep");
	after = floor_funcs(&shared2, &fprobe2);
	ok(after == 1 && !fprobe2 && !shared2,
	   "floor: fprobe's floor probe gone with the last fprobe trace, kretprobe's kept "
	   "(%u probed)", after);
}

static void test_sections(int ncpus)
{
	struct req r = { .name = "t.section", .start = "ktarget_sec_start",
			 .end = "ktarget_sec_end" };
	struct hist h;
	uint64_t calls;
	char path[64];
	int err;

	err = trace(fd, &r);
	if (ok(err == 0, "section: trace ktarget_sec_start..ktarget_sec_end (%s)", strerror(err))) {
		calls = target("section 400 20");
		snap("t.section", &h);
		ok(h.sn.kind == KSTATS_KIND_TRACE && snap("GAP-t.section", &h) == ENOENT,
		   "section: no GAP metric");
		snap("t.section", &h);
		accounted("sections migrating between CPUs", &h, calls);
		ok(calls == 20ULL * ncpus && within(&h, 400 * NS_PER_US, UINT64_MAX, 100),
		   "section: every sample >= the 400 us inside it");
		untrace("t.section");
	}

	/* Tracepoints: kmalloc to kfree in one kthread, by pid. */
	target("kmalloc_prepare");
	snprintf(path, sizeof(path), TARGET "pid");
	r = (struct req){ .name = "t.tp", .start = "tp:kmem:kmalloc",
			  .end = "tp:kmem:kfree", .flags = KSTATS_TRACE_PID,
			  .pid = (int64_t)read_u64(path) };
	err = trace(fd, &r);
	ok(err == 0, "tracepoints: trace tp:kmem:kmalloc..tp:kmem:kfree for pid %lld (%s)",
	   (long long)r.pid, strerror(err));
	calls = target("kmalloc_go 300 50");
	snap("t.tp", &h);
	ok(h.total == 50 && calls == 50 && within(&h, 300 * NS_PER_US, UINT64_MAX, 100),
	   "tracepoints: 50 kmalloc..kfree sections of >= 300 us, got %llu",
	   (unsigned long long)h.total);
	untrace("t.tp");

	/*
	 * A module's own trace events, by system:event. The events' module is
	 * held while traced (rmmod refused), and free again after untrace.
	 */
	r = (struct req){ .name = "t.modtp", .start = "tp:kstats_target:ktarget_begin",
			  .end = "tp:kstats_target:ktarget_end" };
	err = trace(fd, &r);
	ok(err == 0, "module tracepoints: trace tp:kstats_target:ktarget_begin..ktarget_end (%s)",
	   strerror(err));
	calls = target("tpsection 200 40");
	snap("t.modtp", &h);
	ok(h.total == 40 && calls == 40 && within(&h, 200 * NS_PER_US, UINT64_MAX, 100),
	   "module tracepoints: 40 sections of >= 200 us, got %llu",
	   (unsigned long long)h.total);
	err = syscall(__NR_delete_module, "kstats_target", O_NONBLOCK) ? errno : 0;
	ok(err == EWOULDBLOCK || err == EBUSY,
	   "module tracepoints: their module is held while traced (%s)", strerror(err));
	untrace("t.modtp");
}

/*
 * A real kernel function, on this process's calls only: tcp_sendmsg over
 * loopback, or, in a kernel without IPv4, unix_stream_sendmsg over a socket
 * pair, or, without sockets at all (the debug kernel: its build time),
 * pipe_write over a pipe: the same kstats paths, on a function that may sleep.
 */
static int tcp_pair(int sv[2])
{
	struct sockaddr_in a = { .sin_family = AF_INET,
				 .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
	socklen_t len = sizeof(a);
	int l = socket(AF_INET, SOCK_STREAM, 0);

	sv[0] = socket(AF_INET, SOCK_STREAM, 0);
	sv[1] = -1;
	if (l < 0 || sv[0] < 0 || bind(l, (void *)&a, sizeof(a)) || listen(l, 1) ||
	    getsockname(l, (void *)&a, &len) || connect(sv[0], (void *)&a, sizeof(a))) {
		int err = errno;

		if (l >= 0)
			close(l);
		if (sv[0] >= 0)
			close(sv[0]);
		errno = err;
		return -1;
	}
	sv[1] = l;	/* the listener: closed with the pair */
	return 0;
}

static void test_socket_send(void)
{
	struct req r = { .name = "tcp_sendmsg", .func = "tcp_sendmsg",
			 .flags = KSTATS_TRACE_TGID, .tgid = getpid() };
	char data[100] = { 0 };
	int i, sent = 0, sv[2], drain = -1;
	struct hist h;

	if (tcp_pair(sv)) {
		int why = errno;

		if (why != EAFNOSUPPORT && why != ENOSYS) {
			ok(0, "socket: loopback TCP connection: %s", strerror(why));
			return;
		}
		if (why == EAFNOSUPPORT) {
			diag("no IPv4 in this kernel: unix_stream_sendmsg over a socket pair");
			r.name = r.func = "unix_stream_sendmsg";
			if (socketpair(AF_UNIX, SOCK_STREAM, 0, sv)) {
				ok(0, "socket: socketpair: %s", strerror(errno));
				return;
			}
		} else {
			diag("no sockets in this kernel: pipe_write over a pipe");
			r.name = r.func = "pipe_write";
			if (pipe(sv)) {
				ok(0, "socket: pipe: %s", strerror(errno));
				return;
			}
			i = sv[0];	/* written at sv[0], read at sv[1] */
			sv[0] = sv[1];
			sv[1] = i;
		}
		/* Read as it goes: 300 small writes fill a UNIX socket's buffer. */
		drain = sv[1];
	}
	if (!ok(trace(fd, &r) == 0, "socket: trace %s for this process", r.func))
		return;
	for (i = 0; i < 300; i++) {
		sent += write(sv[0], data, sizeof(data)) == sizeof(data);
		if (drain >= 0 && read(drain, data, sizeof(data)) != sizeof(data))
			break;
	}
	snap(r.name, &h);
	ok(sent == 300 && h.total + h.sn.misses == 300 && h.total > 0,
	   "socket: %s: %d writes, %llu samples + %llu misses", r.func, sent,
	   (unsigned long long)h.total, (unsigned long long)h.sn.misses);
	untrace(r.name);
	close(sv[0]);
	close(sv[1]);
}

static void test_refusals(int have_fprobe)
{
	struct req r = { .name = "t.bad" };
	static const struct { const char *func; int err; const char *why; } bad[] = {
		{ "kstats_record", ENOENT, "an inline: no such function" },
		{ "kstats_reset", ELOOP, "kstats' own code would recurse" },
		{ "kstats:kstats_floor_fprobe", ELOOP, "kstats' own code, module-qualified" },
		{ "notify_die", EINVAL, "on the kprobe blacklist" },
		{ "no_such_function_kstats", ENOENT, "unknown symbol" },
		{ "kstats:ktarget_empty", ENOENT, "not in that module" },
	};
	unsigned int i;
	int err;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		r.func = bad[i].func;
		err = trace(fd, &r);
		ok(err == bad[i].err, "refuse %s (%s): %s", bad[i].func, bad[i].why,
		   strerror(err));
	}
	r = (struct req){ .name = "t.dup", .func = "ktarget_empty" };
	trace(fd, &r);
	ok(trace(fd, &r) == EEXIST, "a second trace of the same name: EEXIST");
	r.name = "GAP-t.dup";
	ok(trace(fd, &r) == EEXIST, "a trace named like an existing metric: EEXIST");
	ok(untrace("GAP-t.dup") == ENOENT, "untrace of a GAP metric: ENOENT");
	untrace("t.dup");
	{
		static const char *const tps[][2] = {
			{ "tp:ktarget_begin", "a module's event without its system" },
			{ "tp:kmem:ktarget_begin", "an event in another system" },
			{ "tp:nosuch:sched_switch", "a core event in a system that does not exist" },
		};

		for (i = 0; i < sizeof(tps) / sizeof(tps[0]); i++) {
			r = (struct req){ .name = "t.badtp", .start = tps[i][0],
					  .end = "tp:kstats_target:ktarget_end" };
			err = trace(fd, &r);
			ok(err == ENOENT, "refuse %s (%s): %s", tps[i][0], tps[i][1],
			   strerror(err));
		}
	}
	r = (struct req){ .name = "t.mixed", .start = "tp:kmem:kmalloc", .end = "ktarget_sec_end" };
	ok(trace(fd, &r) == EINVAL, "a section from a tracepoint to a function: EINVAL");
	r = (struct req){ .name = "t.nofp", .func = "ktarget_empty", .mech = KSTATS_MECH_FPROBE };
	err = trace(fd, &r);
	ok(have_fprobe ? err == 0 : err == EOPNOTSUPP, "fprobe %s: %s",
	   have_fprobe ? "available" : "unavailable (EOPNOTSUPP)", strerror(err));
	untrace("t.nofp");
	r = (struct req){ .name = "t.pid", .func = "ktarget_empty",
			  .flags = KSTATS_TRACE_PID, .pid = 999999 };
	ok(trace(fd, &r) == ESRCH, "a pid filter for no such process: ESRCH");
}

static void test_churn(uint32_t mech, int rounds)
{
	struct req r = { .name = "t.churn", .func = "ktarget_empty", .mech = mech };
	int i, bad = 0;

	target("spin");
	for (i = 0; i < rounds; i++)
		bad += trace(fd, &r) != 0 || untrace("t.churn") != 0;
	target("stop");
	ok(!bad && rounds > 0, "%s: trace/untrace x%d while every CPU calls the function (%d failed)",
	   mech_name(mech), rounds, bad);
}

static void test_autoremove(void)
{
	struct req r = { .name = "t.auto", .func = "ktarget_empty",
			 .flags = KSTATS_TRACE_AUTOREMOVE };
	int other = open(KSTATS_DEVICE, O_RDWR);
	struct hist h;

	ok(trace(other, &r) == 0 && snap("t.auto", &h) == 0, "autoremove trace attached");
	close(other);
	ok(snap("t.auto", &h) == ENOENT && snap("GAP-t.auto", &h) == ENOENT,
	   "autoremove trace gone with its file");
}

int main(int argc, char **argv)
{
	struct kstats_info info = { 0 };
	int ncpus = sysconf(_SC_NPROCESSORS_ONLN);

	fd = open(KSTATS_DEVICE, O_RDWR);
	if (fd < 0 || ioctl(fd, KSTATS_IOC_INFO, &info)) {
		printf("not ok 1 - open %s: %s\n1..1\n0 passed, 1 failed\n",
		       KSTATS_DEVICE, strerror(errno));
		return 1;
	}
	if (argc > 1 && faults_main(argc, argv,
				    !!(info.mechanisms & (1ULL << KSTATS_MECH_FPROBE)))) {
		/* trace_faults.c */
	} else if (argc > 1 && !strcmp(argv[1], "lockdown")) {
		struct req r = { .name = "t.locked", .func = "ktarget_empty" };

		ok(info.flags & KSTATS_INFO_LOCKDOWN, "INFO reports lockdown");
		ok(trace(fd, &r) == EPERM, "TRACE under lockdown: EPERM");
	} else if (argc > 2 && !strcmp(argv[1], "bpftrace-loop")) {
		/* The case that once hung, N times, both mechanisms (by hand). */
		int i, n = atoi(argv[2]);

		for (i = 0; i < n; i++)
			test_bpftrace(info.mechanisms & BPF_MECHS);
	} else if (argc > 2 && !strcmp(argv[1], "self")) {
		/* The self-time checks N times each mechanism (by hand). */
		int i, n = atoi(argv[2]);

		hz = read_u64(TARGET "hz");
		for (i = 0; i < n; i++) {
			if (info.mechanisms & (1ULL << KSTATS_MECH_FPROBE))
				test_self(KSTATS_MECH_FPROBE, "fprobe", 1);
			test_self(KSTATS_MECH_KRETPROBE, "kretprobe", 1);
		}
	} else if (argc > 1 && !strcmp(argv[1], "keys")) {
		/* The keyed-trace checks alone (by hand). */
		if (info.mechanisms & (1ULL << KSTATS_MECH_FPROBE)) {
			test_keys(KSTATS_MECH_FPROBE, "fprobe", 1);
			test_task_keys(KSTATS_MECH_FPROBE, "fprobe", info.features);
		}
		test_keys(KSTATS_MECH_KRETPROBE, "kretprobe", 1);
		test_task_keys(KSTATS_MECH_KRETPROBE, "kretprobe", info.features);
	} else if (argc > 1 && !strcmp(argv[1], "shared")) {
		/* Traces sharing one function alone (by hand). */
		int have_fprobe = !!(info.mechanisms & (1ULL << KSTATS_MECH_FPROBE));

		if (have_fprobe)
			test_shared(KSTATS_MECH_FPROBE, "fprobe", 1, 1);
		test_shared(KSTATS_MECH_KRETPROBE, "kretprobe", 1, have_fprobe);
	} else if (argc > 4 && !strcmp(argv[1], "expr-bench")) {
		/* make bench: NAME MECH KIND, left attached (trace_expr.c). */
		int err = expr_bench_trace(argv[2], argv[3], argv[4]);

		if (err)
			fprintf(stderr, "error: TRACE %s: %s\n", argv[2], strerror(err));
		return !!err;
	} else if (argc > 1 && !strcmp(argv[1], "expr")) {
		/* Values and predicates alone (by hand). */
		int have_fprobe = !!(info.mechanisms & (1ULL << KSTATS_MECH_FPROBE));
		int have_expr = !!(info.features & KSTATS_FEAT_EXPR);

		test_expr_abi(have_expr);
		test_expr_tp(have_expr &&
			     !!(info.mechanisms & (1ULL << KSTATS_MECH_TRACEPOINT)));
		test_expr_fsec(have_expr);
		if (have_fprobe)
			test_expr(KSTATS_MECH_FPROBE, "fprobe", have_expr);
		test_expr(KSTATS_MECH_KRETPROBE, "kretprobe", have_expr);
		test_expr_bpftrace(have_fprobe, have_expr,
				   !!(info.mechanisms & (1ULL << KSTATS_MECH_TRACEPOINT)), 0, NULL);
	} else if (argc > 2 && !strcmp(argv[1], "expr-bpftrace3")) {
		/* Debian 13's bpftrace in the root argv[2]: hist(n, 3) at frac_bits 3. */
		test_expr_bpftrace(!!(info.mechanisms & (1ULL << KSTATS_MECH_FPROBE)),
				   !!(info.features & KSTATS_FEAT_EXPR), 0, 3, argv[2]);
	} else if (argc > 1 && !strcmp(argv[1], "cgroup")) {
		/* The cgroup checks alone (by hand). */
		if (info.mechanisms & (1ULL << KSTATS_MECH_FPROBE))
			test_cgroup(KSTATS_MECH_FPROBE, "fprobe", 1, 0);
		test_cgroup(KSTATS_MECH_KRETPROBE, "kretprobe", 1,
			    !!(info.mechanisms & (1ULL << KSTATS_MECH_TRACEPOINT)));
	} else if (argc > 2 && !strcmp(argv[1], "churn")) {
		test_churn(strtoul(argv[2], NULL, 0), argc > 3 ? atoi(argv[3]) : 100);

	} else if (argc > 2 && !strcmp(argv[1], "leave")) {
		struct req r = { .name = argv[2], .func = "ktarget_empty" };

		if (argc > 3)
			r.mech = !strcmp(argv[3], "fprobe") ? KSTATS_MECH_FPROBE :
				 !strcmp(argv[3], "kretprobe") ? KSTATS_MECH_KRETPROBE :
				 KSTATS_MECH_AUTO;
		ok(trace(fd, &r) == 0, "a trace %s (%s) left attached", argv[2],
		   argc > 3 ? argv[3] : "auto");
		target("empty 10");
	} else if (argc > 3 && !strcmp(argv[1], "detached")) {
		uint64_t want = strtoull(argv[3], NULL, 0);
		struct hist h;
		int err;

		/* With "call": the target is back; its calls must not count. */
		if (argc > 4 && !strcmp(argv[4], "call"))
			target("empty 10");
		err = snap(argv[2], &h);
		ok(!err && (h.sn.metric_flags & KSTATS_METRIC_DETACHED) &&
		   h.total == want && h.sn.hits == want,
		   "%s: detached (flags 0x%x), keeps its %llu samples (%llu, hits %llu)%s (%s)",
		   argv[2], h.sn.metric_flags, (unsigned long long)want,
		   (unsigned long long)h.total, (unsigned long long)h.sn.hits,
		   argc > 4 ? ", none from the module loaded again" : "", strerror(err));
	} else {
		int have_fprobe = !!(info.mechanisms & (1ULL << KSTATS_MECH_FPROBE));
		int have_self = !!(info.features & KSTATS_FEAT_SELF);
		int have_keys = !!(info.features & KSTATS_FEAT_KEYS);
		int have_cgroup = !!(info.features & KSTATS_FEAT_CGROUP);
		int have_expr = !!(info.features & KSTATS_FEAT_EXPR);

		hz = read_u64(TARGET "hz");
		diag("mechanisms 0x%llx, HZ %llu", (unsigned long long)info.mechanisms,
		     (unsigned long long)hz);
		if (have_fprobe) {
			test_floor();
			test_function(KSTATS_MECH_FPROBE, ncpus);
			test_oracles(KSTATS_MECH_FPROBE, "fprobe");
			test_self(KSTATS_MECH_FPROBE, "fprobe", have_self);
			test_keys(KSTATS_MECH_FPROBE, "fprobe", have_keys);
			test_task_keys(KSTATS_MECH_FPROBE, "fprobe", info.features);
			test_cgroup(KSTATS_MECH_FPROBE, "fprobe", have_cgroup, 0);
			test_shared(KSTATS_MECH_FPROBE, "fprobe", have_self, 1);
			test_expr(KSTATS_MECH_FPROBE, "fprobe", have_expr);
		}
		test_function(KSTATS_MECH_KRETPROBE, ncpus);
		test_oracles(KSTATS_MECH_KRETPROBE, "kretprobe");
		test_bpftrace(info.mechanisms & BPF_MECHS);
		test_self(KSTATS_MECH_KRETPROBE, "kretprobe", have_self);
		test_keys(KSTATS_MECH_KRETPROBE, "kretprobe", have_keys);
		test_task_keys(KSTATS_MECH_KRETPROBE, "kretprobe", info.features);
		test_cgroup(KSTATS_MECH_KRETPROBE, "kretprobe", have_cgroup,
			    !!(info.mechanisms & (1ULL << KSTATS_MECH_TRACEPOINT)));
		test_shared(KSTATS_MECH_KRETPROBE, "kretprobe", have_self, have_fprobe);
		test_expr(KSTATS_MECH_KRETPROBE, "kretprobe", have_expr);
		test_expr_abi(have_expr);
		test_expr_tp(have_expr &&
			     !!(info.mechanisms & (1ULL << KSTATS_MECH_TRACEPOINT)));
		test_expr_fsec(have_expr);
		test_expr_bpftrace(have_fprobe, have_expr,
				   !!(info.mechanisms & (1ULL << KSTATS_MECH_TRACEPOINT)), 0, NULL);
		test_sections(ncpus);
		test_socket_send();
		test_refusals(have_fprobe);
		test_autoremove();
	}
	printf("1..%d\n%d passed, %d failed\n", nr_tests, nr_tests - nr_failed, nr_failed);
	return nr_failed != 0;
}

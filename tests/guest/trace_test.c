// SPDX-License-Identifier: GPL-2.0
/*
 * Tracing tests, run in the guest with kstats.ko and kstats_target.ko
 * loaded. Each checks what a traced function's histogram must show given
 * how tests/kmod/kstats_target.c called it. Prints TAP.
 *
 *   trace_test		all tests but churn
 *   trace_test churn MECH	trace/untrace x200 while every CPU calls the target
 *   trace_test leave NAME	attach a persistent trace NAME and exit (rmmod tests)
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
#include <unistd.h>

#include "kstats_hist.h"
#include "uapi/linux/kstats.h"

#define TARGET "/sys/kernel/debug/kstats_target/"
#define NS_PER_US 1000ULL

static int fd, nr_tests, nr_failed;
static uint64_t hz;

static int ok(int cond, const char *fmt, ...)
{
	va_list ap;

	printf("%s %d - ", cond ? "ok" : "not ok", ++nr_tests);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
	nr_failed += !cond;
	fflush(stdout);
	return cond;
}

static void diag(const char *fmt, ...)
{
	va_list ap;

	printf("#   ");
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
}

static uint64_t read_u64(const char *path)
{
	unsigned long long v = 0;
	FILE *f = fopen(path, "r");

	if (!f || fscanf(f, "%llu", &v) != 1)
		diag("cannot read %s", path);
	if (f)
		fclose(f);
	return v;
}

/* Runs a kstats_target command; returns its calls. */
static uint64_t target(const char *cmd)
{
	int t = open(TARGET "ctl", O_WRONLY);

	if (t < 0 || write(t, cmd, strlen(cmd)) != (ssize_t)strlen(cmd))
		diag("target '%s': %s", cmd, strerror(errno));
	if (t >= 0)
		close(t);
	return read_u64(TARGET "calls");
}

struct req {
	const char *name, *func, *start, *end;
	uint32_t mech, flags, bits, maxactive;
	int64_t pid, tgid;
	uint64_t cpus;		/* with KSTATS_TRACE_CPUS: bit n = CPU n */
};

static int trace(int dev, const struct req *r)
{
	struct kstats_trace t = {
		.func = (uintptr_t)r->func, .start = (uintptr_t)r->start,
		.end = (uintptr_t)r->end, .frac_bits = r->bits ? r->bits : 3,
		.mechanism = r->mech, .flags = r->flags, .pid = r->pid,
		.tgid = r->tgid, .maxactive = r->maxactive,
	};

	if (r->flags & KSTATS_TRACE_CPUS) {
		t.cpus = (uintptr_t)&r->cpus;
		t.cpus_len = sizeof(r->cpus);
	}

	strncpy((char *)t.name, r->name, sizeof(t.name) - 1);
	return ioctl(dev, KSTATS_IOC_TRACE, &t) ? errno : 0;
}

static int untrace(const char *name)
{
	struct kstats_untrace u = { 0 };

	strncpy((char *)u.name, name, sizeof(u.name) - 1);
	return ioctl(fd, KSTATS_IOC_UNTRACE, &u) ? errno : 0;
}

/* A metric summed over CPUs, with the snapshot's trace counters. */
struct hist {
	struct kstats_snapshot sn;
	uint64_t counts[KSTATS_SLOTS_MAX], parts[KSTATS_SLOTS_MAX], total;
	uint64_t cpu_mask;	/* CPUs (below 64) with samples */
};

static int snap(const char *name, struct hist *h)
{
	static char buf[1 << 20];
	struct kstats_snap_slot *sl;
	uint32_t i;

	memset(h, 0, sizeof(*h));
	strncpy((char *)h->sn.name, name, sizeof(h->sn.name) - 1);
	h->sn.buf = (uintptr_t)buf;
	h->sn.buf_len = sizeof(buf);
	if (ioctl(fd, KSTATS_IOC_SNAPSHOT, &h->sn))
		return errno;
	sl = (void *)(buf + h->sn.nr_cpus * sizeof(struct kstats_snap_cpu));
	for (i = 0; i < h->sn.nr_slots; i++) {
		h->counts[sl[i].slot] += sl[i].count;
		h->parts[sl[i].slot] += sl[i].part_sum;
		h->total += sl[i].count;
		if (sl[i].count)
			h->cpu_mask |= sl[i].cpu < 64 ? 1ULL << sl[i].cpu : ~0ULL;
	}
	return 0;
}

/*
 * Every sample is at least @lo (nothing measures shorter than it ran), and
 * at least @pct percent are at most @hi, as far as slots can tell. Under
 * software emulation a vCPU can stall for milliseconds, which only ever
 * makes a call look longer: hence a strict floor and a mostly-ceiling.
 */
static int within(const struct hist *h, uint64_t lo, uint64_t hi, unsigned int pct)
{
	uint32_t b = h->sn.frac_bits, s;
	uint64_t over = 0;

	for (s = 0; s < kstats_hist_nslots(b); s++) {
		if (!h->counts[s])
			continue;
		if (kstats_slot_last(s, b) < lo) {
			diag("%llu samples in [%llu, %llu], below %llu",
			     (unsigned long long)h->counts[s],
			     (unsigned long long)kstats_slot_low(s, b),
			     (unsigned long long)kstats_slot_last(s, b),
			     (unsigned long long)lo);
			return 0;
		}
		if (kstats_slot_low(s, b) > hi) {
			diag("%llu samples in [%llu, %llu], above %llu",
			     (unsigned long long)h->counts[s],
			     (unsigned long long)kstats_slot_low(s, b),
			     (unsigned long long)kstats_slot_last(s, b),
			     (unsigned long long)hi);
			over += h->counts[s];
		}
	}
	return over * 100 <= (100 - pct) * h->total;
}

#define MAX_CALLS 1024

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/* What the target's last recursion took, call by call, ascending. */
static uint64_t read_durations(uint64_t *v, uint64_t max)
{
	FILE *f = fopen(TARGET "durations", "r");
	unsigned long long x;
	uint64_t n = 0;

	while (f && n < max && fscanf(f, "%llu", &x) == 1)
		v[n++] = x;
	if (f)
		fclose(f);
	qsort(v, n, sizeof(*v), cmp_u64);
	return n;
}

/*
 * Ranks whose slot lies wholly below the sorted truth @t, and in @over
 * those wholly above it plus @slack.
 */
static uint64_t against_truth(const struct hist *h, const uint64_t *t, uint64_t n,
			      uint64_t slack, uint64_t *over)
{
	uint32_t b = h->sn.frac_bits, s;
	uint64_t r = 0, c, under = 0;

	*over = 0;
	for (s = 0; s < kstats_hist_nslots(b); s++)
		for (c = 0; c < h->counts[s] && r < n; c++, r++) {
			under += kstats_slot_last(s, b) < t[r];
			*over += kstats_slot_low(s, b) > t[r] + slack;
		}
	return under;
}

static int accounted(const char *what, const struct hist *h, uint64_t calls)
{
	return ok(h->total + h->sn.misses == calls && h->sn.hits == h->total,
		  "%s: samples %llu + misses %llu == calls %llu (hits %llu)", what,
		  (unsigned long long)h->total, (unsigned long long)h->sn.misses,
		  (unsigned long long)calls, (unsigned long long)h->sn.hits);
}

static void dump(const struct hist *h)
{
	uint32_t b = h->sn.frac_bits, s;

	for (s = 0; s < kstats_hist_nslots(b); s++)
		if (h->counts[s])
			diag("slot [%llu, %llu]: %llu",
			     (unsigned long long)kstats_slot_low(s, b),
			     (unsigned long long)kstats_slot_last(s, b),
			     (unsigned long long)h->counts[s]);
}

static const char *mech_name(uint32_t m)
{
	return m == KSTATS_MECH_FPROBE ? "fprobe" : "kretprobe";
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
	ok(within(&h, 20000 * NS_PER_US, 20000 * NS_PER_US + h.sn.floor_ns + tick, 90),
	   "%s: 20 ms sleeps: none shorter, >= 90%% within floor + one tick (%llu ns)",
	   m, (unsigned long long)(h.sn.floor_ns + tick));
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
		 * the probes' clock), at most that plus the probe's own work
		 * around it. Sorting keeps this true rank by rank. A tool that
		 * timed inner calls from an outer entry would be 500 us or more
		 * over. An interrupt in the probe's few microseconds before or
		 * after the body may add more: two such calls are let pass.
		 */
		n = read_durations(truth, MAX_CALLS);
		under = against_truth(&h, truth, n, 100 * NS_PER_US, &over);
		if (!ok(n == h.total && !under && over <= 2,
			"%s: each sample within [own duration, +100 us] of its call, as the target "
			"measured it: %llu of %llu below, %llu above", m,
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

	/* maxactive 1: only the outermost call of each recursion has an instance. */
	r = (struct req){ .name = "t.max", .func = "ktarget_recurse", .mech = mech,
			  .maxactive = 1 };
	if (ok(trace(fd, &r) == 0, "%s: trace with maxactive 1", m)) {
		calls = target("recurse 4 200 10");
		snap("t.max", &h);
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
}

static void test_tcp(void)
{
	struct sockaddr_in a = { .sin_family = AF_INET,
				 .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
	socklen_t len = sizeof(a);
	struct req r = { .name = "tcp_sendmsg", .func = "tcp_sendmsg",
			 .flags = KSTATS_TRACE_TGID, .tgid = getpid() };
	int l = socket(AF_INET, SOCK_STREAM, 0), c = socket(AF_INET, SOCK_STREAM, 0);
	char data[100] = { 0 };
	struct hist h;
	int i, sent = 0;

	if (bind(l, (void *)&a, sizeof(a)) || listen(l, 1) ||
	    getsockname(l, (void *)&a, &len) || connect(c, (void *)&a, sizeof(a))) {
		ok(0, "tcp: loopback connection: %s", strerror(errno));
		return;
	}
	if (!ok(trace(fd, &r) == 0, "tcp: trace tcp_sendmsg for this process"))
		return;
	for (i = 0; i < 300; i++)
		sent += send(c, data, sizeof(data), 0) == sizeof(data);
	snap("tcp_sendmsg", &h);
	ok(sent == 300 && h.total + h.sn.misses == 300 && h.total > 0,
	   "tcp: %d sends, %llu samples + %llu misses", sent,
	   (unsigned long long)h.total, (unsigned long long)h.sn.misses);
	untrace("tcp_sendmsg");
	close(c);
	close(l);
}

static void test_refusals(int have_fprobe)
{
	struct req r = { .name = "t.bad" };
	static const struct { const char *func; int err; const char *why; } bad[] = {
		{ "kstats_record", ENOENT, "an inline: no such function" },
		{ "kstats_reset", ELOOP, "kstats' own code would recurse" },
		{ "kstats:kstats_floor_func", ELOOP, "kstats' own code, module-qualified" },
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

static void test_churn(uint32_t mech)
{
	struct req r = { .name = "t.churn", .func = "ktarget_empty", .mech = mech };
	int i, bad = 0;

	target("spin");
	for (i = 0; i < 200; i++)
		bad += trace(fd, &r) != 0 || untrace("t.churn") != 0;
	target("stop");
	ok(!bad, "%s: trace/untrace x200 while every CPU calls the function (%d failed)",
	   mech_name(mech), bad);
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
	if (argc > 1 && !strcmp(argv[1], "lockdown")) {
		struct req r = { .name = "t.locked", .func = "ktarget_empty" };

		ok(info.flags & KSTATS_INFO_LOCKDOWN, "INFO reports lockdown");
		ok(trace(fd, &r) == EPERM, "TRACE under lockdown: EPERM");
	} else if (argc > 2 && !strcmp(argv[1], "churn")) {
		test_churn(strtoul(argv[2], NULL, 0));

	} else if (argc > 2 && !strcmp(argv[1], "leave")) {
		struct req r = { .name = argv[2], .func = "ktarget_empty" };

		ok(trace(fd, &r) == 0, "a trace %s left attached", argv[2]);
		target("empty 10");
	} else {
		int have_fprobe = !!(info.mechanisms & (1ULL << KSTATS_MECH_FPROBE));

		hz = read_u64(TARGET "hz");
		diag("mechanisms 0x%llx, HZ %llu", (unsigned long long)info.mechanisms,
		     (unsigned long long)hz);
		if (have_fprobe)
			test_function(KSTATS_MECH_FPROBE, ncpus);
		test_function(KSTATS_MECH_KRETPROBE, ncpus);
		test_sections(ncpus);
		test_tcp();
		test_refusals(have_fprobe);
		test_autoremove();
	}
	printf("1..%d\n%d passed, %d failed\n", nr_tests, nr_tests - nr_failed, nr_failed);
	return nr_failed != 0;
}

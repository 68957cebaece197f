// SPDX-License-Identifier: GPL-2.0
/*
 * Outliers (TRACE's outlier fields, OUTLIERS): the bad inputs of both, the
 * sizing answer, what an entry holds and, for an unprivileged opener, what
 * it does not (no addresses). The outliers are our own slow reads: a read
 * of a pipe blocks in vfs_read until a helper thread writes.
 */
#include "abi_test.h"

#include <grp.h>
#include <pthread.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>

#define OUTL_NAME	"abi.outl"
#define OUTL_RING	4
#define OUTL_NS		1000000ULL	/* 1 ms: a read of a 3 ms timer is over it */
#define NOBODY		65534

_Static_assert(sizeof(struct kstats_outlier) == KSTATS_OUTLIER_SIZE_VER1, "outlier entry");

/* With KSTATS_TRACE_OUTLIERS, only this process's main thread is traced. */
static int k_trace_outl(int fd, const char *name, uint64_t ns, uint32_t ppm,
			uint32_t ring, uint32_t rate, uint32_t flags)
{
	struct kstats_trace t = {
		.func = U64PTR(TRACE_FUNC), .flags = flags, .outlier_ns = ns,
		.outlier_ppm = ppm, .outlier_ring = ring, .outlier_rate = rate,
	};

	if (flags & KSTATS_TRACE_OUTLIERS) {
		t.flags |= KSTATS_TRACE_PID;
		t.pid = getpid();
	}

	set_name(t.name, name);
	return kioctl(fd, KSTATS_IOC_TRACE, &t);
}

static int k_outliers(int fd, const char *name, void *entries, uint32_t entry_size,
		      uint32_t nr, struct kstats_outliers *o)
{
	memset(o, 0, sizeof(*o));
	set_name(o->name, name);
	o->entries = U64PTR(entries);
	o->entry_size = entry_size;
	o->nr_entries = nr;
	return kioctl(fd, KSTATS_IOC_OUTLIERS, o);
}

/*
 * One read that blocks in vfs_read for about @us: a helper thread (not
 * traced: the trace follows this thread alone) waits @us on the monotonic
 * clock, then writes what this one reads. No timer syscalls: a -m32 build
 * on a kernel without CONFIG_COMPAT_32BIT_TIME (the debug lane) has none
 * of the 32-bit ones.
 */
static int slow_go[2], slow_data[2];

static void *slow_writer(void *arg)
{
	unsigned int us;

	(void)arg;
	while (read(slow_go[0], &us, sizeof(us)) == sizeof(us)) {
		uint64_t end = now_ns(CLOCK_MONOTONIC) + us * 1000ULL;

		while (now_ns(CLOCK_MONOTONIC) < end)
			;
		if (write(slow_data[1], "x", 1) != 1)
			break;
	}
	return NULL;
}

static void slow_read(unsigned int us)
{
	static pthread_t writer;
	char c;

	if (!writer && (pipe(slow_go) || pipe(slow_data) ||
			pthread_create(&writer, NULL, slow_writer, NULL)))
		tap_fail("slow reads: %s", strerror(errno));
	if (write(slow_go[1], &us, sizeof(us)) != sizeof(us) ||
	    read(slow_data[0], &c, 1) != 1)
		tap_fail("slow read: %s", strerror(errno));
}

static void test_outlier_args(void)
{
	const uint32_t O = KSTATS_TRACE_OUTLIERS;
	static const struct {
		const char *what;
		uint64_t ns;
		uint32_t ppm, ring, rate, flags;
		int expect;
	} cases[] = {
		{ "flag, no threshold", 0, 0, 0, 0, O, EINVAL },
		{ "flag, both thresholds", OUTL_NS, 999000, 0, 0, O, EINVAL },
		{ "threshold 1 ns (below the probe floor)", 1, 0, 0, 0, O, ERANGE },
		{ "ppm 1000000", 0, 1000000, 0, 0, O, EINVAL },
		{ "ring 65537", OUTL_NS, 0, 65537, 0, O, EINVAL },
		{ "rate 1000001", OUTL_NS, 0, 0, 1000001, O, EINVAL },
		{ "outlier_ns without the flag", OUTL_NS, 0, 0, 0, 0, EINVAL },
		{ "outlier_ppm without the flag", 0, 999000, 0, 0, 0, EINVAL },
		{ "outlier_ring without the flag", 0, 0, 64, 0, 0, EINVAL },
		{ "outlier_rate without the flag", 0, 0, 0, 10, 0, EINVAL },
	};
	struct kstats_trace t = { .func = U64PTR(TRACE_FUNC), .flags = O, .outlier_ns = OUTL_NS };
	size_t i;
	int err;

	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		err = k_trace_outl(g_fd, OUTL_NAME, cases[i].ns, cases[i].ppm, cases[i].ring,
				   cases[i].rate, cases[i].flags);
		want_errno(err, cases[i].expect, cases[i].what);
		if (metric_exists(g_fd, OUTL_NAME))
			tap_fail("%s: the trace exists", cases[i].what);
		k_untrace(g_fd, OUTL_NAME);
		tap_end("TRACE outliers, %s: %s", cases[i].what, errname(cases[i].expect));
	}
	set_name(t.name, OUTL_NAME);
	t.outlier_pad = 1;
	want_errno(kioctl(g_fd, KSTATS_IOC_TRACE, &t), EINVAL, "outlier_pad 1");
	k_untrace(g_fd, OUTL_NAME);
	tap_end("TRACE outliers, outlier_pad 1: EINVAL");
}

static void test_outliers_errnos(void)
{
	struct kstats_outlier e[2];
	struct kstats_outliers o;
	int err;

	err = k_outliers(g_fd, "abi.outl.none", e, sizeof(e[0]), 2, &o);
	want_errno(err, ENOENT, "unknown name");
	tap_end("OUTLIERS of an unknown name: ENOENT");
	err = k_create(g_fd, "abi.outl.user", 0, 0) ?:
	      k_outliers(g_fd, "abi.outl.user", e, sizeof(e[0]), 2, &o);
	want_errno(err, EINVAL, "a user metric");
	k_delete(g_fd, "abi.outl.user");
	tap_end("OUTLIERS of a user metric: EINVAL");
	err = trace_setup(g_fd, "abi.outl.plain") ?:
	      k_outliers(g_fd, "abi.outl.plain", e, sizeof(e[0]), 2, &o);
	want_errno(err, EINVAL, "a trace without outliers");
	k_untrace(g_fd, "abi.outl.plain");
	tap_end("OUTLIERS of a trace without outliers: EINVAL");
	err = k_outliers(g_fd, OUTL_NAME, e, KSTATS_OUTLIER_SIZE_VER0 - 8, 2, &o);
	want_errno(err, EINVAL, "entry_size VER0 - 8");
	err = k_outliers(g_fd, OUTL_NAME, e, sizeof(e[0]) + 4, 2, &o);
	want_errno(err, EINVAL, "entry_size not a multiple of 8");
	err = k_outliers(g_fd, OUTL_NAME, e, 8192, 2, &o);
	want_errno(err, EINVAL, "entry_size 8192");
	tap_end("OUTLIERS entry_size below VER0, unaligned, above a page: EINVAL");
	memset(&o, 0, sizeof(o));
	set_name(o.name, OUTL_NAME);
	o.entry_size = sizeof(e[0]);
	o.flags = 1;
	want_errno(kioctl(g_fd, KSTATS_IOC_OUTLIERS, &o), EINVAL, "flags 1");
	o.flags = 0;
	o.reserved[2] = 1;
	want_errno(kioctl(g_fd, KSTATS_IOC_OUTLIERS, &o), EINVAL, "reserved[2] 1");
	tap_end("OUTLIERS flags or reserved non-zero: EINVAL");
}

/* Whether /proc/kallsyms puts @addr in a function whose name has "read". */
static int in_a_read_function(uint64_t addr, char *sym, size_t len)
{
	unsigned long long a, best = 0;
	char line[512], name[256], type;
	FILE *f = fopen("/proc/kallsyms", "r");

	snprintf(sym, len, "?");
	while (f && fgets(line, sizeof(line), f))
		if (sscanf(line, "%llx %c %255s", &a, &type, name) == 3 &&
		    (type == 't' || type == 'T') && a <= addr && a > best) {
			best = a;
			snprintf(sym, len, "%s+0x%llx", name, (unsigned long long)(addr - a));
		}
	if (f)
		fclose(f);
	return strstr(sym, "read") != NULL;
}

static void check_entries(const struct kstats_outliers *o, const struct kstats_outlier *e,
			  uint32_t n, int addresses)
{
	uint64_t want_seq = o->captured - n + 1;
	char sym[300];
	uint32_t i;

	for (i = 0; i < n; i++, want_seq++) {
		if (e[i].seq != want_seq)
			tap_fail("entry %u: seq %llu, want %llu", i,
				 (unsigned long long)e[i].seq, (unsigned long long)want_seq);
		/* Task identity, as frames, only for a privileged opener (issue 30 P2). */
		if (e[i].pid != (addresses ? (int32_t)gettid() : 0) ||
		    e[i].tgid != (addresses ? getpid() : 0))
			tap_fail("entry %u: pid %d tgid %d, want %d %d", i, e[i].pid, e[i].tgid,
				 addresses ? (int)gettid() : 0, addresses ? getpid() : 0);
		if (addresses ? strncmp((const char *)e[i].comm, g_comm, sizeof(e[i].comm)) :
				!all_zero(e[i].comm, sizeof(e[i].comm)))
			tap_fail("entry %u: comm \"%.16s\", want \"%s\"", i, e[i].comm,
				 addresses ? g_comm : "");
		if (e[i].duration_ns < OUTL_NS || e[i].time_ns > o->time_ns ||
		    (i && e[i].time_ns < e[i - 1].time_ns))
			tap_fail("entry %u: duration %llu ns, end %llu (read at %llu)", i,
				 (unsigned long long)e[i].duration_ns,
				 (unsigned long long)e[i].time_ns, (unsigned long long)o->time_ns);
		if (e[i].cpu_start >= g_info.nr_cpus || e[i].cpu_end >= g_info.nr_cpus)
			tap_fail("entry %u: CPUs %u, %u", i, e[i].cpu_start, e[i].cpu_end);
		if (!e[i].nr_frames || e[i].nr_frames > KSTATS_OUTLIER_FRAMES)
			tap_fail("entry %u: %u frames", i, e[i].nr_frames);
		if (e[i].flags != (addresses ? KSTATS_OUTLIER_RETVAL : KSTATS_OUTLIER_NOADDR))
			tap_fail("entry %u: flags 0x%x", i, e[i].flags);
		/* vfs_read of slow_read()'s 1 byte: it returned 1 (or nothing unprivileged). */
		if (e[i].retval != (addresses ? 1 : 0))
			tap_fail("entry %u: retval %llu, want %d", i,
				 (unsigned long long)e[i].retval, addresses);
		if (!addresses && !all_zero(e[i].frames, sizeof(e[i].frames)))
			tap_fail("entry %u: frames given to an unprivileged opener", i);
		if (addresses && !in_a_read_function(e[i].frames[0], sym, sizeof(sym)))
			tap_fail("entry %u: frame 0 is %s, not a caller of vfs_read", i, sym);
		if (addresses && !all_zero(&e[i].frames[e[i].nr_frames],
					   sizeof(e[i].frames) - e[i].nr_frames * 8))
			tap_fail("entry %u: non-zero frames past nr_frames", i);
	}
	if (addresses && n)
		tap_note("frame 0: %s", (in_a_read_function(e[0].frames[0], sym, sizeof(sym)), sym));
}

/* Through a file opened without privilege: everything but the frames and the task. */
static void check_unprivileged(void)
{
	struct kstats_outlier e[OUTL_RING];
	struct kstats_outliers o;
	struct fd_chan ch[2];
	int status, fd;
	struct stat st;
	pid_t pid;

	if (chan_pair(ch)) {
		tap_fail("setup: %s", strerror(errno));
		tap_end("OUTLIERS through a file opened without privilege: set up");
		return;
	}
	if (stat(KSTATS_DEVICE, &st) || chmod(KSTATS_DEVICE, 0666))
		tap_fail("setup: %s", strerror(errno));
	pid = fork();
	if (!pid) {
		/* Drops privilege, opens, and hands the file to root. */
		if (setgroups(0, NULL) || setresgid(NOBODY, NOBODY, NOBODY) ||
		    setresuid(NOBODY, NOBODY, NOBODY))
			_exit(2);
		fd = kopen();
		_exit(fd < 0 || send_fd(&ch[1], fd) ? 3 : 0);
	}
	fd = recv_fd(&ch[0]);
	if (pid < 0 || waitpid(pid, &status, 0) != pid || !WIFEXITED(status) ||
	    WEXITSTATUS(status) || fd < 0)
		tap_fail("the unprivileged opener failed");
	chmod(KSTATS_DEVICE, st.st_mode & 07777);
	chan_close(&ch[0]);
	chan_close(&ch[1]);
	if (fd < 0)
		return;
	want_errno(k_outliers(fd, OUTL_NAME, e, sizeof(e[0]), OUTL_RING, &o), 0,
		   "OUTLIERS through an unprivileged-opened file");
	if (o.out_flags != KSTATS_OUTLIERS_NOADDR)
		tap_fail("out_flags 0x%x, want NOADDR", o.out_flags);
	check_entries(&o, e, o.nr_entries, 0);
	close(fd);
	tap_end("OUTLIERS through a file opened without privilege (used by root): all but the frames, pid, tgid and comm, NOADDR");
}

void test_outliers(void)
{
	uint8_t big[OUTL_RING][KSTATS_OUTLIER_SIZE_VER1 + 8];
	uint8_t ver0[OUTL_RING][KSTATS_OUTLIER_SIZE_VER0];
	struct kstats_outlier e[OUTL_RING];
	struct kstats_outliers o, o0;
	uint64_t reads = 0;
	uint32_t i, same;
	int err;

	const char *outliers = getenv("KSTATS_ABI_OUTLIERS");

	if (!(g_info.features & KSTATS_FEAT_OUTLIERS))
		tap_fail("INFO lacks KSTATS_FEAT_OUTLIERS");
	tap_end("INFO: features has OUTLIERS");
	if (outliers && !strcmp(outliers, "0")) {
		tap_note("outliers: tested in the first pass (abi-tests.sh)");
		return;
	}
	test_outlier_args();

	err = k_trace_outl(g_fd, OUTL_NAME, OUTL_NS, 0, OUTL_RING, KSTATS_OUTLIER_RATE_MAX,
			   KSTATS_TRACE_OUTLIERS);
	want_errno(err, 0, "TRACE with outliers over 1 ms, a ring of 4");
	tap_end("TRACE %s with outliers over 1 ms, a ring of %d", TRACE_FUNC, OUTL_RING);
	test_outliers_errnos();

	err = k_outliers(g_fd, OUTL_NAME, e, sizeof(e[0]), 0, &o);
	want_errno(err, 0, "OUTLIERS, none yet");
	if (o.nr_entries || o.captured || o.overwritten || o.capacity != OUTL_RING ||
	    o.threshold_ns != OUTL_NS || o.threshold_ppm || o.out_flags)
		tap_fail("none yet: nr %u captured %llu overwritten %llu capacity %u threshold %llu",
			 o.nr_entries, (unsigned long long)o.captured,
			 (unsigned long long)o.overwritten, o.capacity,
			 (unsigned long long)o.threshold_ns);
	tap_end("OUTLIERS before any: 0 entries, capacity %d, threshold 1 ms", OUTL_RING);

	/* A read that begins after its timer fired is fast: go on until 6 are slow. */
	while (reads < 6 || o.captured < 6) {
		slow_read(3000);
		reads++;
		err = k_outliers(g_fd, OUTL_NAME, e, sizeof(e[0]), 0, &o);
		if (err != ENOSPC && err != 0)
			break;
		if (reads > 200)
			break;
	}
	want_errno(err, ENOSPC, "OUTLIERS with room for none");
	if (o.nr_entries != OUTL_RING || o.captured < 6 || o.overwritten != o.captured - OUTL_RING)
		tap_fail("sizing: nr %u captured %llu overwritten %llu after %llu slow reads",
			 o.nr_entries, (unsigned long long)o.captured,
			 (unsigned long long)o.overwritten, (unsigned long long)reads);
	tap_end("OUTLIERS sizing: ENOSPC, %u needed, %llu captured, %llu overwritten",
		o.nr_entries, (unsigned long long)o.captured, (unsigned long long)o.overwritten);

	for (i = 0; i < OUTL_RING; i++)
		slow_read(3000);
	err = k_outliers(g_fd, OUTL_NAME, e, sizeof(e[0]), OUTL_RING, &o);
	want_errno(err, 0, "OUTLIERS");
	if (o.nr_entries != OUTL_RING)
		tap_fail("%u entries, want %d", o.nr_entries, OUTL_RING);
	check_entries(&o, e, o.nr_entries, 1);
	tap_end("OUTLIERS: the 4 newest, oldest first: seq, pid, tgid, comm, duration, CPUs, a caller frame in a read function");

	/*
	 * Then at once, as a caller built before retval: its 320 bytes are the
	 * first 320 of the same seq's larger entry (a slow read meanwhile,
	 * anyone's, moves the ring on: compared by seq, one in common at least).
	 */
	err = k_outliers(g_fd, OUTL_NAME, big, sizeof(big[0]), OUTL_RING, &o) ?:
	      k_outliers(g_fd, OUTL_NAME, ver0, sizeof(ver0[0]), OUTL_RING, &o0);
	want_errno(err, 0, "OUTLIERS, larger entries, then VER0's");
	for (i = 0; i < o.nr_entries; i++)
		if (!all_zero(big[i] + KSTATS_OUTLIER_SIZE_VER1, 8))
			tap_fail("entry %u: bytes past the kernel's entry not zeroed", i);
	tap_end("OUTLIERS with entries 8 bytes larger: the tail zeroed");
	for (i = 0, same = 0; i < o0.nr_entries; i++) {
		uint64_t seq, seq1;
		uint32_t j;

		memcpy(&seq, ver0[i], sizeof(seq));
		for (j = 0; j < o.nr_entries; j++) {
			memcpy(&seq1, big[j], sizeof(seq1));
			if (seq1 == seq)
				break;
		}
		if (j < o.nr_entries && memcmp(ver0[i], big[j], KSTATS_OUTLIER_SIZE_VER0))
			tap_fail("seq %llu: its VER0 entry differs from VER1's first 320 bytes",
				 (unsigned long long)seq);
		same += j < o.nr_entries;
	}
	if (!same)
		tap_fail("no entry in common with the read before");
	tap_end("OUTLIERS with VER0 entries (320 bytes, no retval): as VER1's first 320 (%u compared)",
		same);

	check_unprivileged();

	err = k_control(g_fd, OUTL_NAME, KSTATS_OP_RESET, 0) ?:
	      k_outliers(g_fd, OUTL_NAME, e, sizeof(e[0]), OUTL_RING, &o);
	want_errno(err, 0, "RESET, OUTLIERS");
	if (o.nr_entries || o.captured || o.overwritten || o.ratelimited)
		tap_fail("after a reset: nr %u captured %llu", o.nr_entries,
			 (unsigned long long)o.captured);
	tap_end("OUTLIERS after a reset of the metric: none, counters 0");

	want_errno(k_untrace(g_fd, OUTL_NAME), 0, "UNTRACE");
	tap_end("UNTRACE %s", OUTL_NAME);

	/* A quantile threshold: none until 1 / (1 - q) samples (1000 for p99.9). */
	err = k_trace_outl(g_fd, OUTL_NAME, 0, 999000, 0, 0, KSTATS_TRACE_OUTLIERS) ?:
	      k_outliers(g_fd, OUTL_NAME, e, sizeof(e[0]), OUTL_RING, &o);
	want_errno(err, 0, "TRACE with outliers over p99.9, OUTLIERS");
	if (o.threshold_ppm != 999000 || o.threshold_ns || o.capacity != KSTATS_OUTLIER_RING_DEFAULT)
		tap_fail("p99.9: ppm %u threshold %llu capacity %u", o.threshold_ppm,
			 (unsigned long long)o.threshold_ns, o.capacity);
	want_errno(k_untrace(g_fd, OUTL_NAME), 0, "UNTRACE");
	tap_end("TRACE outliers over p99.9: threshold_ppm 999000, no threshold yet, ring %d",
		KSTATS_OUTLIER_RING_DEFAULT);
}

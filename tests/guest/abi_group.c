// SPDX-License-Identifier: GPL-2.0
/*
 * TRACE with KSTATS_TRACE_DEFER, and ATTACH: traces made with no probe,
 * recording nothing, until ATTACH attaches all of a file's at once (on
 * fprobe as one fprobe over their functions, trace_func.c's group). Every
 * mechanism the kernel has. Every trace is gone before the test ends.
 */
#include "abi_test.h"

#define G_READ	"abi.grp.read"
#define G_WRITE	"abi.grp.write"

static int k_attach(int fd, uint32_t *attached)
{
	struct kstats_attach a = { .flags = 0 };
	int err = kioctl(fd, KSTATS_IOC_ATTACH, &a);

	if (attached)
		*attached = a.attached;
	return err;
}

static int k_defer(int fd, const char *name, const char *func, uint32_t mech)
{
	return k_trace(fd, name, func, NULL, NULL, mech, KSTATS_TRACE_DEFER);
}

/* @name's hits, or UINT64_MAX if there is no such metric. */
static uint64_t hits_of(const char *name)
{
	struct snap s = { 0 };
	uint64_t h = k_snapshot(g_fd, name, &s) ? UINT64_MAX : s.hdr.hits;

	snap_free(&s);
	return h;
}

/* @n calls of vfs_read (@rd) and vfs_write (@wr) by this task. */
static void calls(int rd, int wr, int n)
{
	char c = 0;
	int i;

	for (i = 0; i < n; i++)
		if (read(rd, &c, 1) != 1 || write(wr, &c, 1) != 1)
			tap_fail("read or write failed: %s", strerror(errno));
}

static void test_group_errors(uint32_t mech, const char *mname)
{
	struct kstats_attach a = { .flags = 1 };
	uint32_t other_mech = mech == KSTATS_MECH_FPROBE ? KSTATS_MECH_KRETPROBE :
			      KSTATS_MECH_FPROBE;
	int fd = kopen(), other = kopen();

	want_errno(k_attach(fd, NULL), ENOENT, "ATTACH with nothing deferred");
	want_errno(kioctl(fd, KSTATS_IOC_ATTACH, &a), EINVAL, "ATTACH flags 1");
	a.flags = 0;
	a.reserved[2] = 1;
	want_errno(kioctl(fd, KSTATS_IOC_ATTACH, &a), EINVAL, "ATTACH reserved[2] 1");
	want_errno(k_defer(fd, G_READ, TRACE_FUNC, mech), 0, "TRACE DEFER");
	want_errno(k_defer(fd, "abi.grp.dup", TRACE_FUNC, mech), EBUSY,
		   "TRACE DEFER of the same function again, one file");
	want_errno(k_defer(other, "abi.grp.dup", TRACE_FUNC, mech), 0,
		   "TRACE DEFER of the same function, another file");
	want_errno(k_defer(fd, "abi.grp.mech", TRACE_FUNC2, other_mech),
		   (g_info.mechanisms & (1ULL << other_mech)) ? EINVAL : EOPNOTSUPP,
		   "TRACE DEFER, another mechanism than the file's others");
	if (hits_of(G_READ) || hits_of("abi.grp.dup"))
		tap_fail("a deferred trace recorded calls");
	close(other);
	if (metric_exists(g_fd, "abi.grp.dup"))
		tap_fail("a deferred trace stays after its file closed");
	close(fd);
	if (metric_exists(g_fd, G_READ))
		tap_fail("a deferred trace stays after its file closed");
	tap_end("%s: ATTACH with nothing deferred ENOENT, bad flags EINVAL; DEFER twice on a "
		"function EBUSY, another mechanism refused; deferred traces go with their file",
		mname);
}

static void test_group_attach(uint32_t mech, const char *mname)
{
	int fd = kopen(), rd = open("/dev/zero", O_RDONLY), wr = open("/dev/null", O_WRONLY);
	uint32_t attached = 0;
	struct snap s = { 0 };
	uint64_t h;

	want_errno(k_defer(fd, G_READ, TRACE_FUNC, mech), 0, "TRACE DEFER " TRACE_FUNC);
	want_errno(k_defer(fd, G_WRITE, TRACE_FUNC2, mech), 0, "TRACE DEFER " TRACE_FUNC2);
	calls(rd, wr, 10);
	if (hits_of(G_READ) || hits_of(G_WRITE))
		tap_fail("deferred traces recorded calls before ATTACH");
	want_errno(k_attach(fd, &attached), 0, "ATTACH");
	if (attached != 2)
		tap_fail("ATTACH attached %u traces, want 2", attached);
	calls(rd, wr, 10);
	if (hits_of(G_READ) < 10 || hits_of(G_WRITE) < 10)
		tap_fail("after ATTACH, %llu and %llu hits, want at least 10 each",
			 (unsigned long long)hits_of(G_READ), (unsigned long long)hits_of(G_WRITE));
	want_errno(k_attach(fd, NULL), ENOENT, "ATTACH again: nothing deferred");
	tap_end("%s: deferred traces record nothing; ATTACH attaches both, which record",
		mname);

	want_errno(k_untrace(g_fd, G_READ), 0, "UNTRACE one of the two");
	h = hits_of(G_WRITE);
	calls(rd, wr, 10);
	if (hits_of(G_WRITE) < h + 10)
		tap_fail("the other recorded %llu calls, want at least 10",
			 (unsigned long long)(hits_of(G_WRITE) - h));
	if (k_snapshot(g_fd, G_WRITE, &s) == 0 && s.hdr.group_misses)
		tap_fail("group_misses %llu: the group missed calls, or found no trace by an "
			 "address", (unsigned long long)s.hdr.group_misses);
	snap_free(&s);
	close(fd);
	if (!metric_exists(g_fd, G_WRITE))
		tap_fail("an attached trace without AUTOREMOVE went with its file");
	want_errno(k_untrace(g_fd, G_WRITE), 0, "UNTRACE the last");
	tap_end("%s: UNTRACE of one leaves the other recording, group_misses 0; attached, "
		"they stay after their file closes", mname);
	close(rd);
	close(wr);
}

void test_group(void)
{
	if (!(g_info.features & KSTATS_FEAT_GROUP)) {
		tap_fail("INFO has no KSTATS_FEAT_GROUP");
		tap_end("TRACE DEFER and ATTACH");
		return;
	}
	if (g_info.mechanisms & (1ULL << KSTATS_MECH_FPROBE)) {
		test_group_errors(KSTATS_MECH_FPROBE, "fprobe");
		test_group_attach(KSTATS_MECH_FPROBE, "fprobe");
	}
	test_group_errors(KSTATS_MECH_KRETPROBE, "kretprobe");
	test_group_attach(KSTATS_MECH_KRETPROBE, "kretprobe");
}

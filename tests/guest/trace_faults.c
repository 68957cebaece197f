// SPDX-License-Identifier: GPL-2.0
/*
 * Tracing where things go wrong (trace_test SUBCOMMAND, from trace-tests.sh
 * and control-tests.sh):
 *  - untrace-faults: every failure point of UNTRACE fails in turn
 *    (/proc/self/fail-nth: allocations with failslab, and kstats' own
 *    "the kernel refused to detach" point); a failed UNTRACE changes
 *    nothing but pinning kstats, a retry takes the trace down, and the
 *    traced function runs safely either way (KASAN watches, debug lane);
 *  - control-faults: every allocation of a _control "trace" command fails
 *    in turn; it never becomes another trace than the one asked for;
 *  - control-creator: a trace made through _control, once that file is
 *    closed, takes no RECORD from a /dev/kstats opener without privilege;
 *  - init-text: traces on a module's __init function, made while its init
 *    waits (kstats_init_target); trace-tests.sh checks they detach.
 */
#include <errno.h>
#include <fcntl.h>
#include <linux/capability.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "trace_test.h"

#define CONTROL "/sys/kernel/debug/kstats/_control"
#define FAILSLAB "/sys/kernel/debug/failslab/"
#define FAULTS_MAX 200	/* more allocations than any one command makes */

static int put_str(const char *path, const char *s)
{
	int f = open(path, O_WRONLY);
	int err = 0;

	if (f < 0)
		return errno;
	if (write(f, s, strlen(s)) != (ssize_t)strlen(s))
		err = errno;
	close(f);
	return err;
}

/*
 * The task's fail-nth file, open throughout: reading and writing it
 * allocates nothing, where opening it would take the armed failure.
 */
static int fail_nth_fd = -1;

/* The task's @n-th allocation from now on fails. */
static void fail_nth(unsigned int n)
{
	char s[16];

	snprintf(s, sizeof(s), "%u", n);
	if (pwrite(fail_nth_fd, s, strlen(s), 0) < 0)
		diag("fail-nth: %s", strerror(errno));
}

/* Whether the armed failure happened (fail-nth reads 0), disarming it. */
static int fail_nth_fired(void)
{
	char s[16] = "";
	int n;

	if (pread(fail_nth_fd, s, sizeof(s) - 1, 0) < 0)
		diag("fail-nth: %s", strerror(errno));
	n = atoi(s);
	if (n && pwrite(fail_nth_fd, "0", 1, 0) < 0)
		diag("fail-nth: %s", strerror(errno));
	return !n;
}

/* failslab fails GFP_KERNEL allocations too, and only the task's nth. */
static int faults_ready(void)
{
	char path[64];

	snprintf(path, sizeof(path), "/proc/self/task/%d/fail-nth", (int)syscall(SYS_gettid));
	fail_nth_fd = open(path, O_RDWR);
	return fail_nth_fd >= 0 &&
	       !put_str(FAILSLAB "ignore-gfp-wait", "N") &&
	       !put_str(FAILSLAB "verbose", "0");
}

static void test_untrace_faults(uint32_t mech, const char *m)
{
	struct req r = { .name = "t.fault", .func = "ktarget_empty", .mech = mech };
	unsigned int n, failed = 0, bad = 0, inside = 0;
	struct hist h;
	int err;

	for (n = 1; n <= FAULTS_MAX; n++) {
		uint64_t refs = read_u64("/sys/module/kstats/refcnt");

		if (trace(fd, &r)) {
			bad++;
			diag("%s: n=%u: TRACE failed", m, n);
			break;
		}
		fail_nth(n);
		err = untrace("t.fault");
		if (!fail_nth_fired()) {
			/* UNTRACE made fewer than n allocations: all were tried. */
			bad += err != 0;
			break;
		}
		/* Called after the UNTRACE, failed or not: KASAN watches. */
		target("hammer 50");
		if (!err) {
			bad += snap("t.fault", &h) != ENOENT;
			continue;
		}
		failed++;
		inside += err == ENOMEM;
		/*
		 * Nothing changed: still there, still recording, kstats held
		 * loaded (the kernel points into it); a retry works.
		 */
		if (snap("t.fault", &h) || !h.total ||
		    read_u64("/sys/module/kstats/refcnt") != refs + 1 || untrace("t.fault") ||
		    read_u64("/sys/module/kstats/refcnt") != refs) {
			bad++;
			diag("%s: n=%u: UNTRACE failed (%s) but the trace is not intact",
			     m, n, strerror(err));
		}
	}
	diag("%s: UNTRACE reached %u failure points (allocations, and kstats' own detach point); "
	     "%u failures failed it, %u with ENOMEM", m, n - 1, failed, inside);
	ok(!bad && failed && n <= FAULTS_MAX,
	   "%s: each failure point of UNTRACE failed in turn: a failed UNTRACE left the trace "
	   "whole, kstats pinned, and a retry removed it; the function ran safely after each "
	   "(%u bad)", m, bad);
}

/*
 * "trace S start X end __tracepoint_Y": a function start and a tracepoint
 * end never make a trace (EINVAL); when the copy of Y fails, ENOMEM, and
 * never the function trace of X the end was dropped from.
 */
static void test_control_faults(void)
{
	static const char cmd[] = "trace t.cfail start ktarget_empty end __tracepoint_ktarget_end";
	unsigned int n, nomem = 0, bad = 0;
	struct hist h;
	ssize_t w;
	int c, err;

	for (n = 1; n <= FAULTS_MAX; n++) {
		c = open(CONTROL, O_WRONLY);
		if (c < 0) {
			bad++;
			break;
		}
		fail_nth(n);
		w = write(c, cmd, strlen(cmd));
		err = w < 0 ? errno : 0;
		close(c);
		if (!fail_nth_fired())
			break;
		nomem += err == ENOMEM;
		if ((err != ENOMEM && err != EINVAL) || snap("t.cfail", &h) != ENOENT) {
			bad++;
			diag("n=%u: write %s, t.cfail %s", n, err ? strerror(err) : "succeeded",
			     snap("t.cfail", &h) == ENOENT ? "absent" : "exists");
			untrace("t.cfail");
		}
	}
	ok(!bad && nomem && n <= FAULTS_MAX,
	   "_control: each of %u allocations of a trace command failed in turn: ENOMEM %u "
	   "times, never another trace (%u bad)", n - 1, nomem, bad);
}

/* The caller keeps no capability: what an opener without privilege is. */
static int drop_caps(void)
{
	struct __user_cap_header_struct hdr = { _LINUX_CAPABILITY_VERSION_3, 0 };
	struct __user_cap_data_struct data[2] = { { 0 } };

	return syscall(SYS_capset, &hdr, data);
}

static void test_control_creator(unsigned int rounds)
{
	static const char cmd[] = "trace t.ctlown start vfs_read";
	struct kstats_record rec = { .count = 1 };
	unsigned int i, refused = 0;
	uint64_t one = 1;
	int c = open(CONTROL, O_WRONLY), d;

	ok(c >= 0 && write(c, cmd, strlen(cmd)) == (ssize_t)strlen(cmd),
	   "_control: root adds a trace (%s)", strerror(errno));
	if (c >= 0)
		close(c);
	if (!ok(drop_caps() == 0, "no capability left (%s)", strerror(errno)))
		return;
	strncpy((char *)rec.name, "t.ctlown", sizeof(rec.name) - 1);
	rec.values = (uintptr_t)&one;
	for (i = 0; i < rounds; i++) {
		d = open(KSTATS_DEVICE, O_RDWR);
		if (d < 0)
			break;
		refused += ioctl(d, KSTATS_IOC_RECORD, &rec) && errno == EPERM;
		close(d);
	}
	ok(refused == rounds,
	   "once _control is closed, %u of %u fresh opens without privilege may not RECORD "
	   "into its trace (EPERM)", refused, rounds);
}

/* Traces on the waiting init's function, by each mechanism there is. */
static void test_init_text(int have_fprobe)
{
	struct req r = { .name = "t.init.kr", .func = "init_target_work",
			 .mech = KSTATS_MECH_KRETPROBE };

	ok(trace(fd, &r) == 0, "kretprobe on an __init function while its init runs");
	if (have_fprobe) {
		r = (struct req){ .name = "t.init.fp", .func = "init_target_work",
				  .mech = KSTATS_MECH_FPROBE };
		ok(trace(fd, &r) == 0, "fprobe on an __init function while its init runs");
	}
	ok(put_str("/sys/kernel/debug/kstats_init_target/go", "go") == 0, "init released");
}

int faults_main(int argc, char **argv, int have_fprobe)
{
	if (!strcmp(argv[1], "init-text")) {
		test_init_text(have_fprobe);
	} else if (!strcmp(argv[1], "control-creator")) {
		test_control_creator(argc > 2 ? strtoul(argv[2], NULL, 0) : 1000);
	} else if (strcmp(argv[1], "untrace-faults") && strcmp(argv[1], "control-faults")) {
		return 0;
	} else if (!faults_ready()) {
		printf("ok 1 - %s # skip this kernel has no fault injection (fail-nth, failslab)\n",
		       argv[1]);
		nr_tests++;
	} else if (!strcmp(argv[1], "untrace-faults")) {
		/*
		 * fprobe only: when kprobes cannot disarm a probe for lack of
		 * memory it WARNs (and keeps the probe, kp.addr cleared, which
		 * kstats then keeps too), and a warning fails the lane.
		 */
		if (have_fprobe)
			test_untrace_faults(KSTATS_MECH_FPROBE, "fprobe");
		else
			ok(1, "untrace-faults # skip no fprobe here (kretprobe: see the source)");
	} else {
		test_control_faults();
	}
	return 1;
}

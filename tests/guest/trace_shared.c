// SPDX-License-Identifier: GPL-2.0
/*
 * Traces sharing one function (issue 30 W1, W6):
 *  - two --self traces of one function would keep one clock per task for
 *    the same frame, each taking the other's time for a callee's: the
 *    second is refused, EBUSY, whatever its mechanism;
 *  - on the function graph (fprobe, 6.14+) every fprobe of a function
 *    shares 32 words of per-call data, and past them every call is missed
 *    by all: kstats' traces of one function take at most 24 (a --split
 *    trace 8), so the fourth --split trace is refused, ENOSPC, and the
 *    three attached record every call. Elsewhere all four attach and
 *    record every call.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/utsname.h>

#include "trace_test.h"

#define SPLITS	4
#define CALLS	1000

/* fprobe on the function graph: 6.14 and later. */
static int fprobe_on_fgraph(void)
{
	struct utsname u;
	unsigned int major = 0, minor = 0;

	if (uname(&u) || sscanf(u.release, "%u.%u", &major, &minor) != 2)
		return 0;
	return major > 6 || (major == 6 && minor >= 14);
}

static void test_split_budget(uint32_t mech, const char *m)
{
	int shared = mech == KSTATS_MECH_FPROBE && fprobe_on_fgraph();
	int want_attached = shared ? 3 : SPLITS, attached = 0, exact = 1, i, err;
	char name[SPLITS][16], part[80];
	uint64_t calls;
	struct hist h;

	for (i = 0; i < SPLITS; i++) {
		struct req r = { .name = name[i], .func = "ktarget_empty", .mech = mech,
				 .flags = KSTATS_TRACE_SPLIT };

		snprintf(name[i], sizeof(name[i]), "t.sh%d", i);
		err = trace(fd, &r);
		if (i < want_attached)
			ok(err == 0, "%s: --split trace %d of one function attaches (%s)", m,
			   i + 1, strerror(err));
		else
			ok(err == ENOSPC && snap(name[i], &h) == ENOENT,
			   "%s: --split trace %d of one function: ENOSPC, nothing made (%s)",
			   m, i + 1, strerror(err));
		attached += !err;
	}
	calls = target("empty " /* N */ "1000");
	for (i = 0; i < attached; i++) {
		snprintf(part, sizeof(part), "ONCPU-%s", name[i]);
		err = snap(name[i], &h);
		exact &= !err && h.total == calls && h.sn.hits == calls && !h.sn.misses;
		if (!err && (h.total != calls || h.sn.misses))
			diag("%s: %s: %llu samples, %llu misses", m, name[i],
			     (unsigned long long)h.total, (unsigned long long)h.sn.misses);
		err = snap(part, &h);
		exact &= !err && h.total == calls;
	}
	ok(calls == CALLS && exact,
	   "%s: %d --split traces of one function, %llu calls: each records every call, "
	   "split included, none missed", m, attached, (unsigned long long)calls);
	for (i = 0; i < attached; i++)
		untrace(name[i]);
}

static void test_two_selves(uint32_t mech, const char *m, int have_fprobe)
{
	struct req r = { .name = "t.self1", .func = "ktarget_empty", .mech = mech,
			 .flags = KSTATS_TRACE_SELF };
	struct hist h;
	int err = trace(fd, &r);

	ok(err == 0, "%s: a --self trace (%s)", m, strerror(err));
	r.name = "t.self2";
	err = trace(fd, &r);
	ok(err == EBUSY && snap("t.self2", &h) == ENOENT,
	   "%s: a second --self trace of the same function: EBUSY, nothing made (%s)", m,
	   strerror(err));
	if (have_fprobe) {
		r.mech = mech == KSTATS_MECH_FPROBE ? KSTATS_MECH_KRETPROBE : KSTATS_MECH_FPROBE;
		err = trace(fd, &r);
		ok(err == EBUSY, "%s: ... by the other mechanism too (%s)", m, strerror(err));
	}
	r.flags = 0;
	err = trace(fd, &r);
	ok(err == 0, "%s: a trace of it without --self attaches beside (%s)", m, strerror(err));
	untrace("t.self2");
	untrace("t.self1");
	r.flags = KSTATS_TRACE_SELF;
	err = trace(fd, &r);
	ok(err == 0, "%s: once the first is gone, --self attaches again (%s)", m, strerror(err));
	untrace("t.self2");
}

void test_shared(uint32_t mech, const char *m, int supported, int have_fprobe)
{
	if (!supported)
		return;
	test_split_budget(mech, m);
	test_two_selves(mech, m, have_fprobe);
}

// SPDX-License-Identifier: GPL-2.0
/*
 * kstats against timers we did not write, on the same calls at the same
 * time: the kernel's function_graph tracer (per-call durations, nesting
 * right) and bpftrace (a count of calls by its own kprobe).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <unistd.h>

#include "trace_test.h"

static int put(const char *file, const char *text)
{
	char path[128];
	int f, err = 0;

	snprintf(path, sizeof(path), TRACEFS "%s", file);
	f = open(path, O_WRONLY | O_TRUNC);
	if (f < 0 || write(f, text, strlen(text)) != (ssize_t)strlen(text))
		err = errno;
	if (f >= 0)
		close(f);
	if (err)
		diag("%s < '%s': %s", path, text, strerror(err));
	return err;
}

int tracefs_ready(void)
{
	if (access(TRACEFS "trace", F_OK) &&
	    mount("tracefs", TRACEFS, "tracefs", 0, NULL) && errno != EBUSY)
		return 0;
	return !access(TRACEFS "current_tracer", W_OK);
}

/*
 * Durations of completed calls in the function_graph output, in ns: on a
 * leaf "func();" line or a closing "}" line, "<marker> 1234.567 us |".
 */
static uint64_t read_graph(uint64_t *v, uint64_t max)
{
	FILE *f = fopen(TRACEFS "trace", "r");
	char line[512], *us, *p;
	uint64_t n = 0;

	while (f && fgets(line, sizeof(line), f)) {
		if (line[0] == '#' || !(us = strstr(line, " us ")) || !strchr(us, '|'))
			continue;
		for (p = us; p > line && (p[-1] == '.' || (p[-1] >= '0' && p[-1] <= '9')); p--)
			;
		if (n < max)
			v[n] = (uint64_t)(strtod(p, NULL) * 1000.0 + 0.5);
		n++;
	}
	if (f)
		fclose(f);
	qsort(v, n < max ? n : max, sizeof(*v), cmp_u64);
	return n;
}

/*
 * function_graph and kstats time the same 80 recursive calls (depth 4,
 * each level 500 us of work after its inner call). Both hook the same
 * ftrace site and keep the start per call, so they must count the same
 * calls, and rank by rank (sorted) agree within one slot either side of
 * kstats' plus the floor: each tool's hooks run inside the other's window,
 * and function_graph's ring-buffer writes cost up to tens of microseconds
 * under emulation (seen: 7 to 25 us, at 500 us to 2 ms, where a slot is
 * 33 to 131 us wide). A tool that confused nested calls would be off by a
 * whole level (500 us, four slots at 2 ms) on a quarter or more of the
 * ranks; emulation stalls in the few microseconds between the two tools'
 * hooks touch isolated calls: up to an eighth may differ.
 */
static void test_function_graph(uint32_t mech, const char *m)
{
	struct req r = { .name = "t.graph", .func = "ktarget_recurse", .mech = mech };
	uint64_t fg[MAX_CALLS], calls, n, c, rank = 0, off = 0;
	uint32_t s, b;
	struct hist h;

	if (!ok(tracefs_ready(), "%s: function_graph: tracefs at " TRACEFS, m))
		return;
	if (put("tracing_on", "0") || put("current_tracer", "nop") || put("trace", "") ||
	    put("set_ftrace_filter", "ktarget_recurse") || put("buffer_size_kb", "1024") ||
	    put("current_tracer", "function_graph") || put("tracing_on", "1") ||
	    !ok(trace(fd, &r) == 0, "%s: function_graph: kstats traces ktarget_recurse too", m)) {
		put("current_tracer", "nop");
		return;
	}
	calls = 4 * target("recurse 4 500 20");
	put("tracing_on", "0");
	snap("t.graph", &h);
	untrace("t.graph");
	n = read_graph(fg, MAX_CALLS);
	put("current_tracer", "nop");
	put("set_ftrace_filter", "");
	ok(n == calls && h.total + h.sn.misses == calls && !h.sn.misses,
	   "%s: function_graph saw %llu calls, kstats %llu samples + %llu misses, of %llu",
	   m, (unsigned long long)n, (unsigned long long)h.total,
	   (unsigned long long)h.sn.misses, (unsigned long long)calls);
	if (n != h.total || n > MAX_CALLS)
		return;
	b = h.sn.frac_bits;
	for (s = 0; s < kstats_hist_nslots(b); s++)
		for (c = 0; c < h.counts[s]; c++, rank++) {
			uint64_t lo = kstats_slot_low(s, b), last = kstats_slot_last(s, b);
			uint64_t slack = last - lo + 1 + h.sn.floor_ns;

			if (fg[rank] + slack >= lo && fg[rank] <= last + slack)
				continue;
			if (off++ < 20)
				diag("rank %llu: function_graph %llu ns, kstats [%llu, %llu]",
				     (unsigned long long)rank, (unsigned long long)fg[rank],
				     (unsigned long long)kstats_slot_low(s, b),
				     (unsigned long long)kstats_slot_last(s, b));
		}
	if (!ok(off * 8 <= n, "%s: function_graph agrees rank by rank within a slot either "
		"side + the floor (%llu ns): %llu of %llu ranks off", m, (unsigned long long)h.sn.floor_ns,
		(unsigned long long)off, (unsigned long long)n))
		dump(&h);
}

/*
 * function_graph faces each mechanism; bpftrace faces both at once, later
 * (test_bpftrace()). (bpftrace once ran beside the default mechanism only,
 * after hangs blamed on kretprobe beside a bpftrace kprobe: the hang was
 * the harness waiting on bpftrace, see trace_bpftrace.c.)
 */
void test_oracles(uint32_t mech, const char *m)
{
	test_function_graph(mech, m);
}

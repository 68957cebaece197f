// SPDX-License-Identifier: GPL-2.0
/* Helpers of the tracing tests (trace_test.h): TAP, the target, TRACE, SNAPSHOT. */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "trace_test.h"

int fd, nr_tests, nr_failed;
uint64_t hz;

int ok(int cond, const char *fmt, ...)
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

void diag(const char *fmt, ...)
{
	va_list ap;

	printf("#   ");
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
}

uint64_t read_u64(const char *path)
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
uint64_t target(const char *cmd)
{
	int t = open(TARGET "ctl", O_WRONLY);

	if (t < 0 || write(t, cmd, strlen(cmd)) != (ssize_t)strlen(cmd))
		diag("target '%s': %s", cmd, strerror(errno));
	if (t >= 0)
		close(t);
	return read_u64(TARGET "calls");
}


int trace(int dev, const struct req *r)
{
	struct kstats_trace t = {
		.func = (uintptr_t)r->func, .start = (uintptr_t)r->start,
		.end = (uintptr_t)r->end, .frac_bits = r->bits ? r->bits : 3,
		.mechanism = r->mech, .flags = r->flags, .pid = r->pid,
		.tgid = r->tgid, .maxactive = r->maxactive, .key = r->key,
		.nr_keys = r->nr_keys, .cgroup_fd = r->cgroup_fd,
	};

	if (r->flags & KSTATS_TRACE_CPUS) {
		t.cpus = (uintptr_t)&r->cpus;
		t.cpus_len = sizeof(r->cpus);
	}

	strncpy((char *)t.name, r->name, sizeof(t.name) - 1);
	return ioctl(dev, KSTATS_IOC_TRACE, &t) ? errno : 0;
}

int untrace(const char *name)
{
	struct kstats_untrace u = { 0 };

	strncpy((char *)u.name, name, sizeof(u.name) - 1);
	return ioctl(fd, KSTATS_IOC_UNTRACE, &u) ? errno : 0;
}


int snap(const char *name, struct hist *h)
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
int within(const struct hist *h, uint64_t lo, uint64_t hi, unsigned int pct)
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


int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/* What the target's last recursion took, call by call, as the calls ended. */
uint64_t read_durations_in_order(uint64_t *v, uint64_t max)
{
	FILE *f = fopen(TARGET "durations", "r");
	unsigned long long x;
	uint64_t n = 0;

	while (f && n < max && fscanf(f, "%llu", &x) == 1)
		v[n++] = x;
	if (f)
		fclose(f);
	return n;
}

/* The same, ascending. */
uint64_t read_durations(uint64_t *v, uint64_t max)
{
	uint64_t n = read_durations_in_order(v, max);

	qsort(v, n, sizeof(*v), cmp_u64);
	return n;
}

/*
 * Ranks whose slot lies wholly below the sorted truth @t, and in @over
 * those wholly above it plus @slack.
 */
uint64_t against_truth(const struct hist *h, const uint64_t *t, uint64_t n,
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

int accounted(const char *what, const struct hist *h, uint64_t calls)
{
	return ok(h->total + h->sn.misses == calls && h->sn.hits == h->total,
		  "%s: samples %llu + misses %llu == calls %llu (hits %llu)", what,
		  (unsigned long long)h->total, (unsigned long long)h->sn.misses,
		  (unsigned long long)calls, (unsigned long long)h->sn.hits);
}

void dump(const struct hist *h)
{
	uint32_t b = h->sn.frac_bits, s;

	for (s = 0; s < kstats_hist_nslots(b); s++)
		if (h->counts[s])
			diag("slot [%llu, %llu]: %llu",
			     (unsigned long long)kstats_slot_low(s, b),
			     (unsigned long long)kstats_slot_last(s, b),
			     (unsigned long long)h->counts[s]);
}


// SPDX-License-Identifier: GPL-2.0
/*
 * SNAPSHOT and RECORD: exact contents against kstats_hist_locate()'s
 * prediction for every frac_bits, -ENOSPC and reusing the struct it
 * returns, nothing leaked around the buffer, all-or-nothing RECORD.
 */
#include "abi_test.h"

/* ---- helpers for the behaviour tests ---- */

uint64_t now_ns(clockid_t clk)
{
	struct timespec ts;

	clock_gettime(clk, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

/* The values of the exactness tests: every region of the 64-bit range. */
size_t make_values(uint64_t *v, size_t max)
{
	uint64_t x = 0x9E3779B97F4A7C15ULL;
	size_t n = 0;
	unsigned int k, i;

	v[n++] = 0;
	v[n++] = 1;
	v[n++] = UINT64_MAX;
	v[n++] = UINT64_MAX - 1;
	v[n++] = 1ULL << 63;
	for (k = 1; k < 64; k++) {
		v[n++] = (1ULL << k) - 1;
		v[n++] = 1ULL << k;
		v[n++] = (1ULL << k) + 1;
	}
	/* Inside wide slots, where part sums are shifted (xorshift64). */
	for (i = 0; i < 200 && n < max; i++) {
		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		k = 13 + i % 51;
		v[n++] = (1ULL << k) | (x & ((1ULL << k) - 1));
	}
	for (i = 0; i < 7; i++)		/* repeats */
		v[n++] = 1000;
	return n;
}

void hist_predict(struct hist *h, uint32_t bits, const uint64_t *v, size_t n)
{
	uint64_t part;
	uint32_t s;
	size_t i;

	memset(h, 0, sizeof(*h));
	for (i = 0; i < n; i++) {
		s = kstats_hist_locate(v[i], bits, &part);
		h->count[s]++;
		h->part[s] += part;
	}
	for (s = 0; s < kstats_hist_nslots(bits); s++)
		if (h->count[s] || h->part[s])
			h->nonempty++;
	h->total = n;
}

/*
 * A snapshot against the prediction: rows for the possible CPUs in order,
 * slots in CPU then slot order, CPU totals the sums of their slots, and
 * the per-slot sums over CPUs exactly as predicted (all on @cpu if >= 0).
 */
void check_snap(const struct snap *s, uint32_t bits, const struct hist *h, int cpu)
{
	static uint64_t count[KSTATS_SLOTS_MAX], part[KSTATS_SLOTS_MAX];
	uint32_t r, i, j = 0, nslots = kstats_hist_nslots(bits), sum_slots = 0;

	memset(count, 0, sizeof(count));
	memset(part, 0, sizeof(part));
	if (s->hdr.frac_bits != bits)
		tap_fail("frac_bits %u, want %u", s->hdr.frac_bits, bits);
	if (s->hdr.nr_cpus != g_nr_cpus || s->hdr.nr_cpus != g_info.nr_cpus)
		tap_fail("nr_cpus %u, possible CPUs %u, INFO %u", s->hdr.nr_cpus, g_nr_cpus,
			 g_info.nr_cpus);
	if (s->hdr.buf_len != (uint64_t)s->hdr.nr_cpus * 16 + (uint64_t)s->hdr.nr_slots * 24)
		tap_fail("buf_len %llu for %u CPUs and %u slots", (unsigned long long)s->hdr.buf_len,
			 s->hdr.nr_cpus, s->hdr.nr_slots);
	if (s->hdr.nr_slots != h->nonempty && cpu >= 0)
		tap_fail("nr_slots %u, want %u", s->hdr.nr_slots, h->nonempty);
	if (s->hdr.hits || s->hdr.misses || s->hdr.floor_ns)
		tap_fail("hits/misses/floor_ns non-zero for a user metric");
	for (r = 0; r < s->hdr.nr_cpus && r < g_nr_cpus; r++) {
		const struct kstats_snap_cpu *row = &s->cpus[r];
		uint64_t n = 0;

		if (row->cpu != g_cpus[r])
			tap_fail("row %u is CPU %u, want %u", r, row->cpu, g_cpus[r]);
		for (i = 0; i < row->nr_slots && j < s->hdr.nr_slots; i++, j++) {
			const struct kstats_snap_slot *sl = &s->slots[j];

			if (sl->cpu != row->cpu)
				tap_fail("slot entry %u: CPU %u in CPU %u's run", j, sl->cpu, row->cpu);
			if (sl->slot >= nslots) {
				tap_fail("slot entry %u: slot %u >= %u", j, sl->slot, nslots);
				continue;
			}
			if (i && sl->slot <= s->slots[j - 1].slot)
				tap_fail("slot entry %u: slot %u not ascending", j, sl->slot);
			if (!sl->count && !sl->part_sum)
				tap_fail("slot entry %u: empty slot %u listed", j, sl->slot);
			if (cpu >= 0 && row->cpu != (unsigned int)cpu)
				tap_fail("samples on CPU %u, recorded pinned to CPU %d", row->cpu, cpu);
			count[sl->slot] += sl->count;
			part[sl->slot] += sl->part_sum;
			n += sl->count;
		}
		sum_slots += row->nr_slots;
		if (row->count != n)
			tap_fail("CPU %u count %llu, its slots sum to %llu", row->cpu,
				 (unsigned long long)row->count, (unsigned long long)n);
	}
	if (sum_slots != s->hdr.nr_slots)
		tap_fail("rows list %u slots, nr_slots %u", sum_slots, s->hdr.nr_slots);
	for (i = 0; i < nslots; i++)
		if (count[i] != h->count[i] || part[i] != h->part[i]) {
			tap_fail("slot %u: count %llu part_sum %llu, want %llu %llu", i,
				 (unsigned long long)count[i], (unsigned long long)part[i],
				 (unsigned long long)h->count[i], (unsigned long long)h->part[i]);
			break;
		}
}

/* Records @n values in calls of varying sizes (chunk edges of the kernel's copy). */
int record_all(int fd, const char *name, const uint64_t *v, size_t n)
{
	static const size_t steps[] = { 1, 31, 32, 33, 64, 65, 4096 };
	size_t done = 0, i = 0, k;
	int err;

	while (done < n) {
		k = steps[i++ % ARRAY_SIZE(steps)];
		if (k > n - done)
			k = n - done;
		err = k_record(fd, name, v + done, (uint32_t)k);
		if (err)
			return err;
		done += k;
	}
	return 0;
}

int pin_here(cpu_set_t *old)
{
	cpu_set_t one;
	int cpu = sched_getcpu();

	sched_getaffinity(0, sizeof(*old), old);
	CPU_ZERO(&one);
	CPU_SET(cpu, &one);
	if (sched_setaffinity(0, sizeof(one), &one))
		return -1;
	return sched_getcpu() == cpu ? cpu : -1;
}

/* ---- infoleak ---- */

/* SNAPSHOT of @name into a buffer of 0xAA: only [0, buf_len) written, all of it defined. */
static void leak_snapshot(const char *name, int trace)
{
	struct kstats_snapshot s;
	uint64_t i, need, sum = 0;
	int err;

	memset(g_snapbuf, 0xAA, 65536);
	memset(&s, 0, sizeof(s));
	set_name(s.name, name);
	s.buf = U64PTR(g_snapbuf);
	s.buf_len = 65536;
	err = kioctl(g_fd, KSTATS_IOC_SNAPSHOT, &s);
	want_errno(err, 0, "SNAPSHOT");
	need = (uint64_t)g_info.nr_cpus * 16 + (uint64_t)s.nr_slots * 24;
	if (!err && s.buf_len != need)
		tap_fail("buf_len %llu, want %llu", (unsigned long long)s.buf_len,
			 (unsigned long long)need);
	for (i = s.buf_len; !err && i < 65536; i++)
		if (g_snapbuf[i] != 0xAA) {
			tap_fail("byte %llu past buf_len written", (unsigned long long)i);
			break;
		}
	for (i = 0; !err && i < s.nr_cpus; i++) {
		const struct kstats_snap_cpu *c = (const void *)(g_snapbuf + i * 16);

		sum += c->nr_slots;
		if (c->cpu != g_cpus[i] || (!trace && (c->nr_slots > 3 || c->count > 3)))
			tap_fail("row %llu: cpu %u nr_slots %u count %llu", (unsigned long long)i,
				 c->cpu, c->nr_slots, (unsigned long long)c->count);
	}
	for (i = 0; !err && i < s.nr_slots; i++) {
		const struct kstats_snap_slot *sl = (const void *)(g_snapbuf + s.nr_cpus * 16 + i * 24);

		if (sl->slot >= KSTATS_SLOTS_MAX || (!sl->count && !sl->part_sum))
			tap_fail("slot entry %llu: cpu %u slot %u count %llu", (unsigned long long)i,
				 sl->cpu, sl->slot, (unsigned long long)sl->count);
	}
	if (!err && sum != s.nr_slots)
		tap_fail("rows list %llu slots, nr_slots %u", (unsigned long long)sum, s.nr_slots);
	if (!all_zero(s.reserved, sizeof(s.reserved)))
		tap_fail("reserved not zero");
	if (!trace && (s.hits || s.misses || s.floor_ns))
		tap_fail("hits/misses/floor_ns not zero for a user metric");
	if (trace && s.kind != KSTATS_KIND_TRACE)
		tap_fail("kind %u", s.kind);
	tap_end("infoleak: SNAPSHOT of a %s over 0xAA: rows and slots defined, reserved zero, nothing past buf_len",
		trace ? "trace" : "user metric");
}

void test_infoleak_snapshot(void)
{
	uint64_t v[] = { 5, 1000, 123456789 };
	int err, zfd, i;
	char c;

	k_create(g_fd, "abi.leak.snap", 2, 0);
	k_record(g_fd, "abi.leak.snap", v, 3);
	leak_snapshot("abi.leak.snap", 0);
	k_delete(g_fd, "abi.leak.snap");

	err = k_trace(g_fd, "abi.leak.tr", TRACE_FUNC, NULL, NULL, KSTATS_MECH_AUTO, 0);
	if (err)
		tap_fail("TRACE: %s", errname(err));
	zfd = open("/dev/zero", O_RDONLY | O_CLOEXEC);
	for (i = 0; zfd >= 0 && i < 10; i++)
		if (read(zfd, &c, 1) != 1)
			tap_fail("read /dev/zero: %s", strerror(errno));
	if (zfd >= 0)
		close(zfd);
	leak_snapshot("abi.leak.tr", 1);
	k_untrace(g_fd, "abi.leak.tr");
}

/* ---- -ENOSPC ---- */

void test_enospc_snapshot(void)
{
	static struct hist h;
	const char *name = "abi.enospc";
	struct kstats_snapshot s, s2;
	cpu_set_t old;
	uint64_t need;
	uint8_t *buf;
	size_t n = make_values(g_values, KSTATS_RECORD_MAX);
	int err, cpu;

	hist_predict(&h, 3, g_values, n);
	k_create(g_fd, name, 3, 0);
	cpu = pin_here(&old);
	err = record_all(g_fd, name, g_values, n);
	sched_setaffinity(0, sizeof(old), &old);
	want_errno(err, 0, "RECORD");
	need = (uint64_t)g_info.nr_cpus * 16 + (uint64_t)h.nonempty * 24;
	if (cpu < 0)
		tap_note("could not pin to one CPU: slot count may differ");

	memset(g_snapbuf, 0xAA, 4096);
	memset(&s, 0, sizeof(s));
	set_name(s.name, name);
	s.buf = U64PTR(g_snapbuf);
	err = kioctl(g_fd, KSTATS_IOC_SNAPSHOT, &s);
	want_errno(err, ENOSPC, "SNAPSHOT buf_len 0");
	if (cpu >= 0 && s.buf_len != need)
		tap_fail("buf_len %llu, want nr_cpus*16 + %u slots*24 = %llu",
			 (unsigned long long)s.buf_len, h.nonempty, (unsigned long long)need);
	if (g_snapbuf[0] != 0xAA)
		tap_fail("buffer written on -ENOSPC");
	tap_end("SNAPSHOT buf_len 0 on a metric with data: ENOSPC, buf_len = exact size needed (%llu)",
		(unsigned long long)s.buf_len);
	need = s.buf_len;

	memset(&s2, 0, sizeof(s2));
	set_name(s2.name, name);
	s2.buf = U64PTR(g_snapbuf);
	s2.buf_len = need - 1;
	err = kioctl(g_fd, KSTATS_IOC_SNAPSHOT, &s2);
	want_errno(err, ENOSPC, "SNAPSHOT needed - 1");
	if (s2.buf_len != need)
		tap_fail("buf_len %llu, want %llu", (unsigned long long)s2.buf_len,
			 (unsigned long long)need);
	if (g_snapbuf[0] != 0xAA)
		tap_fail("buffer written on -ENOSPC");
	tap_end("SNAPSHOT buf_len needed - 1: ENOSPC, nothing written");

	memset(&s2, 0, sizeof(s2));
	set_name(s2.name, name);
	s2.buf = U64PTR(g_snapbuf);
	s2.buf_len = need;
	err = kioctl(g_fd, KSTATS_IOC_SNAPSHOT, &s2);
	want_errno(err, 0, "SNAPSHOT exact size");
	if (!err && s2.buf_len != need)
		tap_fail("buf_len %llu, want %llu", (unsigned long long)s2.buf_len,
			 (unsigned long long)need);
	tap_end("SNAPSHOT with exactly that size works");

	/* The struct -ENOSPC gave back (buf set, buf_len now the size needed), as is. */
	memset(&s, 0, sizeof(s));
	set_name(s.name, name);
	s.buf = U64PTR(g_snapbuf);
	s.buf_len = 1;
	err = kioctl(g_fd, KSTATS_IOC_SNAPSHOT, &s);
	want_errno(err, ENOSPC, "SNAPSHOT buf_len 1");
	if (s.buf_len != need)
		tap_fail("buf_len %llu, want %llu", (unsigned long long)s.buf_len,
			 (unsigned long long)need);
	err = kioctl(g_fd, KSTATS_IOC_SNAPSHOT, &s);
	want_errno(err, 0, "SNAPSHOT again with the struct ENOSPC returned, unchanged");
	if (!err && (s.buf_len != need || s.nr_cpus != g_info.nr_cpus || s.frac_bits != 3 ||
		     s.kind != KSTATS_KIND_USER || !s.time_ns ||
		     (cpu >= 0 && s.nr_slots != h.nonempty)))
		tap_fail("buf_len %llu nr_cpus %u frac_bits %u kind %u nr_slots %u time_ns %llu",
			 (unsigned long long)s.buf_len, s.nr_cpus, s.frac_bits, s.kind, s.nr_slots,
			 (unsigned long long)s.time_ns);
	tap_end("SNAPSHOT retried with the struct -ENOSPC returned, unchanged: works, out fields filled in");

	/* The usual loop: ask with no buffer, allocate what ENOSPC says, call again. */
	memset(&s, 0, sizeof(s));
	set_name(s.name, name);
	err = kioctl(g_fd, KSTATS_IOC_SNAPSHOT, &s);
	want_errno(err, ENOSPC, "SNAPSHOT buf NULL, buf_len 0");
	buf = err == ENOSPC ? malloc(s.buf_len) : NULL;
	s.buf = U64PTR(buf);
	err = buf ? kioctl(g_fd, KSTATS_IOC_SNAPSHOT, &s) : ENOMEM;
	want_errno(err, 0, "SNAPSHOT with buf set to what ENOSPC asked for");
	if (!err && (s.buf_len != need || memcmp(buf, g_snapbuf, need)))
		tap_fail("buf_len %llu, or contents differ from the snapshot before",
			 (unsigned long long)s.buf_len);
	free(buf);
	tap_end("SNAPSHOT: buf NULL -> ENOSPC, then only buf set to a buffer of buf_len bytes: works, same contents");
	k_delete(g_fd, name);
}

/* ---- exact contents ---- */

void test_exact(void)
{
	static struct hist h;
	static uint64_t big[KSTATS_RECORD_MAX];
	struct kstats_metric_info *all = NULL;
	const struct kstats_metric_info *m;
	struct snap s = { 0 }, s2 = { 0 };
	char name[32];
	uint64_t t0, t1, r0, r1;
	size_t n = make_values(g_values, KSTATS_RECORD_MAX), i;
	uint32_t bits, nm;
	cpu_set_t old;
	int err, cpu;

	for (bits = 0; bits <= KSTATS_FRAC_BITS_MAX; bits++) {
		snprintf(name, sizeof(name), "abi.exact.b%u", bits);
		hist_predict(&h, bits, g_values, n);
		err = k_create(g_fd, name, bits, 0);
		want_errno(err, 0, "CREATE");
		cpu = pin_here(&old);
		err = record_all(g_fd, name, g_values, n);
		sched_setaffinity(0, sizeof(old), &old);
		want_errno(err, 0, "RECORD");
		if (cpu < 0)
			tap_note("could not pin to one CPU: checking sums over CPUs only");
		t0 = now_ns(CLOCK_MONOTONIC);
		r0 = now_ns(CLOCK_REALTIME);
		err = k_snapshot(g_fd, name, &s);
		t1 = now_ns(CLOCK_MONOTONIC);
		r1 = now_ns(CLOCK_REALTIME);
		want_errno(err, 0, "SNAPSHOT");
		if (!err) {
			check_snap(&s, bits, &h, cpu);
			if (s.hdr.kind != KSTATS_KIND_USER)
				tap_fail("kind %u", s.hdr.kind);
			if (s.hdr.metric_flags != KSTATS_METRIC_ACTIVE)
				tap_fail("metric_flags 0x%x", s.hdr.metric_flags);
			if (!s.hdr.time_ns || s.hdr.time_ns < t0 || s.hdr.time_ns > t1)
				tap_fail("time_ns %llu outside [%llu, %llu]",
					 (unsigned long long)s.hdr.time_ns,
					 (unsigned long long)t0, (unsigned long long)t1);
			if (!s.hdr.realtime_ns || s.hdr.realtime_ns + 1000000 < r0 ||
			    s.hdr.realtime_ns > r1 + 1000000)
				tap_fail("realtime_ns %llu outside [%llu, %llu]",
					 (unsigned long long)s.hdr.realtime_ns,
					 (unsigned long long)r0, (unsigned long long)r1);
		}
		m = list_one(g_fd, name, &all, &nm);
		if (!m || m->count != n || m->frac_bits != bits)
			tap_fail("LIST count %llu frac_bits %u, want %zu %u",
				 m ? (unsigned long long)m->count : 0ULL, m ? m->frac_bits : 0, n, bits);
		free(all);
		tap_end("exact: frac_bits %u, %zu values (0, 1, 2^k-1..2^k+1, wide slots, UINT64_MAX): %u slots, counts and part sums as kstats_hist_locate()",
			bits, n, h.nonempty);
		k_delete(g_fd, name);
	}

	/* Two snapshots 50 ms apart (coarser than any jiffies clock): time moves on. */
	k_create(g_fd, "abi.exact.time", 0, 0);
	err = k_snapshot(g_fd, "abi.exact.time", &s);
	nanosleep(&(struct timespec){ .tv_nsec = 50000000 }, NULL);
	err = err ?: k_snapshot(g_fd, "abi.exact.time", &s2);
	want_errno(err, 0, "SNAPSHOT");
	if (!err && !(s2.hdr.time_ns > s.hdr.time_ns))
		tap_fail("time_ns %llu then %llu", (unsigned long long)s.hdr.time_ns,
			 (unsigned long long)s2.hdr.time_ns);
	if (!err && (s.hdr.nr_slots || snap_count(&s)))
		tap_fail("a new metric has %u slots", s.hdr.nr_slots);
	tap_end("SNAPSHOT: time_ns increases between two snapshots; a new metric is empty");
	k_delete(g_fd, "abi.exact.time");

	/* A full RECORD_MAX batch, all the same value. */
	for (i = 0; i < KSTATS_RECORD_MAX; i++)
		big[i] = 4242;
	k_create(g_fd, "abi.exact.max", 4, 0);
	err = k_record(g_fd, "abi.exact.max", big, KSTATS_RECORD_MAX);
	want_errno(err, 0, "RECORD");
	err = k_snapshot(g_fd, "abi.exact.max", &s);
	want_errno(err, 0, "SNAPSHOT");
	if (!err) {
		hist_predict(&h, 4, big, KSTATS_RECORD_MAX);
		check_snap(&s, 4, &h, -1);
	}
	m = list_one(g_fd, "abi.exact.max", &all, &nm);
	if (!m || m->count != KSTATS_RECORD_MAX)
		tap_fail("LIST count %llu", m ? (unsigned long long)m->count : 0ULL);
	free(all);
	tap_end("RECORD of RECORD_MAX samples lands exactly");
	k_delete(g_fd, "abi.exact.max");
	snap_free(&s);
	snap_free(&s2);
}

/*
 * RECORD whose values run into an unmapped page: -EFAULT, and all or
 * nothing: not even the samples before the fault land.
 */
void test_record_partial_fault(void)
{
	const char *name = "abi.fault";
	uint64_t *v = (uint64_t *)(g_edge - 40 * sizeof(uint64_t));
	struct snap s = { 0 };
	int err, i;

	for (i = 0; i < 40; i++)
		v[i] = 7;
	k_create(g_fd, name, 0, 0);
	err = k_record(g_fd, name, v, 64);
	want_errno(err, EFAULT, "RECORD");
	err = k_snapshot(g_fd, name, &s);
	want_errno(err, 0, "SNAPSHOT");
	if (!err && snap_count(&s))
		tap_fail("%llu of the 40 readable samples landed before the fault",
			 (unsigned long long)snap_count(&s));
	tap_end("RECORD with values running into a PROT_NONE page: EFAULT, no sample lands");
	snap_free(&s);
	k_delete(g_fd, name);
}

/* ---- generation: what tells a later snapshot of the same series ---- */

static uint64_t generation_of(const char *name)
{
	struct snap s = { 0 };
	uint64_t gen = 0;

	if (k_snapshot(g_fd, name, &s))
		tap_fail("SNAPSHOT %s", name);
	else
		gen = s.hdr.generation;
	snap_free(&s);
	return gen;
}

void test_generation(void)
{
	uint64_t v[] = { 7, 7000 }, g1, g2, g3, g4;
	const char *name = "abi.gen";

	tap_begin();
	k_create(g_fd, name, 3, 0);
	g1 = generation_of(name);
	k_record(g_fd, name, v, 2);
	k_control(g_fd, name, KSTATS_OP_STOP, 0);
	k_control(g_fd, name, KSTATS_OP_START, 0);
	g2 = generation_of(name);
	k_control(g_fd, name, KSTATS_OP_RESET, 0);
	g3 = generation_of(name);
	k_delete(g_fd, name);
	k_create(g_fd, name, 3, 0);
	g4 = generation_of(name);
	k_delete(g_fd, name);
	if (!g1 || g1 != g2)
		tap_fail("generation %llu, then %llu after record/stop/start: want one, non-zero",
			 (unsigned long long)g1, (unsigned long long)g2);
	if (g3 == g2 || !g3)
		tap_fail("generation %llu after RESET, was %llu", (unsigned long long)g3,
			 (unsigned long long)g2);
	if (g4 == g3 || g4 == g1 || !g4)
		tap_fail("generation %llu for the metric created again (had %llu, %llu)",
			 (unsigned long long)g4, (unsigned long long)g1, (unsigned long long)g3);
	tap_end("SNAPSHOT generation: non-zero, kept by record/stop/start, new on RESET and on creation");
}

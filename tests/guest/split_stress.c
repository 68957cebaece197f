// SPDX-License-Identifier: GPL-2.0
/*
 * Splits made by the scheduler: NR_THREADS threads RECORD known values into
 * one metric at once while a migrator thread keeps moving them between the
 * online CPUs (sched_setaffinity). kstats_record() has no preemption
 * guard, so on a preemptible kernel (the RT lane's above all) a thread
 * moved between its two per-CPU adds leaves the count on one CPU and the
 * part sum on another. Once every thread is done, the snapshot must hold:
 *  - total count == values recorded, total sum == their exact sum;
 *  - per slot, folded over the CPUs: exactly the predicted count and part
 *    sum, so the folded mean is the slot's one value (each slot gets one,
 *    its last: the largest part, so any extra part on a CPU shows);
 *  - every per-CPU slot mean (kstats_slot_mean(), clamped) inside the slot.
 * Splits seen (a CPU's part sum not count x part) are reported, not
 * required: the window is one instruction, and under QEMU's TCG (the VM
 * lanes) an interrupt is taken only between translation blocks, and the
 * two adds sit in one (unless it ends at a page boundary), so the lanes see
 * none; kstats_split_test.ko makes them instead. On hardware or KVM a preemptible kernel can. The
 * metric is left for split-tests.sh, which reads it with kstatsctl and
 * deletes it.
 *
 * Usage: split_stress NAME [CALLS_PER_THREAD]   (default 48)
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <sys/syscall.h>

#include "abi_util.h"

#define NR_THREADS	8
#define BITS		3
/* Slots 16..103 at frac_bits 3: [16, 18) .. [30720, 32768), 2 to 2048 wide. */
#define FIRST_SLOT	16
#define NR_VALS		88

static const char *name;
static unsigned int calls = 48;
static uint64_t vals[NR_VALS];
static atomic_int tids[NR_THREADS], running, errors;
static int fd;

static void *recorder(void *arg)
{
	static __thread uint64_t buf[KSTATS_RECORD_MAX];
	unsigned int t = (unsigned int)(uintptr_t)arg, i, k;

	atomic_store(&tids[t], (int)syscall(SYS_gettid));
	for (i = 0; i < calls; i++) {
		for (k = 0; k < KSTATS_RECORD_MAX; k++)
			buf[k] = vals[(k + t + i) % NR_VALS];
		if (k_record(fd, name, buf, KSTATS_RECORD_MAX))
			atomic_fetch_add(&errors, 1);
	}
	atomic_fetch_sub(&running, 1);
	return NULL;
}

/* Moves each recorder to the next online CPU, round after round. */
static void *migrator(void *arg)
{
	unsigned int ncpu = (unsigned int)(uintptr_t)arg, round = 0, t;
	cpu_set_t set;

	while (atomic_load(&running)) {
		for (t = 0; t < NR_THREADS; t++) {
			int tid = atomic_load(&tids[t]);

			if (!tid)
				continue;
			CPU_ZERO(&set);
			CPU_SET((round + t) % ncpu, &set);
			sched_setaffinity(tid, sizeof(set), &set);	/* gone: ESRCH */
		}
		round++;
	}
	return NULL;
}

int main(int argc, char **argv)
{
	uint64_t count[NR_VALS] = { 0 }, want_sum = 0, got_sum = 0, total = 0;
	uint64_t fcount[NR_VALS] = { 0 }, fpart[NR_VALS] = { 0 }, part[NR_VALS];
	unsigned int t, i, k, ncpu = (unsigned int)sysconf(_SC_NPROCESSORS_ONLN);
	unsigned int splits = 0, outside = 0;
	pthread_t th[NR_THREADS], mig;
	struct snap s = { 0 };
	int err;

	if (argc < 2 || argc > 3) {
		fprintf(stderr, "usage: split_stress NAME [CALLS_PER_THREAD]\n");
		return 2;
	}
	name = argv[1];
	if (argc == 3)
		calls = (unsigned int)strtoul(argv[2], NULL, 0);
	tap_init();
	for (i = 0; i < NR_VALS; i++) {
		vals[i] = kstats_slot_last(FIRST_SLOT + i, BITS);
		kstats_hist_locate(vals[i], BITS, &part[i]);
	}
	for (t = 0; t < NR_THREADS; t++)
		for (i = 0; i < calls; i++)
			for (k = 0; k < KSTATS_RECORD_MAX; k++)
				count[(k + t + i) % NR_VALS]++;
	fd = kopen();
	if (fd < 0 || (err = k_create(fd, name, BITS, 0))) {
		tap_fail("open/CREATE %s: %s", name, errname(fd < 0 ? errno : err));
		tap_end("create the metric");
		return tap_finish();
	}

	atomic_store(&running, NR_THREADS);
	for (t = 0; t < NR_THREADS; t++)
		pthread_create(&th[t], NULL, recorder, (void *)(uintptr_t)t);
	pthread_create(&mig, NULL, migrator, (void *)(uintptr_t)(ncpu ? ncpu : 1));
	for (t = 0; t < NR_THREADS; t++)
		pthread_join(th[t], NULL);
	pthread_join(mig, NULL);
	if (atomic_load(&errors))
		tap_fail("%d RECORD calls failed", atomic_load(&errors));
	tap_end("%d threads x %u RECORDs of %d values, migrated across %u CPUs",
		NR_THREADS, calls, KSTATS_RECORD_MAX, ncpu);

	/* No record in flight now: every total is exact. */
	err = k_snapshot(fd, name, &s);
	if (err)
		tap_fail("SNAPSHOT: %s", errname(err));
	for (i = 0; !err && i < s.hdr.nr_slots; i++) {
		const struct kstats_snap_slot *sl = &s.slots[i];
		uint32_t v = sl->slot - FIRST_SLOT;
		uint64_t m = kstats_slot_mean(sl->slot, BITS, sl->count, sl->part_sum);

		if (sl->slot < FIRST_SLOT || v >= NR_VALS) {
			tap_fail("CPU %u: samples in slot %u, recorded none", sl->cpu, sl->slot);
			continue;
		}
		fcount[v] += sl->count;
		fpart[v] += sl->part_sum;
		splits += sl->part_sum != sl->count * part[v];
		if (sl->count && (m < kstats_slot_low(sl->slot, BITS) || m > vals[v]) &&
		    outside++ < 5)
			tap_fail("CPU %u slot %u: mean %llu outside the slot", sl->cpu,
				 sl->slot, (unsigned long long)m);
	}
	for (i = 0; i < NR_VALS; i++) {
		uint32_t slot = FIRST_SLOT + i;

		total += fcount[i];
		want_sum += count[i] * vals[i];
		got_sum += fcount[i] * kstats_slot_low(slot, BITS) + fpart[i];
		if (fcount[i] != count[i] || fpart[i] != count[i] * part[i])
			tap_fail("slot %u: count %llu part sum %llu, want %llu %llu", slot,
				 (unsigned long long)fcount[i], (unsigned long long)fpart[i],
				 (unsigned long long)count[i],
				 (unsigned long long)(count[i] * part[i]));
		else if (kstats_slot_mean(slot, BITS, fcount[i], fpart[i]) != vals[i])
			tap_fail("slot %u: folded mean %llu, want %llu", slot,
				 (unsigned long long)kstats_slot_mean(slot, BITS, fcount[i],
								      fpart[i]),
				 (unsigned long long)vals[i]);
	}
	if (total != (uint64_t)NR_THREADS * calls * KSTATS_RECORD_MAX || got_sum != want_sum)
		tap_fail("count %llu sum %llu, want %llu %llu", (unsigned long long)total,
			 (unsigned long long)got_sum,
			 (unsigned long long)NR_THREADS * calls * KSTATS_RECORD_MAX,
			 (unsigned long long)want_sum);
	tap_note("%u per-CPU slots split (count and part sum on different CPUs)", splits);
	tap_end("folded over CPUs: exact count, sum and slot means; per-CPU means in their slots");
	snap_free(&s);
	close(fd);
	return tap_finish();
}

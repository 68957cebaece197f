// SPDX-License-Identifier: GPL-2.0
/*
 * /dev/kstats under concurrency: NR_WORKERS threads, each with its own
 * file, run a fixed number of random operations on the SAME few metric
 * names (create, record, snapshot, reset, stop/start, delete, list, info),
 * while one more thread keeps creating AUTOREMOVE metrics on those names
 * and closing and reopening its file. Every call may fail only with the
 * errnos that race makes legitimate for it (EEXIST, ENOENT); anything else
 * fails the run. Snapshots and lists taken in the middle must still be
 * self-consistent.
 *
 * Then: everything created is deleted and LIST shows none of the names;
 * and a deterministic phase where every thread records exactly K known
 * samples into one metric at once, which must then hold exactly the
 * predicted histogram (NR_WORKERS * K samples).
 *
 * Output is TAP, then "P passed, F failed"; exit status 0 only if none
 * failed. Bounded by iteration counts, not time.
 *
 * Usage: abi_stress [OPERATIONS_PER_THREAD]   (default 4000)
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdatomic.h>

#include "abi_util.h"

#define NR_WORKERS	8
#define NR_ITERS	4000	/* default; argv[1] overrides */
#define NR_NAMES	4
#define EXACT_K		20000
#define EXACT_BITS	3

static const char *const names[NR_NAMES] = {
	"stress.a", "stress.b", "stress.c", "stress.d",
};
#define AUTO_NAME	"stress.auto"	/* the closer's own */

/* Every metric called names[i] is created with frac_bits bits_of(i). */
static uint32_t bits_of(unsigned int i)
{
	return (i * 2 + 1) % (KSTATS_FRAC_BITS_MAX + 1);
}

enum op { OP_CREATE, OP_RECORD, OP_SNAPSHOT, OP_RESET, OP_STOP, OP_START,
	  OP_DELETE, OP_LIST, OP_INFO, OP_CLOSE, NR_OPS };

static const char *const op_names[NR_OPS] = {
	"CREATE (EEXIST allowed)", "RECORD (ENOENT allowed)",
	"SNAPSHOT (ENOENT allowed, ENOSPC retried)", "CONTROL RESET (ENOENT allowed)",
	"CONTROL STOP (ENOENT allowed)", "CONTROL START (ENOENT allowed)",
	"DELETE (ENOENT allowed)", "LIST (ENOSPC retried)", "INFO",
	"close/reopen with AUTOREMOVE metrics",
};

static unsigned int nr_iters = NR_ITERS, closer_rounds = NR_ITERS * 3 / 8;
static atomic_ulong calls[NR_OPS], succeeded[NR_OPS], bad[NR_OPS];
static uint32_t nr_cpus;

/* The first few unexpected results, for the diagnostics. */
static pthread_mutex_t log_lock = PTHREAD_MUTEX_INITIALIZER;
static char log_lines[16][160];
static unsigned int nr_log;

static __attribute__((format(printf, 2, 3))) void unexpected(enum op op, const char *fmt, ...)
{
	va_list ap;

	atomic_fetch_add(&bad[op], 1);
	pthread_mutex_lock(&log_lock);
	if (nr_log < ARRAY_SIZE(log_lines)) {
		va_start(ap, fmt);
		vsnprintf(log_lines[nr_log++], sizeof(log_lines[0]), fmt, ap);
		va_end(ap);
	}
	pthread_mutex_unlock(&log_lock);
}

/* Counts a call; err must be 0 or one of the allowed errnos (0-terminated). */
static int account(enum op op, int err, const char *name, int allow1, int allow2)
{
	atomic_fetch_add(&calls[op], 1);
	if (!err) {
		atomic_fetch_add(&succeeded[op], 1);
		return 0;
	}
	if ((allow1 && err == allow1) || (allow2 && err == allow2))
		return err;
	unexpected(op, "%s %s: %s (%d)", op_names[op], name ? name : "", errname(err), err);
	return err;
}

static uint64_t rnd(uint64_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return *s;
}

static int name_index(const char *name)
{
	unsigned int i;

	for (i = 0; i < NR_NAMES; i++)
		if (!strncmp(name, names[i], KSTATS_NAME_LEN))
			return (int)i;
	return -1;
}

/* A snapshot taken mid-race is still well formed. */
static void check_snapshot(const struct snap *s, unsigned int idx)
{
	uint32_t r, i, j = 0, nslots;

	if (s->hdr.frac_bits != bits_of(idx) || s->hdr.nr_cpus != nr_cpus ||
	    s->hdr.kind != KSTATS_KIND_USER ||
	    s->hdr.buf_len != (uint64_t)s->hdr.nr_cpus * 16 + (uint64_t)s->hdr.nr_slots * 24) {
		unexpected(OP_SNAPSHOT, "%s: frac_bits %u nr_cpus %u kind %u buf_len %llu nr_slots %u",
			   names[idx], s->hdr.frac_bits, s->hdr.nr_cpus, s->hdr.kind,
			   (unsigned long long)s->hdr.buf_len, s->hdr.nr_slots);
		return;
	}
	nslots = kstats_hist_nslots(s->hdr.frac_bits);
	for (r = 0; r < s->hdr.nr_cpus; r++) {
		uint64_t n = 0;

		for (i = 0; i < s->cpus[r].nr_slots; i++, j++) {
			if (j >= s->hdr.nr_slots || s->slots[j].cpu != s->cpus[r].cpu ||
			    s->slots[j].slot >= nslots) {
				unexpected(OP_SNAPSHOT, "%s: slot entry %u malformed", names[idx], j);
				return;
			}
			n += s->slots[j].count;
		}
		if (n != s->cpus[r].count) {
			unexpected(OP_SNAPSHOT, "%s: CPU %u count %llu, slots sum to %llu",
				   names[idx], s->cpus[r].cpu,
				   (unsigned long long)s->cpus[r].count, (unsigned long long)n);
			return;
		}
	}
	if (j != s->hdr.nr_slots)
		unexpected(OP_SNAPSHOT, "%s: rows cover %u of %u slots", names[idx], j,
			   s->hdr.nr_slots);
}

static void check_list(const struct kstats_metric_info *e, uint32_t n)
{
	uint32_t i;
	int idx;

	for (i = 0; i < n; i++) {
		idx = name_index((const char *)e[i].name);
		if (idx < 0)
			continue;
		if (e[i].kind != KSTATS_KIND_USER || e[i].frac_bits != bits_of((unsigned int)idx) ||
		    (e[i].flags & ~(KSTATS_METRIC_ACTIVE | KSTATS_METRIC_AUTOREMOVE)))
			unexpected(OP_LIST, "%s: kind %u frac_bits %u flags 0x%x", e[i].name,
				   e[i].kind, e[i].frac_bits, e[i].flags);
	}
}

static void *worker(void *arg)
{
	unsigned int id = (unsigned int)(uintptr_t)arg, it, i;
	uint64_t seed = 0x2545F4914F6CDD1DULL * (id + 1), vals[64];
	struct kstats_metric_info *all;
	struct kstats_info info;
	struct snap s = { 0 };
	uint32_t n;
	int fd = kopen(), err;

	if (fd < 0) {
		unexpected(OP_INFO, "thread %u: open: %s", id, strerror(errno));
		return NULL;
	}
	for (it = 0; it < nr_iters; it++) {
		unsigned int idx = (unsigned int)(rnd(&seed) % NR_NAMES);
		const char *name = names[idx];
		uint64_t r = rnd(&seed) % 100;

		if (r < 15) {
			err = k_create(fd, name, bits_of(idx), 0);
			account(OP_CREATE, err, name, EEXIST, 0);
		} else if (r < 45) {
			n = 1 + (uint32_t)(rnd(&seed) % ARRAY_SIZE(vals));
			for (i = 0; i < n; i++)
				vals[i] = rnd(&seed) >> (rnd(&seed) % 64);
			err = k_record(fd, name, vals, n);
			account(OP_RECORD, err, name, ENOENT, 0);
		} else if (r < 60) {
			err = k_snapshot(fd, name, &s);
			if (!account(OP_SNAPSHOT, err, name, ENOENT, 0))
				check_snapshot(&s, idx);
		} else if (r < 66) {
			err = k_control(fd, name, KSTATS_OP_RESET, 0);
			account(OP_RESET, err, name, ENOENT, 0);
		} else if (r < 71) {
			err = k_control(fd, name, KSTATS_OP_STOP, 0);
			account(OP_STOP, err, name, ENOENT, 0);
		} else if (r < 78) {
			err = k_control(fd, name, KSTATS_OP_START, 0);
			account(OP_START, err, name, ENOENT, 0);
		} else if (r < 88) {
			err = k_delete(fd, name);
			account(OP_DELETE, err, name, ENOENT, 0);
		} else if (r < 96) {
			err = k_list(fd, &all, &n);
			if (!account(OP_LIST, err, NULL, 0, 0))
				check_list(all, n);
			free(all);
		} else {
			err = k_info(fd, &info);
			if (!account(OP_INFO, err, NULL, 0, 0) && info.nr_cpus != nr_cpus)
				unexpected(OP_INFO, "nr_cpus %u", info.nr_cpus);
		}
	}
	snap_free(&s);
	close(fd);
	return NULL;
}

/* Creates AUTOREMOVE metrics (its own and the shared names), records, closes. */
static void *closer(void *arg)
{
	uint64_t seed = 0x9E3779B97F4A7C15ULL, vals[16];
	unsigned int round, i;
	int fd, err;

	(void)arg;
	for (i = 0; i < ARRAY_SIZE(vals); i++)
		vals[i] = i * 1000;
	for (round = 0; round < closer_rounds; round++) {
		unsigned int idx = (unsigned int)(rnd(&seed) % NR_NAMES);

		fd = kopen();
		if (fd < 0) {
			unexpected(OP_CLOSE, "open: %s", strerror(errno));
			return NULL;
		}
		err = k_create(fd, AUTO_NAME, 2, KSTATS_CREATE_AUTOREMOVE);
		account(OP_CREATE, err, AUTO_NAME, 0, 0);
		err = k_create(fd, names[idx], bits_of(idx), KSTATS_CREATE_AUTOREMOVE);
		account(OP_CREATE, err, names[idx], EEXIST, 0);
		err = k_record(fd, AUTO_NAME, vals, ARRAY_SIZE(vals));
		account(OP_RECORD, err, AUTO_NAME, 0, 0);
		err = k_record(fd, names[idx], vals, ARRAY_SIZE(vals));
		account(OP_RECORD, err, names[idx], ENOENT, 0);
		atomic_fetch_add(&calls[OP_CLOSE], 1);
		if (close(fd))
			unexpected(OP_CLOSE, "close: %s", strerror(errno));
		else
			atomic_fetch_add(&succeeded[OP_CLOSE], 1);
	}
	return NULL;
}

/* ---- the deterministic phase ---- */

static pthread_barrier_t exact_barrier;
static atomic_int exact_errors;

static uint64_t exact_value(unsigned int thread, unsigned int i)
{
	uint64_t x = ((uint64_t)thread << 32 | i) * 0x9E3779B97F4A7C15ULL;

	return x >> (i % 64);
}

static void *exact_worker(void *arg)
{
	unsigned int id = (unsigned int)(uintptr_t)arg, done = 0, i, n;
	static __thread uint64_t vals[KSTATS_RECORD_MAX];
	int fd = kopen(), err;

	pthread_barrier_wait(&exact_barrier);
	while (fd >= 0 && done < EXACT_K) {
		n = EXACT_K - done < 1000 + id ? EXACT_K - done : 1000 + id;
		for (i = 0; i < n; i++)
			vals[i] = exact_value(id, done + i);
		err = k_record(fd, "stress.exact", vals, n);
		if (err) {
			atomic_fetch_add(&exact_errors, 1);
			unexpected(OP_RECORD, "thread %u: RECORD stress.exact: %s", id, errname(err));
			break;
		}
		done += n;
	}
	if (fd < 0)
		atomic_fetch_add(&exact_errors, 1);
	else
		close(fd);
	return NULL;
}

/* Snapshots while the exact workers record: totals never go down. */
static atomic_int exact_running;

static void *exact_watcher(void *arg)
{
	struct snap s = { 0 };
	uint64_t last = 0, now;
	int fd = kopen(), err;

	(void)arg;
	pthread_barrier_wait(&exact_barrier);
	while (fd >= 0 && atomic_load(&exact_running)) {
		err = k_snapshot(fd, "stress.exact", &s);
		if (err) {
			unexpected(OP_SNAPSHOT, "watcher: %s", errname(err));
			break;
		}
		now = snap_count(&s);
		if (now < last)
			unexpected(OP_SNAPSHOT, "watcher: total went from %llu down to %llu",
				   (unsigned long long)last, (unsigned long long)now);
		last = now;
	}
	snap_free(&s);
	if (fd >= 0)
		close(fd);
	return NULL;
}

static void print_log(void)
{
	unsigned int i;

	pthread_mutex_lock(&log_lock);
	for (i = 0; i < nr_log; i++)
		tap_fail("%s", log_lines[i]);
	nr_log = 0;
	pthread_mutex_unlock(&log_lock);
}

static void test_exact(int fd)
{
	static uint64_t want_count[KSTATS_SLOTS_MAX], want_part[KSTATS_SLOTS_MAX];
	static uint64_t got_count[KSTATS_SLOTS_MAX], got_part[KSTATS_SLOTS_MAX];
	pthread_t th[NR_WORKERS + 1];
	struct snap s = { 0 };
	unsigned int t, i;
	uint64_t part, total;
	uint32_t slot;
	int err;

	err = k_create(fd, "stress.exact", EXACT_BITS, 0);
	want_errno(err, 0, "CREATE stress.exact");
	pthread_barrier_init(&exact_barrier, NULL, NR_WORKERS + 1);
	atomic_store(&exact_running, 1);
	for (t = 0; t < NR_WORKERS; t++)
		pthread_create(&th[t], NULL, exact_worker, (void *)(uintptr_t)t);
	pthread_create(&th[NR_WORKERS], NULL, exact_watcher, NULL);
	for (t = 0; t < NR_WORKERS; t++)
		pthread_join(th[t], NULL);
	atomic_store(&exact_running, 0);
	pthread_join(th[NR_WORKERS], NULL);
	pthread_barrier_destroy(&exact_barrier);
	print_log();
	if (atomic_load(&exact_errors))
		tap_fail("%d recording threads failed", atomic_load(&exact_errors));

	for (t = 0; t < NR_WORKERS; t++)
		for (i = 0; i < EXACT_K; i++) {
			slot = kstats_hist_locate(exact_value(t, i), EXACT_BITS, &part);
			want_count[slot]++;
			want_part[slot] += part;
		}
	err = k_snapshot(fd, "stress.exact", &s);
	want_errno(err, 0, "SNAPSHOT stress.exact");
	total = err ? 0 : snap_count(&s);
	for (i = 0; !err && i < s.hdr.nr_slots; i++) {
		got_count[s.slots[i].slot] += s.slots[i].count;
		got_part[s.slots[i].slot] += s.slots[i].part_sum;
	}
	if (total != (uint64_t)NR_WORKERS * EXACT_K)
		tap_fail("total %llu, want %llu", (unsigned long long)total,
			 (unsigned long long)NR_WORKERS * EXACT_K);
	for (i = 0; !err && i < kstats_hist_nslots(EXACT_BITS); i++)
		if (got_count[i] != want_count[i] || got_part[i] != want_part[i]) {
			tap_fail("slot %u: count %llu part_sum %llu, want %llu %llu", i,
				 (unsigned long long)got_count[i], (unsigned long long)got_part[i],
				 (unsigned long long)want_count[i], (unsigned long long)want_part[i]);
			break;
		}
	tap_end("exact: %d threads x %d samples at once into one metric: total %llu, every slot's count and part sum as predicted",
		NR_WORKERS, EXACT_K, (unsigned long long)total);
	snap_free(&s);
	err = k_delete(fd, "stress.exact");
	want_errno(err, 0, "DELETE stress.exact");
	tap_end("exact: DELETE stress.exact");
}

int main(int argc, char **argv)
{
	pthread_t th[NR_WORKERS + 1];
	struct kstats_metric_info *all = NULL;
	struct kstats_info info;
	unsigned int t, i;
	uint32_t n;
	int fd, err;

	if (argc > 1) {
		nr_iters = (unsigned int)strtoul(argv[1], NULL, 0);
		closer_rounds = nr_iters * 3 / 8 ?: 1;
	}
	tap_init();
	printf("# kstats ABI stress: %d threads x %u operations on %d names, plus a closer (%u rounds)\n",
	       NR_WORKERS, nr_iters, NR_NAMES, closer_rounds);
	fd = kopen();
	if (fd < 0)
		tap_fail("open %s: %s (is kstats.ko loaded?)", KSTATS_DEVICE, strerror(errno));
	tap_end("open %s", KSTATS_DEVICE);
	if (fd < 0)
		return tap_finish();
	err = k_info(fd, &info);
	want_errno(err, 0, "INFO");
	nr_cpus = info.nr_cpus;
	tap_end("INFO: %u CPUs", nr_cpus);

	/* Leftovers of an earlier, interrupted run. */
	for (i = 0; i < NR_NAMES; i++)
		k_delete(fd, names[i]);
	k_delete(fd, AUTO_NAME);
	k_delete(fd, "stress.exact");

	for (t = 0; t < NR_WORKERS; t++)
		pthread_create(&th[t], NULL, worker, (void *)(uintptr_t)t);
	pthread_create(&th[NR_WORKERS], NULL, closer, NULL);
	for (t = 0; t <= NR_WORKERS; t++)
		pthread_join(th[t], NULL);

	for (i = 0; i < NR_OPS; i++) {
		tap_begin();
		if (atomic_load(&bad[i]))
			tap_fail("%lu unexpected results", atomic_load(&bad[i]));
		if (!atomic_load(&calls[i]))
			tap_fail("never called");
		if (i == NR_OPS - 1)
			print_log();
		tap_end("race: %s: %lu calls, %lu succeeded, %lu unexpected", op_names[i],
			atomic_load(&calls[i]), atomic_load(&succeeded[i]), atomic_load(&bad[i]));
	}

	/* Everything it made goes; the closer's auto-remove metric went already. */
	for (i = 0; i < NR_NAMES; i++) {
		err = k_delete(fd, names[i]);
		if (err && err != ENOENT)
			tap_fail("DELETE %s: %s", names[i], errname(err));
	}
	tap_end("cleanup: DELETE every name (ENOENT allowed)");
	err = k_list(fd, &all, &n);
	want_errno(err, 0, "LIST");
	for (i = 0; i < NR_NAMES; i++)
		if (list_find(all, n, names[i]))
			tap_fail("%s still listed", names[i]);
	if (list_find(all, n, AUTO_NAME))
		tap_fail("%s (AUTOREMOVE, file closed) still listed", AUTO_NAME);
	free(all);
	tap_end("LIST: none of the names remain, nor the closed file's AUTOREMOVE metric");

	test_exact(fd);
	close(fd);
	return tap_finish();
}

// SPDX-License-Identifier: GPL-2.0
/*
 * A random, structure-aware fuzzer of /dev/kstats. Threads, each with its
 * own PRNG, issue every command with arguments that are mostly well formed
 * (names from a small pool, so calls meet: one creates what another
 * snapshots, resets, traces or deletes) and sometimes not: random fields,
 * garbage bytes, sizes around each struct's VER0 and current size, non-zero
 * tails, wrong directions and magics, bad pointers, closed and duplicated
 * files. TRACE attaches to functions the load thread keeps calling, so
 * handlers fire while UNTRACE, RESET and DELETE race them.
 *
 * It prints "ERRNO CMD NAME COUNT" lines (the histogram), then the totals.
 * tests/guest/fuzz-errnos.py checks each (command, errno) seen against
 * kstats(4)'s ERRORS. Exit status 2 only if the fuzzer itself could not run.
 *
 * Usage: abi_fuzz [-n CALLS] [-s SEED] [-j THREADS]
 */
#include "abi_util.h"

#include <fcntl.h>
#include <pthread.h>
#include <stdatomic.h>
#include <sys/socket.h>

#define NR_NAMES	6
#define MAX_THREADS	16
#define BUF_LEN		(1 << 18)	/* > 40 LIST entries of 5000 bytes */
#define NR_ERRNO	134

enum { F_INFO, F_CREATE, F_DELETE, F_LIST, F_CONTROL, F_SNAPSHOT, F_RECORD,
       F_TRACE, F_UNTRACE, F_BOGUS, NR_F };

static const char *const cmd_names[NR_F] = {
	"INFO", "CREATE", "DELETE", "LIST", "CONTROL", "SNAPSHOT", "RECORD",
	"TRACE", "UNTRACE", "UNKNOWN",
};
static const unsigned int cmd_dir[NR_F] = {
	_IOC_READ, _IOC_WRITE, _IOC_WRITE, _IOC_READ | _IOC_WRITE, _IOC_WRITE,
	_IOC_READ | _IOC_WRITE, _IOC_WRITE, _IOC_WRITE, _IOC_WRITE, _IOC_WRITE,
};
static const size_t cmd_size[NR_F] = {
	sizeof(struct kstats_info), sizeof(struct kstats_create),
	sizeof(struct kstats_delete), sizeof(struct kstats_list),
	sizeof(struct kstats_control), sizeof(struct kstats_snapshot),
	sizeof(struct kstats_record), sizeof(struct kstats_trace),
	sizeof(struct kstats_untrace), 64,
};
static const size_t cmd_ver0[NR_F] = {
	KSTATS_INFO_SIZE_VER0, KSTATS_CREATE_SIZE_VER0, KSTATS_DELETE_SIZE_VER0,
	KSTATS_LIST_SIZE_VER0, KSTATS_CONTROL_SIZE_VER0, KSTATS_SNAPSHOT_SIZE_VER0,
	KSTATS_RECORD_SIZE_VER0, KSTATS_TRACE_SIZE_VER0, KSTATS_UNTRACE_SIZE_VER0, 64,
};
static const char *const funcs[] = { "vfs_read", "vfs_write", "ksys_write", "no_such_fn_fz", "" };

static atomic_ulong hist[NR_F][NR_ERRNO];
static atomic_long calls_left;
static atomic_int stop_load;
static int shared_fd;		/* opened once, used and dup'ed by all */
static uint8_t *edge;		/* the start of a PROT_NONE page after a mapped one */

struct rng { uint64_t s; };

static uint64_t rnd(struct rng *r)
{
	r->s ^= r->s << 13;
	r->s ^= r->s >> 7;
	r->s ^= r->s << 17;
	return r->s;
}

static unsigned int pick(struct rng *r, unsigned int n)
{
	return (unsigned int)(rnd(r) % n);
}

static int chance(struct rng *r, unsigned int in)
{
	return pick(r, in) == 0;
}

struct worker {
	struct rng r;
	int fd;
	uint8_t arg[16384 + 64];
	uint8_t buf[BUF_LEN];
	uint64_t vals[64];
};

static void fz_name(struct worker *w, uint8_t *dst)
{
	char name[KSTATS_NAME_LEN];

	if (chance(&w->r, 20)) {	/* garbage, maybe no NUL */
		unsigned int i;

		for (i = 0; i < KSTATS_NAME_LEN; i++)
			dst[i] = (uint8_t)rnd(&w->r);
		return;
	}
	snprintf(name, sizeof(name), "fz.%u", pick(&w->r, NR_NAMES));
	set_name(dst, name);
}

/* A user pointer: mostly our buffer, sometimes NULL, unmapped or kernel. */
static uint64_t fz_ptr(struct worker *w, void *good)
{
	switch (pick(&w->r, 16)) {
	case 0: return 0;
	case 1: return 0x10;
	case 2: return 0xffffffff81000000ULL;
	case 3: return U64PTR(edge) - 8;	/* 8 bytes, then an unmapped page */
	default: return U64PTR(good);
	}
}

/* Is byte @at of @cmd's argument in a pointer the kernel writes through? */
static int out_ptr_byte(int cmd, unsigned int at)
{
	size_t off;

	if (cmd == F_LIST)
		off = offsetof(struct kstats_list, entries);
	else if (cmd == F_SNAPSHOT)
		off = offsetof(struct kstats_snapshot, buf);
	else
		return 0;
	return at >= off && at < off + sizeof(uint64_t);
}

static void fz_build(struct worker *w, int cmd)
{
	uint8_t *a = w->arg;

	memset(a, 0, sizeof(w->arg));
	switch (cmd) {
	case F_CREATE: {
		struct kstats_create *c = (void *)a;

		fz_name(w, c->name);
		c->frac_bits = pick(&w->r, 7);
		c->flags = chance(&w->r, 3) ? KSTATS_CREATE_AUTOREMOVE : 0;
		break;
	}
	case F_DELETE:
		fz_name(w, ((struct kstats_delete *)a)->name);
		break;
	case F_LIST: {
		struct kstats_list *l = (void *)a;

		l->entries = fz_ptr(w, w->buf);
		l->nr_entries = pick(&w->r, 40);
		l->entry_size = chance(&w->r, 4) ? (uint32_t)rnd(&w->r) % 5000 :
				KSTATS_METRIC_INFO_SIZE_VER0 + 8 * pick(&w->r, 4);
		break;
	}
	case F_CONTROL: {
		struct kstats_control *c = (void *)a;

		c->op = pick(&w->r, 5);
		if (chance(&w->r, 8))
			c->flags = KSTATS_CONTROL_ALL;
		else
			fz_name(w, c->name);
		break;
	}
	case F_SNAPSHOT: {
		struct kstats_snapshot *s = (void *)a;

		fz_name(w, s->name);
		s->buf = fz_ptr(w, w->buf);
		s->buf_len = chance(&w->r, 4) ? pick(&w->r, 4096) : BUF_LEN / 2;
		break;
	}
	case F_RECORD: {
		struct kstats_record *r = (void *)a;
		unsigned int i;

		fz_name(w, r->name);
		for (i = 0; i < 64; i++)
			w->vals[i] = rnd(&w->r) >> pick(&w->r, 64);
		r->values = fz_ptr(w, w->vals);
		r->count = chance(&w->r, 10) ? (uint32_t)rnd(&w->r) : 1 + pick(&w->r, 64);
		break;
	}
	case F_TRACE: {
		struct kstats_trace *t = (void *)a;

		fz_name(w, t->name);
		t->func = U64PTR(funcs[pick(&w->r, ARRAY_SIZE(funcs))]);
		if (chance(&w->r, 6)) {		/* a section instead */
			t->start = t->func;
			t->end = U64PTR(funcs[pick(&w->r, 3)]);
			t->func = 0;
		}
		t->frac_bits = pick(&w->r, 6);
		t->mechanism = pick(&w->r, 6);
		t->maxactive = chance(&w->r, 4) ? (uint32_t)rnd(&w->r) % 70000 : 0;
		if (chance(&w->r, 4)) {
			t->flags |= KSTATS_TRACE_PID;
			t->pid = chance(&w->r, 2) ? getpid() : (int64_t)rnd(&w->r);
		}
		if (chance(&w->r, 4)) {
			t->flags |= KSTATS_TRACE_CPUS;
			w->buf[0] = (uint8_t)rnd(&w->r);
			t->cpus = fz_ptr(w, w->buf);
			t->cpus_len = 1 + pick(&w->r, 8);
		}
		if (chance(&w->r, 2))
			t->flags |= KSTATS_TRACE_AUTOREMOVE;
		break;
	}
	case F_UNTRACE:
		fz_name(w, ((struct kstats_untrace *)a)->name);
		break;
	}
	/*
	 * Now and then, a field or a byte anywhere goes wrong; but not in the
	 * pointer the kernel writes through (LIST entries, SNAPSHOT buf): a
	 * byte changed there points into the fuzzer's own memory, which the
	 * kernel rightly fills: the lazy-binding GOT sits just before the
	 * workers, and the fuzzer once died in ld.so ("segfault at 8", most
	 * likely that). fz_ptr() gives those pointers their bad values.
	 */
	if (chance(&w->r, 8)) {
		unsigned int at = pick(&w->r, (unsigned int)cmd_size[cmd]);
		uint8_t v = (uint8_t)rnd(&w->r);

		if (!out_ptr_byte(cmd, at))
			a[at] = v;
	}
}

static unsigned long fz_request(struct worker *w, int cmd, size_t *size)
{
	unsigned int dir = cmd_dir[cmd], nr = cmd == F_BOGUS ? 11 + pick(&w->r, 245) : (unsigned int)cmd;
	unsigned int magic = KSTATS_IOC_MAGIC;

	switch (pick(&w->r, 12)) {
	case 0: *size = cmd_ver0[cmd] - 8; break;
	case 1: *size = cmd_ver0[cmd]; break;
	case 2: *size = cmd_size[cmd] + 8; break;		/* zero tail: fine */
	case 3: *size = cmd_size[cmd] + 8;			/* non-zero tail: E2BIG */
		w->arg[cmd_size[cmd] + 3] = 1;
		break;
	case 4: *size = pick(&w->r, 16384); break;
	default: *size = cmd_size[cmd]; break;
	}
	if (chance(&w->r, 40))
		dir = pick(&w->r, 4);
	if (chance(&w->r, 60))
		magic = pick(&w->r, 256);
	return _IOC(dir, magic, nr, *size);
}

/* One call; the fd is sometimes another thread's, a dup, or closed. */
static void fz_call(struct worker *w)
{
	int cmd = (int)pick(&w->r, NR_F), fd = w->fd, e, tmp = -1;
	unsigned long req;
	size_t size;

	/* TRACE attaches probes (slow under emulation): rarely. */
	if (cmd == F_TRACE && !chance(&w->r, 25))
		cmd = F_SNAPSHOT;
	fz_build(w, cmd);
	req = fz_request(w, cmd, &size);
	switch (pick(&w->r, 50)) {
	case 0: fd = shared_fd; break;
	case 1: fd = tmp = dup(w->fd); break;
	case 2:
		close(w->fd);
		w->fd = kopen();
		fd = w->fd;
		break;
	}
	e = ioctl(fd, req, chance(&w->r, 100) ? (void *)1 : (void *)w->arg) ? errno : 0;
	if (tmp >= 0)
		close(tmp);
	atomic_fetch_add(&hist[cmd][e < NR_ERRNO ? e : NR_ERRNO - 1], 1);
}

static void *worker_main(void *arg)
{
	struct worker *w = arg;

	while (atomic_fetch_sub(&calls_left, 1) > 0)
		fz_call(w);
	close(w->fd);
	return NULL;
}

/* Keeps the traced functions called on this CPU and others. */
static void *load_main(void *arg)
{
	int fd = open("/dev/null", O_RDWR);
	char c = 0;

	(void)arg;
	while (!atomic_load(&stop_load)) {
		if (write(fd, &c, 1) < 0 || read(fd, &c, 1) < 0)
			break;
	}
	close(fd);
	return NULL;
}

/*
 * An fd passed over a unix socket works like the original. A kernel without
 * sockets (the debug kernel) gets the same file in a new slot by pidfd_getfd()
 * (send_fd() would wait there for a receiver: this thread is both ends).
 */
static int passed_fd(void)
{
	struct fd_chan ch[2];
	int fd;

	if (chan_pair(ch))
		return -1;
	if (ch[0].pipes)
		fd = pidfd_take(getpid(), shared_fd);
	else
		fd = send_fd(&ch[0], shared_fd) ? -1 : recv_fd(&ch[1]);
	chan_close(&ch[0]);
	chan_close(&ch[1]);
	return fd;
}

/* Untraces or deletes every metric there is: the suite loads kstats for us. */
static void cleanup(int fd)
{
	static struct kstats_metric_info e[256];
	struct kstats_list l = { .entries = U64PTR(e), .entry_size = sizeof(e[0]),
				 .nr_entries = ARRAY_SIZE(e) };
	uint32_t i;

	if (kioctl(fd, KSTATS_IOC_LIST, &l))
		return;
	for (i = 0; i < l.nr_entries; i++) {
		if (e[i].kind == KSTATS_KIND_TRACE)
			k_untrace(fd, (const char *)e[i].name);
		else if (e[i].kind == KSTATS_KIND_USER)
			k_delete(fd, (const char *)e[i].name);
	}
}

int main(int argc, char **argv)
{
	unsigned long calls = 100000, seed = (unsigned long)time(NULL), n;
	static struct worker workers[MAX_THREADS];
	pthread_t tids[MAX_THREADS], load;
	int threads = 4, opt, i, c, e;
	struct timespec t0, t1;

	while ((opt = getopt(argc, argv, "n:s:j:")) != -1) {
		if (opt == 'n')
			calls = strtoul(optarg, NULL, 0);
		else if (opt == 's')
			seed = strtoul(optarg, NULL, 0);
		else if (opt == 'j' && atoi(optarg) > 0 && atoi(optarg) <= MAX_THREADS)
			threads = atoi(optarg);
		else
			return fprintf(stderr, "usage: abi_fuzz [-n CALLS] [-s SEED] [-j 1..16]\n"), 2;
	}
	printf("# abi_fuzz -n %lu -s %lu -j %d\n", calls, seed, threads);
	shared_fd = kopen();
	if (shared_fd < 0)
		return perror("abi_fuzz: " KSTATS_DEVICE), 2;
	edge = mmap(NULL, 8192, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (edge == MAP_FAILED || mprotect(edge + 4096, 4096, PROT_NONE))
		return perror("abi_fuzz: mmap"), 2;
	edge += 4096;
	atomic_store(&calls_left, (long)calls);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	pthread_create(&load, NULL, load_main, NULL);
	for (i = 0; i < threads; i++) {
		workers[i].r.s = seed * 2654435761u + (unsigned long)i + 1;
		workers[i].fd = i == 0 ? passed_fd() : kopen();
		if (workers[i].fd < 0)
			return perror("abi_fuzz: open"), 2;
		pthread_create(&tids[i], NULL, worker_main, &workers[i]);
	}
	for (i = 0; i < threads; i++)
		pthread_join(tids[i], NULL);
	atomic_store(&stop_load, 1);
	pthread_join(load, NULL);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	/* Whatever the workers left (names a stray byte made valid too). */
	close(shared_fd);
	shared_fd = kopen();
	cleanup(shared_fd);
	close(shared_fd);
	for (c = 0, n = 0; c < NR_F; c++)
		for (e = 0; e < NR_ERRNO; e++)
			if (hist[c][e]) {
				printf("ERRNO %s %s %lu\n", cmd_names[c], e ? errname(e) : "0",
				       hist[c][e]);
				n += hist[c][e];
			}
	printf("# %lu calls in %.1f s\n", n,
	       (double)(t1.tv_sec - t0.tv_sec) + (t1.tv_nsec - t0.tv_nsec) / 1e9);
	return n == calls ? 0 : 2;
}

// SPDX-License-Identifier: GPL-2.0
/*
 * The user-space functions kstats times in uprobe_test.py, each timing
 * itself with CLOCK_MONOTONIC (the clock kstats' probes read):
 *   u_leaf(i)    a plain function, 20 to 100 us (1 to 5 times
 *                $UTARGET_LEAF_NS, 20000 unless set);
 *   u_rec(n)     recursive, n levels, each timed with what it calls;
 *   u_jumpy(i)   longjmps out of every 4th call (never returns from it);
 *   u_val(v, w)  returns 3 * v - 100: its arguments and return value are
 *                the values uvalue_test.py records;
 *   u_deref(p, r) returns *p if r, else 0: what p points to is a value
 *                read from the program's memory.
 * Usage:
 *   utarget run LEAF REC DEPTH JUMPY OUTDIR [hold]   waits for a line on
 *       stdin, makes the calls, writes OUTDIR/{leaf,rec,jumpy} (each returned
 *       call's own duration in ns, a line each: timed inside the function)
 *       and OUTDIR/{leaf,rec,jumpy}.outer (the same calls timed by their
 *       caller, around the call instruction: kstats' probes fire between the
 *       two), and prints "leaf N rec N jumpy N longjmps N"; with hold, then
 *       waits for another line before exiting
 *   utarget loop SECONDS   calls u_leaf until then (load for trace cycles)
 *   utarget block          waits inside u_block() (which prints "blocked")
 *   utarget vals N         waits for a line on stdin, then calls
 *       u_val(v, -v) for v = i * 37 % 200 - 50, i = 0..N-1, and prints
 *       "v r" per call (r what it returned); with each, u_deref(&v, 1);
 *       then once u_deref(16, 0), an address no page is at
 *   utarget wait           prints "waiting", waits for a line on stdin, then
 *       calls u_leaf(0) once and prints "called"
 *   utarget split N        waits for a line on stdin, then calls N times each
 *       u_nap (sleeps 2 ms), u_busy (spins 300 us) and u_outer (spins 50 us
 *       and calls u_inner, which spins 100 us, twice), and prints per
 *       function its calls, their summed wall time (CLOCK_MONOTONIC) and
 *       CPU time (CLOCK_THREAD_CPUTIME_ID: the kernel's sum_exec_runtime)
 *       inside them: "u_nap N WALL CPU" a line (usplit_test.py's oracle)
 *   utarget paths A B C    waits for a line on stdin, then calls u_leaf(i)
 *       through three paths, A times u_path_a -> u_leaf, B times u_path_b ->
 *       u_mid -> u_leaf, C times u_path_c -> u_mid -> u_leaf, prints "paths
 *       A B C" and waits for another line (its mappings name the frames)
 *   utarget empty N        waits for a line on stdin, then calls u_empty N
 *       times, then 15 batches of 64 calls each of u_empty and of its
 *       untraced twin u_empty_bare, interleaved, and prints "calls C loss
 *       PS": C calls of u_empty in all, and PS what a call of u_empty cost
 *       over one of its twin, ps, from the fastest batch of each (ucost_test.py)
 */
#include <setjmp.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define MAX_CALLS	4096
#define NOT_OPTIMIZED	__attribute__((noinline, noipa, used))

struct own {
	uint64_t ns[MAX_CALLS];
	unsigned int n;
};

static struct own leaf_own, rec_own, jumpy_own;
static struct own leaf_outer, rec_outer, jumpy_outer;
static uint64_t leaf_unit = 20000;
static jmp_buf jumpy_env;
static unsigned int longjmps;

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static void spin_ns(uint64_t ns)
{
	uint64_t t0 = now_ns();

	while (now_ns() - t0 < ns)
		;
}

static void keep(struct own *o, uint64_t t0)
{
	uint64_t t1 = now_ns();

	if (o->n < MAX_CALLS)
		o->ns[o->n++] = t1 - t0;
}

NOT_OPTIMIZED void u_leaf(unsigned int i)
{
	uint64_t t0 = now_ns();

	spin_ns(leaf_unit * (i % 5 + 1));
	keep(&leaf_own, t0);
}

static unsigned int rec_call(unsigned int n);

NOT_OPTIMIZED unsigned int u_rec(unsigned int n)
{
	uint64_t t0 = now_ns();
	unsigned int r = n > 1 ? rec_call(n - 1) + 1 : 1;

	spin_ns(10000);
	keep(&rec_own, t0);
	return r;
}

/* A call of u_rec timed by its caller: every level's outer window. */
static unsigned int rec_call(unsigned int n)
{
	uint64_t t0 = now_ns();
	unsigned int r = u_rec(n);

	keep(&rec_outer, t0);
	return r;
}

NOT_OPTIMIZED void u_jumpy(unsigned int i)
{
	uint64_t t0 = now_ns();

	spin_ns(30000);
	if (i % 4 == 3) {
		longjmps++;
		longjmp(jumpy_env, 1);
	}
	keep(&jumpy_own, t0);
}

/* Three ways to u_leaf, each call followed by a barrier: no call is a tail call. */
NOT_OPTIMIZED void u_mid(unsigned int i)
{
	u_leaf(i);
	asm volatile("" ::: "memory");
}

NOT_OPTIMIZED void u_path_a(unsigned int i)
{
	u_leaf(i);
	asm volatile("" ::: "memory");
}

NOT_OPTIMIZED void u_path_b(unsigned int i)
{
	u_mid(i);
	asm volatile("" ::: "memory");
}

NOT_OPTIMIZED void u_path_c(unsigned int i)
{
	u_mid(i);
	asm volatile("" ::: "memory");
}

NOT_OPTIMIZED int paths(unsigned int a, unsigned int b, unsigned int c)
{
	char line[64];
	unsigned int i;

	if (!fgets(line, sizeof(line), stdin))
		return 1;
	for (i = 0; i < a; i++)
		u_path_a(i);
	for (i = 0; i < b; i++)
		u_path_b(i);
	for (i = 0; i < c; i++)
		u_path_c(i);
	printf("paths %u %u %u\n", a, b, c);
	fflush(stdout);
	fgets(line, sizeof(line), stdin);
	return 0;
}

NOT_OPTIMIZED long u_val(long v, int w)
{
	/* w is -v as an int: only its low 32 bits mean it, (s32)arg1 reads them. */
	return 3 * v - 100 + (w + (int)v);
}

NOT_OPTIMIZED long u_deref(const long *p, int read)
{
	return read ? *p : 0;
}

NOT_OPTIMIZED void u_block(void)
{
	printf("blocked\n");
	fflush(stdout);
	for (;;)
		pause();
}

/*
 * Empty, and beginning as kstatsctl's own empty functions do (cli/ucost.c),
 * with push %rbp: what uprobes does at a breakpoint depends on the
 * instruction there.
 */
void u_empty(void), u_empty_bare(void);
asm(".text\n.p2align 4\n.globl u_empty\n.type u_empty, @function\nu_empty:\n"
    "\tpush %rbp\n\tmov %rsp, %rbp\n\tpop %rbp\n\tret\n.size u_empty, . - u_empty\n"
    ".p2align 4\n.globl u_empty_bare\n.type u_empty_bare, @function\nu_empty_bare:\n"
    "\tpush %rbp\n\tmov %rsp, %rbp\n\tpop %rbp\n\tret\n"
    ".size u_empty_bare, . - u_empty_bare\n");

static uint64_t empty_batch(void (*fn)(void))
{
	uint64_t t0 = now_ns();
	int i;

	for (i = 0; i < 64; i++)
		fn();
	return now_ns() - t0;
}

static int empty_run(unsigned int n)
{
	uint64_t with = UINT64_MAX, without = UINT64_MAX, t;
	char line[64];
	unsigned int i;

	if (!fgets(line, sizeof(line), stdin))
		return 1;
	for (i = 0; i < n; i++)
		u_empty();
	for (i = 0; i < 15; i++) {
		t = empty_batch(u_empty_bare);
		without = t < without ? t : without;
		t = empty_batch(u_empty);
		with = t < with ? t : with;
	}
	printf("calls %u loss %llu\n", n + 15 * 64,
	       (unsigned long long)(with > without ? (with - without) * 1000 / 64 : 0));
	return 0;
}

/* usplit_test.py's: each call's wall and CPU time, summed per function. */
struct spent {
	uint64_t n, wall, cpu;
};
static struct spent nap_spent, busy_spent, outer_spent, inner_spent;

static uint64_t cpu_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static void spent(struct spent *s, uint64_t t0, uint64_t c0)
{
	uint64_t c1 = cpu_ns(), t1 = now_ns();

	s->n++;
	s->wall += t1 - t0;
	s->cpu += c1 - c0;
}

NOT_OPTIMIZED void u_nap(void)
{
	uint64_t t0 = now_ns(), c0 = cpu_ns();
	struct timespec ts = { 0, 2000000 };

	while (clock_nanosleep(CLOCK_MONOTONIC, 0, &ts, &ts))
		;
	spent(&nap_spent, t0, c0);
}

NOT_OPTIMIZED void u_busy(void)
{
	uint64_t t0 = now_ns(), c0 = cpu_ns();

	spin_ns(300000);
	spent(&busy_spent, t0, c0);
}

NOT_OPTIMIZED void u_inner(void)
{
	uint64_t t0 = now_ns(), c0 = cpu_ns();

	spin_ns(100000);
	spent(&inner_spent, t0, c0);
}

NOT_OPTIMIZED void u_outer(void)
{
	uint64_t t0 = now_ns(), c0 = cpu_ns();

	spin_ns(50000);
	u_inner();
	u_inner();
	spent(&outer_spent, t0, c0);
}

static int split_run(unsigned int n)
{
	const struct {
		const char *name;
		const struct spent *s;
	} out[] = {
		{ "u_nap", &nap_spent }, { "u_busy", &busy_spent },
		{ "u_outer", &outer_spent }, { "u_inner", &inner_spent },
	};
	char line[64];
	unsigned int i;

	if (!fgets(line, sizeof(line), stdin))
		return 1;
	for (i = 0; i < n; i++) {
		u_nap();
		u_busy();
		u_outer();
	}
	for (i = 0; i < sizeof(out) / sizeof(out[0]); i++)
		printf("%s %llu %llu %llu\n", out[i].name, (unsigned long long)out[i].s->n,
		       (unsigned long long)out[i].s->wall, (unsigned long long)out[i].s->cpu);
	return 0;
}

static int save(const char *dir, const char *name, const struct own *o)
{
	char path[4096];
	unsigned int i;
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "w");
	if (!f)
		return -1;
	for (i = 0; i < o->n; i++)
		fprintf(f, "%llu\n", (unsigned long long)o->ns[i]);
	return fclose(f);
}

static int vals(unsigned int n)
{
	char line[64];
	unsigned int i;
	long v;

	if (!fgets(line, sizeof(line), stdin))
		return 1;
	for (i = 0; i < n; i++) {
		v = (long)(i * 37 % 200) - 50;
		printf("%ld %ld\n", v, u_val(v, (int)-v));
		u_deref(&v, 1);
	}
	u_deref((const long *)16, 0);
	return 0;
}

/* A process of this file, alive across its replacement (uprobe_test.py). */
static int wait_then_call(void)
{
	char line[64];

	printf("waiting\n");
	fflush(stdout);
	if (!fgets(line, sizeof(line), stdin))
		return 1;
	u_leaf(0);
	printf("called\n");
	return 0;
}

static int run(unsigned int leaf, unsigned int rec, unsigned int depth, unsigned int jumpy,
	       const char *dir, bool hold)
{
	char line[64];
	volatile unsigned int i;	/* kept across longjmp */
	uint64_t t0;

	if (!fgets(line, sizeof(line), stdin))
		return 1;
	for (i = 0; i < leaf; i++) {
		t0 = now_ns();
		u_leaf(i);
		keep(&leaf_outer, t0);
	}
	for (i = 0; i < rec; i++)
		if (rec_call(i % depth + 1) != i % depth + 1)
			return 1;
	for (i = 0; i < jumpy; i++)
		if (!setjmp(jumpy_env)) {
			t0 = now_ns();	/* set and read after setjmp: never across a longjmp */
			u_jumpy(i);
			keep(&jumpy_outer, t0);
		}
	if (save(dir, "leaf", &leaf_own) || save(dir, "rec", &rec_own) ||
	    save(dir, "jumpy", &jumpy_own) || save(dir, "leaf.outer", &leaf_outer) ||
	    save(dir, "rec.outer", &rec_outer) || save(dir, "jumpy.outer", &jumpy_outer))
		return 1;
	printf("leaf %u rec %u jumpy %u longjmps %u\n", leaf_own.n, rec_own.n, jumpy_own.n,
	       longjmps);
	fflush(stdout);
	/* hold: alive until another line (or EOF), its mappings readable. */
	if (hold)
		fgets(line, sizeof(line), stdin);
	return 0;
}

int main(int argc, char **argv)
{
	const char *unit = getenv("UTARGET_LEAF_NS");
	unsigned int i = 0;
	uint64_t end;

	if (unit && atoi(unit) > 0)
		leaf_unit = (uint64_t)atoi(unit);

	if ((argc == 7 || (argc == 8 && !strcmp(argv[7], "hold"))) && !strcmp(argv[1], "run"))
		return run(atoi(argv[2]), atoi(argv[3]), atoi(argv[4]), atoi(argv[5]), argv[6],
			   argc == 8);
	if (argc == 3 && !strcmp(argv[1], "loop")) {
		end = now_ns() + (uint64_t)atoi(argv[2]) * 1000000000u;
		while (now_ns() < end)
			u_leaf(i++);
		return 0;
	}
	if (argc == 2 && !strcmp(argv[1], "block"))
		u_block();
	if (argc == 3 && !strcmp(argv[1], "vals"))
		return vals(atoi(argv[2]));
	if (argc == 2 && !strcmp(argv[1], "wait"))
		return wait_then_call();
	if (argc == 3 && !strcmp(argv[1], "split"))
		return split_run(atoi(argv[2]));
	if (argc == 3 && !strcmp(argv[1], "empty"))
		return empty_run(atoi(argv[2]));
	if (argc == 5 && !strcmp(argv[1], "paths"))
		return paths(atoi(argv[2]), atoi(argv[3]), atoi(argv[4]));
	fprintf(stderr, "usage: utarget run LEAF REC DEPTH JUMPY OUTDIR | loop S | block | "
		"vals N | wait | split N | empty N | paths A B C\n");
	return 2;
}

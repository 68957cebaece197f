// SPDX-License-Identifier: GPL-2.0
/*
 * /dev/kstats ioctl ABI test: every rule of include/uapi/linux/kstats.h,
 * one failing check per case. Runs as root in the guest with kstats.ko and
 * tests/kmod/kstats_selftest.ko loaded (the latter owns selftest.b0..b5 and
 * selftest.race). Built twice from the same files: abi_test (native) and
 * abi_test32 (-m32, through the kernel's compat ioctl path).
 *
 * This file: main, the fixtures, how to build a valid argument for each
 * command, struct layout and INFO. Most argument checks are tables of
 * cases (abi_args.c, abi_trace.c); behaviour that needs several calls has
 * its own tests (see abi_test.h for which file holds what).
 *
 * Environment: KSTATS_EXPECT_FPROBE=0|1 says whether INFO must list the
 * FPROBE mechanism (tests/guest/abi-tests.sh sets it from the kernel).
 *
 * Output is TAP, then "P passed, F failed"; exit status 0 only if none
 * failed.
 */
#include "abi_test.h"

#include <pthread.h>
#include <sys/prctl.h>
#include <sys/syscall.h>

/* ---- struct layout: the same numbers must hold for -m64 and -m32 ---- */

#define KSTATS_LAYOUT(X) \
	X(kstats_info, abi_version, 0, 4) \
	X(kstats_info, max_frac_bits, 4, 4) \
	X(kstats_info, features, 8, 8) \
	X(kstats_info, mechanisms, 16, 8) \
	X(kstats_info, nr_metrics, 24, 4) \
	X(kstats_info, nr_cpus, 28, 4) \
	X(kstats_info, record_max, 32, 4) \
	X(kstats_info, flags, 36, 4) \
	X(kstats_info, version, 40, 32) \
	X(kstats_info, reserved, 72, 32) \
	X(kstats_create, name, 0, 64) \
	X(kstats_create, frac_bits, 64, 4) \
	X(kstats_create, flags, 68, 4) \
	X(kstats_create, reserved, 72, 16) \
	X(kstats_delete, name, 0, 64) \
	X(kstats_delete, flags, 64, 4) \
	X(kstats_delete, pad, 68, 4) \
	X(kstats_delete, reserved, 72, 16) \
	X(kstats_metric_info, name, 0, 64) \
	X(kstats_metric_info, owner, 64, 64) \
	X(kstats_metric_info, kind, 128, 4) \
	X(kstats_metric_info, frac_bits, 132, 4) \
	X(kstats_metric_info, flags, 136, 4) \
	X(kstats_metric_info, owner_uid, 140, 4) \
	X(kstats_metric_info, owner_pid, 144, 8) \
	X(kstats_metric_info, count, 152, 8) \
	X(kstats_metric_info, reserved, 160, 16) \
	X(kstats_list, entries, 0, 8) \
	X(kstats_list, entry_size, 8, 4) \
	X(kstats_list, nr_entries, 12, 4) \
	X(kstats_list, flags, 16, 4) \
	X(kstats_list, pad, 20, 4) \
	X(kstats_list, reserved, 24, 16) \
	X(kstats_control, name, 0, 64) \
	X(kstats_control, op, 64, 4) \
	X(kstats_control, flags, 68, 4) \
	X(kstats_control, reserved, 72, 16) \
	X(kstats_snap_cpu, cpu, 0, 4) \
	X(kstats_snap_cpu, nr_slots, 4, 4) \
	X(kstats_snap_cpu, count, 8, 8) \
	X(kstats_snap_slot, cpu, 0, 4) \
	X(kstats_snap_slot, slot, 4, 4) \
	X(kstats_snap_slot, count, 8, 8) \
	X(kstats_snap_slot, part_sum, 16, 8) \
	X(kstats_snapshot, name, 0, 64) \
	X(kstats_snapshot, buf, 64, 8) \
	X(kstats_snapshot, buf_len, 72, 8) \
	X(kstats_snapshot, flags, 80, 4) \
	X(kstats_snapshot, frac_bits, 84, 4) \
	X(kstats_snapshot, nr_cpus, 88, 4) \
	X(kstats_snapshot, nr_slots, 92, 4) \
	X(kstats_snapshot, time_ns, 96, 8) \
	X(kstats_snapshot, realtime_ns, 104, 8) \
	X(kstats_snapshot, kind, 112, 4) \
	X(kstats_snapshot, metric_flags, 116, 4) \
	X(kstats_snapshot, hits, 120, 8) \
	X(kstats_snapshot, misses, 128, 8) \
	X(kstats_snapshot, floor_ns, 136, 8) \
	X(kstats_snapshot, generation, 144, 8) \
	X(kstats_snapshot, trace_mode, 152, 4) \
	X(kstats_snapshot, sample_every, 156, 4) \
	X(kstats_snapshot, mode_since_ns, 160, 8) \
	X(kstats_snapshot, skipped, 168, 8) \
	X(kstats_snapshot, budget_ppm, 176, 4) \
	X(kstats_snapshot, cost_ppm, 180, 4) \
	X(kstats_snapshot, full_cost_ppm, 184, 4) \
	X(kstats_snapshot, trace_flags, 188, 4) \
	X(kstats_snapshot, call_cost_ps, 192, 8) \
	X(kstats_snapshot, skip_cost_ps, 200, 8) \
	X(kstats_snapshot, faults, 208, 8) \
	X(kstats_snapshot, rejected, 216, 8) \
	X(kstats_snapshot, frames, 224, 8) \
	X(kstats_snapshot, nr_frames, 232, 4) \
	X(kstats_snapshot, frames_flags, 236, 4) \
	X(kstats_snapshot, frames_tgid, 240, 8) \
	X(kstats_snapshot, group_misses, 248, 8) \
	X(kstats_snapshot, reserved, 256, 8) \
	X(kstats_record, name, 0, 64) \
	X(kstats_record, values, 64, 8) \
	X(kstats_record, count, 72, 4) \
	X(kstats_record, flags, 76, 4) \
	X(kstats_record, reserved, 80, 16) \
	X(kstats_trace, name, 0, 64) \
	X(kstats_trace, func, 64, 8) \
	X(kstats_trace, start, 72, 8) \
	X(kstats_trace, end, 80, 8) \
	X(kstats_trace, frac_bits, 88, 4) \
	X(kstats_trace, mechanism, 92, 4) \
	X(kstats_trace, flags, 96, 4) \
	X(kstats_trace, maxactive, 100, 4) \
	X(kstats_trace, pid, 104, 8) \
	X(kstats_trace, tgid, 112, 8) \
	X(kstats_trace, cpus, 120, 8) \
	X(kstats_trace, cpus_len, 128, 4) \
	X(kstats_trace, pad, 132, 4) \
	X(kstats_trace, budget_ppm, 136, 4) \
	X(kstats_trace, sample_every, 140, 4) \
	X(kstats_trace, outlier_ns, 144, 8) \
	X(kstats_trace, outlier_ppm, 152, 4) \
	X(kstats_trace, outlier_ring, 156, 4) \
	X(kstats_trace, outlier_rate, 160, 4) \
	X(kstats_trace, outlier_pad, 164, 4) \
	X(kstats_trace, key, 168, 4) \
	X(kstats_trace, nr_keys, 172, 4) \
	X(kstats_trace, cgroup_fd, 176, 4) \
	X(kstats_trace, cgroup_pad, 180, 4) \
	X(kstats_trace, key_values, 184, 8) \
	X(kstats_trace, expr, 192, 8) \
	X(kstats_trace, uprobes, 200, 8) \
	X(kstats_trace, nr_uprobes, 208, 4) \
	X(kstats_trace, uprobe_size, 212, 4) \
	X(kstats_trace, user_floor_ns, 216, 8) \
	X(kstats_trace, user_call_ps, 224, 8) \
	X(kstats_trace, user_skip_ps, 232, 8) \
	X(kstats_trace, reserved, 240, 8) \
	X(kstats_operand, source, 0, 1) \
	X(kstats_operand, index, 1, 1) \
	X(kstats_operand, nr_loads, 2, 1) \
	X(kstats_operand, size, 3, 1) \
	X(kstats_operand, flags, 4, 1) \
	X(kstats_operand, pad, 5, 3) \
	X(kstats_operand, offsets, 8, 32) \
	X(kstats_term, operand, 0, 40) \
	X(kstats_term, cmp, 40, 4) \
	X(kstats_term, flags, 44, 4) \
	X(kstats_term, constant, 48, 8) \
	X(kstats_expr, flags, 0, 4) \
	X(kstats_expr, nr_terms, 4, 4) \
	X(kstats_expr, value, 8, 40) \
	X(kstats_expr, terms, 48, 448) \
	X(kstats_expr, reserved, 496, 16) \
	X(kstats_uprobe, fd, 0, 4) \
	X(kstats_uprobe, role, 4, 4) \
	X(kstats_uprobe, offset, 8, 8) \
	X(kstats_uprobe, ref_ctr_offset, 16, 8) \
	X(kstats_uprobe, reserved, 24, 8) \
	X(kstats_untrace, name, 0, 64) \
	X(kstats_untrace, flags, 64, 4) \
	X(kstats_untrace, pad, 68, 4) \
	X(kstats_untrace, reserved, 72, 16) \
	X(kstats_attach, flags, 0, 4) \
	X(kstats_attach, attached, 4, 4) \
	X(kstats_attach, reserved, 8, 24) \
	X(kstats_outliers, name, 0, 64) \
	X(kstats_outliers, entries, 64, 8) \
	X(kstats_outliers, entry_size, 72, 4) \
	X(kstats_outliers, nr_entries, 76, 4) \
	X(kstats_outliers, flags, 80, 4) \
	X(kstats_outliers, out_flags, 84, 4) \
	X(kstats_outliers, captured, 88, 8) \
	X(kstats_outliers, overwritten, 96, 8) \
	X(kstats_outliers, ratelimited, 104, 8) \
	X(kstats_outliers, threshold_ns, 112, 8) \
	X(kstats_outliers, capacity, 120, 4) \
	X(kstats_outliers, threshold_ppm, 124, 4) \
	X(kstats_outliers, time_ns, 128, 8) \
	X(kstats_outliers, realtime_ns, 136, 8) \
	X(kstats_outliers, head, 144, 8) \
	X(kstats_outliers, reserved, 152, 24) \
	X(kstats_outlier, seq, 0, 8) \
	X(kstats_outlier, time_ns, 8, 8) \
	X(kstats_outlier, duration_ns, 16, 8) \
	X(kstats_outlier, pid, 24, 4) \
	X(kstats_outlier, tgid, 28, 4) \
	X(kstats_outlier, cpu_start, 32, 4) \
	X(kstats_outlier, cpu_end, 36, 4) \
	X(kstats_outlier, comm, 40, 16) \
	X(kstats_outlier, nr_frames, 56, 4) \
	X(kstats_outlier, flags, 60, 4) \
	X(kstats_outlier, frames, 64, 256)

/* struct, its size, its latest VERn size (up to reserved[]), ioctl number. */
#define KSTATS_SIZES(X) \
	X(kstats_info, 104, KSTATS_INFO_SIZE_VER0, 72, KSTATS_IOC_INFO, 0x8068BC00u) \
	X(kstats_create, 88, KSTATS_CREATE_SIZE_VER0, 72, KSTATS_IOC_CREATE, 0x4058BC01u) \
	X(kstats_delete, 88, KSTATS_DELETE_SIZE_VER0, 72, KSTATS_IOC_DELETE, 0x4058BC02u) \
	X(kstats_list, 40, KSTATS_LIST_SIZE_VER0, 24, KSTATS_IOC_LIST, 0xC028BC03u) \
	X(kstats_control, 88, KSTATS_CONTROL_SIZE_VER0, 72, KSTATS_IOC_CONTROL, 0x4058BC04u) \
	X(kstats_snapshot, 264, KSTATS_SNAPSHOT_SIZE_VER6, 256, KSTATS_IOC_SNAPSHOT, 0xC108BC05u) \
	X(kstats_record, 96, KSTATS_RECORD_SIZE_VER0, 80, KSTATS_IOC_RECORD, 0x4060BC06u) \
	X(kstats_trace, 248, KSTATS_TRACE_SIZE_VER8, 240, KSTATS_IOC_TRACE, 0x40F8BC07u) \
	X(kstats_untrace, 88, KSTATS_UNTRACE_SIZE_VER0, 72, KSTATS_IOC_UNTRACE, 0x4058BC08u) \
	X(kstats_outliers, 176, KSTATS_OUTLIERS_SIZE_VER1, 152, KSTATS_IOC_OUTLIERS, 0xC0B0BC09u) \
	X(kstats_attach, 32, KSTATS_ATTACH_SIZE_VER0, 8, KSTATS_IOC_ATTACH, 0xC020BC0Au)

#define ASSERT_MEMBER(t, m, off, size) \
	_Static_assert(offsetof(struct t, m) == (off) && MEMBER_SIZE(t, m) == (size), \
		       "layout of " #t "." #m);
KSTATS_LAYOUT(ASSERT_MEMBER)

#define ASSERT_SIZE(t, size, ver0, ver0_lit, ioc, ioc_lit) \
	_Static_assert(sizeof(struct t) == (size), "sizeof " #t); \
	_Static_assert((ver0) == (ver0_lit) && offsetof(struct t, reserved) == (ver0), \
		       "the latest VERn of " #t " is up to its reserved[]"); \
	_Static_assert((ioc) == (ioc_lit) && _IOC_SIZE(ioc) == (size), "number of " #ioc);
KSTATS_SIZES(ASSERT_SIZE)

_Static_assert(sizeof(struct kstats_metric_info) == 176 &&
	       KSTATS_METRIC_INFO_SIZE_VER0 == 160, "sizeof kstats_metric_info");
_Static_assert(sizeof(struct kstats_snap_cpu) == 16, "sizeof kstats_snap_cpu");
_Static_assert(sizeof(struct kstats_snap_slot) == 24, "sizeof kstats_snap_slot");
_Static_assert(sizeof(struct kstats_uprobe) == 32 && KSTATS_UPROBE_SIZE_VER0 == 32,
	       "sizeof kstats_uprobe");

struct layout {
	const char *strct, *member;
	size_t off, size, want_off, want_size;
};

#define LAYOUT_ROW(t, m, o, s) { #t, #m, offsetof(struct t, m), MEMBER_SIZE(t, m), o, s },
static const struct layout layout[] = { KSTATS_LAYOUT(LAYOUT_ROW) };

void test_layout(void)
{
	size_t i, end = 0, nr_structs = 0;
	const char *cur = "";

	/* Also at run time, and no holes: each member starts where the last ended. */
	for (i = 0; i < ARRAY_SIZE(layout); i++) {
		const struct layout *l = &layout[i];

		if (strcmp(cur, l->strct)) {
			end = 0;
			nr_structs++;
		}
		cur = l->strct;
		if (l->off != l->want_off || l->size != l->want_size)
			tap_fail("%s.%s at %zu size %zu, want %zu size %zu", l->strct,
				 l->member, l->off, l->size, l->want_off, l->want_size);
		if (l->off != end)
			tap_fail("hole before %s.%s", l->strct, l->member);
		end = l->off + l->size;
	}
	tap_end("layout: %zu members of %zu structs at the documented offsets, no holes (%zu-bit)",
		ARRAY_SIZE(layout), nr_structs, sizeof(void *) * 8);
}

/* ---- fixtures ---- */

int g_fd = -1;
struct kstats_info g_info;
uint8_t g_arg[ARGBUF] __attribute__((aligned(64)));
uint8_t g_before[ARGBUF];
uint64_t g_values[KSTATS_RECORD_MAX + 1];
uint8_t *g_list, *g_snapbuf, *g_none_page, *g_edge;
unsigned int g_cpus[4096], g_nr_cpus;
char g_comm[16];

/* TRACE's CPU bitmaps and strings, for resolve(). */
static uint8_t cpus_all[CPUBUF_LEN], cpus_one[CPUBUF_LEN], cpus_past[CPUBUF_LEN];
static uint8_t cpus_empty[CPUBUF_LEN], cpus_far[CPUBUF_LEN], cpus_last[CPUBUF_LEN];
static pid_t other_tid;		/* a thread that waits until the test exits */
static size_t cpus_len;
static char long511[512], long512[513];
static const char *trace_strs[NR_STRS] = {
	[STR_VFS_READ] = TRACE_FUNC,
	[STR_VFS_WRITE] = TRACE_FUNC2,
	[STR_EMPTY] = "",
	[STR_NOSUCH] = "no_such_function_kstats_abi",
	[STR_KSTATS_RESET] = "kstats_reset",
	[STR_KSTATS_FLOOR] = "kstats:kstats_floor_fprobe",
	[STR_KSTATS_RECORD] = "kstats_record",
	[STR_BLACKLISTED] = "notify_die",
	[STR_LONG511] = long511,
	[STR_LONG512] = long512,
	[STR_TP_KMALLOC] = TRACE_TP_START,
	[STR_TP_KFREE] = TRACE_TP_END,
	[STR_TP_NOSUCH] = "tp:kmem:no_such_event_kstats",
	/* STR_AT_EDGE, STR_INTO_EDGE: set up by setup_fixtures() */
};

/* Computed here from kstats(4)'s formula, not from the header's macro. */
static uint64_t maxactive_limit(void)
{
	uint64_t n = (1u << 20) / (g_nr_cpus ? g_nr_cpus : 1);

	return n < 64 ? 64 : n > 65536 ? 65536 : n;
}

static struct kstats_expr expr_bad = { .flags = 1u << 31 };
static struct kstats_expr expr_good = {
	.flags = KSTATS_EXPR_VALUE,
	.value = { .source = KSTATS_OPERAND_ARG, .size = 8, .flags = KSTATS_OPERAND_SIGNED },
};

uint64_t resolve(uint64_t v)
{
	switch (v) {
	case PTR_EXPR_BAD: return U64PTR(&expr_bad);
	case PTR_EXPR_GOOD: return U64PTR(&expr_good);
	case PTR_NONE_PAGE: return U64PTR(g_none_page);
	case VAL_PID: return (uint64_t)getpid();
	case PTR_CPUS_ALL: return U64PTR(cpus_all);
	case PTR_CPUS_ONE: return U64PTR(cpus_one);
	case PTR_CPUS_PAST: return U64PTR(cpus_past);
	case PTR_CPUS_EMPTY: return U64PTR(cpus_empty);
	case PTR_CPUS_FAR: return U64PTR(cpus_far);
	case PTR_CPUS_LAST: return U64PTR(cpus_last);
	case VAL_CPUS_LEN: return cpus_len;
	case VAL_TID: return (uint64_t)other_tid;
	/* The module's bound: kretprobe's pool costs possible CPUs x maxactive. */
	case VAL_MAXACTIVE: return maxactive_limit();
	case VAL_MAXACTIVE1: return maxactive_limit() + 1;
	}
	if (v >= PTR_STR(0) && v < PTR_STR(NR_STRS))
		return U64PTR(trace_strs[v - PTR_STR(0)]);
	return v;
}

static void read_possible_cpus(void)
{
	char buf[4096], *p;
	FILE *f = fopen("/sys/devices/system/cpu/possible", "r");
	unsigned long a, b;

	g_nr_cpus = 0;
	if (!f || !fgets(buf, sizeof(buf), f)) {
		if (f)
			fclose(f);
		return;
	}
	fclose(f);
	for (p = buf; *p && *p != '\n';) {
		a = strtoul(p, &p, 10);
		b = a;
		if (*p == '-')
			b = strtoul(p + 1, &p, 10);
		for (; a <= b && g_nr_cpus < ARRAY_SIZE(g_cpus); a++)
			g_cpus[g_nr_cpus++] = (unsigned int)a;
		if (*p == ',')
			p++;
	}
}

static void setup_cpu_bitmaps(void)
{
	unsigned int i, last = g_nr_cpus ? g_cpus[g_nr_cpus - 1] : 0;

	for (i = 0; i < g_nr_cpus; i++)
		cpus_all[g_cpus[i] / 8] |= (uint8_t)(1u << (g_cpus[i] % 8));
	cpus_one[g_cpus[0] / 8] |= (uint8_t)(1u << (g_cpus[0] % 8));
	cpus_last[last / 8] |= (uint8_t)(1u << (last % 8));
	cpus_past[(last + 1) / 8] |= (uint8_t)(1u << ((last + 1) % 8));
	cpus_far[0] = 1;
	cpus_far[4095] = 1;
	cpus_len = (last + 1) / 8 + 1;	/* holds the bit past the last CPU too */
}

/* A mapped page followed by a PROT_NONE one; returns the start of the latter. */
static uint8_t *map_edge(void)
{
	uint8_t *p = mmap(NULL, 2 * PAGE, PROT_READ | PROT_WRITE,
			  MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (p == MAP_FAILED || mprotect(p + PAGE, PAGE, PROT_NONE)) {
		perror("setup: edge mapping");
		exit(2);
	}
	return p + PAGE;
}

/* Tells its id down the pipe, then waits for the process to end. */
static void *other_thread(void *arg)
{
	pid_t tid = (pid_t)syscall(SYS_gettid);

	if (write(*(int *)arg, &tid, sizeof(tid)) != sizeof(tid))
		exit(2);
	for (;;)
		pause();
	return NULL;
}

static void start_other_thread(void)
{
	static int pipefd[2];
	pthread_t t;

	if (pipe(pipefd) || pthread_create(&t, NULL, other_thread, &pipefd[1]) ||
	    read(pipefd[0], &other_tid, sizeof(other_tid)) != sizeof(other_tid)) {
		perror("setup: thread");
		exit(2);
	}
}

static void setup_fixtures(void)
{
	uint8_t *e1, *e2;
	size_t i;

	g_list = malloc((size_t)LIST_CAP * PAGE);
	g_snapbuf = malloc(SNAPBUF_LEN);
	g_none_page = mmap(NULL, PAGE, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (!g_list || !g_snapbuf || g_none_page == MAP_FAILED) {
		perror("setup");
		exit(2);
	}
	g_edge = map_edge();
	for (i = 0; i < ARRAY_SIZE(g_values); i++)
		g_values[i] = i * 977;
	read_possible_cpus();
	setup_cpu_bitmaps();
	start_other_thread();
	memset(long511, 'a', 511);
	memset(long512, 'a', 512);
	/* "vfs_read" with its NUL the last byte before a PROT_NONE page; and without. */
	e1 = map_edge();
	e2 = map_edge();
	memcpy(e1 - sizeof(TRACE_FUNC), TRACE_FUNC, sizeof(TRACE_FUNC));
	memcpy(e2 - (sizeof(TRACE_FUNC) - 1), TRACE_FUNC, sizeof(TRACE_FUNC) - 1);
	trace_strs[STR_AT_EDGE] = (const char *)e1 - sizeof(TRACE_FUNC);
	trace_strs[STR_INTO_EDGE] = (const char *)e2 - (sizeof(TRACE_FUNC) - 1);
	prctl(PR_GET_NAME, g_comm);
}

/* ---- the commands: how to build a valid argument for each ---- */

static void build_info(uint8_t *arg, const char *name)
{
	(void)arg;
	(void)name;
}

static void build_create(uint8_t *arg, const char *name)
{
	struct kstats_create *c = (void *)arg;

	set_name(c->name, name);
	c->frac_bits = 3;
}

static void build_name_only(uint8_t *arg, const char *name)
{
	set_name(arg, name);	/* DELETE, UNTRACE */
}

static void build_list(uint8_t *arg, const char *name)
{
	struct kstats_list *l = (void *)arg;

	(void)name;
	l->entries = U64PTR(g_list);
	l->entry_size = sizeof(struct kstats_metric_info);
	l->nr_entries = LIST_CAP;
}

static void build_control(uint8_t *arg, const char *name)
{
	struct kstats_control *c = (void *)arg;

	set_name(c->name, name);
	c->op = KSTATS_OP_START;
}

static void build_snapshot(uint8_t *arg, const char *name)
{
	struct kstats_snapshot *s = (void *)arg;

	set_name(s->name, name);
	s->buf = U64PTR(g_snapbuf);
	s->buf_len = SNAPBUF_LEN;
}

static void build_record(uint8_t *arg, const char *name)
{
	struct kstats_record *r = (void *)arg;

	set_name(r->name, name);
	r->values = U64PTR(g_values);
	r->count = 8;
}

static void build_trace(uint8_t *arg, const char *name)
{
	struct kstats_trace *t = (void *)arg;

	set_name(t->name, name);
	t->func = U64PTR(TRACE_FUNC);
	t->frac_bits = 3;
	t->mechanism = KSTATS_MECH_AUTO;
}

const struct cmd cmds[NR_CMDS] = {
	[C_INFO] = { "INFO", KSTATS_IOC_INFO, KSTATS_INFO_SIZE_VER0, 0, 0, 0, build_info },
	[C_CREATE] = { "CREATE", KSTATS_IOC_CREATE, KSTATS_CREATE_SIZE_VER0, 1, 0, 0, build_create },
	[C_DELETE] = { "DELETE", KSTATS_IOC_DELETE, KSTATS_DELETE_SIZE_VER0, 1, 1, 0, build_name_only },
	[C_LIST] = { "LIST", KSTATS_IOC_LIST, KSTATS_LIST_SIZE_VER0, 0, 0, 0, build_list },
	[C_CONTROL] = { "CONTROL", KSTATS_IOC_CONTROL, KSTATS_CONTROL_SIZE_VER0, 1, 1, 0, build_control },
	[C_SNAPSHOT] = { "SNAPSHOT", KSTATS_IOC_SNAPSHOT, KSTATS_SNAPSHOT_SIZE_VER0, 1, 1, 0, build_snapshot },
	[C_RECORD] = { "RECORD", KSTATS_IOC_RECORD, KSTATS_RECORD_SIZE_VER0, 1, 1, 0, build_record },
	[C_TRACE] = { "TRACE", KSTATS_IOC_TRACE, KSTATS_TRACE_SIZE_VER0, 1, 0, 0, build_trace },
	[C_UNTRACE] = { "UNTRACE", KSTATS_IOC_UNTRACE, KSTATS_UNTRACE_SIZE_VER0, 1, 0, 1, build_name_only },
};

int trace_setup(int fd, const char *name)
{
	if (strlen(name) <= TRACE_NAME_MAX)
		return k_trace(fd, name, TRACE_FUNC, NULL, NULL, KSTATS_MECH_AUTO, 0);
	return k_trace(fd, name, NULL, TRACE_FUNC, TRACE_FUNC2, KSTATS_MECH_AUTO, 0);
}

/* ---- INFO ---- */

#define MECH(m)		(1ULL << KSTATS_MECH_##m)

void test_info(void)
{
	long conf = sysconf(_SC_NPROCESSORS_CONF);
	const uint64_t need = KSTATS_FEAT_CREATE | KSTATS_FEAT_DELETE | KSTATS_FEAT_LIST |
			      KSTATS_FEAT_CONTROL | KSTATS_FEAT_SNAPSHOT | KSTATS_FEAT_RECORD |
			      KSTATS_FEAT_TRACE | KSTATS_FEAT_OUTLIERS |
			      KSTATS_FEAT_KEYS | KSTATS_FEAT_CGROUP | KSTATS_FEAT_KEY_VALUES |
			      KSTATS_FEAT_EXPR | KSTATS_FEAT_UPROBE | KSTATS_FEAT_USDT |
			      KSTATS_FEAT_UPROBE_EXPR | KSTATS_FEAT_TASK_KEYS |
			      KSTATS_FEAT_COMM_KEY | KSTATS_FEAT_MATCHED | KSTATS_FEAT_STACK_KEY |
			      KSTATS_FEAT_UPROBE_SPLIT | KSTATS_FEAT_UPROBE_OUTLIERS |
			      KSTATS_FEAT_UPROBE_COST | KSTATS_FEAT_UPROBE_STACK |
			      KSTATS_FEAT_USDT_EXPR | KSTATS_FEAT_UPROBE_LOADS | KSTATS_FEAT_GROUP;
	const uint64_t mech_need = MECH(KRETPROBE) | MECH(KPROBE) | MECH(TRACEPOINT);
	const char *fp_env = getenv("KSTATS_EXPECT_FPROBE");
	struct kstats_info *i = &g_info;
	size_t len;
	int err, fprobe, uprobe;

	err = k_info(g_fd, i);
	want_errno(err, 0, "INFO");
	tap_end("INFO works");

	if (i->abi_version != KSTATS_ABI_VERSION)
		tap_fail("abi_version %u, want %u", i->abi_version, KSTATS_ABI_VERSION);
	if (i->max_frac_bits != KSTATS_FRAC_BITS_MAX)
		tap_fail("max_frac_bits %u", i->max_frac_bits);
	if (i->record_max != KSTATS_RECORD_MAX)
		tap_fail("record_max %u", i->record_max);
	tap_end("INFO: abi_version %u, max_frac_bits %u, record_max %u", i->abi_version,
		i->max_frac_bits, i->record_max);

	len = strnlen((const char *)i->version, sizeof(i->version));
	if (!len || len == sizeof(i->version))
		tap_fail("version string length %zu", len);
	tap_end("INFO: version \"%.*s\" non-empty, NUL-terminated", (int)len, i->version);

	if (i->nr_cpus != g_nr_cpus && (long)i->nr_cpus != conf)
		tap_fail("nr_cpus %u; possible mask has %u, sysconf(_SC_NPROCESSORS_CONF) %ld",
			 i->nr_cpus, g_nr_cpus, conf);
	if (i->nr_cpus != g_nr_cpus)
		tap_note("possible mask has %u CPUs; using INFO's", g_nr_cpus);
	tap_end("INFO: nr_cpus %u = possible CPUs", i->nr_cpus);

	if ((i->features & need) != need)
		tap_fail("features 0x%llx lack some of CREATE..OUTLIERS, KEYS, CGROUP, KEY_VALUES, "
			 "EXPR, UPROBE, USDT, UPROBE_EXPR, TASK_KEYS",
			 (unsigned long long)i->features);
	/* SPLIT and SELF: kernels with sched_switch's prev_state (5.18+). */
	if (i->features & ~(need | KSTATS_FEAT_SPLIT | KSTATS_FEAT_SELF))
		tap_fail("unknown feature bits 0x%llx", (unsigned long long)(i->features &
			 ~(need | KSTATS_FEAT_SPLIT | KSTATS_FEAT_SELF)));
	if (!(i->features & KSTATS_FEAT_SPLIT) != !(i->features & KSTATS_FEAT_SELF))
		tap_fail("SPLIT and SELF need the same kernel: features 0x%llx",
			 (unsigned long long)i->features);
	tap_end("INFO: features CREATE..RECORD, TRACE, OUTLIERS, KEYS, CGROUP, KEY_VALUES, EXPR, "
		"UPROBE, USDT, UPROBE_EXPR, TASK_KEYS (0x%llx)",
		(unsigned long long)i->features);

	fprobe = !!(i->mechanisms & MECH(FPROBE));
	uprobe = !!(i->mechanisms & MECH(UPROBE));
	if ((i->mechanisms & mech_need) != mech_need)
		tap_fail("mechanisms 0x%llx lack some of KRETPROBE, KPROBE, TRACEPOINT",
			 (unsigned long long)i->mechanisms);
	/* UPROBE: kernels with CONFIG_UPROBES, on x86-64 (every lane's). */
	if (i->mechanisms & ~(mech_need | MECH(FPROBE) | MECH(UPROBE)))
		tap_fail("unknown mechanism bits 0x%llx (bit 0 is AUTO, not a mechanism)",
			 (unsigned long long)(i->mechanisms &
					      ~(mech_need | MECH(FPROBE) | MECH(UPROBE))));
	if (fp_env && *fp_env && fprobe != !!atoi(fp_env))
		tap_fail("FPROBE %s, but KSTATS_EXPECT_FPROBE=%s", fprobe ? "listed" : "not listed",
			 fp_env);
	tap_end("INFO: mechanisms KRETPROBE, KPROBE, TRACEPOINT%s%s (0x%llx; FPROBE expected: %s)",
		fprobe ? ", FPROBE" : "", uprobe ? ", UPROBE" : "",
		(unsigned long long)i->mechanisms, fp_env && *fp_env ? fp_env : "not said");

	if (i->flags & ~(KSTATS_INFO_LOCKDOWN | KSTATS_INFO_UPROBE_SESSION))
		tap_fail("unknown flags 0x%x", i->flags);
	/* UPROBE_SESSION: how uprobes pair a return with its entry (6.13+). */
	if ((i->flags & KSTATS_INFO_UPROBE_SESSION) && !uprobe)
		tap_fail("flags 0x%x: UPROBE_SESSION without the UPROBE mechanism", i->flags);
	if (i->flags & KSTATS_INFO_LOCKDOWN)
		tap_fail("LOCKDOWN: TRACE cannot work here; these tests need a kernel not locked down");
	tap_end("INFO: flags 0x%x: no unknown bits, not locked down", i->flags);
}

/* ---- main ---- */

int main(void)
{
	tap_init();
	setup_fixtures();
	printf("# kstats ABI test, %zu-bit\n", sizeof(void *) * 8);

	g_fd = kopen();
	if (g_fd < 0)
		tap_fail("open %s: %s (is kstats.ko loaded?)", KSTATS_DEVICE, strerror(errno));
	tap_end("open %s", KSTATS_DEVICE);
	if (g_fd < 0)
		return tap_finish();

	test_layout();
	test_info();
	run_table(arg_cases, nr_arg_cases);
	run_table(trace_cases, nr_trace_cases);
	test_infoleak_info();
	test_infoleak_list();
	test_infoleak_snapshot();
	test_enospc_snapshot();
	test_enospc_list();
	test_exact();
	test_generation();
	test_record_partial_fault();
	test_control();
	test_lifetime();
	test_trace();
	test_group();
	test_privilege();
	test_outliers();
	close(g_fd);
	return tap_finish();
}

/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the files of abi_test share (abi_util.h is what abi_test and
 * abi_stress share): the fixtures, how to build a valid argument for each
 * command, the argument-case table's types, and each file's tests.
 *
 *   abi_test.c	 main, fixtures, the command table, layout, INFO
 *   abi_args.c	 the case table runner; every command's argument cases but TRACE's
 *   abi_trace.c TRACE/UNTRACE: their argument cases and behaviour
 *   abi_snap.c	 SNAPSHOT: exact contents, -ENOSPC, its infoleak check
 *   abi_life.c	 INFO/LIST infoleak, LIST -ENOSPC, CONTROL, metric lifetime
 *   abi_priv.c	 privilege: the opener's credentials, fd passing
 *   abi_outl.c	 outliers: TRACE's outlier fields, OUTLIERS
 */
#ifndef KSTATS_ABI_TEST_H
#define KSTATS_ABI_TEST_H

#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <sched.h>
#include <time.h>

#include "abi_util.h"

/* ---- fixtures (abi_test.c) ---- */

#define ARGBUF		(16384 + 256)	/* the largest size an ioctl number holds, and more */
#define LIST_CAP	256
#define SNAPBUF_LEN	(1 << 20)
#define PAGE		4096
#define CPUBUF_LEN	(4096 + 8)	/* TRACE's cpus_len is at most 4096 */

extern int g_fd;
extern struct kstats_info g_info;	/* from test_info() */
extern uint8_t g_arg[ARGBUF], g_before[ARGBUF];
extern uint64_t g_values[KSTATS_RECORD_MAX + 1];
extern uint8_t *g_list;			/* LIST_CAP entries of up to PAGE bytes */
extern uint8_t *g_snapbuf;		/* SNAPBUF_LEN bytes */
extern uint8_t *g_none_page;		/* PROT_NONE */
extern uint8_t *g_edge;			/* start of a PROT_NONE page after a mapped one */
extern unsigned int g_cpus[4096], g_nr_cpus;	/* possible CPUs, ascending */
extern char g_comm[16];

/*
 * Sentinels for the fields a case sets, resolved at run time by resolve():
 * pointers, pids and CPU bitmaps cannot be constants of a static table.
 */
#define PTR_NONE_PAGE	0xfeedfeed00000001ULL	/* g_none_page */
#define PTR_KERNEL	0xffffffff81000000ULL	/* a kernel text address, as is */
#define VAL_PID		0xfeedfeed00000002ULL	/* getpid() */
#define PTR_CPUS_ALL	0xfeedfeed00000010ULL	/* bitmap: every possible CPU */
#define PTR_CPUS_ONE	0xfeedfeed00000011ULL	/* bitmap: the first possible CPU */
#define PTR_CPUS_PAST	0xfeedfeed00000012ULL	/* bitmap: the CPU after the last one */
#define PTR_CPUS_EMPTY	0xfeedfeed00000013ULL	/* bitmap: none */
#define PTR_CPUS_FAR	0xfeedfeed00000014ULL	/* bitmap: CPU 0 and bit 8*4095 */
#define PTR_CPUS_LAST	0xfeedfeed00000015ULL	/* bitmap: the last possible CPU */
#define VAL_CPUS_LEN	0xfeedfeed00000020ULL	/* bytes that hold every possible CPU */
#define VAL_TID		0xfeedfeed00000030ULL	/* a thread of ours that is not the leader */
#define VAL_MAXACTIVE	0xfeedfeed00000031ULL	/* the largest maxactive TRACE takes */
#define VAL_MAXACTIVE1	0xfeedfeed00000032ULL	/* one more */
#define PTR_EXPR_BAD	0xfeedfeed00000040ULL	/* an expr with an unknown flag */
#define PTR_EXPR_GOOD	0xfeedfeed00000041ULL	/* an expr: arg0's value, signed */
#define PTR_STR(i)	(0xfeedfeed00000100ULL + (i))	/* trace_strs[i] */

enum trace_str {
	STR_VFS_READ, STR_VFS_WRITE, STR_EMPTY, STR_NOSUCH, STR_KSTATS_RESET,
	STR_KSTATS_FLOOR, STR_KSTATS_RECORD, STR_BLACKLISTED, STR_LONG511, STR_LONG512,
	STR_TP_KMALLOC, STR_TP_KFREE, STR_TP_NOSUCH, STR_AT_EDGE, STR_INTO_EDGE, NR_STRS
};

uint64_t resolve(uint64_t v);

/* ---- the commands: how to build a valid argument for each (abi_test.c) ---- */

enum { C_INFO, C_CREATE, C_DELETE, C_LIST, C_CONTROL, C_SNAPSHOT, C_RECORD,
       C_TRACE, C_UNTRACE, NR_CMDS };

struct cmd {
	const char *name;
	unsigned long ioc;
	size_t ver0;
	int has_name;		/* name[] at offset 0 */
	int needs_metric;	/* the valid argument names an existing user metric */
	int needs_trace;	/* the valid argument names an existing trace */
	void (*build)(uint8_t *arg, const char *name);
};

extern const struct cmd cmds[NR_CMDS];

/* The function every trace here times: every lane's kernel has it. */
#define TRACE_FUNC	"vfs_read"
#define TRACE_FUNC2	"vfs_write"
#define TRACE_TP_START	"tp:kmem:kmalloc"
#define TRACE_TP_END	"tp:kmem:kfree"
/* The longest NAME a function trace takes: GAP-NAME must fit in 63 bytes. */
#define TRACE_NAME_MAX	(KSTATS_NAME_LEN - 1 - 4)

/* A trace called @name, by function if the name leaves room for GAP-NAME. */
int trace_setup(int fd, const char *name);

/* ---- the case table (abi_args.c runs it) ---- */

/* Pseudo-commands: a row run once for each command of the group. */
#define ALL_CMDS	(-1)
#define NAMED		(-2)	/* commands with a name */
#define WRITERS		(-3)	/* commands that read their argument (_IOC_WRITE) */

enum ioc_variant { V_RIGHT, V_NR0B, V_NRFF, V_DIR_NONE, V_DIR_R, V_DIR_W, V_DIR_RW, V_MAGIC };
enum size_variant { S_KSIZE, S_ZERO, S_VER0M1, S_VER0, S_VER0P4, S_BIG, S_MAX };

#define H_TAIL_NZ	(1u << 0)	/* last byte of the passed size non-zero */
#define H_GARBAGE	(1u << 1)	/* bytes after the passed size are garbage */
#define H_ARG_ODD	(1u << 2)	/* ioctl argument (void *)1 */
#define H_ARG_NULL	(1u << 3)	/* ioctl argument NULL */
#define H_ARG_NONE	(1u << 4)	/* ioctl argument in a PROT_NONE page */
#define H_ARG_EDGE	(1u << 5)	/* the struct ends where a PROT_NONE page starts */
#define H_NOSETUP	(1u << 6)	/* do not create the metric/trace the argument names */
#define H_PRECREATE	(1u << 7)	/* create a user metric of that name first */
#define H_RAWNAME	(1u << 8)	/* name[] = raw bytes */
#define H_NAME63	(1u << 9)	/* name[63] = 'x' after a valid name */
#define H_PREGAP	(1u << 10)	/* create a user metric GAP-<name> first */
#define H_SECTION	(1u << 11)	/* TRACE: func 0, start/end TRACE_FUNC..TRACE_FUNC2 */
#define H_TPS		(1u << 12)	/* TRACE: func 0, start/end two tracepoints */

#define OK		(-1)	/* what a valid argument gets: works */
#define OK_FPROBE	(-2)	/* works if INFO lists FPROBE, else EOPNOTSUPP */

struct fset {
	uint16_t off, len;		/* len 0: unused */
	uint64_t val;			/* or a sentinel */
};

#define MEMBER_SIZE(t, m)	sizeof(((struct t *)0)->m)
#define SET(t, m, v)	{ offsetof(struct t, m), MEMBER_SIZE(t, m), (uint64_t)(v) }
#define RAW(s)		.raw = (s), .raw_len = sizeof(s) - 1

struct tcase {
	const char *what;
	int cmd;
	enum ioc_variant ioc;
	enum size_variant size;
	unsigned int how;
	struct fset set[6];
	const char *name;	/* metric name instead of the case's own */
	const char *raw;	/* H_RAWNAME */
	size_t raw_len;
	int expect;		/* errno, 0, OK or OK_FPROBE */
};

void run_table(const struct tcase *cases, size_t n);
int metric_exists(int fd, const char *name);
extern const struct tcase arg_cases[], trace_cases[];
extern const size_t nr_arg_cases, nr_trace_cases;

/* ---- helpers of the behaviour tests (abi_snap.c, abi_life.c) ---- */

struct hist {
	uint64_t count[KSTATS_SLOTS_MAX], part[KSTATS_SLOTS_MAX];
	uint32_t nonempty;
	uint64_t total;
};

uint64_t now_ns(clockid_t clk);
size_t make_values(uint64_t *v, size_t max);
void hist_predict(struct hist *h, uint32_t bits, const uint64_t *v, size_t n);
void check_snap(const struct snap *s, uint32_t bits, const struct hist *h, int cpu);
int record_all(int fd, const char *name, const uint64_t *v, size_t n);
int pin_here(cpu_set_t *old);

/* abi_life.c */
const struct kstats_metric_info *list_one(int fd, const char *name,
					  struct kstats_metric_info **all, uint32_t *n);
int all_zero(const void *p, size_t len);
int clean_name(const uint8_t *f, size_t len);
void check_user_entry(const struct kstats_metric_info *m, const char *name, uint32_t bits,
		      uint32_t flags, uint64_t count, const char *comm, pid_t pid, uid_t uid);

/* ---- the tests, in the order main() runs them ---- */

void test_layout(void);			/* abi_test.c */
void test_info(void);
void test_infoleak_info(void);		/* abi_life.c */
void test_infoleak_list(void);
void test_infoleak_snapshot(void);	/* abi_snap.c */
void test_enospc_snapshot(void);
void test_enospc_list(void);		/* abi_life.c */
void test_exact(void);			/* abi_snap.c */
void test_generation(void);		/* abi_snap.c */
void test_record_partial_fault(void);
void test_control(void);		/* abi_life.c */
void test_lifetime(void);
void test_trace(void);			/* abi_trace.c */
void test_group(void);			/* abi_group.c */
void test_privilege(void);		/* abi_priv.c */
void test_outliers(void);		/* abi_outl.c */

#endif /* KSTATS_ABI_TEST_H */

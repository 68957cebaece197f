/* SPDX-License-Identifier: GPL-2.0 */
/* Shared by the tracing tests: trace_test.c, trace_oracle.c, trace_util.c. */
#ifndef KSTATS_TRACE_TEST_H
#define KSTATS_TRACE_TEST_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "kstats_hist.h"
#include "uapi/linux/kstats.h"

#define TARGET "/sys/kernel/debug/kstats_target/"
#define NS_PER_US 1000ULL
#define MAX_CALLS 1024
#define TRACEFS "/sys/kernel/tracing/"

extern int fd, nr_tests, nr_failed;
extern uint64_t hz;

struct req {
	const char *name, *func, *start, *end;
	uint32_t mech, flags, bits, maxactive, key, nr_keys;
	int32_t cgroup_fd;	/* with KSTATS_TRACE_CGROUP */
	int64_t pid, tgid;
	uint64_t cpus;		/* with KSTATS_TRACE_CPUS: bit n = CPU n */
};

/* A metric summed over CPUs, with the snapshot's trace counters. */
struct hist {
	struct kstats_snapshot sn;
	uint64_t counts[KSTATS_SLOTS_MAX], parts[KSTATS_SLOTS_MAX], total;
	uint64_t cpu_mask;	/* CPUs (below 64) with samples */
};

int ok(int cond, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void diag(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
uint64_t read_u64(const char *path);
uint64_t target(const char *cmd);
int trace(int dev, const struct req *r);
int untrace(const char *name);
int snap(const char *name, struct hist *h);
int within(const struct hist *h, uint64_t lo, uint64_t hi, unsigned int pct);
int cmp_u64(const void *a, const void *b);
uint64_t read_durations(uint64_t *v, uint64_t max);
uint64_t read_durations_in_order(uint64_t *v, uint64_t max);
uint64_t against_truth(const struct hist *h, const uint64_t *t, uint64_t n,
		       uint64_t slack, uint64_t *over);
int accounted(const char *what, const struct hist *h, uint64_t calls);
void dump(const struct hist *h);

/* trace_oracle.c: function_graph and bpftrace on the same calls. */
void test_oracles(uint32_t mech, const char *m);
/* trace_bpftrace.c: bpftrace beside a trace of each mechanism in @mechs (bits). */
#define BPF_MECHS	(1ULL << KSTATS_MECH_FPROBE | 1ULL << KSTATS_MECH_KRETPROBE)
void test_bpftrace(uint64_t mechs);
/* bpftrace as a peer process (trace_bpftrace.c), never waited on unbounded. */
#define BPF_START_S	600	/* LLVM compiles the program: slow under TCG */
#define BPF_STOP_S	120
struct peer {
	pid_t pid;
	int out;		/* its stdout */
	char buf[4096];
	size_t len;
	int eof;
};
int peer_start(struct peer *pr, const char *root, const char *prog);	/* root: NULL = host */
int peer_line(struct peer *pr, char *line, size_t size, double secs);
int peer_expect(struct peer *pr, const char *want, double secs);
int peer_finish(struct peer *pr, void (*fn)(const char *line, void *arg), void *arg,
		double secs);
int no_bpftrace(const char *what);	/* a skip where the lane has none */
int tracefs_ready(void);	/* mounts it if need be */

/* trace_self.c: self time; @supported: INFO lists KSTATS_FEAT_SELF. */
void test_self(uint32_t mech, const char *m, int supported);

/* trace_keys.c: keyed traces; @supported: INFO lists KSTATS_FEAT_KEYS. */
void test_keys(uint32_t mech, const char *m, int supported);
/* By pid, tid, cpu (KSTATS_FEAT_TASK_KEYS) and comm (KSTATS_FEAT_COMM_KEY) in @features. */
void test_task_keys(uint32_t mech, const char *m, uint64_t features);
uint64_t samples(const char *name);	/* or ~0 when there is no such metric */

/* trace_cgroup.c: --cgroup and --by cgroup; @supported: KSTATS_FEAT_CGROUP. */
void test_cgroup(uint32_t mech, const char *m, int supported, int tracepoints);

/* trace_expr*.c: values and predicates; @supported: KSTATS_FEAT_EXPR. */
void test_expr(uint32_t mech, const char *m, int supported);
void test_expr_abi(int supported);
/*
 * bpftrace's hist(n, @bits): the host's (@root NULL; also at a tracepoint,
 * @have_tp), or one in a Debian root.
 */
void test_expr_bpftrace(int have_fprobe, int supported, int have_tp, uint32_t bits,
			const char *root);
void test_expr_tp(int supported);	/* trace_expr_tp.c: values at tracepoints */
void test_expr_fsec(int supported);	/* trace_expr_fsec.c: values on function sections */

/* trace_faults.c: SUBCOMMAND [ARGS] when it is one of its own, else 0. */
/* trace_shared.c: traces sharing one function */
void test_shared(uint32_t mech, const char *m, int supported, int have_fprobe);
int faults_main(int argc, char **argv, int have_fprobe);

#endif /* KSTATS_TRACE_TEST_H */

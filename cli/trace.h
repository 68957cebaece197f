/* SPDX-License-Identifier: GPL-2.0 */
/*
 * trace's pieces: --duration/--interval (trace_run.c), --outliers (trace.c),
 * --by errno's check (btf.c).
 */
#ifndef KSTATSCTL_TRACE_H
#define KSTATSCTL_TRACE_H

#include "fmt.h"

/* trace --duration/--interval (trace_run.c): what to wait for and print. */
struct ks_trace_run {
	double duration;	/* seconds; 0: until a signal */
	double interval;	/* seconds; 0: one report at the end */
	long count;		/* with interval: at most this many; 0: no limit */
	enum ks_format format;
	const char *output;	/* with interval: the HdrHistogram log's path */
	const char *label;	/* what "tracing ..." names (NULL: the first metric) */
};
/*
 * A trace's metrics one-shot prints: NAME, with --self SELF-NAME, with
 * --split its three parts, with --value VALUE-NAME (--time) and NEG-NAME.
 */
#define KS_TRACE_METRICS	7
/*
 * Waits as @r says, or until SIGINT/SIGTERM/SIGHUP, printing the trace's
 * metrics @names[0..n) and, @keyed, its key's (each interval's share, or
 * all of it at the end). 0 or an exit code.
 */
int ks_trace_run(int fd, const char *const *names, size_t n, bool keyed,
		 const struct ks_trace_run *r);
/*
 * trace --interval --output FILE (trace_hlog.c): the HdrHistogram interval
 * log being written. Open with no @path: nothing is written.
 */
struct ks_metric;
struct ks_trace_hlog {
	const char *path;
	FILE *mem;		/* an interval's text, written out at once */
	char *text;
	size_t len;
	int fd;
	double base_s, tick_s;	/* the log's start; the last interval's end */
};
int ks_trace_hlog_open(struct ks_trace_hlog *h, const char *path);
/* The interval from @prev[0..nprev) (the trace's start: none) to @cur[0..n). */
int ks_trace_hlog_add(struct ks_trace_hlog *h, const struct ks_metric *prev, size_t nprev,
		      const struct ks_metric *cur, size_t n);
void ks_trace_hlog_close(struct ks_trace_hlog *h);
/* Whether @kind is one of a trace's metrics (execution time, gap, self, split). */
bool ks_kind_is_trace(uint32_t kind);


/* "this kstats module cannot trace functions", said; EXIT_RUNTIME (trace.c). */
int ks_trace_unsupported(void);
/* --outliers: "5ms" (ns) or "p99.9" (ppm); 0 or EINVAL (usage printed). */
int ks_parse_outliers(const char *arg, uint64_t *ns, uint32_t *ppm);
int ks_btf_errno_check(const char *target);	/* btf.c: trace --by errno */
/* btf.c: 1 if @target's return type cannot be keyed by errno (its type in @why). */
int ks_btf_errno_narrow(const char *target, char *why, size_t why_len);

/* trace --value/--if (trace_expr.c): as given. */
struct ks_trace_expr {
	const char *value, *pred;
	bool time;		/* --time */
	const char *end;	/* a section's end (--end), or NULL */
	bool keyed;		/* --by */
	const char *timed;	/* "split", "self" or "outliers": asked for with them */
	bool user;		/* a user-space function: registers only, no BTF */
	const struct ks_usdt_args *usdt;	/* USDT probes' arguments (usdt.h), or NULL */
};
struct ks_plan;
/* Checks and compiles @x for @func traced as @name into @plan: 0 or an exit code. */
int ks_trace_expr_check(const struct ks_trace_expr *x, const char *func, const char *name,
			struct ks_plan *plan);
/*
 * 0 when the module behind @fd has KSTATS_FEAT_EXPR (a user-space
 * function: KSTATS_FEAT_UPROBE_EXPR; USDT probes: KSTATS_FEAT_USDT_EXPR;
 * either reading memory: KSTATS_FEAT_UPROBE_LOADS) for @x compiled into
 * @plan, else the error said.
 */
int ks_trace_expr_supported(int fd, const char *func, const struct ks_trace_expr *x,
			    const struct ks_plan *plan);
void ks_trace_expr_names(const struct ks_plan *plan, const char *name,
			 char bufs[2][KSTATS_NAME_LEN + 8], const char **names, size_t *n);

/* What a uprobe reports for an empty function and costs here (ucost.c). */
struct ks_ucost {
	uint64_t floor_ns, call_ps, skip_ps;
};
/* Measured on kstatsctl's own functions (@section: a start and an end): 0 or -errno. */
int ks_ucost_measure(int fd, bool section, struct ks_ucost *c);
/*
 * @t's user_floor_ns, _call_ps and _skip_ps, from @cache when it holds
 * them, else measured (and kept in @cache, if given). 0, or with a budget
 * an exit code (said) when the module takes no cost or none was measured.
 */
int ks_ucost_fill(int fd, struct kstats_trace *t, bool section, struct ks_ucost *cache);

#endif /* KSTATSCTL_TRACE_H */

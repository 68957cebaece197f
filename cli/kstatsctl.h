/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kstatsctl's core: exit codes, the global options, the commands, messages
 * and option values. Each concept has its own header beside its .c files
 * (model.h, stats.h, fmt.h, json.h, units.h, names.h, keys.h, text.h,
 * device.h, snapfile.h, hdr.h, plot.h, outliers.h, trace.h, diff.h). The
 * histogram math itself is in include/kstats_hist.h.
 */
#ifndef KSTATSCTL_H
#define KSTATSCTL_H

#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <argp.h>
#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <time.h>

#include <linux/kstats.h>
#include "kstats_hist.h"

#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))

/* Exit codes (documented in kstatsctl(8)). */
#define EXIT_OK		0
#define EXIT_RUNTIME	1
#define EXIT_USAGE	2
#define EXIT_NO_INTERVAL 3	/* diff: a metric was reset between A and B */
#define EXIT_FAIL_IF	4	/* diff: a --fail-if condition held */
#define EXIT_UNDECIDED	5	/* diff: a --fail-if condition not decided */

/* Version of every JSON document kstatsctl prints ("schema": N). */
#define KS_JSON_SCHEMA	3

/*
 * Sums of counts. One slot of one CPU holds at most 2^64 - 1 samples; sums
 * over slots and CPUs are kept in 128 bits, which no snapshot can overflow
 * (fewer than 2^32 CPUs x 2^11 slots x 2^64), so every count printed is
 * exact.
 */
typedef unsigned __int128 ks_u128;

/* ---- global options (main.c) ---- */

/* UNIT_NONE: a metric with no unit (ks_metric_unit): plain numbers. */
enum ks_unit { UNIT_AUTO, UNIT_NS, UNIT_US, UNIT_MS, UNIT_S, UNIT_NONE };

struct ks_opts {
	bool json;		/* -j */
	bool pretty;		/* -p (implies -j) */
	bool no_autoload;
	const char *device;	/* -d */
	enum ks_unit units;
	bool units_set;		/* --units given explicitly */
	struct ks_names *ns;	/* --ns PATTERN: these metrics hold ns too */
	bool color_out;		/* colour on stdout */
	bool color_err;		/* colour on stderr */
	const char *cmd;	/* the subcommand running, for messages */
	enum ks_unit hdr_unit;	/* --hdr-unit: what an HdrHistogram log's values are */
};
extern struct ks_opts opts;

/* The global options as an argp child, so they work after the command too. */
extern const struct argp ks_global_argp;

struct ks_cmd {
	const char *name;
	int (*run)(int argc, char **argv);
	const struct argp *argp;
	const char *summary;
};
extern const struct ks_cmd ks_cmds[];
extern const size_t ks_nr_cmds;

/*
 * Parses a subcommand's arguments with its argp (global options included).
 * Returns 0, or an exit code to return right away (help printed: 0; a usage
 * error: 2).
 */
int ks_parse(const struct argp *argp, int argc, char **argv, void *input,
	     int *done);

/* ---- messages (util.c) ---- */

/*
 * "kstatsctl: error: <what>" on stderr, and "hint: <hint>" when there is
 * one; in JSON mode {"error": ..., "hint": ...} on stdout. Returns @code.
 * Only the first error of a run is printed.
 */
int ks_fail(int code, const char *hint, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
int ks_usage(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void ks_warn(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* The hint printed with the next error unless it names one itself. */
void ks_set_hint(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
bool ks_failed(void);

void *xcalloc(size_t n, size_t size);
void *xrealloc(void *p, size_t n, size_t size);
char *xstrdup(const char *s);

int ks_name_valid(const char *name);	/* 0 or a usage error printed */
int ks_pattern_valid(const char *pat);	/* the same, for a NAME pattern */

/*
 * "Did you mean": the candidate closest to @word within a typo's distance
 * (edit distance at most a third of @word, 1 to 3), or NULL.
 */
const char *ks_closest(const char *word, const char *const *cands, size_t nr);

/* ---- option values and helpers (util.c, main.c) ---- */

int ks_parse_u32(const char *s, uint32_t max, uint32_t *out);
int ks_parse_u64(const char *s, uint64_t *out);
/* --pid P, --tid T (@opt): 1 to 2^30 - 1, or a usage error (EINVAL). */
int ks_parse_id(const char *opt, const char *arg, int64_t *out);
/* "0-3,8": sets bits in @mask (@nbits); 0 or -1. */
int ks_parse_cpulist(const char *s, uint8_t *mask, size_t nbits);
#define KS_CPU_BITS	8192	/* CPU lists: CPUs 0 to 8191 */
const char *ks_kind_name(uint32_t kind);
struct ks_metric;
/* A trace's NAME, which its counters are of: not GAP-, VALUE-, NEG-... (util.c) */
bool ks_metric_is_trace_own(const struct ks_metric *m);
const char *ks_state_name(uint32_t flags);	/* active, stopped, detached */
const char *ks_color(bool on, const char *code);	/* "" when off */
#define C_RED	"\033[31m"
#define C_GREEN	"\033[32m"
#define C_YELLOW "\033[33m"
#define C_CYAN	"\033[36m"
#define C_BOLD	"\033[1m"
#define C_RESET	"\033[0m"
/* --color / KSTATS_COLOR: "always", "never", else auto. */
void ks_set_color(const char *when);

/* Adds @s seconds to @t. */
void ks_timespec_add(struct timespec *t, double s);
/* Fills @set with SIGINT, SIGTERM and SIGHUP and blocks them (for sigwait). */
void ks_block_stop_signals(sigset_t *set);
/* Sleeps until @next (CLOCK_MONOTONIC) + @step seconds, and sets @next to it. */
void ks_sleep_until(struct timespec *next, double step);
/* Option values: 0, or EINVAL with the usage error printed. */
int ks_parse_seconds(const char *opt, const char *arg, double min, double max, double *out);
/* -f table or json (json: as -j), where -j is the only other output. */
int ks_parse_table_json(const char *arg);
int ks_parse_count(const char *opt, const char *arg, long *out);	/* >= 1 */

/* Holds a metric or trace until SIGINT/SIGTERM (--autoremove). */
void ks_hold_until_signal(void);

/* ---- subcommands ---- */

int cmd_list(int argc, char **argv);
int cmd_create(int argc, char **argv);
int cmd_delete(int argc, char **argv);
int cmd_record(int argc, char **argv);
int cmd_start(int argc, char **argv);
int cmd_stop(int argc, char **argv);
int cmd_reset(int argc, char **argv);
int cmd_show(int argc, char **argv);
int cmd_snapshot(int argc, char **argv);
int cmd_diff(int argc, char **argv);
int cmd_info(int argc, char **argv);
int cmd_trace(int argc, char **argv);
int cmd_untrace(int argc, char **argv);
int cmd_help(int argc, char **argv);
int cmd_export(int argc, char **argv);
int cmd_summary(int argc, char **argv);
int cmd_plot(int argc, char **argv);
int cmd_outliers(int argc, char **argv);

extern const struct argp list_argp, create_argp, delete_argp, record_argp,
	control_argp, show_argp, snapshot_argp, diff_argp, info_argp,
	trace_argp, untrace_argp, export_argp, summary_argp, help_argp;
extern const struct argp plot_argp, outliers_argp;

#endif /* KSTATSCTL_H */

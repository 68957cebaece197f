/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kstatsctl: declarations shared by the dispatcher, the subcommands, the
 * device layer, the in-memory model, the snapshot file code and the
 * formatters. The histogram math itself is in include/kstats_hist.h.
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
#define KS_JSON_SCHEMA	2

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
int ks_btf_errno_check(const char *target);	/* btf.c: trace --by errno */
int ks_key_values_parse(uint32_t key, const char *list, uint64_t *vals);	/* keys.c */
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

/* ---- a keyed trace's metrics, NAME{KEY=VALUE} (keys.c) ---- */

#define KS_KEY_VALUE_MAX	512	/* as typed: a cgroup's path */
struct ks_key {
	size_t base_len;	/* NAME's bytes */
	char key[16], value[KS_KEY_VALUE_MAX];
};
/* Whether @name is a key's metric's, and then its parts. */
bool ks_key_parse(const char *name, struct ks_key *k);
/* NAME's bytes if @name is a key's metric's as the module names them (NAME{a-z=a-z0-9-}), else 0. */
size_t ks_key_name_base(const char *name);
/*
 * The value as people read it: errno=-11 as -EAGAIN, cgroup=4242 as its
 * path (of this boot); else as it is.
 */
const char *ks_key_value_text(const struct ks_key *k, char *buf, size_t len);
/* A metric's name to print in text (ks_text()), with its key's value readable. */
char *ks_metric_label(char *buf, size_t len, const char *name);
/*
 * NAME{errno=-EAGAIN} or NAME{cgroup=/a/b} as the module names it
 * (errno=-11, cgroup=4242); 0 or a usage error.
 */
int ks_key_name_canonical(const char *in, char *out, size_t len);

/* ---- cgroups v2 (cgroups.c) ---- */

/* Where the cgroup v2 hierarchy is mounted here, or NULL. */
const char *ks_cgroup_mount(void);
/* The path of cgroup @id below the mount ("/" the root), or NULL. */
const char *ks_cgroup_path(uint64_t id);
/* The id of the cgroup at @path below the mount; -1: none. */
int ks_cgroup_id(const char *path, uint64_t *id);
/* --cgroup PATH: an open cgroup v2 directory, or -1 (error printed). */
int ks_cgroup_open(const char *path);
/* This boot's random ID (/proc/sys/kernel/random/boot_id), or "" (model.c). */
void ks_read_boot_id(char *buf, size_t len);
/* A set read from a file of boot @boot_id: its cgroup ids are not this boot's unless equal. */
void ks_cgroup_source(const char *boot_id);

/* ---- NAME... operands (names.c) ---- */

struct ks_names {
	char **v;
	size_t nr;
};
/*
 * Adds @arg; a key's metric typed with an error's name as the module names
 * it. 0 or a usage error, printed.
 */
int ks_names_add(struct ks_names *n, char *arg);
int ks_names_valid(const struct ks_names *n);	/* 0 or EXIT_USAGE (printed) */
/* Whether @name matches one of the shell-style @pats (none: false). */
bool ks_names_fnmatch(const struct ks_names *pats, const char *name);
/*
 * Checks every name, opens the device and calls @op on each name in order,
 * or once on NULL when *@all (NULL @all: the command has no --all); @op
 * reports its own failure, which ends the loop. With -j, prints the names
 * done. Returns 0 or the exit code.
 */
int ks_each_name(const char *cmd, const struct ks_names *n, const bool *all,
		 int (*op)(int fd, const char *name, void *ctx), void *ctx);
/*
 * Every pattern of @pats matches one of @names (from @path, or NULL: the
 * live metrics)? 0, or EXIT_RUNTIME with an error naming the first that
 * matches none, and a "did you mean" hint when a name is close to it.
 */
int ks_names_check(const struct ks_names *pats, const char *const *names, size_t nr,
		   const char *path);
struct ks_set;
int ks_set_check(const struct ks_set *set, const struct ks_names *pats, const char *path);
/* An argp parser whose input is a struct ks_names. */
error_t ks_names_parse(int key, char *arg, struct argp_state *state);
/* A whole "CMD NAME..." command: @op on each name, as ks_each_name. */
int ks_names_cmd(const struct argp *argp, const char *cmd, int argc, char **argv,
		 int (*op)(int fd, const char *name, void *ctx));
int ks_parse_u32(const char *s, uint32_t max, uint32_t *out);
int ks_parse_u64(const char *s, uint64_t *out);
/* "0-3,8": sets bits in @mask (@nbits); 0 or -1. */
int ks_parse_cpulist(const char *s, uint8_t *mask, size_t nbits);
#define KS_CPU_BITS	8192	/* CPU lists: CPUs 0 to 8191 */
const char *ks_kind_name(uint32_t kind);
const char *ks_state_name(uint32_t flags);	/* active, stopped, detached */
const char *ks_color(bool on, const char *code);	/* "" when off */
#define C_RED	"\033[31m"
#define C_GREEN	"\033[32m"
#define C_YELLOW "\033[33m"
#define C_CYAN	"\033[36m"
#define C_BOLD	"\033[1m"
#define C_RESET	"\033[0m"

/* ---- strings from files and the kernel (text.c, crc.c) ---- */

/*
 * @s made safe for a terminal, into @buf: control characters (C0, DEL,
 * C1) and bytes that are not valid UTF-8 as \xNN, a backslash as \\.
 * KS_TEXT_LEN(n) bytes hold it whole for a string of n bytes.
 */
#define KS_TEXT_LEN(n)	(4 * (n) + 1)
char *ks_text(char *buf, size_t len, const char *s);
/* The length of the valid UTF-8 sequence at @s (1..4), or 0. */
size_t ks_utf8_len(const char *s);
/* Is that sequence, of @n bytes, a control character (C0, DEL, C1)? */
bool ks_utf8_control(const char *s, size_t n);
/* CRC-32C of @len bytes, continuing from @crc (0 to start). */
uint32_t ks_crc32c(uint32_t crc, const void *buf, size_t len);

/* ---- tables that fit the screen (table.c) ---- */

/* Display width of UTF-8 text: one column per character. */
size_t ks_text_width(const char *s);
/* The width to fit: COLUMNS, a terminal's width, else 80. */
size_t ks_out_width(FILE *out);
struct ks_table {
	const char *align;	/* per column: 'l' or 'r' */
	size_t cols, nr;	/* columns; cells so far (header first) */
	char **cell;
};
void ks_table_init(struct ks_table *t, const char *align);
void ks_table_add(struct ks_table *t, const char *cell);	/* the next cell */
/* Prints it within @width (table.c says how a long name wraps). */
void ks_table_print(FILE *out, const struct ks_table *t, size_t width);
void ks_table_free(struct ks_table *t);
/*
 * Items on lines of at most @width columns: a line full, the next item
 * goes on a new line that starts with @cont. The caller prints @start.
 */
struct ks_wrap {
	FILE *out;
	size_t width, col;
	const char *start, *cont;
};
void ks_wrap_item(struct ks_wrap *w, const char *sep, const char *text);
void ks_wrap_end(struct ks_wrap *w);	/* the final newline */
/*
 * @start, then @text's words on lines of @out's width, each further line
 * starting with @cont; never broken inside a word or a quoted command.
 */
void ks_print_wrapped(FILE *out, const char *start, const char *cont, const char *text);

/* ---- units (units.c) ---- */

/* Formats @ns in @u: exact for integers, 4 significant digits for "auto". */
char *ks_fmt_int(char *buf, size_t len, uint64_t ns, enum ks_unit u);
char *ks_fmt_up(char *buf, size_t len, double ns, enum ks_unit u);	/* never below @ns */
char *ks_fmt_dbl(char *buf, size_t len, double ns, enum ks_unit u);
/* The exclusive upper bound of @slot (2^64 for the last), as ks_fmt_int. */
char *ks_fmt_high(char *buf, size_t len, uint32_t slot, uint32_t frac_bits,
		  enum ks_unit u);
/* The same without the unit's name, as ks_fmt_intnum (tables). */
char *ks_fmt_highnum(char *buf, size_t len, uint32_t slot, uint32_t frac_bits,
		     enum ks_unit u);
/* "[16ns, 32ns)": the values of @slot, exactly. */
char *ks_fmt_slot(char *buf, size_t len, uint32_t slot, uint32_t frac_bits,
		  enum ks_unit u);
/*
 * Row labels of one table (units.c): every bound exact, those in one unit
 * with as many decimals as the most any needs. Add every row's slots
 * (@from..@to, one row), then print each row's label.
 */
struct ks_bounds {
	enum ks_unit u;
	unsigned int decimals[UNIT_NONE + 1];
};
void ks_bounds_init(struct ks_bounds *b, enum ks_unit u);
void ks_bounds_add_slot(struct ks_bounds *b, uint32_t from, uint32_t to, uint32_t frac_bits);
char *ks_bounds_slot(const struct ks_bounds *b, char *buf, size_t len, uint32_t from,
		     uint32_t to, uint32_t frac_bits);
/* A count, exactly, in decimal. */
char *ks_fmt_u128(char *buf, size_t len, ks_u128 v);
/* The shortest "%g" form of @v that reads back as @v (CSV, labels). */
char *ks_fmt_shortest(char *buf, size_t len, double v);
/* Exactly, without the unit's name (tables). */
char *ks_fmt_intnum(char *buf, size_t len, uint64_t ns, enum ks_unit u);
/* A plain number in @u (no suffix), for tables. */
char *ks_fmt_num(char *buf, size_t len, double ns, enum ks_unit u);
/*
 * A relative error bound as "±5.9%": rounded up to two significant
 * digits, so that it stays a bound; "exact" for 0.
 */
char *ks_fmt_err(char *buf, size_t len, double err);
const char *ks_unit_name(enum ks_unit u);
double ks_unit_scale(enum ks_unit u);	/* ns per unit */
int ks_unit_parse(const char *s, enum ks_unit *u);
/* "1500", "1.5us", "2ms": a value in ns; 0 or -1. */
int ks_parse_value(const char *s, uint64_t *ns);
struct ks_metric;
/*
 * The unit @m is shown in: @u (--units) when it holds nanoseconds (a
 * trace's or a gap's, or one named by --ns), else UNIT_NONE: a module's or
 * a program's metric records numbers in a unit kstats is not told.
 */
enum ks_unit ks_metric_unit(const struct ks_metric *m, enum ks_unit u);
bool ks_metric_is_ns(const struct ks_metric *m);
/* One unit for a whole table: @u, or from a typical value when auto. */
enum ks_unit ks_table_unit(enum ks_unit u, double typical_ns);

/* ---- the device (device.c) ---- */

/* Opens the device (loading the module when allowed); fd or -1 (printed). */
int ks_dev_open(void);
/* Opens it if it is there, without loading anything or printing; fd or -1. */
int ks_dev_try_open(void);
/* kstats.ko as modprobe would find it, and its version; 0 or -1. */
int ks_module_file(char *path, size_t plen, char *ver, size_t vlen);
const char *ks_dev_path(void);
/*
 * An ioctl failed with @err: prints "what: reason" with the hint that fits.
 * Returns the exit code (1).
 */
int ks_dev_error(int err, const char *what);
int ks_dev_info(int fd, struct kstats_info *info);	/* 0 or -errno */
int ks_dev_list(int fd, struct kstats_metric_info **out, uint32_t *nr);
/* The kernel's lockdown mode ("none", "integrity", ...), or NULL. */
const char *ks_lockdown_mode(char *buf, size_t len);
/* Is the module loaded (/sys/module/kstats)? */
bool ks_module_loaded(void);

/* ---- a trace's sampling and cost, as text and JSON (sampling.c) ---- */
struct json;
const char *ks_sampling_mode_name(uint32_t mode);
void ks_sampling_note(FILE *out, const struct ks_metric *m);
void ks_sampling_json(struct json *j, const struct ks_metric *m);

/* ---- the in-memory model (model.c) ---- */

/*
 * How a trace records (KSTATS_IOC_SNAPSHOT, kstats(4)): mode
 * KSTATS_TRACE_MODE_*, 1 call in sample_every, calls declined, the
 * governor's budget and estimates (ppm of one CPU), calibrated costs.
 * All zero: unknown (an older module, or a file without them).
 */
struct ks_sampling {
	uint32_t mode, sample_every, budget_ppm, cost_ppm, full_cost_ppm, flags;
	uint64_t since_ns, skipped, call_ps, skip_ps;
};

/* Whether @m's counts come from a sample (1 in sample_every > 1). */
#define ks_sampled(m)	((m)->smp.sample_every > 1)

struct ks_outl;

/*
 * One metric at one instant, from KSTATS_IOC_SNAPSHOT or a file. Slots are
 * the non-empty slots of each CPU, in CPU then slot order, exactly as the
 * ioctl returns them; cpus[i].nr_slots of them belong to cpus[i].
 */
struct ks_metric {
	char name[KSTATS_NAME_LEN];
	char owner[KSTATS_NAME_LEN];
	uint32_t kind, flags, frac_bits;
	uint32_t owner_uid;
	int64_t owner_pid;
	uint64_t time_ns, realtime_ns;
	uint64_t hits, misses, floor_ns;
	uint64_t generation;	/* new at creation and reset; 0 unknown */
	struct ks_sampling smp;	/* traces: SNAPSHOT's mode, sampling and cost */
	/* A trace that keeps outliers: its counters (cumulative, as the kernel's). */
	struct kstats_outliers outl;	/* only the counters and threshold */
	bool has_outliers;
	/*
	 * And the outliers themselves, when a file (format 4) or 'snapshot'
	 * has them; else NULL. Owned by the set (ks_set_free()); the copies
	 * model.c makes (deltas, CPUs) have none.
	 */
	struct ks_outl *outl_entries;
	uint32_t nr_cpus, nr_slots;
	struct kstats_snap_cpu *cpus;
	struct kstats_snap_slot *slots;
	bool reset;		/* a delta across a reset (--watch) */
	bool sums_unknown;	/* from an HdrHistogram: no part sums, means estimated */
	bool ns;		/* known to hold ns (an HdrHistogram log, --hdr-unit) */
};

/* Where a set of metrics came from (for headers and JSON). */
struct ks_source {
	bool file;
	const char *path;
	char host[256];
	char kernel[256];	/* uname -r */
	char kernel_version[256];	/* uname -v */
	char machine[256];
	char module_version[256];
	char tool_version[256];
	char boot_id[256];	/* /proc/sys/kernel/random/boot_id; "" unknown */
	uint32_t abi_version;
	uint64_t created_ns;	/* CLOCK_REALTIME */
	bool hlog;		/* an HdrHistogram log (hdr_log.c) */
	size_t hlog_intervals;	/* its histograms, summed per tag */
};

struct ks_set {
	struct ks_source src;
	struct ks_metric *m;
	size_t nr;
};

void ks_metric_free(struct ks_metric *m);
void ks_set_free(struct ks_set *s);
struct ks_metric *ks_set_find(const struct ks_set *s, const char *name);
/* Fills @s->src for the live system (uname, INFO). */
void ks_source_live(struct ks_source *src, int fd);
/*
 * KSTATS_IOC_SNAPSHOT plus the LIST entry's owner; 0 or an exit code, or
 * -1 without a message when the metric is gone and @missing_ok.
 */
int ks_snapshot_live(int fd, const char *name, struct ks_metric *m,
		     bool missing_ok);
/*
 * @cur minus @prev, slot by slot, into @out (a slot whose part sum alone
 * grew too: its counts went to another CPU). When @cur cannot have grown
 * from @prev (a count, part sum, hit or miss went down, a slot emptied, the
 * CPUs or frac_bits differ, or the generation: files keep its low 32
 * bits), that is a reset: @out is @cur whole,
 * out->reset is set and @why (unless NULL) says what showed it.
 */
void ks_metric_delta(const struct ks_metric *prev, const struct ks_metric *cur,
		     struct ks_metric *out, char *why, size_t why_len);
/*
 * What @cur holds since @prev (ks_metric_delta), or all of it when @prev is
 * NULL: a metric that is new since then.
 */
void ks_metric_since(const struct ks_metric *prev, const struct ks_metric *cur,
		     struct ks_metric *out);
/*
 * The live metrics whose names match @pats (every one when it is empty);
 * one gone since LIST is skipped; a pattern that matches none is an error
 * (ks_names_check). 0 or an exit code (printed).
 */
int ks_take_matching(int fd, const struct ks_names *pats, struct ks_set *set);
/* Keeps the metrics of @set whose names match @pats (all when it is empty). */
void ks_set_keep(struct ks_set *set, const struct ks_names *pats);
/* A copy of @m with only the CPU rows in @mask (bit n % 8 of byte n / 8). */
void ks_metric_cpus(const struct ks_metric *m, const uint8_t *mask, struct ks_metric *out);
/* The row of CPU @cpu, or -1. */
int ks_metric_row(const struct ks_metric *m, uint32_t cpu);
/* Does CPU row @r have samples? (Its u64 count may have wrapped to 0.) */
bool ks_metric_row_used(const struct ks_metric *m, uint32_t r);

/*
 * A dense histogram of one CPU or of all of them, for the formatters:
 * count and part sum per slot (summed over CPUs in 128 bits), plus what
 * every footer needs.
 */
/* The percentiles shown: 50, 90, 99, 99.9, 99.99, or --percentiles' list. */
#define KS_MAX_PCT	16
extern double ks_pcts[KS_MAX_PCT];			/* as fractions */
extern char ks_pct_names[KS_MAX_PCT][24];		/* "p99.5" */
extern size_t ks_nr_pcts;
extern bool ks_pcts_set;
/* --color / KSTATS_COLOR: "always", "never", else auto. */
void ks_set_color(const char *when);
int ks_pcts_parse(const char *s);	/* 0, or EINVAL with a usage error printed */

struct ks_hist {
	uint32_t frac_bits, nslots;
	bool sums_unknown;	/* the metric's */
	ks_u128 *count, *part_sum;
	ks_u128 total;
	uint32_t first, last;	/* non-empty slots; first > last when empty */
	uint32_t used;		/* non-empty slots */
};

/*
 * A value known only to lie in one slot: some integer in [low, last]. The
 * estimate is the middle, and err half the width relative to it, the
 * tightest bound the slot allows (0: a slot of one value, exact).
 */
struct ks_est {
	int slot;		/* -1: no samples */
	uint64_t low, last;
	double value, err;
	/* A percentile's: the samples ranked above it, and whether that is enough. */
	ks_u128 beyond;
	bool supported;
};

/*
 * A percentile is "supported" when at least KS_PCT_MIN_BEYOND samples lie
 * beyond it (count x (1 - q) >= 10); else it rests on the few largest
 * samples (at 0 beyond it, it is the max), is marked where it is shown,
 * and never decides a diff --fail-if condition. Why 10: the samples beyond
 * the value shown are the only evidence of which quantile it is; their
 * number is a Poisson count, whose 95% interval at 10 is 4.8 to 18.4: the
 * tail the value cuts off is within a factor of 2 of 1 - q. At 4 it would
 * be 1.1 to 10.2, at 0 nothing (kstatsctl(8), PERCENTILES).
 */
#define KS_PCT_MIN_BEYOND	10

struct ks_stats {
	ks_u128 count;
	double sum, mean;
	double mean_err;	/* relative bound of sum and mean */
	struct ks_est min, max;
	struct ks_est pct[KS_MAX_PCT];
};
/* "*" after a percentile that is not supported, else "". */
const char *ks_pct_mark(const struct ks_est *e);
/* Does one of @st's percentiles carry it? Then print the footnote. */
bool ks_pct_few(const struct ks_stats *st);
void ks_pct_footnote(FILE *out);

/* @row: a CPU row, or -1 for every CPU. */
void ks_hist_build(struct ks_hist *h, const struct ks_metric *m, int row);
void ks_hist_free(struct ks_hist *h);
void ks_hist_stats(const struct ks_hist *h, struct ks_stats *st);
/*
 * Mean and sum of slot @s's samples; NAN when its sum may have wrapped. Of
 * all CPUs: exact. Of one CPU: inside the slot, its part sum capped
 * (kstats_slot_part_clamp(): a migration can split count and part sum).
 */
double ks_hist_slot_mean(const struct ks_hist *h, uint32_t s);
double ks_hist_slot_sum(const struct ks_hist *h, uint32_t s);
/* @slot as an estimate; the rank and slot of the q-quantile (0..1). */
void ks_est_slot(struct ks_est *e, int slot, uint32_t frac_bits);
ks_u128 ks_quantile_rank(double q, ks_u128 total);
void ks_hist_quantile(const struct ks_hist *h, double q, struct ks_est *e);
/*
 * Formats @e as text: "23.5ns (±32%)", "5ns (exact)"; with @bounds the
 * slot instead, "in [16ns, 32ns)" or "20ns". Tables use the bare forms:
 * "23.5ns ±32%" and "[16ns, 32ns)".
 */
char *ks_fmt_est(char *buf, size_t len, const struct ks_est *e, uint32_t frac_bits,
		 enum ks_unit u, bool bounds, bool table);
/*
 * The same without the ±: in *@err the relative bound ks_fmt_err() would
 * print (0: exact), for tables with one ± column per row.
 */
char *ks_fmt_est_value(char *buf, size_t len, const struct ks_est *e, enum ks_unit u,
		       double *err);
char *ks_fmt_mean_value(char *buf, size_t len, const struct ks_stats *st,
			enum ks_unit u, double *err);
/* "7.469us", or "7.5us (±0.2%)" when the last digits are not all known. */
char *ks_fmt_mean(char *buf, size_t len, const struct ks_stats *st, enum ks_unit u,
		  bool table);

/* ---- snapshot files (snapfile.c) ---- */

/* Why a file was not read: what is wrong with it, and what to do. */
struct ks_snap_why {
	char msg[160];
	const char *hint;
};
/* Reads a whole file; 0, or -1 with @why filled in. */
int ks_snapfile_parse(const void *buf, size_t len, struct ks_set *set,
		      struct ks_snap_why *why);
/* A snapshot file or an HdrHistogram log (by content); 0 or exit code. */
int ks_snapfile_read(const char *path, struct ks_set *set);
/* A whole file ('-': stdin) into *@buf (freed by the caller); 0 or exit code. */
int ks_file_read(const char *path, uint8_t **buf, size_t *len);
/* Writes @set; @swap writes the other byte order (tests). 0 or -1 (errno). */
int ks_snapfile_write(FILE *f, const struct ks_set *set, bool swap);
/*
 * Writes the length and checksum of the version-2 file in @buf, as the
 * writer does (and the fuzzer, to get past the checksum); leaves other
 * files as they are.
 */
void ks_snapfile_seal(void *buf, size_t len);

/* ---- HdrHistogram (hdr_codec.c: V2 encoding; hdr_log.c: interval logs) ---- */

/* One HdrHistogram: its layout and its counts by bucket index. */
struct ks_hdr {
	int32_t sig_figs;
	int64_t lowest, highest;	/* discernible; trackable */
	double ratio;			/* integer to value conversion ratio */
	uint32_t half_mag, unit_mag;	/* log2 of sub-buckets per power of two; of lowest */
	uint64_t *counts;
	size_t nr;
};
char *ks_base64(const uint8_t *p, size_t len);
int ks_unbase64(const char *s, size_t len, uint8_t **out, size_t *out_len,
		char *why, size_t why_len);
uint32_t ks_hdr_half_magnitude(uint32_t sig_figs);
/* The values of bucket @i: [*lo, *hi]. */
void ks_hdr_bucket(const struct ks_hdr *h, uint32_t i, uint64_t *lo, uint64_t *hi);
int ks_hdr_from_metric(const struct ks_metric *m, struct ks_hdr *h, uint64_t *max);
char *ks_hdr_encode(const struct ks_hdr *h);
/* A compressed V2 record; 0, or -1 with @why. */
int ks_hdr_decode(const uint8_t *buf, size_t len, struct ks_hdr *h, char *why,
		  size_t why_len);
void ks_hdr_free(struct ks_hdr *h);

/* Does @buf look like an hlog rather than a snapshot file? */
bool ks_hlog_detect(const void *buf, size_t len);
/* The log as a set: one metric per tag, its intervals summed (hdr.h: which). */
int ks_hlog_parse_set(const char *path, const void *buf, size_t len, struct ks_set *set);
void ks_hlog_write_header(FILE *f, double start_s);
/* One line; -1 when a sample is past HdrHistogram's range (2^63 - 1), 1 when counts were cut. */
int ks_hlog_write_metric(FILE *f, const struct ks_metric *m, double start_s,
			 double length_s);

/* export --format hdr (export_hdr.c): once, or every @interval s to @path. */
int ks_export_hdr_once(FILE *f, const struct ks_set *set);
int ks_export_hdr_loop(const struct ks_names *pats, const char *path, double interval,
		       long count);

/* ---- output formats (fmt_*.c, show.c) ---- */

enum ks_format {
	FMT_HIST, FMT_PERCENTILES, FMT_CDF, FMT_RAW, FMT_JSON, FMT_CSV, FMT_PROM,
};

struct ks_show {
	enum ks_format format;
	int cpu;		/* a CPU number, or -1 */
	bool per_cpu;
	bool all_slots;
	int bits;		/* hist: rows at this frac_bits (merged), or -1 */
	const char *cpu_list;	/* --cpu with several CPUs (the metrics hold only them) */
	enum ks_unit units;
	bool units_set;
	const struct ks_source *src;
	/* --watch: this interval (0 otherwise). */
	unsigned int interval;
	double interval_s;
};

int ks_format_parse(const char *s, enum ks_format *f);
extern const char *const ks_format_names[];
/* Prints @nr metrics in sh->format; 0 or an exit code. */
int ks_show_metrics(FILE *out, const struct ks_metric *m, size_t nr,
		    const struct ks_show *sh);

void fmt_hist(FILE *out, const struct ks_metric *m, const struct ks_show *sh);
void fmt_percentiles(FILE *out, const struct ks_metric *m, const struct ks_show *sh);
void fmt_cdf(FILE *out, const struct ks_metric *m, const struct ks_show *sh);
void fmt_raw(FILE *out, const struct ks_metric *m);
void fmt_csv_header(FILE *out, const struct ks_show *sh);
void fmt_csv(FILE *out, const struct ks_metric *m, const struct ks_show *sh);
/* Every metric of @m, and the closing "# EOF". */
void fmt_prom(FILE *out, const struct ks_metric *m, size_t nr, const struct ks_show *sh);
/* The shortest decimal that reads back as @d, as Prometheus writes floats. */
char *ks_prom_float(char *buf, size_t len, double d);
struct json;
void fmt_json_metric(struct json *j, const struct ks_metric *m,
		     const struct ks_show *sh);
void fmt_json_source(struct json *j, const struct ks_source *src);
/*
 * An estimate's members: "low", "high" (exclusive), "value" and "error",
 * or the bounds alone with @bounds (min, max). fmt_json_kest: @key, then
 * {those} or null when there are no samples.
 */
void fmt_json_est(struct json *j, const struct ks_est *e, uint32_t frac_bits,
		  bool bounds);
void fmt_json_kest(struct json *j, const char *key, const struct ks_est *e,
		   uint32_t frac_bits, bool bounds);
/* "selftest.b3 (module kstats_selftest, frac_bits 3, active)" header. */
void fmt_title(FILE *out, const struct ks_metric *m, const char *what);
/* The same, @prefix on each of its lines ("# " in tables). */
void fmt_title_prefixed(FILE *out, const struct ks_metric *m, const char *what,
			const char *prefix);

/* ---- JSON writer (json.c) ---- */

struct json *json_new(FILE *out, bool pretty);
void json_end(struct json *j);	/* final newline, frees */
void json_obj(struct json *j);
void json_obj_end(struct json *j);
void json_arr(struct json *j);
void json_arr_end(struct json *j);
void json_key(struct json *j, const char *key);
void json_str(struct json *j, const char *s);
void json_u64(struct json *j, uint64_t v);
void json_i64(struct json *j, int64_t v);
void json_dbl(struct json *j, double v);	/* null when not finite */
void json_bool(struct json *j, bool v);
void json_null(struct json *j);
/* Shorthands: key plus value. */
void json_kstr(struct json *j, const char *k, const char *s);
void json_ku64(struct json *j, const char *k, uint64_t v);
void json_ki64(struct json *j, const char *k, int64_t v);
void json_kdbl(struct json *j, const char *k, double v);
void json_kbool(struct json *j, const char *k, bool v);
/* Integers beyond 64 bits: a count; an exclusive bound that may be 2^64. */
void json_ku128(struct json *j, const char *k, ks_u128 v);
void json_khigh(struct json *j, const char *k, uint32_t slot, uint32_t frac_bits);
/* A difference of two counts, signed, exactly. */
void json_kdelta(struct json *j, const char *k, ks_u128 a, ks_u128 b);
/* A JSON document's opening: {"schema": 1, "command": "<cmd>", */
struct json *json_doc(const char *command);

/* ---- plots: SVG (svg.c, plot_axis.c, plot_hist.c, plot_cdf.c, plot_heatmap.c) ---- */

void svg_begin(FILE *out, int width, int height, const char *title);
void svg_end(FILE *out);
/* @s as XML character data, safe whatever its bytes (ks_text(), then escaped). */
void svg_esc(FILE *out, const char *s);
/* <text> at (@x, @y) with extra @attrs (raw: ours, never a file's). */
void svg_text(FILE *out, double x, double y, const char *attrs, const char *fmt, ...)
	__attribute__((format(printf, 5, 6)));
void svg_rect(FILE *out, double x, double y, double w, double h, const char *fill);
void svg_line(FILE *out, double x1, double y1, double x2, double y2, const char *stroke,
	      double width);

struct ks_plot {
	const char *title;	/* --title, or NULL: the metric's name */
	int width, height;	/* pixels */
	bool share;		/* hist: each slot's share of the samples, not its count */
	bool per_slot;		/* hist: counts per slot, not per 1/2^b octave */
	int palette;		/* heatmap: enum ks_palette (plot.h) */
	double bin_s; size_t nr_intervals;	/* heatmap: its columns' width; intervals in them */
};
/* One curve of a CDF overlay, and its legend. */
struct ks_plot_series {
	const char *label;
	const struct ks_metric *m;
};
/* One column of a heatmap: what @m recorded from @start_s (epoch s) on. */
struct ks_plot_interval {
	double start_s, length_s;
	const struct ks_metric *m;
};
/* Each writes a whole SVG document; 0, or an exit code (printed): no samples. */
int ks_plot_hist(FILE *out, const struct ks_metric *m, const char *label,
		 const struct ks_plot *p);
int ks_plot_cdf(FILE *out, const struct ks_plot_series *s, size_t nr,
		const struct ks_plot *p);
int ks_plot_heatmap(FILE *out, const struct ks_plot_interval *iv, size_t nr,
		    const struct ks_plot *p);

/* Axes: values onto pixels from @p0 (at lo) to @p1 (at hi). */
struct ks_axis {
	double lo, hi, p0, p1;
	double step;		/* linear: between ticks */
	bool log;		/* log10; lo and hi powers of ten */
};
enum ks_axis_kind { AX_LATENCY, AX_COUNT, AX_SHARE, AX_SECONDS, AX_TAIL };
/* The plot area, in pixels. */
struct ks_frame {
	double x, y, w, h;
};
void ks_axis_linear(struct ks_axis *a, double min, double max, double p0, double p1);
void ks_axis_log(struct ks_axis *a, double min, double max, double p0, double p1);
/* The decades around @h's non-empty slots. */
void ks_axis_slots(struct ks_axis *a, const struct ks_hist *h, double p0, double p1);
double ks_axis_px(const struct ks_axis *a, double v);	/* clamped to the axis */
char *ks_axis_label(char *buf, size_t len, double v, enum ks_axis_kind k);
/* The plot area inside @p, below @top and left of @right pixels. */
void ks_plot_frame(struct ks_frame *f, const struct ks_plot *p, double top, double right);
void ks_plot_title(FILE *out, const struct ks_plot *p, const char *title,
		   const char *subtitle);
/* The area's white ground (@border false), or its border, drawn over the data. */
void ks_plot_area(FILE *out, const struct ks_frame *f, bool border);
void ks_plot_axes(FILE *out, const struct ks_frame *f, const struct ks_axis *x,
		  enum ks_axis_kind xk, const char *xtitle, const struct ks_axis *y,
		  enum ks_axis_kind yk, const char *ytitle, bool grid);
/* "NAME: no samples, nothing to plot": exit 1. */
int ks_plot_empty(const char *name);

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

/* ---- outliers (outlier_read.c, ksyms.c, fmt_outliers.c) ---- */

/* KSTATS_IOC_OUTLIERS, all entries; 0 or an errno. */
int ks_outliers_read(int fd, const char *name, struct kstats_outliers *o,
		     struct kstats_outlier **e);
void ks_outliers_counters(int fd, struct ks_metric *m);
/* "over 1 ms", "over p99.9 = 1.3 ms". */
char *ks_outliers_threshold(char *buf, size_t len, const struct kstats_outliers *o);
/* show's line: "12 outliers over ..., 3 lost; kstatsctl outliers NAME". */
void ks_outliers_line(FILE *out, const char *name, const struct kstats_outliers *o);

/* /proc/kallsyms' text symbols, sorted by address. */
struct ks_ksym {
	uint64_t addr;
	char *name;		/* "func" or "func [module]" */
};
struct ks_ksyms {
	struct ks_ksym *v;
	size_t nr;
	bool loaded;
	bool hidden;		/* every address reads 0: kptr_restrict */
};
void ks_ksyms_load(struct ks_ksyms *k);
void ks_ksyms_free(struct ks_ksyms *k);
/* "func+0xoff [module]", or NULL when no symbol holds @addr. */
char *ks_ksym_name(char *buf, size_t len, const struct ks_ksyms *k, uint64_t addr);

/*
 * A trace's outliers as 'outliers' prints them, from the module
 * (symbolized) or from a snapshot file: the same for both, so that a
 * file prints as the live command does. Frames are text, kept in one
 * buffer: entry e's frame f is text + e->stack[f].
 */
struct ks_outl_entry {
	uint64_t seq, time_ns, duration_ns;
	int64_t realtime_ns;		/* time_ns as wall time */
	int32_t pid, tgid;
	uint32_t cpu_start, cpu_end;
	uint32_t flags;			/* KSTATS_OUTLIER_* */
	uint32_t nr_frames;		/* the kernel's (at most KSTATS_OUTLIER_FRAMES) */
	uint32_t nr_stack;		/* in stack[]: nr_frames, or 0 when withheld */
	char comm[16];			/* NUL-terminated */
	uint32_t stack[KSTATS_OUTLIER_FRAMES];
};
struct ks_outl {
	struct kstats_outliers o;	/* counters, threshold, capacity */
	bool withheld;			/* no stacks at all: the note says why */
	char note[256];			/* "", or why stacks are withheld or raw */
	struct ks_outl_entry *e;
	uint32_t nr;
	char *text;
	size_t text_len, text_cap;
};
/*
 * @nr entries of KSTATS_IOC_OUTLIERS (@o, @e) into @ol, each frame named
 * from @k (loaded here if need be). @file: for a snapshot file, which
 * keeps no kernel address: a frame no symbol holds is "[unknown]", and
 * with kptr_restrict's hidden addresses the stacks are withheld.
 */
void ks_outl_from_module(struct ks_outl *ol, const struct kstats_outliers *o,
			 const struct kstats_outlier *e, uint32_t nr,
			 struct ks_ksyms *k, bool file);
/* Appends @s to @ol's text; its offset. */
uint32_t ks_outl_text(struct ks_outl *ol, const char *s, size_t len);
/* What @ol holds, and @ol (malloc'ed); NULL: nothing. */
void ks_outl_free(struct ks_outl *ol);
/* 'outliers' output (fmt_outliers.c): the table; the JSON document's members. */
void fmt_outliers_table(FILE *out, const char *name, const struct ks_outl *ol);
void fmt_outliers_json(struct json *j, const char *name, const struct ks_outl *ol);
/* --outliers: "5ms" (ns) or "p99.9" (ppm); 0 or EINVAL (usage printed). */
int ks_parse_outliers(const char *arg, uint64_t *ns, uint32_t *ppm);

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

/* trace --duration/--interval (trace_run.c): what to wait for and print. */
struct ks_trace_run {
	double duration;	/* seconds; 0: until a signal */
	double interval;	/* seconds; 0: one report at the end */
	long count;		/* with interval: at most this many; 0: no limit */
	enum ks_format format;
};
/*
 * A trace's metrics one-shot prints: NAME, with --self SELF-NAME, with
 * --split its three parts.
 */
#define KS_TRACE_METRICS	5
/*
 * Waits as @r says, or until SIGINT/SIGTERM/SIGHUP, printing the trace's
 * metrics @names[0..n) and, @keyed, its key's (each interval's share, or
 * all of it at the end). 0 or an exit code.
 */
int ks_trace_run(int fd, const char *const *names, size_t n, bool keyed,
		 const struct ks_trace_run *r);
/* Whether @kind is one of a trace's metrics (execution time, gap, self, split). */
bool ks_kind_is_trace(uint32_t kind);


/* Holds a metric or trace until SIGINT/SIGTERM (--autoremove). */
void ks_hold_until_signal(void);

#endif /* KSTATSCTL_H */

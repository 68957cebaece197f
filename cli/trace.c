// SPDX-License-Identifier: GPL-2.0
/*
 * kstatsctl trace FUNC [--bits B] [--start X --end Y] [-p PID | -t TID]
 * kstatsctl trace PATTERN|FUNC... [--functions FILE] [--max N] [...]
 *                      [-C LIST] [--mechanism M] [--name NAME] [--keep]
 *                      [--budget PCT|off | --sample N] [--split] [--self]
 *                      [--cgroup PATH] [--by errno|cgroup|pid|tid|cpu [--keys N | --key-values LIST]]
 *                      [--outliers T [--outlier-ring N] [--outlier-rate N]]
 *                      [--value EXPR [--time]] [--if PRED] [--dry-run]
 *                      [-d S] [-i S [-c N] [-o FILE]] [-f FORMAT]
 *
 * trace times every call of a kernel function (and, in GAP-NAME, the time
 * between calls), or the section from X to Y, into a metric named after
 * FUNC (KSTATS_IOC_TRACE). By default it runs until Ctrl-C, -d or -c
 * intervals, prints and untraces (trace_run.c); --keep leaves the trace for
 * show and untrace.c (trace_mode.c says which options go with which).
 * --budget hands the trace to the module's overhead governor; --sample
 * records 1 call in N (kstats(4)). --value and --if record a value per
 * call and filter calls (trace_expr.c, expr_*.c); --dry-run prints the plan.
 * BINARY:SYMBOL is a user-space function (elf_sym.c). Patterns ('vfs_*'),
 * several functions or --functions trace each function matched (trace_many.c). The module's
 * refusals are explained in trace_error.c.
 */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "kstatsctl.h"
#include "device.h"
#include "expr.h"
#include "fmt.h"
#include "json.h"
#include "keys.h"
#include "names.h"
#include "trace.h"
#include "trace_args.h"
#include "trace_many.h"
#include "units.h"
#include "usdt.h"
#include "usym.h"

enum {
	OPT_START = 0x400, OPT_END, OPT_MECH, OPT_NAME, OPT_AUTOREMOVE, OPT_MAXACTIVE,
	OPT_BUDGET, OPT_SAMPLE, OPT_OUTLIERS, OPT_OUTLIER_RING, OPT_OUTLIER_RATE,
	OPT_SPLIT, OPT_SELF, OPT_BY, OPT_KEYS, OPT_KEY_VALUES, OPT_CGROUP,
	OPT_VALUE, OPT_IF, OPT_TIME, OPT_DRY_RUN, OPT_KEEP, OPT_FROM, OPT_MAX,
};

/* --by KEY: a metric per value, NAME{KEY=VALUE}; NAME must leave room for the longest. */
static const struct {
	const char *name, *longest;
} keys[] = {
	[KSTATS_KEY_ERRNO] = { "errno", "{errno=-4095}" },
	[KSTATS_KEY_CGROUP] = { "cgroup", "{cgroup=18446744073709551615}" },
	/* 15 bytes, in hex (the module's spelling). */
	[KSTATS_KEY_COMM] = { "comm", "{comm=000000000000000000000000000000}" },
	[KSTATS_KEY_PID] = { "pid", "{pid=4194304}" },
	[KSTATS_KEY_TID] = { "tid", "{tid=4194304}" },
	[KSTATS_KEY_CPU] = { "cpu", "{cpu=99999}" },
	[KSTATS_KEY_STACK] = { "stack", "{stack=0123456789abcdef}" },
};

#define KEY_NAME_MAX(key)	(KSTATS_NAME_LEN - 1 - (int)strlen(keys[key].longest))

/* --split's metrics: PREFIX-NAME; NAME must leave room for the longest. */
static const char *const split_prefixes[] = { "ONCPU", "RUNQ", "BLOCKED" };
#define SPLIT_NAME_MAX	(KSTATS_NAME_LEN - 1 - (int)strlen("BLOCKED-"))
#define SELF_NAME_MAX	(KSTATS_NAME_LEN - 1 - (int)strlen("SELF-"))

int ks_trace_name_room(const struct ks_trace_args *a, const char *name)
{
	int room = KSTATS_NAME_LEN - 1 - (int)strlen("GAP-");	/* a function's */

	if (a->key && KEY_NAME_MAX(a->key) < room)
		room = KEY_NAME_MAX(a->key);
	if (a->split && SPLIT_NAME_MAX < room)
		room = SPLIT_NAME_MAX;
	if (a->self && SELF_NAME_MAX < room)
		room = SELF_NAME_MAX;
	return strlen(name) > (size_t)room ? room : 0;
}

static const struct argp_child children[] = {
	{ &ks_global_argp, 0, NULL, 0 },
	{ 0 }
};

static const struct argp_option trace_options[] = {
	{ "bits", 'b', "B", 0, "frac_bits, 0 to 5 (default 3)", 0 },
	{ "start", OPT_START, "X", 0, "Time the section from function X ...", 0 },
	{ "end", OPT_END, "Y", 0, "... to function Y", 0 },
	{ "pid", 'p', "P", 0, "Only process P (all its threads)", 0 },
	{ "tid", 't', "T", 0, "Only thread T", 0 },
	{ "cpu", 'C', "LIST", 0, "Only these CPUs: 0-3,8", 0 },
	{ "mechanism", OPT_MECH, "M", 0, "auto (default), fprobe, kretprobe, kprobe, "
	  "tracepoint or uprobe", 0 },
	{ "name", OPT_NAME, "NAME", 0, "The metric's name (default: FUNC)", 0 },
	{ "functions", OPT_FROM, "FILE", 0, "Also the functions or patterns in FILE, one "
	  "a line ('-': standard input; # comments)", 0 },
	{ "max", OPT_MAX, "N", 0, "With patterns: trace at most N functions (default "
	  "100, at most 4096); more matching is an error", 0 },
	{ "maxactive", OPT_MAXACTIVE, "N", 0, "Calls in flight at once; more are missed", 0 },
	{ "split", OPT_SPLIT, NULL, 0, "Also where each call's (or section's) time "
	  "went: on a CPU (ONCPU-FUNC), runnable but waiting for one (RUNQ-FUNC), "
	  "asleep (BLOCKED-FUNC); they add up to FUNC", 0 },
	{ "self", OPT_SELF, NULL, 0, "Also each call's self time (SELF-FUNC): its "
	  "duration less its task's calls, meanwhile, to functions traced with "
	  "--self (untraced callees stay in it)", 0 },
	{ "cgroup", OPT_CGROUP, "PATH", 0, "Only tasks in this cgroup v2 or below it "
	  "(/sys/fs/cgroup/system.slice, or system.slice)", 0 },
	{ "by", OPT_BY, "KEY", 0, "Also a histogram per value of KEY: 'errno', the "
	  "return value (FUNC{errno=0} without error, FUNC{errno=-EAGAIN}...); "
	  "'cgroup', the calling task's cgroup (FUNC{cgroup=/system.slice}...); "
	  "'comm', its name (FUNC{comm=nginx}); 'pid', 'tid', its process or thread "
	  "(FUNC{pid=1234}); 'cpu', the CPU the call ended on (FUNC{cpu=3}); "
	  "'stack', the caller's kernel stack (FUNC{stack=ID}; show prints them as "
	  "flame graph lines, folded; with --outliers, only the calls over it)", 0 },
	{ "keys", OPT_KEYS, "N", 0, "With --by: the first N values seen get their "
	  "own (default 8, at most 64), later ones FUNC{KEY=other}", 0 },
	{ "key-values", OPT_KEY_VALUES, "LIST", 0, "With --by: these values alone "
	  "get their own, from the start, and no caller can take them (errno: "
	  "0,EAGAIN,EINTR...; cgroup: paths; pid, tid, cpu: numbers; not comm); every other "
	  "goes to FUNC{KEY=other}", 0 },
	{ "value", OPT_VALUE, "EXPR", 0, "Record a value per call instead of its "
	  "duration: a parameter (count), argN (arg0 the first), retval, a member "
	  "through pointers (file->f_inode->i_size), a cast ((s32)arg2); unitless; "
	  "negatives in NEG-FUNC. At tp:EVENT alone, its arguments or its record's "
	  "fields (nr_sector) at every hit; "
	  "in a section (of tracepoints or of functions), start.NAME or end.NAME; "
	  "of BINARY:SYMBOL, argN, retval, casts and *(u32 *)argN; at usdt: "
	  "probes, their arguments argN (start.argN, end.argN)", 0 },
	{ "time", OPT_TIME, NULL, 0, "With --value: the duration too (FUNC; the "
	  "value in VALUE-FUNC)", 0 },
	{ "if", OPT_IF, "PRED", 0, "Record only the calls for which PRED holds: "
	  "EXPR CMP CONSTANT (== != < <= > >= &), with && and ||: 'count > 65536', "
	  "'retval < 0 || duration > 1ms'", 0 },
	{ "dry-run", OPT_DRY_RUN, NULL, 0, "Check everything and print what would "
	  "be traced (metrics, compiled --value and --if), without tracing", 0 },
	{ "keep", OPT_KEEP, NULL, 0, "Leave the trace in place and return at once "
	  "(without it: trace until Ctrl-C, print, untrace)", 0 },
	{ "autoremove", OPT_AUTOREMOVE, NULL, OPTION_HIDDEN, NULL, 0 },	/* the default */
	{ "budget", OPT_BUDGET, "PCT", 0, "Keep the trace's cost under PCT of one CPU "
	  "(e.g. 1%): sample 1 call in N, or detach; 'off': record every call "
	  "whatever the module's default", 0 },
	{ "sample", OPT_SAMPLE, "N", 0, "Record 1 call in N (2 to 1048576): the "
	  "histogram is a sample; calls are still counted exactly", 0 },
	{ "duration", 'd', "S", 0, "Trace for S (10s, 500ms, 2m; a bare number: "
	  "seconds), or until Ctrl-C", 0 },
	{ "interval", 'i', "S", 0, "Print what each S recorded (as --duration "
	  "takes it), until --duration, --count or Ctrl-C", 0 },
	{ NULL, 'w', "S", OPTION_HIDDEN, NULL, 0 },	/* show's and export's -w */
	{ "count", 'c', "N", 0, "With --interval: stop after N intervals", 0 },
	{ "output", 'o', "FILE", 0, "With --interval: also write each interval to "
	  "FILE as an HdrHistogram interval log (for 'kstatsctl plot heatmap FILE "
	  "NAME')", 0 },
	{ "outliers", OPT_OUTLIERS, "T", 0, "Keep the calls of at least T (5ms, 200us) "
	  "or over a percentile of its own calls (p99.9), with their stacks: "
	  "'kstatsctl outliers NAME'", 0 },
	{ "outlier-ring", OPT_OUTLIER_RING, "N", 0, "With --outliers: keep the "
	  "newest N (default 256, at most 65536)", 0 },
	{ "outlier-rate", OPT_OUTLIER_RATE, "N", 0, "With --outliers: keep at most "
	  "N a second per CPU (default 100)", 0 },
	{ "format", 'f', "F", 0, "What to print: hist (default), percentiles, cdf, "
	  "raw, json, csv or prometheus", 0 },
	{ 0 }
};

const char *const ks_trace_mechs[KS_TRACE_NR_MECHS] = {
	[KSTATS_MECH_AUTO] = "auto", [KSTATS_MECH_FPROBE] = "fprobe",
	[KSTATS_MECH_KRETPROBE] = "kretprobe", [KSTATS_MECH_KPROBE] = "kprobe",
	[KSTATS_MECH_TRACEPOINT] = "tracepoint", [KSTATS_MECH_UPROBE] = "uprobe",
};

/* "1%", "0.5%" (ppm of one CPU, 1 to 1000000), or "off" (sample_every 1). */
static int parse_budget(const char *arg, struct ks_trace_args *a)
{
	char *end;
	double pct;

	if (!strcmp(arg, "off")) {
		a->budget_ppm = 0;
		a->sample_every = 1;
		return 0;
	}
	errno = 0;
	pct = strtod(arg, &end);
	if (errno || end == arg || strcmp(end, "%") || !(pct > 0) || pct > 100 ||
	    lround(pct * 1e4) < 1) {
		ks_usage("--budget: '%s' is not a share of one CPU from 0.0001%% to "
			 "100%% (e.g. 1%%, 0.5%%) or 'off'", arg);
		return EINVAL;
	}
	a->budget_ppm = (uint32_t)lround(pct * 1e4);
	return 0;
}

/* 1 to @max, or EINVAL with the usage error printed. */
static int parse_positive(const char *opt, const char *arg, uint32_t max, uint32_t *out)
{
	if (ks_parse_u32(arg, max, out) || !*out) {
		ks_usage("%s: '%s' is not 1 to %u", opt, arg, max);
		return EINVAL;
	}
	return 0;
}

static error_t trace_parse(int key, char *arg, struct argp_state *state)
{
	struct ks_trace_args *a = state->input;
	uint32_t i;

	switch (key) {
	case 'b':
		if (ks_parse_u32(arg, KSTATS_FRAC_BITS_MAX, &a->bits)) {
			ks_usage("--bits: '%s' is not 0 to %d", arg, KSTATS_FRAC_BITS_MAX);
			return EINVAL;
		}
		break;
	case OPT_START:
		a->start = arg;
		break;
	case OPT_END:
		a->end = arg;
		break;
	case 'p':
		return ks_parse_id("--pid", arg, &a->pid);
	case 't':
		return ks_parse_id("--tid", arg, &a->tid);
	case 'C':
		a->cpus = arg;
		break;
	case OPT_MECH:
		for (i = 0; i < KS_TRACE_NR_MECHS && strcmp(ks_trace_mechs[i], arg); i++)
			;
		if (i == KS_TRACE_NR_MECHS) {
			ks_usage("--mechanism: '%s' is not auto, fprobe, kretprobe, "
				 "kprobe, tracepoint or uprobe", arg);
			return EINVAL;
		}
		a->mech = i;
		break;
	case OPT_NAME:
		a->name = arg;
		break;
	case OPT_FROM:
		a->from = arg;
		break;
	case OPT_MAX:
		return parse_positive("--max", arg, KS_TRACE_MANY_MAX, &a->max);
	case OPT_MAXACTIVE:
		if (ks_parse_u32(arg, 65536, &a->maxactive)) {
			ks_usage("--maxactive: '%s' is not 0 to 65536", arg);
			return EINVAL;
		}
		break;
	case OPT_AUTOREMOVE:
		a->autoremove = true;
		break;
	case OPT_KEEP:
		a->keep = true;
		break;
	case 'o':
		a->run.output = arg;
		break;
	case OPT_SPLIT:
		a->split = true;
		break;
	case OPT_SELF:
		a->self = true;
		break;
	case OPT_BY:
		for (a->key = KSTATS_KEY_ERRNO; a->key < ARRAY_SIZE(keys); a->key++)
			if (keys[a->key].name && !strcmp(arg, keys[a->key].name))
				return 0;
		a->key = 0;
		ks_usage("--by: '%s' is not a key (errno, cgroup, comm, pid, tid, cpu or stack)",
			 arg);
		return EINVAL;
	case OPT_CGROUP:
		a->cgroup = arg;
		break;
	case OPT_VALUE:
		a->x.value = arg;
		break;
	case OPT_IF:
		a->x.pred = arg;
		break;
	case OPT_TIME:
		a->x.time = true;
		break;
	case OPT_DRY_RUN:
		a->dry_run = true;
		break;
	case OPT_KEY_VALUES:
		a->key_values = arg;
		break;
	case OPT_KEYS:
		if (ks_parse_u32(arg, KSTATS_KEYS_MAX, &a->nr_keys) || !a->nr_keys) {
			ks_usage("--keys: '%s' is not 1 to %d", arg, KSTATS_KEYS_MAX);
			return EINVAL;
		}
		break;
	case OPT_BUDGET:
		if (a->sample_every > 1) {
			ks_usage("--budget and --sample do not go together");
			return EINVAL;
		}
		return parse_budget(arg, a);
	case OPT_SAMPLE:
		if (ks_parse_u32(arg, KSTATS_TRACE_SAMPLE_MAX, &a->sample_every) ||
		    a->sample_every < 2) {
			ks_usage("--sample: '%s' is not 2 to %u", arg,
				 KSTATS_TRACE_SAMPLE_MAX);
			return EINVAL;
		}
		if (a->budget_ppm) {
			ks_usage("--budget and --sample do not go together");
			return EINVAL;
		}
		break;
	case 'd':
		return ks_parse_seconds("--duration", arg, 0.01, 604800, &a->run.duration);
	case 'i':
	case 'w':
		return ks_parse_seconds("--interval", arg, 0.01, 86400, &a->run.interval);
	case 'c':
		return ks_parse_count("--count", arg, &a->run.count);
	case OPT_OUTLIERS:
		a->outliers = arg;
		return ks_parse_outliers(arg, &a->outlier_ns, &a->outlier_ppm);
	case OPT_OUTLIER_RING:
		return parse_positive("--outlier-ring", arg, KSTATS_OUTLIER_RING_MAX,
				      &a->outlier_ring);
	case OPT_OUTLIER_RATE:
		return parse_positive("--outlier-rate", arg, KSTATS_OUTLIER_RATE_MAX,
				      &a->outlier_rate);
	case 'f':
		if (ks_format_parse(arg, &a->run.format)) {
			ks_usage("--format: '%s' is not hist, percentiles, cdf, raw, "
				 "json, csv or prometheus", arg);
			return EINVAL;
		}
		a->format_set = true;
		break;
	case ARGP_KEY_ARG:
		if (ks_names_add(&a->args, arg))
			return EINVAL;
		break;
	default:
		return ARGP_ERR_UNKNOWN;
	}
	return 0;
}

const struct argp trace_argp = {
	trace_options, trace_parse, "FUNC\n'PATTERN'|FUNC...",
	"Times every call of the kernel function FUNC ([module:]symbol), or the "
	"section from --start X to --end Y, into a metric named FUNC (and the time "
	"between calls into GAP-FUNC). X and Y are functions, or tracepoints: "
	"tp:EVENT (core) or tp:SYSTEM:EVENT (e.g. tp:kmem:kmalloc), or USDT probes "
	"of one program or library: usdt:BINARY:PROVIDER:NAME. FUNC may be a "
	"user-space function, BINARY:SYMBOL: BINARY a path, a program on $PATH or "
	"a library name (c:malloc), through --pid's mappings if given; its metric "
	"is FILE:SYMBOL (libc.so.6:malloc); or a USDT probe alone, "
	"usdt:BINARY:PROVIDER:NAME with --value (its metric: NAME). It traces until Ctrl-C (or --duration, "
	"or --count intervals), prints the histogram and untraces; --keep leaves "
	"the trace, for 'kstatsctl show' and 'kstatsctl untrace'. Several "
	"functions, shell patterns of them ('vfs_*', 'MODULE:tcp_*') or --functions FILE "
	"trace each function a trace of its own, named by it; a pattern's matches "
	"skip what must not be traced (notrace functions, the unwinder, kstats, "
	"__init text), each said with its reason.",
	children, NULL, NULL
};

int ks_trace_unsupported(void)
{
	return ks_fail(EXIT_RUNTIME, "this kstats module cannot trace functions "
		       "('kstatsctl info' lists what it supports); a newer kstats "
		       "can", "tracing: not supported by this kstats module");
}

/*
 * --outliers: "5ms" or any value with a unit (a bare number is ns), or
 * "pQ" with 0 < Q < 100 in millionths (p99.9999 at most).
 */
int ks_parse_outliers(const char *arg, uint64_t *ns, uint32_t *ppm)
{
	char *end;
	double q;

	*ns = 0;
	*ppm = 0;
	if (arg[0] == 'p') {
		q = strtod(arg + 1, &end);
		if (end == arg + 1 || *end || !(q > 0 && q < 100) ||
		    fabs(q * 1e4 - round(q * 1e4)) > 1e-6) {
			ks_set_hint("a percentile below 100 in steps of 0.0001: p99, p99.9, p99.99");
			ks_usage("--outliers: '%s' is not a percentile above 0 and below 100", arg);
			return EINVAL;
		}
		*ppm = (uint32_t)round(q * 1e4);
		return 0;
	}
	if (ks_parse_value(arg, ns) || !*ns) {
		ks_set_hint("a duration with its unit (ns, us, ms, s), or a percentile (p99.9)");
		ks_usage("--outliers: '%s' is not a duration above 0 or a percentile", arg);
		return EINVAL;
	}
	return 0;
}

/*
 * The request for @func as @a asks (@cpus: --cpu's bitmap of @cpus_len
 * bytes; @key_values: --key-values' codes), but for what belongs to one
 * kind of target (a user-space function, USDT, an expr, the cgroup).
 */
void ks_trace_request(struct kstats_trace *t, const struct ks_trace_args *a, const char *func,
		      const uint8_t *cpus, size_t cpus_len, const uint64_t *key_values)
{
	memset(t, 0, sizeof(*t));
	snprintf((char *)t->name, sizeof(t->name), "%.*s", KSTATS_NAME_LEN - 1,
		 a->name ? a->name : func);
	if (a->end) {
		t->start = (uint64_t)(uintptr_t)a->start;
		t->end = (uint64_t)(uintptr_t)a->end;
	} else {
		t->func = (uint64_t)(uintptr_t)(a->start ? a->start : func);
	}
	t->frac_bits = a->bits;
	t->mechanism = a->mech;
	t->maxactive = a->maxactive;
	t->budget_ppm = a->budget_ppm;
	t->sample_every = a->sample_every;
	if (a->pid) {
		t->flags |= KSTATS_TRACE_TGID;
		t->tgid = a->pid;
	}
	if (a->tid) {
		t->flags |= KSTATS_TRACE_PID;
		t->pid = a->tid;
	}
	if (a->cpus) {
		t->flags |= KSTATS_TRACE_CPUS;
		t->cpus = (uint64_t)(uintptr_t)cpus;
		t->cpus_len = cpus_len;
	}
	if (!a->keep)
		t->flags |= KSTATS_TRACE_AUTOREMOVE;
	if (a->outliers) {
		t->flags |= KSTATS_TRACE_OUTLIERS;
		t->outlier_ns = a->outlier_ns;
		t->outlier_ppm = a->outlier_ppm;
		t->outlier_ring = a->outlier_ring;
		t->outlier_rate = a->outlier_rate;
	}
	if (a->split)
		t->flags |= KSTATS_TRACE_SPLIT;
	if (a->self)
		t->flags |= KSTATS_TRACE_SELF;
	t->key = a->key;
	t->nr_keys = a->nr_keys;
	if (a->key_values)
		t->key_values = (uint64_t)(uintptr_t)key_values;
}

int cmd_trace(int argc, char **argv)
{
	struct ks_trace_args a = { .bits = 3, .mech = KSTATS_MECH_AUTO,
				.run.format = FMT_HIST, .cgroup_fd = -1 };
	uint8_t cpus[KS_CPU_BITS / 8] = { 0 };
	uint64_t key_values[KSTATS_KEYS_MAX];
	struct ks_utarget user = { .fd = -1 };
	struct ks_usdt *usdt = NULL;
	struct kstats_uprobe up = { 0 };
	struct ks_plan *plan = NULL;
	struct kstats_trace t;
	const char *func;
	bool one_shot, many;
	int rc, done, fd = -1;

	rc = ks_parse(&trace_argp, argc, argv, &a, &done);
	if (rc || done)
		goto out;
	rc = EXIT_USAGE;
	many = ks_trace_many_wanted(&a);
	if (a.args.nr != 1 && !many) {
		ks_usage("trace takes a FUNC (or patterns of functions, or --functions FILE)");
		goto out;
	}
	func = a.args.nr ? a.args.v[0] : "";
	if (a.pid && a.tid) {
		ks_usage("--pid and --tid do not go together");
		goto out;
	}
	if (!a.end != !a.start && a.end) {
		ks_usage("--end goes with --start");
		goto out;
	}
	if ((a.outlier_ring || a.outlier_rate) && !a.outliers) {
		ks_usage("--outlier-ring and --outlier-rate go with --outliers");
		goto out;
	}
	if (ks_trace_mode_check(&a))
		goto out;
	one_shot = !a.keep;
	if (!a.format_set && opts.json)
		a.run.format = FMT_JSON;
	if (a.cpus && ks_parse_cpulist(a.cpus, cpus, KS_CPU_BITS)) {
		ks_usage("--cpu: '%s' is not a CPU list like 0-3,8", a.cpus);
		goto out;
	}
	if ((a.nr_keys || a.key_values) && !a.key) {
		ks_usage("--%s goes with --by", a.nr_keys ? "keys" : "key-values");
		goto out;
	}
	if (a.nr_keys && a.key_values) {
		ks_usage("--keys and --key-values: the values given are the keys");
		goto out;
	}
	if (a.key_values && (a.key == KSTATS_KEY_COMM || a.key == KSTATS_KEY_STACK)) {
		ks_set_hint("--keys N keeps the first N %s seen",
			    a.key == KSTATS_KEY_COMM ? "names" : "stacks");
		ks_usage("--key-values: not with --by %s (the module tells them "
			 "apart by a hash only it knows)", keys[a.key].name);
		goto out;
	}
	if (a.key_values) {
		int nr = ks_key_values_parse(a.key, a.key_values, key_values);

		if (nr < 0)
			goto out;
		a.nr_keys = (uint32_t)nr;
	}
	if (many) {
		rc = ks_trace_many(&a, cpus, sizeof(cpus), key_values);
		goto out;
	}
	if (ks_usdt_named(a.start) || ks_usdt_named(a.end) || ks_usdt_named(func)) {
		usdt = xcalloc(1, sizeof(*usdt));
		rc = ks_usdt_resolve(&a, ks_usdt_named(func) ? func : NULL, usdt);
		if (rc)
			goto out;
		rc = EXIT_USAGE;
		a.x.usdt = usdt->args;	/* --value/--if: the probes' arguments */
		if (usdt->point && a.budget_ppm) {
			ks_set_hint("--sample N records 1 hit in N");
			ks_usage("--budget: not at a USDT probe alone (what one hit costs "
				 "is not measured)");
			goto out;
		}
		if (usdt->point) {
			func = usdt->start;
			if (!a.name)
				a.name = strrchr(func, ':') + 1;
		}
	} else if (!a.start && ks_usym_wanted(func, a.mech == KSTATS_MECH_UPROBE)) {
		a.x.user = true;	/* --value/--if: its registers (expr_btf.c) */
		rc = ks_utarget_resolve(func, a.tid ? a.tid : a.pid, &user);
		if (rc)
			goto out;
		rc = EXIT_USAGE;
		func = user.label;
		if (!a.name)
			a.name = user.name;
	} else if (a.mech == KSTATS_MECH_UPROBE) {
		ks_usage("--mechanism uprobe traces a user-space function: BINARY:SYMBOL");
		goto out;
	}
	if (ks_name_valid(a.name ? a.name : func))
		goto out;
	if (a.self && a.end) {
		ks_usage("--self times functions: a section's callees are not "
			 "its own (trace the functions in it with --self)");
		goto out;
	}
	if (a.key == KSTATS_KEY_ERRNO && a.end) {
		ks_usage("--by errno keys a function's return value: a section has "
			 "none");
		goto out;
	}
	if (a.key == KSTATS_KEY_ERRNO && !a.start &&
	    (!strncmp(func, "tp:", 3) || (usdt && usdt->point))) {
		ks_set_hint("--by cgroup keys a %s's values", usdt ? "probe" : "tracepoint");
		ks_usage("--by errno keys a function's return value: a %s has none",
			 usdt ? "USDT probe" : "tracepoint");
		goto out;
	}
	if (a.key && strlen(a.name ? a.name : func) > (size_t)KEY_NAME_MAX(a.key)) {
		ks_usage("--by %s: the name must be at most %d bytes (NAME%s must fit "
			 "in %d); --name a shorter one", keys[a.key].name,
			 KEY_NAME_MAX(a.key), keys[a.key].longest, KSTATS_NAME_LEN - 1);
		goto out;
	}
	/* The return type, where BTF tells it (issue 30 W5). */
	if (a.key == KSTATS_KEY_ERRNO && user.fd < 0 &&
	    ks_btf_errno_check(a.start ? a.start : func))
		goto out;
	/* The longest prefix asked for: BLOCKED- (--split), else SELF-. */
	if ((a.split || a.self) &&
	    strlen(a.name ? a.name : func) > (a.split ? SPLIT_NAME_MAX : SELF_NAME_MAX)) {
		ks_usage("--%s: the name must be at most %d bytes (%s-NAME must fit in "
			 "%d); --name a shorter one", a.split ? "split" : "self",
			 a.split ? SPLIT_NAME_MAX : SELF_NAME_MAX,
			 a.split ? "BLOCKED" : "SELF", KSTATS_NAME_LEN - 1);
		goto out;
	}
	a.x.end = usdt && !usdt->point ? usdt->end : a.end;
	a.x.keyed = a.key;
	a.x.timed = a.split ? "split" : a.self ? "self" : a.outliers ? "outliers" : NULL;
	plan = xcalloc(1, sizeof(*plan));
	rc = ks_trace_expr_check(&a.x, usdt ? usdt->start : a.start ? a.start : func,
				 a.name ? a.name : func, plan);
	if (rc)
		goto out;
	rc = EXIT_USAGE;
	if (a.dry_run) {
		struct ks_plan_view v = {
			.name = a.name ? a.name : func,
			.end = usdt && !usdt->point ? usdt->end : a.end,
			.mech = ks_trace_mechs[user.fd >= 0 || usdt ? KSTATS_MECH_UPROBE : a.mech],
			.by = a.key ? keys[a.key].name : NULL, .split = a.split, .self = a.self,
		};

		ks_plan_print(plan, &v);
		rc = 0;
		goto out;
	}
	ks_trace_request(&t, &a, func, cpus, sizeof(cpus), key_values);
	if (user.fd >= 0) {
		up.fd = user.fd;
		up.role = KSTATS_UPROBE_FUNC;
		up.offset = user.offset;
		t.mechanism = KSTATS_MECH_UPROBE;
		t.uprobes = (uint64_t)(uintptr_t)&up;
		t.nr_uprobes = 1;
		t.uprobe_size = sizeof(up);
	}
	if (usdt) {
		t.mechanism = KSTATS_MECH_UPROBE;
		t.start = usdt->point ? 0 : (uint64_t)(uintptr_t)usdt->start;
		t.end = usdt->point ? 0 : (uint64_t)(uintptr_t)usdt->end;
		t.uprobes = (uint64_t)(uintptr_t)usdt->up;
		t.nr_uprobes = usdt->nr;
		t.uprobe_size = sizeof(usdt->up[0]);
	}
	if (a.x.value || a.x.pred)
		t.expr = (uint64_t)(uintptr_t)&plan->e;
	rc = EXIT_RUNTIME;
	if (a.cgroup) {
		a.cgroup_fd = ks_cgroup_open(a.cgroup);
		if (a.cgroup_fd < 0)
			goto out;
		t.flags |= KSTATS_TRACE_CGROUP;
		t.cgroup_fd = a.cgroup_fd;
	}
	fd = ks_dev_open();
	if (fd < 0)
		goto out;
	if (t.expr && (rc = ks_trace_expr_supported(fd, func, &a.x, plan)))
		goto out;
	if (usdt && (rc = ks_usdt_supported(fd, usdt->start)))
		goto out;
	/* The probe floor and costs of a uprobe here: the module cannot measure them. */
	if ((user.fd >= 0 || (usdt && !usdt->point)) &&
	    (rc = ks_ucost_fill(fd, &t, usdt, NULL)))
		goto out;
	if (a.cpus) {
		struct kstats_info info;
		uint32_t c;

		if (ks_dev_info(fd, &info) || !info.nr_cpus)
			info.nr_cpus = KS_CPU_BITS;
		for (c = info.nr_cpus; c < KS_CPU_BITS; c++)
			if (cpus[c / 8] & (1u << (c % 8))) {
				rc = ks_fail(EXIT_RUNTIME, NULL, "--cpu: no CPU %u here "
					     "(CPUs 0-%u)", c, info.nr_cpus - 1);
				goto out;
			}
	}
	if (one_shot) {
		sigset_t stop_signals;

		/*
		 * Before the trace exists: a signal that comes once it does then
		 * ends the run (and is not lost: a background job of a shell
		 * ignores SIGINT, but a blocked signal stays pending).
		 */
		ks_block_stop_signals(&stop_signals);
	}
	if (ioctl(fd, KSTATS_IOC_TRACE, &t)) {
		rc = ks_trace_refused(errno, fd, usdt ? usdt->start : func, &a,
				      user.fd >= 0 || usdt);
		goto out;
	}
	if (one_shot) {
		char split_names[ARRAY_SIZE(split_prefixes)][KSTATS_NAME_LEN + 8];
		char self_name[KSTATS_NAME_LEN + 8], expr_names[2][KSTATS_NAME_LEN + 8];
		const char *names[KS_TRACE_METRICS] = { (const char *)t.name };
		size_t n = 1, i;

		if (a.self) {
			snprintf(self_name, sizeof(self_name), "SELF-%s", (const char *)t.name);
			names[n++] = self_name;
		}
		for (i = 0; a.split && i < ARRAY_SIZE(split_prefixes); i++) {
			snprintf(split_names[i], sizeof(split_names[i]), "%s-%s",
				 split_prefixes[i], (const char *)t.name);
			names[n++] = split_names[i];
		}
		ks_trace_expr_names(plan, (const char *)t.name, expr_names, names, &n);
		rc = ks_trace_run(fd, names, n, a.key, &a.run);
		goto out;
	}
	if (opts.json) {
		struct json *j = json_doc("trace");

		json_kstr(j, "name", (const char *)t.name);
		json_kstr(j, "function", func);
		json_obj_end(j);
		json_end(j);
	} else {
		fprintf(stderr, "kstatsctl: tracing %s until 'kstatsctl untrace %s'; "
			"'kstatsctl show %s' shows it\n", func, (const char *)t.name,
			(const char *)t.name);
	}
	rc = 0;
out:
	if (fd >= 0)
		close(fd);
	if (a.cgroup_fd >= 0)
		close(a.cgroup_fd);
	if (user.fd >= 0)
		close(user.fd);
	if (usdt && usdt->fd >= 0)
		close(usdt->fd);
	free(usdt);
	free(plan);
	free(a.args.v);
	return rc;
}

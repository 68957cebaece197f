// SPDX-License-Identifier: GPL-2.0
/*
 * Messages people can act on, and small parsers.
 *
 *   kstatsctl: error: <what>: <reason>
 *   hint: <what to do about it>
 *
 * on stderr, or {"error": "<what>: <reason>", "hint": "..."} on stdout
 * with --json. Only the first error of a run is printed: the rest follow
 * from it. What a message quotes (a path, a name) reaches the terminal
 * through ks_text() (text.c).
 */
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "kstatsctl.h"
#include "json.h"
#include "keys.h"
#include "text.h"
#include "trace.h"

struct ks_opts opts = { .units = UNIT_AUTO };

static bool failed;
static char pending_hint[512];

bool ks_failed(void)
{
	return failed;
}

const char *ks_color(bool on, const char *code)
{
	return on ? code : "";
}

void ks_set_hint(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(pending_hint, sizeof(pending_hint), fmt, ap);
	va_end(ap);
}

/*
 * "kstatsctl: error: " then @text's words on lines of the terminal's
 * width (80 when stderr is not one), each further line indented under the
 * text; a word, a quoted command or a path is never broken (one longer
 * than the line overflows it).
 */
static void say(const char *who, const char *label, const char *color, const char *text)
{
	char start[64], cont[64];

	snprintf(start, sizeof(start), "%s%s%s:%s ", who, ks_color(opts.color_err, color),
		 label, ks_color(opts.color_err, C_RESET));
	snprintf(cont, sizeof(cont), "%*s", (int)ks_text_width(start), "");
	ks_print_wrapped(stderr, start, cont, text);
}

static void report(const char *hint, const char *fmt, va_list ap)
{
	char msg[1024], text[KS_TEXT_LEN(sizeof(msg))];

	vsnprintf(msg, sizeof(msg), fmt, ap);
	if (!hint && pending_hint[0])
		hint = pending_hint;
	if (opts.json) {	/* one string each: JSON is not wrapped */
		struct json *j = json_new(stdout, opts.pretty);

		json_obj(j);
		json_kstr(j, "error", msg);
		if (hint)
			json_kstr(j, "hint", hint);
		json_obj_end(j);
		json_end(j);
		fflush(stdout);
		return;
	}
	fflush(stdout);
	say("kstatsctl: ", "error", C_RED C_BOLD, ks_text(text, sizeof(text), msg));
	if (hint)
		say("", "hint", C_CYAN, ks_text(text, sizeof(text), hint));
}

int ks_fail(int code, const char *hint, const char *fmt, ...)
{
	va_list ap;

	if (failed)
		return code;
	failed = true;
	va_start(ap, fmt);
	report(hint, fmt, ap);
	va_end(ap);
	return code;
}

int ks_usage(const char *fmt, ...)
{
	char hint[128];
	va_list ap;

	if (failed)
		return EXIT_USAGE;
	failed = true;
	if (opts.cmd)
		snprintf(hint, sizeof(hint), "see 'kstatsctl %s --help'", opts.cmd);
	else
		snprintf(hint, sizeof(hint), "see 'kstatsctl --help'");
	va_start(ap, fmt);
	report(pending_hint[0] ? pending_hint : hint, fmt, ap);
	va_end(ap);
	return EXIT_USAGE;
}

void ks_warn(const char *fmt, ...)
{
	char msg[1024], text[KS_TEXT_LEN(sizeof(msg))];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	fflush(stdout);
	say("kstatsctl: ", "warning", C_YELLOW, ks_text(text, sizeof(text), msg));
}

static void oom(void)
{
	fprintf(stderr, "kstatsctl: error: out of memory\n");
	exit(EXIT_RUNTIME);
}

void *xcalloc(size_t n, size_t size)
{
	void *p = calloc(n ? n : 1, size ? size : 1);

	if (!p)
		oom();
	return p;
}

void *xrealloc(void *p, size_t n, size_t size)
{
	p = reallocarray(p, n ? n : 1, size ? size : 1);
	if (!p)
		oom();
	return p;
}

char *xstrdup(const char *s)
{
	char *p = strdup(s);

	if (!p)
		oom();
	return p;
}

/*
 * Names as the kernel takes them: 1..63 bytes of [A-Za-z0-9_.:-], and a
 * keyed trace's, NAME{KEY=VALUE} of [a-z0-9-].
 */
int ks_name_valid(const char *name)
{
	size_t len = strlen(name), base = len;
	struct ks_key k;

	if (!len || len >= KSTATS_NAME_LEN)
		return ks_usage("'%s': a metric name is 1 to %d characters", name,
				KSTATS_NAME_LEN - 1);
	if (ks_key_parse(name, &k)) {
		base = ks_key_name_base(name);
		if (!base)
			return ks_usage("'%s': a key's metric is NAME{KEY=VALUE}, of "
					"lower-case letters, digits and -", name);
	}
	if (!base || strspn(name, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
			    "0123456789_.:-") != base)
		return ks_usage("'%s': a metric name has only letters, digits "
				"and _ . : - (a key's, then {KEY=VALUE})", name);
	return 0;
}

/* A NAME operand: a metric name, or a shell-style pattern of one. */
int ks_pattern_valid(const char *pat)
{
	size_t len = strlen(pat);

	if (!len || len >= 4 * KSTATS_NAME_LEN)
		return ks_usage("'%s': a metric name or pattern is 1 to %d characters",
				pat, KSTATS_NAME_LEN - 1);
	if (strspn(pat, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
			"0123456789_.:-*?[]!^\\{}=") != len)
		return ks_usage("'%s': a metric name has only letters, digits and "
				"_ . : - (a pattern also * ? [ ])", pat);
	return 0;
}

int ks_parse_u64(const char *s, uint64_t *out)
{
	char *end;

	if (!*s || *s == '-' || *s == '+')
		return -1;
	errno = 0;
	*out = strtoull(s, &end, 0);
	return errno || *end ? -1 : 0;
}

int ks_parse_u32(const char *s, uint32_t max, uint32_t *out)
{
	uint64_t v;

	if (ks_parse_u64(s, &v) || v > max)
		return -1;
	*out = (uint32_t)v;
	return 0;
}

int ks_parse_id(const char *opt, const char *arg, int64_t *out)
{
	uint32_t v;

	if (ks_parse_u32(arg, 0x3fffffff, &v) || !v) {
		ks_usage("%s: '%s' is not a process or thread id", opt, arg);
		return EINVAL;
	}
	*out = v;
	return 0;
}

int ks_parse_cpulist(const char *s, uint8_t *mask, size_t nbits)
{
	char *copy = xstrdup(s), *save = NULL, *tok;
	int ret = 0;

	for (tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		char *dash = strchr(tok, '-');
		uint32_t lo, hi, c;

		if (dash)
			*dash = '\0';
		if (ks_parse_u32(tok, (uint32_t)nbits - 1, &lo) ||
		    ks_parse_u32(dash ? dash + 1 : tok, (uint32_t)nbits - 1, &hi) ||
		    hi < lo) {
			ret = -1;
			break;
		}
		for (c = lo; c <= hi; c++)
			mask[c / 8] |= 1u << (c % 8);
	}
	for (tok = (char *)mask; !ret && tok < (char *)mask + (nbits + 7) / 8; tok++)
		if (*tok)
			break;
	if (tok == (char *)mask + (nbits + 7) / 8)
		ret = -1;	/* no CPU at all */
	free(copy);
	return ret;
}

const char *ks_kind_name(uint32_t kind)
{
	switch (kind) {
	case KSTATS_KIND_MODULE:
		return "module";
	case KSTATS_KIND_USER:
		return "user";
	case KSTATS_KIND_TRACE:
		return "trace";
	case KSTATS_KIND_GAP:
		return "gap";
	case KSTATS_KIND_ONCPU:
		return "oncpu";
	case KSTATS_KIND_RUNQ:
		return "runq";
	case KSTATS_KIND_BLOCKED:
		return "blocked";
	case KSTATS_KIND_SELF:
		return "self";
	case KSTATS_KIND_KEY:
		return "key";
	case KSTATS_KIND_VALUE:
		return "value";
	default:
		return "unknown";
	}
}

bool ks_kind_is_trace(uint32_t kind)
{
	return kind == KSTATS_KIND_TRACE || kind == KSTATS_KIND_GAP ||
	       kind == KSTATS_KIND_ONCPU || kind == KSTATS_KIND_RUNQ ||
	       kind == KSTATS_KIND_BLOCKED || kind == KSTATS_KIND_SELF ||
	       kind == KSTATS_KIND_KEY || kind == KSTATS_KIND_VALUE;
}

/*
 * A trace's own metric, NAME, whose calls its counters count: a time's
 * (kind trace), or, with --value alone, the value's; not VALUE-NAME (the
 * value beside a time) nor NEG-NAME (the negatives).
 */
bool ks_metric_is_trace_own(const struct ks_metric *m)
{
	return m->kind == KSTATS_KIND_TRACE ||
	       (m->kind == KSTATS_KIND_VALUE && strncmp(m->name, "VALUE-", 6) &&
		strncmp(m->name, "NEG-", 4));
}

/*
 * A metric's state from its KSTATS_METRIC_* flags: "detached" (its trace
 * went away with its module, or the governor took it off: it records
 * nothing more), "sampled" (active, 1 call in N), else active or stopped.
 */
const char *ks_state_name(uint32_t flags)
{
	if (flags & KSTATS_METRIC_DETACHED)
		return "detached";
	if (!(flags & KSTATS_METRIC_ACTIVE))
		return "stopped";
	return flags & KSTATS_METRIC_SAMPLED ? "sampled" : "active";
}

void ks_block_stop_signals(sigset_t *set)
{
	sigemptyset(set);
	sigaddset(set, SIGINT);
	sigaddset(set, SIGTERM);
	sigaddset(set, SIGHUP);
	sigprocmask(SIG_BLOCK, set, NULL);
}

/* Blocks until SIGINT, SIGTERM or SIGHUP (for --autoremove). */
void ks_hold_until_signal(void)
{
	sigset_t set;
	int sig;

	ks_block_stop_signals(&set);
	fflush(stdout);
	sigwait(&set, &sig);
}

void ks_timespec_add(struct timespec *t, double s)
{
	long long ns = (long long)(s * 1e9);

	t->tv_sec += ns / 1000000000;
	t->tv_nsec += ns % 1000000000;
	if (t->tv_nsec >= 1000000000) {
		t->tv_sec++;
		t->tv_nsec -= 1000000000;
	}
}

void ks_sleep_until(struct timespec *next, double step)
{
	ks_timespec_add(next, step);
	while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, next, NULL) == EINTR)
		;
}

int ks_parse_table_json(const char *arg)
{
	if (!strcmp(arg, "json"))
		opts.json = true;
	else if (strcmp(arg, "table")) {
		ks_usage("--format: '%s' is not table or json", arg);
		return EINVAL;
	}
	return 0;
}

int ks_parse_count(const char *opt, const char *arg, long *out)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(arg, &end, 10);
	if (errno || *end || end == arg || v < 1) {
		ks_usage("%s: '%s' is not a positive number", opt, arg);
		return EINVAL;
	}
	*out = v;
	return 0;
}

/*
 * Edit distance of @a and @b, a swap of two neighbours counting as one
 * edit (optimal string alignment): "shwo" is one typo from "show".
 */
static size_t edit_distance(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b), i, j, d;
	static size_t row[3][128];	/* rows i - 2, i - 1, i */
	size_t *r2 = row[0], *r1 = row[1], *r0 = row[2], *t;

	if (la >= ARRAY_SIZE(row[0]) || lb >= ARRAY_SIZE(row[0]))
		return SIZE_MAX;
	for (j = 0; j <= lb; j++)
		r0[j] = j;
	for (i = 1; i <= la; i++) {
		t = r2, r2 = r1, r1 = r0, r0 = t;
		r0[0] = i;
		for (j = 1; j <= lb; j++) {
			d = r1[j - 1] + (a[i - 1] != b[j - 1]);
			d = r1[j] + 1 < d ? r1[j] + 1 : d;
			d = r0[j - 1] + 1 < d ? r0[j - 1] + 1 : d;
			if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] &&
			    r2[j - 2] + 1 < d)
				d = r2[j - 2] + 1;
			r0[j] = d;
		}
	}
	return r0[lb];
}

const char *ks_closest(const char *word, const char *const *cands, size_t nr)
{
	/* Close enough to be a typo: a third of the word, at least 1, at most 3. */
	size_t best = strlen(word) / 3, d, i;
	const char *pick = NULL;

	best = best < 1 ? 1 : best > 3 ? 3 : best;
	for (i = 0; i < nr; i++) {
		d = edit_distance(word, cands[i]);
		if (d && d <= best) {
			best = d - 1;	/* the first of the closest wins */
			pick = cands[i];
		}
	}
	return pick;
}

// SPDX-License-Identifier: GPL-2.0
/*
 * kstatsctl diff A [B] [NAME...] [--fail-if COND]... [--brief] [--cumulative]
 *
 * Compares two snapshot files, or a file with the live metrics when B is
 * left out (the operand after A is B when it is a file, else the first
 * NAME). NAMEs are shell-style patterns (-m NAME is the older spelling);
 * metrics are matched by name. For each metric, one of three comparisons:
 *
 * - interval: B is a later snapshot of the very metric A holds (same host,
 *   kernel and boot; same kind, owner and frac_bits on the same CPUs; taken
 *   after A; no count, part sum, hit or miss lower than in A), so B holds
 *   A's samples plus what was recorded since. Comparing B with A whole
 *   would mostly compare A with itself and hide any change; diff compares
 *   A with B - A, the samples recorded between the two.
 * - whole: A and B as they are, with --cumulative, or when they come from
 *   different hosts (a comparison of two unrelated snapshots).
 * - none: the same host, but B cannot have grown from A: a reset, a
 *   reboot, the metric created again, or B taken before A. B then holds
 *   an unknown part of the interval; diff says why and compares nothing
 *   for that metric (--cumulative compares it whole).
 *
 * The output starts with the verdict (diff_verdict.c): one line per metric
 * and condition (fail_if.c), then the details (diff_show.c). The exit status: 4 when a
 * condition surely held for some metric; else 3 when a metric had no
 * interval (it could not be checked; every other was, and passed); else 5
 * when a condition was not decided (too few samples, no value) or a NAME
 * matched no metric of both A and B, unless --undecided=pass; else 0. A
 * gate must not pass what it did not decide: with --fail-if, no metric in
 * both A and B is an error (exit status 1).
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "kstatsctl.h"
#include "device.h"
#include "hdr.h"
#include "json.h"
#include "keys.h"
#include "model.h"
#include "names.h"
#include "snapfile.h"
#include "stats.h"
#include "text.h"
#include "units.h"
#include "diff.h"

struct diff_args {
	char **ops;		/* operands: A, then B or NAMEs */
	size_t nr_ops, nr_inputs;	/* -i FILEs: the first operands */
	struct ks_names pats;	/* NAME... and -m */
	bool cumulative, brief, slots;
	char **conds;
	size_t nr_conds;
	int undecided;		/* --undecided: -1 not given, 0 pass, 1 fail */
};

enum { OPT_CUMULATIVE = 0x300, OPT_FAIL_IF, OPT_BRIEF, OPT_UNDECIDED, OPT_SLOTS };

static const struct argp_child children[] = {
	{ &ks_global_argp, 0, NULL, 0 },
	{ 0 }
};

static const struct argp_option diff_options[] = {
	{ "input", 'i', "FILE", 0, "FILE_A, then (again) FILE_B: the files, as the "
	  "operands (-i as in the other commands)", 0 },
	{ "metric", 'm', "NAME", 0, "Only metrics matching NAME, as a NAME operand "
	  "(the older spelling; repeatable)", 0 },
	{ "cumulative", OPT_CUMULATIVE, NULL, 0, "Compare A and B whole, even when B "
	  "is A later (by default: A with B - A, what was recorded in between)", 0 },
	{ "fail-if", OPT_FAIL_IF, "COND", 0, "Exit with status 4 when COND surely "
	  "holds: a change 'p99>+10%', 'mean<-5%', or a value 'p99>2ms', "
	  "'count<1000' (repeatable, or a comma-separated list)", 0 },
	{ "undecided", OPT_UNDECIDED, "pass|fail", 0, "With --fail-if: what a condition "
	  "not decided (too few samples, no value) or a NAME compared nowhere does "
	  "to the exit status: fail, status 5 (the default), or pass", 0 },
	{ "brief", OPT_BRIEF, NULL, 0, "Print only the verdict: one line per metric "
	  "and condition (-j: no buckets, no stats)", 0 },
	{ "slots", OPT_SLOTS, NULL, 0, "After each metric's statistics, its slots: "
	  "the counts in A, B and B - A", 0 },
	{ 0 }
};

static error_t diff_parse(int key, char *arg, struct argp_state *state)
{
	struct diff_args *a = state->input;

	switch (key) {
	case 'm':
		if (ks_names_add(&a->pats, arg))
			return EINVAL;
		break;
	case OPT_CUMULATIVE:
		a->cumulative = true;
		break;
	case OPT_BRIEF:
		a->brief = true;
		break;
	case OPT_SLOTS:
		a->slots = true;
		break;
	case OPT_UNDECIDED:
		if (strcmp(arg, "pass") && strcmp(arg, "fail")) {
			ks_usage("--undecided takes pass or fail, not '%s'", arg);
			return EINVAL;
		}
		a->undecided = !strcmp(arg, "fail");
		break;
	case OPT_FAIL_IF: {
		/* 'p99 > 1ms, mean<+5%': blanks are never part of a condition. */
		char *to = arg, *from;

		for (from = arg; *from; from++)
			if (*from != ' ' && *from != '\t')
				*to++ = *from;
		*to = '\0';
		a->conds = xrealloc(a->conds, a->nr_conds + 1, sizeof(*a->conds));
		a->conds[a->nr_conds++] = arg;
		break;
	}
	case 'i': {
		size_t k;

		a->ops = xrealloc(a->ops, a->nr_ops + 1, sizeof(*a->ops));
		for (k = a->nr_ops++; k > a->nr_inputs; k--)
			a->ops[k] = a->ops[k - 1];
		a->ops[a->nr_inputs++] = arg;
		break;
	}
	case ARGP_KEY_ARG:
		a->ops = xrealloc(a->ops, a->nr_ops + 1, sizeof(*a->ops));
		a->ops[a->nr_ops++] = arg;
		break;
	default:
		return ARGP_ERR_UNKNOWN;
	}
	return 0;
}

const struct argp diff_argp = {
	diff_options, diff_parse, "FILE_A [FILE_B] [NAME...]",
	"Compares two snapshot files, or FILE_A with the live metrics when FILE_B "
	"is left out (the operand after FILE_A is FILE_B when it is a file, else "
	"a NAME). NAMEs are shell-style patterns, such as 'net.*'. When B is A's "
	"metric later (same host, boot and metric, not reset), compares A with "
	"B - A, the samples recorded in between; with --cumulative, or across "
	"hosts, A and B whole. Prints the verdict first, then each metric's "
	"statistics (and slots, with --slots). Exit status: 4 when a --fail-if "
	"condition surely held; else 3 when a metric was reset, rebooted or "
	"created again between A and B (not compared); else 5 when a condition "
	"was not decided or a NAME compared nowhere (--undecided=pass: 0); else "
	"0. With --fail-if, no metric in both A and B is an error.",
	children, NULL, NULL
};

/* ---- which comparison ---- */

/* Not of one boot: other kernels, or other boot IDs (when both are known). */
static bool other_boot(const struct ks_source *a, const struct ks_source *b)
{
	return strcmp(a->kernel, b->kernel) || strcmp(a->kernel_version, b->kernel_version) ||
	       strcmp(a->machine, b->machine) ||
	       (a->boot_id[0] && b->boot_id[0] && strcmp(a->boot_id, b->boot_id));
}

void diff_classify(struct pair *p, const struct ks_source *sa,
		   const struct ks_source *sb, bool cumulative)
{
	const struct ks_metric *a = p->a, *b = p->b;
	char why[200], n[48], t[48];
	struct ks_hist h;

	p->cmp = CMP_NONE;
	if (cumulative) {
		p->cmp = CMP_WHOLE;
		snprintf(p->note, sizeof(p->note), "A and B as they are (--cumulative)");
	} else if (sa->hlog || sb->hlog) {
		p->cmp = CMP_WHOLE;
		snprintf(p->note, sizeof(p->note), "A and B as they are: an HdrHistogram "
			 "log holds intervals, not one metric that grew");
	} else if (strcmp(sa->host, sb->host)) {
		p->cmp = CMP_WHOLE;
		snprintf(p->note, sizeof(p->note), "A and B as they are: they come "
			 "from different hosts (%.200s, %.200s)", sa->host, sb->host);
	} else if (other_boot(sa, sb)) {
		snprintf(p->note, sizeof(p->note), "A and B are from different boots "
			 "(kernel %.200s, then %.200s)", sa->kernel, sb->kernel);
	} else if (a->kind != b->kind || a->frac_bits != b->frac_bits ||
		   strcmp(a->owner, b->owner) || a->owner_pid != b->owner_pid) {
		snprintf(p->note, sizeof(p->note), "the metric was created again "
			 "between A and B (another kind, owner or frac_bits)");
	} else if (b->time_ns < a->time_ns) {
		snprintf(p->note, sizeof(p->note), "B was taken before A: swap them");
	} else {
		ks_metric_delta(a, b, &p->iv, why, sizeof(why));
		if (!p->iv.reset) {
			p->cmp = CMP_INTERVAL;
			ks_hist_build(&h, &p->iv, -1);
			snprintf(p->note, sizeof(p->note), "B - A, the %s samples recorded "
				 "between A and B, %s apart (--cumulative: A and B whole)",
				 ks_fmt_u128(n, sizeof(n), h.total),
				 ks_fmt_int(t, sizeof(t), b->time_ns - a->time_ns, UNIT_AUTO));
			ks_hist_free(&h);
			return;
		}
		snprintf(p->note, sizeof(p->note), "reset between A and B: %s", why);
	}
	ks_metric_free(&p->iv);
}

/* ---- the command ---- */

static void source_line(const char *tag, const struct ks_source *src)
{
	const char *from = src->file ? src->path : "live metrics";
	char when[32], host[KS_TEXT_LEN(sizeof(src->host))];
	char kernel[KS_TEXT_LEN(sizeof(src->kernel))], start[8];
	char item[KS_TEXT_LEN(sizeof(src->host)) + KS_TEXT_LEN(sizeof(src->kernel))];
	struct ks_wrap w = { stdout, ks_out_width(stdout), 0, start, "   " };
	time_t t = (time_t)(src->created_ns / 1000000000);
	size_t len = KS_TEXT_LEN(strlen(from));
	char *path = xcalloc(len, 1);
	struct tm tm;

	localtime_r(&t, &tm);
	strftime(when, sizeof(when), "%Y-%m-%d %H:%M:%S", &tm);
	/* Items, wrapped between them under the path: a date stays whole. */
	snprintf(start, sizeof(start), "%s: ", tag);
	printf("%s", start);
	ks_wrap_item(&w, "", ks_text(path, len, from));
	if (src->hlog) {	/* hdr_log.c */
		ks_wrap_item(&w, " ", "(HdrHistogram log");
		snprintf(item, sizeof(item), "%zu histograms", src->hlog_intervals);
		ks_wrap_item(&w, ", ", item);
		snprintf(item, sizeof(item), "up to %s)", when);
		ks_wrap_item(&w, ", ", item);
	} else {
		snprintf(item, sizeof(item), "(%s", ks_text(host, sizeof(host), src->host));
		ks_wrap_item(&w, " ", item);
		snprintf(item, sizeof(item), "kernel %s",
			 ks_text(kernel, sizeof(kernel), src->kernel));
		ks_wrap_item(&w, ", ", item);
		snprintf(item, sizeof(item), "%s)", when);
		ks_wrap_item(&w, ", ", item);
	}
	ks_wrap_end(&w);
	free(path);
}

static void side_obj(struct json *j, const char *key, const struct ks_source *src)
{
	json_key(j, key);
	json_obj(j);
	json_kstr(j, "type", src->file ? "file" : "live");
	if (src->file)
		json_kstr(j, "path", src->path);
	json_kstr(j, "host", src->host);
	json_kstr(j, "boot_id", src->boot_id);
	json_ku64(j, "created_ns", src->created_ns);
	json_obj_end(j);
}

static bool picked(const struct diff_args *a, const char *name)
{
	return !a->pats.nr || ks_names_fnmatch(&a->pats, name);
}

/* The live metrics of @sa picked, into @sb; 0 or an exit code. */
static int take_live(int fd, const struct diff_args *a, const struct ks_set *sa,
		     struct ks_set *sb)
{
	size_t i;
	int rc;

	ks_source_live(&sb->src, fd);
	sb->m = xcalloc(sa->nr + 1, sizeof(*sb->m));
	for (i = 0; i < sa->nr; i++) {
		if (!picked(a, sa->m[i].name))
			continue;
		rc = ks_snapshot_live(fd, sa->m[i].name, &sb->m[sb->nr], true);
		if (rc < 0)
			continue;
		if (rc)
			return rc;
		sb->nr++;
	}
	return 0;
}

/* Does some metric of @s match @pat? Else its closest name, for a hint. */
static bool set_matches(const struct ks_set *s, const char *pat, const char **near)
{
	const char **names = xcalloc(s->nr + 1, sizeof(*names));
	struct ks_names one = { (char **)&pat, 1 };
	bool found = false;
	size_t i;

	for (i = 0; i < s->nr && !found; i++) {
		names[i] = s->m[i].name;
		found = ks_names_fnmatch(&one, s->m[i].name);
	}
	if (!found && !*near)
		*near = ks_closest(pat, names, s->nr);
	free(names);
	return found;
}

/* Every pattern matches a metric of A or B; else an error naming it. */
static int check_patterns(const struct diff_args *a, const char *fa,
			  const struct ks_set *sa, const struct ks_set *sb)
{
	const char *near = NULL, *pat;
	size_t i;

	for (i = 0; i < a->pats.nr; i++) {
		pat = a->pats.v[i];
		near = NULL;
		if (set_matches(sa, pat, &near) || set_matches(sb, pat, &near))
			continue;
		if (near)
			ks_set_hint("did you mean '%s'?", near);
		else
			ks_set_hint("'kstatsctl list -i %s' lists its metrics", fa);
		return ks_fail(EXIT_RUNTIME, NULL, "%s: no metric matches '%s' (in A or B)",
			       fa, pat);
	}
	return 0;
}

/* The operand after A: B when it is a file ("-": standard input). */
static bool is_file(const char *s)
{
	struct stat st;

	return !strcmp(s, "-") || (!stat(s, &st) && !S_ISDIR(st.st_mode));
}

/* The names in @x but not in @y, picked (none unless @list): how many. */
static size_t only_in(const struct diff_args *a, const struct ks_set *x,
		      const struct ks_set *y, bool list)
{
	size_t i, n = 0;

	for (i = 0; list && i < x->nr; i++)
		n += !ks_set_find(y, x->m[i].name) && picked(a, x->m[i].name);
	return n;
}

/* Them as text, "only in A: x, y" on lines of the width, or in JSON. */
static void only_in_print(const struct diff_args *a, const struct ks_set *x,
			  const struct ks_set *y, const char *tag, bool list,
			  struct json *j)
{
	struct ks_wrap w = { stdout, ks_out_width(stdout), 0, NULL, "  " };
	char t[KS_TEXT_LEN(KSTATS_NAME_LEN)], start[16];
	size_t i;

	snprintf(start, sizeof(start), "only in %s: ", tag);
	w.start = start;
	if (j) {
		json_key(j, tag[0] == 'A' ? "only_a" : "only_b");
		json_arr(j);
	}
	for (i = 0; list && i < x->nr; i++) {
		if (ks_set_find(y, x->m[i].name) || !picked(a, x->m[i].name))
			continue;
		if (j)
			json_str(j, x->m[i].name);
		else {
			if (!w.col)
				printf("\n%s", start);
			ks_wrap_item(&w, w.col ? ", " : "",
				     ks_metric_label(t, sizeof(t), x->m[i].name));
		}
	}
	if (j)
		json_arr_end(j);
	else if (w.col)
		ks_wrap_end(&w);
}

/*
 * With --fail-if: the NAMEs that match no metric of both A and B (none
 * compared, so their gate decided nothing), and which side they match.
 */
static void find_nowhere(const struct diff_args *a, const struct ks_set *sa,
			 const struct ks_set *sb, struct verdict *v)
{
	struct ks_names one = { NULL, 1 };
	unsigned char in;
	size_t i, k;

	v->nowhere = xcalloc(a->pats.nr + 1, sizeof(*v->nowhere));
	v->nowhere_in = xcalloc(a->pats.nr + 1, 1);
	for (i = 0; v->nr_conds && i < a->pats.nr; i++) {
		one.v = &a->pats.v[i];
		for (k = 0; k < v->nr; k++)
			if (ks_names_fnmatch(&one, v->p[k].a->name))
				break;
		if (k < v->nr)
			continue;
		for (k = 0, in = 0; k < sa->nr; k++)
			in |= ks_names_fnmatch(&one, sa->m[k].name) ? 1 : 0;
		for (k = 0; k < sb->nr; k++)
			in |= ks_names_fnmatch(&one, sb->m[k].name) ? 2 : 0;
		v->nowhere_in[v->nr_nowhere] = in;
		v->nowhere[v->nr_nowhere++] = a->pats.v[i];
	}
}

/* Pairs every metric of A picked with B's of that name, classified. */
static void pair_up(const struct diff_args *a, const struct ks_set *sa,
		    const struct ks_set *sb, struct verdict *v)
{
	struct pair *p;
	size_t i;

	v->p = xcalloc(sa->nr + 1, sizeof(*v->p));
	for (i = 0; i < sa->nr; i++) {
		p = &v->p[v->nr];
		p->a = &sa->m[i];
		p->b = ks_set_find(sb, sa->m[i].name);
		if (!p->b || !picked(a, p->a->name))
			continue;
		diff_classify(p, &sa->src, &sb->src, a->cumulative);
		/* One unit decision, show's (units.c): ns only when both hold ns. */
		p->unit = ks_metric_unit(p->b, ks_metric_unit(p->a, opts.units));
		v->nr++;
	}
}

/* --fail-if with no metric in both A and B: it would decide nothing. */
static int no_common(const struct diff_args *a, const struct verdict *v)
{
	ks_set_hint("metrics are matched by name; 'kstatsctl list -i FILE' lists a "
		    "file's%s", a->pats.nr ? ", and NAMEs pick among them" : "");
	return ks_fail(EXIT_RUNTIME, NULL, "--fail-if: %s (%zu only in A, %zu only "
		       "in B)", a->pats.nr ? "no metric matching the NAMEs is in both A "
		       "and B" : "A and B have no metric in common", v->only_a, v->only_b);
}

static void print(const struct diff_args *a, const struct verdict *v,
		  const struct ks_set *sa, const struct ks_set *sb, bool live)
{
	struct json *j;
	size_t i;

	if (!opts.json) {
		verdict_text(v);
		if (a->brief)
			return;
		putchar('\n');
		source_line("A", &sa->src);
		source_line("B", &sb->src);
		for (i = 0; i < v->nr; i++) {
			putchar('\n');
			diff_text(&v->p[i], a->slots);
		}
		only_in_print(a, sa, sb, "A", true, NULL);
		only_in_print(a, sb, sa, "B", !live, NULL);
		return;
	}
	j = json_doc("diff");
	json_kbool(j, "cumulative", a->cumulative);
	json_kbool(j, "brief", a->brief);	/* no buckets, no stats */
	side_obj(j, "a", &sa->src);
	side_obj(j, "b", &sb->src);
	verdict_json(j, v);
	metrics_json(j, v, a->brief);
	only_in_print(a, sa, sb, "A", true, j);
	/* Live, B is read for A's names only. */
	only_in_print(a, sb, sa, "B", !live, j);
	if (v->nr_conds)
		held_json(j, v);
	json_obj_end(j);
	json_end(j);
}

int cmd_diff(int argc, char **argv)
{
	struct diff_args a = { .undecided = -1 };
	struct ks_set sa = { 0 }, sb = { 0 };
	struct ks_fail_if *conds = NULL;
	struct verdict v = { 0 };
	size_t i, nr_conds = 0, names_from = 1;
	const char *fb = NULL;
	int rc, done, fd = -1;

	rc = ks_parse(&diff_argp, argc, argv, &a, &done);
	if (rc || done)
		goto out;
	/* After every option: a percentile may come from --percentiles. */
	for (i = 0; i < a.nr_conds; i++)
		if ((rc = ks_fail_if_parse(a.conds[i], &conds, &nr_conds)))
			goto out;
	if (!a.nr_ops) {
		rc = ks_usage("diff needs a snapshot file: 'diff A [B] [NAME...]'");
		goto out;
	}
	if (a.undecided >= 0 && !nr_conds) {
		rc = ks_usage("--undecided says what a --fail-if condition not decided "
			      "does: it needs --fail-if");
		goto out;
	}
	if (a.nr_ops > 1 && is_file(a.ops[1]))
		fb = a.ops[names_from++];
	for (i = names_from; i < a.nr_ops; i++)
		if (ks_names_add(&a.pats, a.ops[i])) {
			rc = EXIT_USAGE;
			goto out;
		}
	ks_hlog_select(&a.pats);	/* a log's other tags: not decoded */
	rc = ks_snapfile_read(a.ops[0], &sa);
	if (rc)
		goto out;
	if (fb) {
		rc = ks_snapfile_read(fb, &sb);
	} else {
		fd = ks_dev_open();
		rc = fd < 0 ? EXIT_RUNTIME : take_live(fd, &a, &sa, &sb);
	}
	if (!rc)
		rc = check_patterns(&a, a.ops[0], &sa, &sb);
	if (rc)
		goto out;
	pair_up(&a, &sa, &sb, &v);
	v.conds = conds;
	v.nr_conds = nr_conds;
	v.undecided_pass = a.undecided == 0;
	v.only_a = only_in(&a, &sa, &sb, true);
	v.only_b = only_in(&a, &sb, &sa, !!fb);	/* live: B is read for A's names */
	if (nr_conds && !v.nr) {
		rc = no_common(&a, &v);
		verdict_free(&v);
		goto out;
	}
	find_nowhere(&a, &sa, &sb, &v);
	verdict_build(&v);
	print(&a, &v, &sa, &sb, !fb);
	rc = v.status;
	verdict_free(&v);
out:
	if (fd >= 0)
		close(fd);
	ks_set_free(&sa);
	ks_set_free(&sb);
	free(a.ops);
	free(a.pats.v);
	free(a.conds);
	free(conds);
	return rc;
}

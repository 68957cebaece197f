// SPDX-License-Identifier: GPL-2.0
/*
 * kstatsctl diff A [B] [-m NAME]... [--cumulative]
 *
 * Compares two snapshot files, or a file with the live metrics when B is
 * left out. Metrics are matched by name (every metric of A unless -m picks
 * some); for each, one of three comparisons:
 *
 * - interval: B is a later snapshot of the very metric A holds (same host,
 *   kernel and boot; same kind, owner and frac_bits on the same CPUs; taken
 *   after A; no count, part sum, hit or miss lower than in A), so B holds
 *   A's samples plus what was recorded since. Comparing B with A whole
 *   would mostly compare A with itself and hide any change; diff compares
 *   A with B - A, the samples recorded between the two.
 * - whole: A and B as they are, with --cumulative, or when they come from
 *   different hosts (today's comparison of two unrelated snapshots).
 * - none: the same host, but B cannot have grown from A: a reset, a
 *   reboot, the metric created again, or B taken before A. There is no
 *   interval to show; diff says why, shows no numbers for the metric and
 *   exits with status 3 (EXIT_NO_INTERVAL) once it has shown the others.
 *
 * Per slot: A's count, B's, and B - A; then count, mean, min, max and the
 * percentiles of both sides with the change, as a range where the values
 * are known only to their slots. --fail-if conditions on those changes
 * (fail_if.c) make the exit status 4 when one surely holds.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "kstatsctl.h"

struct diff_args {
	const char *file[2];
	char **names;
	size_t nr;
	bool cumulative;
	char **conds;
	size_t nr_conds;
};

enum { OPT_CUMULATIVE = 0x300, OPT_FAIL_IF };

static const struct argp_child children[] = {
	{ &ks_global_argp, 0, NULL, 0 },
	{ 0 }
};

static const struct argp_option diff_options[] = {
	{ "metric", 'm', "NAME", 0, "Only this metric (repeatable)", 0 },
	{ "cumulative", OPT_CUMULATIVE, NULL, 0, "Compare A and B whole, even when B "
	  "is A later (by default: A with B - A, what was recorded in between)", 0 },
	{ "fail-if", OPT_FAIL_IF, "COND", 0, "Exit with status 4 when a change surely "
	  "passes COND, e.g. 'p99>+10%' or 'mean<-5%' (repeatable)", 0 },
	{ 0 }
};

static error_t diff_parse(int key, char *arg, struct argp_state *state)
{
	struct diff_args *a = state->input;

	switch (key) {
	case 'm':
		a->names = xrealloc(a->names, a->nr + 1, sizeof(*a->names));
		a->names[a->nr++] = arg;
		break;
	case OPT_CUMULATIVE:
		a->cumulative = true;
		break;
	case OPT_FAIL_IF:
		a->conds = xrealloc(a->conds, a->nr_conds + 1, sizeof(*a->conds));
		a->conds[a->nr_conds++] = arg;
		break;
	case ARGP_KEY_ARG:
		if (a->file[1]) {
			ks_usage("diff compares two snapshots: 'diff A [B]'");
			return EINVAL;
		}
		a->file[a->file[0] ? 1 : 0] = arg;
		break;
	default:
		return ARGP_ERR_UNKNOWN;
	}
	return 0;
}

const struct argp diff_argp = {
	diff_options, diff_parse, "FILE_A [FILE_B]",
	"Compares two snapshot files, or FILE_A with the live metrics when FILE_B "
	"is left out. When B is A's metric later (same host, boot and metric, "
	"not reset), compares A with B - A, the samples recorded in between; "
	"with --cumulative, or across hosts, A and B whole. A metric reset, "
	"rebooted or created again between A and B has no interval: diff says "
	"so and exits with status 3; --fail-if conditions, with status 4.",
	children, NULL, NULL
};

static bool picked(const struct diff_args *a, const char *name)
{
	size_t i;

	for (i = 0; i < a->nr; i++)
		if (!strcmp(a->names[i], name))
			return true;
	return !a->nr;
}

/* ---- which comparison ---- */

enum cmp { CMP_INTERVAL, CMP_WHOLE, CMP_NONE };
static const char *const cmp_names[] = { "interval", "whole", "none" };

struct pair {
	const struct ks_metric *a, *b;
	struct ks_metric iv;	/* B - A, for CMP_INTERVAL */
	enum cmp cmp;
	char note[640];
};

/* Not of one boot: other kernels, or other boot IDs (when both are known). */
static bool other_boot(const struct ks_source *a, const struct ks_source *b)
{
	return strcmp(a->kernel, b->kernel) || strcmp(a->kernel_version, b->kernel_version) ||
	       strcmp(a->machine, b->machine) ||
	       (a->boot_id[0] && b->boot_id[0] && strcmp(a->boot_id, b->boot_id));
}

static void classify(struct pair *p, const struct ks_source *sa,
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

/* ---- the numbers ---- */

/* A side's value: [lo, hi] where only that much is known (lo == hi: exact). */
struct range {
	double lo, hi;
};

static struct range est_range(const struct ks_est *e)
{
	if (e->slot < 0)
		return (struct range){ NAN, NAN };
	return (struct range){ (double)e->low, (double)e->last };
}

static struct range mean_range(const struct ks_stats *st)
{
	double d = st->mean * st->mean_err;

	return (struct range){ st->mean - d, st->mean + d };
}

/*
 * B relative to A, in %: one figure when both are exact (or nearly), else
 * the range from the lowest to the highest ratio their ranges allow.
 */
static bool change_range(struct range a, struct range b, double *lo, double *hi)
{
	if (isnan(a.lo) || isnan(b.lo) || a.lo <= 0)
		return false;
	*lo = (b.lo / a.hi - 1) * 100;
	*hi = (b.hi / a.lo - 1) * 100;
	return true;
}

static char *change(char *buf, size_t len, struct range a, struct range b)
{
	double lo, hi;

	if (!change_range(a, b, &lo, &hi)) {
		snprintf(buf, len, a.hi == 0 && b.hi == 0 ? "0%%" : "-");
		return buf;
	}
	/* Rounded outwards; "+ 0.0" makes -0 a 0. */
	if (hi - lo < 0.1)
		snprintf(buf, len, "%+.1f%%", (lo + hi) / 2);
	else if (hi - lo < 1)
		snprintf(buf, len, "%+.1f..%+.1f%%", floor(lo * 10) / 10 + 0.0,
			 ceil(hi * 10) / 10 + 0.0);
	else
		snprintf(buf, len, "%+.0f..%+.0f%%", floor(lo) + 0.0, ceil(hi) + 0.0);
	return buf;
}

static char *count_change(char *buf, size_t len, ks_u128 a, ks_u128 b)
{
	if (!a)
		snprintf(buf, len, b ? "new" : "0%%");
	else
		snprintf(buf, len, "%+.1f%%", ((double)b - (double)a) / (double)a * 100);
	return buf;
}

/* "+12" or "-3": b - a, exactly. */
static char *delta(char *buf, size_t len, ks_u128 a, ks_u128 b)
{
	char n[44];

	ks_fmt_u128(n, sizeof(n), b < a ? a - b : b - a);
	snprintf(buf, len, "%c%s", b < a ? '-' : '+', n);
	return buf;
}

/* A, B, and for an interval B - A: histograms and statistics. */
struct sides {
	struct ks_hist h[3];
	struct ks_stats st[3];
	int nr;
};

static void sides_build(struct sides *sd, const struct pair *p)
{
	const struct ks_metric *m[3] = { p->a, p->b, &p->iv };
	int i;

	sd->nr = p->cmp == CMP_INTERVAL ? 3 : 2;
	for (i = 0; i < sd->nr; i++) {
		ks_hist_build(&sd->h[i], m[i], -1);
		ks_hist_stats(&sd->h[i], &sd->st[i]);
	}
}

static void sides_free(struct sides *sd)
{
	int i;

	for (i = 0; i < sd->nr; i++)
		ks_hist_free(&sd->h[i]);
}

/* Rows: count, mean, min, max, then each percentile shown. */
#define NR_ROWS	((int)(4 + ks_nr_pcts))
static const char *row_name(int r)
{
	static const char *const fixed[] = { "count", "mean", "min", "max" };

	return r < 4 ? fixed[r] : ks_pct_names[r - 4];
}

/* Row @r (>= 2) of @st: min, max or a percentile. */
static const struct ks_est *row_est(const struct ks_stats *st, int r)
{
	if (r == 2)
		return &st->min;
	if (r == 3)
		return &st->max;
	return &st->pct[r - 4];
}

/* Row @r of @st as text, and what change() compares. */
static char *row_text(char *buf, size_t len, const struct ks_stats *st, int r,
		      uint32_t frac_bits, struct range *v)
{
	if (r == 0) {
		*v = (struct range){ (double)st->count, (double)st->count };
		return ks_fmt_u128(buf, len, st->count);
	}
	if (r == 1) {
		*v = mean_range(st);
		return ks_fmt_mean(buf, len, st, opts.units, true);
	}
	*v = est_range(row_est(st, r));
	return ks_fmt_est(buf, len, row_est(st, r), frac_bits, opts.units, r < 4, true);
}

/* ---- text ---- */

static void slots_text(const struct pair *p, const struct ks_hist *ha,
		       const struct ks_hist *hb)
{
	char label[112], x[48], y[48], d[48];
	uint32_t s, from, to;

	if (p->a->frac_bits != p->b->frac_bits || !(ha->total || hb->total))
		return;
	from = ha->total && (!hb->total || ha->first < hb->first) ? ha->first : hb->first;
	to = ha->total && (!hb->total || ha->last > hb->last) ? ha->last : hb->last;
	printf("%-28s %12s %12s %12s\n", "slot", "A", "B",
	       p->cmp == CMP_INTERVAL ? "B-A" : "change");
	for (s = from; s <= to; s++) {
		if (!ha->count[s] && !hb->count[s])
			continue;
		printf("%-28s %12s %12s %12s\n",
		       ks_fmt_slot(label, sizeof(label), s, p->a->frac_bits, opts.units),
		       ks_fmt_u128(x, sizeof(x), ha->count[s]),
		       ks_fmt_u128(y, sizeof(y), hb->count[s]),
		       delta(d, sizeof(d), ha->count[s], hb->count[s]));
	}
}

static void diff_text(const struct pair *p)
{
	char x[128], y[128], c[48], t[KS_TEXT_LEN(sizeof(p->note))];
	struct range va, vb;
	struct sides sd;
	int r, k;

	printf("%s%s%s: frac_bits %u", ks_color(opts.color_out, C_BOLD),
	       ks_text(t, sizeof(t), p->a->name), ks_color(opts.color_out, C_RESET),
	       p->a->frac_bits);
	if (p->a->frac_bits != p->b->frac_bits)
		printf(" in A, %u in B: no per-slot comparison", p->b->frac_bits);
	putchar('\n');
	ks_text(t, sizeof(t), p->note);	/* hosts and kernels, from the files */
	if (p->cmp == CMP_NONE) {
		printf("note: no interval: %s\n"
		       "hint: 'kstatsctl diff --cumulative' compares A and B whole\n", t);
		return;
	}
	printf("%s: %s\n", cmp_names[p->cmp], t);
	sides_build(&sd, p);
	slots_text(p, &sd.h[0], &sd.h[1]);
	k = sd.nr - 1;	/* B, or B - A */
	printf("%-8s %20s %20s %12s\n", "", "A", k == 2 ? "B-A" : "B", "change");
	for (r = 0; r < NR_ROWS; r++) {
		row_text(x, sizeof(x), &sd.st[0], r, sd.h[0].frac_bits, &va);
		row_text(y, sizeof(y), &sd.st[k], r, sd.h[k].frac_bits, &vb);
		if (r == 0 && k == 2)	/* counts of other durations */
			snprintf(c, sizeof(c), "-");
		else if (r == 0)
			count_change(c, sizeof(c), sd.st[0].count, sd.st[1].count);
		else
			change(c, sizeof(c), va, vb);
		printf("%-8s %20s %20s %12s\n", row_name(r), x, y, c);
	}
	sides_free(&sd);
}

/* ---- JSON ---- */

static void side_json(struct json *j, const char *key, const struct ks_stats *st,
		      int r, uint32_t frac_bits)
{
	if (r == 0) {
		json_ku128(j, key, st->count);
	} else if (r > 1) {
		fmt_json_kest(j, key, row_est(st, r), frac_bits, r < 4);
	} else if (!st->count) {
		json_key(j, key);
		json_null(j);
	} else {
		json_key(j, key);
		json_obj(j);
		json_kdbl(j, "value", st->mean);
		json_kdbl(j, "error", st->mean_err);
		json_obj_end(j);
	}
}

static void diff_json(struct json *j, const struct pair *p)
{
	static const char *const keys[3] = { "a", "b", "interval" };
	struct sides sd;
	uint32_t s;
	int r, i;

	json_obj(j);
	json_kstr(j, "name", p->a->name);
	json_kstr(j, "comparison", cmp_names[p->cmp]);
	json_kstr(j, "note", p->note);
	json_ku64(j, "frac_bits_a", p->a->frac_bits);
	json_ku64(j, "frac_bits_b", p->b->frac_bits);
	if (p->cmp == CMP_NONE) {
		json_obj_end(j);
		return;
	}
	if (p->cmp == CMP_INTERVAL)
		json_ku64(j, "interval_ns", p->b->time_ns - p->a->time_ns);
	sides_build(&sd, p);
	json_key(j, "buckets");
	json_arr(j);
	for (s = 0; p->a->frac_bits == p->b->frac_bits && s < sd.h[0].nslots; s++) {
		if (!sd.h[0].count[s] && !sd.h[1].count[s])
			continue;
		json_obj(j);
		json_ku64(j, "low", kstats_slot_low(s, p->a->frac_bits));
		json_khigh(j, "high", s, p->a->frac_bits);
		json_ku128(j, "a", sd.h[0].count[s]);
		json_ku128(j, "b", sd.h[1].count[s]);
		json_kdelta(j, "delta", sd.h[0].count[s], sd.h[1].count[s]);
		json_obj_end(j);
	}
	json_arr_end(j);
	json_key(j, "stats");
	json_obj(j);
	for (r = 0; r < NR_ROWS; r++) {
		json_key(j, row_name(r));
		json_obj(j);
		for (i = 0; i < sd.nr; i++)
			side_json(j, keys[i], &sd.st[i], r, sd.h[i].frac_bits);
		json_obj_end(j);
	}
	json_obj_end(j);
	json_obj_end(j);
	sides_free(&sd);
}

/* ---- the command ---- */

static void source_line(const char *tag, const struct ks_source *src)
{
	const char *from = src->file ? src->path : "live metrics";
	char when[32], host[KS_TEXT_LEN(sizeof(src->host))];
	char kernel[KS_TEXT_LEN(sizeof(src->kernel))];
	time_t t = (time_t)(src->created_ns / 1000000000);
	size_t len = KS_TEXT_LEN(strlen(from));
	char *path = xcalloc(len, 1);
	struct tm tm;

	localtime_r(&t, &tm);
	strftime(when, sizeof(when), "%Y-%m-%d %H:%M:%S", &tm);
	if (src->hlog)	/* hdr_log.c */
		printf("%s: %s (HdrHistogram log, %zu histograms, up to %s)\n", tag,
		       ks_text(path, len, from), src->hlog_intervals, when);
	else
		printf("%s: %s (%s, kernel %s, %s)\n", tag, ks_text(path, len, from),
		       ks_text(host, sizeof(host), src->host),
		       ks_text(kernel, sizeof(kernel), src->kernel), when);
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

/* The live metrics named in @sa, into @sb; 0 or an exit code. */
static int take_live(int fd, const struct ks_set *sa, struct ks_set *sb)
{
	size_t i;
	int rc;

	ks_source_live(&sb->src, fd);
	sb->m = xcalloc(sa->nr, sizeof(*sb->m));
	for (i = 0; i < sa->nr; i++) {
		rc = ks_snapshot_live(fd, sa->m[i].name, &sb->m[sb->nr], true);
		if (rc < 0)
			continue;
		if (rc)
			return rc;
		sb->nr++;
	}
	return 0;
}

/* Every metric in both: compared, printed; EXIT_NO_INTERVAL if one has none. */
/*
 * The --fail-if conditions that surely hold for @p: printed (text) or
 * added to @j's "fail_if" array; returns how many.
 */
static int fail_ifs(const struct ks_fail_if *conds, size_t nr, const struct pair *p,
		    struct json *j)
{
	char x[128], t[KS_TEXT_LEN(KSTATS_NAME_LEN)];
	struct range va, vb;
	struct sides sd;
	double lo, hi;
	int held = 0;
	size_t c;

	if (!nr || p->cmp == CMP_NONE)
		return 0;
	sides_build(&sd, p);
	for (c = 0; c < nr; c++) {
		row_text(x, sizeof(x), &sd.st[0], conds[c].row, sd.h[0].frac_bits, &va);
		row_text(x, sizeof(x), &sd.st[sd.nr - 1], conds[c].row,
			 sd.h[sd.nr - 1].frac_bits, &vb);
		if (!change_range(va, vb, &lo, &hi) || !ks_fail_if_holds(&conds[c], lo, hi))
			continue;
		held++;
		if (j) {
			json_obj(j);
			json_kstr(j, "name", p->a->name);
			json_kstr(j, "condition", conds[c].text);
			json_kdbl(j, "change_low", lo);
			json_kdbl(j, "change_high", hi);
			json_obj_end(j);
		} else {
			printf("fail-if: %s: %s changed %+.1f..%+.1f%%, past '%s'\n",
			       ks_text(t, sizeof(t), p->a->name), row_name(conds[c].row),
			       lo, hi, conds[c].text);
		}
	}
	sides_free(&sd);
	return held;
}

/*
 * Calls @fn on each metric of A picked and in B, classified; sums what it
 * returns.
 */
static int each_pair(const struct diff_args *a, const struct ks_set *sa,
		     const struct ks_set *sb,
		     int (*fn)(const struct pair *p, const void *ctx, struct json *j),
		     const void *ctx, struct json *j)
{
	struct pair p;
	int sum = 0;
	size_t i;

	for (i = 0; i < sa->nr; i++) {
		memset(&p, 0, sizeof(p));
		p.a = &sa->m[i];
		p.b = ks_set_find(sb, sa->m[i].name);
		if (!p.b || !picked(a, p.a->name))
			continue;
		classify(&p, &sa->src, &sb->src, a->cumulative);
		sum += fn(&p, ctx, j);
		ks_metric_free(&p.iv);
	}
	return sum;
}

/* Shows one comparison; 1 when it has no interval. */
static int show_pair(const struct pair *p, const void *ctx, struct json *j)
{
	(void)ctx;
	if (j) {
		diff_json(j, p);
	} else {
		putchar('\n');
		diff_text(p);
	}
	return p->cmp == CMP_NONE;
}

static int compare(const struct diff_args *a, const struct ks_set *sa,
		   const struct ks_set *sb, struct json *j)
{
	return each_pair(a, sa, sb, show_pair, NULL, j) ? EXIT_NO_INTERVAL : 0;
}

struct conds {
	const struct ks_fail_if *v;
	size_t nr;
};

static int pair_conds(const struct pair *p, const void *ctx, struct json *j)
{
	const struct conds *c = ctx;

	return fail_ifs(c->v, c->nr, p, j);
}

/* Every condition on every metric compared; how many held. */
static int check_conds(const struct diff_args *a, const struct ks_fail_if *conds,
		       const struct ks_set *sa, const struct ks_set *sb, struct json *j)
{
	struct conds c = { conds, a->nr_conds };
	int held;

	if (j) {
		json_key(j, "fail_if");
		json_arr(j);
	}
	held = each_pair(a, sa, sb, pair_conds, &c, j);
	if (j)
		json_arr_end(j);
	return held;
}

/* The names picked in @x but not in @y (none unless @list). */
static void only_in(const struct diff_args *a, const struct ks_set *x,
		    const struct ks_set *y, const char *tag, bool list, struct json *j)
{
	size_t i;

	if (j) {
		json_key(j, tag[0] == 'A' ? "only_a" : "only_b");
		json_arr(j);
	}
	for (i = 0; list && i < x->nr; i++) {
		char t[KS_TEXT_LEN(KSTATS_NAME_LEN)];

		if (ks_set_find(y, x->m[i].name) || !picked(a, x->m[i].name))
			continue;
		if (j)
			json_str(j, x->m[i].name);
		else
			printf("\nonly in %s: %s\n", tag, ks_text(t, sizeof(t), x->m[i].name));
	}
	if (j)
		json_arr_end(j);
}

int cmd_diff(int argc, char **argv)
{
	struct diff_args a = { 0 };
	struct ks_set sa = { 0 }, sb = { 0 };
	struct ks_fail_if *conds = NULL;
	struct json *j = NULL;
	int rc, done, fd = -1;
	size_t i;

	rc = ks_parse(&diff_argp, argc, argv, &a, &done);
	if (rc || done)
		goto out;
	/* After every option: a percentile may come from --percentiles. */
	conds = xcalloc(a.nr_conds, sizeof(*conds));
	for (i = 0; i < a.nr_conds; i++)
		if ((rc = ks_fail_if_parse(a.conds[i], &conds[i])))
			goto out;
	if (!a.file[0]) {
		rc = ks_usage("diff needs a snapshot file: 'diff A [B]'");
		goto out;
	}
	for (i = 0; i < a.nr; i++)
		if ((rc = ks_name_valid(a.names[i])))
			goto out;
	rc = ks_snapfile_read(a.file[0], &sa);
	if (rc)
		goto out;
	for (i = 0; i < a.nr; i++)
		if (!ks_set_find(&sa, a.names[i])) {
			rc = ks_fail(EXIT_RUNTIME, NULL, "%s: no metric %s in it",
				     a.file[0], a.names[i]);
			goto out;
		}
	if (a.file[1]) {
		rc = ks_snapfile_read(a.file[1], &sb);
	} else {
		fd = ks_dev_open();
		rc = fd < 0 ? EXIT_RUNTIME : take_live(fd, &sa, &sb);
	}
	if (rc)
		goto out;
	if (opts.json) {
		j = json_doc("diff");
		json_kbool(j, "cumulative", a.cumulative);
		side_obj(j, "a", &sa.src);
		side_obj(j, "b", &sb.src);
		json_key(j, "metrics");
		json_arr(j);
	} else {
		source_line("A", &sa.src);
		source_line("B", &sb.src);
	}
	rc = compare(&a, &sa, &sb, j);
	if (j)
		json_arr_end(j);
	only_in(&a, &sa, &sb, "A", true, j);
	/* Live, B is read for A's names only; with -m, only those count. */
	only_in(&a, &sb, &sa, "B", a.file[1] && !a.nr, j);
	if (a.nr_conds && check_conds(&a, conds, &sa, &sb, j))
		rc = EXIT_FAIL_IF;
	if (j) {
		json_obj_end(j);
		json_end(j);
	}
out:
	if (fd >= 0)
		close(fd);
	ks_set_free(&sa);
	ks_set_free(&sb);
	free(a.names);
	free(a.conds);
	free(conds);
	return rc;
}

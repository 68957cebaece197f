// SPDX-License-Identifier: GPL-2.0
/*
 * kstatsctl summary [NAME...] [-i FILE | --interval SECONDS [--count N]]
 *                   [-f FORMAT]
 *
 * One line per metric, sorted by name: count, rate, mean, the percentiles
 * shown (p50 and p99 unless --percentiles), max, and a trace's hits and
 * misses (and, from the module, the faults and rejected calls of a trace
 * with --value or --if); as a table, CSV or JSON. The rate needs a time span: with
 * --interval, two snapshots SECONDS apart, and every figure is then of the
 * samples recorded in between; without, the rate is unknown ("-", null).
 *
 * As honest as show: a percentile with fewer than KS_PCT_MIN_BEYOND samples
 * beyond it is marked "*" (with show's footnote; in CSV, pNN_supported
 * false), and the max, known only to its slot, is given as below the
 * slot's end ("<1.024us", rounded up), so that it is never below the mean
 * or a percentile; the ± column is that of the mean and the percentiles.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "kstatsctl.h"
#include "device.h"
#include "fmt.h"
#include "hdr.h"
#include "json.h"
#include "keys.h"
#include "model.h"
#include "names.h"
#include "snapfile.h"
#include "stats.h"
#include "text.h"
#include "units.h"

enum sum_format { SUM_TABLE, SUM_CSV, SUM_JSON };

struct summary_args {
	struct ks_names pats;
	const char *input;
	double interval;
	long count;
	enum sum_format format;
	bool format_set;
};

enum { OPT_INTERVAL = 0x400, OPT_COUNT };

static const struct argp_child children[] = {
	{ &ks_global_argp, 0, NULL, 0 },
	{ 0 }
};

static const struct argp_option summary_options[] = {
	{ "input", 'i', "FILE", 0, "Read a snapshot file instead of the live metrics", 0 },
	{ "interval", 'w', "SECONDS", 0, "What was recorded over SECONDS, "
	  "with the rate", 0 },
	{ "count", OPT_COUNT, "N", 0, "With --interval: N intervals, a table each "
	  "(default 1)", 0 },
	{ "format", 'f', "FORMAT", 0, "table (default), csv or json", 0 },
	{ 0 }
};

static error_t summary_parse(int key, char *arg, struct argp_state *state)
{
	struct summary_args *a = state->input;

	switch (key) {
	case 'i':
		a->input = arg;
		break;
	case 'w':
		return ks_parse_seconds("--interval", arg, 0.01, 86400, &a->interval);
	case OPT_COUNT:
		return ks_parse_count("--count", arg, &a->count);
	case 'f':
		if (!strcmp(arg, "table")) {
			a->format = SUM_TABLE;
		} else if (!strcmp(arg, "csv")) {
			a->format = SUM_CSV;
		} else if (!strcmp(arg, "json")) {
			a->format = SUM_JSON;
		} else {
			ks_usage("--format: '%s' is not table, csv or json", arg);
			return EINVAL;
		}
		a->format_set = true;
		break;
	case ARGP_KEY_ARG:
		if (ks_names_add(&a->pats, arg))
			return EINVAL;
		break;
	default:
		return ARGP_ERR_UNKNOWN;
	}
	return 0;
}

const struct argp summary_argp = {
	summary_options, summary_parse, "[NAME...] [-i FILE | --interval SECONDS [--count N]]",
	"One line per metric (all, or those matching a shell-style NAME): count, "
	"rate, mean, p50, p99 (or --percentiles), max, hits and misses.",
	children, NULL, NULL
};

static int by_name(const void *x, const void *y)
{
	return strcmp(((const struct ks_metric *)x)->name, ((const struct ks_metric *)y)->name);
}

static bool is_trace(const struct ks_metric *m)
{
	return ks_metric_is_trace_own(m);
}

/* A trace whose faults and rejected calls are known and say something. */
static bool has_expr(const struct ks_metric *m)
{
	return is_trace(m) && m->expr_known &&
	       (ks_metric_is_value(m) || m->faults || m->rejected);
}

/* The max as it is known: exact, or below the end of its slot. */
static char *max_text(char *buf, size_t len, const struct ks_est *e, uint32_t frac_bits,
		      enum ks_unit u)
{
	char v[64];

	if (e->slot < 0)
		snprintf(buf, len, "-");
	else if (e->low == e->last)
		ks_fmt_int(buf, len, e->low, u);
	else
		snprintf(buf, len, "<%s", ks_fmt_up(v, sizeof(v),
			 kstats_slot_high((uint32_t)e->slot, frac_bits), u));
	return buf;
}

/* A cell without its unit's name: the header says it ("p50(ms)"). */
static const char *bare(char *v, enum ks_unit u, bool strip)
{
	size_t n = strlen(v), k = strlen(ks_unit_name(u));

	if (strip && n > k && !strcmp(v + n - k, ks_unit_name(u)))
		v[n - k] = '\0';
	return v;
}

/*
 * The table's row for @m: each estimate as a value alone, and one ± for
 * the row, the widest of their bounds, so that it fits 80 columns. *@few:
 * a percentile was marked. @strip: the header names the unit.
 */
static void line_table(struct ks_table *t, const struct ks_metric *m, double secs,
		       bool traces, bool exprs, bool *few, bool strip)
{
	enum ks_unit u = ks_metric_unit(m, opts.units);
	char v[64], cell[72];
	struct ks_stats st;

	strip &= u == opts.units;	/* a plain number keeps what it prints */
	struct ks_hist h;
	double err, worst = 0;
	size_t i;

	ks_hist_build(&h, m, -1);
	ks_hist_stats(&h, &st);
	ks_table_add(t, ks_metric_label(v, sizeof(v), m->name));
	ks_table_add(t, ks_fmt_u128(v, sizeof(v), st.count));
	if (secs > 0) {
		snprintf(v, sizeof(v), "%.4g", (double)st.count / secs);
		ks_table_add(t, v);
	}
	ks_table_add(t, st.count ? bare(ks_fmt_mean_value(v, sizeof(v), &st, u, &err), u,
					 strip) : "-");
	worst = st.count ? err : 0;
	for (i = 0; i < ks_nr_pcts; i++) {
		bare(ks_fmt_est_value(v, sizeof(v), &st.pct[i], u, &err), u, strip);
		snprintf(cell, sizeof(cell), "%s%s", v, ks_pct_mark(&st.pct[i]));
		ks_table_add(t, cell);
		worst = err > worst ? err : worst;
	}
	*few |= ks_pct_few(&st);
	ks_table_add(t, bare(max_text(v, sizeof(v), &st.max, h.frac_bits, u), u, strip));
	ks_table_add(t, st.count ? ks_fmt_err(v, sizeof(v), worst) : "-");
	if (traces) {
		snprintf(v, sizeof(v), "-");
		if (is_trace(m))
			snprintf(v, sizeof(v), "%llu/%llu", (unsigned long long)m->hits,
				 (unsigned long long)m->misses);
		ks_table_add(t, v);
	}
	if (exprs) {
		snprintf(v, sizeof(v), "-");
		if (has_expr(m))
			snprintf(v, sizeof(v), "%llu/%llu", (unsigned long long)m->faults,
				 (unsigned long long)m->rejected);
		ks_table_add(t, v);
	}
	ks_hist_free(&h);
}

/*
 * A number in @u, or nothing when unknown (CSV): the shortest decimal that
 * reads back as the double computed (9.95, not 9.9499999999999993).
 */
static void csv_num(double v, bool known, enum ks_unit u)
{
	char num[40];

	if (known)
		printf(",%s", ks_fmt_shortest(num, sizeof(num), v / ks_unit_scale(u)));
	else
		fputs(",", stdout);
}

static void line_csv(const struct ks_metric *m, double secs)
{
	/* --units, ns when auto: one unit down a column for programs. */
	enum ks_unit u = ks_metric_unit(m, opts.units == UNIT_AUTO ? UNIT_NS : opts.units);
	char n[48];
	struct ks_stats st;
	struct ks_hist h;
	size_t i;

	ks_hist_build(&h, m, -1);
	ks_hist_stats(&h, &st);
	/* Names are [A-Za-z0-9_.:-] from the kernel; a file's are quoted. */
	printf("\"");
	for (i = 0; m->name[i]; i++)
		printf(m->name[i] == '"' ? "\"\"" : "%c", m->name[i]);
	printf("\",%s,%s", ks_kind_name(m->kind), ks_fmt_u128(n, sizeof(n), st.count));
	csv_num((double)st.count / secs, secs > 0, UNIT_NONE);
	csv_num(st.mean, st.count, u);
	for (i = 0; i < ks_nr_pcts; i++) {
		csv_num(st.pct[i].value, st.count, u);
		csv_num(st.pct[i].err, st.count, UNIT_NONE);
		printf(",%s", !st.count ? "" : st.pct[i].supported ? "true" : "false");
	}
	csv_num((double)st.max.low, st.count, u);
	csv_num((double)st.max.last + 1, st.count, u);
	csv_num((double)m->hits, is_trace(m), UNIT_NONE);
	csv_num((double)m->misses, is_trace(m), UNIT_NONE);
	printf(",%s\n", ks_unit_name(u));
	ks_hist_free(&h);
}

static void obj_json(struct json *j, const struct ks_metric *m, double secs)
{
	struct ks_stats st;
	struct ks_hist h;
	size_t i;

	ks_hist_build(&h, m, -1);
	ks_hist_stats(&h, &st);
	json_obj(j);
	json_kstr(j, "name", m->name);
	json_kstr(j, "kind", ks_kind_name(m->kind));
	json_key(j, "unit");
	if (ks_metric_is_ns(m))
		json_str(j, "ns");
	else
		json_null(j);
	json_ku128(j, "count", st.count);
	json_key(j, "rate_per_s");	/* as CSV spells it */
	if (secs > 0)
		json_dbl(j, (double)st.count / secs);
	else
		json_null(j);
	json_key(j, "mean");
	if (st.count)
		json_dbl(j, st.mean);
	else
		json_null(j);
	json_key(j, "percentiles");
	json_arr(j);
	for (i = 0; st.count && i < ks_nr_pcts; i++) {
		json_obj(j);
		json_kdbl(j, "p", ks_pcts[i] * 100);
		fmt_json_est(j, &st.pct[i], h.frac_bits, false);
		json_obj_end(j);
	}
	json_arr_end(j);
	fmt_json_kest(j, "max", &st.max, h.frac_bits, true);
	json_key(j, "hits");
	if (is_trace(m))
		json_u64(j, m->hits);
	else
		json_null(j);
	json_key(j, "misses");
	if (is_trace(m))
		json_u64(j, m->misses);
	else
		json_null(j);
	json_key(j, "faults");
	if (is_trace(m) && m->expr_known)
		json_u64(j, m->faults);
	else
		json_null(j);
	json_key(j, "rejected");
	if (is_trace(m) && m->expr_known)
		json_u64(j, m->rejected);
	else
		json_null(j);
	json_obj_end(j);
	ks_hist_free(&h);
}

/* A column's header, with the unit of its cells when they do not say it. */
static void head(struct ks_table *t, const char *name, const char *unit)
{
	char h[48];

	snprintf(h, sizeof(h), "%.32s%.8s", name, unit);
	ks_table_add(t, h);
}

static void print_summary(const struct summary_args *a, struct ks_metric *m, size_t nr,
			  double secs)
{
	char align[KS_MAX_PCT + 16], pcts[KS_MAX_PCT + 1] = "", unit[8];
	struct ks_table t;
	bool traces = false, exprs = false, few = false, strip, unit_col;
	size_t i, unitless = 0;
	struct json *j;

	qsort(m, nr, sizeof(*m), by_name);
	if (a->format == SUM_JSON) {
		j = json_doc("summary");
		json_key(j, "interval_ns");	/* a time: ns, as every other */
		if (secs > 0)
			json_dbl(j, round(secs * 1e9));
		else
			json_null(j);
		json_key(j, "metrics");
		json_arr(j);
		for (i = 0; i < nr; i++)
			obj_json(j, &m[i], secs);
		json_arr_end(j);
		json_obj_end(j);
		json_end(j);
		return;
	}
	if (a->format == SUM_CSV) {
		printf("name,kind,count,rate_per_s,mean");
		for (i = 0; i < ks_nr_pcts; i++)
			printf(",%s,%s_err,%s_supported", ks_pct_names[i], ks_pct_names[i],
			       ks_pct_names[i]);
		printf(",max_low,max_high,hits,misses,unit\n");
		for (i = 0; i < nr; i++)
			line_csv(&m[i], secs);
		return;
	}
	if (!nr) {
		printf("no metrics\n");
		return;
	}
	memset(pcts, 'r', ks_nr_pcts);
	for (i = 0; i < nr; i++) {
		traces |= is_trace(&m[i]);
		exprs |= has_expr(&m[i]);
	}
	/* RATE/S with a time span, HITS/MISSES with a trace: columns that say something. */
	snprintf(align, sizeof(align), "lr%sr%srr%s%s", secs > 0 ? "r" : "", pcts,
		 traces ? "r" : "", exprs ? "r" : "");
	/*
	 * --units ms on time metrics alone: the unit once, in the header, not
	 * in every cell ("0.008684ms" pushed each name onto a line of its own).
	 */
	strip = opts.units_set && opts.units != UNIT_AUTO && opts.units != UNIT_NONE;
	for (i = 0; i < nr; i++)
		unitless += ks_metric_unit(&m[i], opts.units) != opts.units;
	/*
	 * Time metrics beside plain numbers: a UNIT column says which rows are
	 * in ms (bare cells, as above) and which have no unit ("-"), so that
	 * the header claims no unit for a row without one.
	 */
	unit_col = strip && unitless && unitless < nr;
	strip &= unitless < nr;
	snprintf(unit, sizeof(unit), "(%s)", strip && !unit_col ? ks_unit_name(opts.units) : "");
	if (!strip || unit_col)
		unit[0] = '\0';
	if (unit_col)
		strcat(align, "l");
	ks_table_init(&t, align);
	ks_table_add(&t, "NAME");
	ks_table_add(&t, "COUNT");
	if (secs > 0)
		ks_table_add(&t, "RATE/S");
	head(&t, "MEAN", unit);
	for (i = 0; i < ks_nr_pcts; i++)
		head(&t, ks_pct_names[i], unit);
	head(&t, "MAX", unit);
	ks_table_add(&t, "±");
	if (traces)
		ks_table_add(&t, "HIT/MISS");
	if (exprs)
		ks_table_add(&t, "FAULT/REJ");
	if (unit_col)
		ks_table_add(&t, "UNIT");
	for (i = 0; i < nr; i++) {
		line_table(&t, &m[i], secs, traces, exprs, &few, strip);
		if (unit_col)
			ks_table_add(&t, ks_metric_unit(&m[i], opts.units) == opts.units ?
				     ks_unit_name(opts.units) : "-");
	}
	ks_table_print(stdout, &t, ks_out_width(stdout));
	ks_table_free(&t);
	if (few)
		ks_pct_footnote(stdout);
}

/* B - A for every metric of B, into @d (a metric new in B: all of it). */
static void interval(const struct ks_set *sa, const struct ks_set *sb, struct ks_set *d)
{
	size_t i;

	d->m = xcalloc(sb->nr, sizeof(*d->m));
	d->nr = sb->nr;
	for (i = 0; i < sb->nr; i++)
		ks_metric_since(ks_set_find(sa, sb->m[i].name), &sb->m[i], &d->m[i]);
}

int cmd_summary(int argc, char **argv)
{
	struct summary_args a = { 0 };
	struct ks_set sa = { 0 }, sb = { 0 }, d = { 0 };
	struct timespec next;
	double secs;
	int rc, done, fd = -1;
	long n;

	rc = ks_parse(&summary_argp, argc, argv, &a, &done);
	if (rc || done)
		goto out;
	if (!a.format_set && opts.json)
		a.format = SUM_JSON;
	if (!ks_pcts_set)	/* a summary's own default */
		ks_pcts_parse("50,99");
	rc = EXIT_USAGE;
	if (a.count && !a.interval) {
		ks_usage("--count goes with --interval");
		goto out;
	}
	if (!a.count)
		a.count = 1;	/* a summary: one interval's rates, unless asked */
	if (a.input && a.interval) {
		ks_usage("--interval reads the live metrics, not a file");
		goto out;
	}
	if (a.input) {
		ks_hlog_select(&a.pats);	/* a log's other tags: not decoded */
		rc = ks_snapfile_read(a.input, &sb);
		if (rc)
			goto out;
		rc = ks_set_check(&sb, &a.pats, a.input);
		if (rc)
			goto out;
		ks_set_keep(&sb, &a.pats);
		print_summary(&a, sb.m, sb.nr, 0);
		goto out;
	}
	rc = EXIT_RUNTIME;
	fd = ks_dev_open();
	if (fd < 0)
		goto out;
	if (!a.interval) {
		rc = ks_take_matching(fd, &a.pats, &sb);
		if (!rc)
			print_summary(&a, sb.m, sb.nr, 0);
		goto out;
	}
	/* --interval: each table of what the interval recorded, --count times. */
	rc = ks_take_matching(fd, &a.pats, &sa);
	clock_gettime(CLOCK_MONOTONIC, &next);
	for (n = 0; !rc && (!a.count || n < a.count); n++) {
		ks_sleep_until(&next, a.interval);
		rc = ks_take_matching(fd, &a.pats, &sb);
		if (rc)
			break;
		/* The time between the two copies, as the kernel took them. */
		secs = a.interval;
		if (sa.nr && sb.nr && sb.m[0].time_ns > sa.m[0].time_ns)
			secs = (double)(sb.m[0].time_ns - sa.m[0].time_ns) / 1e9;
		interval(&sa, &sb, &d);
		print_summary(&a, d.m, d.nr, secs);
		ks_set_free(&d);
		ks_set_free(&sa);
		sa = sb;
		memset(&sb, 0, sizeof(sb));
		if (a.count != 1 && fflush(stdout))
			break;
	}
out:
	if (fd >= 0)
		close(fd);
	ks_set_free(&sa);
	ks_set_free(&sb);
	free(a.pats.v);
	return rc;
}

// SPDX-License-Identifier: GPL-2.0
/*
 * kstatsctl diff A [B] [-m NAME]...
 *
 * Compares two snapshot files, or a file with the live metrics when B is
 * left out: per slot, A's count, B's count and the change; then count,
 * mean, min, max and the percentiles of both, with the shift. Metrics are
 * matched by name (every metric of A unless -m picks some).
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
};

static const struct argp_child children[] = {
	{ &ks_global_argp, 0, "Global options:", 1 },
	{ 0 }
};

static const struct argp_option diff_options[] = {
	{ "metric", 'm', "NAME", 0, "Only this metric (repeatable)", 0 },
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
	"is left out: per-slot counts and their change, and how the mean and "
	"percentiles shifted.",
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

static char *change(char *buf, size_t len, double a, double b)
{
	if (isnan(a) || isnan(b))
		snprintf(buf, len, "-");
	else if (a == 0)
		snprintf(buf, len, b == 0 ? "0%%" : "new");
	else
		snprintf(buf, len, "%+.1f%%", (b - a) / a * 100);
	return buf;
}

struct stat_row {
	const char *name;
	double a, b;
	bool time;	/* a value in ns (else a count) */
};

static size_t stat_rows(const struct ks_hist *ha, const struct ks_hist *hb,
			struct stat_row *rows)
{
	struct ks_stats sa, sb;
	size_t n = 0;
	int i;

	ks_hist_stats(ha, &sa);
	ks_hist_stats(hb, &sb);
	rows[n++] = (struct stat_row){ "count", (double)sa.count, (double)sb.count, false };
	rows[n++] = (struct stat_row){ "mean", sa.mean, sb.mean, true };
	rows[n++] = (struct stat_row){ "min", sa.min, sb.min, true };
	rows[n++] = (struct stat_row){ "max", sa.max, sb.max, true };
	for (i = 0; i < KS_NR_PCT; i++)
		rows[n++] = (struct stat_row){ ks_pct_names[i], sa.pct[i], sb.pct[i], true };
	return n;
}

static void diff_text(const struct ks_metric *ma, const struct ks_metric *mb)
{
	struct ks_hist ha, hb;
	struct stat_row rows[4 + KS_NR_PCT];
	char lo[48], hi[48], label[112], x[48], y[48], c[32];
	uint32_t s, from, to;
	size_t n, i;

	ks_hist_build(&ha, ma, -1);
	ks_hist_build(&hb, mb, -1);
	printf("%s%s%s: frac_bits %u", ks_color(opts.color_out, C_BOLD), ma->name,
	       ks_color(opts.color_out, C_RESET), ma->frac_bits);
	if (ma->frac_bits != mb->frac_bits)
		printf(" in A, %u in B: no per-slot comparison", mb->frac_bits);
	putchar('\n');
	if (ma->frac_bits == mb->frac_bits && (ha.total || hb.total)) {
		from = ha.total && (!hb.total || ha.first < hb.first) ? ha.first : hb.first;
		to = ha.total && (!hb.total || ha.last > hb.last) ? ha.last : hb.last;
		printf("%-28s %12s %12s %12s\n", "slot", "A", "B", "change");
		for (s = from; s <= to; s++) {
			if (!ha.count[s] && !hb.count[s])
				continue;
			snprintf(label, sizeof(label), "[%s, %s)",
				 ks_fmt_int(lo, sizeof(lo), kstats_slot_low(s, ma->frac_bits),
					    opts.units),
				 ks_fmt_dbl(hi, sizeof(hi), kstats_slot_high(s, ma->frac_bits),
					    opts.units));
			printf("%-28s %12llu %12llu %+12lld\n", label,
			       (unsigned long long)ha.count[s], (unsigned long long)hb.count[s],
			       (long long)(hb.count[s] - ha.count[s]));
		}
	}
	n = stat_rows(&ha, &hb, rows);
	printf("%-10s %14s %14s %10s\n", "", "A", "B", "change");
	for (i = 0; i < n; i++) {
		if (rows[i].time) {
			ks_fmt_dbl(x, sizeof(x), rows[i].a, opts.units);
			ks_fmt_dbl(y, sizeof(y), rows[i].b, opts.units);
		} else {
			snprintf(x, sizeof(x), "%.0f", rows[i].a);
			snprintf(y, sizeof(y), "%.0f", rows[i].b);
		}
		printf("%-10s %14s %14s %10s\n", rows[i].name, x, y,
		       change(c, sizeof(c), rows[i].a, rows[i].b));
	}
	ks_hist_free(&ha);
	ks_hist_free(&hb);
}

static void diff_json(struct json *j, const struct ks_metric *ma,
		      const struct ks_metric *mb)
{
	struct ks_hist ha, hb;
	struct stat_row rows[4 + KS_NR_PCT];
	uint32_t s;
	size_t n, i;

	ks_hist_build(&ha, ma, -1);
	ks_hist_build(&hb, mb, -1);
	json_obj(j);
	json_kstr(j, "name", ma->name);
	json_ku64(j, "frac_bits_a", ma->frac_bits);
	json_ku64(j, "frac_bits_b", mb->frac_bits);
	json_key(j, "buckets");
	json_arr(j);
	for (s = 0; ma->frac_bits == mb->frac_bits && s < ha.nslots; s++) {
		uint64_t last = kstats_slot_last(s, ma->frac_bits);

		if (!ha.count[s] && !hb.count[s])
			continue;
		json_obj(j);
		json_ku64(j, "low", kstats_slot_low(s, ma->frac_bits));
		if (last == UINT64_MAX)
			json_kdbl(j, "high", kstats_slot_high(s, ma->frac_bits));
		else
			json_ku64(j, "high", last + 1);
		json_ku64(j, "a", ha.count[s]);
		json_ku64(j, "b", hb.count[s]);
		json_ki64(j, "delta", (int64_t)(hb.count[s] - ha.count[s]));
		json_obj_end(j);
	}
	json_arr_end(j);
	json_key(j, "stats");
	json_obj(j);
	n = stat_rows(&ha, &hb, rows);
	for (i = 0; i < n; i++) {
		json_key(j, rows[i].name);
		json_obj(j);
		json_kdbl(j, "a", rows[i].a);
		json_kdbl(j, "b", rows[i].b);
		json_obj_end(j);
	}
	json_obj_end(j);
	json_obj_end(j);
	ks_hist_free(&ha);
	ks_hist_free(&hb);
}

static void source_line(const char *tag, const struct ks_source *src)
{
	char when[32];
	time_t t = (time_t)(src->created_ns / 1000000000);
	struct tm tm;

	localtime_r(&t, &tm);
	strftime(when, sizeof(when), "%Y-%m-%d %H:%M:%S", &tm);
	printf("%s: %s (%s, kernel %s, %s)\n", tag,
	       src->file ? src->path : "live metrics", src->host, src->kernel, when);
}

int cmd_diff(int argc, char **argv)
{
	struct diff_args a = { { NULL, NULL }, NULL, 0 };
	struct ks_set sa = { 0 }, sb = { 0 };
	struct json *j = NULL;
	int rc, done, fd = -1;
	size_t i;

	rc = ks_parse(&diff_argp, argc, argv, &a, &done);
	if (rc || done)
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
		if (rc)
			goto out;
	} else {
		fd = ks_dev_open();
		if (fd < 0) {
			rc = EXIT_RUNTIME;
			goto out;
		}
		ks_source_live(&sb.src, fd);
		sb.m = xcalloc(sa.nr, sizeof(*sb.m));
		for (i = 0; i < sa.nr; i++) {
			rc = ks_snapshot_live(fd, sa.m[i].name, &sb.m[sb.nr], true);
			if (rc < 0)
				continue;
			if (rc)
				goto out;
			sb.nr++;
		}
		rc = 0;
	}
	if (opts.json) {
		j = json_doc("diff");
		json_key(j, "a");
		json_obj(j);
		json_kstr(j, "type", "file");
		json_kstr(j, "path", a.file[0]);
		json_kstr(j, "host", sa.src.host);
		json_ku64(j, "created_ns", sa.src.created_ns);
		json_obj_end(j);
		json_key(j, "b");
		json_obj(j);
		json_kstr(j, "type", a.file[1] ? "file" : "live");
		if (a.file[1])
			json_kstr(j, "path", a.file[1]);
		json_kstr(j, "host", sb.src.host);
		json_ku64(j, "created_ns", sb.src.created_ns);
		json_obj_end(j);
		json_key(j, "metrics");
		json_arr(j);
	} else {
		source_line("A", &sa.src);
		source_line("B", &sb.src);
	}
	for (i = 0; i < sa.nr; i++) {
		struct ks_metric *mb = ks_set_find(&sb, sa.m[i].name);

		if (!mb || !picked(&a, sa.m[i].name))
			continue;
		if (j) {
			diff_json(j, &sa.m[i], mb);
		} else {
			putchar('\n');
			diff_text(&sa.m[i], mb);
		}
	}
	if (j) {
		json_arr_end(j);
		json_key(j, "only_a");
		json_arr(j);
	}
	for (i = 0; i < sa.nr; i++)
		if (!ks_set_find(&sb, sa.m[i].name) && picked(&a, sa.m[i].name)) {
			if (j)
				json_str(j, sa.m[i].name);
			else
				printf("\nonly in A: %s\n", sa.m[i].name);
		}
	if (j) {
		json_arr_end(j);
		json_key(j, "only_b");
		json_arr(j);
	}
	for (i = 0; a.file[1] && !a.nr && i < sb.nr; i++)
		if (!ks_set_find(&sa, sb.m[i].name)) {
			if (j)
				json_str(j, sb.m[i].name);
			else
				printf("\nonly in B: %s\n", sb.m[i].name);
		}
	if (j) {
		json_arr_end(j);
		json_obj_end(j);
		json_end(j);
	}
out:
	if (fd >= 0)
		close(fd);
	ks_set_free(&sa);
	ks_set_free(&sb);
	free(a.names);
	return rc;
}

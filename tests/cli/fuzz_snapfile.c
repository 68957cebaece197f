// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target: the snapshot file reader, then every formatter on what
 * it accepted and on its difference with itself (an empty interval, never
 * a reset), 'outliers' (table, JSON) on its traces' outlier entries and
 * every plot (SVG), then a write and re-read of it (which must succeed and
 * give the same bytes). A malformed file must give an error, never a crash, an
 * out-of-bounds access or undefined behaviour (ASan, UBSan).
 *
 * Each input is read twice: as it is, which reaches the checks of a whole
 * file (truncation, checksum) and version 1's parser; then, when it is of
 * version 2, with its length and checksum made right (ks_snapfile_seal(),
 * as the writer does), since almost every mutation breaks the checksum and
 * would stop there, short of the parser and the formatters.
 *
 * Whatever the strings in the file, all that the formatters print must be
 * valid UTF-8 without a control character but tab and newline (text.c).
 *
 *   make -C cli fuzz     (FUZZ_SECONDS=60)
 */
#include <stdlib.h>
#include <string.h>

#include "kstatsctl.h"
#include "fmt.h"
#include "json.h"
#include "model.h"
#include "outliers.h"
#include "plot.h"
#include "snapfile.h"
#include "stats.h"
#include "text.h"

/* All of @p is UTF-8, without a control character but tab and newline. */
static void check_text(const char *p, size_t len)
{
	size_t i, k;

	for (i = 0; i < len; i += k) {
		k = ks_utf8_len(p + i);
		if (!k || (ks_utf8_control(p + i, k) && p[i] != '\n' && p[i] != '\t'))
			abort();
	}
}

/* Every plot of every metric with samples (an empty one is an error). */
static void plot_all(FILE *sink, const struct ks_set *set)
{
	struct ks_plot p = { .width = 400, .height = 300, .share = true };
	struct ks_plot q = { .width = 400, .height = 300, .per_slot = true, .palette = 1 };
	struct ks_plot_interval *iv = calloc(set->nr + 1, sizeof(*iv));
	size_t i, n = 0;

	if (!iv)
		abort();
	for (i = 0; i < set->nr; i++) {
		struct ks_plot_series sr = { "fuzz", &set->m[i] };
		struct ks_hist h;

		ks_hist_build(&h, &set->m[i], -1);
		if (h.total) {
			if (ks_plot_hist(sink, &set->m[i], "fuzz", &p) ||
			    ks_plot_hist(sink, &set->m[i], "fuzz", &q) ||
			    ks_plot_cdf(sink, &sr, 1, &p) || ks_plot_pct(sink, &sr, 1, &p))
				abort();
			iv[n++] = (struct ks_plot_interval){ (double)i, 1, &set->m[i] };
		}
		ks_hist_free(&h);
	}
	if (n && (ks_plot_heatmap(sink, iv, n, &p) || ks_plot_heatmap(sink, iv, n, &q)))
		abort();
	free(iv);
}

static void show_all(FILE *sink, const struct ks_set *set)
{
	static const enum ks_format fmts[] = {
		FMT_HIST, FMT_PERCENTILES, FMT_CDF, FMT_RAW, FMT_CSV, FMT_PROM,
	};
	struct ks_show sh = { .cpu = -1, .src = &set->src, .units = UNIT_AUTO };
	size_t i, f;

	for (i = 0; i < set->nr; i++) {
		for (f = 0; f < ARRAY_SIZE(fmts); f++) {
			sh.format = fmts[f];
			sh.per_cpu = f & 1;
			sh.all_slots = f == 2;
			switch (fmts[f]) {
			case FMT_HIST:
				fmt_hist(sink, &set->m[i], &sh);
				break;
			case FMT_PERCENTILES:
				fmt_percentiles(sink, &set->m[i], &sh);
				break;
			case FMT_CDF:
				fmt_cdf(sink, &set->m[i], &sh);
				break;
			case FMT_RAW:
				fmt_raw(sink, &set->m[i]);
				break;
			case FMT_CSV:
				fmt_csv(sink, &set->m[i], &sh);
				break;
			default:
				fmt_prom(sink, &set->m[i], 1, &sh);
				break;
			}
		}
		{	/* a metric against itself: an empty interval, never a reset */
			struct ks_metric d;
			char why[200];

			ks_metric_delta(&set->m[i], &set->m[i], &d, why, sizeof(why));
			if (d.reset)
				abort();
			fmt_hist(sink, &d, &sh);
			ks_metric_free(&d);
		}
		if (set->m[i].nr_cpus) {
			sh.format = FMT_HIST;
			sh.per_cpu = false;
			sh.cpu = (int)set->m[i].cpus[0].cpu;
			fmt_hist(sink, &set->m[i], &sh);
			sh.cpu = -1;
		}
	}
	plot_all(sink, set);
	{
		struct json *j = json_new(sink, false);

		json_arr(j);
		for (i = 0; i < set->nr; i++)
			fmt_json_metric(j, &set->m[i], &sh);
		for (i = 0; i < set->nr; i++) {
			if (!set->m[i].outl_entries)
				continue;
			json_obj(j);
			fmt_outliers_json(j, set->m[i].name, set->m[i].outl_entries);
			json_obj_end(j);
		}
		json_arr_end(j);
		json_end(j);
	}
	for (i = 0; i < set->nr; i++)
		if (set->m[i].outl_entries)
			fmt_outliers_table(sink, set->m[i].name, set->m[i].outl_entries);
}

static void one(const uint8_t *data, size_t size)
{
	struct ks_set set, again;
	struct ks_snap_why why;
	char *buf = NULL, *buf2 = NULL;
	size_t len = 0, len2 = 0;
	FILE *f;

	if (ks_snapfile_parse(data, size, &set, &why)) {
		if (!why.msg[0] || !why.hint)
			abort();	/* an error always says why, and what to do */
		return;
	}
	f = open_memstream(&buf, &len);
	if (!f)
		abort();
	show_all(f, &set);
	fclose(f);
	check_text(buf, len);
	free(buf);
	buf = NULL;
	f = open_memstream(&buf, &len);
	if (!f || ks_snapfile_write(f, &set, false))
		abort();
	fclose(f);
	if (ks_snapfile_parse(buf, len, &again, &why))
		abort();	/* what we write, we read */
	f = open_memstream(&buf2, &len2);
	if (!f || ks_snapfile_write(f, &again, true))
		abort();
	fclose(f);
	ks_set_free(&again);
	if (ks_snapfile_parse(buf2, len2, &again, &why))
		abort();	/* the other byte order too */
	ks_set_free(&again);
	ks_set_free(&set);
	free(buf);
	free(buf2);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	uint8_t *sealed;

	one(data, size);
	sealed = malloc(size ? size : 1);
	if (!sealed)
		abort();
	memcpy(sealed, data, size);
	ks_snapfile_seal(sealed, size);
	if (memcmp(sealed, data, size))
		one(sealed, size);
	free(sealed);
	return 0;
}

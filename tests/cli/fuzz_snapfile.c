// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target: the snapshot file reader, then every formatter on what
 * it accepted and on its difference with itself (an empty interval, never
 * a reset), then a write and re-read of it (which must succeed and give the
 * same bytes). A malformed file must give an error, never a crash, an
 * out-of-bounds access or undefined behaviour (ASan, UBSan).
 *
 *   make -C cli fuzz     (FUZZ_SECONDS=60)
 */
#include <stdlib.h>
#include <string.h>

#include "kstatsctl.h"

static FILE *sink;

static void show_all(const struct ks_set *set)
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
				fmt_prom(sink, &set->m[i], &sh);
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
	{
		struct json *j = json_new(sink, false);

		json_arr(j);
		for (i = 0; i < set->nr; i++)
			fmt_json_metric(j, &set->m[i], &sh);
		json_arr_end(j);
		json_end(j);
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct ks_set set, again;
	const char *why = NULL;
	char *buf = NULL, *buf2 = NULL;
	size_t len = 0, len2 = 0;
	FILE *f;

	if (!sink)
		sink = fopen("/dev/null", "w");
	if (ks_snapfile_parse(data, size, &set, &why)) {
		if (!why)
			abort();	/* an error always says why */
		return 0;
	}
	show_all(&set);
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
	return 0;
}

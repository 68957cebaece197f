// SPDX-License-Identifier: GPL-2.0
/*
 * gen_snapshots' inputs for the views of a distribution: the percentiles
 * of few samples, the HdrHistogram export and the plots, written through
 * gen_snapshots.c's sample generator (gen_snapshots.h):
 *
 *   DIR/few-a.ksnap, few-b.ksnap, few.samples.json: 400 samples, and
 *       B - A's max an outlier (few());
 *   DIR/hdr.ksnap: a metric per frac_bits, for HdrHistogram (hdr());
 *   DIR/plot-modes.ksnap, plot-cdf-a.ksnap, plot-cdf-b.ksnap: the plots'
 *       inputs (plots());
 *   DIR/plot-modes.hlog: an interval log of them, through the HdrHistogram
 *       writer (heatmap_log())
 */
#include <math.h>

#include "gen_snapshots.h"

/* The samples of @g as a JSON array, for tests that compute from them. */
static void samples_json(FILE *f, const char *key, const struct gen *g)
{
	size_t k;

	fprintf(f, "\"%s\": [", key);
	for (k = 0; k < g->nr_samples; k++)
		fprintf(f, "%s%llu", k ? ", " : "", (unsigned long long)g->samples[k]);
	fputc(']', f);
}

/*
 * Few samples: few.lat holds 400 in A, and B is A plus 400 more of the
 * same spread, but for one 50us outlier, the interval's max: its p99.9 is
 * that max (0 samples beyond it), 12x A's, and must decide nothing.
 * few.reset beside it is reset between A and B. few.samples.json: each
 * sample of few.lat's A and of B - A, for the exact quantiles.
 */
int few(const char *dir)
{
	enum { F_LAT, F_RESET, NR_F };
	static const char *const name[NR_F] = { "few.lat", "few.reset" };
	struct gen g[2][NR_F], iv;
	struct ks_metric m[2][NR_F], ivm;
	char path[4096];
	int pass, i, rc = 0;
	uint32_t k;
	FILE *f;

	gen_init(&iv, &ivm, "few.lat", "kstatsctl", KSTATS_KIND_USER, 3, 1);
	for (pass = 0; pass < 2; pass++) {
		rng = 0x3c6ef372fe94f82bull;
		for (i = 0; i < NR_F; i++)
			gen_init(&g[pass][i], &m[pass][i], name[i], "kstatsctl",
				 KSTATS_KIND_USER, 3, 1);
		for (k = 0; k < 400; k++)
			rec(&g[pass][F_LAT], 0, (uint64_t)(1000 * exp2(2 * uniform())));
		for (k = 0; k < (pass ? 100u : 400u); k++)
			rec(&g[pass][F_RESET], 0, (uint64_t)(2000 * exp2(uniform())));
		for (k = 0; pass && k < 400; k++) {
			uint64_t v = k == 200 ? 50000 : (uint64_t)(1000 * exp2(2 * uniform()));

			rec(&g[pass][F_LAT], 0, v);
			rec(&iv, 0, v);
		}
		for (i = 0; i < NR_F; i++) {
			gen_finish_at(&g[pass][i], pass, 500 + i + (pass && i == F_RESET ? 1000 : 0));
		}
	}
	rc |= write_pair(dir, "few-a.ksnap", "few-b.ksnap", m[0], m[1], NR_F);
	snprintf(path, sizeof(path), "%s/few.samples.json", dir);
	f = fopen(path, "w");
	if (!f)
		return 1;
	fputs("{\"few.lat\": {", f);
	samples_json(f, "a", &g[0][F_LAT]);
	fputs(", ", f);
	samples_json(f, "interval", &iv);
	fputs("}}\n", f);
	rc |= fclose(f) != 0;
	for (pass = 0; pass < 2; pass++)
		for (i = 0; i < NR_F; i++) {
			gen_free(&g[pass][i]);
			ks_metric_free(&m[pass][i]);
		}
	gen_free(&iv);
	ks_metric_free(&ivm);
	return rc;
}

/*
 * hdr.ksnap: hdr.b0 .. hdr.b5, one metric per frac_bits, for the
 * HdrHistogram checks: every value 0..99 once (the exact slots and the
 * first widths), then a latency body with a tail up to ~10 ms.
 */
int hdr(const char *dir)
{
	struct ks_metric m[KSTATS_FRAC_BITS_MAX + 1];
	struct gen g[KSTATS_FRAC_BITS_MAX + 1];
	struct ks_set set;
	char name[32];
	uint32_t b, k;
	int rc;

	for (b = 0; b <= KSTATS_FRAC_BITS_MAX; b++) {
		rng = 0x6a09e667f3bcc908ull + b;
		snprintf(name, sizeof(name), "hdr.b%u", b);
		gen_init(&g[b], &m[b], name, "kstatsctl", KSTATS_KIND_USER, b, 2);
		for (k = 0; k < 100; k++)
			rec(&g[b], k % 2, k);
		for (k = 0; k < 5000; k++)
			rec(&g[b], k % 2, latency(700, 5));
		gen_finish(&g[b]);
	}
	source(&set.src);
	set.m = m;
	set.nr = ARRAY_SIZE(m);
	rc = write_set(dir, "hdr.ksnap", &set, false);
	for (b = 0; b <= KSTATS_FRAC_BITS_MAX; b++) {
		gen_free(&g[b]);
		ks_metric_free(&m[b]);
	}
	return rc;
}

/*
 * The plots' inputs, each with a shape a test can look for in the
 * picture. plot-modes.ksnap: modes.two, 3000 samples around 2 us (1800 of
 * them in [1950, 2050], inside the slot [1920, 2048) of frac_bits 3) and
 * 600 around 500 us: hist's tallest bar is that slot. plot-cdf-a.ksnap and
 * plot-cdf-b.ksnap: "lat", 4000 samples evenly spread over [10, 410) us
 * and over [110, 310) us: the CDFs (x - 10) / 400 and (x - 110) / 200
 * cross at 210 us, at 50%.
 */
static uint64_t around(uint64_t mode, uint64_t i, uint64_t n, uint64_t spread)
{
	return mode - spread + (2 * spread * i) / (n - 1);
}

static void two_modes(struct gen *g, uint64_t fast, uint64_t slow)
{
	uint64_t i;

	for (i = 0; i < fast; i++)	/* 60% within 50 ns, the rest within 300 ns */
		rec(g, (uint32_t)(i % 2), around(2000, i, fast, i % 5 < 3 ? 50 : 300));
	for (i = 0; i < slow; i++)
		rec(g, (uint32_t)(i % 2), around(500000, i, slow, 20000));
}

int plots(const char *dir)
{
	struct ks_metric m;
	struct ks_set set = { .m = &m, .nr = 1 };
	struct gen g;
	uint64_t i;
	int rc = 0;

	source(&set.src);
	gen_init(&g, &m, "modes.two", "kstatsctl", KSTATS_KIND_USER, 3, 2);
	two_modes(&g, 3000, 600);
	gen_finish(&g);
	rc |= write_set(dir, "plot-modes.ksnap", &set, false);
	gen_free(&g);
	ks_metric_free(&m);
	for (int b = 0; b < 2; b++) {
		gen_init(&g, &m, "lat", "kstatsctl", KSTATS_KIND_USER, 4, 1);
		for (i = 0; i < 4000; i++)
			rec(&g, 0, b ? 110000 + 50 * i : 10000 + 100 * i);
		gen_finish(&g);
		rc |= write_set(dir, b ? "plot-cdf-b.ksnap" : "plot-cdf-a.ksnap", &set, false);
		gen_free(&g);
		ks_metric_free(&m);
	}
	return rc;
}

/*
 * plot-modes.hlog: 60 intervals of 1 s of modes.two from 1795300000 s
 * (epoch) on, as export --format hdr --interval 1 writes them: 1000
 * samples around 2 us and 200 around 500 us a second, but none of the slow
 * ones in [20, 40) s, and nothing at all in [45, 50) s (intervals without
 * samples). And modes.none beside it, idle: no samples at all.
 */
int heatmap_log(const char *dir)
{
	const double base_s = 1795300000.0;
	struct ks_metric m;
	char path[4096];
	struct gen g;
	int i, rc = 0;
	FILE *f;

	snprintf(path, sizeof(path), "%s/plot-modes.hlog", dir);
	f = fopen(path, "w");
	if (!f) {
		perror(path);
		return 1;
	}
	ks_hlog_write_header(f, base_s);
	for (i = 0; i < 60; i++) {
		gen_init(&g, &m, "modes.two", "kstatsctl", KSTATS_KIND_USER, 3, 2);
		if (i < 45 || i >= 50)
			two_modes(&g, 1000, i >= 20 && i < 40 ? 0 : 200);
		gen_finish(&g);
		gen_free(&g);
		rc |= ks_hlog_write_metric(f, &m, i, 1.0) != 0;
		ks_metric_free(&m);
		gen_init(&g, &m, "modes.none", "kstatsctl", KSTATS_KIND_USER, 3, 2);
		gen_finish(&g);
		gen_free(&g);
		rc |= ks_hlog_write_metric(f, &m, i, 1.0) != 0;
		ks_metric_free(&m);
	}
	if (fclose(f) || rc) {
		perror(path);
		return 1;
	}
	return 0;
}

// SPDX-License-Identifier: GPL-2.0
/*
 * Writes the snapshot files the CLI tests read, deterministically (a fixed
 * pseudo-random sequence, fixed times and host names), through the same
 * writer kstatsctl uses:
 *
 *   gen_snapshots DIR      DIR/basic.ksnap (little-endian), DIR/basic-be.ksnap
 *                          (the same, big-endian), DIR/later.ksnap (more
 *                          samples, for diff), DIR/basic.truth.json (exact
 *                          statistics of every sample, to check estimates);
 *                          DIR/big.ksnap and big.truth.json: 1e9, 1e12 and
 *                          2^63 samples, 4 CPUs of 2^63 (totals past 64
 *                          bits); DIR/full.ksnap and full.truth.json:
 *                          2^64 - 1 in every slot of every CPU;
 *                          DIR/interval-a.ksnap, interval-b.ksnap: B is A
 *                          later, and what was recorded in between is 60%
 *                          slower (lat.shift), or A was reset (lat.reset)
 *                          or created again (lat.recreated) in between;
 *                          DIR/other-host.ksnap: B, from another host;
 *                          DIR/hostile.ksnap: control characters and bytes
 *                          that are not UTF-8 in every string;
 *                          DIR/cut.ksnap: it, cut short; DIR/damaged.ksnap:
 *                          it, with one bit of a part sum changed;
 *                          DIR/split-a.ksnap, split-b.ksnap and
 *                          split.truth.json (of A): counts and part sums
 *                          split across CPUs, as migrations leave them;
 *                          and the few-samples, HdrHistogram and plot
 *                          tests' inputs (gen_views.c), the outlier
 *                          entries' (gen_outliers.c), the stack keys'
 *                          (gen_stacks.c)
 *   gen_snapshots --bench FILE   64 CPUs x every slot of frac_bits 5
 *
 * Samples are placed with kstats_hist_locate(), the kernel's own math;
 * counts and part sums wrap modulo 2^64 as the kernel's do.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "gen_snapshots.h"

uint64_t rng = 0x2545f4914f6cdd1dull;

static uint64_t next(void)
{
	rng = rng * 6364136223846793005ull + 1442695040888963407ull;
	return rng >> 11;
}

double uniform(void)
{
	return (double)next() / 0x1p53;
}

void gen_init(struct gen *g, struct ks_metric *m, const char *name,
	      const char *owner, uint32_t kind, uint32_t fb, uint32_t nr_cpus)
{
	uint32_t c, n = kstats_hist_nslots(fb);

	memset(g, 0, sizeof(*g));
	memset(m, 0, sizeof(*m));
	g->m = m;
	snprintf(m->name, sizeof(m->name), "%s", name);
	snprintf(m->owner, sizeof(m->owner), "%s", owner);
	m->kind = kind;
	m->frac_bits = fb;
	m->flags = KSTATS_METRIC_ACTIVE;
	m->nr_cpus = nr_cpus;
	m->owner_pid = kind == KSTATS_KIND_MODULE ? -1 : 4242;
	m->owner_uid = 0;
	m->time_ns = 123456789000ull;
	m->realtime_ns = 1795300000123456789ull;
	for (c = 0; c < nr_cpus; c++) {
		g->count[c] = xcalloc(n, sizeof(uint64_t));
		g->part[c] = xcalloc(n, sizeof(uint64_t));
	}
}

void rec(struct gen *g, uint32_t cpu, uint64_t v)
{
	uint64_t part;
	uint32_t s = kstats_hist_locate(v, g->m->frac_bits, &part);

	g->count[cpu][s]++;
	g->part[cpu][s] += part;
	if (g->nr_samples == g->cap) {
		g->cap = g->cap ? g->cap * 2 : 1024;
		g->samples = xrealloc(g->samples, g->cap, sizeof(uint64_t));
	}
	g->samples[g->nr_samples++] = v;
}

/* @count samples of @value at once, wrapping as the kernel's counters do. */
static void bulk(struct gen *g, uint32_t cpu, uint64_t v, uint64_t count)
{
	uint64_t part;
	uint32_t s = kstats_hist_locate(v, g->m->frac_bits, &part);

	g->count[cpu][s] += count;
	g->part[cpu][s] += part * count;
	g->runs = xrealloc(g->runs, g->nr_runs + 1, sizeof(*g->runs));
	g->runs[g->nr_runs++] = (struct run){ v, count };
}

/* Turns the dense per-CPU arrays into the snapshot's sparse layout. */
void gen_finish(struct gen *g)
{
	struct ks_metric *m = g->m;
	uint32_t n = kstats_hist_nslots(m->frac_bits), c, s;

	free(m->cpus);
	free(m->slots);
	m->cpus = xcalloc(m->nr_cpus, sizeof(*m->cpus));
	m->slots = NULL;
	m->nr_slots = 0;
	for (c = 0; c < m->nr_cpus; c++) {
		m->cpus[c].cpu = c;
		for (s = 0; s < n; s++) {
			/* A part sum alone is kept, as the module keeps it. */
			if (!g->count[c][s] && !g->part[c][s])
				continue;
			m->slots = xrealloc(m->slots, m->nr_slots + 1, sizeof(*m->slots));
			m->slots[m->nr_slots++] = (struct kstats_snap_slot){
				.cpu = c, .slot = s, .count = g->count[c][s],
				.part_sum = g->part[c][s] };
			m->cpus[c].nr_slots++;
			m->cpus[c].count += g->count[c][s];
		}
	}
}

void gen_finish_at(struct gen *g, unsigned int pass, uint64_t generation)
{
	gen_finish(g);
	g->m->generation = generation;
	g->m->time_ns += pass * 10000000000ull;
	g->m->realtime_ns += pass * 10000000000ull;
}

/*
 * @count samples of @v, counted on CPU @cc and their part added on CPU @cp:
 * what a migration between kstats_record()'s two adds leaves.
 */
static void rec_split(struct gen *g, uint32_t cc, uint32_t cp, uint64_t v, uint64_t count)
{
	uint64_t part;
	uint32_t s = kstats_hist_locate(v, g->m->frac_bits, &part);

	g->count[cc][s] += count;
	g->part[cp][s] += part * count;
	while (count--) {
		if (g->nr_samples == g->cap) {
			g->cap = g->cap ? g->cap * 2 : 1024;
			g->samples = xrealloc(g->samples, g->cap, sizeof(uint64_t));
		}
		g->samples[g->nr_samples++] = v;
	}
}

void gen_free(struct gen *g)
{
	for (uint32_t c = 0; c < MAX_CPUS; c++) {
		free(g->count[c]);
		free(g->part[c]);
	}
	free(g->samples);
	free(g->runs);
}

/* A latency-like distribution: log-uniform body, a slow tail. */
uint64_t latency(double base, double spread)
{
	double v = base * exp2(uniform() * spread);

	if (next() % 100 == 0)
		v *= 20 + uniform() * 80;
	return (uint64_t)v;
}

enum { M_NET, M_SMALL, M_TRACE, M_EMPTY, M_EDGE, M_ONLY, NR_GEN };

/* The samples of basic; with @extra, what later adds on top of them. */
static void fill(struct gen *g, bool extra)
{
	const uint64_t edge[] = { 0, 1, 1ull << 63, ~0ull, ~0ull - (1ull << 62),
				  3ull << 62 };
	uint32_t c, i;

	for (c = 0; c < 3; c++)	/* CPU 3 records nothing */
		for (i = 0; i < (extra ? 400 : 700u + 300 * c); i++)
			rec(&g[M_NET], c, latency(extra ? 900 : 500, 4 + c));
	for (c = 0; c < 2; c++)
		for (i = 0; i < (extra ? 20u : 50u); i++)
			rec(&g[M_SMALL], c, next() % 21);
	for (c = 0; c < 4; c++)
		for (i = 0; i < (extra ? 100u : 400u); i++)
			rec(&g[M_TRACE], c, latency(2000, 3));
	g[M_TRACE].m->hits = extra ? 2000 : 1600;
	g[M_TRACE].m->misses = extra ? 4 : 3;
	g[M_TRACE].m->floor_ns = 85;
	if (extra) {	/* later: the trace keeps outliers (format 3) */
		g[M_TRACE].m->has_outliers = true;
		g[M_TRACE].m->outl.threshold_ppm = 999000;
		g[M_TRACE].m->outl.threshold_ns = 41000;
		g[M_TRACE].m->outl.captured = 12;
		g[M_TRACE].m->outl.overwritten = 2;
		g[M_TRACE].m->outl.ratelimited = 1;
	}
	g[M_EMPTY].m->flags = 0;	/* stopped */
	if (!extra)
		for (i = 0; i < ARRAY_SIZE(edge); i++)
			rec(&g[M_EDGE], 0, edge[i]);
	else
		for (i = 0; i < 10; i++)
			rec(&g[M_ONLY], 1, 1000 + 10 * i);
}

static int u64cmp(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

static void truth(FILE *f, struct gen *g, size_t nr)
{
	/* The default percentiles, and 95 and 99.5 for --percentiles. */
	const double q[] = { 0.5, 0.9, 0.95, 0.99, 0.995, 0.999, 0.9999 };
	size_t i, k;

	fputs("{\n", f);
	for (i = 0; i < nr; i++) {
		uint64_t *s = g[i].samples, n = g[i].nr_samples;
		long double sum = 0;

		fprintf(f, "  \"%s\": {\"count\": %llu", g[i].m->name,
			(unsigned long long)n);
		if (n) {
			qsort(s, n, sizeof(*s), u64cmp);
			for (k = 0; k < n; k++)
				sum += s[k];
			fprintf(f, ", \"min\": %llu, \"max\": %llu, \"mean\": %.17Lg",
				(unsigned long long)s[0], (unsigned long long)s[n - 1],
				sum / n);
			fputs(", \"quantiles\": {", f);
			for (k = 0; k < ARRAY_SIZE(q); k++)
				fprintf(f, "%s\"%g\": %llu", k ? ", " : "", q[k] * 100,
					(unsigned long long)s[kstats_quantile_rank(q[k], n) - 1]);
			fputc('}', f);
		}
		fprintf(f, "}%s\n", i + 1 < nr ? "," : "");
	}
	fputs("}\n", f);
}

static int runcmp(const void *a, const void *b)
{
	const struct run *x = a, *y = b;

	return x->value < y->value ? -1 : x->value > y->value;
}

/* The truth of metrics made of runs: exact, in 128 bits. */
static void runs_truth(FILE *f, struct gen *g, size_t nr)
{
	static const uint32_t num[] = { 1, 9, 99, 999, 9999 };
	static const uint32_t den[] = { 2, 10, 100, 1000, 10000 };
	static const char *const name[] = { "50", "90", "99", "99.9", "99.99" };
	char buf[48];
	size_t i, k, r;

	fputs("{\n", f);
	for (i = 0; i < nr; i++) {
		struct run *run = g[i].runs;
		long double sum = 0;
		ks_u128 n = 0, rank, cum;

		qsort(run, g[i].nr_runs, sizeof(*run), runcmp);
		for (r = 0; r < g[i].nr_runs; r++) {
			n += run[r].count;
			sum += (long double)run[r].value * run[r].count;
		}
		fprintf(f, "  \"%s\": {\"count\": %s, \"min\": %llu, \"max\": %llu, "
			"\"mean\": %.21Lg, \"quantiles\": {", g[i].m->name,
			ks_fmt_u128(buf, sizeof(buf), n), (unsigned long long)run[0].value,
			(unsigned long long)run[g[i].nr_runs - 1].value, sum / n);
		for (k = 0; k < ARRAY_SIZE(num); k++) {
			rank = (n * num[k] + den[k] - 1) / den[k];
			for (r = 0, cum = 0; cum + run[r].count < rank; r++)
				cum += run[r].count;
			fprintf(f, "%s\"%s\": %llu", k ? ", " : "", name[k],
				(unsigned long long)run[r].value);
		}
		fprintf(f, "}}%s\n", i + 1 < nr ? "," : "");
	}
	fputs("}\n", f);
}

void source(struct ks_source *src)
{
	memset(src, 0, sizeof(*src));
	snprintf(src->host, sizeof(src->host), "golden-host");
	snprintf(src->kernel, sizeof(src->kernel), "6.12.0-golden");
	snprintf(src->kernel_version, sizeof(src->kernel_version), "#1 SMP golden");
	snprintf(src->machine, sizeof(src->machine), "x86_64");
	snprintf(src->module_version, sizeof(src->module_version), "0.0.0-golden");
	snprintf(src->tool_version, sizeof(src->tool_version), "0.0.0-golden");
	snprintf(src->boot_id, sizeof(src->boot_id), "4b1d3a5e-0000-4000-8000-00000000beef");
	src->abi_version = 1;
	src->created_ns = 1795300000123456789ull;
}

int write_set(const char *dir, const char *file, struct ks_set *set, bool big)
{
	char path[4096];
	bool host_big = __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__;
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, file);
	f = fopen(path, "wb");
	if (!f || ks_snapfile_write(f, set, big != host_big) || fclose(f)) {
		perror(path);
		return 1;
	}
	return 0;
}

static int golden(const char *dir)
{
	static const struct {
		const char *name, *owner;
		uint32_t kind, fb, cpus;
	} def[NR_GEN] = {
		[M_NET] = { "net.tx_latency", "kstats_demo", KSTATS_KIND_MODULE, 3, 4 },
		[M_SMALL] = { "user.small", "kstatsctl", KSTATS_KIND_USER, 0, 2 },
		[M_TRACE] = { "tcp_sendmsg", "tcp_sendmsg", KSTATS_KIND_TRACE, 5, 4 },
		[M_EMPTY] = { "empty.one", "kstatsctl", KSTATS_KIND_USER, 2, 4 },
		[M_EDGE] = { "edge.extremes", "kstats_selftest", KSTATS_KIND_MODULE, 1, 1 },
		[M_ONLY] = { "only.later", "kstatsctl", KSTATS_KIND_USER, 4, 2 },
	};
	struct ks_metric m[2][NR_GEN];
	struct gen g[2][NR_GEN];
	struct ks_set set;
	char path[4096];
	int pass, i, rc = 0;
	FILE *f;

	for (pass = 0; pass < 2; pass++) {
		rng = 0x2545f4914f6cdd1dull;	/* "later" repeats, then adds */
		for (i = 0; i < NR_GEN; i++)
			gen_init(&g[pass][i], &m[pass][i], def[i].name, def[i].owner,
				 def[i].kind, def[i].fb, def[i].cpus);
		fill(g[pass], false);
		if (pass)
			fill(g[pass], true);
		for (i = 0; i < NR_GEN; i++) {
			gen_finish(&g[pass][i]);
			if (pass)
				m[pass][i].time_ns += 5000000000ull;
			if (pass)
				m[pass][i].realtime_ns += 5000000000ull;
		}
	}
	source(&set.src);
	set.m = m[0];
	set.nr = M_EDGE + 1;	/* only.later is not in basic */
	rc |= write_set(dir, "basic.ksnap", &set, false);
	rc |= write_set(dir, "basic-be.ksnap", &set, true);
	set.m = m[1];
	set.nr = NR_GEN;
	set.src.created_ns += 5000000000ull;
	/* later: no edge.extremes (only in A), only.later (only in B) */
	m[1][M_EDGE] = m[1][M_ONLY];
	set.nr = NR_GEN - 1;
	rc |= write_set(dir, "later.ksnap", &set, false);
	snprintf(path, sizeof(path), "%s/basic.truth.json", dir);
	f = fopen(path, "w");
	if (!f)
		return 1;
	truth(f, g[0], M_EDGE + 1);
	rc |= fclose(f) != 0;
	for (pass = 0; pass < 2; pass++)
		for (i = 0; i < NR_GEN; i++)
			gen_free(&g[pass][i]);
	return rc;
}

/* @a (metrics @m0) and @b (@m1), taken 10 s later, of one host and boot. */
int write_pair(const char *dir, const char *a, const char *b,
	       struct ks_metric *m0, struct ks_metric *m1, size_t nr)
{
	struct ks_set set;
	int rc;

	source(&set.src);
	set.m = m0;
	set.nr = nr;
	rc = write_set(dir, a, &set, false);
	set.src.created_ns += 10000000000ull;
	set.m = m1;
	return rc | write_set(dir, b, &set, false);
}

static int write_truth(const char *dir, const char *file, struct gen *g, size_t nr)
{
	char path[4096];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, file);
	f = fopen(path, "w");
	if (!f)
		return 1;
	runs_truth(f, g, nr);
	return fclose(f) != 0;
}

/*
 * Counts no 64-bit sum can hold. big.ksnap: 1e9, 1e12 and 2^63 samples,
 * and 4 CPUs of ~2^63 each (2^65 in all; each CPU's count still fits).
 * full.ksnap: 2^64 - 1 in every slot of every CPU, so that even a CPU's
 * own count wraps (the module's sum, modulo 2^64).
 */
static int big(const char *dir)
{
	enum { B_1E9, B_1E12, B_2P63, B_CPUS, B_FULL, NR_BIG };
	static const struct {
		const char *name;
		uint32_t fb, cpus;
	} def[NR_BIG] = {
		[B_1E9] = { "big.1e9", 3, 4 },
		[B_1E12] = { "big.1e12", 3, 2 },
		[B_2P63] = { "big.2p63", 5, 4 },
		[B_CPUS] = { "big.cpus", 2, 4 },
		[B_FULL] = { "big.full", 0, 3 },
	};
	struct ks_metric m[NR_BIG];
	struct gen g[NR_BIG];
	struct ks_set set;
	uint32_t c, s;
	int i, rc = 0;

	for (i = 0; i < NR_BIG; i++)
		gen_init(&g[i], &m[i], def[i].name, "kstats_demo", KSTATS_KIND_MODULE,
			 def[i].fb, def[i].cpus);
	bulk(&g[B_1E9], 0, 1000, 400000000);
	bulk(&g[B_1E9], 1, 2000, 300000000);
	bulk(&g[B_1E9], 2, 5000, 200000001);
	bulk(&g[B_1E9], 3, 1000000, 99999999);
	bulk(&g[B_1E12], 0, 700, 600000000000ull);
	bulk(&g[B_1E12], 1, 1500, 300000000001ull);
	bulk(&g[B_1E12], 1, 90000, 99999999999ull);
	bulk(&g[B_2P63], 0, 1500, (1ull << 62) + 7);
	bulk(&g[B_2P63], 1, 3000, 1ull << 61);
	bulk(&g[B_2P63], 2, 100000, (1ull << 61) - 12);
	bulk(&g[B_2P63], 3, 1ull << 40, 5);
	bulk(&g[B_CPUS], 0, 3000, 1ull << 63);
	bulk(&g[B_CPUS], 1, 3000, (1ull << 63) - (1ull << 53));
	bulk(&g[B_CPUS], 2, 7000, 1ull << 63);
	bulk(&g[B_CPUS], 3, 7000, (1ull << 63) + (1ull << 53));
	for (c = 0; c < def[B_FULL].cpus; c++)	/* each sample at its slot's low */
		for (s = 0; s < kstats_hist_nslots(0); s++)
			bulk(&g[B_FULL], c, kstats_slot_low(s, 0), UINT64_MAX);
	for (i = 0; i < NR_BIG; i++)
		gen_finish(&g[i]);
	source(&set.src);
	set.m = m;
	set.nr = B_FULL;
	rc |= write_set(dir, "big.ksnap", &set, false);
	rc |= write_truth(dir, "big.truth.json", g, B_FULL);
	set.m = &m[B_FULL];
	set.nr = 1;
	rc |= write_set(dir, "full.ksnap", &set, false);
	rc |= write_truth(dir, "full.truth.json", &g[B_FULL], 1);
	for (i = 0; i < NR_BIG; i++) {
		gen_free(&g[i]);
		ks_metric_free(&m[i]);
	}
	return rc;
}

/*
 * A and B of one host and boot, 10 s apart. lat.shift: B is A plus 6000
 * samples 60% slower than A's 20000, which moves B's median only ~11%;
 * lat.reset: reset in between, fewer samples in B; lat.recreated: created
 * again with another frac_bits; lat.refilled: reset in between and then
 * refilled past A in every slot, which only its new generation tells.
 */
static int interval(const char *dir)
{
	enum { I_SHIFT, I_RESET, I_RECREATED, I_REFILLED, NR_I };
	static const struct {
		const char *name;
		uint32_t kind, fb, cpus;
	} def[NR_I] = {
		[I_SHIFT] = { "lat.shift", KSTATS_KIND_USER, 5, 2 },
		[I_RESET] = { "lat.reset", KSTATS_KIND_MODULE, 3, 1 },
		[I_RECREATED] = { "lat.recreated", KSTATS_KIND_USER, 3, 1 },
		[I_REFILLED] = { "lat.refilled", KSTATS_KIND_USER, 3, 1 },
	};
	struct ks_metric m[2][NR_I];
	struct gen g[2][NR_I];
	struct ks_set set;
	int pass, i, rc = 0;
	uint32_t k;

	for (pass = 0; pass < 2; pass++) {
		rng = 0x9e3779b97f4a7c15ull;
		for (i = 0; i < NR_I; i++)
			gen_init(&g[pass][i], &m[pass][i], def[i].name,
				 def[i].kind == KSTATS_KIND_USER ? "kstatsctl" : "kstats_demo",
				 def[i].kind, def[i].fb + (pass && i == I_RECREATED),
				 def[i].cpus);
		for (k = 0; k < 20000; k++)
			rec(&g[pass][I_SHIFT], k % 2, (uint64_t)(1000 * exp2(uniform())));
		for (k = 0; k < (pass ? 300u : 1000u); k++)
			rec(&g[pass][I_RESET], 0, (uint64_t)(4000 * exp2(uniform())));
		for (k = 0; k < (pass ? 800u : 500u); k++)
			rec(&g[pass][I_RECREATED], 0, latency(3000, 2));
		for (k = 0; pass && k < 6000; k++)
			rec(&g[pass][I_SHIFT], k % 2, (uint64_t)(1600 * exp2(uniform())));
		/* The same first 500 values (same seed), then more: B >= A everywhere. */
		for (k = 0, rng = 0x51ed270b27f3c0ddull; k < (pass ? 2000u : 500u); k++)
			rec(&g[pass][I_REFILLED], 0, latency(3000, 2));
		for (i = 0; i < NR_I; i++) {
			/* Generation kept by lat.shift; new for the reset or re-created ones. */
			gen_finish_at(&g[pass][i], pass, 100 + i + (pass && i != I_SHIFT ? 1000 : 0));
		}
	}
	source(&set.src);
	set.m = m[0];
	set.nr = NR_I;
	rc |= write_set(dir, "interval-a.ksnap", &set, false);
	set.src.created_ns += 10000000000ull;
	set.m = m[1];
	rc |= write_set(dir, "interval-b.ksnap", &set, false);
	snprintf(set.src.host, sizeof(set.src.host), "other-host");
	snprintf(set.src.boot_id, sizeof(set.src.boot_id), "0e7d0e7d-0000-4000-8000-000000000042");
	rc |= write_set(dir, "other-host.ksnap", &set, false);
	for (pass = 0; pass < 2; pass++)
		for (i = 0; i < NR_I; i++) {
			gen_free(&g[pass][i]);
			ks_metric_free(&m[pass][i]);
		}
	return rc;
}

/*
 * Slots split across CPUs. splittest.m is what kstats_split_test.ko makes
 * per "add" (tests/kmod/kstats_split_test.c): 3 x 1000 counted on CPU 0
 * with their part sum on CPU 1 (no count there), 2 x 1151 counted on CPU 0
 * and 1 with both parts on CPU 1, and 100..500 recorded normally. Its mean
 * is 680.2 exactly. split.wide: 5 x 2^42 - 1 (a slot 2^39 wide), 4 counted
 * on CPU 0, 1 on CPU 1 with all 5 parts. split-a.ksnap holds one "add" of
 * splittest.m, split-b.ksnap two: the interval is one add, mean 680.2.
 */
static int split(const char *dir)
{
	enum { S_M, S_WIDE, NR_S };
	struct ks_metric m[2][NR_S];
	struct gen g[2][NR_S];
	char path[4096];
	int pass, i, r, rc = 0;
	FILE *f;

	for (pass = 0; pass < 2; pass++) {
		gen_init(&g[pass][S_M], &m[pass][S_M], "splittest.m", "kstats_split_test",
			 KSTATS_KIND_MODULE, 3, 4);
		gen_init(&g[pass][S_WIDE], &m[pass][S_WIDE], "split.wide", "kstatsctl",
			 KSTATS_KIND_USER, 2, 2);
		for (r = 0; r <= pass; r++) {
			rec_split(&g[pass][S_M], 0, 1, 1000, 3);
			rec_split(&g[pass][S_M], 0, 1, 1151, 1);
			rec_split(&g[pass][S_M], 1, 1, 1151, 1);
			for (i = 1; i <= 5; i++)
				rec(&g[pass][S_M], (uint32_t)i % 4, 100 * (uint64_t)i);
		}
		rec_split(&g[pass][S_WIDE], 0, 1, (1ull << 42) - 1, 4);
		rec_split(&g[pass][S_WIDE], 1, 1, (1ull << 42) - 1, 1);
		for (i = 0; i < NR_S; i++) {
			gen_finish_at(&g[pass][i], pass, 300 + i);
		}
	}
	rc |= write_pair(dir, "split-a.ksnap", "split-b.ksnap", m[0], m[1], NR_S);
	snprintf(path, sizeof(path), "%s/split.truth.json", dir);
	f = fopen(path, "w");
	if (!f)
		return 1;
	truth(f, g[0], NR_S);
	rc |= fclose(f) != 0;
	for (pass = 0; pass < 2; pass++)
		for (i = 0; i < NR_S; i++) {
			gen_free(&g[pass][i]);
			ks_metric_free(&m[pass][i]);
		}
	return rc;
}

int write_bytes(const char *dir, const char *file, const void *buf, size_t len)
{
	char path[4096];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, file);
	f = fopen(path, "wb");
	if (!f || fwrite(buf, 1, len, f) != len || fclose(f)) {
		perror(path);
		return 1;
	}
	return 0;
}

/*
 * A file's strings may hold any byte but NUL, and an owner too: ESC
 * sequences (colour, a window title, a terminal reset, the alternate
 * screen), other C0 characters, DEL, C1 both as UTF-8 and as raw bytes,
 * and bytes that are not UTF-8 (stray, cut short, overlong, surrogate),
 * beside UTF-8 that must come through as it is. Its metric is user.small,
 * as in basic, for diff. Then the same file cut short, and damaged.
 */
static int hostile(const char *dir)
{
	struct ks_metric m;
	struct ks_set set;
	struct gen g;
	char *buf = NULL;
	size_t len = 0;
	uint32_t k;
	int rc = 0;
	FILE *f;

	rng = 0x7f4a7c159e3779b9ull;
	gen_init(&g, &m, "user.small", "own\x1b[1mer\x07\xff\x9b\xc2\x9b\\ \xc3\xa9",
		 KSTATS_KIND_USER, 0, 2);
	for (k = 0; k < 60; k++)
		rec(&g, k % 2, next() % 21);
	gen_finish(&g);
	source(&set.src);
	snprintf(set.src.host, sizeof(set.src.host), "%s",
		 "host\x1b[31mred\x1b[0m\x1b]0;title\x07|tab\tnl\ncr\rdel\x7f|"
		 "c1\xc2\x9b|raw\x9b|ff\xff|lone\xc3|overlong\xc0\xaf|"
		 "surrogate\xed\xa0\x80|cut\xe2\x82|ok \xc3\xa9\xe2\x82\xac"
		 "\xf0\x9f\x98\x80|back\\slash");
	snprintf(set.src.kernel, sizeof(set.src.kernel), "6.12.0\x1b[2J");
	snprintf(set.src.kernel_version, sizeof(set.src.kernel_version),
		 "#1 SMP \xc2\x85 \xe2\x80\xa8");
	snprintf(set.src.machine, sizeof(set.src.machine), "x86_64\x9b" "31m");
	snprintf(set.src.module_version, sizeof(set.src.module_version), "\xfe\xff");
	snprintf(set.src.tool_version, sizeof(set.src.tool_version), "0.0.0\x1b" "c");
	snprintf(set.src.boot_id, sizeof(set.src.boot_id), "\x1b[5m\x1b[?1049h");
	set.m = &m;
	set.nr = 1;
	f = open_memstream(&buf, &len);
	if (!f || ks_snapfile_write(f, &set, __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__) ||
	    fclose(f))
		return 1;
	rc |= write_bytes(dir, "hostile.ksnap", buf, len);
	rc |= write_bytes(dir, "cut.ksnap", buf, 300);
	buf[len - 8] ^= 0x01;	/* the last slot's part sum, low byte */
	rc |= write_bytes(dir, "damaged.ksnap", buf, len);
	free(buf);
	gen_free(&g);
	ks_metric_free(&m);
	return rc;
}

static int bench(const char *path)
{
	struct ks_metric m;
	struct ks_set set;
	uint32_t n = kstats_hist_nslots(5), c, s;
	FILE *f;

	memset(&m, 0, sizeof(m));
	snprintf(m.name, sizeof(m.name), "bench.wide");
	snprintf(m.owner, sizeof(m.owner), "kstats_bench");
	m.kind = KSTATS_KIND_MODULE;
	m.flags = KSTATS_METRIC_ACTIVE;
	m.frac_bits = 5;
	m.nr_cpus = 64;
	m.owner_pid = -1;
	m.nr_slots = 64 * n;
	m.cpus = xcalloc(64, sizeof(*m.cpus));
	m.slots = xcalloc(m.nr_slots, sizeof(*m.slots));
	for (c = 0; c < 64; c++) {
		m.cpus[c].cpu = c;
		m.cpus[c].nr_slots = n;
		for (s = 0; s < n; s++) {
			struct kstats_snap_slot *sl = &m.slots[c * n + s];

			sl->cpu = c;
			sl->slot = s;
			sl->count = 1 + next() % 1000;
			sl->part_sum = sl->count * (next() % 4096);
			m.cpus[c].count += sl->count;
		}
	}
	source(&set.src);
	set.m = &m;
	set.nr = 1;
	f = fopen(path, "wb");
	if (!f || ks_snapfile_write(f, &set, false) || fclose(f)) {
		perror(path);
		return 1;
	}
	ks_metric_free(&m);
	return 0;
}

int main(int argc, char **argv)
{
	if (argc == 3 && !strcmp(argv[1], "--bench"))
		return bench(argv[2]);
	if (argc == 2)
		return golden(argv[1]) | big(argv[1]) | interval(argv[1]) |
		       hostile(argv[1]) | split(argv[1]) | few(argv[1]) | hdr(argv[1]) |
		       plots(argv[1]) | heatmap_log(argv[1]) | outliers(argv[1]) |
		       keys(argv[1]) | values(argv[1]) | stacks(argv[1]);
	fprintf(stderr, "usage: gen_snapshots DIR | --bench FILE\n");
	return 2;
}

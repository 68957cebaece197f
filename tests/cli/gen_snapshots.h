/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What gen_snapshots.c (the sample generator, golden, big, interval,
 * split, hostile and bench files) shares with gen_views.c (the inputs of
 * the few-samples, HdrHistogram and plot tests). Private to gen_snapshots.
 */
#ifndef GEN_SNAPSHOTS_H
#define GEN_SNAPSHOTS_H

#include "kstatsctl.h"
#include "hdr.h"
#include "model.h"
#include "outliers.h"
#include "snapfile.h"
#include "units.h"

#define MAX_CPUS 64

/* @count samples of @value (big metrics: their truth comes from these). */
struct run {
	uint64_t value, count;
};

struct gen {
	struct ks_metric *m;
	uint64_t *count[MAX_CPUS], *part[MAX_CPUS];
	uint64_t *samples;	/* every value, for the truth file */
	size_t nr_samples, cap;
	struct run *runs;
	size_t nr_runs;
};

/* The pseudo-random state; each generator seeds it for its own sequence. */
extern uint64_t rng;

/* A uniform double in [0, 1), from the next of rng's sequence. */
double uniform(void);
/* Sets up @g and its metric @m (cleared): @nr_cpus CPUs of frac_bits @fb. */
void gen_init(struct gen *g, struct ks_metric *m, const char *name,
	      const char *owner, uint32_t kind, uint32_t fb, uint32_t nr_cpus);
/* One sample of @v on CPU @cpu, kept for the truth too. */
void rec(struct gen *g, uint32_t cpu, uint64_t v);
/* Turns the dense per-CPU arrays into the snapshot's sparse layout. */
void gen_finish(struct gen *g);
/* gen_finish(), as taken @pass x 10 s after pass 0, with @generation. */
void gen_finish_at(struct gen *g, unsigned int pass, uint64_t generation);
/* Frees what @g holds (not its metric: ks_metric_free()). */
void gen_free(struct gen *g);
/* A latency-like distribution: log-uniform body, a slow tail. */
uint64_t latency(double base, double spread);
/* The fixed source (host, kernel, boot id, times) of every file. */
void source(struct ks_source *src);
/* Writes @set to DIR/FILE, big-endian with @big; 1 on error. */
int write_set(const char *dir, const char *file, struct ks_set *set, bool big);
/* @len bytes of @buf as DIR/FILE; 1 on error. */
int write_bytes(const char *dir, const char *file, const void *buf, size_t len);
/* @a (metrics @m0) and @b (@m1), taken 10 s later, of one host and boot. */
int write_pair(const char *dir, const char *a, const char *b,
	       struct ks_metric *m0, struct ks_metric *m1, size_t nr);

/* gen_views.c: each writes its files into @dir; 1 on error. */
int few(const char *dir);
int hdr(const char *dir);
int plots(const char *dir);
int heatmap_log(const char *dir);
/* gen_keys.c: a keyed trace's metrics */
int keys(const char *dir);
/* gen_values.c: a value trace's metrics (trace --value) */
int values(const char *dir);
/* gen_outliers.c: outlier entries (format 4), and damaged ones. */
int outliers(const char *dir);
/* @set as a little-endian file, in memory (*@buf: free it); 1 on error. */
int little_endian(const struct ks_set *set, char **buf, size_t *len);
/* A little-endian u32 at @p. */
uint32_t le32(const uint8_t *p);
/* Where record @i starts, and (@entries) what follows its slots; a little-endian file. */
size_t record(const uint8_t *p, uint32_t i, bool entries);
/* DIR/FILE: @p with the u32 at @off made @v (@add: plus @v), and sealed. */
int bad(const char *dir, const char *file, const uint8_t *p, size_t len,
	size_t off, uint32_t v, bool add);
/* gen_stacks.c: a trace --by stack's keys with their frames (format 8), and damaged ones. */
int stacks(const char *dir);

#endif

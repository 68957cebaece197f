// SPDX-License-Identifier: GPL-2.0
/*
 * The outlier files (format 4), through the model kstatsctl's snapshot
 * uses: KSTATS_IOC_OUTLIERS' entries, symbolized by ks_outl_from_module()
 * against a made-up /proc/kallsyms, then ks_snapfile_write().
 *
 *   outliers.ksnap       outl.kept (4 entries of a ring of 4, after 2
 *                        overwritten: a whole stack, one the unwinder cut
 *                        at the caller, one in interrupt context with a
 *                        frame no symbol holds), outl.noaddr (a writer
 *                        without CAP_PERFMON: no frames, and why),
 *                        outl.hidden (kptr_restrict: no frames, and why),
 *                        outl.empty (none yet), outl.counters (counters
 *                        alone: their read failed), outl.hostile (control
 *                        characters in comm and a symbol), user.small
 *   outliers-be.ksnap    outl.kept alone, big-endian
 *   outliers-retval.ksnap  outl.retval (format 7): entries that keep what
 *                        the function returned: a count, an error in the
 *                        whole register and in an int's lower half, a
 *                        pointer, and one without (a section's)
 *   outliers-paths.ksnap one trace's slow calls through three known call
 *                        paths (paths_file()), for the flame graph
 *   bad-outl-*.ksnap     outliers.ksnap with one field of its entries
 *                        wrong, and its checksum made right: what the
 *                        reader refuses, and the message
 */
#include <stdlib.h>
#include <string.h>

#include "gen_snapshots.h"

enum { O_KEPT, O_NOADDR, O_HIDDEN, O_EMPTY, O_COUNTERS, O_HOSTILE, O_USER, NR_O };

#define KT	0xffffffffc0100000ull	/* the made-up kstats_target's text */
#define VM	0xffffffff81000000ull	/* and the kernel's */

/* A /proc/kallsyms of a few functions, sorted by address. */
static struct ks_ksym syms[] = {
	{ VM + 0x100000, "do_syscall_64" },
	{ VM + 0x200000, "entry_SYSCALL_64_after_hwframe" },
	{ VM + 0x300000, "vfs_write" },
	{ VM + 0x300800, "ksys_write" },
	{ VM + 0x400000, "full_proxy_write" },
	{ VM + 0x500000, "handle_irq_event" },
	{ VM + 0x600000, "evil\x1b]0;title\x07\x9b" "31m" },
	{ KT + 0x000, "ctl_write [kstats_target]" },
	{ KT + 0x400, "ctl_cmd [kstats_target]" },
	{ KT + 0x2000, "ktarget_work [kstats_target]" },
	{ KT + 0x2800, "ktarget_path_a [kstats_target]" },
	{ KT + 0x2c00, "ktarget_path_b [kstats_target]" },
	{ KT + 0x3000, "ktarget_path_c [kstats_target]" },
	{ KT + 0x3400, "ktarget_mid [kstats_target]" },
};

/* The read: KSTATS_IOC_OUTLIERS' counters, and when it was made. */
static struct kstats_outliers read_of(uint64_t captured, uint64_t overwritten,
				      uint64_t ratelimited, uint32_t capacity)
{
	struct kstats_outliers o;

	memset(&o, 0, sizeof(o));
	o.captured = captured;
	o.overwritten = overwritten;
	o.ratelimited = ratelimited;
	o.capacity = capacity;
	o.threshold_ns = 2000000;
	o.time_ns = 123456789000ull;
	o.realtime_ns = 1795300000123456789ull;
	return o;
}

/* An entry ending @ago ns before the read, of @dur ns. */
static struct kstats_outlier entry(uint64_t seq, uint64_t ago, uint64_t dur, int32_t pid,
				   const char *comm, uint32_t c0, uint32_t c1)
{
	struct kstats_outlier e;

	memset(&e, 0, sizeof(e));
	e.seq = seq;
	e.time_ns = 123456789000ull - ago;
	e.duration_ns = dur;
	e.pid = pid;
	e.tgid = pid;
	e.cpu_start = c0;
	e.cpu_end = c1;
	snprintf((char *)e.comm, sizeof(e.comm), "%s", comm);
	return e;
}

static void frames(struct kstats_outlier *e, const uint64_t *f, uint32_t n)
{
	memcpy(e->frames, f, n * sizeof(*f));
	e->nr_frames = n;
}

static void attach(struct ks_metric *m, const struct kstats_outliers *o,
		   const struct kstats_outlier *e, uint32_t n, struct ks_ksyms *k)
{
	m->has_outliers = true;
	m->outl = *o;
	m->outl_entries = xcalloc(1, sizeof(*m->outl_entries));
	ks_outl_from_module(m->outl_entries, o, e, n, k, true);
}

static void fill(struct ks_metric *m, struct gen *g)
{
	static const struct {
		const char *name;
		uint32_t kind;
	} def[NR_O] = {
		[O_KEPT] = { "outl.kept", KSTATS_KIND_TRACE },
		[O_NOADDR] = { "outl.noaddr", KSTATS_KIND_TRACE },
		[O_HIDDEN] = { "outl.hidden", KSTATS_KIND_TRACE },
		[O_EMPTY] = { "outl.empty", KSTATS_KIND_TRACE },
		[O_COUNTERS] = { "outl.counters", KSTATS_KIND_TRACE },
		[O_HOSTILE] = { "outl.hostile", KSTATS_KIND_TRACE },
		[O_USER] = { "user.small", KSTATS_KIND_USER },
	};
	const uint64_t whole[] = {
		KT + 0x400 + 0x9e2, KT + 0xc9, VM + 0x400057, VM + 0x3000f8, VM + 0x30086f,
		VM + 0x100082, VM + 0x200076,
	};
	const uint64_t irq[] = { VM + 0x500041, VM - 0x10 };
	const uint64_t evil[] = { VM + 0x600010, KT + 0x404 };
	struct ks_ksyms k = { syms, ARRAY_SIZE(syms), true, false };
	struct ks_ksyms hidden = { NULL, 0, true, true };
	struct kstats_outlier e[4];
	struct kstats_outliers o;
	uint32_t i, c;

	for (i = 0; i < NR_O; i++) {
		gen_init(&g[i], &m[i], def[i].name, i == O_USER ? "kstatsctl" : "ktarget_work",
			 def[i].kind, 0, 2);
		for (c = 0; c < 2; c++)
			for (uint32_t s = 0; s < 20 + 5 * i; s++)
				rec(&g[i], c, latency(1000, 4));
		gen_finish(&g[i]);
		m[i].hits = m[i].kind == KSTATS_KIND_TRACE ? 100 + 20 * i : 0;
		m[i].floor_ns = m[i].kind == KSTATS_KIND_TRACE ? 85 : 0;
	}

	o = read_of(6, 2, 1, 4);
	e[0] = entry(3, 9000000000ull, 5028114, 215, "bash", 1, 1);
	frames(&e[0], whole, ARRAY_SIZE(whole));
	e[1] = entry(4, 7000000000ull, 2250000, 215, "bash", 0, 1);
	frames(&e[1], whole, 1);
	e[1].flags = KSTATS_OUTLIER_TRUNCATED;
	e[2] = entry(5, 4000123456ull, 3100000, 0, "swapper/0", 1, 1);
	frames(&e[2], irq, ARRAY_SIZE(irq));
	e[2].flags = KSTATS_OUTLIER_NOTASK;
	e[3] = entry(6, 1000000ull, 12345678901ull, 4321, "kworker/1:2", 1, 0);
	frames(&e[3], whole + 2, ARRAY_SIZE(whole) - 2);
	attach(&m[O_KEPT], &o, e, 4, &k);

	/* Without CAP_PERFMON: the module sends no frames, and says so. */
	o = read_of(2, 0, 0, 256);
	o.threshold_ppm = 999000;
	o.threshold_ns = 41000;
	o.out_flags = KSTATS_OUTLIERS_NOADDR;
	e[0] = entry(1, 3000000000ull, 52000, 900, "nginx", 0, 0);
	e[0].nr_frames = 6;
	e[0].flags = KSTATS_OUTLIER_NOADDR;
	e[1] = entry(2, 2000000000ull, 47000, 901, "nginx", 1, 1);
	e[1].nr_frames = 5;
	e[1].flags = KSTATS_OUTLIER_NOADDR;
	attach(&m[O_NOADDR], &o, e, 2, &k);

	/* With it, but kallsyms shows no addresses (kptr_restrict). */
	o = read_of(1, 0, 0, 16);
	e[0] = entry(1, 500000000ull, 2600000, 77, "cat", 0, 0);
	frames(&e[0], whole, 4);
	attach(&m[O_HIDDEN], &o, e, 1, &hidden);

	o = read_of(0, 0, 0, 256);
	o.threshold_ppm = 999900;
	o.threshold_ns = 0;
	attach(&m[O_EMPTY], &o, e, 0, &k);

	m[O_COUNTERS].has_outliers = true;
	m[O_COUNTERS].outl = read_of(9, 1, 0, 256);

	o = read_of(1, 0, 0, 8);
	e[0] = entry(1, 100000000ull, 3000000, 6, "\x1b[31mred\x07\xff", 0, 0);
	frames(&e[0], evil, ARRAY_SIZE(evil));
	attach(&m[O_HOSTILE], &o, e, 1, &k);
}

uint32_t le32(const uint8_t *p)
{
	return p[0] | p[1] << 8 | p[2] << 16 | (uint32_t)p[3] << 24;
}

size_t record(const uint8_t *p, uint32_t i, bool entries)
{
	size_t off;

	for (off = le32(p + 16); i--; off += le32(p + off))
		;
	return off + (entries ? 256 + 16 * (size_t)le32(p + off + 16) +
		      24 * (size_t)le32(p + off + 20) : 0);
}

int bad(const char *dir, const char *file, const uint8_t *p, size_t len,
	size_t off, uint32_t v, bool add)
{
	uint8_t *b = xcalloc(len, 1);
	uint32_t x;
	int rc;

	memcpy(b, p, len);
	x = add ? le32(b + off) + v : v;
	b[off] = (uint8_t)x;
	b[off + 1] = (uint8_t)(x >> 8);
	b[off + 2] = (uint8_t)(x >> 16);
	b[off + 3] = (uint8_t)(x >> 24);
	ks_snapfile_seal(b, len);
	rc = write_bytes(dir, file, b, len);
	free(b);
	return rc;
}

/* outl.kept's first two entries (e0, e1) and its record's header (rec). */
static int bad_files(const char *dir, const uint8_t *p, size_t len)
{
	size_t rec = record(p, O_KEPT, false), kept = record(p, O_KEPT, true);
	size_t e0 = kept + 8, e1 = e0 + le32(p + e0);
	int rc = 0;

	rc |= bad(dir, "bad-outl-ring.ksnap", p, len, kept, 5, false);
	rc |= bad(dir, "bad-outl-entry-len.ksnap", p, len, e0, 1u << 20, false);
	rc |= bad(dir, "bad-outl-frames.ksnap", p, len, e0 + 72, 33, false);
	rc |= bad(dir, "bad-outl-frame-len.ksnap", p, len, e0 + 80, 300, false);
	rc |= bad(dir, "bad-outl-order.ksnap", p, len, e1 + 8, 3, false);
	rc |= bad(dir, "bad-outl-comm.ksnap", p, len, e0 + 68, 0x41, false);
	rc |= bad(dir, "bad-outl-withheld.ksnap", p, len, rec + 208, 7, false);
	rc |= bad(dir, "bad-outl-block-len.ksnap", p, len, rec + 252, 8, true);
	rc |= bad(dir, "bad-outl-note.ksnap", p, len, record(p, O_NOADDR, true) + 4, 0,
		  false);
	/* A return value's flag in a format 4 file: format 7's alone. */
	rc |= bad(dir, "bad-outl-retval-v4.ksnap", p, len, e0 + 4, KSTATS_OUTLIER_RETVAL,
		  false);
	return rc;
}

/* outl.retval: what four calls returned, and a fifth without one. */
static int retval_file(const char *dir)
{
	static const uint64_t ret[] = {
		4096, 0xfffffffffffffff2ull /* -EFAULT */, 0xfffffffeull /* (int)-ENOENT */,
		0xffff888012345678ull, 0,
	};
	const uint64_t caller[] = { KT + 0x400 + 0x9e2, VM + 0x3000f8 };
	struct ks_ksyms k = { syms, ARRAY_SIZE(syms), true, false };
	struct kstats_outlier e[ARRAY_SIZE(ret)];
	struct kstats_outliers o = read_of(5, 0, 0, 8);
	struct ks_metric m;
	struct gen g;
	struct ks_set set;
	uint32_t i;
	int rc;

	gen_init(&g, &m, "outl.retval", "ktarget_work", KSTATS_KIND_TRACE, 0, 2);
	for (i = 0; i < 30; i++)
		rec(&g, i % 2, latency(1000, 4));
	gen_finish(&g);
	m.hits = 30;
	m.floor_ns = 85;
	for (i = 0; i < ARRAY_SIZE(ret); i++) {
		e[i] = entry(i + 1, 5000000000ull - i * 1000000000ull, 2100000 + i * 100000,
			     300 + i, "ktarget", 0, 1);
		frames(&e[i], caller, i % 2 + 1);
		e[i].retval = ret[i];
		e[i].flags = i + 1 < ARRAY_SIZE(ret) ? KSTATS_OUTLIER_RETVAL : 0;
	}
	attach(&m, &o, e, ARRAY_SIZE(ret), &k);
	source(&set.src);
	set.m = &m;
	set.nr = 1;
	rc = write_set(dir, "outliers-retval.ksnap", &set, false);
	ks_outl_free(m.outl_entries);
	ks_metric_free(&m);
	gen_free(&g);
	return rc;
}

/*
 * outl.paths: ktarget_leaf's slow calls through three known paths, for
 * the flame graph: path_a -> leaf 3 x 10 ms, path_b -> mid -> leaf
 * 2 x 20 ms, path_c -> mid -> leaf 1 x 30 ms (their time 30 : 40 : 30).
 */
static int paths_file(const char *dir)
{
	static const struct {
		uint64_t at[2];
		uint32_t n, calls;
		uint64_t ns;
	} path[] = {
		{ { KT + 0x2810 }, 1, 3, 10000000 },
		{ { KT + 0x3410, KT + 0x2c10 }, 2, 2, 20000000 },
		{ { KT + 0x3410, KT + 0x3010 }, 2, 1, 30000000 },
	};
	const uint64_t below[] = { KT + 0x420, KT + 0x30, VM + 0x400010, VM + 0x300010,
				   VM + 0x300810, VM + 0x100010, VM + 0x200010 };
	struct ks_ksyms k = { syms, ARRAY_SIZE(syms), true, false };
	struct kstats_outliers o = read_of(6, 0, 0, 16);
	struct kstats_outlier e[6];
	uint64_t f[KSTATS_OUTLIER_FRAMES];
	struct ks_metric m;
	struct ks_set set;
	struct gen g;
	uint32_t i, c, n = 0;
	int rc;

	gen_init(&g, &m, "outl.paths", "ktarget_leaf", KSTATS_KIND_TRACE, 0, 2);
	for (i = 0; i < 60; i++)
		rec(&g, i % 2, latency(1000, 4));
	gen_finish(&g);
	m.hits = 60;
	m.floor_ns = 85;
	o.threshold_ns = 5000000;
	for (i = 0; i < ARRAY_SIZE(path); i++)
		for (c = 0; c < path[i].calls; c++, n++) {
			e[n] = entry(n + 1, 6000000000ull - n * 1000000000ull, path[i].ns, 400,
				     "ktarget", 0, 0);
			memcpy(f, path[i].at, path[i].n * sizeof(*f));
			memcpy(f + path[i].n, below, sizeof(below));
			frames(&e[n], f, path[i].n + ARRAY_SIZE(below));
		}
	attach(&m, &o, e, n, &k);
	source(&set.src);
	set.m = &m;
	set.nr = 1;
	rc = write_set(dir, "outliers-paths.ksnap", &set, false);
	ks_outl_free(m.outl_entries);
	ks_metric_free(&m);
	gen_free(&g);
	return rc;
}

int little_endian(const struct ks_set *set, char **buf, size_t *len)
{
	FILE *f = open_memstream(buf, len);

	return !f || ks_snapfile_write(f, set, __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__) ||
	       fclose(f);
}

int outliers(const char *dir)
{
	struct ks_metric m[NR_O];
	struct gen g[NR_O];
	struct ks_set set;
	char *buf = NULL;
	size_t len = 0;
	uint32_t i;
	int rc = 0;

	rng = 0x6a09e667f3bcc909ull;
	fill(m, g);
	source(&set.src);
	set.m = m;
	set.nr = NR_O;
	rc |= write_set(dir, "outliers.ksnap", &set, false);
	if (little_endian(&set, &buf, &len))
		return 1;
	rc |= bad_files(dir, (const uint8_t *)buf, len);
	free(buf);
	set.nr = 1;
	rc |= write_set(dir, "outliers-be.ksnap", &set, true);
	for (i = 0; i < NR_O; i++) {
		ks_outl_free(m[i].outl_entries);
		ks_metric_free(&m[i]);
		gen_free(&g[i]);
	}
	return rc | retval_file(dir) | paths_file(dir);
}

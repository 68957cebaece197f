// SPDX-License-Identifier: GPL-2.0
/*
 * HdrHistogram interval logs ("hlog"), as HdrHistogram's HistogramLogWriter
 * writes them: comment lines "#[StartTime: S ...]", "#[BaseTime: S ...]",
 * a legend line, then one histogram per line:
 *   [Tag=NAME,]START,LENGTH,MAX,BASE64
 * START relative to BaseTime (or to StartTime when it is that small),
 * seconds; MAX in milliseconds of the recorded unit; BASE64 a compressed V2
 * histogram (hdr_codec.c).
 *
 * Reading: every histogram becomes a kstats metric of one CPU (row 0), at
 * one frac_bits per tag: the finest, up to 5, at which every non-empty
 * HdrHistogram bucket of the tag lies inside one kstats slot, so that each
 * slot's count is exact. When none does (a unit that is not a power of two
 * of nanoseconds, --hdr-unit us, makes buckets straddle slots) the file is
 * read at frac_bits 5 and each bucket counts in the slot of its highest
 * value, HdrHistogram's own value for it; a warning says so. Sums are not
 * in a HdrHistogram: the metrics say so (sums_unknown), and means are
 * estimated from the slots with their bound.
 */
#define _GNU_SOURCE	/* memmem */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "kstatsctl.h"

#define HLOG_HINT	"is it an HdrHistogram interval log (V2 compressed histograms, " \
			"as HistogramLogWriter writes)?"
#define YEAR_S		31557600.0

/* One line's histogram while its tag's frac_bits is not known yet. */
struct hlog_line {
	struct ks_hlog_entry e;
	struct ks_hdr h;
	unsigned int lineno;
	uint32_t bits;		/* the finest frac_bits at which it nests */
};

struct hlog_parse {
	const char *path;
	unsigned int lineno;
	double start_time, base_time;	/* NAN: not given */
	struct hlog_line *l;
	size_t nr;
	uint64_t scale;			/* ns per recorded unit */
};

/* --hdr-unit, ns unless given. */
static enum ks_unit hdr_unit(void)
{
	return opts.hdr_unit == UNIT_AUTO ? UNIT_NS : opts.hdr_unit;
}

static int hlog_bad(const struct hlog_parse *p, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
static int hlog_bad(const struct hlog_parse *p, const char *fmt, ...)
{
	char msg[256];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	return ks_fail(EXIT_RUNTIME, HLOG_HINT, "%s:%u: %s", p->path, p->lineno, msg);
}

/* Text that starts as a log does, with its version line or a histogram. */
bool ks_hlog_detect(const void *buf, size_t len)
{
	const char *s = buf;

	if (!len || !(s[0] == '#' || s[0] == '"' || isdigit((unsigned char)s[0]) ||
		      (len >= 4 && !memcmp(s, "Tag=", 4))))
		return false;
	return memmem(s, len, "#[Histogram log format version ", 31) ||
	       memmem(s, len, ",HIST", 5);
}

/* A number of seconds: finite, not negative. */
static int parse_seconds(const struct hlog_parse *p, const char *s, const char *what,
			 double *out)
{
	char *end;

	errno = 0;
	*out = strtod(s, &end);
	if (end == s || *end || errno || !isfinite(*out) || *out < 0 ||
	    !isdigit((unsigned char)*s))
		return hlog_bad(p, "bad %s '%.40s'", what, s);
	return 0;
}

static int parse_comment(struct hlog_parse *p, const char *s)
{
	const char *v;
	double *dst = NULL;
	char num[64];
	size_t n;

	if (!strncmp(s, "#[StartTime: ", 13))
		dst = &p->start_time;
	else if (!strncmp(s, "#[BaseTime: ", 12))
		dst = &p->base_time;
	else if (!strncmp(s, "#[Histogram log format version ", 31) &&
		 strncmp(s + 31, "1.", 2))
		return hlog_bad(p, "log format version %.*s (1.x is read)",
				(int)strcspn(s + 31, "]"), s + 31);
	if (!dst)
		return 0;	/* other comments, e.g. the writer's name */
	v = strchr(s, ' ') + 1;
	n = strcspn(v, " ]");
	if (n >= sizeof(num))
		n = sizeof(num) - 1;
	memcpy(num, v, n);
	num[n] = '\0';
	return parse_seconds(p, num, "time", dst);
}

static int parse_tag(const struct hlog_parse *p, const char *tag, size_t n, char *out)
{
	size_t i;

	if (!n || n >= KSTATS_NAME_LEN)
		return hlog_bad(p, "a tag of %zu characters (kstats names have 1 to %d)",
				n, KSTATS_NAME_LEN - 1);
	for (i = 0; i < n; i++)
		if (!isalnum((unsigned char)tag[i]) && !strchr("_.:-", tag[i]))
			return hlog_bad(p, "tag character 0x%02x at column %zu (kstats "
					"names have letters, digits and _ . : -)",
					(unsigned char)tag[i], i + 5);
	memcpy(out, tag, n);
	out[n] = '\0';
	return 0;
}

static int parse_histogram(struct hlog_parse *p, char *s)
{
	struct hlog_line l = { .lineno = p->lineno };
	char *f[4], why[200];
	uint8_t *bin;
	size_t n, bin_len;
	double max;
	int i, rc;

	if (!strncmp(s, "Tag=", 4)) {
		n = strcspn(s + 4, ",");
		if (!s[4 + n])
			return hlog_bad(p, "a tag and no histogram");
		if (parse_tag(p, s + 4, n, l.e.tag))
			return EXIT_RUNTIME;
		s += 4 + n + 1;
	}
	for (i = 0; i < 4; i++) {
		f[i] = s;
		s += strcspn(s, ",");
		if (i < 3 && !*s)
			return hlog_bad(p, "%d fields, not 4 (start, length, max, histogram)",
					i + 1);
		if (i < 3)
			*s++ = '\0';
	}
	if (strchr(f[3], ','))
		return hlog_bad(p, "more than 4 fields (start, length, max, histogram)");
	if (parse_seconds(p, f[0], "start time", &l.e.start_s) ||
	    parse_seconds(p, f[1], "interval length", &l.e.length_s) ||
	    parse_seconds(p, f[2], "maximum", &max))
		return EXIT_RUNTIME;
	if (ks_unbase64(f[3], strlen(f[3]), &bin, &bin_len, why, sizeof(why)))
		return hlog_bad(p, "%s", why);
	rc = ks_hdr_decode(bin, bin_len, &l.h, why, sizeof(why));
	free(bin);
	if (rc)
		return hlog_bad(p, "%s", why);
	p->l = xrealloc(p->l, p->nr + 1, sizeof(*p->l));
	p->l[p->nr++] = l;
	return 0;
}

/* Does every non-empty bucket of @h, in ns, lie in one slot at @bits? */
static bool nests(const struct hlog_parse *p, const struct ks_hdr *h, uint32_t bits)
{
	uint64_t lo, hi;
	uint32_t i;

	for (i = 0; i < h->nr; i++) {
		if (!h->counts[i])
			continue;
		ks_hdr_bucket(h, i, &lo, &hi);
		if (kstats_hist_slot(lo * p->scale, bits) != kstats_hist_slot(hi * p->scale, bits))
			return false;
	}
	return true;
}

/* The finest frac_bits (up to 5) at which every bucket of @l nests, or 6. */
static uint32_t line_bits(const struct hlog_parse *p, const struct hlog_line *l)
{
	uint32_t bits = KSTATS_FRAC_BITS_MAX + 1;

	while (bits-- && !nests(p, &l->h, bits))
		;
	return bits > KSTATS_FRAC_BITS_MAX ? KSTATS_FRAC_BITS_MAX + 1 : bits;
}

/*
 * One frac_bits per tag, so that its intervals add up: the coarsest of
 * its lines'. A tag whose buckets nest at none is read at 5, each bucket in
 * the slot of its highest value (said once per tag).
 */
static void tag_bits(struct hlog_parse *p)
{
	size_t i, k;

	for (i = 0; i < p->nr; i++)
		p->l[i].bits = line_bits(p, &p->l[i]);
	for (i = 0; i < p->nr; i++) {
		struct hlog_line *first = NULL;
		uint32_t bits = p->l[i].bits;

		for (k = 0; k < p->nr && !first; k++)
			if (!strcmp(p->l[k].e.tag, p->l[i].e.tag))
				first = &p->l[k];
		if (first != &p->l[i])
			continue;	/* done with its first line */
		for (k = i; k < p->nr; k++)
			if (!strcmp(p->l[k].e.tag, p->l[i].e.tag) && bits <= KSTATS_FRAC_BITS_MAX &&
			    (p->l[k].bits < bits || p->l[k].bits > KSTATS_FRAC_BITS_MAX))
				bits = p->l[k].bits;
		if (bits > KSTATS_FRAC_BITS_MAX)
			ks_warn("%s: %s: at %s, HdrHistogram's buckets straddle kstats "
				"slots: each counts in the slot of its highest value", p->path,
				p->l[i].e.tag[0] ? p->l[i].e.tag : "untagged",
				ks_unit_name(hdr_unit()));
		for (k = i; k < p->nr; k++)
			if (!strcmp(p->l[k].e.tag, p->l[i].e.tag))
				p->l[k].bits = bits > KSTATS_FRAC_BITS_MAX ?
					       KSTATS_FRAC_BITS_MAX : bits;
	}
}

static int to_metric(struct hlog_parse *p, struct hlog_line *l, uint32_t bits)
{
	struct ks_metric *m = &l->e.m;
	uint64_t *dense, lo, hi, ns;
	uint32_t i, s, nslots = kstats_hist_nslots(bits);
	double end_s = l->e.start_s + l->e.length_s;

	p->lineno = l->lineno;
	memset(m, 0, sizeof(*m));
	snprintf(m->name, sizeof(m->name), "%s", l->e.tag[0] ? l->e.tag : "untagged");
	snprintf(m->owner, sizeof(m->owner), "HdrHistogram log");
	m->kind = KSTATS_KIND_USER;
	m->frac_bits = bits;
	m->owner_pid = -1;
	m->realtime_ns = m->time_ns = end_s < 1.8e10 ? (uint64_t)(end_s * 1e9) : 0;
	m->sums_unknown = true;
	m->ns = true;	/* read in ns (--hdr-unit converts) */
	dense = xcalloc(nslots, sizeof(*dense));
	for (i = 0; i < l->h.nr; i++) {
		if (!l->h.counts[i])
			continue;
		ks_hdr_bucket(&l->h, i, &lo, &hi);
		if (__builtin_mul_overflow(hi, p->scale, &ns)) {
			free(dense);
			return hlog_bad(p, "a value past 2^64 ns (%llu %s)",
					(unsigned long long)hi, ks_unit_name(hdr_unit()));
		}
		s = kstats_hist_slot(ns, bits);
		if (__builtin_add_overflow(dense[s], l->h.counts[i], &dense[s])) {
			free(dense);
			return hlog_bad(p, "counts past 2^64 in one slot");
		}
	}
	m->nr_cpus = 1;
	m->cpus = xcalloc(1, sizeof(*m->cpus));
	m->slots = xcalloc(nslots, sizeof(*m->slots));
	for (s = 0; s < nslots; s++) {
		if (!dense[s])
			continue;
		m->slots[m->nr_slots].slot = s;
		m->slots[m->nr_slots++].count = dense[s];
		m->cpus[0].count += dense[s];
	}
	m->cpus[0].nr_slots = m->nr_slots;
	free(dense);
	return 0;
}

/* The histograms of @buf, as metrics; 0 or an exit code (printed). */
static int hlog_parse(const char *path, char *buf, size_t len, struct ks_hlog *log)
{
	struct hlog_parse p = { .path = path, .start_time = NAN, .base_time = NAN,
				.scale = (uint64_t)ks_unit_scale(hdr_unit()) };
	char *line = buf, *next, *end = buf + len;
	double offset = 0;
	size_t i;
	int rc = 0;

	memset(log, 0, sizeof(*log));
	for (; line < end && !rc; line = next) {
		size_t n;

		next = memchr(line, '\n', (size_t)(end - line));
		next = next ? next + 1 : end;
		n = (size_t)(next - line);
		p.lineno++;
		if (memchr(line, '\0', n)) {
			rc = hlog_bad(&p, "a NUL byte");
			break;
		}
		while (n && (line[n - 1] == '\n' || line[n - 1] == '\r'))
			n--;
		line[n] = '\0';
		if (!n || line[0] == '"')
			continue;	/* blank, or the legend */
		rc = line[0] == '#' ? parse_comment(&p, line) : parse_histogram(&p, line);
	}
	if (!rc && !p.nr)
		rc = ks_fail(EXIT_RUNTIME, HLOG_HINT, "%s: no histograms in it", path);
	if (!rc)
		tag_bits(&p);
	if (!isnan(p.base_time))
		offset = p.base_time;
	else if (!isnan(p.start_time) && p.nr && p.l[0].e.start_s < p.start_time - YEAR_S)
		offset = p.start_time;
	for (i = 0; i < p.nr; i++) {
		p.l[i].e.start_s += offset;
		if (!rc)
			rc = to_metric(&p, &p.l[i], p.l[i].bits);
		ks_hdr_free(&p.l[i].h);
	}
	log->e = xcalloc(p.nr ? p.nr : 1, sizeof(*log->e));
	for (i = 0; i < p.nr; i++)
		log->e[log->nr++] = p.l[i].e;
	free(p.l);
	if (rc)
		ks_hlog_free(log);
	return rc;
}

void ks_hlog_free(struct ks_hlog *log)
{
	size_t i;

	for (i = 0; i < log->nr; i++)
		ks_metric_free(&log->e[i].m);
	free(log->e);
	log->e = NULL;
	log->nr = 0;
}

int ks_hlog_parse(const char *path, const void *buf, size_t len, struct ks_hlog *log)
{
	char *copy = xcalloc(len + 1, 1);
	int rc;

	memcpy(copy, buf, len);
	rc = hlog_parse(path, copy, len, log);
	free(copy);
	return rc;
}

int ks_hlog_read(const char *path, struct ks_hlog *log)
{
	uint8_t *buf;
	size_t len;
	int rc = ks_file_read(path, &buf, &len);

	if (rc)
		return rc;
	rc = ks_hlog_parse(path, buf, len, log);
	free(buf);
	return rc;
}

/* Adds @from's slots to @to's (one CPU each, slots ascending). */
static int add_slots(struct ks_metric *to, const struct ks_metric *from)
{
	uint32_t nslots = kstats_hist_nslots(to->frac_bits), i;
	uint64_t *dense = xcalloc(nslots, sizeof(*dense));
	int rc = 0;

	for (i = 0; i < to->nr_slots; i++)
		dense[to->slots[i].slot] = to->slots[i].count;
	for (i = 0; i < from->nr_slots && !rc; i++)
		rc = __builtin_add_overflow(dense[from->slots[i].slot], from->slots[i].count,
					    &dense[from->slots[i].slot]);
	free(to->slots);
	to->slots = xcalloc(nslots, sizeof(*to->slots));
	to->nr_slots = 0;
	for (i = 0; i < nslots; i++)
		if (dense[i]) {
			to->slots[to->nr_slots].slot = i;
			to->slots[to->nr_slots++].count = dense[i];
		}
	to->cpus[0].nr_slots = to->nr_slots;
	to->cpus[0].count += from->cpus[0].count;
	if (to->realtime_ns < from->realtime_ns)
		to->realtime_ns = to->time_ns = from->realtime_ns;
	free(dense);
	return rc;
}

/*
 * An hlog as a set: one metric per tag, the sum of its intervals (show and
 * summary say "N intervals summed" through the source's note).
 */
int ks_hlog_parse_set(const char *path, const void *buf, size_t len, struct ks_set *set)
{
	struct ks_hlog log;
	struct ks_metric *m;
	size_t i;
	int rc = ks_hlog_parse(path, buf, len, &log);

	if (rc)
		return rc;
	memset(set, 0, sizeof(*set));
	set->src.file = true;
	set->src.hlog = true;
	set->src.path = path;
	snprintf(set->src.tool_version, sizeof(set->src.tool_version), "HdrHistogram log");
	set->m = xcalloc(log.nr, sizeof(*set->m));
	for (i = 0; i < log.nr && !rc; i++) {
		m = ks_set_find(set, log.e[i].m.name);
		if (!m) {
			set->m[set->nr++] = log.e[i].m;
			log.e[i].m.cpus = NULL;
			log.e[i].m.slots = NULL;
		} else if (add_slots(m, &log.e[i].m)) {
			rc = ks_fail(EXIT_RUNTIME, HLOG_HINT, "%s: %s: counts past 2^64 "
				     "in one slot when its intervals are summed", path, m->name);
		}
	}
	set->src.hlog_intervals = log.nr;
	for (i = 0; i < set->nr; i++) {
		size_t k, n = 0;

		for (k = 0; k < log.nr; k++)
			n += !strcmp(log.e[k].m.name, set->m[i].name);
		snprintf(set->m[i].owner, sizeof(set->m[i].owner), "HdrHistogram log, %zu "
			 "interval%s%s", n, n == 1 ? "" : "s", n == 1 ? "" : " summed");
	}
	for (i = 0; i < set->nr; i++)
		if (set->src.created_ns < set->m[i].realtime_ns)
			set->src.created_ns = set->m[i].realtime_ns;
	ks_hlog_free(&log);
	if (rc)
		ks_set_free(set);
	return rc;
}

/* ---- writing ---- */

void ks_hlog_write_header(FILE *f, double start_s)
{
	time_t t = (time_t)start_s;
	char when[64];

	strftime(when, sizeof(when), "%a %b %d %H:%M:%S UTC %Y", gmtime(&t));
	fprintf(f, "#[Histogram log format version 1.3]\n"
		"#[Written by kstatsctl %s: values in nanoseconds, maximum in "
		"milliseconds]\n"
		"#[StartTime: %.3f (seconds since epoch), %s]\n"
		"#[BaseTime: %.3f (seconds since epoch)]\n"
		"\"StartTimestamp\",\"Interval_Length\",\"Interval_Max\","
		"\"Interval_Compressed_Histogram\"\n",
		KSTATS_VERSION, start_s, when, start_s);
}

int ks_hlog_write_metric(FILE *f, const struct ks_metric *m, double start_s,
			 double length_s)
{
	struct ks_hdr h;
	uint64_t max;
	char *b64;

	if (ks_hdr_from_metric(m, &h, &max))
		return -1;
	b64 = ks_hdr_encode(&h);
	fprintf(f, "Tag=%s,%.3f,%.3f,%.6f,%s\n", m->name, start_s, length_s,
		(double)max / 1e6, b64);
	free(b64);
	ks_hdr_free(&h);
	return 0;
}

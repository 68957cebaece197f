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
 * Reading streams: a log of a day is tens of MB, and only sums are kept.
 * Each line of a selected tag (ks_hlog_select) in the --from/--to window is
 * decoded and added to its tag's running sums, one per frac_bits 0..5
 * (each bucket in the slot of its highest value); other lines are skipped
 * before their base64 is decoded. At the end each tag is one metric of one
 * CPU, read at the frac_bits its buckets really have (hlog_bits.c): the
 * one its "#[kstats: ...]" comment gives when kstatsctl wrote it, else the
 * finest at which every bucket lies inside one slot and the counts are not
 * all at the last slot of a coarser one. Sums are not in a HdrHistogram:
 * the metrics say so (sums_unknown), and means are estimated from the
 * slots with their bound.
 *
 * A log whose last line is cut short (no newline after it: a copy taken
 * while 'export --interval' writes) loses that line with a warning; damage
 * anywhere else is an error naming the line.
 */
#define _GNU_SOURCE	/* memmem */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "kstatsctl.h"
#include "hdr.h"
#include "model.h"
#include "names.h"
#include "units.h"
#include "hlog.h"

#define HLOG_HINT	"is it an HdrHistogram interval log (V2 compressed histograms, " \
			"as HistogramLogWriter writes)?"
#define YEAR_S		31557600.0

static const struct ks_names *selected;

void ks_hlog_select(const struct ks_names *pats)
{
	selected = pats;
}

static bool is_selected(const char *name)
{
	return !selected || !selected->nr || ks_names_fnmatch(selected, name);
}

/* --hdr-unit, ns unless given. */
enum ks_unit ks_hlog_unit(void)
{
	return opts.hdr_unit == UNIT_AUTO ? UNIT_NS : opts.hdr_unit;
}

static int hlog_bad(struct hlog_read *r, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
static int hlog_bad(struct hlog_read *r, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(r->why, sizeof(r->why), fmt, ap);
	va_end(ap);
	return EXIT_RUNTIME;
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
static int parse_seconds(struct hlog_read *r, const char *s, const char *what, double *out)
{
	char *end;

	errno = 0;
	*out = strtod(s, &end);
	if (end == s || *end || errno || !isfinite(*out) || *out < 0 ||
	    !isdigit((unsigned char)*s))
		return hlog_bad(r, "bad %s '%.40s'", what, s);
	return 0;
}

static int parse_tag(struct hlog_read *r, const char *tag, size_t n, char *out)
{
	size_t i;

	if (!n || n >= KSTATS_NAME_LEN)
		return hlog_bad(r, "a tag of %zu characters (kstats names have 1 to %d)",
				n, KSTATS_NAME_LEN - 1);
	for (i = 0; i < n; i++)
		if (!isalnum((unsigned char)tag[i]) && !strchr("_.:-{}=", tag[i]))
			return hlog_bad(r, "tag character 0x%02x at column %zu (kstats "
					"names have letters, digits and _ . : - { } =)",
					(unsigned char)tag[i], i + 5);
	memcpy(out, tag, n);
	out[n] = '\0';
	return 0;
}

struct hlog_tag *ks_hlog_tag(struct hlog_read *r, const char *name)
{
	struct hlog_tag *t;
	size_t i;

	for (i = 0; i < r->nr_tags; i++)
		if (!strcmp(r->tags[i].name, name))
			return &r->tags[i];
	r->tags = xrealloc(r->tags, r->nr_tags + 1, sizeof(*r->tags));
	t = &r->tags[r->nr_tags++];
	memset(t, 0, sizeof(*t));
	snprintf(t->name, sizeof(t->name), "%s", name);
	t->selected = !r->names_only && (r->only ? !strcmp(name, r->only) : is_selected(name));
	t->nest = KSTATS_FRAC_BITS_MAX;
	t->layout_bits = KSTATS_FRAC_BITS_MAX;
	t->kbits = -1;
	t->min_len = INFINITY;
	t->t0 = INFINITY;
	t->t1 = -INFINITY;
	return t;
}

/* "#[kstats: tag=NAME frac_bits=N unit=ns|none]" (ks_hlog_write_kstats). */
static int parse_kstats(struct hlog_read *r, const char *s)
{
	char name[KSTATS_NAME_LEN], unit[8];
	struct hlog_tag *t;
	unsigned int bits;
	int n = 0;

	if (sscanf(s, "#[kstats: tag=%63[^ ] frac_bits=%u unit=%7[a-z]]%n", name, &bits,
		   unit, &n) != 3 || !n || bits > KSTATS_FRAC_BITS_MAX ||
	    (strcmp(unit, "ns") && strcmp(unit, "none")))
		return hlog_bad(r, "a kstats comment that is not '#[kstats: tag=NAME "
				"frac_bits=0..5 unit=ns|none]'");
	t = ks_hlog_tag(r, name);
	if (t->intervals_seen && t->kbits == -1) {
		t->kbits = -3;	/* after lines read at --hdr-unit: not for them */
	} else if (t->kbits == -1) {
		t->kbits = (int)bits;
		t->kns = !strcmp(unit, "ns");
	} else if (t->kbits >= 0 && (t->kbits != (int)bits || t->kns != !strcmp(unit, "ns"))) {
		t->kbits = -2;	/* the trace was made again, otherwise */
	}
	return 0;
}

static int parse_comment(struct hlog_read *r, const char *s)
{
	const char *v;
	double *dst = NULL;
	char num[64];
	size_t n;

	if (!strncmp(s, "#[kstats: ", 10))
		return parse_kstats(r, s);
	if (!strncmp(s, "#[StartTime: ", 13))
		dst = &r->start_time;
	else if (!strncmp(s, "#[BaseTime: ", 12))
		dst = &r->base_time;
	else if (!strncmp(s, "#[Histogram log format version ", 31) &&
		 strncmp(s + 31, "1.", 2))
		return hlog_bad(r, "log format version %.*s (1.x is read)",
				(int)strcspn(s + 31, "]"), s + 31);
	if (!dst)
		return 0;	/* other comments, e.g. the writer's name */
	v = strchr(s, ' ') + 1;
	n = strcspn(v, " ]");
	if (n >= sizeof(num))
		n = sizeof(num) - 1;
	memcpy(num, v, n);
	num[n] = '\0';
	return parse_seconds(r, num, "time", dst);
}

/* The start of the log, once its first histogram is read: the window's origin. */
static void first_histogram(struct hlog_read *r, double start_s)
{
	if (!isnan(r->base_time))
		r->offset = r->base_time;
	else if (!isnan(r->start_time) && start_s < r->start_time - YEAR_S)
		r->offset = r->start_time;
	r->log_start = !isnan(r->start_time) ? r->start_time : start_s + r->offset;
	ks_hlog_window_resolve(r->log_start, &r->from, &r->to);
	r->started = true;
}

static int decode(struct hlog_read *r, const char *b64, struct ks_hdr *h)
{
	uint8_t *bin;
	size_t bin_len;
	int rc;

	if (ks_unbase64(b64, strlen(b64), &bin, &bin_len, r->why, sizeof(r->why)))
		return EXIT_RUNTIME;
	rc = ks_hdr_decode(bin, bin_len, h, r->why, sizeof(r->why));
	free(bin);
	return rc ? EXIT_RUNTIME : 0;
}

static int parse_histogram(struct hlog_read *r, char *s)
{
	char *f[4], name[KSTATS_NAME_LEN] = "untagged";
	double start, length, max;
	struct hlog_tag *t;
	struct ks_hdr h;
	size_t n;
	int i, rc;
	bool in;

	if (!strncmp(s, "Tag=", 4)) {
		n = strcspn(s + 4, ",");
		if (!s[4 + n])
			return hlog_bad(r, "a tag and no histogram");
		if (parse_tag(r, s + 4, n, name))
			return EXIT_RUNTIME;
		s += 4 + n + 1;
	}
	for (i = 0; i < 4; i++) {
		f[i] = s;
		s += strcspn(s, ",");
		if (i < 3 && !*s)
			return hlog_bad(r, "%d fields, not 4 (start, length, max, histogram)",
					i + 1);
		if (i < 3)
			*s++ = '\0';
	}
	if (strchr(f[3], ','))
		return hlog_bad(r, "more than 4 fields (start, length, max, histogram)");
	if (parse_seconds(r, f[0], "start time", &start) ||
	    parse_seconds(r, f[1], "interval length", &length) ||
	    parse_seconds(r, f[2], "maximum", &max))
		return EXIT_RUNTIME;
	if (!r->started)
		first_histogram(r, start);
	start += r->offset;
	t = ks_hlog_tag(r, name);
	in = start >= r->from && start < r->to;
	/* Other tags' lines are not decoded: a day's log has many. */
	if (in && t->selected && decode(r, f[3], &h))
		return EXIT_RUNTIME;
	r->nr_lines++;
	r->first_start = fmin(r->first_start, start);
	r->last_start = fmax(r->last_start, start);
	t->intervals_seen++;
	if (!in || !t->selected) {
		r->nr_window += in;
		return 0;
	}
	r->nr_window++;
	rc = r->line_fn(r, t, start, length, &h);
	ks_hdr_free(&h);
	return rc;
}

/* Adds @h to @t's sums (the first pass of every reading). */
static int sum_line(struct hlog_read *r, struct hlog_tag *t, double start, double length,
		    const struct ks_hdr *h)
{
	t->intervals++;
	t->t0 = fmin(t->t0, start);
	t->t1 = fmax(t->t1, start + length);
	if (length > 0)
		t->min_len = fmin(t->min_len, length);
	return ks_hlog_tag_add(r, t, h);
}

/*
 * One line, NUL-terminated in place (its newline dropped). A line that
 * fails and is the last, cut short, is a warning.
 */
static int one_line(struct hlog_read *r, char *line, size_t n, bool cut)
{
	int rc;

	r->lineno++;
	if (memchr(line, '\0', n))
		rc = hlog_bad(r, "a NUL byte");
	else if (!n || line[0] == '"')
		rc = 0;		/* blank, or the legend */
	else
		rc = line[0] == '#' ? parse_comment(r, line) : parse_histogram(r, line);
	if (rc && cut) {
		ks_warn("%s:%u: the last line is cut short (%s): left out", r->path,
			r->lineno, r->why);
		return 0;
	}
	if (rc)
		return ks_fail(EXIT_RUNTIME, HLOG_HINT, "%s:%u: %s", r->path, r->lineno, r->why);
	return 0;
}

static const char *utc(double t, char *buf, size_t len)
{
	time_t s = (time_t)t;
	struct tm tm;

	strftime(buf, len, "%Y-%m-%d %H:%M:%S UTC", gmtime_r(&s, &tm));
	return buf;
}

int ks_hlog_scan(struct hlog_read *r, const char *buf, size_t len)
{
	const char *line = buf, *next, *end = buf + len;
	char when[64];
	size_t cap = 0;
	int rc = 0;

	r->start_time = r->base_time = NAN;
	r->offset = 0;
	r->lineno = 0;
	r->started = false;
	r->nr_lines = r->nr_window = 0;
	r->first_start = INFINITY;
	r->last_start = -INFINITY;
	if (!r->line_fn)
		r->line_fn = sum_line;
	for (; line < end && !rc; line = next) {
		const char *nl = memchr(line, '\n', (size_t)(end - line));
		size_t n;

		next = nl ? nl + 1 : end;
		n = (size_t)(next - line);
		while (n && (line[n - 1] == '\n' || line[n - 1] == '\r'))
			n--;
		if (n + 1 > cap) {
			cap = 2 * (n + 1);
			free(r->line);
			r->line = xcalloc(cap, 1);
		}
		memcpy(r->line, line, n);
		r->line[n] = '\0';
		rc = one_line(r, r->line, n, !nl && next == end && n);
	}
	free(r->line);
	r->line = NULL;
	if (!rc && !r->nr_lines)
		rc = ks_fail(EXIT_RUNTIME, HLOG_HINT, "%s: no histograms in it", r->path);
	if (!rc && !r->nr_window) {
		ks_set_hint("its intervals start from %.3f to %.3f s after the log's start, "
			    "%s; --from and --to are seconds from it, or UTC times",
			    r->first_start - r->log_start, r->last_start - r->log_start,
			    utc(r->log_start, when, sizeof(when)));
		rc = ks_fail(EXIT_RUNTIME, NULL, "%s: none of its %zu intervals starts in "
			     "the window of --from/--to", r->path, r->nr_lines);
	}
	return rc;
}

void ks_hlog_read_free(struct hlog_read *r)
{
	size_t i;
	int b;

	for (i = 0; i < r->nr_tags; i++)
		for (b = 0; b <= KSTATS_FRAC_BITS_MAX; b++)
			free(r->tags[i].sum[b]);
	free(r->tags);
	free(r->line);
	memset(r, 0, sizeof(*r));
}

/*
 * An hlog as a set: one metric per tag, the sum of its intervals in the
 * window (show and summary say "N intervals summed" through the owner).
 */
int ks_hlog_parse_set(const char *path, const void *buf, size_t len, struct ks_set *set)
{
	struct hlog_read r = { .path = path };
	size_t i;
	int rc;

	memset(set, 0, sizeof(*set));
	rc = ks_hlog_scan(&r, buf, len);
	set->m = xcalloc(r.nr_tags ? r.nr_tags : 1, sizeof(*set->m));
	for (i = 0; i < r.nr_tags && !rc; i++) {
		struct hlog_tag *t = &r.tags[i];
		struct ks_metric *m = &set->m[set->nr];

		if (!t->intervals_seen)
			continue;	/* a comment only, or a cut line's */
		set->nr++;
		rc = ks_hlog_tag_metric(&r, t, m);
		if (rc)
			break;
		if (!t->selected)
			snprintf(m->owner, sizeof(m->owner), "HdrHistogram log, not read");
		else
			snprintf(m->owner, sizeof(m->owner), "HdrHistogram log, %zu interval%s%s",
				 t->intervals, t->intervals == 1 ? "" : "s",
				 t->intervals == 1 ? "" : " summed");
		if (set->src.created_ns < m->realtime_ns)
			set->src.created_ns = m->realtime_ns;
	}
	set->src.file = true;
	set->src.hlog = true;
	set->src.path = path;
	set->src.hlog_intervals = r.nr_window;
	snprintf(set->src.tool_version, sizeof(set->src.tool_version), "HdrHistogram log");
	ks_hlog_read_free(&r);
	if (rc)
		ks_set_free(set);
	return rc;
}

int ks_hlog_tags(const char *path, const void *buf, size_t len, struct ks_set *set)
{
	struct hlog_read r = { .path = path, .names_only = true };
	size_t i;
	int rc;

	rc = ks_hlog_scan(&r, buf, len);
	memset(set, 0, sizeof(*set));
	set->m = xcalloc(r.nr_tags ? r.nr_tags : 1, sizeof(*set->m));
	for (i = 0; i < r.nr_tags && !rc; i++)
		if (r.tags[i].intervals_seen)
			memcpy(set->m[set->nr++].name, r.tags[i].name, KSTATS_NAME_LEN);
	ks_hlog_read_free(&r);
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

void ks_hlog_write_kstats(FILE *f, const struct ks_metric *m)
{
	fprintf(f, "#[kstats: tag=%s frac_bits=%u unit=%s]\n", m->name, m->frac_bits,
		ks_metric_is_ns(m) ? "ns" : "none");
}

int ks_hlog_write_metric(FILE *f, const struct ks_metric *m, double start_s,
			 double length_s)
{
	struct ks_hdr h;
	uint64_t max;
	char *b64;
	int rc = ks_hdr_from_metric(m, &h, &max);

	if (rc < 0)
		return -1;
	b64 = ks_hdr_encode(&h);
	fprintf(f, "Tag=%s,%.3f,%.3f,%.6f,%s\n", m->name, start_s, length_s,
		(double)max / 1e6, b64);
	free(b64);
	ks_hdr_free(&h);
	return rc;
}

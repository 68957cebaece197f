// SPDX-License-Identifier: GPL-2.0
/*
 * kstatsctl export [PATTERN...] [-i FILE] [-o FILE [--interval SECONDS]]
 *
 * The metrics in the Prometheus text format (0.0.4) that node_exporter's
 * textfile collector reads: to standard output, or to FILE replaced
 * atomically (written beside it under a name the collector skips, fsync'ed,
 * renamed over it, the directory fsync'ed), once or every SECONDS.
 *
 * Families never collide, whatever the names: one family per unit, the
 * kstats name in a "name" label.
 *   kstats_duration_seconds  histogram: traces' metrics (nanoseconds, shown
 *                            in seconds) and those named by --ns
 *   kstats_value             histogram: every other metric, as recorded
 *                            (a module's or a program's own unit, and
 *                            traced values: trace --value, unitless)
 *   kstats_duration_by_KEY_seconds  histogram: a trace's key metrics
 *                            (trace --by errno|cgroup), the trace's name in
 *                            "name" and the key's value in a label named
 *                            after the key, as show -f prometheus gives it:
 *                            {name="t",errno="-EAGAIN"}, {cgroup="/a/b"};
 *                            a family of its own, so that summing a trace's
 *                            family never counts its calls twice
 *   kstats_hits_total, kstats_misses_total  counters, traces only
 *   kstats_probe_floor_seconds              gauge, traces only
 *   kstats_outliers_total, kstats_outliers_lost_total  counters, traces
 *                            that keep outliers (trace --outliers); lost
 *                            is overwritten plus rate-limited
 *   kstats_faults_total, kstats_rejected_total  counters, traces with
 *                            --value (or that counted some): reads that
 *                            faulted, calls --if declined (from a module)
 *   kstats_recording         gauge: 1 recording, 0 stopped
 *   kstats_skipped_total     counter, traces: calls declined by sampling
 *   kstats_sample_every      gauge, traces: 1 call in N recorded
 *   kstats_trace_mode        gauge, traces: 0 full, 1 sampled by the
 *                            governor, 2 sampled as asked, 3 detached by it
 *   kstats_cost_ratio        gauge, governed traces: the estimated share of
 *                            one CPU the trace costs
 * (the last four from a module that tells: not from files).
 *   kstats_up                gauge: 1 this export worked; 0 it failed (the
 *                            module is not loaded, or a NAME matched nothing)
 * A one-shot export to -o FILE that fails writes kstats_up 0 to FILE, and
 * exits 1: the textfile collector's convention is an atomic replace, and
 * a file left as it was would say kstats_up 1 for ever (removing it would
 * make the series vanish instead of saying why).
 * Buckets: a ladder fixed per metric, the same at every export: 2^B
 * buckets per power of two (-b/--bits B; --bucket-bits, its older name; default 0, at most the
 * metric's frac_bits), each a union of whole slots, so every count is
 * exact; le = the largest integer in the bucket (Prometheus' buckets are
 * upper-inclusive). Empty buckets are written too: the series never
 * change between exports. A RESET empties the counts, which Prometheus
 * reads as a counter reset.
 */
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "kstatsctl.h"
#include "device.h"
#include "fmt.h"
#include "hdr.h"
#include "keys.h"
#include "model.h"
#include "names.h"
#include "snapfile.h"
#include "stats.h"
#include "text.h"
#include "units.h"

struct export_args {
	struct ks_names pats;
	const char *input, *output;
	double interval;
	long count;
	uint32_t bucket_bits;
	bool per_cpu;
	bool hdr;		/* --format hdr (export_hdr.c) */
};

enum { OPT_INTERVAL = 0x300, OPT_COUNT, OPT_PER_CPU, OPT_BUCKET_BITS };

static const struct argp_child children[] = {
	{ &ks_global_argp, 0, NULL, 0 },
	{ 0 }
};

static const struct argp_option export_options[] = {
	{ "input", 'i', "FILE", 0, "Read a snapshot file instead of the live metrics", 0 },
	{ "output", 'o', "FILE", 0, "Replace FILE atomically (default: standard output)", 0 },
	{ "interval", 'w', "SECONDS", 0, "Export again every SECONDS "
	  "(with -o), until stopped", 0 },
	{ "count", OPT_COUNT, "N", 0, "With --interval: stop after N exports", 0 },
	{ "bucket-bits", OPT_BUCKET_BITS, "B", 0, "2^B buckets per power of two, "
	  "0 to 5 (default 0)", 0 },
	/* Its old spelling: -b is frac_bits in show and trace (kstatsctl(8)). */
	{ "bits", 'b', "B", OPTION_HIDDEN, NULL, 0 },
	{ "per-cpu", OPT_PER_CPU, NULL, 0, "A series per CPU (cpu label)", 0 },
	{ "format", 'f', "FORMAT", 0, "prometheus (the default), or hdr: an HdrHistogram "
	  "interval log (with --interval, one interval per period)", 0 },
	{ 0 }
};

static error_t export_parse(int key, char *arg, struct argp_state *state)
{
	struct export_args *a = state->input;

	switch (key) {
	case 'i':
		a->input = arg;
		break;
	case 'o':
		a->output = arg;
		break;
	case 'w':
		return ks_parse_seconds("--interval", arg, 0.01, 86400, &a->interval);
	case OPT_COUNT:
		return ks_parse_count("--count", arg, &a->count);
	case 'b':
		ks_warn("export's -b and --bits are now --bucket-bits "
			"(-b is frac_bits in show and trace)");
		/* fall through */
	case OPT_BUCKET_BITS:
		if (ks_parse_u32(arg, KSTATS_FRAC_BITS_MAX, &a->bucket_bits)) {
			ks_usage("--bucket-bits: '%s' is not 0 to %u", arg,
				 KSTATS_FRAC_BITS_MAX);
			return EINVAL;
		}
		break;
	case OPT_PER_CPU:
		a->per_cpu = true;
		break;
	case 'f':
		if (strcmp(arg, "prometheus") && strcmp(arg, "hdr")) {
			ks_usage("--format: '%s' is not prometheus or hdr", arg);
			return EINVAL;
		}
		a->hdr = !strcmp(arg, "hdr");
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

const struct argp export_argp = {
	export_options, export_parse, "[PATTERN...] [-o FILE [--interval SECONDS]]",
	"Writes the metrics (all, or those whose names match a PATTERN, shell-style "
	"as in 'net.*') for node_exporter's textfile collector: Prometheus text, "
	"collision-free families, a fixed bucket ladder per metric, hits, misses "
	"and state beside each histogram.",
	children, NULL, NULL
};

/* @s as a label value: as on a terminal (ks_text), then \ and " escaped. */
static char *label_value(char *buf, size_t len, const char *s)
{
	size_t tl = KS_TEXT_LEN(strlen(s)), o = 0;
	char *t = xcalloc(tl, 1);
	const char *p;

	ks_text(t, tl, s);
	for (p = t; *p && o + 2 < len; p++) {
		if (*p == '\\' || *p == '"')
			buf[o++] = '\\';
		buf[o++] = *p;
	}
	buf[o] = '\0';
	free(t);
	return buf;
}

/* Room for a metric's labels: name="...",KEY="..." (a cgroup's path), escaped. */
#define LABELS_LEN	(2 * KS_TEXT_LEN(KSTATS_NAME_LEN + KS_KEY_VALUE_MAX) + 64)

/*
 * @m's labels into @buf: name="NAME", or for a trace key's metric
 * NAME{KEY=VALUE} name="NAME",KEY="VALUE" with the value as text shows it
 * (errno="-EAGAIN", cgroup="/system.slice"). Returns the key, or NULL.
 */
static const char *metric_labels(char *buf, size_t len, const struct ks_metric *m,
				 struct ks_key *k)
{
	char *name = xcalloc(LABELS_LEN, 1), *val = xcalloc(LABELS_LEN, 1);
	char base[KSTATS_NAME_LEN + 1], text[KS_KEY_VALUE_MAX + 64];
	const char *key = NULL;

	if (!ks_key_parse(m->name, k)) {
		snprintf(buf, len, "name=\"%s\"", label_value(name, LABELS_LEN, m->name));
	} else {
		snprintf(base, sizeof(base), "%.*s", (int)k->base_len, m->name);
		snprintf(buf, len, "name=\"%s\",%s=\"%s\"",
			 label_value(name, LABELS_LEN, base), k->key,
			 label_value(val, LABELS_LEN, ks_key_value_text(k, text, sizeof(text))));
		key = k->key;
	}
	free(name);
	free(val);
	return key;
}


/* One histogram's series: every bucket of the ladder, +Inf, sum, count. */
static void series(FILE *out, const char *fam, const char *labels,
		   const struct ks_metric *m, int row, uint32_t bits, double scale)
{
	struct ks_hist h;
	struct ks_stats st;
	ks_u128 cum = 0;
	char le[48], n[48];
	uint32_t s;

	ks_hist_build(&h, m, row);
	for (s = 0; s < h.nslots; s++) {
		uint64_t last = kstats_slot_last(s, h.frac_bits);

		cum += h.count[s];
		/* A bucket ends where a slot of the coarser ladder ends. */
		if (last == UINT64_MAX ||
		    kstats_slot_last(kstats_hist_slot(last, bits), bits) != last)
			continue;
		fprintf(out, "%s_bucket{%s,le=\"%s\"} %s\n", fam, labels,
			ks_prom_float(le, sizeof(le), (double)last / scale),
			ks_fmt_u128(n, sizeof(n), cum));
	}
	fprintf(out, "%s_bucket{%s,le=\"+Inf\"} %s\n", fam, labels,
		ks_fmt_u128(n, sizeof(n), h.total));
	ks_hist_stats(&h, &st);
	fprintf(out, "%s_sum{%s} %s\n", fam, labels,
		ks_prom_float(le, sizeof(le), st.sum / scale));
	fprintf(out, "%s_count{%s} %s\n", fam, labels, ks_fmt_u128(n, sizeof(n), h.total));
	ks_hist_free(&h);
}

/*
 * The histograms of @set in one family: with @key NULL, those of no key,
 * kstats_duration_seconds (@durations) or kstats_value; else those of
 * that key, kstats_duration_by_KEY_seconds or kstats_value_by_KEY.
 */
static void histograms(FILE *out, const struct ks_set *set, const struct export_args *a,
		       bool durations, const char *key)
{
	char fam[64], *labels = xcalloc(LABELS_LEN, 1), *lc = xcalloc(LABELS_LEN + 32, 1);
	const char *mk;
	struct ks_key k;
	bool head = false;
	size_t i;
	uint32_t r;

	if (key)
		snprintf(fam, sizeof(fam), durations ? "kstats_duration_by_%s_seconds" :
			 "kstats_value_by_%s", key);
	else
		snprintf(fam, sizeof(fam), durations ? "kstats_duration_seconds" :
			 "kstats_value");
	for (i = 0; i < set->nr; i++) {
		const struct ks_metric *m = &set->m[i];
		uint32_t bits = a->bucket_bits < m->frac_bits ? a->bucket_bits : m->frac_bits;

		mk = metric_labels(labels, LABELS_LEN, m, &k);
		if (ks_metric_is_ns(m) != durations || (mk && !key) || (!mk && key) ||
		    (mk && strcmp(mk, key)))
			continue;
		if (!head) {
			if (key)
				fprintf(out, "# HELP %s %s of a trace, by %s (labels name: the "
					"trace, %s: the key's value).\n", fam, durations ?
					"Time measured by kstats" : "Values recorded by kstats",
					key, key);
			else
				fprintf(out, "# HELP %s %s\n", fam, durations ?
					"Time measured by kstats (label name: the kstats metric)." :
					"Values recorded by kstats, in the unit their recorder "
					"uses (label name: the kstats metric).");
			fprintf(out, "# TYPE %s histogram\n", fam);
			head = true;
		}
		if (!a->per_cpu) {
			series(out, fam, labels, m, -1, bits, durations ? 1e9 : 1);
			continue;
		}
		for (r = 0; r < m->nr_cpus; r++) {
			snprintf(lc, LABELS_LEN + 32, "%s,cpu=\"%u\"", labels, m->cpus[r].cpu);
			series(out, fam, lc, m, (int)r, bits, durations ? 1e9 : 1);
		}
	}
	free(labels);
	free(lc);
}

/* Every family of histograms: no key first, then each key in @set's order. */
static void all_histograms(FILE *out, const struct ks_set *set, const struct export_args *a)
{
	struct ks_key k, seen;
	size_t i, j;
	int ns;

	for (ns = 1; ns >= 0; ns--)
		histograms(out, set, a, ns, NULL);
	for (i = 0; i < set->nr; i++) {
		if (!ks_key_parse(set->m[i].name, &k))
			continue;
		for (j = 0; j < i; j++)
			if (ks_key_parse(set->m[j].name, &seen) && !strcmp(seen.key, k.key))
				break;
		if (j < i)
			continue;	/* that key's families are out */
		for (ns = 1; ns >= 0; ns--)
			histograms(out, set, a, ns, k.key);
	}
}

enum extra { HITS, MISSES, FLOOR, RECORDING, SKIPPED, SAMPLE_EVERY, MODE, COST,
	     OUTLIERS, OUTLIERS_LOST, FAULTS, REJECTED };

static void extras(FILE *out, const struct ks_set *set, enum extra what)
{
	static const char *const fams[][3] = {
		[HITS] = { "kstats_hits_total", "counter",
			   "Calls a trace timed (label name: its metric)." },
		[MISSES] = { "kstats_misses_total", "counter",
			     "Calls a trace could not time." },
		[FLOOR] = { "kstats_probe_floor_seconds", "gauge",
			    "A trace's own cost, measured when it was attached." },
		[OUTLIERS] = { "kstats_outliers_total", "counter",
			       "Calls a trace kept as outliers (kstatsctl outliers NAME)." },
		[OUTLIERS_LOST] = { "kstats_outliers_lost_total", "counter",
				    "Outliers overwritten in a trace's ring or rate-limited." },
		[FAULTS] = { "kstats_faults_total", "counter",
			     "Calls a trace --value/--if did not record: a read faulted." },
		[REJECTED] = { "kstats_rejected_total", "counter",
			       "Calls a trace's --if declined." },
		[RECORDING] = { "kstats_recording", "gauge",
				"1: the metric records, 0: stopped." },
		[SKIPPED] = { "kstats_skipped_total", "counter",
			      "Calls a trace declined by sampling (hits + misses + "
			      "skipped: every call)." },
		[SAMPLE_EVERY] = { "kstats_sample_every", "gauge",
				   "A trace records 1 call in this many: its histogram "
				   "is a sample when above 1." },
		[MODE] = { "kstats_trace_mode", "gauge",
			   "0: every call, 1: sampled by the overhead governor, "
			   "2: sampled as asked, 3: detached by the governor." },
		[COST] = { "kstats_cost_ratio", "gauge",
			   "The governor's estimate of a trace's cost, a share of "
			   "one CPU (an estimate)." },
	};
	char *labels = xcalloc(LABELS_LEN, 1), v[48];
	bool head = false;
	struct ks_key k;
	size_t i;

	for (i = 0; i < set->nr; i++) {
		const struct ks_metric *m = &set->m[i];

		if (what != RECORDING && !ks_metric_is_trace_own(m))
			continue;
		if ((what == FAULTS || what == REJECTED) &&
		    (!m->expr_known || (!ks_metric_is_value(m) && !m->faults &&
					!m->rejected)))
			continue;
		/* Sampling known (from the module), and a cost only if governed. */
		if (what >= SKIPPED && (!m->smp.sample_every ||
					(what == COST && !m->smp.budget_ppm)) &&
		    what < OUTLIERS)
			continue;
		if ((what == OUTLIERS || what == OUTLIERS_LOST) && !m->has_outliers)
			continue;
		if (!head) {
			fprintf(out, "# HELP %s %s\n# TYPE %s %s\n", fams[what][0],
				fams[what][2], fams[what][0], fams[what][1]);
			head = true;
		}
		if (what == HITS)
			snprintf(v, sizeof(v), "%llu", (unsigned long long)m->hits);
		else if (what == MISSES)
			snprintf(v, sizeof(v), "%llu", (unsigned long long)m->misses);
		else if (what == FAULTS)
			snprintf(v, sizeof(v), "%llu", (unsigned long long)m->faults);
		else if (what == REJECTED)
			snprintf(v, sizeof(v), "%llu", (unsigned long long)m->rejected);
		else if (what == FLOOR)
			ks_prom_float(v, sizeof(v), (double)m->floor_ns / 1e9);
		else if (what == SKIPPED)
			snprintf(v, sizeof(v), "%llu", (unsigned long long)m->smp.skipped);
		else if (what == SAMPLE_EVERY)
			snprintf(v, sizeof(v), "%u", m->smp.sample_every);
		else if (what == MODE)
			snprintf(v, sizeof(v), "%u", m->smp.mode);
		else if (what == COST)
			ks_prom_float(v, sizeof(v), m->smp.cost_ppm / 1e6);
		else if (what == OUTLIERS)
			snprintf(v, sizeof(v), "%llu", (unsigned long long)m->outl.captured);
		else if (what == OUTLIERS_LOST)
			snprintf(v, sizeof(v), "%llu", (unsigned long long)
				 (m->outl.overwritten + m->outl.ratelimited));
		else
			snprintf(v, sizeof(v), "%d", !!(m->flags & KSTATS_METRIC_ACTIVE));
		metric_labels(labels, LABELS_LEN, m, &k);
		fprintf(out, "%s{%s} %s\n", fams[what][0], labels, v);
	}
	free(labels);
}

static int write_export(FILE *out, const struct ks_set *set, const struct export_args *a,
			bool up)
{
	if (a->hdr)
		return ks_export_hdr_once(out, set);
	fprintf(out, "# HELP kstats_up 1: this export worked, 0: it failed (module not "
		"loaded, a NAME matched nothing).\n"
		"# TYPE kstats_up gauge\nkstats_up %d\n", up);
	all_histograms(out, set, a);
	extras(out, set, HITS);
	extras(out, set, MISSES);
	extras(out, set, FLOOR);
	extras(out, set, OUTLIERS);
	extras(out, set, OUTLIERS_LOST);
	extras(out, set, FAULTS);
	extras(out, set, REJECTED);
	extras(out, set, RECORDING);
	extras(out, set, SKIPPED);
	extras(out, set, SAMPLE_EVERY);
	extras(out, set, MODE);
	extras(out, set, COST);
	return 0;
}

/* Writes @path through a hidden file beside it, then renames it over. */
static int replace_file(const char *path, const struct ks_set *set,
			const struct export_args *a, bool up)
{
	char *d = xstrdup(path), *b = xstrdup(path), *tmp;
	const char *dir = dirname(d), *base = basename(b);
	int fd, dfd, err = 0;
	FILE *f = NULL;

	tmp = xcalloc(strlen(dir) + strlen(base) + 16, 1);
	sprintf(tmp, "%s/.%s.XXXXXX", dir, base);
	fd = mkstemp(tmp);
	if (fd < 0) {
		err = errno;
		goto out;
	}
	f = fdopen(fd, "w");
	if (!f) {
		err = errno;
		close(fd);
		unlink(tmp);
		goto out;
	}
	if (write_export(f, set, a, up))
		err = EINVAL;
	/* Readable by node_exporter's user; mkstemp made it 0600. */
	if (!err && (fflush(f) || fchmod(fd, 0644) || fsync(fd)))
		err = errno;
	if (fclose(f) && !err)
		err = errno;
	if (!err && rename(tmp, path))
		err = errno;
	if (err) {
		unlink(tmp);
		goto out;
	}
	dfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (dfd >= 0) {
		fsync(dfd);
		close(dfd);
	}
out:
	if (err)	/* EINVAL: the writer said why */
		ks_fail(EXIT_RUNTIME, NULL, "writing %s: %s", path, strerror(err));
	free(tmp);
	free(d);
	free(b);
	return err ? EXIT_RUNTIME : 0;
}

static int emit(const struct ks_set *set, const struct export_args *a, bool up)
{
	if (!a->output || !strcmp(a->output, "-")) {
		if (write_export(stdout, set, a, up))
			return EXIT_RUNTIME;
		return fflush(stdout) ? ks_fail(EXIT_RUNTIME, NULL, "writing: %s",
						strerror(errno)) : 0;
	}
	return replace_file(a->output, set, a, up);
}

/*
 * A failed one-shot export to a file: the file says kstats_up 0 (replaced
 * atomically, as every export is) rather than keep an older export's
 * kstats_up 1 that a dashboard would take for the present. Returns @rc.
 */
static int export_failed(const struct export_args *a, int rc)
{
	struct ks_set none = { 0 };

	if (a->output && strcmp(a->output, "-"))
		replace_file(a->output, &none, a, false);
	return rc;
}

/*
 * One export of the live metrics. With --interval the device is opened
 * each time and closed after, so that the exporter never holds the module:
 * while it is not loaded, kstats_up is 0 (said once on standard error).
 */
static int export_live(const struct export_args *a, bool looping, bool *was_down)
{
	struct ks_set set = { 0 };
	int fd, rc;

	if (!looping) {
		fd = ks_dev_open();
		if (fd < 0)
			return export_failed(a, EXIT_RUNTIME);
	} else {
		fd = ks_dev_try_open();
		if (fd < 0) {
			if (!*was_down)
				fprintf(stderr, "kstatsctl: %s: %s; exporting kstats_up 0 "
					"until it is back\n", ks_dev_path(), strerror(errno));
			*was_down = true;
			return emit(&set, a, false);
		}
		*was_down = false;
	}
	rc = ks_take_matching(fd, &a->pats, &set);
	close(fd);
	if (!rc)
		rc = emit(&set, a, true);
	else if (looping)	/* a NAME matches nothing yet: 0 until it does */
		rc = emit(&set, a, false);
	else
		rc = export_failed(a, rc);
	ks_set_free(&set);
	return rc;
}

int cmd_export(int argc, char **argv)
{
	struct export_args a = { 0 };
	struct timespec next;
	struct ks_set set = { 0 };
	bool down = false;
	int rc, done;
	long n;

	rc = ks_parse(&export_argp, argc, argv, &a, &done);
	if (rc || done)
		goto out;
	rc = EXIT_USAGE;
	if (opts.units_set) {
		ks_usage(a.hdr ? "export --format hdr writes nanoseconds: --units does "
			 "not apply" : "export writes seconds, Prometheus' unit: --units "
			 "does not apply");
		goto out;
	}
	if (opts.json) {
		ks_usage(a.hdr ? "export --format hdr writes an HdrHistogram log: -j does "
			 "not apply (read it back with 'show -j -i FILE')" :
			 "export writes Prometheus text: -j does not apply");
		goto out;
	}
	if (a.hdr && (a.per_cpu || a.bucket_bits)) {
		ks_usage("--per-cpu and --bits are Prometheus' options: --format hdr "
			 "writes every slot of all CPUs");
		goto out;
	}
	if (a.hdr && a.interval && a.input) {
		ks_usage("--interval reads the live metrics, not a file");
		goto out;
	}
	if (a.hdr && a.interval) {
		rc = ks_export_hdr_loop(&a.pats, a.output, a.interval, a.count);
		goto out;
	}
	if (a.interval && (!a.output || !strcmp(a.output, "-"))) {
		ks_usage("--interval needs -o FILE");
		goto out;
	}
	if (a.interval && a.input) {
		ks_usage("--interval reads the live metrics, not a file");
		goto out;
	}
	if (a.count && !a.interval) {
		ks_usage("--count goes with --interval");
		goto out;
	}
	if (a.input) {
		rc = ks_snapfile_read(a.input, &set);
		if (!rc)
			rc = ks_set_check(&set, &a.pats, a.input);
		if (!rc) {
			ks_set_keep(&set, &a.pats);
			rc = emit(&set, &a, true);
		} else {
			rc = export_failed(&a, rc);
		}
		goto out;
	}
	if (!a.interval) {
		rc = export_live(&a, false, &down);
		goto out;
	}
	clock_gettime(CLOCK_MONOTONIC, &next);
	for (n = 0; !a.count || n < a.count; n++) {
		if (n)
			ks_sleep_until(&next, a.interval);
		rc = export_live(&a, true, &down);
		if (rc && !down)
			goto out;	/* cannot write the file: nothing to wait for */
	}
out:
	ks_set_free(&set);
	free(a.pats.v);
	return rc;
}

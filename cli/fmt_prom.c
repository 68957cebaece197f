// SPDX-License-Identifier: GPL-2.0
/*
 * --format prometheus: OpenMetrics text, one histogram family per metric,
 * readable by Prometheus' text parser too (node_exporter's textfile
 * collector):
 *
 *   # HELP kstats_selftest_b3_seconds kstats metric selftest.b3 (...)
 *   # TYPE kstats_selftest_b3_seconds histogram
 *   # UNIT kstats_selftest_b3_seconds seconds
 *   kstats_selftest_b3_seconds_bucket{le="1.023e-06"} 12
 *   ...
 *   kstats_selftest_b3_seconds_bucket{le="+Inf"} 4000
 *   kstats_selftest_b3_seconds_sum 0.004936
 *   kstats_selftest_b3_seconds_count 4000
 *   # EOF
 *
 * The family is "kstats_" and the metric's name with every character
 * outside [A-Za-z0-9_] made "_", then "_seconds" for a metric of
 * nanoseconds: Prometheus' base unit, the only one its conventions and
 * promtool accept, so --units is refused here (show.c); a metric with no
 * known unit has no suffix, no UNIT line and its numbers as recorded. Buckets are cumulative with le = the largest value of a
 * slot (samples are integers), one per non-empty slot (every slot with
 * --all-slots). With --cpu or --per-cpu, series carry a cpu label.
 * le values are written in the canonical form OpenMetrics asks for (the
 * shortest that reads back, as Go formats floats). The HELP line gives the
 * name and owner as text output does (text.c), with each backslash
 * doubled as HELP lines want it: a parser reads them as a terminal shows
 * them. No label value comes from a file or the kernel. (A trace's
 * outlier counters are in export's output, not here.)
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "kstatsctl.h"
#include "fmt.h"
#include "keys.h"
#include "model.h"
#include "stats.h"
#include "text.h"
#include "units.h"

/* The shortest decimal that reads back as @d, in Go/OpenMetrics' form. */
char *ks_prom_float(char *buf, size_t len, double d)
{
	char tmp[40], digits[24], *e;
	int prec, exp, nd = 0, i;
	size_t n = 0;

	if (isinf(d)) {
		snprintf(buf, len, d > 0 ? "+Inf" : "-Inf");
		return buf;
	}
	if (isnan(d)) {
		snprintf(buf, len, "NaN");
		return buf;
	}
	if (d == 0) {
		snprintf(buf, len, "0.0");
		return buf;
	}
	for (prec = 1; prec <= 17; prec++) {
		snprintf(tmp, sizeof(tmp), "%.*e", prec - 1, d);
		if (strtod(tmp, NULL) == d)
			break;
	}
	e = strchr(tmp, 'e');
	exp = atoi(e + 1);
	for (i = 0; tmp + i < e; i++)
		if (tmp[i] >= '0' && tmp[i] <= '9')
			digits[nd++] = tmp[i];
	while (nd > 1 && digits[nd - 1] == '0')
		nd--;
	digits[nd] = '\0';
	if (d < 0)
		buf[n++] = '-';
	if (exp < -4 || exp >= 16 || (d > 0 && exp >= 6)) {
		/* 1.5e-05, 1e+16; Go switches to exponents from 1e+06 on. */
		buf[n++] = digits[0];
		if (nd > 1) {
			buf[n++] = '.';
			memcpy(buf + n, digits + 1, (size_t)nd - 1);
			n += (size_t)nd - 1;
		}
		snprintf(buf + n, len - n, "e%c%s%d", exp < 0 ? '-' : '+',
			 (exp < 0 ? -exp : exp) < 10 || (d > 0 && exp >= 6 && exp < 16) ?
			 "0" : "", exp < 0 ? -exp : exp);
		return buf;
	}
	if (exp < 0) {
		n += (size_t)snprintf(buf + n, len - n, "0.");
		for (i = 0; i < -exp - 1; i++)
			buf[n++] = '0';
		snprintf(buf + n, len - n, "%s", digits);
		return buf;
	}
	for (i = 0; i <= exp; i++)
		buf[n++] = i < nd ? digits[i] : '0';
	buf[n++] = '.';
	if (nd > exp + 1)
		snprintf(buf + n, len - n, "%s", digits + exp + 1);
	else
		snprintf(buf + n, len - n, "0");
	return buf;
}

/* @s for a HELP line: as on a terminal (ks_text), then \ as \\. */
static char *help_text(char *buf, size_t len, const char *s)
{
	char t[KS_TEXT_LEN(KSTATS_NAME_LEN)];
	const char *p;
	size_t o = 0;

	ks_text(t, sizeof(t), s);
	for (p = t; *p && o + 2 < len; p++) {
		if (*p == '\\')
			buf[o++] = '\\';
		buf[o++] = *p;
	}
	buf[o] = '\0';
	return buf;
}

/* le of every slot, made once per metric (--per-cpu repeats them). */
static const char *le_of(char (*cache)[32], uint32_t s, uint32_t fb, double scale)
{
	if (!cache[s][0])
		ks_prom_float(cache[s], sizeof(cache[s]), (double)kstats_slot_last(s, fb) / scale);
	return cache[s];
}

static void series(FILE *out, const char *fam, const struct ks_metric *m, int row,
		   const struct ks_show *sh, enum ks_unit u, char (*cache)[32])
{
	double scale = ks_unit_scale(u);
	char label[KS_KEY_VALUE_MAX + 64] = "", le[48], n[KS_KEY_VALUE_MAX], val[KS_KEY_VALUE_MAX];
	uint32_t from, to, s;
	struct ks_hist h;
	struct ks_stats st;
	struct ks_key k;
	ks_u128 cum = 0;
	size_t o = 0, i;

	ks_hist_build(&h, m, row);
	if (ks_key_parse(m->name, &k)) {
		/*
		 * The key's value as a label: printable ASCII, with the text
		 * format's escapes (a cgroup's path may hold any byte).
		 */
		snprintf(n, sizeof(n), "%s", ks_key_value_text(&k, val, sizeof(val)));
		for (i = 0, o = 0; n[i] && o + 3 < sizeof(val); i++) {
			if (n[i] == '\\' || n[i] == '"')
				val[o++] = '\\';
			val[o++] = n[i] >= 0x20 && n[i] < 0x7f ? n[i] : '_';
		}
		val[o] = '\0';
		o = (size_t)snprintf(label, sizeof(label), "%s=\"%s\",", k.key, val);
	}
	if (row >= 0)
		snprintf(label + o, sizeof(label) - o, "cpu=\"%u\",", m->cpus[row].cpu);
	from = sh->all_slots ? 0 : h.first;
	to = sh->all_slots ? h.nslots - 1 : h.last;
	for (s = from; s <= to && s < h.nslots; s++) {
		if (!h.count[s] && !sh->all_slots)
			continue;
		cum += h.count[s];
		fprintf(out, "%s_bucket{%sle=\"%s\"} %s\n", fam, label,
			le_of(cache, s, h.frac_bits, scale),
			ks_fmt_u128(n, sizeof(n), cum));
	}
	fprintf(out, "%s_bucket{%sle=\"+Inf\"} %s\n", fam, label,
		ks_fmt_u128(n, sizeof(n), h.total));
	ks_hist_stats(&h, &st);
	if (label[0])
		label[strlen(label) - 1] = '\0';
	fprintf(out, "%s_sum%s%s%s %s\n", fam, label[0] ? "{" : "", label,
		label[0] ? "}" : "", ks_prom_float(le, sizeof(le), st.sum / scale));
	fprintf(out, "%s_count%s%s%s %s\n", fam, label[0] ? "{" : "", label,
		label[0] ? "}" : "", ks_fmt_u128(n, sizeof(n), h.total));
	ks_hist_free(&h);
}

/*
 * @m's family: "kstats_" and its name, a key's metric's by its trace's name
 * and key ("kstats_NAME_by_errno"), made [A-Za-z0-9_], then "_seconds" for
 * nanoseconds. Returns whether @m is a key's metric.
 */
static bool family(char *fam, size_t len, const struct ks_metric *m, enum ks_unit u)
{
	struct ks_key k;
	bool keyed = ks_key_parse(m->name, &k);
	size_t i, n;

	if (keyed)
		n = (size_t)snprintf(fam, len, "kstats_%.*s_by_%s", (int)k.base_len, m->name,
				     k.key);
	else
		n = (size_t)snprintf(fam, len, "kstats_%s", m->name);
	for (i = strlen("kstats_"); i < n && i < len; i++)
		if (!strchr("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
			    "0123456789_", fam[i]))
			fam[i] = '_';
	if (u != UNIT_NONE && n < len)
		snprintf(fam + n, len - n, "_seconds");
	return keyed;
}

static void metric_series(FILE *out, const char *fam, const struct ks_metric *m,
			  const struct ks_show *sh, enum ks_unit u)
{
	char (*cache)[32] = xcalloc(kstats_hist_nslots(m->frac_bits), sizeof(*cache));
	uint32_t r;

	if (sh->cpu >= 0) {
		series(out, fam, m, ks_metric_row(m, (uint32_t)sh->cpu), sh, u, cache);
	} else if (sh->per_cpu) {
		for (r = 0; r < m->nr_cpus; r++)
			series(out, fam, m, (int)r, sh, u, cache);
	} else {
		series(out, fam, m, -1, sh, u, cache);
	}
	free(cache);
}

/*
 * Every metric of @m: a family each, but one for the metrics of a trace's
 * key, with the key as a label (OpenMetrics wants a family's lines
 * together, under one HELP and TYPE).
 */
void fmt_prom(FILE *out, const struct ks_metric *m, size_t nr, const struct ks_show *sh)
{
	char fam[KSTATS_NAME_LEN + 48], other[sizeof(fam)];
	char name[2 * KS_TEXT_LEN(KSTATS_NAME_LEN)], owner[sizeof(name)];
	bool *done = xcalloc(nr ? nr : 1, sizeof(*done));
	struct ks_key k;
	enum ks_unit u;
	size_t i, j;
	bool keyed;

	for (i = 0; i < nr; i++) {
		if (done[i])
			continue;
		u = ks_metric_unit(&m[i], UNIT_S);
		keyed = family(fam, sizeof(fam), &m[i], u);
		help_text(name, sizeof(name), m[i].name);
		if (keyed && ks_key_parse(m[i].name, &k))	/* "NAME by KEY" */
			snprintf(strchr(name, '{'), sizeof(name) - k.base_len, " by %s", k.key);
		fprintf(out, "# HELP %s kstats metric %s (%s%s%s, frac_bits %u)\n", fam,
			name, ks_kind_name(m[i].kind), m[i].owner[0] ? " " : "",
			help_text(owner, sizeof(owner), m[i].owner), m[i].frac_bits);
		fprintf(out, "# TYPE %s histogram\n", fam);
		if (u != UNIT_NONE)
			fprintf(out, "# UNIT %s seconds\n", fam);
		for (j = i; j < nr; j++) {
			if (done[j] || (j > i && (!keyed ||
			    !family(other, sizeof(other), &m[j], ks_metric_unit(&m[j], UNIT_S)) ||
			    strcmp(other, fam))))
				continue;
			metric_series(out, fam, &m[j], sh, ks_metric_unit(&m[j], UNIT_S));
			done[j] = true;
		}
	}
	free(done);
	fputs("# EOF\n", out);
}

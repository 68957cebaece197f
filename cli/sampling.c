// SPDX-License-Identifier: GPL-2.0
/*
 * How a trace records, as show, JSON and the Prometheus export say it:
 * every call, 1 call in N (by the overhead governor or as asked), or
 * detached by the governor, with its budget and cost (kstats(4)). Counts
 * are never scaled here: calls = hits + misses + skipped is exact, and
 * the histogram of a sampled trace says it is a sample.
 */
#include <stdio.h>
#include <time.h>

#include "kstatsctl.h"
#include "json.h"
#include "model.h"

static const char *const mode_names[] = {
	[KSTATS_TRACE_MODE_FULL] = "full",
	[KSTATS_TRACE_MODE_SAMPLED] = "sampled",
	[KSTATS_TRACE_MODE_FIXED] = "sampled-fixed",
	[KSTATS_TRACE_MODE_GOV_DETACHED] = "detached-by-governor",
};

const char *ks_sampling_mode_name(uint32_t mode)
{
	return mode < ARRAY_SIZE(mode_names) ? mode_names[mode] : "unknown";
}

/* ppm of one CPU as a percentage: "0.9%", "12%", "0.0015%". */
static const char *pct(char *buf, size_t len, uint32_t ppm)
{
	snprintf(buf, len, "%.3g%%", ppm / 1e4);
	return buf;
}

/* When (local time) the mode began: CLOCK_MONOTONIC moved onto the wall clock. */
static const char *since(char *buf, size_t len, const struct ks_metric *m)
{
	uint64_t ago = m->time_ns > m->smp.since_ns ? m->time_ns - m->smp.since_ns : 0;
	time_t t = (time_t)((m->realtime_ns - ago) / 1000000000);
	struct tm tm;

	localtime_r(&t, &tm);
	strftime(buf, len, "%H:%M:%S", &tm);
	return buf;
}

/* The footer lines of a trace that samples, is governed or was detached by the governor. */
void ks_sampling_note(FILE *out, const struct ks_metric *m)
{
	const struct ks_sampling *s = &m->smp;
	char a[16], b[16], c[16], when[16];

	if (!ks_metric_is_trace_own(m) && m->kind != KSTATS_KIND_GAP)
		return;
	/* sample_every 0: not known (an older module, or a file). */
	if (!s->sample_every) {
		/* Files keep the flags, not N. */
		if (m->flags & KSTATS_METRIC_SAMPLED)
			fprintf(out, "sampled 1 call in N when saved (N is not in the "
				"file): the histogram is from a sample\n");
		return;
	}
	if (s->skipped || ks_sampled(m))
		fprintf(out, "calls %llu (hits + misses + skipped %llu: exact)\n",
			(unsigned long long)(m->hits + m->misses + s->skipped),
			(unsigned long long)s->skipped);
	switch (s->mode) {
	case KSTATS_TRACE_MODE_SAMPLED:
		fprintf(out, "sampled 1 in %u since %s by the governor (budget %s, cost "
			"~%s of a CPU; at full ~%s): the histogram is from a sample%s\n",
			s->sample_every, since(when, sizeof(when), m),
			pct(a, sizeof(a), s->budget_ppm), pct(b, sizeof(b), s->cost_ppm),
			pct(c, sizeof(c), s->full_cost_ppm),
			m->kind == KSTATS_KIND_GAP ? "; GAP is not recorded while sampled" : "");
		break;
	case KSTATS_TRACE_MODE_FIXED:
		fprintf(out, "sampled 1 in %u since %s (--sample): the histogram is "
			"from a sample%s\n", s->sample_every, since(when, sizeof(when), m),
			m->kind == KSTATS_KIND_GAP ? "; GAP is not recorded while sampled" : "");
		break;
	case KSTATS_TRACE_MODE_GOV_DETACHED:
		fprintf(out, "detached at %s by the governor: over its budget of %s even "
			"declining every call (at full ~%s of a CPU)\n",
			since(when, sizeof(when), m), pct(a, sizeof(a), s->budget_ppm),
			pct(b, sizeof(b), s->full_cost_ppm));
		break;
	default:
		if (!s->budget_ppm)
			break;
		if (s->flags & KSTATS_TRACE_STATE_UNCALIBRATED)
			fprintf(out, "governor (budget %s): no cost calibrated, so it "
				"records every call\n", pct(a, sizeof(a), s->budget_ppm));
		else
			fprintf(out, "every call recorded; governor budget %s, cost ~%s "
				"of a CPU\n", pct(a, sizeof(a), s->budget_ppm),
				pct(b, sizeof(b), s->cost_ppm));
	}
}

/* JSON "sampling" of a trace (schema: trace.sampling). */
void ks_sampling_json(struct json *j, const struct ks_metric *m)
{
	const struct ks_sampling *s = &m->smp;
	uint64_t ago = m->time_ns > s->since_ns ? m->time_ns - s->since_ns : 0;

	if (!s->sample_every)
		return;	/* not known: an older module, or a file */
	json_ku64(j, "skipped", s->skipped);
	json_ku64(j, "calls", m->hits + m->misses + s->skipped);
	json_key(j, "sampling");
	json_obj(j);
	json_kstr(j, "mode", ks_sampling_mode_name(s->mode));
	json_ku64(j, "sample_every", s->sample_every);
	json_kbool(j, "histogram_is_sample", ks_sampled(m));
	json_ku64(j, "since_realtime_ns", s->since_ns ? m->realtime_ns - ago : 0);
	json_ku64(j, "budget_ppm", s->budget_ppm);
	json_ku64(j, "cost_ppm", s->cost_ppm);
	json_ku64(j, "full_cost_ppm", s->full_cost_ppm);
	json_kbool(j, "calibrated", !(s->flags & KSTATS_TRACE_STATE_UNCALIBRATED));
	json_ku64(j, "call_cost_ps", s->call_ps);
	json_ku64(j, "skip_cost_ps", s->skip_ps);
	json_obj_end(j);
}

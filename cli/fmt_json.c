// SPDX-License-Identifier: GPL-2.0
/*
 * --format json (and show -j): the show document. The schema is in
 * cli/kstatsctl.schema.json and kstatsctl(8); its version is the
 * top-level "schema" member. Values are always integers or numbers in
 * nanoseconds ("unit": "ns"), whatever --units says, or for a metric with
 * no known unit, as recorded ("unit": null); counts are exact
 * integers, beyond 2^64 if need be.
 *
 *   {"schema": 3, "command": "show", "source": {...},
 *    "metrics": [{"name": ..., "kind": ..., "owner": ..., "state": ...,
 *      "frac_bits": 3, "error_bound": 0.125, "nr_cpus": 4,
 *      "time_ns": ..., "realtime_ns": ..., "unit": "ns",
 *      "count": 4000, "sum": ..., "mean": ..., "mean_error": 0,
 *      "min": {"low": 480, "high": 512}, "max": {"low": ..., "high": ...},
 *      "percentiles": [{"p": 50, "low": 2048, "high": 2304,
 *                       "value": 2175.5, "error": 0.0586,
 *                       "beyond": 2000, "supported": true}, ...],
 *      "trace": {"hits": ..., "misses": ..., "floor_ns": ...,  (traces)
 *                "outliers": {"captured": ..., ...}},  (if it keeps them)
 *      "buckets": [{"low": 512, "high": 576, "count": 12, "sum": 6400}],
 *      "cpus": [{"cpu": 0, "count": ..., "buckets": [...]}]  (--per-cpu,
 *                                                              --cpu)
 *    }]}
 *
 * min, max and percentiles are slots, [low, high): a percentile's value is
 * the middle of the slot's values and error half their spread relative to
 * it (0: exact), beyond the samples ranked above it and supported whether
 * they are KS_PCT_MIN_BEYOND or more (stats.h); min and max are null
 * without samples. A bucket's sum is null when unknown (2^52 samples or
 * more in it).
 */
#include <math.h>
#include <string.h>

#include "kstatsctl.h"
#include "fmt.h"
#include "json.h"
#include "model.h"
#include "stats.h"
#include "trace.h"
#include "units.h"

void fmt_json_source(struct json *j, const struct ks_source *src)
{
	json_key(j, "source");
	json_obj(j);
	json_kstr(j, "type", src->hlog ? "hlog" : src->file ? "file" : "live");
	if (src->file && src->path)
		json_kstr(j, "path", src->path);
	json_kstr(j, "host", src->host);
	json_kstr(j, "kernel", src->kernel);
	json_kstr(j, "kernel_version", src->kernel_version);
	json_kstr(j, "machine", src->machine);
	json_kstr(j, "module_version", src->module_version);
	json_ku64(j, "abi_version", src->abi_version);
	json_kstr(j, "kstatsctl_version", src->tool_version);
	json_kstr(j, "boot_id", src->boot_id);
	json_ku64(j, "created_ns", src->created_ns);
	json_obj_end(j);
}

void fmt_json_est(struct json *j, const struct ks_est *e, uint32_t frac_bits,
		  bool bounds)
{
	json_ku64(j, "low", e->low);
	json_khigh(j, "high", (uint32_t)e->slot, frac_bits);
	if (bounds)
		return;
	json_kdbl(j, "value", e->value);
	json_kdbl(j, "error", e->err);
	json_ku128(j, "beyond", e->beyond);
	json_kbool(j, "supported", e->supported);
}

void fmt_json_kest(struct json *j, const char *key, const struct ks_est *e,
		   uint32_t frac_bits, bool bounds)
{
	json_key(j, key);
	if (e->slot < 0) {
		json_null(j);
		return;
	}
	json_obj(j);
	fmt_json_est(j, e, frac_bits, bounds);
	json_obj_end(j);
}

static void buckets(struct json *j, const struct ks_hist *h, bool all)
{
	uint32_t s, from = all ? 0 : h->first, to = all ? h->nslots - 1 : h->last;

	json_key(j, "buckets");
	json_arr(j);
	for (s = from; s <= to && s < h->nslots; s++) {
		if (!h->count[s] && !all)
			continue;
		json_obj(j);
		json_ku64(j, "low", kstats_slot_low(s, h->frac_bits));
		json_khigh(j, "high", s, h->frac_bits);
		json_ku128(j, "count", h->count[s]);
		json_kdbl(j, "sum", h->count[s] ? round(ks_hist_slot_sum(h, s)) : 0);
		json_obj_end(j);
	}
	json_arr_end(j);
}

static void stats(struct json *j, const struct ks_hist *h)
{
	struct ks_stats st;
	int i;

	ks_hist_stats(h, &st);
	json_ku128(j, "count", st.count);
	json_kdbl(j, "sum", st.sum);
	json_kdbl(j, "mean", st.mean);
	json_kdbl(j, "mean_error", st.mean_err);
	fmt_json_kest(j, "min", &st.min, h->frac_bits, true);
	fmt_json_kest(j, "max", &st.max, h->frac_bits, true);
	json_key(j, "percentiles");
	json_arr(j);
	for (i = 0; st.count && i < (int)ks_nr_pcts; i++) {
		json_obj(j);
		json_kdbl(j, "p", ks_pcts[i] * 100);
		fmt_json_est(j, &st.pct[i], h->frac_bits, false);
		json_obj_end(j);
	}
	json_arr_end(j);
}

static void cpu_obj(struct json *j, const struct ks_metric *m, uint32_t r, bool all)
{
	struct ks_hist h;

	ks_hist_build(&h, m, (int)r);
	json_obj(j);
	json_ku64(j, "cpu", m->cpus[r].cpu);
	stats(j, &h);
	buckets(j, &h, all);
	json_obj_end(j);
	ks_hist_free(&h);
}

void fmt_json_metric(struct json *j, const struct ks_metric *m,
		     const struct ks_show *sh)
{
	struct ks_hist h;
	uint32_t r;

	json_obj(j);
	json_kstr(j, "name", m->name);
	json_kstr(j, "kind", ks_kind_name(m->kind));
	json_kstr(j, "owner", m->owner);
	json_kstr(j, "state", ks_state_name(m->flags));
	json_kbool(j, "autoremove", m->flags & KSTATS_METRIC_AUTOREMOVE);
	json_ku64(j, "frac_bits", m->frac_bits);
	json_kdbl(j, "error_bound", ldexp(1.0, -(int)m->frac_bits));
	json_ku64(j, "nr_cpus", m->nr_cpus);
	json_ku64(j, "time_ns", m->time_ns);
	json_ku64(j, "realtime_ns", m->realtime_ns);
	if (sh->interval) {
		json_kbool(j, "reset", m->reset);
	}
	/* null: a module's or a program's numbers, in a unit not known here. */
	json_key(j, "unit");
	if (ks_metric_is_ns(m))
		json_str(j, "ns");
	else
		json_null(j);
	ks_hist_build(&h, m, -1);
	stats(j, &h);
	if (ks_kind_is_trace(m->kind)) {
		json_key(j, "trace");
		json_obj(j);
		json_ku64(j, "hits", m->hits);
		json_ku64(j, "misses", m->misses);
		/* null: not known (a file does not keep them). */
		json_key(j, "faults");
		if (m->expr_known)
			json_u64(j, m->faults);
		else
			json_null(j);
		json_key(j, "rejected");
		if (m->expr_known)
			json_u64(j, m->rejected);
		else
			json_null(j);
		json_ku64(j, "floor_ns", m->floor_ns);
		/* Only where a group missed calls: no function's, so not in misses. */
		if (m->group_misses)
			json_ku64(j, "group_misses", m->group_misses);
		ks_sampling_json(j, m);
		if (m->has_outliers) {
			json_key(j, "outliers");
			json_obj(j);
			json_ku64(j, "captured", m->outl.captured);
			json_ku64(j, "overwritten", m->outl.overwritten);
			json_ku64(j, "ratelimited", m->outl.ratelimited);
			json_ku64(j, "threshold", m->outl.threshold_ns);
			if (m->outl.threshold_ppm)
				json_kdbl(j, "threshold_percentile", m->outl.threshold_ppm / 1e4);
			json_obj_end(j);
		}
		json_obj_end(j);
	}
	buckets(j, &h, sh->all_slots);
	ks_hist_free(&h);
	if (sh->cpu >= 0 || sh->per_cpu) {
		json_key(j, "cpus");
		json_arr(j);
		for (r = 0; r < m->nr_cpus; r++) {
			if (sh->cpu >= 0 ? m->cpus[r].cpu != (uint32_t)sh->cpu :
			    !ks_metric_row_used(m, r))
				continue;
			cpu_obj(j, m, r, sh->all_slots);
		}
		json_arr_end(j);
	}
	json_obj_end(j);
}

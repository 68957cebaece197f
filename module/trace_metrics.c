// SPDX-License-Identifier: GPL-2.0
/*
 * A trace's metrics, as one set: NAME; for a function GAP-NAME; with
 * --self SELF-NAME; with --split ONCPU-, RUNQ- and BLOCKED-NAME. Created together or not at all,
 * and pointed at their trace, marked and unlinked together.
 */
#include "trace.h"

/* Every metric of @p into @ms (at most KSTATS_PROBE_METRICS). */
unsigned int kstats_probe_metrics(struct kstats_probe *p, struct kstats_metric **ms)
{
	unsigned int n = 0, i;

	if (p->time_metric)
		ms[n++] = p->time_metric;
	if (p->gap_metric)
		ms[n++] = p->gap_metric;
	if (p->self_metric)
		ms[n++] = p->self_metric;
	for (i = 0; i < KSTATS_SPLIT_NR; i++)
		if (p->split_metric[i])
			ms[n++] = p->split_metric[i];
	return n;
}

/* A trace's metric called PREFIX-NAME (or NAME), holding its own reference. */
static struct kstats_metric *kstats_trace_metric(const char *prefix, const char *name,
						 u32 frac_bits, u32 kind,
						 struct kstats_origin *origin)
{
	char full[KSTATS_NAME_MAX + 1];
	struct kstats_metric *m;

	if (snprintf(full, sizeof(full), "%s%s%s", prefix ?: "", prefix ? "-" : "",
		     name) >= sizeof(full))
		return ERR_PTR(-EINVAL);
	origin->kind = kind;
	/* The probe holds its own references: handlers may outlive the registry's. */
	m = kstats_metric_new(full, frac_bits, origin);
	if (!IS_ERR(m))
		kstats_metric_get(m);
	return m;
}

static const struct {
	const char *prefix;
	u32 kind;
} kstats_split_metrics[KSTATS_SPLIT_NR] = {
	[KSTATS_SPLIT_ONCPU] = { "ONCPU", KSTATS_KIND_ONCPU },
	[KSTATS_SPLIT_RUNQ] = { "RUNQ", KSTATS_KIND_RUNQ },
	[KSTATS_SPLIT_BLOCKED] = { "BLOCKED", KSTATS_KIND_BLOCKED },
};

/* Unlinks every metric of @p (which still holds its references). */
void kstats_trace_metrics_delete(struct kstats_probe *p)
{
	struct kstats_metric *ms[KSTATS_PROBE_METRICS];
	unsigned int i, n = kstats_probe_metrics(p, ms);

	for (i = 0; i < n; i++) {
		kstats_metric_set_probe(ms[i], NULL);
		kstats_metric_delete(ms[i]);
	}
}

/* Points every metric of @p at @probe (or at none). */
void kstats_probe_link(struct kstats_probe *p, struct kstats_probe *probe)
{
	struct kstats_metric *ms[KSTATS_PROBE_METRICS];
	unsigned int i, n = kstats_probe_metrics(p, ms);

	for (i = 0; i < n; i++)
		kstats_metric_set_probe(ms[i], probe);
}

void kstats_probe_mark_detached(struct kstats_probe *p)
{
	struct kstats_metric *ms[KSTATS_PROBE_METRICS];
	unsigned int i, n = kstats_probe_metrics(p, ms);

	for (i = 0; i < n; i++)
		WRITE_ONCE(ms[i]->detached, true);
}

/*
 * All metrics of a trace, or none (-EEXIST if a name is taken, -EINVAL if
 * one would be too long): NAME; for a function GAP-NAME; with
 * KSTATS_TRACE_SELF in @flags SELF-NAME; with KSTATS_TRACE_SPLIT the three
 * parts of each call's time.
 */
int kstats_trace_metrics(struct kstats_probe *p, const char *name,
			 u32 frac_bits, const char *target, u32 flags)
{
	struct kstats_origin origin = {
		.creator = p->creator,
		.autoremove = p->autoremove,
		.owner = target,
	};
	struct kstats_metric *m;
	int i;

	m = kstats_trace_metric(NULL, name, frac_bits, KSTATS_KIND_TRACE, &origin);
	if (IS_ERR(m))
		return PTR_ERR(m);
	p->time_metric = m;
	p->time = &m->ks;
	if (p->mode == KSTATS_MODE_FUNC) {
		m = kstats_trace_metric("GAP", name, frac_bits, KSTATS_KIND_GAP, &origin);
		if (IS_ERR(m))
			goto fail;
		p->gap_metric = m;
		p->gap = &m->ks;
	}
	if (flags & KSTATS_TRACE_SELF) {
		m = kstats_trace_metric("SELF", name, frac_bits, KSTATS_KIND_SELF, &origin);
		if (IS_ERR(m))
			goto fail;
		p->self_metric = m;
		p->self = &m->ks;
	}
	for (i = 0; (flags & KSTATS_TRACE_SPLIT) && i < KSTATS_SPLIT_NR; i++) {
		m = kstats_trace_metric(kstats_split_metrics[i].prefix, name, frac_bits,
					kstats_split_metrics[i].kind, &origin);
		if (IS_ERR(m))
			goto fail;
		p->split_metric[i] = m;
		p->split[i] = &m->ks;
	}
	p->task_ctx = p->self || p->split[0];
	return 0;
fail:
	kstats_trace_metrics_delete(p);
	return PTR_ERR(m);
}

// SPDX-License-Identifier: GPL-2.0
/*
 * A trace's metrics, as one set: NAME; for a function GAP-NAME; with a
 * value VALUE-NAME (beside a duration) and NEG-NAME (signed); with
 * --self SELF-NAME; with --split ONCPU-, RUNQ- and BLOCKED-NAME; with a key
 * NAME{KEY=VALUE} (trace_keys.c). Created together or not at all, and
 * pointed at their trace, marked and unlinked together.
 */
#include "trace.h"

struct kstats_metric *kstats_probe_metric(struct kstats_probe *p, unsigned int i)
{
	struct kstats_metric *fixed[] = {
		p->time_metric, p->gap_metric, p->value_metric, p->neg_metric, p->self_metric,
		p->split_metric[KSTATS_SPLIT_ONCPU], p->split_metric[KSTATS_SPLIT_RUNQ],
		p->split_metric[KSTATS_SPLIT_BLOCKED],
	};
	unsigned int j;

	BUILD_BUG_ON(KSTATS_SPLIT_NR != 3);
	for (j = 0; j < ARRAY_SIZE(fixed); j++) {
		if (!fixed[j])
			continue;
		if (!i--)
			return fixed[j];
	}
	return kstats_keys_metric(p, i);
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
	origin->value = kind == KSTATS_KIND_VALUE;
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
	struct kstats_metric *m;
	unsigned int i;

	for (i = 0; (m = kstats_probe_metric(p, i)); i++) {
		kstats_metric_set_probe(m, NULL);
		kstats_metric_delete(m);
	}
}

/* Points every metric of @p at @probe (or at none). */
void kstats_probe_link(struct kstats_probe *p, struct kstats_probe *probe)
{
	struct kstats_metric *m;
	unsigned int i;

	for (i = 0; (m = kstats_probe_metric(p, i)); i++)
		kstats_metric_set_probe(m, probe);
}

void kstats_probe_mark_detached(struct kstats_probe *p)
{
	struct kstats_metric *m;
	unsigned int i;

	for (i = 0; (m = kstats_probe_metric(p, i)); i++)
		WRITE_ONCE(m->detached, true);
}

/*
 * All metrics of a trace, or none (-EEXIST if a name is taken, -EINVAL if
 * one would be too long): NAME; for a function GAP-NAME; with
 * KSTATS_TRACE_SELF SELF-NAME; with KSTATS_TRACE_SPLIT the three parts of
 * each call's time; with a key, its metrics (outside the registry yet).
 */
int kstats_trace_metrics(struct kstats_probe *p, const struct kstats_trace *req,
			 const char *target)
{
	struct kstats_origin origin = {
		.creator = p->creator,
		.autoremove = p->autoremove,
		.owner = target,
	};
	const char *name = (const char *)req->name;
	u32 frac_bits = req->frac_bits, flags = req->flags;
	u32 xflags = kstats_expr_flags(p->expr);
	/* A value alone: NAME holds it. */
	bool value_only = (xflags & KSTATS_EXPR_VALUE) && !(xflags & KSTATS_EXPR_TIME);
	struct kstats_metric *m;
	int i, err;

	m = kstats_trace_metric(NULL, name, frac_bits,
				value_only ? KSTATS_KIND_VALUE : KSTATS_KIND_TRACE, &origin);
	if (IS_ERR(m))
		return PTR_ERR(m);
	p->time_metric = m;
	p->time = &m->ks;
	if (value_only)
		p->value = p->time;
	if (p->mode == KSTATS_MODE_FUNC) {
		m = kstats_trace_metric("GAP", name, frac_bits, KSTATS_KIND_GAP, &origin);
		if (IS_ERR(m))
			goto fail;
		p->gap_metric = m;
		p->gap = &m->ks;
	}
	if (xflags & KSTATS_EXPR_TIME) {
		m = kstats_trace_metric("VALUE", name, frac_bits, KSTATS_KIND_VALUE, &origin);
		if (IS_ERR(m))
			goto fail;
		p->value_metric = m;
		p->value = &m->ks;
	}
	if (kstats_expr_signed(p->expr)) {
		m = kstats_trace_metric("NEG", name, frac_bits, KSTATS_KIND_VALUE, &origin);
		if (IS_ERR(m))
			goto fail;
		p->neg_metric = m;
		p->neg = &m->ks;
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
	origin.kind = KSTATS_KIND_KEY;
	origin.value = value_only;	/* they hold what NAME holds */
	/*
	 * Owned by no file: they enter the registry later, and the file that
	 * made the trace may be closed by then (its creator field cleared only
	 * on the metrics in the registry). Nothing needs one: RECORD into a
	 * key's name is refused.
	 */
	origin.creator = NULL;
	err = kstats_keys_setup(p, req, &origin);
	if (err) {
		kstats_trace_metrics_delete(p);
		return err;
	}
	return 0;
fail:
	kstats_trace_metrics_delete(p);
	return PTR_ERR(m);
}

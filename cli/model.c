// SPDX-License-Identifier: GPL-2.0
/*
 * The in-memory model: a metric at one instant (struct ks_metric, filled
 * from KSTATS_IOC_SNAPSHOT or from a snapshot file), differences of two
 * instants (--watch, diff), and the dense per-slot view every formatter
 * reads (struct ks_hist) with its summary statistics.
 *
 * Slot bounds, means, sums, ranks and error bounds all come from
 * include/kstats_hist.h. The one thing added here is how a percentile is
 * placed inside its slot: kstats_hist_quantile() spreads a slot's samples
 * evenly over it; we also know their mean, so we spread them evenly over
 * two pieces, [low, mean] and [mean, high), weighted so that the mean
 * comes out right. Both estimates stay inside the slot, so the error bound
 * (kstats_slot_rel_error()) holds either way.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/utsname.h>
#include <time.h>

#include "kstatsctl.h"

const double ks_pcts[KS_NR_PCT] = { 0.50, 0.90, 0.99, 0.999, 0.9999 };
const char *const ks_pct_names[KS_NR_PCT] = { "p50", "p90", "p99", "p99.9", "p99.99" };

void ks_metric_free(struct ks_metric *m)
{
	free(m->cpus);
	free(m->slots);
	m->cpus = NULL;
	m->slots = NULL;
}

void ks_set_free(struct ks_set *s)
{
	size_t i;

	for (i = 0; i < s->nr; i++)
		ks_metric_free(&s->m[i]);
	free(s->m);
	s->m = NULL;
	s->nr = 0;
}

struct ks_metric *ks_set_find(const struct ks_set *s, const char *name)
{
	size_t i;

	for (i = 0; i < s->nr; i++)
		if (!strcmp(s->m[i].name, name))
			return &s->m[i];
	return NULL;
}

int ks_metric_row(const struct ks_metric *m, uint32_t cpu)
{
	uint32_t r;

	for (r = 0; r < m->nr_cpus; r++)
		if (m->cpus[r].cpu == cpu)
			return (int)r;
	return -1;
}

void ks_source_live(struct ks_source *src, int fd)
{
	struct kstats_info info;
	struct timespec ts;
	struct utsname un;

	memset(src, 0, sizeof(*src));
	uname(&un);
	snprintf(src->host, sizeof(src->host), "%s", un.nodename);
	snprintf(src->kernel, sizeof(src->kernel), "%s", un.release);
	snprintf(src->kernel_version, sizeof(src->kernel_version), "%s", un.version);
	snprintf(src->machine, sizeof(src->machine), "%s", un.machine);
	snprintf(src->tool_version, sizeof(src->tool_version), "%s", KSTATS_VERSION);
	if (fd >= 0 && !ks_dev_info(fd, &info)) {
		snprintf(src->module_version, sizeof(src->module_version), "%s",
			 (const char *)info.version);
		src->abi_version = info.abi_version;
	}
	clock_gettime(CLOCK_REALTIME, &ts);
	src->created_ns = (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

/* LIST, kept for the owner fields of live snapshots. */
static struct kstats_metric_info *list_cache;
static uint32_t list_nr;

static const struct kstats_metric_info *list_find(int fd, const char *name)
{
	uint32_t i;
	int pass;

	for (pass = 0; pass < 2; pass++) {
		for (i = 0; list_cache && i < list_nr; i++)
			if (!strncmp((const char *)list_cache[i].name, name,
				     KSTATS_NAME_LEN))
				return &list_cache[i];
		free(list_cache);
		list_cache = NULL;
		if (ks_dev_list(fd, &list_cache, &list_nr))
			return NULL;
	}
	return NULL;
}

int ks_snapshot_live(int fd, const char *name, struct ks_metric *m,
		     bool missing_ok)
{
	const struct kstats_metric_info *li;
	struct kstats_snapshot sn;
	size_t cap = 64 * 1024, need;
	void *buf = NULL;
	uint32_t r, total;
	int tries;

	memset(m, 0, sizeof(*m));
	for (tries = 0; ; tries++) {
		buf = xrealloc(buf, cap, 1);
		memset(&sn, 0, sizeof(sn));
		snprintf((char *)sn.name, sizeof(sn.name), "%s", name);
		sn.buf = (uint64_t)(uintptr_t)buf;
		sn.buf_len = cap;
		if (!ioctl(fd, KSTATS_IOC_SNAPSHOT, &sn))
			break;
		if (errno != ENOSPC || tries == 16) {
			int err = errno;

			free(buf);
			if (err == ENOENT && missing_ok)
				return -1;
			return ks_dev_error(err, name);
		}
		cap = sn.buf_len + sn.buf_len / 4 + 4096;
	}
	need = (size_t)sn.nr_cpus * sizeof(*m->cpus) +
	       (size_t)sn.nr_slots * sizeof(*m->slots);
	if (need > sn.buf_len || sn.frac_bits > KSTATS_FRAC_BITS_MAX) {
		free(buf);
		return ks_fail(EXIT_RUNTIME, NULL, "%s: the module returned a "
			       "malformed snapshot", name);
	}
	snprintf(m->name, sizeof(m->name), "%s", name);
	m->kind = sn.kind;
	m->flags = sn.metric_flags;
	m->frac_bits = sn.frac_bits;
	m->time_ns = sn.time_ns;
	m->realtime_ns = sn.realtime_ns;
	m->hits = sn.hits;
	m->misses = sn.misses;
	m->floor_ns = sn.floor_ns;
	m->nr_cpus = sn.nr_cpus;
	m->nr_slots = sn.nr_slots;
	m->owner_pid = -1;
	m->cpus = xcalloc(sn.nr_cpus, sizeof(*m->cpus));
	m->slots = xcalloc(sn.nr_slots, sizeof(*m->slots));
	memcpy(m->cpus, buf, (size_t)sn.nr_cpus * sizeof(*m->cpus));
	memcpy(m->slots, (char *)buf + (size_t)sn.nr_cpus * sizeof(*m->cpus),
	       (size_t)sn.nr_slots * sizeof(*m->slots));
	free(buf);
	for (r = 0, total = 0; r < m->nr_cpus; r++)
		total += m->cpus[r].nr_slots;
	for (r = 0; r < m->nr_slots; r++)
		if (m->slots[r].slot >= kstats_hist_nslots(m->frac_bits))
			total = ~0u;
	if (total != m->nr_slots) {
		ks_metric_free(m);
		return ks_fail(EXIT_RUNTIME, NULL, "%s: the module returned a "
			       "malformed snapshot", name);
	}
	li = list_find(fd, name);
	if (li) {
		snprintf(m->owner, sizeof(m->owner), "%.*s", KSTATS_NAME_LEN - 1,
			 (const char *)li->owner);
		m->owner_uid = li->owner_uid;
		m->owner_pid = li->owner_pid;
	}
	return 0;
}

/* Copies @src into @dst, arrays included. */
static void metric_copy(struct ks_metric *dst, const struct ks_metric *src)
{
	*dst = *src;
	dst->cpus = xcalloc(src->nr_cpus, sizeof(*dst->cpus));
	dst->slots = xcalloc(src->nr_slots, sizeof(*dst->slots));
	memcpy(dst->cpus, src->cpus, (size_t)src->nr_cpus * sizeof(*dst->cpus));
	memcpy(dst->slots, src->slots, (size_t)src->nr_slots * sizeof(*dst->slots));
}

int ks_metric_delta(const struct ks_metric *prev, const struct ks_metric *cur,
		    struct ks_metric *out)
{
	const struct kstats_snap_slot *p = prev->slots, *pe, *c = cur->slots, *ce;
	uint32_t r;

	if (prev->frac_bits != cur->frac_bits || prev->nr_cpus != cur->nr_cpus)
		goto reset;
	*out = *cur;
	out->cpus = xcalloc(cur->nr_cpus, sizeof(*out->cpus));
	out->slots = xcalloc(cur->nr_slots, sizeof(*out->slots));
	out->nr_slots = 0;
	out->hits = cur->hits - prev->hits;
	out->misses = cur->misses - prev->misses;
	for (r = 0; r < cur->nr_cpus; r++) {
		if (prev->cpus[r].cpu != cur->cpus[r].cpu)
			goto reset_free;
		out->cpus[r] = (struct kstats_snap_cpu){ .cpu = cur->cpus[r].cpu };
		pe = p + prev->cpus[r].nr_slots;
		ce = c + cur->cpus[r].nr_slots;
		for (; c < ce; c++) {
			struct kstats_snap_slot d = *c;

			for (; p < pe && p->slot < c->slot; p++)
				if (p->count)
					goto reset_free;	/* a slot emptied */
			if (p < pe && p->slot == c->slot) {
				if (p->count > c->count)
					goto reset_free;
				d.count -= p->count;
				d.part_sum -= p->part_sum;
				p++;
			}
			if (!d.count)
				continue;
			out->slots[out->nr_slots++] = d;
			out->cpus[r].nr_slots++;
			out->cpus[r].count += d.count;
		}
		for (; p < pe; p++)
			if (p->count)
				goto reset_free;
	}
	out->reset = false;
	return 0;
reset_free:
	ks_metric_free(out);
reset:
	metric_copy(out, cur);
	out->reset = true;
	return 0;
}

void ks_hist_build(struct ks_hist *h, const struct ks_metric *m, int row)
{
	const struct kstats_snap_slot *s = m->slots, *end = m->slots + m->nr_slots;
	int r;

	memset(h, 0, sizeof(*h));
	h->frac_bits = m->frac_bits;
	h->nslots = kstats_hist_nslots(m->frac_bits);
	h->count = xcalloc(h->nslots, sizeof(*h->count));
	h->part_sum = xcalloc(h->nslots, sizeof(*h->part_sum));
	if (row >= 0) {
		for (r = 0; r < row; r++)
			s += m->cpus[r].nr_slots;
		end = s + m->cpus[row].nr_slots;
	}
	for (; s < end; s++) {
		if (s->slot >= h->nslots)
			continue;
		h->count[s->slot] += s->count;
		h->part_sum[s->slot] += s->part_sum;
	}
	h->first = 1;
	h->last = 0;
	for (uint32_t i = 0; i < h->nslots; i++) {
		if (!h->count[i])
			continue;
		if (h->first > h->last)
			h->first = i;
		h->last = i;
		h->total += h->count[i];
		h->used++;
	}
}

void ks_hist_free(struct ks_hist *h)
{
	free(h->count);
	free(h->part_sum);
	h->count = h->part_sum = NULL;
}

double ks_hist_slot_mean(const struct ks_hist *h, uint32_t s)
{
	if (!h->count[s])
		return NAN;
	if (kstats_slot_sum_may_wrap(h->count[s]))
		return (double)kstats_slot_low(s, h->frac_bits) +
		       (kstats_slot_high(s, h->frac_bits) -
			(double)kstats_slot_low(s, h->frac_bits)) / 2;
	return kstats_slot_sum(s, h->frac_bits, h->count[s], h->part_sum[s]) /
	       (double)h->count[s];
}

double ks_hist_slot_sum(const struct ks_hist *h, uint32_t s)
{
	return ks_hist_slot_mean(h, s) * (double)h->count[s];
}

double ks_hist_quantile(const struct ks_hist *h, double q, double *err)
{
	uint64_t rank, before = 0, n;
	double low, high, mean, f, a;
	int slot;

	*err = 0;
	if (!h->total)
		return NAN;
	rank = kstats_quantile_rank(q, h->total);
	slot = kstats_hist_rank_slot(h->count, h->nslots, rank, &before);
	if (slot < 0)
		return NAN;
	low = (double)kstats_slot_low((uint32_t)slot, h->frac_bits);
	*err = kstats_slot_rel_error((uint32_t)slot, h->frac_bits);
	if (!kstats_slot_width_log2((uint32_t)slot, h->frac_bits)) {
		*err = 0;
		return low;		/* a slot of one value: exact */
	}
	high = kstats_slot_high((uint32_t)slot, h->frac_bits);
	n = h->count[slot];
	f = ((double)(rank - before) - 0.5) / (double)n;
	if (kstats_slot_sum_may_wrap(n))
		return low + f * (high - low);
	mean = ks_hist_slot_mean(h, (uint32_t)slot);
	if (n == 1)
		return mean;
	if (!(mean > low))
		return low;
	if (!(mean < high))
		return high;
	/* A fraction a of the samples spread over [low, mean], the rest above. */
	a = (high - mean) / (high - low);
	if (f < a)
		return low + f / a * (mean - low);
	return mean + (f - a) / (1 - a) * (high - mean);
}

void ks_hist_stats(const struct ks_hist *h, struct ks_stats *st)
{
	double e;
	uint32_t s;
	int i;

	memset(st, 0, sizeof(*st));
	st->count = h->total;
	for (s = h->first; s <= h->last && s < h->nslots; s++)
		if (h->count[s])
			st->sum += ks_hist_slot_sum(h, s);
	st->mean = h->total ? st->sum / (double)h->total : NAN;
	st->min = ks_hist_quantile(h, 0, &e);
	st->max = ks_hist_quantile(h, 1, &e);
	for (i = 0; i < KS_NR_PCT; i++) {
		st->pct[i] = ks_hist_quantile(h, ks_pcts[i], &st->pct_err[i]);
		if (st->pct_err[i] > st->err_bound)
			st->err_bound = st->pct_err[i];
	}
}

// SPDX-License-Identifier: GPL-2.0
/*
 * The precision an HdrHistogram log's tag is read at, and its sums.
 *
 * Every line of a tag adds each of its buckets to six running sums, one per
 * frac_bits b = 0..5, in the slot of the bucket's highest value; and the
 * tag keeps the finest b at which every bucket so far lies inside one slot
 * (its "nest"). At the end the tag is read at one b:
 * - kstatsctl wrote it ("#[kstats: tag=T frac_bits=N unit=U]" before its
 *   lines): N, the values taken as they are, in ns or without a unit as U
 *   says. The writer put each slot's count at the slot's last value, so
 *   each comes back in its own slot, with its own bounds: a round trip
 *   shows what the snapshot showed.
 * - Another writer: the nest, then coarser while every count sits in the
 *   last slot of a coarser one (what a writer that puts a slot's count at
 *   its last value leaves, kstatsctl before the comment included: a sample
 *   known to lie in [8, 16) is not shown as exactly 15). A finer reading
 *   would claim more than the buckets say.
 * Buckets that straddle slots at every b (values times --hdr-unit's ns
 * crossing a power of two) are read at 5, each in the slot of its highest
 * value, with a warning; a nest coarser than the buckets' own precision
 * (again --hdr-unit) is said too. Warnings name the tag, and are only
 * given for tags that were selected.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "kstatsctl.h"
#include "hdr.h"
#include "model.h"
#include "units.h"
#include "hlog.h"

uint64_t ks_hlog_tag_scale(const struct hlog_tag *t)
{
	/* kstatsctl's own lines hold ns or plain numbers, whatever --hdr-unit says. */
	return t->kbits >= 0 || t->kbits == -2 ? 1 : (uint64_t)ks_unit_scale(ks_hlog_unit());
}

static int add(struct hlog_read *r, uint64_t *to, uint64_t n)
{
	if (__builtin_add_overflow(*to, n, to)) {
		snprintf(r->why, sizeof(r->why), "counts past 2^64 in one slot when "
			 "the intervals are summed");
		return EXIT_RUNTIME;
	}
	return 0;
}

int ks_hlog_tag_add(struct hlog_read *r, struct hlog_tag *t, const struct ks_hdr *h)
{
	uint64_t scale = ks_hlog_tag_scale(t), lo, hi, lo_ns, hi_ns;
	uint32_t i, b;

	if (h->half_mag < t->layout_bits)
		t->layout_bits = h->half_mag;
	for (b = 0; b <= KSTATS_FRAC_BITS_MAX; b++)
		if (!t->sum[b])
			t->sum[b] = xcalloc(kstats_hist_nslots(b), sizeof(*t->sum[b]));
	for (i = 0; i < h->nr; i++) {
		if (!h->counts[i])
			continue;
		ks_hdr_bucket(h, i, &lo, &hi);
		if (__builtin_mul_overflow(hi, scale, &hi_ns)) {
			snprintf(r->why, sizeof(r->why), "a value past 2^64 ns (%llu %s)",
				 (unsigned long long)hi, ks_unit_name(ks_hlog_unit()));
			return EXIT_RUNTIME;
		}
		lo_ns = lo * scale;
		while (t->nest >= 0 && kstats_hist_slot(lo_ns, (uint32_t)t->nest) !=
				       kstats_hist_slot(hi_ns, (uint32_t)t->nest))
			t->nest--;
		for (b = 0; b <= KSTATS_FRAC_BITS_MAX; b++)
			if (add(r, &t->sum[b][kstats_hist_slot(hi_ns, b)], h->counts[i]))
				return EXIT_RUNTIME;
		if (add(r, &t->total, h->counts[i]))
			return EXIT_RUNTIME;
	}
	return 0;
}

/* Does every count at frac_bits @b sit in the last of its slot's slots at @r? */
static bool at_last_of(const uint64_t *sum, uint32_t b, uint32_t r)
{
	uint32_t s, n = kstats_hist_nslots(b);

	for (s = 0; s < n; s++) {
		uint64_t last = kstats_slot_last(s, b);

		if (sum[s] && kstats_slot_last(kstats_hist_slot(last, r), r) != last)
			return false;
	}
	return true;
}

static uint32_t foreign_bits(struct hlog_read *r, struct hlog_tag *t, bool warn)
{
	const char *unit = ks_unit_name(ks_hlog_unit());
	uint32_t bits;

	if (t->nest < 0) {
		if (warn)
			ks_warn("%s: %s: at %s, HdrHistogram's buckets straddle kstats slots: "
				"each counts in the slot of its highest value", r->path,
				t->name, unit);
		return KSTATS_FRAC_BITS_MAX;
	}
	bits = (uint32_t)t->nest;
	while (t->total && bits > 0 && at_last_of(t->sum[bits], bits, bits - 1))
		bits--;
	if (warn && (uint32_t)t->nest < t->layout_bits)
		ks_warn("%s: %s: at %s, HdrHistogram's buckets straddle the kstats slots of "
			"frac_bits %d and finer: read at frac_bits %d, the finest where each "
			"lies inside one slot (its buckets alone would allow frac_bits %u)",
			r->path, t->name, unit, t->nest + 1, t->nest, t->layout_bits);
	return bits;
}

uint32_t ks_hlog_tag_bits(struct hlog_read *r, struct hlog_tag *t, bool warn)
{
	if (t->kbits >= 0 && (!t->total || t->nest >= t->kbits))
		return (uint32_t)t->kbits;
	if (warn && t->kbits >= 0)
		ks_warn("%s: %s: its kstats comment says frac_bits %d, but its buckets "
			"straddle those slots: read as another writer's log", r->path,
			t->name, t->kbits);
	if (warn && t->kbits == -2)
		ks_warn("%s: %s: kstats comments with different frac_bits or units (the "
			"metric made again?): read as another writer's log", r->path, t->name);
	return foreign_bits(r, t, warn);
}

void ks_hlog_metric(const struct hlog_tag *t, uint32_t bits, const uint64_t *dense,
		    double end_s, struct ks_metric *m)
{
	uint32_t s, nslots = kstats_hist_nslots(bits);

	memset(m, 0, sizeof(*m));
	snprintf(m->name, sizeof(m->name), "%s", t->name);
	snprintf(m->owner, sizeof(m->owner), "HdrHistogram log");
	m->kind = KSTATS_KIND_USER;
	m->frac_bits = bits;
	m->owner_pid = -1;
	m->realtime_ns = m->time_ns = end_s > 0 && end_s < 1.8e10 ? (uint64_t)(end_s * 1e9) : 0;
	m->sums_unknown = true;
	/* --hdr-unit's values are read in ns; kstatsctl's as its comment says. */
	m->ns = t->kbits >= 0 || t->kbits == -2 ? t->kns : true;
	m->nr_cpus = 1;
	m->cpus = xcalloc(1, sizeof(*m->cpus));
	m->slots = xcalloc(nslots, sizeof(*m->slots));
	for (s = 0; dense && s < nslots; s++) {
		if (!dense[s])
			continue;
		m->slots[m->nr_slots].slot = s;
		m->slots[m->nr_slots++].count = dense[s];
		m->cpus[0].count += dense[s];
	}
	m->cpus[0].nr_slots = m->nr_slots;
}

int ks_hlog_tag_metric(struct hlog_read *r, struct hlog_tag *t, struct ks_metric *m)
{
	uint32_t bits;

	if (!t->selected || !t->intervals) {
		bits = t->kbits >= 0 ? (uint32_t)t->kbits : KSTATS_FRAC_BITS_MAX;
		ks_hlog_metric(t, bits, NULL, t->intervals ? t->t1 : 0, m);
		return 0;
	}
	bits = ks_hlog_tag_bits(r, t, true);
	ks_hlog_metric(t, bits, t->sum[bits], t->t1, m);
	return 0;
}

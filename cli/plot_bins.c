// SPDX-License-Identifier: GPL-2.0
/*
 * Slots as the plots draw them: at the precision the data really has, and
 * measured in octaves, the unit of a log latency axis.
 *
 * A slot of frac_bits r spans 2^-r of its power of two, linearly: on a log
 * axis the first slot of an octave is log2(1 + 1/2^r) wide and the last
 * log2(1 + 1/(2^(r+1) - 1)), about half that (r = 5: 0.044 and 0.022
 * octaves). Counts per slot therefore draw a sawtooth that restarts at
 * every power of two on a load that is flat in log latency. Divided by
 * the slot's width in octaves they are a density, flat where the load is.
 */
#include <math.h>
#include <string.h>

#include "kstatsctl.h"
#include "model.h"
#include "plot.h"
#include "stats.h"

/*
 * The least r <= @fb such that @slot's last value (at @fb) is the last of
 * its slot at every frac_bits from r to @fb - 1.
 */
static uint32_t last_of_down_to(uint32_t slot, uint32_t fb)
{
	uint64_t last = kstats_slot_last(slot, fb);
	uint32_t r = fb;

	while (r > 0 && kstats_slot_last(kstats_hist_slot(last, r - 1), r - 1) == last)
		r--;
	return r;
}

/* Sparse: the metric's slot entries, no histogram built (heatmaps of a day). */
uint32_t ks_plot_data_bits(const struct ks_metric *m)
{
	uint32_t i, fb = 0, nslots = kstats_hist_nslots(m->frac_bits);

	for (i = 0; i < m->nr_slots && fb < m->frac_bits; i++) {
		const struct kstats_snap_slot *s = &m->slots[i];
		uint32_t r;

		if (!s->count || s->slot >= nslots)
			continue;
		r = last_of_down_to(s->slot, m->frac_bits);
		fb = r > fb ? r : fb;
	}
	return fb;
}

void ks_plot_add(const struct ks_metric *m, uint32_t r, double *slots)
{
	uint32_t i, nslots = kstats_hist_nslots(m->frac_bits);

	for (i = 0; i < m->nr_slots; i++) {
		const struct kstats_snap_slot *s = &m->slots[i];

		if (s->count && s->slot < nslots)
			slots[kstats_hist_slot(kstats_slot_low(s->slot, m->frac_bits), r)] +=
				(double)s->count;
	}
}

void ks_plot_rebin(const struct ks_hist *h, uint32_t r, double *slots)
{
	uint32_t s;

	memset(slots, 0, kstats_hist_nslots(r) * sizeof(*slots));
	for (s = h->first; h->total && s <= h->last; s++)
		if (h->count[s])
			slots[kstats_hist_slot(kstats_slot_low(s, h->frac_bits), r)] +=
				(double)h->count[s];
}

/*
 * Slot 0, [0, 1), has no width on a log axis (the axis starts at 1): it
 * counts as one octave, the width of [1, 2) at frac_bits 0.
 */
double ks_slot_octaves(uint32_t s, uint32_t r)
{
	uint64_t low = kstats_slot_low(s, r);

	return low ? log2(kstats_slot_high(s, r) / (double)low) : 1;
}

// SPDX-License-Identifier: GPL-2.0
/*
 * A value trace's metrics (trace --value, issue 33), as the module names
 * them: values-a.ksnap and values-b.ksnap (10 s later, each count
 * doubled). t.val (--value count): 100 values of 4096, 10 of 65536, 5 of
 * 1; NEG-t.val (a signed value's negatives): 3 of magnitude 14 (-EFAULT);
 * GAP-t.val stays a time (20 of 3 us). t.vt (--value EXPR --time): the
 * duration, 40 of 2 us, and VALUE-t.vt 40 of 512. t.vk{errno=0} (--value
 * with --by errno): a key's metric of a value, 30 of 100. Files do not
 * keep a trace's faults and rejected calls: shown as unknown.
 */
#include <stdlib.h>
#include <string.h>

#include "gen_snapshots.h"

enum { V_VAL, V_NEG, V_GAP, V_TIME, V_VALUE, V_KEYED, V_KEY0, NR_V };

static const struct {
	const char *name;
	uint32_t kind, flags;
	uint64_t v[3], count[3];
} vals[NR_V] = {
	[V_VAL] = { "t.val", KSTATS_KIND_VALUE, KSTATS_METRIC_VALUE,
		    { 4096, 65536, 1 }, { 100, 10, 5 } },
	[V_NEG] = { "NEG-t.val", KSTATS_KIND_VALUE, KSTATS_METRIC_VALUE, { 14 }, { 3 } },
	[V_GAP] = { "GAP-t.val", KSTATS_KIND_GAP, 0, { 3000 }, { 20 } },
	[V_TIME] = { "t.vt", KSTATS_KIND_TRACE, 0, { 2000 }, { 40 } },
	[V_VALUE] = { "VALUE-t.vt", KSTATS_KIND_VALUE, KSTATS_METRIC_VALUE, { 512 }, { 40 } },
	[V_KEYED] = { "t.vk", KSTATS_KIND_VALUE, KSTATS_METRIC_VALUE, { 100 }, { 30 } },
	[V_KEY0] = { "t.vk{errno=0}", KSTATS_KIND_KEY, KSTATS_METRIC_VALUE, { 100 }, { 30 } },
};

int values(const char *dir)
{
	struct ks_metric m[2][NR_V];
	struct gen g[2][NR_V];
	struct ks_set set;
	unsigned int pass;
	uint64_t c;
	int i, k, rc;

	for (pass = 0; pass < 2; pass++)
		for (i = 0; i < NR_V; i++) {
			gen_init(&g[pass][i], &m[pass][i], vals[i].name, "fx_write",
				 vals[i].kind, 3, 2);
			m[pass][i].flags |= vals[i].flags;
			for (k = 0; k < 3; k++)
				for (c = 0; c < vals[i].count[k] * (pass + 1); c++)
					rec(&g[pass][i], (uint32_t)(c % 2), vals[i].v[k]);
			if (vals[i].kind != KSTATS_KIND_KEY) {
				m[pass][i].hits = (pass + 1) * 118;
				m[pass][i].misses = pass;
				m[pass][i].floor_ns = 90;
			}
			gen_finish_at(&g[pass][i], pass, 700 + i);
		}
	source(&set.src);
	set.m = m[0];
	set.nr = NR_V;
	rc = write_set(dir, "values-a.ksnap", &set, false);
	set.src.created_ns += 10000000000ull;
	set.m = m[1];
	rc |= write_set(dir, "values-b.ksnap", &set, false);
	for (pass = 0; pass < 2; pass++)
		for (i = 0; i < NR_V; i++) {
			gen_free(&g[pass][i]);
			ks_metric_free(&m[pass][i]);
		}
	return rc;
}

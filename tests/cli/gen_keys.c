// SPDX-License-Identifier: GPL-2.0
/*
 * A keyed trace's metrics (trace --by errno), as the module names them:
 * keys-a.ksnap and keys-b.ksnap (10 s later, each key's calls doubled but
 * for one first seen in B). t.ke holds every call; t.ke{errno=0} 100 of
 * 2 us, t.ke{errno=-11} (EAGAIN) 50 of 200 us, t.ke{errno=-512} (the
 * kernel's ERESTARTSYS) 5 of 1 ms, t.ke{errno=other} 3 of 50 ns; in B
 * also t.ke{errno=-4095}, which no name has, 1 of 10 us. t.kc (trace --by
 * cgroup): t.kc{cgroup=1} 10 of 1 us and t.kc{cgroup=4242} 20 of 5 us: of
 * another boot, so printed as ids, never as this machine's paths. t.km
 * (trace --by comm, names in hex as the module spells them):
 * t.km{comm=nginx} 30 of 3 us, t.km{comm=kworker/1:2} 12 of 8 us and a
 * name of control characters, 2 of 1 us.
 */
#include <stdlib.h>
#include <string.h>

#include "gen_snapshots.h"

enum { K_ALL, K_OK, K_AGAIN, K_RESTART, K_OTHER, C_ALL, C_ROOT, C_ONE, M_ALL, M_NGINX,
	M_KWORKER, M_HOSTILE, K_NONAME, NR_K };

/* Each key's metric, and its trace's (@all). */
static const struct {
	const char *name;
	uint64_t v, count;
	int all;
} keyed[NR_K] = {
	[K_ALL] = { "t.ke", 0, 0, -1 },
	[K_OK] = { "t.ke{errno=0}", 2000, 100, K_ALL },
	[K_AGAIN] = { "t.ke{errno=-11}", 200000, 50, K_ALL },
	[K_RESTART] = { "t.ke{errno=-512}", 1000000, 5, K_ALL },
	[K_OTHER] = { "t.ke{errno=other}", 50, 3, K_ALL },
	[C_ALL] = { "t.kc", 0, 0, -1 },
	[C_ROOT] = { "t.kc{cgroup=1}", 1000, 10, C_ALL },
	[C_ONE] = { "t.kc{cgroup=4242}", 5000, 20, C_ALL },
	[M_ALL] = { "t.km", 0, 0, -1 },
	[M_NGINX] = { "t.km{comm=6e67696e78}", 3000, 30, M_ALL },
	[M_KWORKER] = { "t.km{comm=6b776f726b65722f313a32}", 8000, 12, M_ALL },
	[M_HOSTILE] = { "t.km{comm=1b5b33316d07}", 1000, 2, M_ALL },
	[K_NONAME] = { "t.ke{errno=-4095}", 10000, 1, K_ALL },
};

int keys(const char *dir)
{
	struct ks_metric m[2][NR_K];
	struct gen g[2][NR_K];
	size_t nr[2] = { NR_K - 1, NR_K };
	struct ks_set set;
	unsigned int pass;
	uint64_t c;
	int i, rc;

	for (pass = 0; pass < 2; pass++) {
		for (i = 0; i < NR_K; i++)
			gen_init(&g[pass][i], &m[pass][i], keyed[i].name,
				 keyed[i].name[3] == 'c' ? "ktarget_empty" : "ktarget_errno",
				 keyed[i].all < 0 ? KSTATS_KIND_TRACE : KSTATS_KIND_KEY, 3, 2);
		for (i = 0; i < (int)nr[pass]; i++)
			for (c = 0; keyed[i].all >= 0 &&
			     c < keyed[i].count * (pass + 1) - (i == K_NONAME); c++) {
				rec(&g[pass][i], (uint32_t)(c % 2), keyed[i].v);
				rec(&g[pass][keyed[i].all], (uint32_t)(c % 2), keyed[i].v);
			}
		for (i = 0; i < (int)nr[pass]; i++)
			gen_finish_at(&g[pass][i], pass, 500 + i);
	}
	source(&set.src);
	set.m = m[0];
	set.nr = nr[0];
	rc = write_set(dir, "keys-a.ksnap", &set, false);
	set.src.created_ns += 10000000000ull;
	set.m = m[1];
	set.nr = nr[1];
	rc |= write_set(dir, "keys-b.ksnap", &set, false);
	for (pass = 0; pass < 2; pass++)
		for (i = 0; i < NR_K; i++) {
			gen_free(&g[pass][i]);
			ks_metric_free(&m[pass][i]);
		}
	return rc;
}

// SPDX-License-Identifier: GPL-2.0
/*
 * A trace --by stack's keys with their frames (format 8), as 'snapshot'
 * writes them: t.ks (ktarget_leaf, every call) and its keys:
 *   t.ks{stack=1f2e3d4c}  path_a -> leaf, 30 calls of 10 us, whole
 *   t.ks{stack=5a6b7c8d}  path_b -> mid -> leaf, 20 of 20 us
 *   t.ks{stack=9e0f1a2b}  path_c -> mid -> leaf, 10 of 30 us, its
 *                         outermost frame named by no symbol ([unknown])
 *   t.ks{stack=3c4d5e6f}  the caller alone (truncated), 4 of 5 us
 *   t.ks{stack=7a8b9c0d}  withheld (5 frames taken, none kept), 2 of 1 us
 *   t.ks{stack=1234abcd}  no frames taken, 1 of 1 us
 *   t.ks{stack=cafe0001}  a frame of control characters, 1 of 1 us
 *   t.ks{stack=other}     3 of 2 us
 *
 *   stack-keys.ksnap      the above; stack-keys-be.ksnap, big-endian
 *   stack-keys-v5.ksnap   the same keys without frames (format 5, as
 *                         kstatsctl wrote them before format 8)
 *   bad-stack-*.ksnap     stack-keys.ksnap with one field of a key's
 *                         frames wrong, its checksum made right
 */
#include <stdlib.h>
#include <string.h>

#include "gen_snapshots.h"

#define MOD	" [kstats_target]"

static const char *const below[] = {
	"ctl_cmd+0x420" MOD, "ctl_write+0x30" MOD, "full_proxy_write+0x10",
	"vfs_write+0x10", "ksys_write+0x10", "do_syscall_64+0x10",
	"entry_SYSCALL_64_after_hwframe+0x10",
};

static const struct {
	const char *name;
	const char *above[2];	/* the frames above below[], the caller first */
	uint32_t nr_above, flags, taken;
	bool whole, unknown;
	uint64_t v, count;
} key[] = {
	{ "t.ks", { NULL }, 0, 0, 0, false, false, 0, 0 },
	{ "t.ks{stack=1f2e3d4c}", { "ktarget_path_a+0x10" MOD }, 1, 0, 0, true, false, 10000, 30 },
	{ "t.ks{stack=5a6b7c8d}", { "ktarget_mid+0x10" MOD, "ktarget_path_b+0x10" MOD }, 2, 0,
	  0, true, false, 20000, 20 },
	{ "t.ks{stack=9e0f1a2b}", { "ktarget_mid+0x10" MOD, "ktarget_path_c+0x10" MOD }, 2, 0,
	  0, true, true, 30000, 10 },
	{ "t.ks{stack=3c4d5e6f}", { "ktarget_mid+0x10" MOD }, 1, KSTATS_OUTLIER_TRUNCATED, 1,
	  false, false, 5000, 4 },
	{ "t.ks{stack=7a8b9c0d}", { NULL }, 0, KSTATS_OUTLIER_NOADDR, 5, false, false, 1000, 2 },
	{ "t.ks{stack=1234abcd}", { NULL }, 0, 0, 0, false, false, 1000, 1 },
	{ "t.ks{stack=cafe0001}", { "evil\x1b]0;title\x07\x9b" "31m+0x5" }, 1, 0, 1, false,
	  false, 1000, 1 },
	{ "t.ks{stack=other}", { NULL }, 0, 0, 0, false, false, 2000, 3 },
};
#define NR_KEYS ARRAY_SIZE(key)

static struct ks_stack_names *frames_of(uint32_t i)
{
	struct ks_stack_names *s = xcalloc(1, sizeof(*s));
	uint32_t f;

	s->flags = key[i].flags;
	s->taken = key[i].taken;
	for (f = 0; f < key[i].nr_above; f++)
		s->frame[s->nr++] = xstrdup(key[i].above[f]);
	for (f = 0; key[i].whole && f < ARRAY_SIZE(below); f++)
		s->frame[s->nr++] = xstrdup(key[i].unknown && f + 1 == ARRAY_SIZE(below) ?
					    "[unknown]" : below[f]);
	if (key[i].whole)
		s->taken = s->nr;
	return s;
}

/* stack-keys.ksnap's key 1 (path_a): its frames' block, and damaged copies. */
static int bad_files(const char *dir, const uint8_t *p, size_t len)
{
	size_t blk = record(p, 1, true);	/* a key keeps no outlier entries */
	uint32_t version_bom = 7u << 16 | 0xfeff;
	int rc = 0;

	rc |= bad(dir, "bad-stack-flags.ksnap", p, len, blk, 4, false);
	rc |= bad(dir, "bad-stack-taken.ksnap", p, len, blk + 4, 33, false);
	rc |= bad(dir, "bad-stack-nr.ksnap", p, len, blk + 8, 1, true);
	rc |= bad(dir, "bad-stack-frame-len.ksnap", p, len, blk + 16, 300, false);
	rc |= bad(dir, "bad-stack-v7.ksnap", p, len, 8, version_bom, false);
	/* The flag on t.ks, which is no stack key: its length no longer adds up. */
	rc |= bad(dir, "bad-stack-not-key.ksnap", p, len, record(p, 0, false) + 208, 8, false);
	return rc;
}

int stacks(const char *dir)
{
	struct ks_metric m[NR_KEYS];
	struct gen g[NR_KEYS];
	struct ks_set set;
	char *buf = NULL;
	size_t len = 0;
	uint64_t c;
	uint32_t i;
	int rc = 0;

	for (i = 0; i < NR_KEYS; i++)
		gen_init(&g[i], &m[i], key[i].name, "ktarget_leaf",
			 i ? KSTATS_KIND_KEY : KSTATS_KIND_TRACE, 3, 2);
	for (i = 1; i < NR_KEYS; i++)
		for (c = 0; c < key[i].count; c++) {
			rec(&g[i], (uint32_t)(c % 2), key[i].v);
			rec(&g[0], (uint32_t)(c % 2), key[i].v);
		}
	for (i = 0; i < NR_KEYS; i++) {
		gen_finish_at(&g[i], 0, 700 + i);
		m[i].hits = i ? key[i].count : 71;
	}
	source(&set.src);
	set.m = m;
	set.nr = NR_KEYS;
	rc |= write_set(dir, "stack-keys-v5.ksnap", &set, false);
	for (i = 1; i + 1 < NR_KEYS; i++)
		m[i].stack = frames_of(i);
	rc |= write_set(dir, "stack-keys.ksnap", &set, false);
	rc |= write_set(dir, "stack-keys-be.ksnap", &set, true);
	if (little_endian(&set, &buf, &len))
		return 1;
	rc |= bad_files(dir, (const uint8_t *)buf, len);
	free(buf);
	for (i = 0; i < NR_KEYS; i++) {
		ks_stack_names_free(m[i].stack);
		ks_metric_free(&m[i]);
		gen_free(&g[i]);
	}
	return rc;
}

// SPDX-License-Identifier: GPL-2.0
/*
 * A --by stack key's frames in a snapshot file (format 8): the S bytes
 * after a record's slots and outlier entries when its outlier flags have
 * bit 3 (snapfile.c), S being what the record's length leaves. Integers in
 * the file's byte order.
 *
 *     0  u32    flags: bit 0, the unwinder gave the caller alone
 *               (KSTATS_OUTLIER_TRUNCATED); bit 1, no frames kept
 *               (withheld: no addresses for the writer, or kallsyms hid
 *               them)
 *     4  u32    frames the kernel took (0..32)
 *     8  u32    frames here: as many, or 0 when withheld
 *    12  u32    0
 *    16  the frames, caller first, each a u16 length (1..255) then that
 *        many bytes (no NUL), "func+0xoff [module]" as 'outliers' prints
 *        them ([unknown] where no symbol held the address); zeros to a
 *        multiple of 8.
 *
 * Only a key's metric NAME{stack=ID} has one; NAME{stack=other} (calls
 * of stacks past --keys) has no frames to keep, and none.
 */
#include <stdlib.h>
#include <string.h>

#include "kstatsctl.h"
#include "model.h"
#include "snapfile_io.h"

#define STACK_HDR_LEN	16
#define STACK_STR_MAX	255
#define STACK_FLAGS	(KSTATS_OUTLIER_TRUNCATED | KSTATS_OUTLIER_NOADDR)

void ks_stack_names_free(struct ks_stack_names *s)
{
	uint32_t f;

	if (!s)
		return;
	for (f = 0; f < s->nr; f++)
		free(s->frame[f]);
	free(s);
}

static size_t up8(size_t n)
{
	return (n + 7) & ~(size_t)7;
}

static size_t frame_len(const struct ks_stack_names *s, uint32_t f)
{
	size_t n = strnlen(s->frame[f], STACK_STR_MAX);

	return n ? n : 1;	/* "?" for an empty one */
}

/* Whether @m is a stack key's metric with frames to keep (not "other"). */
static bool stack_keyed(const struct ks_metric *m)
{
	const char *k = strchr(m->name, '{');

	return k && !strncmp(k, "{stack=", 7) && strcmp(k, "{stack=other}");
}

size_t ks_snap_stack_len(const struct ks_metric *m)
{
	const struct ks_stack_names *s = m->stack;
	size_t len = STACK_HDR_LEN;
	uint32_t f;

	/* What the reader would refuse is not written. */
	if (!s || !stack_keyed(m) || (s->flags & ~STACK_FLAGS) ||
	    s->taken > KSTATS_OUTLIER_FRAMES ||
	    s->nr != (s->flags & KSTATS_OUTLIER_NOADDR ? 0 : s->taken))
		return 0;
	for (f = 0; f < s->nr; f++)
		len += 2 + frame_len(s, f);
	return up8(len);
}

void ks_snap_stack_write(struct wr *w, const struct ks_metric *m)
{
	const struct ks_stack_names *s = m->stack;
	uint32_t f;

	put32(w, s->flags);
	put32(w, s->taken);
	put32(w, s->nr);
	put32(w, 0);
	for (f = 0; f < s->nr; f++) {
		size_t n = frame_len(s, f);

		put16(w, (uint16_t)n);
		put(w, s->frame[f][0] ? s->frame[f] : "?", n);
	}
	pad_to(w, 8);
}

int ks_snap_stack_parse(const struct rd *r, size_t off, size_t len, struct ks_metric *m,
			const char **why)
{
	struct ks_stack_names *s;
	size_t at = STACK_HDR_LEN;
	uint32_t f;
	uint16_t n;

	if (!stack_keyed(m)) {
		*why = "frames of a stack in a record that is no stack key's";
		return -1;
	}
	if (len < STACK_HDR_LEN || len % 8) {
		*why = "bad stack frames block length";
		return -1;
	}
	s = xcalloc(1, sizeof(*s));
	s->flags = rd32(r, off);
	s->taken = rd32(r, off + 4);
	f = rd32(r, off + 8);
	if ((s->flags & ~STACK_FLAGS) || s->taken > KSTATS_OUTLIER_FRAMES || rd32(r, off + 12) ||
	    f != (s->flags & KSTATS_OUTLIER_NOADDR ? 0 : s->taken)) {
		*why = "bad stack frames (flags or number of frames)";
		goto bad;
	}
	for (; s->nr < f; s->nr++) {
		if (len - at < 2) {
			*why = "a stack's frame runs past its record";
			goto bad;
		}
		n = rd16(r, off + at);
		at += 2;
		if (!n || n > STACK_STR_MAX || n > len - at ||
		    memchr(r->p + off + at, 0, n)) {
			*why = "bad stack frame";
			goto bad;
		}
		s->frame[s->nr] = xcalloc(n + 1, 1);
		memcpy(s->frame[s->nr], r->p + off + at, n);
		at += n;
	}
	if (up8(at) != len || !all_zero(r->p + off + at, len - at)) {
		*why = "bad stack frames (bytes after them)";
		goto bad;
	}
	m->stack = s;
	return 0;
bad:
	ks_stack_names_free(s);
	return -1;
}

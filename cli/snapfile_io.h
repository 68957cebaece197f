/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What snapfile.c (the file, its header and records) shares with
 * snapfile_outl.c (a record's outlier entries, format 4): the byte-order
 * aware reads and writes. Private to those two.
 */
#ifndef KS_SNAPFILE_IO_H
#define KS_SNAPFILE_IO_H

#include <string.h>

#include "snapfile.h"

#define SNAP_OUTL_AT	208	/* a record's outlier block (format 3 on) */
#define SNAP_VERSION_RETVAL 7	/* outlier entries with a return value */
#define SNAP_VERSION_STACK 8	/* a stack key's frames */
#define SNAP_VERSION_USER 8	/* outlier entries of user code */

struct rd {
	const uint8_t *p;
	size_t len;
	bool swap;
	unsigned int version;
};

static inline uint16_t rd16(const struct rd *r, size_t off)
{
	uint16_t v;

	memcpy(&v, r->p + off, sizeof(v));
	return r->swap ? __builtin_bswap16(v) : v;
}

static inline uint32_t rd32(const struct rd *r, size_t off)
{
	uint32_t v;

	memcpy(&v, r->p + off, sizeof(v));
	return r->swap ? __builtin_bswap32(v) : v;
}

static inline uint64_t rd64(const struct rd *r, size_t off)
{
	uint64_t v;

	memcpy(&v, r->p + off, sizeof(v));
	return r->swap ? __builtin_bswap64(v) : v;
}

static inline bool all_zero(const uint8_t *p, size_t len)
{
	while (len--)
		if (*p++)
			return false;
	return true;
}

struct wr {
	uint8_t *p;
	size_t len, cap;
	bool swap;
};

static inline void put(struct wr *w, const void *src, size_t n)
{
	if (w->len + n > w->cap) {
		w->cap = (w->len + n) * 2;
		w->p = xrealloc(w->p, w->cap, 1);
	}
	memcpy(w->p + w->len, src, n);
	w->len += n;
}

static inline void put16(struct wr *w, uint16_t v)
{
	v = w->swap ? __builtin_bswap16(v) : v;
	put(w, &v, sizeof(v));
}

static inline void put32(struct wr *w, uint32_t v)
{
	v = w->swap ? __builtin_bswap32(v) : v;
	put(w, &v, sizeof(v));
}

static inline void put64(struct wr *w, uint64_t v)
{
	v = w->swap ? __builtin_bswap64(v) : v;
	put(w, &v, sizeof(v));
}

static inline void pad_to(struct wr *w, size_t align)
{
	static const uint8_t zero[8];

	if (w->len % align)
		put(w, zero, align - w->len % align);
}

/*
 * A NUL-terminated, zero-padded field of @len bytes; @name 1: a metric's
 * name, 1 or more of [A-Za-z0-9_.:-]; -1: that or a key's metric's,
 * NAME{KEY=VALUE} of [a-z0-9-]; 0 (an owner, a comm): any bytes.
 */
bool ks_snap_field_ok(const uint8_t *p, size_t len, int name);
/* @s into a field of @len bytes (at most 64), as ks_snap_field_ok reads it. */
void ks_snap_put_field(struct wr *w, const char *s, size_t len);

/* A record's outlier flags (its block's first u32). */
#define SNAP_OUTL_KEEPS		(1u << 0)	/* the trace keeps outliers */
#define SNAP_OUTL_ENTRIES	(1u << 1)	/* format 4: its entries follow the slots */
#define SNAP_OUTL_WITHHELD	(1u << 2)	/* ... without stacks (the note says why) */
#define SNAP_STACK		(1u << 3)	/* format 8: a stack key's frames, last */

/*
 * snapfile_outl.c. The entries block of a record whose outlier block said
 * @flags and @capacity (checked) and gave @m its counters: @len bytes at
 * @off, inside the file. Into m->outl_entries; 0, or -1 with @why.
 */
int ks_snap_outl_parse(const struct rd *r, size_t off, size_t len, uint32_t flags,
		       uint32_t capacity, struct ks_metric *m, const char **why);
/* The length of @m's entries block as ks_snap_outl_write writes it (0: none). */
size_t ks_snap_outl_len(const struct ks_metric *m);
void ks_snap_outl_write(struct wr *w, const struct ks_metric *m);
/*
 * snapfile_stack.c. A stack key's frames: @len bytes at @off, the rest of
 * the record (checked to be in the file), into m->stack; 0, or -1 with @why.
 */
int ks_snap_stack_parse(const struct rd *r, size_t off, size_t len, struct ks_metric *m,
			const char **why);
/* The length of @m's frames block as ks_snap_stack_write writes it (0: none). */
size_t ks_snap_stack_len(const struct ks_metric *m);
void ks_snap_stack_write(struct wr *w, const struct ks_metric *m);
/* Whether one of @m's written entries has @flag (RETVAL: format 7; USER: 8). */
bool ks_snap_outl_has(const struct ks_metric *m, uint32_t flag);

#endif /* KS_SNAPFILE_IO_H */

// SPDX-License-Identifier: GPL-2.0
/*
 * A trace's outlier entries in a snapshot file (format 4; 7 with return
 * values): the E bytes
 * after a record's slots when its outlier flags have bit 1 (snapfile.c).
 * Offsets from the start of the entries, then of each entry; integers in
 * the file's byte order.
 *
 *     0  u32    N, the number of entries: at most the ring's capacity and
 *               the outliers captured (the record's outlier block)
 *     4  u16    note length (0..255): 0 exactly when the stacks are kept
 *     6  u16    0
 *     8  the note, why the stacks are withheld ('outliers' prints it):
 *        any bytes but NUL; zeros to a multiple of 8
 *        then N entries, oldest first, each:
 *     0  u32    entry length: 80 + the frames, padded to a multiple of 8,
 *               + 8 with a return value
 *     4  u32    flags (KSTATS_OUTLIER_*: bit 0, the stack is the caller
 *               alone; 1, no addresses; 2, the call ended outside a task;
 *               3, a return value follows the frames: format 7 on;
 *               4, user code's: its one frame, where the call returns
 *               to, named in its process: format 8 on)
 *     8  u64    seq: 1 for the trace's first outlier; ascending
 *    16  u64    end of the call, CLOCK_MONOTONIC ns
 *    24  s64    the same as CLOCK_REALTIME ns
 *    32  u64    duration, ns
 *    40  s32    pid, 44: s32 tgid (initial pid namespace)
 *    48  u32    CPU at entry, 52: u32 CPU at the end
 *    56  u8[16] comm, NUL-terminated and padded with zeros
 *    72  u32    frames the kernel took (0..32)
 *    76  u32    frames here: as many, or 0 when withheld (the record's
 *               flag, or the entry's bit 1)
 *    80  the frames, caller first, each a u16 length (1..255) then that
 *        many bytes (no NUL); zeros to a multiple of 8; then with bit 3,
 *        a u64: the function's return register, whole (as
 *        KSTATS_IOC_OUTLIERS gives it).
 *
 * A frame is text, "function+0xoffset [module]" as 'outliers' prints it,
 * named from /proc/kallsyms when the file was written ("[unknown]" where
 * no symbol held the address), never a kernel address: a file leaves the
 * machine, and its addresses would give the kernel's KASLR offset away
 * while another machine's kallsyms could not name them. A writer without
 * CAP_PERFMON or CAP_SYS_ADMIN gets no addresses (so the file keeps no
 * frames), nor one kptr_restrict hides them from: the note says which.
 */
#include <stdlib.h>
#include <string.h>

#include "kstatsctl.h"
#include "model.h"
#include "outliers.h"
#include "snapfile_io.h"

#define OUTL_ENTRY_LEN	80	/* an entry without its frames */
#define OUTL_STR_MAX	255	/* a frame, the note */
#define OUTL_FLAGS	(KSTATS_OUTLIER_TRUNCATED | KSTATS_OUTLIER_NOADDR | \
			 KSTATS_OUTLIER_NOTASK | KSTATS_OUTLIER_RETVAL | KSTATS_OUTLIER_USER)

static size_t up8(size_t n)
{
	return (n + 7) & ~(size_t)7;
}

/* One entry at @off, @len bytes of the block left; its length, or 0. */
static size_t parse_entry(const struct rd *r, size_t off, size_t len,
			  struct ks_outl *ol, struct ks_outl_entry *e,
			  const char **why)
{
	size_t elen, at;
	uint32_t f;

	if (len < OUTL_ENTRY_LEN) {
		*why = "an outlier entry runs past its record";
		return 0;
	}
	elen = rd32(r, off);
	e->flags = rd32(r, off + 4);
	e->seq = rd64(r, off + 8);
	e->time_ns = rd64(r, off + 16);
	e->realtime_ns = (int64_t)rd64(r, off + 24);
	e->duration_ns = rd64(r, off + 32);
	e->pid = (int32_t)rd32(r, off + 40);
	e->tgid = (int32_t)rd32(r, off + 44);
	e->cpu_start = rd32(r, off + 48);
	e->cpu_end = rd32(r, off + 52);
	e->nr_frames = rd32(r, off + 72);
	e->nr_stack = rd32(r, off + 76);
	if (elen < OUTL_ENTRY_LEN || elen % 8 || elen > len) {
		*why = "bad outlier entry length";
		return 0;
	}
	if ((e->flags & KSTATS_OUTLIER_RETVAL) && r->version < SNAP_VERSION_RETVAL) {
		*why = "an outlier entry with a return value in a file of format 6 or "
		       "before (format 7's)";
		return 0;
	}
	if ((e->flags & KSTATS_OUTLIER_USER) && r->version < SNAP_VERSION_USER) {
		*why = "an outlier entry of user code in a file of format 7 or before "
		       "(format 8's)";
		return 0;
	}
	if ((e->flags & ~OUTL_FLAGS) || !e->seq ||
	    !ks_snap_field_ok(r->p + off + 56, sizeof(e->comm), 0)) {
		*why = "bad outlier entry (flags, seq or comm)";
		return 0;
	}
	memcpy(e->comm, r->p + off + 56, sizeof(e->comm));
	if (e->nr_frames > KSTATS_OUTLIER_FRAMES ||
	    e->nr_stack != (ol->withheld || (e->flags & KSTATS_OUTLIER_NOADDR) ?
			    0 : e->nr_frames)) {
		*why = "bad outlier entry (its number of frames)";
		return 0;
	}
	for (at = OUTL_ENTRY_LEN, f = 0; f < e->nr_stack; f++) {
		uint16_t n;

		if (elen - at < 2) {
			*why = "an outlier's frame runs past its entry";
			return 0;
		}
		n = rd16(r, off + at);
		at += 2;
		if (!n || n > OUTL_STR_MAX || n > elen - at ||
		    memchr(r->p + off + at, 0, n)) {
			*why = "bad outlier frame";
			return 0;
		}
		/* The block's own bytes bound the text: no count is trusted. */
		e->stack[f] = ks_outl_text(ol, (const char *)r->p + off + at, n);
		at += n;
	}
	if (e->flags & KSTATS_OUTLIER_RETVAL) {
		if (up8(at) + 8 > elen || !all_zero(r->p + off + at, up8(at) - at)) {
			*why = "bad outlier entry (its return value)";
			return 0;
		}
		at = up8(at);
		e->retval = rd64(r, off + at);
		at += 8;
	}
	if (up8(at) != elen || !all_zero(r->p + off + at, elen - at)) {
		*why = "bad outlier entry (bytes after its frames)";
		return 0;
	}
	return elen;
}

int ks_snap_outl_parse(const struct rd *r, size_t off, size_t len, uint32_t flags,
		       uint32_t capacity, struct ks_metric *m, const char **why)
{
	struct ks_outl *ol = xcalloc(1, sizeof(*ol));
	uint32_t nr = rd32(r, off), i;
	uint16_t note = rd16(r, off + 4);
	size_t at = 8 + up8(note), n;

	ol->o = m->outl;
	ol->withheld = flags & SNAP_OUTL_WITHHELD;
	if (note > OUTL_STR_MAX || rd16(r, off + 6) || at > len ||
	    !note != !ol->withheld || memchr(r->p + off + 8, 0, note) ||
	    !all_zero(r->p + off + 8 + note, at - 8 - note)) {
		*why = "bad outlier entries (their note)";
		goto bad;
	}
	memcpy(ol->note, r->p + off + 8, note);
	if (nr > capacity || nr > m->outl.captured ||
	    (uint64_t)nr * OUTL_ENTRY_LEN > len - at) {
		*why = "more outlier entries than the ring, the count or the record holds";
		goto bad;
	}
	/* Sizes now fit in the file: allocating is safe. */
	ol->e = xcalloc(nr ? nr : 1, sizeof(*ol->e));
	ol->text_cap = len;
	ol->text = xcalloc(ol->text_cap, 1);
	for (i = 0; i < nr; i++, ol->nr++) {
		n = parse_entry(r, off + at, len - at, ol, &ol->e[i], why);
		if (!n)
			goto bad;
		if (i && ol->e[i].seq <= ol->e[i - 1].seq) {
			*why = "outlier entries out of order";
			goto bad;
		}
		at += n;
	}
	if (at != len) {
		*why = "bytes after the last outlier entry";
		goto bad;
	}
	ol->o.nr_entries = nr;
	m->outl_entries = ol;
	return 0;
bad:
	ks_outl_free(ol);
	return -1;
}

/* The frames @e keeps (a file's reader takes no more). */
static uint32_t stack_len(const struct ks_outl *ol, const struct ks_outl_entry *e)
{
	if (ol->withheld || (e->flags & KSTATS_OUTLIER_NOADDR))
		return 0;
	return e->nr_stack < KSTATS_OUTLIER_FRAMES ? e->nr_stack : KSTATS_OUTLIER_FRAMES;
}

static size_t frame_len(const struct ks_outl *ol, const struct ks_outl_entry *e, uint32_t f)
{
	size_t n = strnlen(ol->text + e->stack[f], OUTL_STR_MAX);

	return n ? n : 1;	/* "?" for an empty one */
}

static size_t entry_len(const struct ks_outl *ol, const struct ks_outl_entry *e)
{
	size_t len = OUTL_ENTRY_LEN;
	uint32_t f;

	for (f = 0; f < stack_len(ol, e); f++)
		len += 2 + frame_len(ol, e, f);
	return up8(len) + (e->flags & KSTATS_OUTLIER_RETVAL ? 8 : 0);
}

/*
 * What the reader would refuse is not written: a ring of no or too many
 * entries, more entries than it or the count, unordered ones, a withheld
 * stack without its reason (only a model not from the module or a file:
 * the module does not give them). The counters are written still.
 */
static bool writable(const struct ks_metric *m, const struct ks_outl *ol)
{
	uint32_t i;

	if (!m->has_outliers || !ol || !ol->o.capacity ||
	    ol->o.capacity > KSTATS_OUTLIER_RING_MAX || ol->nr > ol->o.capacity ||
	    ol->nr > m->outl.captured || ol->withheld != !!ol->note[0])
		return false;
	for (i = 0; i < ol->nr; i++) {
		const struct ks_outl_entry *e = &ol->e[i];
		bool kept = !ol->withheld && !(e->flags & KSTATS_OUTLIER_NOADDR);

		if (!e->seq || (i && e->seq <= e[-1].seq) || (e->flags & ~OUTL_FLAGS) ||
		    e->nr_frames > KSTATS_OUTLIER_FRAMES ||
		    (kept && e->nr_stack != e->nr_frames))
			return false;
	}
	return true;
}

bool ks_snap_outl_has(const struct ks_metric *m, uint32_t flag)
{
	const struct ks_outl *ol = m->outl_entries;
	uint32_t i;

	if (!writable(m, ol))
		return false;
	for (i = 0; i < ol->nr; i++)
		if (ol->e[i].flags & flag)
			return true;
	return false;
}

size_t ks_snap_outl_len(const struct ks_metric *m)
{
	const struct ks_outl *ol = m->outl_entries;
	size_t len;
	uint32_t i;

	if (!writable(m, ol))
		return 0;
	len = 8 + up8(strnlen(ol->note, OUTL_STR_MAX));
	for (i = 0; i < ol->nr; i++)
		len += entry_len(ol, &ol->e[i]);
	return len;
}

void ks_snap_outl_write(struct wr *w, const struct ks_metric *m)
{
	const struct ks_outl *ol = m->outl_entries;
	size_t note = strnlen(ol->note, OUTL_STR_MAX);
	uint32_t i, f;

	put32(w, ol->nr);
	put16(w, (uint16_t)note);
	put16(w, 0);
	put(w, ol->note, note);
	pad_to(w, 8);
	for (i = 0; i < ol->nr; i++) {
		const struct ks_outl_entry *e = &ol->e[i];

		put32(w, (uint32_t)entry_len(ol, e));
		put32(w, e->flags);
		put64(w, e->seq);
		put64(w, e->time_ns);
		put64(w, (uint64_t)e->realtime_ns);
		put64(w, e->duration_ns);
		put32(w, (uint32_t)e->pid);
		put32(w, (uint32_t)e->tgid);
		put32(w, e->cpu_start);
		put32(w, e->cpu_end);
		ks_snap_put_field(w, e->comm, sizeof(e->comm));
		put32(w, e->nr_frames);
		put32(w, stack_len(ol, e));
		for (f = 0; f < stack_len(ol, e); f++) {
			size_t n = frame_len(ol, e, f);
			const char *s = ol->text + e->stack[f];

			put16(w, (uint16_t)n);
			put(w, *s ? s : "?", n);
		}
		pad_to(w, 8);
		if (e->flags & KSTATS_OUTLIER_RETVAL)
			put64(w, e->retval);
	}
}

// SPDX-License-Identifier: GPL-2.0
/*
 * Snapshot files (kstatsctl snapshot -o FILE; read by show -i, diff,
 * outliers -i). A record's outlier entries are snapfile_outl.c's.
 *
 * A file is self-describing: a header, then one record per metric. Every
 * integer is in the byte order of the machine that wrote it, which the
 * byte-order mark tells; readers swap when it reads 0xFFFE. Offsets are
 * from the start of the file (header) or of the record.
 *
 * Header (format version 8; kstatsctl writes 8 when a stack key keeps its
 * frames (snapfile_stack.c) or an outlier entry is user code's, else 7 when an outlier entry keeps a return
 * value (snapfile_outl.c), else 6 when a key's metric holds a traced value,
 * 5 when a record is else a key's metric, else 4, and reads 1 to 8):
 *     0  u8[8]  magic "KSTATSNP"
 *     8  u16    byte-order mark 0xFEFF
 *    10  u16    format version: 8 (7, 6, 5, 4)
 *    12  u8     size of a u16 (2), 13: of a u32 (4), 14: of a u64 (8)
 *    15  u8     0
 *    16  u32    header length: bytes before the first record, a multiple
 *               of 8, at least 48
 *    20  u32    number of metric records
 *    24  u64    creation time, ns since the epoch (CLOCK_REALTIME)
 *    32  u32    ABI version of the module that was read (0: unknown)
 *    36  u32    number of strings (7; at least 6, and readers skip any
 *               beyond those they know)
 *    40  u32    CRC-32C (crc.c) of the whole file, these 4 bytes read as 0
 *               (the bytes as stored, whatever their order)
 *    44  u32    length of the whole file (at most 2^30 - 1)
 *    48  strings, each a u16 length then that many bytes (no NUL, at most
 *        255): host name, kernel release, kernel version, machine, module
 *        version, kstatsctl version, boot ID (the kernel's random boot_id;
 *        absent from files of kstatsctl 0.x before it, or empty: unknown);
 *        zeros up to the header length. Any bytes but NUL: printing them
 *        is text.c's business.
 *
 * Version 7 is 8 without a stack key's frames (bit 3 of a record's
 * outlier flags) and outlier entries of user code (their flag 16). Version 5 is 6 without a key's metric of values (kind KSTATS_KIND_KEY with
 * KSTATS_METRIC_VALUE: trace --value --by), which a reader of version 5
 * would show as nanoseconds; the layout is the same.
 * Version 4 is 5 without keyed names (a record's name is never a key's
 * metric's, NAME{KEY=VALUE} of [a-z0-9-]). Format version 1 is the same
 * but for bytes 40..47, a u64 0: no
 * checksum, no file length. Version 2 is 3 without the records' outlier
 * block (their header is 208 bytes). Version 3 is 4 without outlier
 * entries: its outlier block's flags have bit 0 alone, and bytes 248..255
 * are 0.
 *
 * Metric record (H, its header's length: 256 from version 3, 208 before):
 *     0  u32    record length: H + 16 * nr_cpus + 24 * nr_slots + E + S
 *     4  u32    frac_bits (0..5)
 *     8  u32    kind (KSTATS_KIND_*), 12: flags (KSTATS_METRIC_*)
 *    16  u32    nr_cpus, 20: nr_slots
 *    24  u64    time (CLOCK_MONOTONIC ns), 32: time (CLOCK_REALTIME ns)
 *    40  u64    hits, 48: misses, 56: probe floor in ns (traces; else 0)
 *    64  u32    owner uid, 68: u32 generation (its low 32 bits; 0: unknown,
 *               files of kstatsctl 0.1), 72: s64 owner pid (-1: a module)
 *    80  u8[64] name ([A-Za-z0-9_.:-], 1 to 63; from version 5 also
 *               NAME{KEY=VALUE}), NUL-terminated and padded
 *               with zeros
 *   144  u8[64] owner (a module's or a process's name: any bytes but NUL),
 *               likewise
 *   208  (version 3 on) outliers (trace --outliers), as the module counted
 *               them: u32 flags (bit 0: the trace keeps outliers, else every
 *               other field here and bits 1 and 2 are 0; bit 1: its entries follow the slots; bit 2:
 *               their stacks are withheld, the entries' note says why;
 *               bit 3, format 8: a stack key's frames follow, S bytes, the
 *               rest of the record),
 *               212: u32 threshold quantile in millionths (0: a fixed
 *               threshold), 216: u64 captured, 224: overwritten,
 *               232: rate-limited, 240: threshold in ns (0: none yet),
 *               248: u32 the ring's capacity (1..65536), 252: u32 E, the
 *               entries' length (a multiple of 8, at least 8); both 0
 *               without bit 1
 *     H  nr_cpus  x { u32 cpu, u32 nr_slots, u64 count }   ascending cpu;
 *               count is the sum of the CPU's slot counts modulo 2^64
 *        nr_slots x { u32 cpu, u32 slot, u64 count, u64 part_sum }
 *               in cpu then slot order: exactly KSTATS_IOC_SNAPSHOT's
 *               layout; part sums as kstats_hist.h defines them.
 *        E bytes: the outlier entries (bit 1; layout in snapfile_outl.c).
 *        S bytes: a stack key's frames (bit 3; layout in snapfile_stack.c).
 *
 * The reader first tells a file cut short (the length in the header, or
 * in version 1 the header's and records' lengths, go past its end) and,
 * from version 2, a damaged one (the checksum); then it checks every
 * length, offset, count and ordering against the file's size before it
 * allocates or reads anything, and rejects what does not add up, with a
 * message; it never trusts a count for an allocation.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "kstatsctl.h"
#include "hdr.h"
#include "keys.h"
#include "model.h"
#include "outliers.h"
#include "snapfile.h"
#include "text.h"
#include "snapfile_io.h"

#define SNAP_MAGIC	"KSTATSNP"
#define SNAP_BOM	0xFEFF
#define SNAP_VERSION	SNAP_VERSION_STACK	/* written when needed, else 7 to 4; 1 to 7 read too */
#define SNAP_VERSION_VALUE_KEYS 6	/* a key's metric holding a traced value */
#define SNAP_VERSION_KEYS 5	/* keyed names */
#define SNAP_HDR_LEN	48
#define SNAP_NR_STRINGS	7	/* written; files with 6 (no boot ID) are read */
#define SNAP_MIN_STRINGS 6
#define SNAP_REC_LEN	208	/* a record's header, versions 1 and 2 */
#define SNAP_REC_LEN3	256	/* version 3 on: with the outlier block */
#define SNAP_CPU_LEN	16
#define SNAP_SLOT_LEN	24
#define SNAP_MAX_FILE	(1ull << 30)
#define SNAP_CRC_AT	40	/* version 2: u32 CRC-32C, then the file's length */
#define SNAP_LEN_AT	44

#define HINT_FORMAT	"is it a file written by 'kstatsctl snapshot'?"
#define HINT_NEWER	"a newer kstatsctl wrote it: read it with that one"
#define HINT_CUT	"the file ends early (a copy or a write that did not " \
			"finish, a full disk?): copy it again, or take the " \
			"snapshot again"
#define HINT_DAMAGED	"its bytes changed after 'kstatsctl snapshot' wrote them " \
			"(a disk, a transfer, an edit): use another copy, or take " \
			"the snapshot again"

/* ---- reading ---- */

/* Says what is wrong with the file and what to do; returns -1. */
static int bad(struct ks_snap_why *why, const char *hint, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static int bad(struct ks_snap_why *why, const char *hint, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(why->msg, sizeof(why->msg), fmt, ap);
	va_end(ap);
	why->hint = hint;
	return -1;
}

bool ks_snap_field_ok(const uint8_t *p, size_t len, int name)
{
	size_t n = strnlen((const char *)p, len), i;

	if (n == len || !all_zero(p + n, len - n))
		return false;
	if (name < 0 && memchr(p, '{', n))
		n = ks_key_name_base((const char *)p);
	for (i = 0; name && i < n; i++)
		if (!strchr("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
			    "0123456789_.:-", p[i]))
			return false;
	return !name || n > 0;
}

/* The first 48 bytes: magic, byte order, version, integer sizes. */
static int check_start(struct rd *r, struct ks_snap_why *why)
{
	uint16_t bom;

	if (!r->len)
		return bad(why, HINT_FORMAT, "the file is empty");
	if (memcmp(r->p, SNAP_MAGIC, r->len < 8 ? r->len : 8))
		return bad(why, HINT_FORMAT, "not a kstats snapshot file (bad magic)");
	if (r->len < SNAP_HDR_LEN)
		return bad(why, HINT_CUT, "truncated at %zu bytes (a header is at "
			   "least %d)", r->len, SNAP_HDR_LEN);
	memcpy(&bom, r->p + 8, sizeof(bom));
	r->swap = bom == __builtin_bswap16(SNAP_BOM);
	if (rd16(r, 8) != SNAP_BOM)
		return bad(why, HINT_FORMAT, "unknown byte-order mark");
	r->version = rd16(r, 10);
	if (r->version < 1 || r->version > SNAP_VERSION)
		return bad(why, r->version > SNAP_VERSION ? HINT_NEWER : HINT_FORMAT,
			   "unsupported format version %u (this kstatsctl reads 1 "
			   "to %d)", r->version, SNAP_VERSION);
	if (r->p[12] != 2 || r->p[13] != 4 || r->p[14] != 8 || r->p[15])
		return bad(why, HINT_FORMAT, "unsupported integer sizes");
	return 0;
}

/*
 * Does the file end before its header and records do? Their lengths are
 * followed as far as the file goes: -1, with the message, when it ends
 * before them; 0 when it holds them all, or when they do not add up (the
 * parser says how).
 */
static int cut_short(const struct rd *r, struct ks_snap_why *why)
{
	uint32_t end = rd32(r, 16), nr = rd32(r, 20), i;
	uint64_t off = end, len;

	if (end < SNAP_HDR_LEN)
		return 0;
	if (end > r->len)
		return bad(why, HINT_CUT, "truncated at %zu bytes (the header is %u)",
			   r->len, end);
	for (i = 0; i < nr; i++) {
		if (r->len - off < 4)
			return bad(why, HINT_CUT, "truncated at %zu bytes (metric "
				   "record %u of %u starts at %llu)", r->len, i + 1,
				   nr, (unsigned long long)off);
		len = rd32(r, off);
		if (len < SNAP_REC_LEN)
			return 0;
		if (len > r->len - off)
			return bad(why, HINT_CUT, "truncated at %zu bytes (metric "
				   "record %u of %u ends at %llu)", r->len, i + 1, nr,
				   (unsigned long long)(off + len));
		off += len;
	}
	return 0;
}

/* Version 2's checksum: of the file as stored, its own 4 bytes as 0. */
static uint32_t checksum(const uint8_t *p, size_t len)
{
	static const uint8_t zero[4];
	uint32_t crc = ks_crc32c(0, p, SNAP_CRC_AT);

	crc = ks_crc32c(crc, zero, sizeof(zero));
	return ks_crc32c(crc, p + SNAP_CRC_AT + 4, len - SNAP_CRC_AT - 4);
}

/*
 * Is the file whole and as written? A file that ends before its header
 * says (version 2), or before its header and records do (1), is cut
 * short; in version 2, one whose first bytes, as many as its header says,
 * are whole has bytes after its end, and any other change is a checksum
 * mismatch. Damage that lengthens a length field could look like a cut
 * in version 1, but not in 2, where the file's length must say so too.
 */
static int check_whole(const struct rd *r, struct ks_snap_why *why)
{
	uint32_t want, crc;

	if (r->version == 1)
		return cut_short(r, why);
	want = rd32(r, SNAP_LEN_AT);
	crc = checksum(r->p, r->len);
	if (r->len < want && (crc == rd32(r, SNAP_CRC_AT) || cut_short(r, why)))
		return bad(why, HINT_CUT, "truncated at %zu bytes (the header says "
			   "%u)", r->len, want);
	if (r->len > want && want >= SNAP_HDR_LEN &&
	    checksum(r->p, want) == rd32(r, SNAP_CRC_AT))
		return bad(why, HINT_FORMAT, "%zu bytes after its end (the header "
			   "says %u)", r->len - want, want);
	if (crc != rd32(r, SNAP_CRC_AT))
		return bad(why, HINT_DAMAGED, "checksum mismatch: the file is damaged");
	if (r->len != want)
		return bad(why, HINT_FORMAT, "%zu bytes, but the header says %u",
			   r->len, want);
	return 0;
}

static int parse_header(const struct rd *r, struct ks_set *set, size_t *hdr_len,
			uint32_t *nr, const char **why)
{
	char *strs[SNAP_NR_STRINGS] = {
		set->src.host, set->src.kernel, set->src.kernel_version,
		set->src.machine, set->src.module_version, set->src.tool_version,
		set->src.boot_id,
	};
	const size_t sizes[SNAP_NR_STRINGS] = {
		sizeof(set->src.host), sizeof(set->src.kernel),
		sizeof(set->src.kernel_version), sizeof(set->src.machine),
		sizeof(set->src.module_version), sizeof(set->src.tool_version),
		sizeof(set->src.boot_id),
	};
	uint32_t nr_strings, i;
	size_t off, end;

	end = rd32(r, 16);
	*nr = rd32(r, 20);
	nr_strings = rd32(r, 36);
	if (end < SNAP_HDR_LEN || end % 8 || end > r->len ||
	    (r->version == 1 && rd64(r, SNAP_CRC_AT))) {
		*why = "bad header length";
		return -1;
	}
	if (nr_strings < SNAP_MIN_STRINGS) {
		*why = "missing identification strings";
		return -1;
	}
	set->src.file = true;
	set->src.created_ns = rd64(r, 24);
	set->src.abi_version = rd32(r, 32);
	for (off = SNAP_HDR_LEN, i = 0; i < nr_strings; i++) {
		uint16_t len;

		if (off + 2 > end) {
			*why = "more header strings than the header holds";
			return -1;
		}
		len = rd16(r, off);
		off += 2;
		if (len > 255 || off + len > end) {
			*why = "bad header string length";
			return -1;
		}
		if (i < SNAP_NR_STRINGS) {
			if (len >= sizes[i] || memchr(r->p + off, 0, len)) {
				*why = "bad header string";
				return -1;
			}
			memcpy(strs[i], r->p + off, len);
			strs[i][len] = '\0';
		}
		off += len;
	}
	if (!all_zero(r->p + off, end - off)) {
		*why = "garbage in the header padding";
		return -1;
	}
	if (*nr > (r->len - end) / SNAP_REC_LEN) {
		*why = "more metrics than the file can hold";
		return -1;
	}
	*hdr_len = end;
	return 0;
}

/*
 * The outlier block of the record at @off (its size is checked), version
 * 3 on; in 4, the ring's capacity and the length of the entries after the
 * slots into *@capacity and *@elen (else 0).
 */
static int parse_outliers(const struct rd *r, size_t off, struct ks_metric *m,
			  uint32_t *flags, uint32_t *capacity, uint32_t *elen,
			  const char **why)
{
	const uint32_t known = (r->version >= 4 ? SNAP_OUTL_KEEPS | SNAP_OUTL_ENTRIES |
				SNAP_OUTL_WITHHELD : SNAP_OUTL_KEEPS) |
			       (r->version >= SNAP_VERSION_STACK ? SNAP_STACK : 0);
	struct kstats_outliers *o = &m->outl;
	uint32_t f = rd32(r, off + SNAP_OUTL_AT);
	bool entries = f & SNAP_OUTL_ENTRIES;

	memset(o, 0, sizeof(*o));
	o->threshold_ppm = rd32(r, off + SNAP_OUTL_AT + 4);
	o->captured = rd64(r, off + SNAP_OUTL_AT + 8);
	o->overwritten = rd64(r, off + SNAP_OUTL_AT + 16);
	o->ratelimited = rd64(r, off + SNAP_OUTL_AT + 24);
	o->threshold_ns = rd64(r, off + SNAP_OUTL_AT + 32);
	*capacity = rd32(r, off + SNAP_OUTL_AT + 40);
	*elen = rd32(r, off + SNAP_OUTL_AT + 44);
	*flags = f;
	m->has_outliers = f & SNAP_OUTL_KEEPS;
	if ((f & ~known) || o->threshold_ppm >= 1000000 || (!m->has_outliers &&
	    ((f & ~SNAP_STACK) || !all_zero(r->p + off + SNAP_OUTL_AT + 4,
					    SNAP_REC_LEN3 - SNAP_OUTL_AT - 4)))) {
		*why = "bad outlier block";
		return -1;
	}
	/* Entries come with the counters; the withheld stacks, with entries. */
	if ((entries && !m->has_outliers) || ((f & SNAP_OUTL_WITHHELD) && !entries) ||
	    (!entries && (*capacity || *elen)) || (entries && (!*capacity ||
	    *capacity > KSTATS_OUTLIER_RING_MAX || *elen < 8 || *elen % 8))) {
		*why = "bad outlier block (its entries' ring or length)";
		return -1;
	}
	o->capacity = *capacity;
	return 0;
}

static int parse_metric(const struct rd *r, size_t off, struct ks_metric *m,
			size_t *rec_len, const char **why)
{
	size_t hdr = r->version >= 3 ? SNAP_REC_LEN3 : SNAP_REC_LEN, so;
	uint32_t i, c, nslots, oflags = 0, capacity = 0, elen = 0;
	uint64_t len, want, sum;

	if (r->len - off < hdr) {
		*why = "a metric record runs past the end of the file";
		return -1;
	}
	len = rd32(r, off);
	m->frac_bits = rd32(r, off + 4);
	m->kind = rd32(r, off + 8);
	m->flags = rd32(r, off + 12);
	m->nr_cpus = rd32(r, off + 16);
	m->nr_slots = rd32(r, off + 20);
	if (r->version >= 3 && parse_outliers(r, off, m, &oflags, &capacity, &elen, why))
		return -1;
	want = hdr + (uint64_t)m->nr_cpus * SNAP_CPU_LEN +
	       (uint64_t)m->nr_slots * SNAP_SLOT_LEN + elen;
	/* A stack key's frames take what the record's length leaves. */
	if (oflags & SNAP_STACK)
		want = len > want ? len : want + 1;
	if (len != want || len > r->len - off) {
		*why = "bad metric record length";
		return -1;
	}
	if (m->frac_bits > KSTATS_FRAC_BITS_MAX) {
		*why = "frac_bits above 5";
		return -1;
	}
	m->time_ns = rd64(r, off + 24);
	m->realtime_ns = rd64(r, off + 32);
	m->hits = rd64(r, off + 40);
	m->misses = rd64(r, off + 48);
	m->floor_ns = rd64(r, off + 56);
	m->owner_uid = rd32(r, off + 64);
	m->generation = rd32(r, off + 68);
	m->owner_pid = (int64_t)rd64(r, off + 72);
	if (!ks_snap_field_ok(r->p + off + 80, KSTATS_NAME_LEN, r->version >= 5 ? -1 : 1) ||
	    !ks_snap_field_ok(r->p + off + 144, KSTATS_NAME_LEN, 0)) {
		*why = "bad metric name or owner";
		return -1;
	}
	memcpy(m->name, r->p + off + 80, KSTATS_NAME_LEN);
	memcpy(m->owner, r->p + off + 144, KSTATS_NAME_LEN);

	/* Sizes are now known to fit in the file: allocating is safe. */
	m->cpus = xcalloc(m->nr_cpus, sizeof(*m->cpus));
	m->slots = xcalloc(m->nr_slots, sizeof(*m->slots));
	nslots = kstats_hist_nslots(m->frac_bits);
	sum = 0;
	for (c = 0; c < m->nr_cpus; c++) {
		size_t co = off + hdr + (size_t)c * SNAP_CPU_LEN;

		m->cpus[c].cpu = rd32(r, co);
		m->cpus[c].nr_slots = rd32(r, co + 4);
		m->cpus[c].count = rd64(r, co + 8);
		if (c && m->cpus[c].cpu <= m->cpus[c - 1].cpu) {
			*why = "CPUs out of order";
			return -1;
		}
		sum += m->cpus[c].nr_slots;
	}
	if (sum != m->nr_slots) {
		*why = "per-CPU slot counts do not add up";
		return -1;
	}
	so = off + hdr + (size_t)m->nr_cpus * SNAP_CPU_LEN;
	for (c = 0, i = 0; c < m->nr_cpus; c++) {
		uint64_t count = 0;
		uint32_t k;

		for (k = 0; k < m->cpus[c].nr_slots; k++, i++) {
			struct kstats_snap_slot *s = &m->slots[i];
			size_t o = so + (size_t)i * SNAP_SLOT_LEN;

			s->cpu = rd32(r, o);
			s->slot = rd32(r, o + 4);
			s->count = rd64(r, o + 8);
			s->part_sum = rd64(r, o + 16);
			if (s->cpu != m->cpus[c].cpu || s->slot >= nslots ||
			    (k && s->slot <= s[-1].slot)) {
				*why = "bad slot entry";
				return -1;
			}
			count += s->count;	/* modulo 2^64, as the module sums */
		}
		if (count != m->cpus[c].count) {
			*why = "a CPU's count is not the sum of its slots";
			return -1;
		}
	}
	so += (size_t)m->nr_slots * SNAP_SLOT_LEN;
	if (elen && ks_snap_outl_parse(r, so, elen, oflags, capacity, m, why))
		return -1;
	so += elen;
	if ((oflags & SNAP_STACK) && ks_snap_stack_parse(r, so, off + len - so, m, why))
		return -1;
	*rec_len = (size_t)len;
	return 0;
}

int ks_snapfile_parse(const void *buf, size_t len, struct ks_set *set,
		      struct ks_snap_why *why)
{
	struct rd r = { buf, len, false, 0 };
	const char *what = NULL;
	size_t off, rec_len;
	uint32_t nr, i;

	memset(set, 0, sizeof(*set));
	memset(why, 0, sizeof(*why));
	if (check_start(&r, why) || check_whole(&r, why))
		return -1;
	if (parse_header(&r, set, &off, &nr, &what))
		return bad(why, HINT_FORMAT, "%s", what);
	set->m = xcalloc(nr, sizeof(*set->m));
	for (i = 0; i < nr; i++) {
		set->nr = i + 1;
		if (parse_metric(&r, off, &set->m[i], &rec_len, &what))
			goto out;
		if (ks_set_find(set, set->m[i].name) != &set->m[i]) {
			what = "a metric appears twice";
			goto out;
		}
		off += rec_len;
	}
	if (off == len)
		return 0;
	what = "trailing bytes after the last metric";
out:
	ks_set_free(set);
	return bad(why, HINT_FORMAT, "%s", what);
}

int ks_file_read(const char *path, uint8_t **out, size_t *out_len)
{
	FILE *f = strcmp(path, "-") ? fopen(path, "rbe") : stdin;
	size_t len = 0, cap = 1 << 16, n;
	struct stat st;
	uint8_t *buf;
	int rc = 0;

	if (!f)
		return ks_fail(EXIT_RUNTIME, NULL, "%s: %s", path, strerror(errno));
	if (!fstat(fileno(f), &st) && S_ISREG(st.st_mode) && st.st_size > 0 &&
	    (uint64_t)st.st_size < SNAP_MAX_FILE)
		cap = (size_t)st.st_size + 1;	/* one read, and EOF */
	buf = xcalloc(cap, 1);
	while ((n = fread(buf + len, 1, cap - len, f)) > 0) {
		len += n;
		if (len == cap) {
			if (cap >= SNAP_MAX_FILE) {
				rc = ks_fail(EXIT_RUNTIME, HINT_FORMAT, "%s: larger than 1 GiB",
					     path);
				break;
			}
			cap *= 2;
			buf = xrealloc(buf, cap, 1);
		}
	}
	if (!rc && ferror(f))
		rc = ks_fail(EXIT_RUNTIME, NULL, "%s: %s", path, strerror(errno));
	if (f != stdin)
		fclose(f);
	if (rc) {
		free(buf);
		return rc;
	}
	*out = buf;
	*out_len = len;
	return 0;
}

int ks_snapfile_read(const char *path, struct ks_set *set)
{
	struct ks_snap_why why = { "", NULL };
	uint8_t *buf;
	size_t len;
	int rc = ks_file_read(path, &buf, &len);

	if (rc)
		return rc;
	if (ks_hlog_detect(buf, len))
		rc = ks_hlog_parse_set(path, buf, len, set);
	else if (ks_hlog_window_set())	/* hdr.h */
		rc = ks_fail(EXIT_USAGE, "--from and --to cut a window of an HdrHistogram "
			     "interval log", "%s: a snapshot file holds one instant", path);
	else if (ks_snapfile_parse(buf, len, set, &why))
		rc = ks_fail(EXIT_RUNTIME, why.hint, "%s: %s", path, why.msg);
	free(buf);
	if (!rc) {
		set->src.path = path;
		ks_cgroup_source(set->src.boot_id);	/* ids of another boot */
	}
	return rc;
}

/* ---- writing ---- */

/* Writes @v at @off, in the file's byte order. */
static void set32(struct wr *w, size_t off, uint32_t v)
{
	v = w->swap ? __builtin_bswap32(v) : v;
	memcpy(w->p + off, &v, sizeof(v));
}

static void set16(struct wr *w, size_t off, uint16_t v)
{
	v = w->swap ? __builtin_bswap16(v) : v;
	memcpy(w->p + off, &v, sizeof(v));
}

void ks_snapfile_seal(void *buf, size_t len)
{
	struct wr w = { buf, len, len, false };
	uint16_t v;

	if (len < SNAP_HDR_LEN || len >= SNAP_MAX_FILE)
		return;
	memcpy(&v, w.p + 8, sizeof(v));
	w.swap = v == __builtin_bswap16(SNAP_BOM);
	memcpy(&v, w.p + 10, sizeof(v));
	if ((w.swap ? __builtin_bswap16(v) : v) < 2)
		return;
	set32(&w, SNAP_LEN_AT, (uint32_t)len);
	set32(&w, SNAP_CRC_AT, checksum(w.p, len));
}

void ks_snap_put_field(struct wr *w, const char *s, size_t len)
{
	uint8_t buf[KSTATS_NAME_LEN] = { 0 };

	memcpy(buf, s, strnlen(s, len - 1));
	put(w, buf, len);
}

int ks_snapfile_write(FILE *f, const struct ks_set *set, bool swap)
{
	const char *strs[SNAP_NR_STRINGS] = {
		set->src.host, set->src.kernel, set->src.kernel_version,
		set->src.machine, set->src.module_version, set->src.tool_version,
		set->src.boot_id,
	};
	const uint8_t sizes[4] = { 2, 4, 8, 0 };
	struct wr w = { .swap = swap };
	size_t i, hdr_len_at, ver_at;
	uint16_t version = SNAP_VERSION_KEYS - 1;
	uint32_t c, s;
	int ret = 0;

	put(&w, SNAP_MAGIC, 8);
	put16(&w, SNAP_BOM);
	/* 4 unless a key's metric needs 5 or 6: older kstatsctl reads the rest. */
	put16(&w, SNAP_VERSION_KEYS - 1);
	ver_at = w.len - 2;
	put(&w, sizes, 4);
	hdr_len_at = w.len;
	put32(&w, 0);
	put32(&w, (uint32_t)set->nr);
	put64(&w, set->src.created_ns);
	put32(&w, set->src.abi_version);
	put32(&w, SNAP_NR_STRINGS);
	put32(&w, 0);		/* the checksum, at the end */
	put32(&w, 0);		/* the file's length, likewise */
	for (i = 0; i < SNAP_NR_STRINGS; i++) {
		size_t len = strnlen(strs[i], 255);

		put16(&w, (uint16_t)len);
		put(&w, strs[i], len);
	}
	pad_to(&w, 8);
	set32(&w, hdr_len_at, (uint32_t)w.len);
	for (i = 0; i < set->nr; i++) {
		const struct ks_metric *m = &set->m[i];
		const struct ks_outl *ol = m->outl_entries;
		size_t elen = ks_snap_outl_len(m), slen = ks_snap_stack_len(m);
		uint32_t oflags = m->has_outliers ? SNAP_OUTL_KEEPS : 0;

		if (elen)
			oflags |= SNAP_OUTL_ENTRIES | (ol->withheld ? SNAP_OUTL_WITHHELD : 0);
		if (slen)
			oflags |= SNAP_STACK;
		put32(&w, (uint32_t)(SNAP_REC_LEN3 + (uint64_t)m->nr_cpus * SNAP_CPU_LEN +
				     (uint64_t)m->nr_slots * SNAP_SLOT_LEN + elen + slen));
		put32(&w, m->frac_bits);
		put32(&w, m->kind);
		put32(&w, m->flags);
		put32(&w, m->nr_cpus);
		put32(&w, m->nr_slots);
		put64(&w, m->time_ns);
		put64(&w, m->realtime_ns);
		put64(&w, m->hits);
		put64(&w, m->misses);
		put64(&w, m->floor_ns);
		put32(&w, m->owner_uid);
		put32(&w, (uint32_t)m->generation);
		put64(&w, (uint64_t)m->owner_pid);
		if (strchr(m->name, '{') && version < SNAP_VERSION_KEYS)
			version = SNAP_VERSION_KEYS;
		if (strchr(m->name, '{') && (m->flags & KSTATS_METRIC_VALUE) &&
		    version < SNAP_VERSION_VALUE_KEYS)
			version = SNAP_VERSION_VALUE_KEYS;
		if (ks_snap_outl_has(m, KSTATS_OUTLIER_RETVAL) && version < SNAP_VERSION_RETVAL)
			version = SNAP_VERSION_RETVAL;
		if (slen || ks_snap_outl_has(m, KSTATS_OUTLIER_USER))
			version = SNAP_VERSION_STACK;
		set16(&w, ver_at, version);
		ks_snap_put_field(&w, m->name, KSTATS_NAME_LEN);
		ks_snap_put_field(&w, m->owner, KSTATS_NAME_LEN);
		put32(&w, oflags);
		put32(&w, m->has_outliers ? m->outl.threshold_ppm : 0);
		put64(&w, m->has_outliers ? m->outl.captured : 0);
		put64(&w, m->has_outliers ? m->outl.overwritten : 0);
		put64(&w, m->has_outliers ? m->outl.ratelimited : 0);
		put64(&w, m->has_outliers ? m->outl.threshold_ns : 0);
		put32(&w, elen ? ol->o.capacity : 0);
		put32(&w, (uint32_t)elen);
		for (c = 0; c < m->nr_cpus; c++) {
			put32(&w, m->cpus[c].cpu);
			put32(&w, m->cpus[c].nr_slots);
			put64(&w, m->cpus[c].count);
		}
		for (s = 0; s < m->nr_slots; s++) {
			put32(&w, m->slots[s].cpu);
			put32(&w, m->slots[s].slot);
			put64(&w, m->slots[s].count);
			put64(&w, m->slots[s].part_sum);
		}
		if (elen)
			ks_snap_outl_write(&w, m);
		if (slen)
			ks_snap_stack_write(&w, m);
	}
	if (w.len >= SNAP_MAX_FILE) {	/* no reader would take it */
		errno = EFBIG;
		ret = -1;
	} else {
		ks_snapfile_seal(w.p, w.len);
		if (fwrite(w.p, 1, w.len, f) != w.len || fflush(f))
			ret = -1;
	}
	free(w.p);
	return ret;
}

// SPDX-License-Identifier: GPL-2.0
/*
 * HdrHistogram's V2 histogram encoding, both ways, and the mapping between
 * its buckets and kstats slots.
 *
 * The format, as HdrHistogram's Java and C implementations define it:
 * base64 of a "compressed" record, big-endian:
 *   u32 cookie 0x1c849314 (V2 compressed, word size 1), u32 length,
 *   a zlib stream of the V2 encoding:
 *     u32 cookie 0x1c849313, u32 payload length, u32 normalizing index
 *     offset, u32 significant figures, u64 lowest discernible value,
 *     u64 highest trackable value, u64 conversion ratio (double's bits),
 *     then the counts by bucket index: ZigZag LEB128 (at most 9 bytes),
 *     a negative number -k standing for k empty buckets.
 * The cookies' second-lowest nibble is a word size; readers mask it away.
 * The normalizing index offset and the conversion ratio are read and not
 * used, as HdrHistogram's C and JavaScript readers do: the JavaScript
 * writer puts 1 in the offset and the integer 1 in the ratio; a shifted or
 * double histogram (another outer cookie) does not get this far.
 *
 * Layout: with half-count magnitude h (2^h sub-buckets per power of two)
 * and unit magnitude u (log2 of the lowest discernible value, rounded
 * down), the value v sits at index kstats_hist_slot(v >> u, h): the kstats
 * slot at frac_bits h. The significant figures s give h: 2 * 10^s rounded
 * up to a power of two is 2^(h + 1), so h = 4, 7, 10, 14, 17 for s = 1..5.
 */
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "kstatsctl.h"
#include "hdr.h"
#include "model.h"
#include "stats.h"
#include "libs_dl.h"

#define HDR_COOKIE_V2		0x1c849303u
#define HDR_COOKIE_V2_ZLIB	0x1c849304u
#define HDR_WORD_SIZE_1		0x10u
#define HDR_HEADER_LEN		40
#define HDR_LEB128_MAX		9
/* Far beyond any real histogram (s = 5 to 2^63 is 6.3 M buckets). */
#define HDR_MAX_DECODED		(64u << 20)

/* ---- base64 (RFC 4648, with padding) ---- */

static const char b64_chars[] =
	"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

char *ks_base64(const uint8_t *p, size_t len)
{
	char *out = xcalloc(4 * ((len + 2) / 3) + 1, 1), *o = out;
	size_t i;

	for (i = 0; i < len; i += 3) {
		uint32_t w = (uint32_t)p[i] << 16;

		if (i + 1 < len)
			w |= (uint32_t)p[i + 1] << 8;
		if (i + 2 < len)
			w |= p[i + 2];
		*o++ = b64_chars[w >> 18];
		*o++ = b64_chars[(w >> 12) & 63];
		*o++ = i + 1 < len ? b64_chars[(w >> 6) & 63] : '=';
		*o++ = i + 2 < len ? b64_chars[w & 63] : '=';
	}
	return out;
}

static int b64_value(char c)
{
	const char *p = c ? strchr(b64_chars, c) : NULL;

	return p ? (int)(p - b64_chars) : -1;
}

/* @len characters into *@out (freed by the caller); 0, or -1 and @why. */
int ks_unbase64(const char *s, size_t len, uint8_t **out, size_t *out_len,
		char *why, size_t why_len)
{
	uint8_t *o;
	size_t i, n = 0, pad = 0;
	uint32_t w = 0;

	if (!len || len % 4) {
		snprintf(why, why_len, "base64 of %zu characters, not a multiple of 4 "
			 "(a line cut short?)", len);
		return -1;
	}
	while (pad < 2 && s[len - 1 - pad] == '=')
		pad++;
	o = xcalloc(len / 4 * 3, 1);
	for (i = 0; i < len; i++) {
		int v = i < len - pad ? b64_value(s[i]) : 0;

		if (v < 0) {
			snprintf(why, why_len, "bad base64 character '%c' at column %zu",
				 s[i] >= ' ' && s[i] < 127 ? s[i] : '?', i + 1);
			free(o);
			return -1;
		}
		w = w << 6 | (uint32_t)v;
		if (i % 4 == 3) {
			o[n++] = (uint8_t)(w >> 16);
			o[n++] = (uint8_t)(w >> 8);
			o[n++] = (uint8_t)w;
			w = 0;
		}
	}
	*out = o;
	*out_len = n - pad;
	return 0;
}

/* ---- big-endian fields, ZigZag LEB128 ---- */

static void put_be(uint8_t *p, uint64_t v, int bytes)
{
	while (bytes--) {
		p[bytes] = (uint8_t)v;
		v >>= 8;
	}
}

static uint64_t get_be(const uint8_t *p, int bytes)
{
	uint64_t v = 0;

	while (bytes--)
		v = v << 8 | *p++;
	return v;
}

/* ZigZag LEB128 as HdrHistogram writes it: the ninth byte holds 8 bits. */
static size_t put_zigzag(uint8_t *p, int64_t v)
{
	uint64_t z = ((uint64_t)v << 1) ^ (uint64_t)(v >> 63);
	size_t n = 0;

	while (n < 8 && z >= 0x80) {
		p[n++] = (uint8_t)(z | 0x80);
		z >>= 7;
	}
	p[n++] = (uint8_t)z;
	return n;
}

/* Bytes read (1..9), or 0 when @len ends inside the number. */
static size_t get_zigzag(const uint8_t *p, size_t len, int64_t *v)
{
	uint64_t z = 0;
	size_t n;

	for (n = 0; n < len && n < HDR_LEB128_MAX; n++) {
		if (n == 8) {
			z |= (uint64_t)p[n] << 56;
			break;
		}
		z |= (uint64_t)(p[n] & 0x7f) << (7 * n);
		if (!(p[n] & 0x80))
			break;
	}
	if (n == len)
		return 0;
	*v = (int64_t)(z >> 1) ^ -(int64_t)(z & 1);
	return n + 1;
}

/* ---- the layout ---- */

uint32_t ks_hdr_half_magnitude(uint32_t sig_figs)
{
	uint64_t largest = 2;
	uint32_t m = 0;

	while (sig_figs--)
		largest *= 10;
	while (((uint64_t)1 << m) < largest)
		m++;
	return m - 1;
}

/* The buckets needed up to @highest: the index of its bucket, plus one. */
static uint64_t hdr_counts_len(const struct ks_hdr *h)
{
	return (uint64_t)kstats_hist_slot((uint64_t)h->highest >> h->unit_mag,
					  h->half_mag) + 1;
}

void ks_hdr_bucket(const struct ks_hdr *h, uint32_t i, uint64_t *lo, uint64_t *hi)
{
	*lo = kstats_slot_low(i, h->half_mag) << h->unit_mag;
	*hi = ((kstats_slot_last(i, h->half_mag) + 1) << h->unit_mag) - 1;
}

void ks_hdr_free(struct ks_hdr *h)
{
	free(h->counts);
	h->counts = NULL;
}

/* ---- encoding ---- */

/*
 * @m (all CPUs) as an HdrHistogram: frac_bits 4 (or fewer) as 1
 * significant figure, 5 as 2, lowest discernible value 1; each slot's
 * count in the bucket that holds the slot's last value, which the finer
 * layout has as its own last value. 0; 1 when a slot's count was cut to
 * 2^63 - 1, HdrHistogram's most; or -1 when a sample is past its range
 * (2^63 - 1).
 */
int ks_hdr_from_metric(const struct ks_metric *m, struct ks_hdr *h, uint64_t *max)
{
	struct ks_hist kh;
	uint32_t s, i;
	int capped = 0;

	memset(h, 0, sizeof(*h));
	h->sig_figs = m->frac_bits <= 4 ? 1 : 2;
	h->half_mag = ks_hdr_half_magnitude(h->sig_figs);
	h->lowest = 1;
	h->ratio = 1.0;
	*max = 0;
	ks_hist_build(&kh, m, -1);
	if (kh.total && kstats_slot_last(kh.last, kh.frac_bits) > INT64_MAX) {
		ks_hist_free(&kh);
		return -1;
	}
	if (kh.total)
		*max = kstats_slot_last(kh.last, kh.frac_bits);
	/* HdrHistogram asks for highest >= 2 * lowest. */
	h->highest = *max < 2 ? 2 : (int64_t)*max;
	h->nr = (size_t)hdr_counts_len(h);
	h->counts = xcalloc(h->nr, sizeof(*h->counts));
	for (s = kh.first; kh.total && s <= kh.last; s++) {
		if (!kh.count[s])
			continue;
		i = kstats_hist_slot(kstats_slot_last(s, kh.frac_bits), h->half_mag);
		/* One slot holds below 2^64 per CPU; HdrHistogram's counts are signed. */
		h->counts[i] = kh.count[s] > INT64_MAX ? INT64_MAX : (uint64_t)kh.count[s];
		capped |= kh.count[s] > INT64_MAX;
	}
	ks_hist_free(&kh);
	return capped;
}

/* The compressed V2 record of @h, base64 (freed by the caller). */
char *ks_hdr_encode(const struct ks_hdr *h)
{
	size_t used = h->nr, n = HDR_HEADER_LEN, i = 0;
	uint8_t *raw, *zip;
	uLongf zlen;
	uint64_t ratio;
	char *out;

	while (used && !h->counts[used - 1])
		used--;
	raw = xcalloc(HDR_HEADER_LEN + HDR_LEB128_MAX * used, 1);
	while (i < used) {
		size_t zeros = 0;

		while (i < used && !h->counts[i]) {
			zeros++;
			i++;
		}
		if (zeros)
			n += put_zigzag(raw + n, -(int64_t)zeros);
		else
			n += put_zigzag(raw + n, (int64_t)h->counts[i++]);
	}
	memcpy(&ratio, &h->ratio, sizeof(ratio));
	put_be(raw, HDR_COOKIE_V2 | HDR_WORD_SIZE_1, 4);
	put_be(raw + 4, n - HDR_HEADER_LEN, 4);
	put_be(raw + 8, 0, 4);
	put_be(raw + 12, (uint32_t)h->sig_figs, 4);
	put_be(raw + 16, (uint64_t)h->lowest, 8);
	put_be(raw + 24, (uint64_t)h->highest, 8);
	put_be(raw + 32, ratio, 8);
	zlen = compressBound(n);
	zip = xcalloc(8 + zlen, 1);
	if (compress(zip + 8, &zlen, raw, n) != Z_OK)
		abort();	/* only on a buffer too small or no memory */
	put_be(zip, HDR_COOKIE_V2_ZLIB | HDR_WORD_SIZE_1, 4);
	put_be(zip + 4, zlen, 4);
	out = ks_base64(zip, 8 + zlen);
	free(raw);
	free(zip);
	return out;
}

/* ---- decoding ---- */

static int hdr_why(char *why, size_t len, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static int hdr_why(char *why, size_t len, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(why, len, fmt, ap);
	va_end(ap);
	return -1;
}

#define WHY(...)	hdr_why(why, why_len, __VA_ARGS__)

static int inflate_all(const uint8_t *in, size_t len, uint8_t **out, size_t *out_len,
		       char *why, size_t why_len)
{
	z_stream z = { 0 };
	size_t cap = 4096;
	int rc;

	if (inflateInit(&z) != Z_OK)
		return WHY("zlib: cannot start inflating");
	*out = xcalloc(cap, 1);
	z.next_in = (Bytef *)in;
	z.avail_in = (uInt)len;
	for (;;) {
		z.next_out = *out + z.total_out;
		z.avail_out = (uInt)(cap - z.total_out);
		rc = inflate(&z, Z_FINISH);
		if (rc == Z_STREAM_END)
			break;
		if ((rc != Z_BUF_ERROR && rc != Z_OK) || z.avail_out) {
			snprintf(why, why_len, "zlib: %s", rc == Z_DATA_ERROR && z.msg ?
				 z.msg : rc == Z_BUF_ERROR || rc == Z_OK ?
				 "the compressed data ends early" : "inflate failed");
			inflateEnd(&z);
			free(*out);
			return -1;
		}
		if (cap >= HDR_MAX_DECODED) {
			inflateEnd(&z);
			free(*out);
			return WHY("zlib: the histogram inflates past %u MiB",
				   HDR_MAX_DECODED >> 20);
		}
		cap *= 2;
		*out = xrealloc(*out, cap, 1);
	}
	*out_len = z.total_out;
	if (z.avail_in) {
		inflateEnd(&z);
		free(*out);
		return WHY("%u bytes after the end of the zlib stream", z.avail_in);
	}
	inflateEnd(&z);
	return 0;
}

static int decode_counts(struct ks_hdr *h, const uint8_t *p, size_t len,
			 char *why, size_t why_len)
{
	size_t off = 0, n;
	uint64_t i = 0;
	int64_t v;

	h->counts = xcalloc(h->nr, sizeof(*h->counts));
	while (off < len) {
		n = get_zigzag(p + off, len - off, &v);
		if (!n)
			return WHY("counts: a number cut off at byte %zu", off);
		off += n;
		if (v < 0) {
			if (v == INT64_MIN || (uint64_t)-v > h->nr - i)
				return WHY("counts past the end: %llu empty buckets from "
					   "bucket %llu, of %zu up to the highest trackable value",
					   (unsigned long long)(v == INT64_MIN ? 0 : -v),
					   (unsigned long long)i + 1, h->nr);
			i += (uint64_t)-v;
			continue;
		}
		if (i >= h->nr)
			return WHY("counts past the end: bucket %llu of %zu",
				   (unsigned long long)i + 1, h->nr);
		h->counts[i++] = (uint64_t)v;
	}
	return 0;
}

int ks_hdr_decode(const uint8_t *buf, size_t len, struct ks_hdr *h, char *why,
		  size_t why_len)
{
	uint8_t *raw = NULL;
	size_t raw_len = 0;
	uint64_t zlen, payload, ratio, cookie;
	int rc = -1;

	memset(h, 0, sizeof(*h));
	if (len < 8)
		return WHY("histogram of %zu bytes, shorter than its 8-byte header", len);
	cookie = get_be(buf, 4);
	if ((cookie & ~0xf0u) != HDR_COOKIE_V2_ZLIB)
		return WHY("bad cookie 0x%08llx (not HdrHistogram's V2 compressed "
			   "encoding, 0x1c849314)", (unsigned long long)cookie);
	zlen = get_be(buf + 4, 4);
	if (zlen != len - 8)
		return WHY("compressed length %llu, but %zu bytes follow",
			   (unsigned long long)zlen, len - 8);
	if (inflate_all(buf + 8, len - 8, &raw, &raw_len, why, why_len))
		return -1;
	if (raw_len < HDR_HEADER_LEN) {
		WHY("encoding of %zu bytes, shorter than its 40-byte header", raw_len);
		goto out;
	}
	cookie = get_be(raw, 4);
	if ((cookie & ~0xf0u) != HDR_COOKIE_V2) {
		WHY("bad encoding cookie 0x%08llx (not V2, 0x1c849313)",
		    (unsigned long long)cookie);
		goto out;
	}
	payload = get_be(raw + 4, 4);
	h->sig_figs = (int32_t)get_be(raw + 12, 4);
	h->lowest = (int64_t)get_be(raw + 16, 8);
	h->highest = (int64_t)get_be(raw + 24, 8);
	ratio = get_be(raw + 32, 8);
	memcpy(&h->ratio, &ratio, sizeof(ratio));
	if (payload != raw_len - HDR_HEADER_LEN) {
		WHY("payload length %llu, but %zu bytes follow the header",
		    (unsigned long long)payload, raw_len - HDR_HEADER_LEN);
	} else if (h->sig_figs < 0 || h->sig_figs > 5) {
		WHY("%d significant figures (HdrHistogram allows 0 to 5)", h->sig_figs);
	} else if (h->lowest < 1 || h->lowest > h->highest / 2) {	/* 2 * lowest can overflow */
		WHY("lowest discernible value %lld, highest trackable %lld (need "
		    "1 <= lowest, 2 * lowest <= highest)", (long long)h->lowest,
		    (long long)h->highest);
	} else {
		h->half_mag = ks_hdr_half_magnitude((uint32_t)h->sig_figs);
		h->unit_mag = kstats_msb64((uint64_t)h->lowest);
		h->nr = (size_t)hdr_counts_len(h);
		rc = decode_counts(h, raw + HDR_HEADER_LEN, raw_len - HDR_HEADER_LEN,
				   why, why_len);
	}
out:
	if (rc)
		ks_hdr_free(h);
	free(raw);
	return rc;
}

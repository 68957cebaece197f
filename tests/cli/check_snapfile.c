// SPDX-License-Identifier: GPL-2.0
/*
 * What the snapshot reader makes of damaged files, for every byte of one:
 * in-process, since a run of kstatsctl per case (over 100,000 of them)
 * would take minutes.
 *
 *   check_snapfile flips FILE   each byte of FILE changed in 9 ways (each
 *                               of its 8 bits, and all 8): the reader
 *                               refuses the file, or what show prints of
 *                               it (hist and raw per CPU, JSON per CPU
 *                               with every slot and the source) and
 *                               outliers of its traces (table, JSON) and
 *                               its stack keys' frames are
 *                               what it prints of FILE. Prints how many of
 *                               each; fails on any other output
 *   check_snapfile cuts FILE    FILE cut at every length from 0 to its
 *                               size - 1: refused, as truncated (empty at 0)
 *   check_snapfile crc          CRC-32C's check value: "123456789" gives
 *                               0xe3069283; and ks_crc32c() (8 bytes a
 *                               step) is a bit at a time's CRC of every
 *                               length to 100 at every alignment, whole
 *                               or in two pieces
 *
 * Exits 0 when all is as it should be, 1 otherwise (with the first cases
 * that were not).
 */
#include <stdlib.h>
#include <string.h>

#include "kstatsctl.h"
#include "fmt.h"
#include "json.h"
#include "model.h"
#include "outliers.h"
#include "snapfile.h"
#include "text.h"

/* What show prints of @set, in @out (malloc'ed, NUL-terminated). */
static char *output(const struct ks_set *set, size_t *len)
{
	struct ks_show sh = { .cpu = -1, .per_cpu = true, .units = UNIT_AUTO,
			      .src = &set->src };
	struct json *j;
	char *buf = NULL;
	size_t i;
	FILE *f;

	f = open_memstream(&buf, len);
	if (!f)
		abort();
	for (i = 0; i < set->nr; i++) {
		fmt_hist(f, &set->m[i], &sh);
		fmt_raw(f, &set->m[i]);
		if (set->m[i].outl_entries)
			fmt_outliers_table(f, set->m[i].name, set->m[i].outl_entries);
		for (uint32_t k = 0; set->m[i].stack && k < set->m[i].stack->nr; k++)
			fprintf(f, "%s\n", set->m[i].stack->frame[k]);
		if (set->m[i].stack)
			fprintf(f, "flags %u taken %u\n", set->m[i].stack->flags,
				set->m[i].stack->taken);
	}
	sh.all_slots = true;
	j = json_new(f, false);
	json_obj(j);
	fmt_json_source(j, &set->src);
	json_key(j, "metrics");
	json_arr(j);
	for (i = 0; i < set->nr; i++)
		fmt_json_metric(j, &set->m[i], &sh);
	json_arr_end(j);
	json_key(j, "outliers");
	json_arr(j);
	for (i = 0; i < set->nr; i++) {
		if (!set->m[i].outl_entries)
			continue;
		json_obj(j);
		fmt_outliers_json(j, set->m[i].name, set->m[i].outl_entries);
		json_obj_end(j);
	}
	json_arr_end(j);
	json_obj_end(j);
	json_end(j);
	fclose(f);
	return buf;
}

static uint8_t *load(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	uint8_t *buf;
	long n;

	if (!f || fseek(f, 0, SEEK_END) || (n = ftell(f)) < 0 || fseek(f, 0, SEEK_SET)) {
		perror(path);
		exit(1);
	}
	buf = xcalloc((size_t)n + 1, 1);
	if (fread(buf, 1, (size_t)n, f) != (size_t)n) {
		perror(path);
		exit(1);
	}
	fclose(f);
	*len = (size_t)n;
	return buf;
}

static int flips(const char *path)
{
	size_t len, ref_len, out_len, off, refused = 0, checksum = 0, same = 0;
	size_t changed = 0, n = 0;
	uint8_t *buf = load(path, &len);
	struct ks_snap_why why;
	struct ks_set set;
	char *ref, *out;
	int k;

	if (ks_snapfile_parse(buf, len, &set, &why)) {
		fprintf(stderr, "%s: %s\n", path, why.msg);
		return 1;
	}
	ref = output(&set, &ref_len);
	ks_set_free(&set);
	for (off = 0; off < len; off++) {
		for (k = 0; k < 9; k++, n++) {
			uint8_t mask = k < 8 ? (uint8_t)(1u << k) : 0xff;

			buf[off] ^= mask;
			if (ks_snapfile_parse(buf, len, &set, &why)) {
				refused++;
				checksum += strstr(why.msg, "checksum mismatch") != NULL;
			} else {
				out = output(&set, &out_len);
				if (out_len == ref_len && !memcmp(out, ref, ref_len)) {
					same++;
				} else if (changed++ < 5) {
					printf("byte %zu ^ 0x%02x: read, and shown otherwise\n",
					       off, mask);
				}
				free(out);
				ks_set_free(&set);
			}
			buf[off] ^= mask;
		}
	}
	printf("%s: %zu changes of one byte: %zu refused (%zu as a checksum "
	       "mismatch), %zu shown as before, %zu shown otherwise\n", path, n,
	       refused, checksum, same, changed);
	free(ref);
	free(buf);
	return changed ? 1 : 0;
}

static int cuts(const char *path)
{
	size_t len, n, bad = 0;
	uint8_t *buf = load(path, &len);
	struct ks_snap_why why;
	struct ks_set set;

	for (n = 0; n < len; n++) {
		const char *want = n ? "truncated at " : "empty";

		if (!ks_snapfile_parse(buf, n, &set, &why)) {
			ks_set_free(&set);
			snprintf(why.msg, sizeof(why.msg), "read");
		} else if (strstr(why.msg, want)) {
			continue;
		}
		if (bad++ < 5)
			printf("cut at %zu bytes: %s\n", n, why.msg);
	}
	printf("%s: %zu cuts, %zu not said to be truncated\n", path, len, bad);
	free(buf);
	return bad ? 1 : 0;
}

/* CRC-32C a bit at a time, as its definition goes. */
static uint32_t crc_bitwise(const uint8_t *p, size_t len)
{
	uint32_t c = ~0u;
	int k;

	while (len--)
		for (c ^= *p++, k = 0; k < 8; k++)
			c = c & 1 ? (c >> 1) ^ 0x82f63b78u : c >> 1;
	return ~c;
}

static int crc(void)
{
	uint8_t buf[128];
	size_t a, n, cut, bad = 0;
	uint32_t c;

	c = ks_crc32c(0, "123456789", 9);
	printf("CRC-32C(\"123456789\") = 0x%08x\n", c);
	for (n = 0; n < sizeof(buf); n++)
		buf[n] = (uint8_t)(n * 167 + 13);
	for (a = 0; a < 8; a++)
		for (n = 0; n <= 100; n++)
			for (cut = 0; cut <= n; cut += 7)
				bad += ks_crc32c(ks_crc32c(0, buf + a, cut), buf + a + cut,
						 n - cut) != crc_bitwise(buf + a, n);
	printf("%zu of 8 x 101 lengths x cuts differ from a bit at a time\n", bad);
	return c != 0xe3069283 || bad;
}

int main(int argc, char **argv)
{

	if (argc == 3 && !strcmp(argv[1], "flips"))
		return flips(argv[2]);
	if (argc == 3 && !strcmp(argv[1], "cuts"))
		return cuts(argv[2]);
	if (argc == 2 && !strcmp(argv[1], "crc"))
		return crc();
	fprintf(stderr, "usage: check_snapfile flips FILE | cuts FILE | crc\n");
	return 2;
}

// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target: the HdrHistogram log reader (hdr_log.c, hdr_codec.c).
 * Odd first byte: the rest is a log's text, as it is. Even: the rest is a
 * V2 encoding (header and counts), which is deflated, wrapped and base64'ed
 * into one log line here, so that mutations reach the counts' decoder past
 * zlib and base64. What is read is then shown as a histogram and as JSON,
 * and written back as an HdrHistogram, which must decode to the same
 * counts, and summed into a heatmap's columns, which must hold every
 * sample. A malformed log must give an error, never a crash, an
 * out-of-bounds access or undefined behaviour (ASan, UBSan).
 */
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "kstatsctl.h"
#include "fmt.h"
#include "hdr.h"
#include "json.h"
#include "model.h"
#include "plot.h"

static void roundtrip(const struct ks_metric *m)
{
	struct ks_hdr h, back;
	uint8_t *bin;
	size_t len;
	uint64_t max;
	char *b64, why[200];

	if (ks_hdr_from_metric(m, &h, &max) < 0)
		return;	/* past 2^63 */
	b64 = ks_hdr_encode(&h);
	if (ks_unbase64(b64, strlen(b64), &bin, &len, why, sizeof(why)) ||
	    ks_hdr_decode(bin, len, &back, why, sizeof(why)))
		abort();	/* what we write, we read */
	for (size_t i = 0; i < h.nr; i++)
		if (h.counts[i] != (i < back.nr ? back.counts[i] : 0))
			abort();
	ks_hdr_free(&h);
	ks_hdr_free(&back);
	free(bin);
	free(b64);
}

/* The heatmap's columns of @name: every sample of the tag, in some column. */
static void columns(const char *text, size_t len, const struct ks_metric *m)
{
	struct ks_plot_interval *iv;
	size_t nr, n, i;
	uint64_t total = 0;
	double bin;

	if (ks_hlog_columns("fuzz.hlog", text, len, m->name, 7, &iv, &nr, &bin, &n))
		return;
	for (i = 0; i < nr; i++)
		total += iv[i].m->cpus[0].count;
	if (nr > 7 || total != m->cpus[0].count)
		abort();
	ks_hlog_columns_free(iv, nr);
}

static void read_log(const char *text, size_t len)
{
	struct ks_show sh = { .cpu = -1, .units = UNIT_AUTO, .format = FMT_HIST };
	struct ks_set set;
	FILE *sink = fopen("/dev/null", "w");
	struct json *j;

	if (!sink)
		abort();
	if (!ks_hlog_parse_set("fuzz.hlog", text, len, &set)) {
		sh.src = &set.src;
		j = json_new(sink, false);
		json_arr(j);
		for (size_t i = 0; i < set.nr; i++) {
			fmt_hist(sink, &set.m[i], &sh);
			fmt_json_metric(j, &set.m[i], &sh);
			roundtrip(&set.m[i]);
			columns(text, len, &set.m[i]);
		}
		json_arr_end(j);
		json_end(j);
		ks_set_free(&set);
	}
	fclose(sink);
}

/* @enc deflated behind the V2 compressed cookie, in one log line. */
static void read_encoding(const uint8_t *enc, size_t len)
{
	uLongf zlen = compressBound(len);
	uint8_t *zip = malloc(8 + zlen);
	char *b64, *line;

	if (!zip || compress(zip + 8, &zlen, enc, len) != Z_OK)
		abort();
	memcpy(zip, "\x1c\x84\x93\x14", 4);
	zip[4] = (uint8_t)(zlen >> 24);
	zip[5] = (uint8_t)(zlen >> 16);
	zip[6] = (uint8_t)(zlen >> 8);
	zip[7] = (uint8_t)zlen;
	b64 = ks_base64(zip, 8 + zlen);
	line = malloc(strlen(b64) + 64);
	if (!line)
		abort();
	sprintf(line, "Tag=f.z,0.000,1.000,0.0,%s\n", b64);
	read_log(line, strlen(line));
	free(line);
	free(b64);
	free(zip);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (!size)
		return 0;
	if (data[0] & 1)
		read_log((const char *)data + 1, size - 1);
	else
		read_encoding(data + 1, size - 1);
	return 0;
}

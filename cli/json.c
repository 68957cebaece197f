// SPDX-License-Identifier: GPL-2.0
/*
 * A tiny streaming JSON writer: objects, arrays, strings, numbers. Compact
 * output is one line ({"a": 1, "b": [2, 3]}); pretty output indents by two.
 * Doubles print in the shortest form that reads back the same; NaN and
 * infinities, which JSON cannot hold, print as null. Strings are valid
 * UTF-8 whatever they hold (put_string()).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "kstatsctl.h"
#include "json.h"
#include "text.h"
#include "units.h"

#define JSON_DEPTH 32

struct json {
	FILE *out;
	bool pretty;
	int depth;
	bool first[JSON_DEPTH];	/* nothing written yet at this depth */
	bool after_key;
};

struct json *json_new(FILE *out, bool pretty)
{
	struct json *j = xcalloc(1, sizeof(*j));

	j->out = out;
	j->pretty = pretty;
	j->first[0] = true;
	return j;
}

void json_end(struct json *j)
{
	fputc('\n', j->out);
	free(j);
}

static void newline(struct json *j)
{
	int i;

	fputc('\n', j->out);
	for (i = 0; i < j->depth; i++)
		fputs("  ", j->out);
}

/* Separator before a value or key. */
static void sep(struct json *j)
{
	if (j->after_key) {
		j->after_key = false;
		return;
	}
	if (!j->first[j->depth])
		fputs(j->pretty ? "," : ", ", j->out);
	if (j->pretty && j->depth)
		newline(j);
	j->first[j->depth] = false;
}

static void open_(struct json *j, char c)
{
	sep(j);
	fputc(c, j->out);
	if (j->depth < JSON_DEPTH - 1)
		j->depth++;
	j->first[j->depth] = true;
}

static void close_(struct json *j, char c)
{
	bool empty = j->first[j->depth];

	if (j->depth)
		j->depth--;
	if (j->pretty && !empty)
		newline(j);
	fputc(c, j->out);
}

void json_obj(struct json *j)
{
	open_(j, '{');
}

void json_obj_end(struct json *j)
{
	close_(j, '}');
}

void json_arr(struct json *j)
{
	open_(j, '[');
}

void json_arr_end(struct json *j)
{
	close_(j, ']');
}

static void put_u64(FILE *out, uint64_t v)
{
	char tmp[24];
	int n = sizeof(tmp);

	do {
		tmp[--n] = (char)('0' + v % 10);
		v /= 10;
	} while (v);
	fwrite(tmp + n, 1, sizeof(tmp) - (size_t)n, out);
}

/*
 * A JSON string: " and \ escaped, control characters (C0, DEL, C1) as
 * \u00NN, and U+FFFD for each byte that is not part of valid UTF-8
 * (text.c), so that the document is valid UTF-8 whatever @s holds.
 */
static void put_string(FILE *out, const char *s)
{
	size_t n = strlen(s), i, k;
	const char *p;

	for (i = 0; i < n; i++)
		if ((unsigned char)s[i] < 0x20 || (unsigned char)s[i] >= 0x7f ||
		    s[i] == '"' || s[i] == '\\')
			break;
	fputc('"', out);
	if (i == n) {	/* printable ASCII: nothing to escape */
		fwrite(s, 1, n, out);
		fputc('"', out);
		return;
	}
	for (p = s; *p; p += k) {
		k = ks_utf8_len(p);
		if (!k) {
			fputs("\\ufffd", out);
			k = 1;
		} else if (ks_utf8_control(p, k)) {
			if (*p == '\n')
				fputs("\\n", out);
			else if (*p == '\t')
				fputs("\\t", out);
			else	/* U+0000..U+001F, U+007F..U+009F */
				fprintf(out, "\\u%04x", k == 1 ? (unsigned char)*p :
					0x80 | (p[1] & 0x3f));
		} else if (*p == '"' || *p == '\\') {
			fputc('\\', out);
			fputc(*p, out);
		} else {
			fwrite(p, 1, k, out);
		}
	}
	fputc('"', out);
}

void json_key(struct json *j, const char *key)
{
	sep(j);
	put_string(j->out, key);
	fputs(": ", j->out);
	j->after_key = true;
}

void json_str(struct json *j, const char *s)
{
	sep(j);
	put_string(j->out, s);
}

void json_u64(struct json *j, uint64_t v)
{
	sep(j);
	put_u64(j->out, v);
}

void json_i64(struct json *j, int64_t v)
{
	sep(j);
	fprintf(j->out, "%lld", (long long)v);
}

void json_dbl(struct json *j, double v)
{
	char buf[40];

	sep(j);
	if (!isfinite(v)) {
		fputs("null", j->out);
		return;
	}
	if (v == floor(v) && v >= 0 && v < 0x1p63) {
		put_u64(j->out, (uint64_t)v);
		return;
	}
	if (v == floor(v) && fabs(v) < 0x1p64) {
		fprintf(j->out, "%.0f", v);
		return;
	}
	snprintf(buf, sizeof(buf), "%.15g", v);
	if (strtod(buf, NULL) != v)
		snprintf(buf, sizeof(buf), "%.17g", v);
	fputs(buf, j->out);
}

void json_bool(struct json *j, bool v)
{
	sep(j);
	fputs(v ? "true" : "false", j->out);
}

void json_null(struct json *j)
{
	sep(j);
	fputs("null", j->out);
}

void json_kstr(struct json *j, const char *k, const char *s)
{
	json_key(j, k);
	json_str(j, s);
}

void json_ku64(struct json *j, const char *k, uint64_t v)
{
	json_key(j, k);
	json_u64(j, v);
}

void json_ki64(struct json *j, const char *k, int64_t v)
{
	json_key(j, k);
	json_i64(j, v);
}

void json_kdbl(struct json *j, const char *k, double v)
{
	json_key(j, k);
	json_dbl(j, v);
}

void json_kbool(struct json *j, const char *k, bool v)
{
	json_key(j, k);
	json_bool(j, v);
}

static void put_u128(FILE *out, bool neg, ks_u128 v)
{
	char buf[48];

	fprintf(out, "%s%s", neg ? "-" : "", ks_fmt_u128(buf, sizeof(buf), v));
}

void json_ku128(struct json *j, const char *k, ks_u128 v)
{
	json_key(j, k);
	sep(j);
	put_u128(j->out, false, v);
}

void json_khigh(struct json *j, const char *k, uint32_t slot, uint32_t frac_bits)
{
	json_ku128(j, k, (ks_u128)kstats_slot_last(slot, frac_bits) + 1);
}

void json_kdelta(struct json *j, const char *k, ks_u128 a, ks_u128 b)
{
	json_key(j, k);
	sep(j);
	put_u128(j->out, b < a, b < a ? a - b : b - a);
}

struct json *json_doc(const char *command)
{
	struct json *j = json_new(stdout, opts.pretty);

	json_obj(j);
	json_ku64(j, "schema", KS_JSON_SCHEMA);
	json_kstr(j, "command", command);
	return j;
}

/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The JSON writer (json.c).
 */
#ifndef KSTATSCTL_JSON_H
#define KSTATSCTL_JSON_H

#include "kstatsctl.h"

struct json *json_new(FILE *out, bool pretty);
void json_end(struct json *j);	/* final newline, frees */
void json_obj(struct json *j);
void json_obj_end(struct json *j);
void json_arr(struct json *j);
void json_arr_end(struct json *j);
void json_key(struct json *j, const char *key);
void json_str(struct json *j, const char *s);
void json_u64(struct json *j, uint64_t v);
void json_i64(struct json *j, int64_t v);
void json_dbl(struct json *j, double v);	/* null when not finite */
void json_bool(struct json *j, bool v);
void json_null(struct json *j);
/* Shorthands: key plus value. */
void json_kstr(struct json *j, const char *k, const char *s);
void json_ku64(struct json *j, const char *k, uint64_t v);
void json_ki64(struct json *j, const char *k, int64_t v);
void json_kdbl(struct json *j, const char *k, double v);
void json_kbool(struct json *j, const char *k, bool v);
/* Integers beyond 64 bits: a count; an exclusive bound that may be 2^64. */
void json_ku128(struct json *j, const char *k, ks_u128 v);
void json_khigh(struct json *j, const char *k, uint32_t slot, uint32_t frac_bits);
/* A difference of two counts, signed, exactly. */
void json_kdelta(struct json *j, const char *k, ks_u128 a, ks_u128 b);
/* A JSON document's opening: {"schema": KS_JSON_SCHEMA, "command": "<cmd>", */
struct json *json_doc(const char *command);

#endif /* KSTATSCTL_JSON_H */

/* SPDX-License-Identifier: GPL-2.0 */
/* Shared by the expr tests: trace_expr.c, trace_expr_abi.c, trace_expr_bpf.c. */
#ifndef KSTATS_TRACE_EXPR_H
#define KSTATS_TRACE_EXPR_H

#include "trace_test.h"

#define MAX_VALUE_CALLS	2048	/* the target's MAX_VALUES */

/* What one call of ktarget_value() passed and got (tests/kmod/ktarget_values.c). */
struct kv_call {
	int64_t arg, ret, level;
	uint64_t size;
	uint32_t chain, pad;	/* chain: 0 o->mid NULL, 1 mid->inner NULL, 2 whole */
};

/* The target's last "values" run, call by call: how many, or -1. */
int read_values(struct kv_call *c, int max);
struct kstats_operand operand(uint8_t source, uint8_t index, uint8_t size, int sgn);
/* TRACE of ktarget_value with @x, every call recorded (no governor). */
int xtrace(const char *name, uint32_t mech, uint32_t bits, const struct kstats_expr *x,
	   uint32_t flags);
void expect_add(uint64_t *counts, uint32_t bits, uint64_t v);
int slots_equal(const char *name, const uint64_t *want, uint64_t *total);
/* What a value trace should hold: its slots, NEG-NAME's, and its counters. */
struct value_expect {
	uint64_t pos[KSTATS_SLOTS_MAX], neg[KSTATS_SLOTS_MAX];
	uint64_t hits, faults, rejected;
};
void value_add(struct value_expect *e, uint32_t bits, int64_t v);
void value_check(const char *m, uint32_t bits, const char *what, const char *name,
		 const char *vname, const struct value_expect *e, int has_neg, int with_hits);
int expr_bench_trace(const char *name, const char *mech, const char *kind);

#endif /* KSTATS_TRACE_EXPR_H */

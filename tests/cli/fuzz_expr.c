// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target: trace --value/--if's compiler (expr_parse.c,
 * expr_btf.c, expr_resolve.c, expr_compile.c) and the plan's printers
 * (expr_plan.c), against the host tests' BTF (KSTATS_BTF, and
 * KSTATS_BTF_MODULES for fxmod). The first byte picks the function and
 * --time; the rest is --value's text, then after a newline --if's. Any
 * text must compile to a program within the ABI's bounds or be refused
 * with a message: never a crash, an out-of-bounds access or undefined
 * behaviour (ASan, UBSan).
 */
#include <stdlib.h>
#include <string.h>

#include "kstatsctl.h"
#include "expr.h"

static const char *const funcs[] = {
	"fx_write", "fx_open", "fx_seven", "fx_byval", "fx_void", "fx_ratio",
	"fx_signum", "fxm_read", "fxmod:fxm_read", "not_in_btf",
};

/* What the module would refuse: the compiler must never hand it over. */
static void check_bounds(const struct kstats_operand *op, bool pred)
{
	if (op->source < KSTATS_OPERAND_ARG || op->source > KSTATS_OPERAND_DURATION ||
	    (op->source == KSTATS_OPERAND_DURATION && (!pred || op->nr_loads)) ||
	    (op->source == KSTATS_OPERAND_ARG && op->index > 5) ||
	    op->nr_loads > KSTATS_EXPR_LOADS ||
	    (op->size != 1 && op->size != 2 && op->size != 4 && op->size != 8) ||
	    (op->flags & ~KSTATS_OPERAND_SIGNED))
		abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t len)
{
	struct ks_plan *plan = xcalloc(1, sizeof(*plan));
	char *text, *nl, *value, *pred;
	uint32_t k;
	int rc;

	if (!len || len > 1024) {
		free(plan);
		return 0;
	}
	text = xcalloc(1, len);
	memcpy(text, data + 1, len - 1);
	nl = memchr(text, '\n', len - 1);
	if (nl)
		*nl = 0;
	value = text[0] ? text : NULL;
	pred = nl && nl[1] ? nl + 1 : NULL;
	rc = ks_expr_compile(funcs[data[0] % ARRAY_SIZE(funcs)], value, pred,
			     data[0] & 0x80, data[0] & 0x40, plan);
	if (!rc && (value || pred)) {
		struct ks_plan_view v = { .name = "fuzz", .mech = "auto" };

		if (value)
			check_bounds(&plan->e.value, false);
		if (plan->e.nr_terms > KSTATS_EXPR_TERMS || (!value && !plan->e.nr_terms))
			abort();
		for (k = 0; k < plan->e.nr_terms; k++)
			check_bounds(&plan->e.terms[k].operand, true);
		ks_plan_print(plan, &v);
		opts.json = !opts.json;
		ks_plan_print(plan, &v);
	}
	free(text);
	free(plan);
	return 0;
}

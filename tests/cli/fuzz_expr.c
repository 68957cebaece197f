// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target: trace --value/--if's compiler (expr_parse.c,
 * expr_btf.c, expr_resolve.c, expr_compile.c) and the plan's printers
 * (expr_plan.c), against the host tests' BTF (KSTATS_BTF, and
 * KSTATS_BTF_MODULES for fxmod), and USDT probes' arguments (a point and
 * a section, every form a note may hold). The first byte picks the
 * function (or probes) and --time; the rest is --value's text, then after
 * a newline --if's. Any
 * text must compile to a program within the ABI's bounds or be refused
 * with a message: never a crash, an out-of-bounds access or undefined
 * behaviour (ASan, UBSan).
 */
#include <stdlib.h>
#include <string.h>

#include "kstatsctl.h"
#include "expr.h"
#include "usdt.h"

static const char *const funcs[] = {
	"fx_write", "fx_open", "fx_seven", "fx_byval", "fx_void", "fx_ratio",
	"fx_signum", "fxm_read", "fxmod:fxm_read", "not_in_btf",
};

/* The last two: USDT probes, a point and a section, two places each. */
#define USDT_POINT	(ARRAY_SIZE(funcs))
#define USDT_SECTION	(ARRAY_SIZE(funcs) + 1)
static struct ks_usdt_args usdt[2];

static void usdt_fixture(void)
{
	static const char *const places[][2] = {
		{ "-4@%eax 8@-16(%rbp) -2@$5 8@x(%rip) 1@%r9b 8@(%rsp) 4@%esi",
		  "-4@%eax 8@-16(%rbp) -2@$5 8@x(%rip) 1@%r9b 8@(%rsp) 4@%edi" },
		{ "8@%rdi -8@24(%r12)", "8@%rdi -8@24(%r12)" },
	};
	int i, k;

	if (usdt[0].places)
		return;
	for (i = 0; i < 2; i++) {
		snprintf(usdt[i].probe, sizeof(usdt[i].probe), "fx:probe%d", i);
		for (k = 0; k < 2; k++)
			ks_usdt_args_add(&usdt[i], places[i][k]);
	}
}

/* What the module would refuse: the compiler must never hand it over. */
static void check_bounds(const struct kstats_operand *op, bool pred, bool at_usdt)
{
	bool reg = op->source == KSTATS_OPERAND_REG || op->source == KSTATS_OPERAND_END_REG;

	if (reg != at_usdt && op->source != KSTATS_OPERAND_DURATION)
		abort();
	if ((!reg && (op->source < KSTATS_OPERAND_ARG ||
		      op->source > KSTATS_OPERAND_DURATION)) ||
	    (reg && op->index >= KSTATS_OPERAND_REGS) ||
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
	size_t f;
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
	f = data[0] % (ARRAY_SIZE(funcs) + 2);
	usdt_fixture();
	if (f < ARRAY_SIZE(funcs))
		rc = ks_expr_compile(funcs[f], value, pred, data[0] & 0x80, data[0] & 0x40,
				     NULL, plan);
	else
		rc = ks_expr_compile(f == USDT_POINT ? "usdt:fx:probe0" : "usdt:fx:a..usdt:fx:b",
				     value, pred, data[0] & 0x80, true,
				     f == USDT_POINT ? (const struct ks_usdt_args[2]){ usdt[0] } :
				     usdt, plan);
	if (!rc && (value || pred)) {
		struct ks_plan_view v = { .name = "fuzz", .mech = "auto" };

		if (value)
			check_bounds(&plan->e.value, false, f >= ARRAY_SIZE(funcs));
		if (plan->e.nr_terms > KSTATS_EXPR_TERMS || (!value && !plan->e.nr_terms))
			abort();
		for (k = 0; k < plan->e.nr_terms; k++)
			check_bounds(&plan->e.terms[k].operand, true, f >= ARRAY_SIZE(funcs));
		ks_plan_print(plan, &v);
		opts.json = !opts.json;
		ks_plan_print(plan, &v);
	}
	free(text);
	free(plan);
	return 0;
}

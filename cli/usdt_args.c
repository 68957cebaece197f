// SPDX-License-Identifier: GPL-2.0
/*
 * A USDT probe's arguments, as <sys/sdt.h> writes them into its note: one
 * "SIZE@OPERAND" each, space-separated, SIZE the bytes (negative: signed)
 * and OPERAND where the compiler left the value at the probe, in the
 * assembler's AT&T syntax: a register (%eax), memory at a register plus an
 * offset (-20(%rbp)), or a constant ($5). kstats reads the first two (the
 * module: KSTATS_OPERAND_REG and a load); the rest (a constant, an index
 * register, a symbol's address) is kept as text for the message that
 * refuses it. A probe compiled in several places has a note per place,
 * each with its own operands: an argument is read alike everywhere, or
 * not at all.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "usdt.h"

/* x86-64's register names by DWARF number, each width's. */
static const char *const reg_names[KSTATS_OPERAND_REGS][4] = {
	{ "rax", "eax", "ax", "al" },	{ "rdx", "edx", "dx", "dl" },
	{ "rcx", "ecx", "cx", "cl" },	{ "rbx", "ebx", "bx", "bl" },
	{ "rsi", "esi", "si", "sil" },	{ "rdi", "edi", "di", "dil" },
	{ "rbp", "ebp", "bp", "bpl" },	{ "rsp", "esp", "sp", "spl" },
	{ "r8", "r8d", "r8w", "r8b" },	{ "r9", "r9d", "r9w", "r9b" },
	{ "r10", "r10d", "r10w", "r10b" }, { "r11", "r11d", "r11w", "r11b" },
	{ "r12", "r12d", "r12w", "r12b" }, { "r13", "r13d", "r13w", "r13b" },
	{ "r14", "r14d", "r14w", "r14b" }, { "r15", "r15d", "r15w", "r15b" },
};

/* "%NAME" at @s: its DWARF number, or -1. */
static int reg_number(const char *s, size_t len)
{
	int r, w;

	if (len < 2 || s[0] != '%')
		return -1;
	for (r = 0; r < KSTATS_OPERAND_REGS; r++)
		for (w = 0; w < 4; w++)
			if (strlen(reg_names[r][w]) == len - 1 &&
			    !strncmp(s + 1, reg_names[r][w], len - 1))
				return r;
	return -1;
}

const char *ks_usdt_reg_name(int reg)
{
	return reg >= 0 && reg < KSTATS_OPERAND_REGS ? reg_names[reg][0] : "?";
}

void ks_usdt_arg_parse(const char *spec, struct ks_usdt_arg *a)
{
	const char *at = strchr(spec, '@'), *op = at ? at + 1 : spec, *paren;
	char *end;
	long size = 8;

	memset(a, 0, sizeof(*a));
	snprintf(a->spec, sizeof(a->spec), "%s", spec);
	a->kind = KS_UARG_OTHER;
	if (at) {
		size = strtol(spec, &end, 10);
		if (end != at || !size || labs(size) > 8 || (labs(size) & (labs(size) - 1)))
			return;
	}
	a->size = (uint8_t)labs(size);
	a->sign = size < 0;
	if (op[0] == '$') {
		a->value = strtoll(op + 1, &end, 0);
		if (end != op + 1 && !*end)
			a->kind = KS_UARG_CONST;
		return;
	}
	if (op[0] == '%') {
		a->reg = reg_number(op, strlen(op));
		if (a->reg >= 0)
			a->kind = KS_UARG_REG;
		return;
	}
	/* OFFSET(%REG), OFFSET a number (or none); not a symbol, nor an index. */
	paren = strchr(op, '(');
	if (!paren || op[strlen(op) - 1] != ')' || strchr(paren, ','))
		return;
	a->off = 0;
	if (paren != op) {
		long off = strtol(op, &end, 0);

		if (end != paren || off < INT32_MIN || off > INT32_MAX)
			return;
		a->off = (int32_t)off;
	}
	a->reg = reg_number(paren + 1, strlen(paren + 1) - 1);
	if (a->reg >= 0)
		a->kind = KS_UARG_MEM;
}

/* Whether two places read an argument alike. */
static bool arg_same(const struct ks_usdt_arg *x, const struct ks_usdt_arg *y)
{
	if (x->kind != y->kind || x->size != y->size || x->sign != y->sign)
		return false;
	switch (x->kind) {
	case KS_UARG_REG:
		return x->reg == y->reg;
	case KS_UARG_MEM:
		return x->reg == y->reg && x->off == y->off;
	case KS_UARG_CONST:
		return x->value == y->value;
	default:
		return !strcmp(x->spec, y->spec);
	}
}

void ks_usdt_args_add(struct ks_usdt_args *u, const char *args)
{
	struct ks_usdt_arg a;
	char copy[1024], *save, *w;
	int n = 0;

	snprintf(copy, sizeof(copy), "%s", args);
	for (w = strtok_r(copy, " ", &save); w; w = strtok_r(NULL, " ", &save), n++) {
		if (n == KS_USDT_ARGS)
			break;
		ks_usdt_arg_parse(w, &a);
		if (!u->places)
			u->a[n] = a;
		else if (!u->differs[n] && n < u->nr && !arg_same(&u->a[n], &a)) {
			u->differs[n] = true;
			snprintf(u->other[n], sizeof(u->other[n]), "%s", a.spec);
		}
	}
	if (!u->places)
		u->nr = n;
	else if (u->nr != n)
		u->nr_differs = true;
	u->places++;
}

/* SPDX-License-Identifier: GPL-2.0 */
/*
 * trace NAME --start usdt:BINARY:PROVIDER:START --end usdt:...: a section
 * between USDT probes; trace usdt:BINARY:PROVIDER:NAME --value EXPR: a
 * probe alone, a value at each hit (usdt.c); their arguments (usdt_args.c).
 */
#ifndef KSTATSCTL_USDT_H
#define KSTATSCTL_USDT_H

#include <stdbool.h>
#include <stdint.h>

#include "kstatsctl.h"
#include "trace_args.h"

#define KS_USDT_ARGS	12		/* <sys/sdt.h> passes at most 12 */

/* Where one argument is at the probe: "SIZE@OPERAND" read. */
struct ks_usdt_arg {
	char spec[64];			/* as the note has it: "-4@-20(%rbp)" */
	enum { KS_UARG_OTHER, KS_UARG_REG, KS_UARG_MEM, KS_UARG_CONST } kind;
	int reg;			/* REG, MEM: its DWARF number */
	int32_t off;			/* MEM: at reg + off */
	int64_t value;			/* CONST */
	uint8_t size;			/* bytes: 1, 2, 4 or 8 */
	bool sign;
};

/* A probe's arguments over every place it is compiled in. */
struct ks_usdt_args {
	char probe[512];		/* "PROVIDER:NAME" */
	int nr;				/* arguments (the first place's) */
	int places;
	bool nr_differs;		/* places pass different numbers of them */
	struct ks_usdt_arg a[KS_USDT_ARGS];	/* the first place's */
	bool differs[KS_USDT_ARGS];	/* another place reads argument i otherwise */
	char other[KS_USDT_ARGS][64];	/* ... there, as its note says */
};

/* The probes, in one binary, opened and found: TRACE's uprobes and labels. */
struct ks_usdt {
	int fd;				/* -1: none */
	uint32_t nr;			/* entries: each place of each probe */
	struct kstats_uprobe up[KSTATS_UPROBES_MAX];
	char path[4096];
	/* usdt:PATH:PROVIDER:NAME: the section's ends, or the point in start. */
	char start[4096 + 512], end[4096 + 512];
	bool point;			/* a probe alone (KSTATS_UPROBE_POINT) */
	struct ks_usdt_args args[2];	/* the point's or start's, the end's */
};

/* Whether a section point is a USDT probe ("usdt:..."). */
bool ks_usdt_named(const char *point);
/*
 * @a's --start and --end as USDT probes (at least one of them says
 * "usdt:"), or @point, a probe alone (--value): the options checked, the
 * binary opened (through --pid's mappings for a library name) and its
 * notes read into @u. 0, or an exit code (error printed; @u->fd closed).
 */
int ks_usdt_resolve(const struct ks_trace_args *a, const char *point, struct ks_usdt *u);
/* One "SIZE@OPERAND" into @a (KS_UARG_OTHER: a form kstats does not read). */
void ks_usdt_arg_parse(const char *spec, struct ks_usdt_arg *a);
/* One place's arguments (a note's text) merged into @u. */
void ks_usdt_args_add(struct ks_usdt_args *u, const char *args);
/* Register @reg's 64-bit name ("rbp"), by its DWARF number. */
const char *ks_usdt_reg_name(int reg);
/* 0 when the module behind @fd pairs USDT probes (KSTATS_FEAT_USDT), else the error said. */
int ks_usdt_supported(int fd, const char *start);

#endif /* KSTATSCTL_USDT_H */

/* SPDX-License-Identifier: GPL-2.0 */
/* trace NAME --start usdt:BINARY:PROVIDER:START --end usdt:...: a section between USDT probes (usdt.c). */
#ifndef KSTATSCTL_USDT_H
#define KSTATSCTL_USDT_H

#include <stdbool.h>
#include <stdint.h>

#include "kstatsctl.h"
#include "trace_args.h"

/* Both probes, in one binary, opened and found: TRACE's uprobes and labels. */
struct ks_usdt {
	int fd;				/* -1: none */
	uint32_t nr;			/* entries: each place of each probe */
	struct kstats_uprobe up[KSTATS_UPROBES_MAX];
	char path[4096];
	char start[4096 + 512], end[4096 + 512];	/* usdt:PATH:PROVIDER:NAME */
};

/* Whether a section point is a USDT probe ("usdt:..."). */
bool ks_usdt_named(const char *point);
/*
 * @a's --start and --end as USDT probes (at least one of them says
 * "usdt:"): the options checked, the binary opened (through --pid's
 * mappings for a library name) and its notes read into @u. 0, or an exit
 * code (error printed; @u->fd closed).
 */
int ks_usdt_resolve(const struct ks_trace_args *a, struct ks_usdt *u);
/* 0 when the module behind @fd pairs USDT probes (KSTATS_FEAT_USDT), else the error said. */
int ks_usdt_supported(int fd, const char *start);

#endif /* KSTATSCTL_USDT_H */

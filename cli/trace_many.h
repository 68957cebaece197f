/* SPDX-License-Identifier: GPL-2.0 */
/*
 * trace with several functions (trace_many.c): what was asked, matched
 * (kernel functions there, user-space ones in trace_many_user.c), and what
 * became of each.
 */
#ifndef KSTATSCTL_TRACE_MANY_H
#define KSTATSCTL_TRACE_MANY_H

#include <stdbool.h>
#include <stdint.h>

#include "names.h"

/* A function to trace: traced (err 0), or skipped, and why. */
struct many_fn {
	char *name;
	bool matched;			/* by a pattern: KSTATS_TRACE_MATCHED */
	unsigned long long addr;	/* from kallsyms (0: named, not matched) */
	bool traced;			/* the module took it */
	int err;			/* the module's errno, or 0 */
	const char *why;		/* skipped: the reason */
	char buf[96];			/* a reason made here */
	/* A user-space function: its file (one of many's fds) and where in it. */
	bool user;
	int ufd;
	uint64_t uoff;
	char *label;			/* PATH:SYMBOL, its target */
};

struct many {
	struct many_fn *v;
	size_t nr;
	unsigned long long init_start, init_end;	/* vmlinux __init text */
	int *fds;			/* the user-space files, open */
	size_t nr_fds;
	char untrace[256];		/* the pattern untrace takes, if one */
};

bool ks_is_pattern(const char *s);
struct many_fn *ks_many_find(const struct many *m, const char *name);
struct many_fn *ks_many_add(struct many *m, const char *name, bool matched,
			    unsigned long long addr);
struct ks_trace_args;
/*
 * The user-space functions 'BINARY:GLOB' (and BINARY:SYMBOL) of @pats
 * match, into @m (trace_many_user.c): 0, or an exit code (said).
 */
int ks_many_user(const struct ks_trace_args *a, const struct ks_names *pats, struct many *m);
/* Whether @pats are user-space functions: all (1), none (0), or a mix (-1). */
int ks_many_user_kind(const struct ks_names *pats);

#endif /* KSTATSCTL_TRACE_MANY_H */

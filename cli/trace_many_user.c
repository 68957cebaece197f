// SPDX-License-Identifier: GPL-2.0
/*
 * trace 'BINARY:GLOB'... : user-space functions by pattern, as funclatency
 * takes 'c:str*' and bpftrace uprobe:/bin/bash:read*. Each BINARY is opened
 * once (a library name through --pid's mappings, as for one function) and
 * its functions matched by usym_glob.c; each becomes a trace named
 * FILE:SYMBOL, as trace BINARY:SYMBOL names it.
 */
#define _GNU_SOURCE	/* asprintf */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "kstatsctl.h"
#include "trace_args.h"
#include "trace_many.h"
#include "usym.h"

int ks_many_user_kind(const struct ks_names *pats)
{
	size_t i, user = 0;

	for (i = 0; i < pats->nr; i++)
		user += ks_usym_wanted(pats->v[i], false);
	return !user ? 0 : user == pats->nr ? 1 : -1;
}

/* BINARY:GLOB's matches into @m; 0, or an exit code (said). */
static int one(const struct ks_trace_args *a, const char *pat, struct many *m)
{
	const char *colon = strrchr(pat, ':'), *glob = colon + 1, *base;
	char binary[4096], path[4096], name[512];
	struct ks_usym *u = NULL;
	struct many_fn *f;
	size_t n = 0, i;
	int fd, rc;

	snprintf(binary, sizeof(binary), "%.*s", (int)(colon - pat), pat);
	if (!*glob) {
		ks_set_hint("e.g. c:str*, /usr/bin/bash:read*");
		return ks_usage("'%s': a user-space function is BINARY:SYMBOL", pat);
	}
	fd = ks_usym_open(binary, a->tid ? a->tid : a->pid, path, sizeof(path));
	if (fd < 0)
		return EXIT_RUNTIME;
	m->fds = xrealloc(m->fds, m->nr_fds + 1, sizeof(*m->fds));
	m->fds[m->nr_fds++] = fd;
	rc = ks_usym_glob(fd, path, glob, &u, &n);
	if (rc)
		return rc;
	if (!n) {
		ks_set_hint("'nm -D --defined-only %s' (and 'nm', if not stripped) lists "
			    "its functions", path);
		free(u);
		return ks_fail(EXIT_RUNTIME, NULL, "'%s' matches no function of %s", glob,
			       path);
	}
	base = strrchr(path, '/');
	base = base ? base + 1 : path;
	if (ks_is_pattern(glob))
		snprintf(m->untrace, sizeof(m->untrace), "%.100s:%.100s", base, glob);
	for (i = 0; i < n; i++) {
		/* Too long for a metric: check_here() skips it, saying so. */
		snprintf(name, sizeof(name), "%.200s:%.300s", base, u[i].name);
		if (!ks_many_find(m, name)) {
			f = ks_many_add(m, name, false, 0);
			f->user = true;
			f->ufd = fd;
			f->uoff = u[i].offset;
			f->why = u[i].why;
			if (asprintf(&f->label, "%s:%s", path, u[i].name) < 0)
				abort();
		}
		free(u[i].name);
	}
	free(u);
	return 0;
}

int ks_many_user(const struct ks_trace_args *a, const struct ks_names *pats, struct many *m)
{
	size_t i;
	int rc = 0;

	if (a->mech != KSTATS_MECH_AUTO && a->mech != KSTATS_MECH_UPROBE)
		return ks_usage("--mechanism %s: user-space functions are traced by uprobe",
				ks_trace_mechs[a->mech]);
	for (i = 0; i < pats->nr && !rc; i++)
		rc = one(a, pats->v[i], m);
	if (pats->nr > 1)
		m->untrace[0] = '\0';
	return rc;
}

/* SPDX-License-Identifier: GPL-2.0 */
/*
 * NAME... operands: a command's metric names and patterns (names.c).
 */
#ifndef KSTATSCTL_NAMES_H
#define KSTATSCTL_NAMES_H

#include "kstatsctl.h"

struct ks_names {
	char **v;
	size_t nr;
};
/*
 * Adds @arg; a key's metric typed with an error's name as the module names
 * it. 0 or a usage error, printed.
 */
int ks_names_add(struct ks_names *n, char *arg);
int ks_names_valid(const struct ks_names *n);	/* 0 or EXIT_USAGE (printed) */
/* Whether @name matches one of the shell-style @pats (none: false). */
bool ks_names_fnmatch(const struct ks_names *pats, const char *name);
/*
 * Checks every name, opens the device and calls @op on each name in order,
 * or once on NULL when *@all (NULL @all: the command has no --all); @op
 * reports its own failure, which ends the loop. With -j, prints the names
 * done. Returns 0 or the exit code.
 */
int ks_each_name(const char *cmd, const struct ks_names *n, const bool *all,
		 int (*op)(int fd, const char *name, void *ctx), void *ctx);
/*
 * Every pattern of @pats matches one of @names (from @path, or NULL: the
 * live metrics)? 0, or EXIT_RUNTIME with an error naming the first that
 * matches none, and a "did you mean" hint when a name is close to it.
 */
int ks_names_check(const struct ks_names *pats, const char *const *names, size_t nr,
		   const char *path);
struct ks_set;
int ks_set_check(const struct ks_set *set, const struct ks_names *pats, const char *path);
/* An argp parser whose input is a struct ks_names. */
error_t ks_names_parse(int key, char *arg, struct argp_state *state);
/* A whole "CMD NAME..." command: @op on each name, as ks_each_name. */
int ks_names_cmd(const struct argp *argp, const char *cmd, int argc, char **argv,
		 int (*op)(int fd, const char *name, void *ctx));

#endif /* KSTATSCTL_NAMES_H */

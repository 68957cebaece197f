/* SPDX-License-Identifier: GPL-2.0 */
/*
 * trace's options as given: parsed and sent by trace.c, read back by
 * trace_error.c to say why the module refused them.
 */
#ifndef KSTATSCTL_TRACE_ARGS_H
#define KSTATSCTL_TRACE_ARGS_H

#include <stdbool.h>
#include <stdint.h>

#include "names.h"
#include "trace.h"

struct ks_trace_args {
	struct ks_names args;
	uint32_t bits, mech, maxactive, budget_ppm, sample_every;
	const char *start, *end, *name, *cpus, *cgroup;
	int cgroup_fd;			/* --cgroup's directory, open */
	int64_t pid, tid;
	bool autoremove;		/* the default, spelled out (hidden) */
	bool keep;			/* --keep: leave the trace, return at once */
	bool format_set;
	const char *outliers;		/* as given */
	uint64_t outlier_ns;
	uint32_t outlier_ppm, outlier_ring, outlier_rate;
	bool split, self;
	uint32_t key, nr_keys;		/* --by, --keys */
	const char *key_values;		/* --key-values */
	struct ks_trace_expr x;		/* --value, --if, --time */
	bool dry_run;
	struct ks_trace_run run;
};

/* --mechanism's spellings, by KSTATS_MECH_* (trace.c). */
#define KS_TRACE_NR_MECHS	(KSTATS_MECH_UPROBE + 1)
extern const char *const ks_trace_mechs[KS_TRACE_NR_MECHS];

/*
 * TRACE refused with @err for @func as @a asked (@user: a user-space
 * function): the error and its hint said, the exit code returned.
 */
int ks_trace_refused(int err, int fd, const char *func, const struct ks_trace_args *a,
		     bool user);

/*
 * One-shot (the default) or --keep: whether the options given go with
 * it (trace_mode.c). 0, or EXIT_USAGE with the error and its hint said.
 */
int ks_trace_mode_check(const struct ks_trace_args *a);

#endif /* KSTATSCTL_TRACE_ARGS_H */

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
	const char *from;		/* --functions FILE */
	uint32_t max;			/* --max: 0, the default */
};

/* Many functions (trace_many.c): --max's default and limit. */
#define KS_TRACE_MANY_DEFAULT	100
#define KS_TRACE_MANY_MAX	4096

struct kstats_trace;
/*
 * The request for @func as @a asks (trace.c): @cpus --cpu's bitmap of
 * @cpus_len bytes, @key_values --key-values' codes.
 */
void ks_trace_request(struct kstats_trace *t, const struct ks_trace_args *a, const char *func,
		      const uint8_t *cpus, size_t cpus_len, const uint64_t *key_values);
/* Whether @a asks for many functions: several, a pattern, or --functions. */
bool ks_trace_many_wanted(const struct ks_trace_args *a);
/*
 * Traces each function @a's patterns match, a trace each, then runs as
 * one-shot or --keep says: 0 or an exit code, with what was skipped said.
 */
int ks_trace_many(struct ks_trace_args *a, const uint8_t *cpus, size_t cpus_len,
		  const uint64_t *key_values);
/*
 * 0 when @name leaves room for the metrics @a adds to it (NAME{KEY=...},
 * BLOCKED-NAME, SELF-NAME), else the most it may be (trace.c).
 */
int ks_trace_name_room(const struct ks_trace_args *a, const char *name);

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

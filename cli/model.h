/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The in-memory model: a metric at one instant, where a set of them came
 * from, deltas and selections (model.c); a trace's sampling and cost as
 * text and JSON (sampling.c).
 */
#ifndef KSTATSCTL_MODEL_H
#define KSTATSCTL_MODEL_H

#include "kstatsctl.h"

/*
 * How a trace records (KSTATS_IOC_SNAPSHOT, kstats(4)): mode
 * KSTATS_TRACE_MODE_*, 1 call in sample_every, calls declined, the
 * governor's budget and estimates (ppm of one CPU), calibrated costs.
 * All zero: unknown (an older module, or a file without them).
 */
struct ks_sampling {
	uint32_t mode, sample_every, budget_ppm, cost_ppm, full_cost_ppm, flags;
	uint64_t since_ns, skipped, call_ps, skip_ps;
};

/* Whether @m's counts come from a sample (1 in sample_every > 1). */
#define ks_sampled(m)	((m)->smp.sample_every > 1)

struct ks_outl;
struct ks_stack_names;

/*
 * One metric at one instant, from KSTATS_IOC_SNAPSHOT or a file. Slots are
 * the non-empty slots of each CPU, in CPU then slot order, exactly as the
 * ioctl returns them; cpus[i].nr_slots of them belong to cpus[i].
 */
struct ks_metric {
	char name[KSTATS_NAME_LEN];
	char owner[KSTATS_NAME_LEN];
	uint32_t kind, flags, frac_bits;
	uint32_t owner_uid;
	int64_t owner_pid;
	uint64_t time_ns, realtime_ns;
	uint64_t hits, misses, floor_ns;
	/*
	 * Traces with --value or --if: calls whose reads faulted, calls the
	 * predicate declined; known from the module (0 before it had them),
	 * not from files, which do not keep them.
	 */
	uint64_t faults, rejected;
	bool expr_known;
	/*
	 * A trace in a group (one fprobe over a pattern's functions): the
	 * calls of any of its functions that the fprobe missed, so no
	 * function counted; 0 alone, and from files, which do not keep it.
	 */
	uint64_t group_misses;
	uint64_t generation;	/* new at creation and reset; 0 unknown */
	struct ks_sampling smp;	/* traces: SNAPSHOT's mode, sampling and cost */
	/* A trace that keeps outliers: its counters (cumulative, as the kernel's). */
	struct kstats_outliers outl;	/* only the counters and threshold */
	bool has_outliers;
	/*
	 * And the outliers themselves, when a file (format 4) or 'snapshot'
	 * has them; else NULL. Owned by the set (ks_set_free()); the copies
	 * model.c makes (deltas, CPUs) have none.
	 */
	struct ks_outl *outl_entries;
	/*
	 * A --by stack key's frames, named (a file's from format 8, or
	 * 'snapshot' before it writes one); else NULL. Owned likewise.
	 */
	struct ks_stack_names *stack;
	uint32_t nr_cpus, nr_slots;
	struct kstats_snap_cpu *cpus;
	struct kstats_snap_slot *slots;
	bool reset;		/* a delta across a reset (--watch) */
	bool sums_unknown;	/* from an HdrHistogram: no part sums, means estimated */
	bool ns;		/* known to hold ns (an HdrHistogram log, --hdr-unit) */
};

/* Where a set of metrics came from (for headers and JSON). */
struct ks_source {
	bool file;
	const char *path;
	char host[256];
	char kernel[256];	/* uname -r */
	char kernel_version[256];	/* uname -v */
	char machine[256];
	char module_version[256];
	char tool_version[256];
	char boot_id[256];	/* /proc/sys/kernel/random/boot_id; "" unknown */
	uint32_t abi_version;
	uint64_t created_ns;	/* CLOCK_REALTIME */
	bool hlog;		/* an HdrHistogram log (hdr_log.c) */
	size_t hlog_intervals;	/* its histograms, summed per tag */
};

struct ks_set {
	struct ks_source src;
	struct ks_metric *m;
	size_t nr;
};

void ks_metric_free(struct ks_metric *m);
void ks_set_free(struct ks_set *s);
struct ks_metric *ks_set_find(const struct ks_set *s, const char *name);
/* Fills @s->src for the live system (uname, INFO). */
void ks_source_live(struct ks_source *src, int fd);
/*
 * KSTATS_IOC_SNAPSHOT plus the LIST entry's owner; 0 or an exit code, or
 * -1 without a message when the metric is gone and @missing_ok.
 */
int ks_snapshot_live(int fd, const char *name, struct ks_metric *m,
		     bool missing_ok);
/* A stack key's frames (SNAPSHOT VER4): the caller first; none for any other metric. */
struct ks_key_stack {
	uint64_t frames[KSTATS_OUTLIER_FRAMES];
	uint32_t nr, flags;		/* KSTATS_OUTLIER_TRUNCATED, _NOADDR, _USER */
	int64_t tgid;			/* _USER: the process whose addresses they are */
};
int ks_snapshot_live_stack(int fd, const char *name, struct ks_metric *m,
			   bool missing_ok, struct ks_key_stack *st);
/*
 * A stack key's frames as text (stack_names.c), "func+0xoff [module]" as
 * 'outliers' prints them, the caller first: what a snapshot file keeps of
 * a stack, never an address.
 */
struct ks_stack_names {
	uint32_t flags;		/* KSTATS_OUTLIER_TRUNCATED, _NOADDR (withheld) */
	uint32_t taken;		/* frames the kernel took (0..KSTATS_OUTLIER_FRAMES) */
	uint32_t nr;		/* frames here: @taken, or 0 when withheld */
	char *frame[KSTATS_OUTLIER_FRAMES];
};
void ks_stack_names_free(struct ks_stack_names *s);
/*
 * @cur minus @prev, slot by slot, into @out (a slot whose part sum alone
 * grew too: its counts went to another CPU). When @cur cannot have grown
 * from @prev (a count, part sum, hit, miss, fault or rejection went down,
 * a slot emptied, the CPUs or frac_bits differ, or the generation: files
 * keep its low 32 bits), that is a reset: @out is @cur whole,
 * out->reset is set and @why (unless NULL) says what showed it.
 */
void ks_metric_delta(const struct ks_metric *prev, const struct ks_metric *cur,
		     struct ks_metric *out, char *why, size_t why_len);
/*
 * What @cur holds since @prev (ks_metric_delta), or all of it when @prev is
 * NULL: a metric that is new since then.
 */
void ks_metric_since(const struct ks_metric *prev, const struct ks_metric *cur,
		     struct ks_metric *out);
/*
 * The live metrics whose names match @pats (every one when it is empty);
 * one gone since LIST is skipped; a pattern that matches none is an error
 * (ks_names_check). 0 or an exit code (printed).
 */
int ks_take_matching(int fd, const struct ks_names *pats, struct ks_set *set);
/* Keeps the metrics of @set whose names match @pats (all when it is empty). */
void ks_set_keep(struct ks_set *set, const struct ks_names *pats);
/* A copy of @m with only the CPU rows in @mask (bit n % 8 of byte n / 8). */
void ks_metric_cpus(const struct ks_metric *m, const uint8_t *mask, struct ks_metric *out);
/* The row of CPU @cpu, or -1. */
int ks_metric_row(const struct ks_metric *m, uint32_t cpu);
/* Does CPU row @r have samples? (Its u64 count may have wrapped to 0.) */
bool ks_metric_row_used(const struct ks_metric *m, uint32_t r);

/* A trace's sampling and cost, as text and JSON (sampling.c). */
struct json;
const char *ks_sampling_mode_name(uint32_t mode);
void ks_sampling_note(FILE *out, const struct ks_metric *m);
void ks_sampling_json(struct json *j, const struct ks_metric *m);

#endif /* KSTATSCTL_MODEL_H */

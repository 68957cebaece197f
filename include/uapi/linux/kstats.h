/* SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note */
/*
 * /dev/kstats: the kstats ioctl ABI.
 *
 * Rules every command follows (see also kstats(4)):
 * - The size encoded in the command number is the struct's version. The
 *   kernel accepts any size from the command's KSTATS_*_SIZE_VER0 up to
 *   16383: a smaller (older) struct is zero-extended; a larger (newer) one
 *   must have only zeros past what the kernel knows, else -E2BIG. Below
 *   VER0: -EINVAL. Output is written up to the smaller of the two sizes;
 *   the rest of a larger caller struct is zeroed.
 * - Unknown command, or a known number with the wrong direction: -ENOTTY.
 * - Every flags, pad and reserved field must be 0 on input: else -EINVAL.
 *   Fields marked "out" are ignored on input.
 * - Names are 1..63 bytes of ASCII [A-Za-z0-9_.:-], not ".", ".." or
 *   "_control" (debugfs' kstats/_control),
 *   NUL-terminated within KSTATS_NAME_LEN bytes, the rest zero: else -EINVAL.
 * - Pointers are __u64 (cast through uintptr_t); a bad one gives -EFAULT.
 * - Mutating commands (CREATE, DELETE, CONTROL, RECORD into a metric this
 *   file did not create, TRACE, UNTRACE) need CAP_PERFMON or CAP_SYS_ADMIN
 *   in the credentials that opened the file: else -EPERM. INFO, LIST and
 *   SNAPSHOT need only an open descriptor.
 * - A call waiting for the metric registry can be interrupted by a fatal
 *   signal: -EINTR.
 * Errors each command adds are listed with it.
 */
#ifndef _UAPI_LINUX_KSTATS_H
#define _UAPI_LINUX_KSTATS_H

#include <linux/types.h>
#include <linux/ioctl.h>

#define KSTATS_DEVICE		"/dev/kstats"
#define KSTATS_IOC_MAGIC	0xBC
#define KSTATS_ABI_VERSION	1
#define KSTATS_NAME_LEN		64	/* with the NUL: names are 1..63 bytes */
#define KSTATS_RECORD_MAX	4096	/* samples per RECORD call */
/*
 * The largest TRACE maxactive on a machine with @cpus possible CPUs:
 * max(64, min(65536, 2^20 / cpus)), so that kretprobe's instance pool
 * (CPUs x maxactive pointers) stays near 8 MB.
 */
#define KSTATS_MAXACTIVE_MAX(cpus)					\
	((1U << 20) / ((cpus) ? (cpus) : 1) < 64 ? 64U :		\
	 (1U << 20) / ((cpus) ? (cpus) : 1) > 65536 ? 65536U :		\
	 (1U << 20) / ((cpus) ? (cpus) : 1))

/* Metric kinds, in LIST and SNAPSHOT. */
#define KSTATS_KIND_MODULE	1	/* kstats_new() from a kernel module */
#define KSTATS_KIND_USER	2	/* CREATE from user space */
#define KSTATS_KIND_TRACE	3	/* TRACE: execution time */
#define KSTATS_KIND_GAP		4	/* TRACE: time between calls */
#define KSTATS_KIND_ONCPU	5	/* TRACE --split: time on a CPU */
#define KSTATS_KIND_RUNQ	6	/* TRACE --split: runnable, waiting */
#define KSTATS_KIND_BLOCKED	7	/* TRACE --split: asleep */
#define KSTATS_KIND_SELF	8	/* TRACE --self: less traced callees */
#define KSTATS_KIND_KEY		9	/* TRACE with a key: NAME{key=value} */
#define KSTATS_KIND_VALUE	10	/* TRACE with a value: VALUE-NAME, NEG-NAME */

/* Metric state flags, in LIST and SNAPSHOT. */
#define KSTATS_METRIC_ACTIVE	(1U << 0)	/* recording */
#define KSTATS_METRIC_AUTOREMOVE (1U << 1)	/* goes with its file */
#define KSTATS_METRIC_DETACHED	(1U << 2)	/* its trace detached: module gone, or governor */
#define KSTATS_METRIC_SAMPLED	(1U << 3)	/* its trace records 1 call in N */
#define KSTATS_METRIC_VALUE	(1U << 4)	/* holds a traced value, not a time */

/* Trace mechanisms: TRACE's mechanism, bit numbers of INFO's mechanisms. */
#define KSTATS_MECH_AUTO	0	/* the best this kernel has */
#define KSTATS_MECH_FPROBE	1
#define KSTATS_MECH_KRETPROBE	2
#define KSTATS_MECH_KPROBE	3	/* start/end pair of functions */
#define KSTATS_MECH_TRACEPOINT	4	/* start/end pair of tracepoints */
#define KSTATS_MECH_UPROBE	5	/* a user-space function: uprobe + uretprobe (VER7) */

/* INFO features: which commands this module implements. */
#define KSTATS_FEAT_CREATE	(1ULL << 0)
#define KSTATS_FEAT_DELETE	(1ULL << 1)
#define KSTATS_FEAT_LIST	(1ULL << 2)
#define KSTATS_FEAT_CONTROL	(1ULL << 3)
#define KSTATS_FEAT_SNAPSHOT	(1ULL << 4)
#define KSTATS_FEAT_RECORD	(1ULL << 5)
#define KSTATS_FEAT_TRACE	(1ULL << 6)
#define KSTATS_FEAT_OUTLIERS	(1ULL << 7)	/* TRACE's outlier fields, OUTLIERS */
#define KSTATS_FEAT_SPLIT	(1ULL << 8)	/* TRACE's KSTATS_TRACE_SPLIT */
#define KSTATS_FEAT_SELF	(1ULL << 9)	/* TRACE's KSTATS_TRACE_SELF */
#define KSTATS_FEAT_KEYS	(1ULL << 10)	/* TRACE's key and nr_keys */
#define KSTATS_FEAT_CGROUP	(1ULL << 11)	/* KSTATS_TRACE_CGROUP, KSTATS_KEY_CGROUP */
#define KSTATS_FEAT_KEY_VALUES	(1ULL << 12)	/* TRACE's key_values */
#define KSTATS_FEAT_EXPR	(1ULL << 13)	/* TRACE's expr: values, predicates */
#define KSTATS_FEAT_UPROBE	(1ULL << 14)	/* TRACE's uprobes: user-space functions */
#define KSTATS_FEAT_USDT	(1ULL << 15)	/* TRACE's uprobes as a section (USDT) */
#define KSTATS_FEAT_UPROBE_EXPR	(1ULL << 16)	/* TRACE's expr on a user-space function */
#define KSTATS_FEAT_TASK_KEYS	(1ULL << 17)	/* KSTATS_KEY_PID, _TID, _CPU */
#define KSTATS_FEAT_COMM_KEY	(1ULL << 18)	/* KSTATS_KEY_COMM */
#define KSTATS_FEAT_MATCHED	(1ULL << 19)	/* TRACE's KSTATS_TRACE_MATCHED */
#define KSTATS_FEAT_STACK_KEY	(1ULL << 20)	/* KSTATS_KEY_STACK, SNAPSHOT's frames */
#define KSTATS_FEAT_UPROBE_SPLIT (1ULL << 21)	/* KSTATS_TRACE_SPLIT, _SELF: user functions too */
#define KSTATS_FEAT_UPROBE_OUTLIERS (1ULL << 22)	/* KSTATS_TRACE_OUTLIERS: user functions too */
#define KSTATS_FEAT_UPROBE_COST	(1ULL << 23)	/* TRACE's user_floor_ns, _call_ps, _skip_ps */
#define KSTATS_FEAT_UPROBE_STACK (1ULL << 24)	/* user-space outliers: the frame-pointer chain */
#define KSTATS_FEAT_USDT_EXPR	(1ULL << 25)	/* USDT points, and exprs at USDT probes */
#define KSTATS_FEAT_UPROBE_LOADS (1ULL << 26)	/* exprs read user memory at uprobes */
#define KSTATS_FEAT_GROUP	(1ULL << 27)	/* KSTATS_TRACE_DEFER, ATTACH, group_misses */

/* INFO flags. */
#define KSTATS_INFO_LOCKDOWN	(1U << 0)	/* kprobes locked down: no TRACE */
#define KSTATS_INFO_UPROBE_SESSION (1U << 1)	/* uprobes pair entry and return (6.13+) */

/*
 * KSTATS_IOC_INFO: what this module is and can do. Never fails but for
 * -EFAULT.
 */
struct kstats_info {
	__u32 abi_version;	/* KSTATS_ABI_VERSION */
	__u32 max_frac_bits;
	__u64 features;		/* KSTATS_FEAT_* */
	__u64 mechanisms;	/* 1 << KSTATS_MECH_* usable by TRACE */
	__u32 nr_metrics;
	__u32 nr_cpus;		/* possible CPUs: rows of a snapshot */
	__u32 record_max;	/* KSTATS_RECORD_MAX */
	__u32 flags;		/* KSTATS_INFO_* */
	__u8 version[32];	/* module version, NUL-terminated */
	__u64 reserved[4];
};
#define KSTATS_INFO_SIZE_VER0	72	/* up to version[] */

/*
 * KSTATS_IOC_CREATE: a metric recorded from user space (RECORD).
 * -EINVAL: bad name, frac_bits > max_frac_bits, unknown flag.
 * -EEXIST: the name is taken. -ENOMEM.
 */
#define KSTATS_CREATE_AUTOREMOVE (1U << 0)	/* delete it when this file closes */
struct kstats_create {
	__u8 name[KSTATS_NAME_LEN];
	__u32 frac_bits;
	__u32 flags;		/* KSTATS_CREATE_* */
	__u64 reserved[2];
};
#define KSTATS_CREATE_SIZE_VER0	72

/*
 * KSTATS_IOC_DELETE: delete a metric created from user space.
 * -ENOENT: no such metric. -EBUSY: it belongs to a module or a trace
 * (modules delete their own; traces go with UNTRACE).
 */
struct kstats_delete {
	__u8 name[KSTATS_NAME_LEN];
	__u32 flags;		/* none yet: 0 */
	__u32 pad;
	__u64 reserved[2];
};
#define KSTATS_DELETE_SIZE_VER0	72

/*
 * KSTATS_IOC_LIST: every metric. The caller passes an array of nr_entries
 * entries of entry_size bytes each (>= KSTATS_METRIC_INFO_SIZE_VER0, a
 * multiple of 8); each entry is written up to the smaller of entry_size
 * and the kernel's size, the rest zeroed. nr_entries comes back as the
 * number of metrics. -ENOSPC: the array is too small (nr_entries says how
 * many are needed; nothing else is written). -EINVAL: bad entry_size.
 */
struct kstats_metric_info {
	__u8 name[KSTATS_NAME_LEN];
	__u8 owner[KSTATS_NAME_LEN];	/* module, creating command, or traced target */
	__u32 kind;		/* KSTATS_KIND_* */
	__u32 frac_bits;
	__u32 flags;		/* KSTATS_METRIC_* */
	__u32 owner_uid;	/* creator's uid; 0 for modules */
	__s64 owner_pid;	/* creator's tgid; -1 for modules */
	__u64 count;		/* samples, all CPUs */
	__u64 reserved[2];
};
#define KSTATS_METRIC_INFO_SIZE_VER0	160

struct kstats_list {
	__u64 entries;		/* user pointer to the array */
	__u32 entry_size;	/* sizeof(struct kstats_metric_info) */
	__u32 nr_entries;	/* in: capacity; out: number of metrics */
	__u32 flags;		/* none yet: 0 */
	__u32 pad;
	__u64 reserved[2];
};
#define KSTATS_LIST_SIZE_VER0	24

/*
 * KSTATS_IOC_CONTROL: start, stop or reset one metric, or all of them.
 * -ENOENT: no such metric. -EINVAL: unknown op; a name with CONTROL_ALL.
 */
#define KSTATS_OP_START		1
#define KSTATS_OP_STOP		2
#define KSTATS_OP_RESET		3
#define KSTATS_CONTROL_ALL	(1U << 0)	/* every metric; name all zeros */
struct kstats_control {
	__u8 name[KSTATS_NAME_LEN];
	__u32 op;		/* KSTATS_OP_* */
	__u32 flags;		/* KSTATS_CONTROL_* */
	__u64 reserved[2];
};
#define KSTATS_CONTROL_SIZE_VER0	72

/*
 * KSTATS_IOC_SNAPSHOT: copy a metric's histograms out, without stopping
 * recording. The buffer receives nr_cpus struct kstats_snap_cpu (one per
 * possible CPU, ascending), then nr_slots struct kstats_snap_slot: the
 * non-empty slots (a count or a part sum) of each CPU in CPU then slot
 * order; the CPU totals are the sums of the slots' counts returned.
 * Recording has no preemption guard: a task migrated between its two adds
 * leaves the count on one CPU and the part sum on another, so one CPU's
 * count and part sum of a slot may not match (a part sum with count 0,
 * or more than the count can hold). Summed over all CPUs per slot they are
 * exact when no record is in flight. Fold the CPUs before taking a slot's
 * mean; a per-CPU mean is an estimate, clamped to the slot
 * (kstats_slot_part_clamp() in kstats_hist.h). -ENOSPC: buf_len is too
 * small; buf_len comes back with the bytes needed (which can grow before
 * the next call). -ENOENT: no such metric. Two snapshots of a metric with
 * the same generation (never 0) hold the same series: no reset and no
 * re-creation between them, so the later one contains the earlier
 * (0 from modules before it: unknown).
 */
struct kstats_snap_cpu {
	__u32 cpu;
	__u32 nr_slots;		/* its entries in the slot array */
	__u64 count;		/* its samples */
};

struct kstats_snap_slot {
	__u32 cpu;
	__u32 slot;		/* see kstats_hist.h for bounds */
	__u64 count;
	__u64 part_sum;		/* scaled; kstats_slot_sum() gives the sum */
};

struct kstats_snapshot {
	__u8 name[KSTATS_NAME_LEN];
	__u64 buf;		/* user pointer */
	__u64 buf_len;		/* in: bytes at buf; out: bytes written or needed */
	__u32 flags;		/* none yet: 0 */
	__u32 frac_bits;	/* out */
	__u32 nr_cpus;		/* out */
	__u32 nr_slots;		/* out */
	__u64 time_ns;		/* out: CLOCK_MONOTONIC when copied */
	__u64 realtime_ns;	/* out: CLOCK_REALTIME when copied */
	__u32 kind;		/* out: KSTATS_KIND_* */
	__u32 metric_flags;	/* out: KSTATS_METRIC_* */
	__u64 hits;		/* out, traces: calls recorded */
	__u64 misses;		/* out, traces: calls that could not be */
	__u64 floor_ns;		/* out, traces: the probe's own cost, hot */
	__u64 generation;	/* out: new at creation and at every reset */
	/* out, traces: how the trace records now (see KSTATS_IOC_TRACE) */
	__u32 trace_mode;	/* KSTATS_TRACE_MODE_* */
	__u32 sample_every;	/* 1 call in sample_every is recorded */
	__u64 mode_since_ns;	/* CLOCK_MONOTONIC when trace_mode last changed */
	__u64 skipped;		/* calls declined by sampling */
	__u32 budget_ppm;	/* the governor's budget, ppm of one CPU; 0: none */
	__u32 cost_ppm;		/* its estimate of the trace's cost now, ppm of a CPU */
	__u32 full_cost_ppm;	/* ... and of recording every call */
	__u32 trace_flags;	/* KSTATS_TRACE_STATE_* */
	__u64 call_cost_ps;	/* calibrated cost of a recorded call, ps */
	__u64 skip_cost_ps;	/* ... and of a call declined by sampling */
	__u64 faults;		/* out, traces with an expr: calls whose reads faulted */
	__u64 rejected;		/* out, traces with a predicate: calls it declined */
	/*
	 * VER4 (KSTATS_FEAT_STACK_KEY), a stack key's metric (NAME{stack=ID}):
	 * its kernel stack, the traced call's caller first (as an outlier's),
	 * copied to frames (in: a user pointer to KSTATS_OUTLIER_FRAMES
	 * __u64, or 0 for none) for a file opened with CAP_PERFMON or
	 * CAP_SYS_ADMIN; for any other, nr_frames 0 and frames_flags
	 * KSTATS_OUTLIER_NOADDR. Any other metric: nr_frames 0.
	 */
	__u64 frames;
	__u32 nr_frames;	/* out */
	__u32 frames_flags;	/* out: KSTATS_OUTLIER_TRUNCATED, _NOADDR, _USER */
	/*
	 * VER5 (KSTATS_FEAT_UPROBE_STACK), out (0 on input): with
	 * KSTATS_OUTLIER_USER, the frames are user addresses of this process
	 * (its tgid), which made the call that claimed the key.
	 */
	__s64 frames_tgid;
	/*
	 * VER6 (KSTATS_FEAT_GROUP), out: a trace in a group (ATTACH on
	 * fprobe), the calls of any of the group's functions its fprobe
	 * missed (and so none of them counted): not in misses, which are
	 * this function's own. 0 for a trace alone.
	 */
	__u64 group_misses;
	__u64 reserved[1];
};
#define KSTATS_SNAPSHOT_SIZE_VER0	144	/* up to floor_ns */
#define KSTATS_SNAPSHOT_SIZE_VER1	152	/* up to generation */
#define KSTATS_SNAPSHOT_SIZE_VER2	208	/* up to skip_cost_ps */
#define KSTATS_SNAPSHOT_SIZE_VER3	224	/* up to rejected */
#define KSTATS_SNAPSHOT_SIZE_VER4	240	/* up to frames_flags */
#define KSTATS_SNAPSHOT_SIZE_VER5	248	/* up to frames_tgid */
#define KSTATS_SNAPSHOT_SIZE_VER6	256	/* up to group_misses */

/* SNAPSHOT's trace_mode. */
#define KSTATS_TRACE_MODE_FULL		0	/* every call recorded */
#define KSTATS_TRACE_MODE_SAMPLED	1	/* 1 in sample_every, by the governor */
#define KSTATS_TRACE_MODE_FIXED		2	/* 1 in sample_every, as asked */
#define KSTATS_TRACE_MODE_GOV_DETACHED	3	/* detached by the governor */

/* SNAPSHOT's trace_flags. */
#define KSTATS_TRACE_STATE_UNCALIBRATED	(1U << 0)	/* no cost known: governor records in full */

/*
 * KSTATS_IOC_RECORD: add count samples to a metric. Without privilege,
 * only into a metric created through this same file. Samples into a
 * stopped metric are dropped, as kstats_record() does.
 * -EINVAL: count 0 or above KSTATS_RECORD_MAX. -ENOENT.
 */
struct kstats_record {
	__u8 name[KSTATS_NAME_LEN];
	__u64 values;		/* user pointer to __u64[count] */
	__u32 count;
	__u32 flags;		/* none yet: 0 */
	__u64 reserved[2];
};
#define KSTATS_RECORD_SIZE_VER0	80

/*
 * KSTATS_IOC_TRACE: time a kernel function, or a section between two
 * functions or two tracepoints (see kstats(4)). Set func for a function:
 * metrics NAME (execution time) and GAP-NAME (end of one call to the start
 * of the next on the same CPU) are created. Set start and end instead for
 * a section, timed per task: NAME only. Strings are at most 511 bytes.
 * -EINVAL: func together with start/end, only one of start/end, a section
 * from a tracepoint to a function, a mechanism that does not fit, a filter
 * value without its flag, a pid/tgid outside 1..4194304 with its flag, an
 * empty CPU mask or one past the last CPU, cpus_len above 4096, maxactive
 * above KSTATS_MAXACTIVE_MAX(possible CPUs) (kretprobe's instance pool
 * costs CPUs x maxactive; fprobe from 6.14 ignores maxactive), a symbol on
 * the kprobe blacklist, a function trace NAME over 59 bytes (GAP-NAME must fit),
 * KSTATS_TRACE_SPLIT with a NAME over 55 bytes, KSTATS_TRACE_SELF on a
 * section or with a NAME over 58 bytes.
 * "tp:event" is a core tracepoint; "tp:system:event" a trace event of the
 * core or of a loaded module (held while traced). func may be one too,
 * with an expr: a point, a value per hit (see TRACE's expr).
 * -ENOENT: no such symbol, tracepoint, or event in that system
 * (kstats_record is an inline function: there is nothing to trace).
 * -ELOOP: a function of kstats itself. -EEXIST: NAME or GAP-NAME is taken.
 * -ESRCH: no such pid, or no thread group with that tgid (a thread that is
 * not its group's leader). -EOPNOTSUPP: the mechanism is not available on
 * this kernel; tracepoint pairs on a CFI kernel; an event without a
 * tracepoint; KSTATS_TRACE_SPLIT or KSTATS_TRACE_SELF before Linux 5.18
 * (INFO: KSTATS_FEAT_SPLIT, KSTATS_FEAT_SELF).
 * -EPERM: also when the kernel is locked down against kprobes.
 *
 * A function a pattern matched (KSTATS_TRACE_MATCHED, functions only,
 * KSTATS_FEAT_MATCHED): a user who asks for 'vfs_*' did not choose each
 * function, so the module refuses more than for a function named alone:
 * -ENXIO, a function without an ftrace call site (notrace, a .cold
 * fragment, assembly: a kretprobe there may not see a call's return);
 * -EDEADLK, the stack unwinder and what kstats' handlers call (their
 * calls from kstats' own probes would be missed, or recurse). -EINVAL:
 * the flag with start and end.
 *
 * Many functions as one probe (KSTATS_TRACE_DEFER, KSTATS_FEAT_GROUP): the
 * trace is made (its metrics, its checks, its function resolved) but not
 * attached: it records nothing until ATTACH attaches every trace this
 * file deferred, on fprobe as one fprobe over all their functions (its
 * handlers find each call's trace by the function's address, in a table
 * whose lookup does not grow with their number), on kretprobe one
 * kretprobe each. Functions only, of the kernel. -EINVAL: the flag with
 * start and end, a tracepoint or a user-space function; a mechanism other
 * than the one this file's deferred traces have. -EBUSY: this file
 * deferred a trace of that function already. A deferred trace goes with
 * its file if the file closes before ATTACH, whatever its flags.
 *
 * Cost: every call kstats records costs a calibrated call_cost_ps, every
 * call it declines a smaller skip_cost_ps (SNAPSHOT). sample_every N > 1
 * records 1 call in N on each CPU, always. Else budget_ppm (or, if 0, the
 * module parameter budget_ppm; sample_every 1 ignores both) hands the trace
 * to the governor: every ~500 ms it estimates the trace's cost on its
 * busiest CPU from the calls counted there and, over the budget, records
 * 1 in N with N chosen to fit; below half of it, every call again; when
 * declining every call would still cost more than the budget, it detaches
 * the trace (KSTATS_METRIC_DETACHED, trace_mode GOV_DETACHED). Sampled
 * calls record no GAP. -EINVAL also: budget_ppm above
 * KSTATS_TRACE_BUDGET_MAX, sample_every above KSTATS_TRACE_SAMPLE_MAX,
 * budget_ppm with a sample_every.
 *
 * Outliers (KSTATS_TRACE_OUTLIERS): calls that take at least a threshold
 * are kept, with their task and kernel stack, in a ring of outlier_ring
 * entries that overwrites the oldest (KSTATS_IOC_OUTLIERS reads it). The
 * threshold is outlier_ns, or the quantile outlier_ppm (millionths:
 * 999000 is p99.9) of the trace's own histogram, updated about once a
 * second. -EINVAL: neither or both of outlier_ns and outlier_ppm,
 * outlier_ppm 1000000 or more, outlier_ring above 65536, outlier_rate
 * above 1000000, any outlier field without the flag. -ERANGE: outlier_ns
 * below the probe floor (SNAPSHOT's floor_ns).
 *
 * Self time (KSTATS_TRACE_SELF, functions only): SELF-NAME gets, for each
 * call, its duration less the durations of the calls it made, on the same
 * task, to functions traced with KSTATS_TRACE_SELF (this one included, so
 * recursion too); time in untraced callees stays in self time. A call
 * outside task context (an interrupt), or whose task finds no free context
 * (4096 tasks at once), has no self time: a miss of SELF-NAME. Under
 * sampling, a declined callee's time stays in its caller's self time.
 *
 * Keys (key, nr_keys: VER3): a trace with a key records each call in NAME
 * and also in the metric of its key's value, NAME{KEY=VALUE}, of kind
 * KSTATS_KIND_KEY. The first nr_keys distinct values (0:
 * KSTATS_KEYS_DEFAULT) get a metric each, made when the value is first
 * seen and in the registry from the next LIST, or SNAPSHOT or CONTROL of
 * that name, on; values past them go to NAME{KEY=other}. The key's
 * metrics go with the trace. A metric made from user space can never have
 * such a name ('{' is not allowed). Keys:
 * - KSTATS_KEY_ERRNO (functions only): the return value, "errno=0" when
 *   it is no error and "errno=-N" when it is -N, -4095..-1 (the kernel's
 *   error values), as a 64-bit value or, with the upper 32 bits zero (an
 *   int returned), as a 32-bit one; so an unsigned 64-bit return of
 *   4294963201..4294967295 reads as an error too.
 * - KSTATS_KEY_CGROUP (functions, sections and points): the calling task's
 *   cgroup v2 at the call's end (a point's hit: in an interrupt, the
 *   interrupted task's), "cgroup=ID", ID its cgroup id (the inode number
 *   of its directory in the cgroup2 file system; 1 is the root).
 * - KSTATS_KEY_PID, KSTATS_KEY_TID (KSTATS_FEAT_TASK_KEYS; functions and
 *   sections): the calling task's process id ("pid=ID", its tgid) or thread
 *   id ("tid=ID") at the call's end, as the initial pid namespace numbers
 *   them; in an interrupt, the interrupted task's (0: the idle task).
 * - KSTATS_KEY_CPU (KSTATS_FEAT_TASK_KEYS): the CPU the call ended on,
 *   "cpu=N".
 * - KSTATS_KEY_COMM (KSTATS_FEAT_COMM_KEY; functions and sections): the
 *   calling task's name (comm, up to its NUL) at the call's end, as
 *   lowercase hex of its bytes: "comm=6e67696e78" for "nginx" (names
 *   allow no other bytes). Calls are told apart by a keyed 64-bit SipHash
 *   of the name (its key random at load, so no caller can pick a name
 *   that collides with another's); key_values are refused for it.
 * - KSTATS_KEY_STACK (KSTATS_FEAT_STACK_KEY; functions and sections): the
 *   kernel stack at the call's end, from the traced function's caller up
 *   (a section's end: from the code that reached it), "stack=" and 16 hex
 *   digits of a keyed 64-bit SipHash of its frames; SNAPSHOT gives the
 *   frames of each such metric to privileged readers. A call whose stack
 *   cannot be taken (a capture already running on its CPU: an NMI's, or
 *   one nested in the unwinder) goes to NAME{stack=other}. With
 *   KSTATS_TRACE_OUTLIERS, only the calls at or over the outlier threshold
 *   are keyed: every other call pays no stack walk and is in NAME alone.
 *   key_values are refused for it. A user-space function's
 *   (KSTATS_FEAT_UPROBE_STACK) is its user stack, as its outliers' (by the
 *   program's frame pointers): frames_flags has KSTATS_OUTLIER_USER and
 *   frames_tgid the process; the same path in two processes is two keys
 *   (their addresses differ). Not on a USDT section (-EINVAL).
 * -EINVAL: an unknown key, nr_keys above KSTATS_KEYS_MAX or without a
 * key, KSTATS_KEY_ERRNO on a section or a point, with KSTATS_KEY_ERRNO a NAME
 * over 50 bytes, with KSTATS_KEY_CGROUP one over 34 (the longest
 * "{cgroup=ID}"), with KSTATS_KEY_PID or KSTATS_KEY_TID one over 50
 * ("{pid=4194304}"), with KSTATS_KEY_CPU one over 52 ("{cpu=99999}"),
 * with KSTATS_KEY_COMM one over 26 ("{comm=" + 30 hex digits + "}"), with
 * KSTATS_KEY_STACK one over 39 ("{stack=" + 16 hex digits + "}").
 *
 * Key values (key_values: VER5, KSTATS_FEAT_KEY_VALUES): first come, first
 * kept lets anyone who can make the traced calls take every metric (a
 * delegated cgroup subtree; error returns of their own) and push later
 * values, root's too, into NAME{KEY=other}. key_values instead points to
 * nr_keys __u64 values fixed at TRACE, in order: each has its metric from
 * the start, and every other value goes to NAME{KEY=other}. KSTATS_KEY_ERRNO
 * values are N for -N (0: no error; at most 4095), KSTATS_KEY_CGROUP values
 * cgroup ids (not 0), KSTATS_KEY_PID and KSTATS_KEY_TID ids (at most
 * 4194304, PID_MAX_LIMIT), KSTATS_KEY_CPU CPU numbers (below nr_cpu_ids). -EINVAL: key_values without a key or with nr_keys 0,
 * a value out of range or given twice; -EFAULT: key_values unreadable.
 *
 * Cgroup filter (KSTATS_TRACE_CGROUP, VER4): only calls made by tasks in
 * the cgroup v2 directory open at cgroup_fd, or below it, at the call's
 * start (a section's: at its start and end); in an interrupt, the
 * interrupted task's. The trace holds the cgroup: removing the directory
 * leaves it recording nothing. -EBADF: cgroup_fd is not an open cgroup v2
 * directory (a cgroup v1 one included); -ENOENT: it was removed. -EINVAL:
 * cgroup_fd or cgroup_pad not 0 without the flag.
 */
#define KSTATS_TRACE_AUTOREMOVE	(1U << 0)	/* untrace when this file closes */
#define KSTATS_TRACE_PID	(1U << 1)	/* only the task pid */
#define KSTATS_TRACE_TGID	(1U << 2)	/* only the process tgid */
#define KSTATS_TRACE_CPUS	(1U << 3)	/* only the CPUs in the cpus bitmap */
#define KSTATS_TRACE_OUTLIERS	(1U << 4)	/* capture outliers (below) */
#define KSTATS_TRACE_SPLIT	(1U << 5)	/* + ONCPU-, RUNQ-, BLOCKED-NAME */
#define KSTATS_TRACE_SELF	(1U << 6)	/* + SELF-NAME: less traced callees */
#define KSTATS_TRACE_CGROUP	(1U << 7)	/* only tasks under cgroup_fd */
#define KSTATS_TRACE_MATCHED	(1U << 8)	/* func came from a pattern (below) */
#define KSTATS_TRACE_DEFER	(1U << 9)	/* attached by ATTACH, with others (below) */
#define KSTATS_KEY_NONE		0
#define KSTATS_KEY_ERRNO	1	/* NAME{errno=0}, NAME{errno=-11}, ... */
#define KSTATS_KEY_CGROUP	2	/* NAME{cgroup=1}, NAME{cgroup=4242}, ... */
#define KSTATS_KEY_COMM		3	/* NAME{comm=6e67696e78}: the task's name, hex */
#define KSTATS_KEY_PID		4	/* NAME{pid=1234}: the process (tgid) */
#define KSTATS_KEY_TID		5	/* NAME{tid=1235}: the thread */
#define KSTATS_KEY_CPU		6	/* NAME{cpu=3}: the CPU the call ended on */
#define KSTATS_KEY_STACK	7	/* NAME{stack=<16 hex>}: the caller's kernel stack */
#define KSTATS_KEYS_DEFAULT	8	/* values with a metric of their own */
#define KSTATS_KEYS_MAX		64
#define KSTATS_OUTLIER_RING_DEFAULT	256
#define KSTATS_OUTLIER_RING_MAX		65536
#define KSTATS_OUTLIER_RATE_DEFAULT	100	/* captures per second per CPU */
#define KSTATS_OUTLIER_RATE_MAX		1000000
/*
 * TRACE's expr (VER6, KSTATS_FEAT_EXPR, functions, tracepoints, sections): a value
 * recorded per call, and/or a predicate that decides which calls are
 * recorded.
 *
 * An operand is read in bounded steps: the source (argument @index, 0 the
 * first, read at entry; or the return value, read at exit; or the call's
 * duration in ns, at exit, in predicates only), then @nr_loads reads
 * through pointers: read i loads from (the previous value + offsets[i]),
 * 8 bytes (a pointer) for all but the last, @size bytes for the last. With
 * no loads, the value is the register's low @size bytes. Then it is
 * zero-extended, or sign-extended with KSTATS_OPERAND_SIGNED. Every read
 * goes through copy_from_kernel_nofault(): a read that faults (a NULL in
 * the chain) ends that call, counted in SNAPSHOT's faults, never recorded.
 *
 * Value (KSTATS_EXPR_VALUE): the value metric gets one sample per recorded
 * call: NAME alone, or VALUE-NAME beside the duration in NAME with
 * KSTATS_EXPR_TIME. A signed value below 0 is not folded into a huge
 * unsigned one: its magnitude goes to NEG-NAME instead. Both are of kind
 * KSTATS_KIND_VALUE with KSTATS_METRIC_VALUE (as are a keyed value
 * trace's NAME{KEY=VALUE}); GAP-NAME stays a time. SNAPSHOT's hits are
 * the trace's on NAME, and the calls each holds on VALUE-NAME and NEG-NAME.
 *
 * Predicate (nr_terms > 0): terms[0..nr_terms-1], each "operand CMP
 * constant" (signed compare when the operand is signed); a term with
 * KSTATS_TERM_OR ends an && group, and the predicate holds when any group
 * holds. Terms reading only arguments are decided at entry (a call that
 * fails them costs no exit handler); the rest at exit. A call the predicate
 * declines is counted in SNAPSHOT's rejected, and is neither a hit nor a
 * miss.
 *
 * Order: at entry the argument terms, group by group (a group stops at
 * its first false term, the predicate at the first group that holds with
 * nothing left for the exit), then an argument value; at exit the exit
 * terms of the groups still open, then a return value. Only reads made
 * can fault; the first that does ends the call. Sampling comes first: a
 * call it declines is not evaluated. GAP-NAME runs from the end of a
 * recorded call to the start of the next call not declined at entry.
 *
 * Tracepoints (KSTATS_MECH_TRACEPOINT; not on a CFI kernel): the sources
 * are the event's TP_PROTO arguments as its probe receives them, after its
 * data: x86-64 passes 5 in registers, so @index is 0..4 (a 6th and later
 * are on the stack). The module does not know how many arguments an event
 * has: past them a register holds whatever was left there (kstatsctl reads
 * the count from BTF's btf_trace_EVENT).
 * An event's record (its format fields, which its TP_fast_assign writes)
 * is a source too, at "tp:system:event" only: KSTATS_OPERAND_FIELD (the
 * point's, or the start's) and KSTATS_OPERAND_END_FIELD (the end's) hold
 * the record's address, so @nr_loads is at least 1 and offsets[0] the
 * field's offset in the record (tracefs' format, or BTF's struct
 * trace_event_raw_*). An end read by its record is attached through an
 * in-kernel perf counter on the event (every hit: a period of 1), not a
 * probe of its tracepoint, and has no arguments then: one end's operands
 * are all fields or all arguments. Such a trace has no probe floor and no
 * calibrated cost (SNAPSHOT's floor_ns 0, KSTATS_TRACE_STATE_UNCALIBRATED):
 * perf builds the record, which kstats cannot time apart.
 * - A point: func "tp:[system:]event" (mechanism AUTO or TRACEPOINT) with
 *   a value (KSTATS_EXPR_VALUE, never KSTATS_EXPR_TIME): NAME gets the
 *   value at every hit its predicate holds, from any context (an interrupt
 *   too), NEG-NAME a negative one's magnitude; no GAP-NAME. Sources:
 *   KSTATS_OPERAND_ARG or KSTATS_OPERAND_FIELD. Keyed by KSTATS_KEY_CGROUP, NAME{cgroup=ID}
 *   gets what NAME gets (a point has no return value: no KSTATS_KEY_ERRNO).
 * - A section between tracepoints (start and end "tp:..."): the start's
 *   arguments (KSTATS_OPERAND_ARG), read at the start and kept with the
 *   task's start as a function's entry data, and the end's
 *   (KSTATS_OPERAND_END_ARG), read at the end, with the duration (or their
 *   records: KSTATS_OPERAND_FIELD, KSTATS_OPERAND_END_FIELD). "Entry"
 *   above is the start, "exit" the end. A start the predicate declines, or
 *   whose read faults, starts nothing (counted as rejected or a fault), and
 *   ends the task's earlier start, never ended, as a miss.
 * Sections between functions (KSTATS_MECH_KPROBE, both ends at their
 * function's entry): the same, the sources being the start function's
 * arguments at its entry (KSTATS_OPERAND_ARG) and the end function's at
 * its entry (KSTATS_OPERAND_END_ARG), @index 0..5, as a function's; no
 * return value. A module without this refuses the expr with -EINVAL.
 * USDT probes (KSTATS_FEAT_USDT_EXPR; KSTATS_MECH_UPROBE, KSTATS_UPROBE_POINT
 * or _START and _END entries): a probe's arguments are where its note says
 * they are, a register or memory at a register plus an offset, so the
 * sources are the user's registers at the probe, x86-64's DWARF numbers
 * (0 rax, 1 rdx, 2 rcx, 3 rbx, 4 rsi, 5 rdi, 6 rbp, 7 rsp, 8..15 r8..r15)
 * in @index: KSTATS_OPERAND_REG at a point or a section's start,
 * KSTATS_OPERAND_END_REG at a section's end; and a section's duration.
 * A point is as a tracepoint's: a value at every hit, nothing timed.
 * Loads at any uprobe (KSTATS_FEAT_UPROBE_LOADS; a user-space function's
 * operands too) read the program's memory through copy_from_user_nofault():
 * a page not present is a fault (counted), never waited for.
 *
 * With other options: a value alone records no duration, so outliers,
 * KSTATS_TRACE_SPLIT and KSTATS_TRACE_SELF need KSTATS_EXPR_TIME (they
 * apply to the duration in NAME); with a predicate alone they see only
 * the calls recorded. A key's metrics hold what NAME holds (a value
 * alone: the value; a negative one is only in NEG-NAME). The governor
 * costs a call with every read of the expr made, and counts faulted and
 * declined calls as recorded ones.
 *
 * -EINVAL: an unknown source, flag or compare, an argument index above 5
 * (above 4 at a tracepoint or in a section between tracepoints), a source the site has not (the return value
 * at a tracepoint or a section; the end's argument but in a section; the
 * duration at a point; a field but at a tracepoint, the end's field but
 * in a section between tracepoints), a field without a load, with an
 * index, or at an event named without its system ("tp:event"), an
 * argument and a field of the same end, a point (a "tp:" func) without an
 * expr, without a value, with KSTATS_EXPR_TIME, KSTATS_KEY_ERRNO, outliers,
 * KSTATS_TRACE_SPLIT or KSTATS_TRACE_SELF, or a mechanism other than AUTO
 * or TRACEPOINT,
 * a size not 1, 2, 4 or 8, nr_loads above KSTATS_EXPR_LOADS, loads on the
 * duration, the duration as the value, nr_terms above KSTATS_EXPR_TERMS,
 * neither a value nor a term, KSTATS_EXPR_TIME without a value, a NAME over 57 bytes with KSTATS_EXPR_TIME (VALUE-NAME)
 * or over 59 with a signed value (NEG-NAME), a value alone with
 * KSTATS_TRACE_OUTLIERS, KSTATS_TRACE_SPLIT or KSTATS_TRACE_SELF, an index
 * on a source other than an argument or a register, a register above 15
 * or at a site other than a USDT probe, nonzero pad or reserved, nonzero
 * offsets past nr_loads, terms past nr_terms or a value without
 * KSTATS_EXPR_VALUE that are not all zero.
 * -EFAULT: expr unreadable. All checked before the privilege check.
 */
#define KSTATS_OPERAND_ARG	1	/* argument index, at entry */
#define KSTATS_OPERAND_RETVAL	2	/* the return value, at exit */
#define KSTATS_OPERAND_DURATION	3	/* the call's duration, ns (predicates) */
#define KSTATS_OPERAND_END_ARG	4	/* a section end's argument, at the end */
#define KSTATS_OPERAND_FIELD	5	/* a tracepoint's record (the start's) */
#define KSTATS_OPERAND_END_FIELD 6	/* a section end's record, at the end */
#define KSTATS_OPERAND_REG	7	/* a USDT probe's register: the point's, the start's */
#define KSTATS_OPERAND_END_REG	8	/* a USDT section end's register, at the end */
#define KSTATS_OPERAND_REGS	16	/* x86-64's registers, DWARF numbers 0..15 */
#define KSTATS_OPERAND_SIGNED	(1U << 0)
#define KSTATS_EXPR_LOADS	8
#define KSTATS_EXPR_TERMS	8

struct kstats_operand {
	__u8 source;		/* KSTATS_OPERAND_* */
	__u8 index;		/* ARG, END_ARG: 0..5 (a tracepoint's: 0..4); REG: 0..15 */
	__u8 nr_loads;		/* 0..KSTATS_EXPR_LOADS */
	__u8 size;		/* bytes: 1, 2, 4 or 8 */
	__u8 flags;		/* KSTATS_OPERAND_SIGNED */
	__u8 pad[3];
	__s32 offsets[KSTATS_EXPR_LOADS];
};

#define KSTATS_CMP_EQ		1
#define KSTATS_CMP_NE		2
#define KSTATS_CMP_LT		3
#define KSTATS_CMP_LE		4
#define KSTATS_CMP_GT		5
#define KSTATS_CMP_GE		6
#define KSTATS_CMP_AND		7	/* (operand & constant) != 0 */
#define KSTATS_TERM_OR		(1U << 0)	/* the next term starts a new group */

struct kstats_term {
	struct kstats_operand operand;
	__u32 cmp;		/* KSTATS_CMP_* */
	__u32 flags;		/* KSTATS_TERM_OR */
	__u64 constant;		/* signed compares read it as __s64 */
};

#define KSTATS_EXPR_VALUE	(1U << 0)	/* value is recorded */
#define KSTATS_EXPR_TIME	(1U << 1)	/* ... and the duration too */

struct kstats_expr {
	__u32 flags;		/* KSTATS_EXPR_* */
	__u32 nr_terms;		/* 0..KSTATS_EXPR_TERMS */
	struct kstats_operand value;	/* with KSTATS_EXPR_VALUE, else zero */
	struct kstats_term terms[KSTATS_EXPR_TERMS];
	__u64 reserved[2];
};

/*
 * User-space functions (KSTATS_MECH_UPROBE, VER7, KSTATS_FEAT_UPROBE): the
 * function is named by an open file (fd, opened for reading by the caller:
 * its permissions and mount namespace pick the file) and the file offset
 * of its first instruction; func is only the label LIST shows
 * ("/usr/lib/x86_64-linux-gnu/libc.so.6:malloc"): the kernel resolves no
 * string. Every process mapping the file is traced, or with
 * KSTATS_TRACE_TGID (or _PID) only that process (or thread): the others
 * get no breakpoint. Each call is timed from its entry to its return, by a
 * per-thread stack of calls in flight (16 deep; deeper calls are misses).
 * A call that never returns (longjmp or an exception out of it, the thread
 * exiting or exec'ing inside it) is counted as a miss once the thread next
 * enters or returns from a traced call, or exits; it is never timed into a
 * later call. With KSTATS_INFO_UPROBE_SESSION (6.13+) the kernel hands
 * each return its own entry; before, a return is matched by its stack
 * pointer (x86-64: the entry's + 8), as uprobes itself matches them.
 * The module cannot call user code, so it cannot measure a uprobe's floor
 * and cost as it does a kernel probe's. The caller does
 * (KSTATS_FEAT_UPROBE_COST): on a function (or a section) of its own,
 * traced as the target is, it times calls probed and unprobed and passes
 * user_floor_ns (SNAPSHOT's floor_ns), user_call_ps and user_skip_ps (the
 * governor's costs, SNAPSHOT's call_cost_ps and skip_cost_ps; a skip cost
 * above the call cost is taken as the call cost). Left 0, the floor is
 * not known (floor_ns 0) and a budget_ppm governs nothing: the trace
 * records every call, flagged KSTATS_TRACE_STATE_UNCALIBRATED, as a kernel
 * trace whose cost could not be measured. -EINVAL: any of the three with
 * another mechanism, user_floor_ns above KSTATS_TRACE_USER_COST_MAX,
 * either cost above 1000 times it, a skip cost without a call cost.
 * Before KSTATS_FEAT_UPROBE_COST a budget_ppm was -EOPNOTSUPP. Not yet with
 * user functions (-EOPNOTSUPP): nr_uprobes other than 1
 * (KSTATS_UPROBE_FUNC entries); before KSTATS_FEAT_UPROBE_LOADS, an expr
 * operand with loads.
 * An expr (KSTATS_FEAT_UPROBE_EXPR; before it, -EOPNOTSUPP) reads the
 * user's registers: argument @index 0..5 at entry (x86-64 SysV: rdi, rsi,
 * rdx, rcx, r8, r9), the return value at the return, the duration; the
 * rest as for a kernel function. The trace is on the file's inode: a file
 * renamed over the path leaves it on the old file.
 * Errors: -EBADF: fd not open, or not for reading. -EINVAL: a uprobes
 * pointer without KSTATS_MECH_UPROBE or the reverse, uprobe_size below
 * KSTATS_UPROBE_SIZE_VER0 or not a multiple of 8, no func label, nonzero
 * reserved, an odd ref_ctr_offset, an offset past the file's end, not a
 * regular file. -EOPNOTSUPP: no uprobes in this kernel (INFO's mechanisms
 * say), an instruction uprobes cannot probe. -ESRCH: the process is gone.
 * All but -EBADF and the file's checks come before the privilege check,
 * which is kernel tracing's (CAP_PERFMON or CAP_SYS_ADMIN on the opener).
 *
 * Sections between USDT probes (KSTATS_MECH_UPROBE with start and end as
 * labels, no func): nr_uprobes entries, at least one KSTATS_UPROBE_START
 * and one KSTATS_UPROBE_END (a probe compiled in several places is several
 * entries), at most KSTATS_UPROBES_MAX. Each entry is a breakpoint of its
 * own (no return probe), with its semaphore's ref_ctr_offset if the probe
 * has one: the kernel raises it by one per breakpoint in each process, so
 * the program's PROVIDER_NAME_ENABLED() is true while traced and only then.
 * Sections pair per thread as kernel sections do: a start that comes again
 * before its end loses the first (a miss); an end without a start counts
 * nowhere; a thread that exits inside a section leaves its start unpaired,
 * never paired with a later thread (a miss only once its table slot is
 * taken back, after 10 s, by another start). The costs a caller passes
 * are then a section's: a start and an end. An expr (KSTATS_FEAT_USDT_EXPR;
 * before it, -EOPNOTSUPP) reads the registers at each end (see the expr).
 *
 * A USDT point (KSTATS_FEAT_USDT_EXPR): func the label, nr_uprobes
 * KSTATS_UPROBE_POINT entries (a probe's places) and an expr with a value,
 * recorded at every hit, as at a tracepoint alone: nothing is timed, so
 * the costs a caller passes are one hit's (or none: budget_ppm then
 * governs nothing, as above).
 * INFO lists KSTATS_FEAT_USDT where the module pairs them.
 * Errors as for functions, and: -EINVAL: roles mixed (FUNC, POINT, and
 * START with END are three kinds), no start or no end entry, func given to
 * a section or not to a point, a point without a value, an unknown role,
 * two entries at one place of one file, a REG source but at a USDT probe;
 * -E2BIG: more than KSTATS_UPROBES_MAX entries.
 */
#define KSTATS_UPROBE_FUNC	0	/* time the function entered here */
#define KSTATS_UPROBE_START	1	/* a section starts here (a USDT probe) */
#define KSTATS_UPROBE_END	2	/* and ends here */
#define KSTATS_UPROBE_POINT	3	/* a value at every hit (a USDT probe) */
#define KSTATS_UPROBES_MAX	64	/* entries of one trace; more: -E2BIG */
struct kstats_uprobe {
	__s32 fd;		/* the ELF file, open for reading */
	__u32 role;		/* KSTATS_UPROBE_* */
	__u64 offset;		/* file offset of the probed instruction */
	__u64 ref_ctr_offset;	/* file offset of a USDT semaphore (__u16), or 0 */
	__u64 reserved;		/* 0 */
};
#define KSTATS_UPROBE_SIZE_VER0	32

struct kstats_trace {
	__u8 name[KSTATS_NAME_LEN];	/* metric; GAP-<name> too for a function */
	__u64 func;		/* user pointer: "[module:]symbol", or 0 */
	__u64 start;		/* user pointer: section start, or 0 */
	__u64 end;		/* user pointer: section end, or 0 */
	__u32 frac_bits;
	__u32 mechanism;	/* KSTATS_MECH_* */
	__u32 flags;		/* KSTATS_TRACE_* */
	__u32 maxactive;	/* calls in flight at once; 0: default */
	__s64 pid;		/* with KSTATS_TRACE_PID */
	__s64 tgid;		/* with KSTATS_TRACE_TGID */
	__u64 cpus;		/* user pointer to bytes: CPU n is bit n % 8 of byte n / 8 */
	__u32 cpus_len;		/* bytes at cpus */
	__u32 pad;
	__u32 budget_ppm;	/* governor budget, ppm of one CPU; 0: module default */
	__u32 sample_every;	/* 0: see budget_ppm; 1: every call, no governor; N: 1 in N */
	/* Outliers, with KSTATS_TRACE_OUTLIERS (VER2). */
	__u64 outlier_ns;	/* threshold in ns, or 0 with outlier_ppm */
	__u32 outlier_ppm;	/* threshold: this quantile, in millionths */
	__u32 outlier_ring;	/* entries kept; 0: KSTATS_OUTLIER_RING_DEFAULT */
	__u32 outlier_rate;	/* captures per second per CPU; 0: the default */
	__u32 outlier_pad;
	/* A key, and how many of its values get a metric (VER3). */
	__u32 key;		/* KSTATS_KEY_* */
	__u32 nr_keys;		/* 0: KSTATS_KEYS_DEFAULT */
	/* With KSTATS_TRACE_CGROUP (VER4). */
	__s32 cgroup_fd;	/* an open cgroup v2 directory */
	__u32 cgroup_pad;
	/* The key's values, fixed at TRACE (VER5): user pointer to nr_keys __u64s, or 0. */
	__u64 key_values;
	/* A value and/or a predicate (VER6): user pointer to struct kstats_expr, or 0. */
	__u64 expr;
	/* KSTATS_MECH_UPROBE (VER7): user pointer to nr_uprobes struct kstats_uprobe. */
	__u64 uprobes;
	__u32 nr_uprobes;	/* 1: a function; a section: its START and END entries */
	__u32 uprobe_size;	/* sizeof(struct kstats_uprobe) the caller knows */
	/*
	 * KSTATS_MECH_UPROBE (VER8, KSTATS_FEAT_UPROBE_COST): what the caller
	 * measured on a uprobe of its own, as the module measures kernel
	 * probes on its own functions; 0: not measured.
	 */
	__u64 user_floor_ns;	/* what it reports for an empty function (or section) */
	__u64 user_call_ps;	/* what a recorded call costs */
	__u64 user_skip_ps;	/* what a call declined by sampling costs */
	__u64 reserved[1];
};
#define KSTATS_TRACE_SIZE_VER0	136
#define KSTATS_TRACE_SIZE_VER1	144	/* up to sample_every */
#define KSTATS_TRACE_SIZE_VER2	168	/* up to outlier_pad */
#define KSTATS_TRACE_SIZE_VER3	176	/* up to nr_keys */
#define KSTATS_TRACE_SIZE_VER4	184	/* up to cgroup_pad */
#define KSTATS_TRACE_SIZE_VER5	192	/* up to key_values */
#define KSTATS_TRACE_SIZE_VER6	200	/* up to expr */
#define KSTATS_TRACE_SIZE_VER7	216	/* up to uprobe_size */
#define KSTATS_TRACE_SIZE_VER8	240	/* up to user_skip_ps */
#define KSTATS_TRACE_USER_COST_MAX	1000000	/* user_floor_ns, and ps/1000 of the costs: 1 ms */
#define KSTATS_TRACE_BUDGET_MAX	1000000		/* ppm: one whole CPU */
#define KSTATS_TRACE_SAMPLE_MAX	(1U << 20)

/*
 * KSTATS_IOC_UNTRACE: detach a trace, wait for its handlers in flight, and
 * delete its metrics. -ENOENT: no trace of that name. If the kernel does
 * not let go of the probe (unregister_fprobe() can fail, e.g. -ENOMEM),
 * that error comes back and nothing changes: the trace stays, attached
 * and recording; UNTRACE again to retry.
 */
struct kstats_untrace {
	__u8 name[KSTATS_NAME_LEN];
	__u32 flags;		/* none yet: 0 */
	__u32 pad;
	__u64 reserved[2];
};
#define KSTATS_UNTRACE_SIZE_VER0	72

/*
 * KSTATS_IOC_ATTACH (KSTATS_FEAT_GROUP): attach every trace this file
 * deferred (TRACE with KSTATS_TRACE_DEFER); on fprobe, as one fprobe. All
 * or none: on an error none is attached, and they stay deferred (UNTRACE
 * them, or close the file). A deferred trace whose module went away
 * meanwhile is skipped, detached. -ENOENT: this file deferred none.
 * -EINVAL: flags or reserved not 0. -EPERM: as TRACE. The errors of
 * attaching a probe (-ENOMEM, -EBUSY, ...).
 * UNTRACE of one trace of a group leaves the others recording: its
 * function stays probed, its calls ignored, until the group's last trace
 * goes. SNAPSHOT's group_misses are the calls of any of the group's
 * functions the mechanism could not follow: they are no one function's.
 */
struct kstats_attach {
	__u32 flags;		/* none yet: 0 */
	__u32 attached;		/* out: traces attached */
	__u64 reserved[3];
};
#define KSTATS_ATTACH_SIZE_VER0	8

/*
 * KSTATS_IOC_OUTLIERS: the outliers a trace kept, oldest first. The caller
 * passes an array of nr_entries entries of entry_size bytes (at least
 * KSTATS_OUTLIER_SIZE_VER0, a multiple of 8, at most 4096), as LIST: each
 * written up to the smaller of entry_size and the kernel's size, the rest
 * zeroed; nr_entries comes back as the number written. -ENOSPC: the array
 * is too small; nr_entries says how many are needed (nothing else is
 * written, but the counters are). -ENOENT: no such metric. -EINVAL: a
 * metric that is not a trace capturing outliers, bad entry_size.
 * Counters are since the trace began or its metric was last reset:
 * captured counts every outlier kept (also those since overwritten),
 * overwritten those the ring no longer holds, ratelimited those not kept
 * for the rate limit. frames[] are kernel addresses: only a file opened
 * with CAP_PERFMON or CAP_SYS_ADMIN gets them; for others they are zero,
 * nr_frames says how many there were, and out_flags has
 * KSTATS_OUTLIERS_NOADDR. retval (entry VER1) is the return register as
 * the function left it, the whole of it (an int's upper half is whatever
 * the ABI leaves there), with KSTATS_OUTLIER_RETVAL; a section has none,
 * and an unprivileged file gets none (it may be a kernel pointer). A
 * user-space function's or USDT section's entry (KSTATS_OUTLIER_USER;
 * INFO: KSTATS_FEAT_UPROBE_OUTLIERS) has user addresses of process tgid:
 * a function's, where its call returns to, then (KSTATS_FEAT_UPROBE_STACK)
 * each caller's return address up the program's frame-pointer chain, as
 * perf's user callchains walk it, until a frame is not above the last or
 * cannot be read without faulting (code built without frame pointers
 * breaks the chain, and may leave a wrong frame); one frame alone is
 * flagged KSTATS_OUTLIER_TRUNCATED. Before KSTATS_FEAT_UPROBE_STACK, that
 * one frame alone. A section's: none.
 * Needs only an open descriptor.
 */
#define KSTATS_OUTLIER_FRAMES	32
#define KSTATS_OUTLIER_TRUNCATED (1U << 0)	/* frames[0] is the caller; no more known */
#define KSTATS_OUTLIER_NOADDR	(1U << 1)	/* frames withheld: no privilege */
#define KSTATS_OUTLIER_NOTASK	(1U << 2)	/* ended outside task context */
#define KSTATS_OUTLIER_RETVAL	(1U << 3)	/* a function's: retval is what it returned */
#define KSTATS_OUTLIER_USER	(1U << 4)	/* frames: user addresses of tgid's */
struct kstats_outlier {
	__u64 seq;		/* 1 for the first outlier since the trace began */
	__u64 time_ns;		/* CLOCK_MONOTONIC at the end of the call */
	__u64 duration_ns;
	__s32 pid;		/* in the initial pid namespace */
	__s32 tgid;
	__u32 cpu_start;	/* the CPU at entry */
	__u32 cpu_end;		/* and at the end */
	__u8 comm[16];		/* NUL-terminated */
	__u32 nr_frames;	/* in frames[] */
	__u32 flags;		/* KSTATS_OUTLIER_* */
	__u64 frames[KSTATS_OUTLIER_FRAMES];	/* [0]: the caller's return address */
	__u64 retval;		/* the return register, whole: KSTATS_OUTLIER_RETVAL */
};
#define KSTATS_OUTLIER_SIZE_VER0	320	/* up to frames */
#define KSTATS_OUTLIER_SIZE_VER1	328	/* up to retval */

#define KSTATS_OUTLIERS_NOADDR	(1U << 0)	/* out_flags: no frames (privilege) */
struct kstats_outliers {
	__u8 name[KSTATS_NAME_LEN];	/* the trace's NAME */
	__u64 entries;		/* user pointer to the array */
	__u32 entry_size;	/* sizeof(struct kstats_outlier) */
	__u32 nr_entries;	/* in: capacity; out: written, or needed */
	__u32 flags;		/* none yet: 0 */
	__u32 out_flags;	/* out: KSTATS_OUTLIERS_* */
	__u64 captured;		/* out */
	__u64 overwritten;	/* out */
	__u64 ratelimited;	/* out */
	__u64 threshold_ns;	/* out: now; 0 while a quantile has too few samples */
	__u32 capacity;		/* out: the ring's entries */
	__u32 threshold_ppm;	/* out: the quantile asked for, or 0 */
	__u64 time_ns;		/* out: CLOCK_MONOTONIC when read */
	__u64 realtime_ns;	/* out: CLOCK_REALTIME at the same instant */
	__u64 head;		/* out: the newest seq given (maybe still being written) */
	__u64 reserved[3];
};
#define KSTATS_OUTLIERS_SIZE_VER0	144	/* up to realtime_ns */
#define KSTATS_OUTLIERS_SIZE_VER1	152	/* up to head */

#define KSTATS_IOC_INFO		_IOR(KSTATS_IOC_MAGIC, 0x00, struct kstats_info)
#define KSTATS_IOC_CREATE	_IOW(KSTATS_IOC_MAGIC, 0x01, struct kstats_create)
#define KSTATS_IOC_DELETE	_IOW(KSTATS_IOC_MAGIC, 0x02, struct kstats_delete)
#define KSTATS_IOC_LIST		_IOWR(KSTATS_IOC_MAGIC, 0x03, struct kstats_list)
#define KSTATS_IOC_CONTROL	_IOW(KSTATS_IOC_MAGIC, 0x04, struct kstats_control)
#define KSTATS_IOC_SNAPSHOT	_IOWR(KSTATS_IOC_MAGIC, 0x05, struct kstats_snapshot)
#define KSTATS_IOC_RECORD	_IOW(KSTATS_IOC_MAGIC, 0x06, struct kstats_record)
#define KSTATS_IOC_TRACE	_IOW(KSTATS_IOC_MAGIC, 0x07, struct kstats_trace)
#define KSTATS_IOC_UNTRACE	_IOW(KSTATS_IOC_MAGIC, 0x08, struct kstats_untrace)
#define KSTATS_IOC_OUTLIERS	_IOWR(KSTATS_IOC_MAGIC, 0x09, struct kstats_outliers)
#define KSTATS_IOC_ATTACH	_IOWR(KSTATS_IOC_MAGIC, 0x0a, struct kstats_attach)

#endif /* _UAPI_LINUX_KSTATS_H */

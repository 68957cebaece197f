// SPDX-License-Identifier: GPL-2.0
/*
 * TRACE and UNTRACE: their argument cases (run by abi_args.c's runner,
 * which also checks that exactly the metrics each result implies exist),
 * and what a trace is through the rest of the ABI: its metrics in LIST
 * and SNAPSHOT, DELETE refusing them, CONTROL, EEXIST, AUTOREMOVE.
 *
 * Every trace here times TRACE_FUNC (vfs_read), or the section from it to
 * TRACE_FUNC2 (vfs_write), or between two kmem tracepoints: every lane's
 * kernel has them. Every trace is UNTRACEd before the test ends.
 */
#include "abi_test.h"

#define NAME_59 "abcdefghijklmnopqrstuvwxyz0123456789ABCDEFGHIJKLMNOPQRSTUVW"
#define NAME_60 NAME_59 "X"
#define NAME_63 NAME_60 "Y.Z"
_Static_assert(sizeof(NAME_59) == TRACE_NAME_MAX + 1 && sizeof(NAME_63) == 64, "name lengths");

#define TSET(m, v)	SET(kstats_trace, m, v)
#define USET(m, v)	SET(kstats_untrace, m, v)
#define MECH(m)		TSET(mechanism, KSTATS_MECH_##m)
#define STR(s)		PTR_STR(STR_##s)
#define CPUS(p)		TSET(flags, KSTATS_TRACE_CPUS), TSET(cpus, p)

const struct tcase trace_cases[] = {
	/* Fields that must be 0, and the numbers' ranges. */
	{ "flags bit 4 (unknown)", C_TRACE, .set = { TSET(flags, 1u << 4) }, .expect = EINVAL },
	{ "flags bit 10 (unknown)", C_TRACE, .set = { TSET(flags, 1u << 10) }, .expect = EINVAL },
	/* A deferred trace (KSTATS_TRACE_DEFER): a kernel function only (abi_group.c has the rest). */
	{ "DEFER on a function", C_TRACE, .set = { TSET(flags, KSTATS_TRACE_DEFER) }, .expect = OK },
	{ "DEFER on a section", C_TRACE, .how = H_SECTION,
	  .set = { TSET(flags, KSTATS_TRACE_DEFER) }, .expect = EINVAL },
	{ "DEFER with mechanism uprobe", C_TRACE,
	  .set = { TSET(flags, KSTATS_TRACE_DEFER), MECH(UPROBE) }, .expect = EINVAL },
	/* A pattern's match (KSTATS_TRACE_MATCHED): a kernel function only. */
	{ "MATCHED on a function", C_TRACE, .set = { TSET(flags, KSTATS_TRACE_MATCHED) }, .expect = OK },
	{ "MATCHED on a section", C_TRACE, .how = H_SECTION,
	  .set = { TSET(flags, KSTATS_TRACE_MATCHED) }, .expect = EINVAL },
	{ "MATCHED with mechanism uprobe", C_TRACE,
	  .set = { TSET(flags, KSTATS_TRACE_MATCHED), MECH(UPROBE) }, .expect = EINVAL },
	{ "flags bit 31", C_TRACE, .set = { TSET(flags, 1u << 31) }, .expect = EINVAL },
	{ "every known flag, no pid, tgid or cpus", C_TRACE, .set = { TSET(flags, 0xf) }, .expect = EINVAL },
	{ "every known flag: own pid and tgid, every CPU", C_TRACE,
	  .set = { TSET(flags, 0xf), TSET(pid, VAL_PID), TSET(tgid, VAL_PID), TSET(cpus, PTR_CPUS_ALL),
		   TSET(cpus_len, VAL_CPUS_LEN) }, .expect = OK },
	{ "flags AUTOREMOVE", C_TRACE, .set = { TSET(flags, KSTATS_TRACE_AUTOREMOVE) }, .expect = OK },
	{ "pad 1", C_TRACE, .set = { TSET(pad, 1) }, .expect = EINVAL },
	{ "reserved[0] = 1", C_TRACE, .set = { TSET(reserved[0], 1) }, .expect = EINVAL },
	/* VER8's measured uprobe costs: a user-space function's only (uprobe_test.py has the rest). */
	{ "user_floor_ns 1 on a kernel function", C_TRACE, .set = { TSET(user_floor_ns, 1) },
	  .expect = EINVAL },
	{ "user_call_ps 1 on a kernel function", C_TRACE, .set = { TSET(user_call_ps, 1) },
	  .expect = EINVAL },
	{ "user_skip_ps 1 on a kernel function", C_TRACE, .set = { TSET(user_skip_ps, 1) },
	  .expect = EINVAL },
	/* VER5's key_values: only with a key and nr_keys (trace_keys.c has the rest). */
	{ "key_values without a key", C_TRACE, .set = { TSET(key_values, 8) }, .expect = EINVAL },
	{ "key_values with a key, nr_keys 0", C_TRACE,
	  .set = { TSET(key, KSTATS_KEY_ERRNO), TSET(key_values, 8) }, .expect = EINVAL },
	/* VER6's expr: read before the privilege check (trace_expr_abi.c has the rest). */
	{ "expr in a PROT_NONE page", C_TRACE, .set = { TSET(expr, PTR_NONE_PAGE) }, .expect = EFAULT },
	{ "expr a kernel address", C_TRACE, .set = { TSET(expr, PTR_KERNEL) }, .expect = EFAULT },
	{ "expr with an unknown flag", C_TRACE, .set = { TSET(expr, PTR_EXPR_BAD) }, .expect = EINVAL },
	{ "expr on a section between functions (the start's arg0)", C_TRACE, .how = H_SECTION,
	  .set = { TSET(expr, PTR_EXPR_GOOD) }, .expect = OK },
	/* VER4's cgroup fields: 0 but with their flag (trace_cgroup.c has the rest). */
	{ "cgroup_pad 1", C_TRACE, .set = { TSET(flags, KSTATS_TRACE_CGROUP), TSET(cgroup_pad, 1) },
	  .expect = EINVAL },
	{ "cgroup_fd 1 without KSTATS_TRACE_CGROUP", C_TRACE, .set = { TSET(cgroup_fd, 1) },
	  .expect = EINVAL },
	{ "KSTATS_TRACE_CGROUP with cgroup_fd -1", C_TRACE,
	  .set = { TSET(flags, KSTATS_TRACE_CGROUP), TSET(cgroup_fd, -1) }, .expect = EBADF },
	/* The overhead governor's budget (ppm of a CPU) and fixed sampling. */
	{ "budget_ppm 1", C_TRACE, .set = { TSET(budget_ppm, 1) }, .expect = OK },
	{ "budget_ppm 1000000 (a whole CPU)", C_TRACE, .set = { TSET(budget_ppm, 1000000) }, .expect = OK },
	{ "budget_ppm 1000001", C_TRACE, .set = { TSET(budget_ppm, 1000001) }, .expect = EINVAL },
	{ "budget_ppm 0xffffffff", C_TRACE, .set = { TSET(budget_ppm, 0xffffffffu) }, .expect = EINVAL },
	{ "sample_every 1 (every call, no governor)", C_TRACE, .set = { TSET(sample_every, 1) }, .expect = OK },
	{ "sample_every 1 << 20", C_TRACE, .set = { TSET(sample_every, 1u << 20) }, .expect = OK },
	{ "sample_every (1 << 20) + 1", C_TRACE, .set = { TSET(sample_every, (1u << 20) + 1) }, .expect = EINVAL },
	{ "budget_ppm with sample_every 8", C_TRACE,
	  .set = { TSET(budget_ppm, 10000), TSET(sample_every, 8) }, .expect = EINVAL },
	{ "budget_ppm with sample_every 1", C_TRACE,
	  .set = { TSET(budget_ppm, 10000), TSET(sample_every, 1) }, .expect = EINVAL },
	{ "frac_bits 6", C_TRACE, .set = { TSET(frac_bits, 6) }, .expect = EINVAL },
	{ "frac_bits 0xffffffff", C_TRACE, .set = { TSET(frac_bits, 0xffffffffu) }, .expect = EINVAL },
	{ "frac_bits 0", C_TRACE, .set = { TSET(frac_bits, 0) }, .expect = OK },
	{ "frac_bits 5", C_TRACE, .set = { TSET(frac_bits, 5) }, .expect = OK },
	{ "mechanism 6", C_TRACE, .set = { TSET(mechanism, 6) }, .expect = EINVAL },
	/* VER7's uprobes: only with KSTATS_MECH_UPROBE, and in form (uprobe_test.py has the rest). */
	{ "mechanism uprobe without uprobes", C_TRACE, .set = { MECH(UPROBE) }, .expect = EINVAL },
	{ "uprobes without mechanism uprobe", C_TRACE, .set = { TSET(uprobes, 8) }, .expect = EINVAL },
	{ "nr_uprobes without mechanism uprobe", C_TRACE, .set = { TSET(nr_uprobes, 1) },
	  .expect = EINVAL },
	{ "uprobe_size without mechanism uprobe", C_TRACE, .set = { TSET(uprobe_size, 32) },
	  .expect = EINVAL },
	{ "mechanism uprobe, uprobe_size 24", C_TRACE,
	  .set = { MECH(UPROBE), TSET(uprobes, 8), TSET(nr_uprobes, 1), TSET(uprobe_size, 24) },
	  .expect = EINVAL },
	{ "mechanism uprobe, nr_uprobes 0", C_TRACE,
	  .set = { MECH(UPROBE), TSET(uprobes, 8), TSET(uprobe_size, 32) }, .expect = EINVAL },
	{ "mechanism 0xffffffff", C_TRACE, .set = { TSET(mechanism, 0xffffffffu) }, .expect = EINVAL },
	/* Bounded by max(64, min(65536, 2^20 / possible CPUs)). */
	{ "maxactive 65537", C_TRACE, .set = { TSET(maxactive, 65537) }, .expect = EINVAL },
	{ "maxactive 0xffffffff", C_TRACE, .set = { TSET(maxactive, 0xffffffffu) }, .expect = EINVAL },
	{ "maxactive: one over this machine's bound", C_TRACE, .set = { TSET(maxactive, VAL_MAXACTIVE1) }, .expect = EINVAL },
	{ "KRETPROBE, maxactive: this machine's bound", C_TRACE,
	  .set = { MECH(KRETPROBE), TSET(maxactive, VAL_MAXACTIVE) }, .expect = OK },
	{ "KRETPROBE, maxactive 1", C_TRACE, .set = { MECH(KRETPROBE), TSET(maxactive, 1) }, .expect = OK },

	/* Mechanisms: a function by FPROBE or KRETPROBE, a section by KPROBE or TRACEPOINT. */
	{ "function, KRETPROBE", C_TRACE, .set = { MECH(KRETPROBE) }, .expect = OK },
	{ "function, FPROBE (EOPNOTSUPP where INFO lacks it)", C_TRACE, .set = { MECH(FPROBE) }, .expect = OK_FPROBE },
	{ "function, KPROBE", C_TRACE, .set = { MECH(KPROBE) }, .expect = EINVAL },
	{ "function, TRACEPOINT", C_TRACE, .set = { MECH(TRACEPOINT) }, .expect = EINVAL },
	{ "section " TRACE_FUNC ".." TRACE_FUNC2 ", AUTO", C_TRACE, .how = H_SECTION, .expect = OK },
	{ "section, KPROBE", C_TRACE, .how = H_SECTION, .set = { MECH(KPROBE) }, .expect = OK },
	{ "section, KRETPROBE", C_TRACE, .how = H_SECTION, .set = { MECH(KRETPROBE) }, .expect = EINVAL },
	{ "section, FPROBE", C_TRACE, .how = H_SECTION, .set = { MECH(FPROBE) }, .expect = EINVAL },
	{ "section, TRACEPOINT", C_TRACE, .how = H_SECTION, .set = { MECH(TRACEPOINT) }, .expect = EINVAL },
	{ "tracepoints " TRACE_TP_START ".." TRACE_TP_END ", AUTO", C_TRACE, .how = H_TPS, .expect = OK },
	{ "tracepoints, TRACEPOINT", C_TRACE, .how = H_TPS, .set = { MECH(TRACEPOINT) }, .expect = OK },
	{ "tracepoints, KPROBE", C_TRACE, .how = H_TPS, .set = { MECH(KPROBE) }, .expect = EINVAL },
	{ "tracepoints, KRETPROBE", C_TRACE, .how = H_TPS, .set = { MECH(KRETPROBE) }, .expect = EINVAL },
	{ "from a tracepoint to a function", C_TRACE, .how = H_TPS, .set = { TSET(end, STR(VFS_WRITE)) }, .expect = EINVAL },
	{ "from a function to a tracepoint", C_TRACE, .how = H_SECTION, .set = { TSET(end, STR(TP_KFREE)) }, .expect = EINVAL },
	{ "unknown start tracepoint", C_TRACE, .how = H_TPS, .set = { TSET(start, STR(TP_NOSUCH)) }, .expect = ENOENT },
	{ "unknown end tracepoint", C_TRACE, .how = H_TPS, .set = { TSET(end, STR(TP_NOSUCH)) }, .expect = ENOENT },

	/* func, or start and end. */
	{ "func and start", C_TRACE, .set = { TSET(start, STR(VFS_WRITE)) }, .expect = EINVAL },
	{ "func and end", C_TRACE, .set = { TSET(end, STR(VFS_WRITE)) }, .expect = EINVAL },
	{ "func, start and end", C_TRACE, .how = H_SECTION, .set = { TSET(func, STR(VFS_READ)) }, .expect = EINVAL },
	{ "start only", C_TRACE, .how = H_SECTION, .set = { TSET(end, 0) }, .expect = EINVAL },
	{ "end only", C_TRACE, .how = H_SECTION, .set = { TSET(start, 0) }, .expect = EINVAL },
	{ "neither func nor start/end", C_TRACE, .set = { TSET(func, 0) }, .expect = EINVAL },

	/* The strings. */
	{ "func \"\"", C_TRACE, .set = { TSET(func, STR(EMPTY)) }, .expect = EINVAL },
	{ "start \"\"", C_TRACE, .how = H_SECTION, .set = { TSET(start, STR(EMPTY)) }, .expect = EINVAL },
	{ "end \"\"", C_TRACE, .how = H_SECTION, .set = { TSET(end, STR(EMPTY)) }, .expect = EINVAL },
	{ "unknown symbol", C_TRACE, .set = { TSET(func, STR(NOSUCH)) }, .expect = ENOENT },
	{ "kstats_record (an inline)", C_TRACE, .set = { TSET(func, STR(KSTATS_RECORD)) }, .expect = ENOENT },
	{ "kstats_reset (kstats itself)", C_TRACE, .set = { TSET(func, STR(KSTATS_RESET)) }, .expect = ELOOP },
	{ "kstats:kstats_floor_fprobe (kstats itself)", C_TRACE, .set = { TSET(func, STR(KSTATS_FLOOR)) }, .expect = ELOOP },
	{ "notify_die (kprobe blacklist)", C_TRACE, .set = { TSET(func, STR(BLACKLISTED)) }, .expect = EINVAL },
	{ "section from kstats_reset", C_TRACE, .how = H_SECTION, .set = { TSET(start, STR(KSTATS_RESET)) }, .expect = ELOOP },
	{ "section to an unknown symbol", C_TRACE, .how = H_SECTION, .set = { TSET(end, STR(NOSUCH)) }, .expect = ENOENT },
	{ "func of 511 bytes (unknown)", C_TRACE, .set = { TSET(func, STR(LONG511)) }, .expect = ENOENT },
	{ "func of 512 bytes", C_TRACE, .set = { TSET(func, STR(LONG512)) }, .expect = EINVAL },
	{ "start of 512 bytes", C_TRACE, .how = H_SECTION, .set = { TSET(start, STR(LONG512)) }, .expect = EINVAL },
	{ "end of 512 bytes", C_TRACE, .how = H_SECTION, .set = { TSET(end, STR(LONG512)) }, .expect = EINVAL },
	{ "func 1", C_TRACE, .set = { TSET(func, 1) }, .expect = EFAULT },
	{ "func in a PROT_NONE page", C_TRACE, .set = { TSET(func, PTR_NONE_PAGE) }, .expect = EFAULT },
	{ "func a kernel address", C_TRACE, .set = { TSET(func, PTR_KERNEL) }, .expect = EFAULT },
	{ "start in a PROT_NONE page", C_TRACE, .how = H_SECTION, .set = { TSET(start, PTR_NONE_PAGE) }, .expect = EFAULT },
	{ "end 1", C_TRACE, .how = H_SECTION, .set = { TSET(end, 1) }, .expect = EFAULT },
	{ "func's NUL the last byte before a PROT_NONE page", C_TRACE, .set = { TSET(func, STR(AT_EDGE)) }, .expect = OK },
	{ "func running into a PROT_NONE page, no NUL", C_TRACE, .set = { TSET(func, STR(INTO_EDGE)) }, .expect = EFAULT },

	/* Names: a function's GAP-NAME must fit too; a section has none. */
	{ "59-byte name, function (GAP-NAME is 63)", C_TRACE, .name = NAME_59, .expect = OK },
	{ "60-byte name, function (GAP-NAME would be 64)", C_TRACE, .name = NAME_60, .expect = EINVAL },
	{ "63-byte name, section", C_TRACE, .how = H_SECTION, .name = NAME_63, .expect = OK },
	{ "name of a user metric", C_TRACE, .how = H_PRECREATE, .expect = EEXIST },
	{ "GAP-NAME a user metric", C_TRACE, .how = H_PREGAP, .expect = EEXIST },
	{ "name of a module metric", C_TRACE, .name = "selftest.b0", .expect = EEXIST },
	{ "section, name of a user metric", C_TRACE, .how = H_SECTION | H_PRECREATE, .expect = EEXIST },
	{ "section, GAP-NAME a user metric (a section has none)", C_TRACE, .how = H_SECTION | H_PREGAP, .expect = OK },

	/* Filters: pid, tgid, CPUs. */
	{ "pid without PID", C_TRACE, .set = { TSET(pid, VAL_PID) }, .expect = EINVAL },
	{ "pid -1 without PID", C_TRACE, .set = { TSET(pid, -1) }, .expect = EINVAL },
	{ "tgid without TGID", C_TRACE, .set = { TSET(tgid, VAL_PID) }, .expect = EINVAL },
	{ "PID, pid 0", C_TRACE, .set = { TSET(flags, KSTATS_TRACE_PID) }, .expect = EINVAL },
	{ "PID, pid -1", C_TRACE, .set = { TSET(flags, KSTATS_TRACE_PID), TSET(pid, -1) }, .expect = EINVAL },
	{ "PID, pid 999999 (none)", C_TRACE, .set = { TSET(flags, KSTATS_TRACE_PID), TSET(pid, 999999) }, .expect = ESRCH },
	{ "PID, own pid", C_TRACE, .set = { TSET(flags, KSTATS_TRACE_PID), TSET(pid, VAL_PID) }, .expect = OK },
	{ "PID, pid 1", C_TRACE, .set = { TSET(flags, KSTATS_TRACE_PID), TSET(pid, 1) }, .expect = OK },
	/* The __s64 is range-checked, not truncated to pid_t (this would be pid 1). */
	{ "PID, pid 2^32+1", C_TRACE, .set = { TSET(flags, KSTATS_TRACE_PID), TSET(pid, 0x100000001ULL) }, .expect = EINVAL },
	{ "PID, pid 4194305 (PID_MAX_LIMIT + 1)", C_TRACE, .set = { TSET(flags, KSTATS_TRACE_PID), TSET(pid, 4194305) }, .expect = EINVAL },
	{ "TGID, tgid 2^32+1", C_TRACE, .set = { TSET(flags, KSTATS_TRACE_TGID), TSET(tgid, 0x100000001ULL) }, .expect = EINVAL },
	{ "PID, a thread that is not the leader", C_TRACE, .set = { TSET(flags, KSTATS_TRACE_PID), TSET(pid, VAL_TID) }, .expect = OK },
	{ "TGID, a thread that is not the leader", C_TRACE, .set = { TSET(flags, KSTATS_TRACE_TGID), TSET(tgid, VAL_TID) }, .expect = ESRCH },
	{ "TGID, tgid 0", C_TRACE, .set = { TSET(flags, KSTATS_TRACE_TGID) }, .expect = EINVAL },
	{ "TGID, tgid 999999 (none)", C_TRACE, .set = { TSET(flags, KSTATS_TRACE_TGID), TSET(tgid, 999999) }, .expect = ESRCH },
	{ "TGID, own tgid", C_TRACE, .set = { TSET(flags, KSTATS_TRACE_TGID), TSET(tgid, VAL_PID) }, .expect = OK },
	{ "PID and TGID, section", C_TRACE, .how = H_SECTION,
	  .set = { TSET(flags, KSTATS_TRACE_PID | KSTATS_TRACE_TGID), TSET(pid, VAL_PID), TSET(tgid, VAL_PID) }, .expect = OK },
	{ "PID 999999, tracepoints", C_TRACE, .how = H_TPS,
	  .set = { TSET(flags, KSTATS_TRACE_PID), TSET(pid, 999999) }, .expect = ESRCH },
	{ "cpus without CPUS", C_TRACE, .set = { TSET(cpus, PTR_CPUS_ALL) }, .expect = EINVAL },
	{ "cpus_len without CPUS", C_TRACE, .set = { TSET(cpus_len, VAL_CPUS_LEN) }, .expect = EINVAL },
	{ "CPUS, cpus NULL, cpus_len 0", C_TRACE, .set = { TSET(flags, KSTATS_TRACE_CPUS) }, .expect = EINVAL },
	{ "CPUS, cpus_len 0", C_TRACE, .set = { CPUS(PTR_CPUS_ALL) }, .expect = EINVAL },
	{ "CPUS, every possible CPU", C_TRACE, .set = { CPUS(PTR_CPUS_ALL), TSET(cpus_len, VAL_CPUS_LEN) }, .expect = OK },
	{ "CPUS, the first CPU", C_TRACE, .set = { CPUS(PTR_CPUS_ONE), TSET(cpus_len, VAL_CPUS_LEN) }, .expect = OK },
	/* Past CPU 32 and 64 in a guest with many possible CPUs (bigcpu-tests.sh). */
	{ "CPUS, the last CPU", C_TRACE, .set = { CPUS(PTR_CPUS_LAST), TSET(cpus_len, VAL_CPUS_LEN) }, .expect = OK },
	{ "CPUS, cpus_len 8", C_TRACE, .set = { CPUS(PTR_CPUS_ALL), TSET(cpus_len, 8) }, .expect = OK },
	{ "CPUS, cpus_len 4096, zeros past the CPUs", C_TRACE, .set = { CPUS(PTR_CPUS_ALL), TSET(cpus_len, 4096) }, .expect = OK },
	{ "CPUS, cpus_len 4097", C_TRACE, .set = { CPUS(PTR_CPUS_ALL), TSET(cpus_len, 4097) }, .expect = EINVAL },
	{ "CPUS, empty bitmap", C_TRACE, .set = { CPUS(PTR_CPUS_EMPTY), TSET(cpus_len, VAL_CPUS_LEN) }, .expect = EINVAL },
	{ "CPUS, the CPU after the last possible one", C_TRACE,
	  .set = { CPUS(PTR_CPUS_PAST), TSET(cpus_len, VAL_CPUS_LEN) }, .expect = EINVAL },
	{ "CPUS, bit 8*4095 set, cpus_len 4096", C_TRACE, .set = { CPUS(PTR_CPUS_FAR), TSET(cpus_len, 4096) }, .expect = EINVAL },
	{ "CPUS, cpus NULL, cpus_len 8", C_TRACE, .set = { CPUS(0), TSET(cpus_len, 8) }, .expect = EFAULT },
	{ "CPUS, cpus 1", C_TRACE, .set = { CPUS(1), TSET(cpus_len, 8) }, .expect = EFAULT },
	{ "CPUS, cpus in a PROT_NONE page", C_TRACE, .set = { CPUS(PTR_NONE_PAGE), TSET(cpus_len, 8) }, .expect = EFAULT },

	/* UNTRACE */
	{ "flags 1", C_UNTRACE, .set = { USET(flags, 1) }, .expect = EINVAL },
	{ "flags bit 31", C_UNTRACE, .set = { USET(flags, 1u << 31) }, .expect = EINVAL },
	{ "pad 1", C_UNTRACE, .set = { USET(pad, 1) }, .expect = EINVAL },
	{ "reserved[0] = 1", C_UNTRACE, .set = { USET(reserved[0], 1) }, .expect = EINVAL },
	{ "reserved[1] = 1 << 63", C_UNTRACE, .set = { USET(reserved[1], 1ULL << 63) }, .expect = EINVAL },
	{ "unknown name", C_UNTRACE, .how = H_NOSETUP, .expect = ENOENT },
	{ "name of a user metric (not a trace)", C_UNTRACE, .how = H_NOSETUP | H_PRECREATE, .expect = ENOENT },
	{ "name of a module metric", C_UNTRACE, .how = H_NOSETUP, .name = "selftest.b0", .expect = ENOENT },
	{ "a section trace (63-byte name)", C_UNTRACE, .name = NAME_63, .expect = OK },
};
const size_t nr_trace_cases = ARRAY_SIZE(trace_cases);

/* ---- behaviour ---- */

static void check_trace_entry(const struct kstats_metric_info *m, const char *name, uint32_t kind,
			      const char *owner, uint32_t bits, uint32_t flags)
{
	if (!m) {
		tap_fail("%s not listed", name);
		return;
	}
	if (m->kind != kind || strncmp((const char *)m->owner, owner, sizeof(m->owner)) ||
	    m->frac_bits != bits || m->flags != flags || m->owner_pid != getpid() ||
	    m->owner_uid != getuid())
		tap_fail("%s: kind %u owner \"%.64s\" frac_bits %u flags 0x%x pid %lld uid %u; want %u \"%s\" %u 0x%x %d %u",
			 name, m->kind, m->owner, m->frac_bits, m->flags, (long long)m->owner_pid,
			 m->owner_uid, kind, owner, bits, flags, (int)getpid(), (unsigned int)getuid());
}

/* @n read()s, each one vfs_read() call; returns how many worked. */
static int reads(int n)
{
	int fd = open("/dev/zero", O_RDONLY | O_CLOEXEC), i, done = 0;
	char c;

	for (i = 0; fd >= 0 && i < n; i++)
		done += read(fd, &c, 1) == 1;
	if (fd >= 0)
		close(fd);
	return done;
}

static uint64_t count_of(const char *name)
{
	struct kstats_metric_info *all = NULL;
	const struct kstats_metric_info *m = list_one(g_fd, name, &all, &(uint32_t){ 0 });
	uint64_t n = m ? m->count : UINT64_MAX;

	free(all);
	return n;
}

static void test_trace_func(void)
{
	const char *name = "abi.tr.func", *gap = "GAP-abi.tr.func";
	struct kstats_trace t = { .func = U64PTR(TRACE_FUNC), .frac_bits = 2 };
	struct kstats_metric_info *all = NULL;
	struct kstats_info before, after;
	struct snap s = { 0 };
	uint32_t n;
	uint64_t c0, c1;
	cpu_set_t old;
	int err, cpu;

	k_info(g_fd, &before);
	set_name(t.name, name);
	err = kioctl(g_fd, KSTATS_IOC_TRACE, &t);
	want_errno(err, 0, "TRACE");
	k_info(g_fd, &after);
	if (after.nr_metrics != before.nr_metrics + 2)
		tap_fail("INFO nr_metrics %u, then %u", before.nr_metrics, after.nr_metrics);
	k_list(g_fd, &all, &n);
	check_trace_entry(list_find(all, n, name), name, KSTATS_KIND_TRACE, TRACE_FUNC, 2,
			  KSTATS_METRIC_ACTIVE);
	check_trace_entry(list_find(all, n, gap), gap, KSTATS_KIND_GAP, TRACE_FUNC, 2,
			  KSTATS_METRIC_ACTIVE);
	free(all);
	tap_end("TRACE %s: NAME kind TRACE and GAP-NAME kind GAP, owner \"%s\", creator's pid and uid; INFO nr_metrics + 2",
		TRACE_FUNC, TRACE_FUNC);

	cpu = pin_here(&old);
	if (reads(60) != 60)
		tap_fail("read() of /dev/zero failed");
	sched_setaffinity(0, sizeof(old), &old);
	err = k_snapshot(g_fd, name, &s);
	want_errno(err, 0, "SNAPSHOT NAME");
	if (!err && (s.hdr.kind != KSTATS_KIND_TRACE || s.hdr.frac_bits != 2 ||
		     s.hdr.metric_flags != KSTATS_METRIC_ACTIVE || snap_count(&s) < 60 ||
		     s.hdr.hits < 60 || !all_zero(s.hdr.reserved, sizeof(s.hdr.reserved))))
		tap_fail("NAME: kind %u frac_bits %u metric_flags 0x%x count %llu hits %llu, want TRACE 2 ACTIVE >= 60 >= 60",
			 s.hdr.kind, s.hdr.frac_bits, s.hdr.metric_flags,
			 (unsigned long long)snap_count(&s), (unsigned long long)s.hdr.hits);
	tap_note("hits %llu misses %llu floor_ns %llu", (unsigned long long)s.hdr.hits,
		 (unsigned long long)s.hdr.misses, (unsigned long long)s.hdr.floor_ns);
	err = k_snapshot(g_fd, gap, &s);
	want_errno(err, 0, "SNAPSHOT GAP-NAME");
	if (!err && (s.hdr.kind != KSTATS_KIND_GAP || (cpu >= 0 && snap_count(&s) < 59)))
		tap_fail("GAP-NAME: kind %u count %llu, want GAP, >= 59 (60 calls on CPU %d)",
			 s.hdr.kind, (unsigned long long)snap_count(&s), cpu);
	tap_end("60 read()s: NAME has >= 60 samples and hits, GAP-NAME >= 59 gaps (pinned)");

	err = k_delete(g_fd, name);
	want_errno(err, EBUSY, "DELETE NAME");
	err = k_delete(g_fd, gap);
	want_errno(err, EBUSY, "DELETE GAP-NAME");
	err = k_untrace(g_fd, gap);
	want_errno(err, ENOENT, "UNTRACE GAP-NAME");
	err = kioctl(g_fd, KSTATS_IOC_TRACE, &t);
	want_errno(err, EEXIST, "TRACE again");
	err = k_trace(g_fd, gap, TRACE_FUNC, NULL, NULL, KSTATS_MECH_AUTO, 0);
	want_errno(err, EEXIST, "TRACE named GAP-NAME");
	err = k_trace(g_fd, gap, NULL, TRACE_FUNC, TRACE_FUNC2, KSTATS_MECH_AUTO, 0);
	want_errno(err, EEXIST, "TRACE a section named GAP-NAME");
	if (!metric_exists(g_fd, name) || !metric_exists(g_fd, gap))
		tap_fail("a metric of the trace went");
	tap_end("a trace's metrics: DELETE EBUSY, UNTRACE GAP-NAME ENOENT, TRACE of either name again EEXIST; the trace is intact");

	err = k_control(g_fd, name, KSTATS_OP_STOP, 0);
	want_errno(err, 0, "CONTROL STOP");
	c0 = count_of(name);
	reads(20);
	c1 = count_of(name);
	if (c1 != c0)
		tap_fail("stopped: count %llu -> %llu", (unsigned long long)c0, (unsigned long long)c1);
	err = k_control(g_fd, name, KSTATS_OP_RESET, 0);
	want_errno(err, 0, "CONTROL RESET");
	err = k_control(g_fd, name, KSTATS_OP_START, 0);
	want_errno(err, 0, "CONTROL START");
	reads(20);
	c1 = count_of(name);
	if (c1 < 20 || c1 == UINT64_MAX)
		tap_fail("started again after a reset: count %llu, want >= 20", (unsigned long long)c1);
	tap_end("CONTROL on a trace: STOP records nothing, RESET, START records again");

	err = k_untrace(g_fd, name);
	want_errno(err, 0, "UNTRACE");
	if (metric_exists(g_fd, name) || metric_exists(g_fd, gap))
		tap_fail("a metric of the trace is left");
	k_info(g_fd, &after);
	if (after.nr_metrics != before.nr_metrics)
		tap_fail("INFO nr_metrics %u, was %u", after.nr_metrics, before.nr_metrics);
	err = k_untrace(g_fd, name);
	want_errno(err, ENOENT, "UNTRACE again");
	err = k_snapshot(g_fd, name, &s);
	want_errno(err, ENOENT, "SNAPSHOT after UNTRACE");
	tap_end("UNTRACE: NAME and GAP-NAME gone; UNTRACE again ENOENT");

	err = k_trace(g_fd, name, TRACE_FUNC, NULL, NULL, KSTATS_MECH_KRETPROBE, 0);
	want_errno(err, 0, "TRACE the name again");
	err = k_untrace(g_fd, name);
	want_errno(err, 0, "UNTRACE");
	tap_end("the names are free again after UNTRACE");
	snap_free(&s);
}

static void test_trace_sections(void)
{
	static const struct {
		const char *name, *start, *end, *owner;
	} secs[] = {
		{ "abi.tr.sec", TRACE_FUNC, TRACE_FUNC2, TRACE_FUNC ".." TRACE_FUNC2 },
		{ "abi.tr.tps", TRACE_TP_START, TRACE_TP_END, TRACE_TP_START ".." TRACE_TP_END },
	};
	struct kstats_metric_info *all = NULL;
	struct snap s = { 0 };
	uint32_t n;
	size_t i;
	int err;

	for (i = 0; i < ARRAY_SIZE(secs); i++) {
		char gap[80];

		snprintf(gap, sizeof(gap), "GAP-%s", secs[i].name);
		err = k_trace(g_fd, secs[i].name, NULL, secs[i].start, secs[i].end, KSTATS_MECH_AUTO, 0);
		want_errno(err, 0, "TRACE");
		k_list(g_fd, &all, &n);
		check_trace_entry(list_find(all, n, secs[i].name), secs[i].name, KSTATS_KIND_TRACE,
				  secs[i].owner, 0, KSTATS_METRIC_ACTIVE);
		if (list_find(all, n, gap))
			tap_fail("%s exists for a section", gap);
		free(all);
		err = k_snapshot(g_fd, secs[i].name, &s);
		want_errno(err, 0, "SNAPSHOT");
		if (!err && s.hdr.kind != KSTATS_KIND_TRACE)
			tap_fail("SNAPSHOT kind %u", s.hdr.kind);
		err = k_untrace(g_fd, secs[i].name);
		want_errno(err, 0, "UNTRACE");
		if (metric_exists(g_fd, secs[i].name))
			tap_fail("left after UNTRACE");
		tap_end("section %s..%s: one metric, kind TRACE, owner \"%s\", no GAP-NAME; UNTRACE removes it",
			secs[i].start, secs[i].end, secs[i].owner);
	}
	snap_free(&s);
}

static void test_trace_autoremove(void)
{
	const char *au = "abi.tr.auto", *keep = "abi.tr.keep";
	struct kstats_metric_info *all = NULL;
	uint32_t n;
	int a = kopen(), d, err;

	err = k_trace(a, au, TRACE_FUNC, NULL, NULL, KSTATS_MECH_AUTO, KSTATS_TRACE_AUTOREMOVE);
	want_errno(err, 0, "TRACE AUTOREMOVE");
	err = k_trace(a, keep, NULL, TRACE_FUNC, TRACE_FUNC2, KSTATS_MECH_AUTO, 0);
	want_errno(err, 0, "TRACE");
	k_list(g_fd, &all, &n);
	check_trace_entry(list_find(all, n, au), au, KSTATS_KIND_TRACE, TRACE_FUNC, 0,
			  KSTATS_METRIC_ACTIVE | KSTATS_METRIC_AUTOREMOVE);
	check_trace_entry(list_find(all, n, "GAP-abi.tr.auto"), "GAP-abi.tr.auto", KSTATS_KIND_GAP,
			  TRACE_FUNC, 0, KSTATS_METRIC_ACTIVE | KSTATS_METRIC_AUTOREMOVE);
	free(all);
	tap_end("TRACE AUTOREMOVE: both metrics flagged AUTOREMOVE");

	d = dup(a);
	close(a);
	if (!metric_exists(g_fd, au))
		tap_fail("gone after closing one of two descriptors of its file");
	tap_end("AUTOREMOVE trace stays while a dup() of its file is open");

	close(d);
	if (metric_exists(g_fd, au) || metric_exists(g_fd, "GAP-abi.tr.auto"))
		tap_fail("AUTOREMOVE trace still there after its file closed");
	err = k_untrace(g_fd, au);
	want_errno(err, ENOENT, "UNTRACE the AUTOREMOVE trace");
	if (!metric_exists(g_fd, keep))
		tap_fail("%s gone after its creator's file closed", keep);
	err = k_untrace(g_fd, keep);
	want_errno(err, 0, "UNTRACE through another file");
	err = k_trace(g_fd, au, TRACE_FUNC, NULL, NULL, KSTATS_MECH_AUTO, 0);
	want_errno(err, 0, "TRACE the AUTOREMOVE name again");
	k_untrace(g_fd, au);
	tap_end("file closed: AUTOREMOVE trace untraced; the other stays, UNTRACE through another file works");
}

void test_trace(void)
{
	test_trace_func();
	test_trace_sections();
	test_trace_autoremove();
}

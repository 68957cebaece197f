// SPDX-License-Identifier: GPL-2.0
/*
 * The argument cases: tables of {what, command, ioctl number variant, size
 * variant, fields to set, expected errno}, one failing check per row; rows
 * naming a group of commands (ALL_CMDS, NAMED, WRITERS) are run once per
 * command. This file has the runner and every command's rows but TRACE's
 * and UNTRACE's (abi_trace.c).
 *
 * Each row starts from a valid argument (cmds[].build), creates what it
 * names first (a user metric, or a trace for UNTRACE), and removes
 * whatever the row made or was given afterwards. Besides the errno, it
 * checks what the call wrote into its argument, and for TRACE and UNTRACE
 * that exactly the metrics the result implies exist (no half-made trace).
 */
#include "abi_test.h"

#define NAME_63A "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_"
#define NAME_63B "DEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_.:-"
_Static_assert(sizeof(NAME_63A) == 64 && sizeof(NAME_63B) == 64, "63-byte names");
#define NAME_64 "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"
_Static_assert(sizeof(NAME_64) == 65, "64-byte name");

const struct tcase arg_cases[] = {
	/* Every command: numbers, sizes, argument pointers. */
	{ "valid argument", ALL_CMDS, .expect = OK },
	{ "unknown nr 0x0b", ALL_CMDS, V_NR0B, .expect = ENOTTY },
	{ "unknown nr 0xff", ALL_CMDS, V_NRFF, .expect = ENOTTY },
	{ "direction _IOC_NONE", ALL_CMDS, V_DIR_NONE, .expect = ENOTTY },
	{ "direction _IOR", ALL_CMDS, V_DIR_R, .expect = ENOTTY },
	{ "direction _IOW", ALL_CMDS, V_DIR_W, .expect = ENOTTY },
	{ "direction _IOWR", ALL_CMDS, V_DIR_RW, .expect = ENOTTY },
	{ "magic 0xBD", ALL_CMDS, V_MAGIC, .expect = ENOTTY },
	{ "size 0", ALL_CMDS, .size = S_ZERO, .expect = EINVAL },
	{ "size VER0 - 1", ALL_CMDS, .size = S_VER0M1, .expect = EINVAL },
	{ "size VER0 (older struct), garbage after it ignored", ALL_CMDS,
	  .size = S_VER0, .how = H_GARBAGE, .expect = OK },
	{ "size VER0 + 4, garbage after it ignored", ALL_CMDS,
	  .size = S_VER0P4, .how = H_GARBAGE, .expect = OK },
	{ "size kernel + 8, zero tail", ALL_CMDS, .size = S_BIG, .expect = OK },
	{ "size kernel + 8, non-zero tail", WRITERS, .size = S_BIG, .how = H_TAIL_NZ, .expect = E2BIG },
	{ "size kernel + 8, tail not read, zeroed", C_INFO, .size = S_BIG, .how = H_TAIL_NZ, .expect = OK },
	{ "size 16383, zero tail", ALL_CMDS, .size = S_MAX, .expect = OK },
	{ "size 16383, last byte non-zero", WRITERS, .size = S_MAX, .how = H_TAIL_NZ, .expect = E2BIG },
	{ "argument (void *)1", ALL_CMDS, .how = H_ARG_ODD, .expect = EFAULT },
	{ "argument NULL", ALL_CMDS, .how = H_ARG_NULL, .expect = EFAULT },
	{ "argument in a PROT_NONE page", ALL_CMDS, .how = H_ARG_NONE, .expect = EFAULT },
	{ "struct ends at a PROT_NONE page", ALL_CMDS, .how = H_ARG_EDGE, .expect = OK },
	{ "size VER0 ends at a PROT_NONE page", ALL_CMDS, .size = S_VER0, .how = H_ARG_EDGE, .expect = OK },
	{ "size kernel + 8, tail in a PROT_NONE page", ALL_CMDS, .size = S_BIG,
	  .how = H_ARG_EDGE, .expect = EFAULT },

	/* Names, for every command that takes one. */
	{ "empty name", NAMED, .how = H_RAWNAME, RAW(""), .expect = EINVAL },
	{ "64-byte name, no NUL", NAMED, .how = H_RAWNAME, RAW(NAME_64), .expect = EINVAL },
	{ "'/' in name", NAMED, .how = H_RAWNAME, RAW("abi/x"), .expect = EINVAL },
	{ "' ' in name", NAMED, .how = H_RAWNAME, RAW("abi x"), .expect = EINVAL },
	{ "\\x01 in name", NAMED, .how = H_RAWNAME, RAW("abi\x01x"), .expect = EINVAL },
	{ "\\t in name", NAMED, .how = H_RAWNAME, RAW("abi\tx"), .expect = EINVAL },
	{ "\\x80 in name", NAMED, .how = H_RAWNAME, RAW("abi\x80x"), .expect = EINVAL },
	{ "'*' in name", NAMED, .how = H_RAWNAME, RAW("abi*"), .expect = EINVAL },
	/* Latin-1 letters: the kernel's isalnum() takes them, the name rule does not. */
	{ "\\xe9 (Latin-1 e-acute) in name", NAMED, .how = H_RAWNAME, RAW("abi\xe9x"), .expect = EINVAL },
	{ "\\xc0 in name", NAMED, .how = H_RAWNAME, RAW("\xc0"), .expect = EINVAL },
	{ "\\xff in name", NAMED, .how = H_RAWNAME, RAW("abi\xff"), .expect = EINVAL },
	{ "name \".\"", NAMED, .how = H_RAWNAME, RAW("."), .expect = EINVAL },
	{ "name \"..\"", NAMED, .how = H_RAWNAME, RAW(".."), .expect = EINVAL },
	{ "name \"_control\" (debugfs' command file)", NAMED, .how = H_RAWNAME,
	  RAW("_control"), .expect = EINVAL },
	{ "name \"...\"", NAMED, .name = "...", .expect = OK },
	{ "non-zero byte right after the NUL", NAMED, .how = H_RAWNAME, RAW("abi\0x"), .expect = EINVAL },
	{ "non-zero name[63] after the NUL", NAMED, .how = H_NAME63, .expect = EINVAL },
	{ "63-byte name [A-Z][a-z][0-9]_", NAMED, .name = NAME_63A, .expect = OK },
	{ "63-byte name [D-Z][a-z][0-9]_.:-", NAMED, .name = NAME_63B, .expect = OK },
	{ "1-byte name", NAMED, .name = "Z", .expect = OK },
	{ "unknown name", C_DELETE, .how = H_NOSETUP, .expect = ENOENT },
	{ "unknown name", C_CONTROL, .how = H_NOSETUP, .expect = ENOENT },
	{ "unknown name", C_SNAPSHOT, .how = H_NOSETUP, .expect = ENOENT },
	{ "unknown name", C_RECORD, .how = H_NOSETUP, .expect = ENOENT },

	/* CREATE */
	{ "flags bit 1 (unknown)", C_CREATE, .set = { SET(kstats_create, flags, 1u << 1) }, .expect = EINVAL },
	{ "flags bit 31", C_CREATE, .set = { SET(kstats_create, flags, 1u << 31) }, .expect = EINVAL },
	{ "flags AUTOREMOVE|bit 1", C_CREATE, .set = { SET(kstats_create, flags, 3) }, .expect = EINVAL },
	{ "reserved[0] = 1", C_CREATE, .set = { SET(kstats_create, reserved[0], 1) }, .expect = EINVAL },
	{ "reserved[1] = 1 << 63", C_CREATE, .set = { SET(kstats_create, reserved[1], 1ULL << 63) }, .expect = EINVAL },
	{ "frac_bits 6", C_CREATE, .set = { SET(kstats_create, frac_bits, 6) }, .expect = EINVAL },
	{ "frac_bits 0xffffffff", C_CREATE, .set = { SET(kstats_create, frac_bits, 0xffffffffu) }, .expect = EINVAL },
	{ "frac_bits 0", C_CREATE, .set = { SET(kstats_create, frac_bits, 0) }, .expect = 0 },
	{ "frac_bits 5", C_CREATE, .set = { SET(kstats_create, frac_bits, 5) }, .expect = 0 },
	{ "flags AUTOREMOVE", C_CREATE, .set = { SET(kstats_create, flags, KSTATS_CREATE_AUTOREMOVE) }, .expect = 0 },
	{ "name of a user metric", C_CREATE, .how = H_PRECREATE, .expect = EEXIST },
	{ "name of a module metric", C_CREATE, .name = "selftest.b0", .expect = EEXIST },

	/* DELETE */
	{ "flags 1", C_DELETE, .set = { SET(kstats_delete, flags, 1) }, .expect = EINVAL },
	{ "flags bit 31", C_DELETE, .set = { SET(kstats_delete, flags, 1u << 31) }, .expect = EINVAL },
	{ "pad 1", C_DELETE, .set = { SET(kstats_delete, pad, 1) }, .expect = EINVAL },
	{ "reserved[0] = 1", C_DELETE, .set = { SET(kstats_delete, reserved[0], 1) }, .expect = EINVAL },
	{ "reserved[1] = 1 << 63", C_DELETE, .set = { SET(kstats_delete, reserved[1], 1ULL << 63) }, .expect = EINVAL },
	{ "a module's metric", C_DELETE, .how = H_NOSETUP, .name = "selftest.b0", .expect = EBUSY },

	/* LIST */
	{ "flags 1", C_LIST, .set = { SET(kstats_list, flags, 1) }, .expect = EINVAL },
	{ "flags bit 31", C_LIST, .set = { SET(kstats_list, flags, 1u << 31) }, .expect = EINVAL },
	{ "pad 1", C_LIST, .set = { SET(kstats_list, pad, 1) }, .expect = EINVAL },
	{ "reserved[0] = 1", C_LIST, .set = { SET(kstats_list, reserved[0], 1) }, .expect = EINVAL },
	{ "reserved[1] = 1 << 63", C_LIST, .set = { SET(kstats_list, reserved[1], 1ULL << 63) }, .expect = EINVAL },
	{ "entry_size 0", C_LIST, .set = { SET(kstats_list, entry_size, 0) }, .expect = EINVAL },
	{ "entry_size VER0 - 8", C_LIST, .set = { SET(kstats_list, entry_size, 152) }, .expect = EINVAL },
	{ "entry_size VER0 - 1", C_LIST, .set = { SET(kstats_list, entry_size, 159) }, .expect = EINVAL },
	{ "entry_size VER0 + 4 (not a multiple of 8)", C_LIST, .set = { SET(kstats_list, entry_size, 164) }, .expect = EINVAL },
	{ "entry_size kernel + 1", C_LIST, .set = { SET(kstats_list, entry_size, 177) }, .expect = EINVAL },
	{ "entry_size VER0", C_LIST, .set = { SET(kstats_list, entry_size, 160) }, .expect = 0 },
	{ "entry_size VER0 + 8", C_LIST, .set = { SET(kstats_list, entry_size, 168) }, .expect = 0 },
	{ "entry_size kernel + 8", C_LIST, .set = { SET(kstats_list, entry_size, 184) }, .expect = 0 },
	{ "entry_size 4096", C_LIST, .set = { SET(kstats_list, entry_size, 4096) }, .expect = 0 },
	{ "nr_entries 0xffffffff", C_LIST, .set = { SET(kstats_list, nr_entries, 0xffffffffu) }, .expect = 0 },
	{ "nr_entries 0", C_LIST, .set = { SET(kstats_list, nr_entries, 0) }, .expect = ENOSPC },
	{ "entries NULL", C_LIST, .set = { SET(kstats_list, entries, 0) }, .expect = EFAULT },
	{ "entries 1", C_LIST, .set = { SET(kstats_list, entries, 1) }, .expect = EFAULT },
	{ "entries in a PROT_NONE page", C_LIST, .set = { SET(kstats_list, entries, PTR_NONE_PAGE) }, .expect = EFAULT },
	{ "entries a kernel address", C_LIST, .set = { SET(kstats_list, entries, PTR_KERNEL) }, .expect = EFAULT },

	/* CONTROL */
	{ "op 0", C_CONTROL, .set = { SET(kstats_control, op, 0) }, .expect = EINVAL },
	{ "op 4", C_CONTROL, .set = { SET(kstats_control, op, 4) }, .expect = EINVAL },
	{ "op 0xffffffff", C_CONTROL, .set = { SET(kstats_control, op, 0xffffffffu) }, .expect = EINVAL },
	{ "op STOP", C_CONTROL, .set = { SET(kstats_control, op, KSTATS_OP_STOP) }, .expect = 0 },
	{ "op RESET", C_CONTROL, .set = { SET(kstats_control, op, KSTATS_OP_RESET) }, .expect = 0 },
	{ "flags bit 1 (unknown)", C_CONTROL, .set = { SET(kstats_control, flags, 1u << 1) }, .expect = EINVAL },
	{ "flags bit 31", C_CONTROL, .set = { SET(kstats_control, flags, 1u << 31) }, .expect = EINVAL },
	{ "reserved[0] = 1", C_CONTROL, .set = { SET(kstats_control, reserved[0], 1) }, .expect = EINVAL },
	{ "reserved[1] = 1 << 63", C_CONTROL, .set = { SET(kstats_control, reserved[1], 1ULL << 63) }, .expect = EINVAL },
	{ "CONTROL_ALL with a name", C_CONTROL, .set = { SET(kstats_control, flags, KSTATS_CONTROL_ALL) }, .expect = EINVAL },
	{ "CONTROL_ALL, non-zero name[63]", C_CONTROL, .how = H_RAWNAME | H_NAME63,
	  .set = { SET(kstats_control, flags, KSTATS_CONTROL_ALL) }, RAW(""), .expect = EINVAL },
	{ "CONTROL_ALL START, empty name", C_CONTROL, .how = H_RAWNAME,
	  .set = { SET(kstats_control, flags, KSTATS_CONTROL_ALL) }, RAW(""), .expect = 0 },
	{ "CONTROL_ALL op 0", C_CONTROL, .how = H_RAWNAME,
	  .set = { SET(kstats_control, flags, KSTATS_CONTROL_ALL), SET(kstats_control, op, 0) },
	  RAW(""), .expect = EINVAL },

	/* SNAPSHOT */
	{ "flags 1", C_SNAPSHOT, .set = { SET(kstats_snapshot, flags, 1) }, .expect = EINVAL },
	{ "flags bit 31", C_SNAPSHOT, .set = { SET(kstats_snapshot, flags, 1u << 31) }, .expect = EINVAL },
	/* VER4's frames: written only for a stack key's metric; here none, so never read. */
	{ "frames a bad pointer, not a stack key (ignored)", C_SNAPSHOT,
	  .set = { SET(kstats_snapshot, frames, 1) }, .expect = OK },
	{ "nr_frames, frames_flags set (out)", C_SNAPSHOT,
	  .set = { SET(kstats_snapshot, nr_frames, 7), SET(kstats_snapshot, frames_flags, 3) },
	  .expect = OK },
	{ "reserved[0] = 1", C_SNAPSHOT, .set = { SET(kstats_snapshot, reserved[0], 1) }, .expect = EINVAL },
	{ "frames_tgid (out) = 1 on input", C_SNAPSHOT, .set = { SET(kstats_snapshot, frames_tgid, 1) },
	  .expect = EINVAL },
	{ "reserved[0] = 1 << 63", C_SNAPSHOT, .set = { SET(kstats_snapshot, reserved[0], 1ULL << 63) }, .expect = EINVAL },
	{ "group_misses = 1 (out only)", C_SNAPSHOT, .set = { SET(kstats_snapshot, group_misses, 1) }, .expect = EINVAL },
	/* Output fields (the trace's mode and cost) are ignored on input. */
	{ "trace_mode, skipped, call_cost_ps set (out)", C_SNAPSHOT,
	  .set = { SET(kstats_snapshot, trace_mode, 7), SET(kstats_snapshot, skipped, 1),
		   SET(kstats_snapshot, call_cost_ps, 1) }, .expect = 0 },
	{ "buf_len UINT64_MAX", C_SNAPSHOT, .set = { SET(kstats_snapshot, buf_len, UINT64_MAX) }, .expect = 0 },
	{ "buf_len 0", C_SNAPSHOT, .set = { SET(kstats_snapshot, buf_len, 0) }, .expect = ENOSPC },
	{ "buf NULL", C_SNAPSHOT, .set = { SET(kstats_snapshot, buf, 0) }, .expect = EFAULT },
	{ "buf 1", C_SNAPSHOT, .set = { SET(kstats_snapshot, buf, 1) }, .expect = EFAULT },
	{ "buf in a PROT_NONE page", C_SNAPSHOT, .set = { SET(kstats_snapshot, buf, PTR_NONE_PAGE) }, .expect = EFAULT },
	{ "buf a kernel address", C_SNAPSHOT, .set = { SET(kstats_snapshot, buf, PTR_KERNEL) }, .expect = EFAULT },
	{ "buf a kernel address, buf_len 0", C_SNAPSHOT,
	  .set = { SET(kstats_snapshot, buf, PTR_KERNEL), SET(kstats_snapshot, buf_len, 0) }, .expect = ENOSPC },
	/* Out fields are ignored on input (a struct back from ENOSPC is reused as is). */
	{ "out frac_bits 0xffffffff", C_SNAPSHOT, .set = { SET(kstats_snapshot, frac_bits, 0xffffffffu) }, .expect = 0 },
	{ "out nr_cpus 0xffffffff", C_SNAPSHOT, .set = { SET(kstats_snapshot, nr_cpus, 0xffffffffu) }, .expect = 0 },
	{ "out nr_slots 0xffffffff", C_SNAPSHOT, .set = { SET(kstats_snapshot, nr_slots, 0xffffffffu) }, .expect = 0 },
	{ "out time_ns UINT64_MAX", C_SNAPSHOT, .set = { SET(kstats_snapshot, time_ns, UINT64_MAX) }, .expect = 0 },
	{ "out realtime_ns UINT64_MAX", C_SNAPSHOT, .set = { SET(kstats_snapshot, realtime_ns, UINT64_MAX) }, .expect = 0 },
	{ "out kind 0xffffffff", C_SNAPSHOT, .set = { SET(kstats_snapshot, kind, 0xffffffffu) }, .expect = 0 },
	{ "out metric_flags 0xffffffff", C_SNAPSHOT, .set = { SET(kstats_snapshot, metric_flags, 0xffffffffu) }, .expect = 0 },
	{ "out hits UINT64_MAX", C_SNAPSHOT, .set = { SET(kstats_snapshot, hits, UINT64_MAX) }, .expect = 0 },
	{ "out misses UINT64_MAX", C_SNAPSHOT, .set = { SET(kstats_snapshot, misses, UINT64_MAX) }, .expect = 0 },
	{ "out floor_ns UINT64_MAX", C_SNAPSHOT, .set = { SET(kstats_snapshot, floor_ns, UINT64_MAX) }, .expect = 0 },
	{ "every out field all ones", C_SNAPSHOT,
	  .set = { SET(kstats_snapshot, frac_bits, 0xffffffffu), SET(kstats_snapshot, nr_cpus, 0xffffffffu),
		   SET(kstats_snapshot, nr_slots, 0xffffffffu), SET(kstats_snapshot, time_ns, UINT64_MAX),
		   SET(kstats_snapshot, kind, 0xffffffffu), SET(kstats_snapshot, floor_ns, UINT64_MAX) },
	  .expect = 0 },
	{ "out fields all ones, buf_len 0", C_SNAPSHOT,
	  .set = { SET(kstats_snapshot, buf_len, 0), SET(kstats_snapshot, realtime_ns, UINT64_MAX),
		   SET(kstats_snapshot, metric_flags, 0xffffffffu), SET(kstats_snapshot, hits, UINT64_MAX),
		   SET(kstats_snapshot, misses, UINT64_MAX) },
	  .expect = ENOSPC },

	/* RECORD */
	{ "count 0", C_RECORD, .set = { SET(kstats_record, count, 0) }, .expect = EINVAL },
	{ "count RECORD_MAX + 1", C_RECORD, .set = { SET(kstats_record, count, KSTATS_RECORD_MAX + 1) }, .expect = EINVAL },
	{ "count 0xffffffff", C_RECORD, .set = { SET(kstats_record, count, 0xffffffffu) }, .expect = EINVAL },
	{ "count 1", C_RECORD, .set = { SET(kstats_record, count, 1) }, .expect = 0 },
	{ "count RECORD_MAX", C_RECORD, .set = { SET(kstats_record, count, KSTATS_RECORD_MAX) }, .expect = 0 },
	{ "flags 1", C_RECORD, .set = { SET(kstats_record, flags, 1) }, .expect = EINVAL },
	{ "flags bit 31", C_RECORD, .set = { SET(kstats_record, flags, 1u << 31) }, .expect = EINVAL },
	{ "reserved[0] = 1", C_RECORD, .set = { SET(kstats_record, reserved[0], 1) }, .expect = EINVAL },
	{ "reserved[1] = 1 << 63", C_RECORD, .set = { SET(kstats_record, reserved[1], 1ULL << 63) }, .expect = EINVAL },
	{ "values NULL", C_RECORD, .set = { SET(kstats_record, values, 0) }, .expect = EFAULT },
	{ "values 1", C_RECORD, .set = { SET(kstats_record, values, 1) }, .expect = EFAULT },
	{ "values in a PROT_NONE page", C_RECORD, .set = { SET(kstats_record, values, PTR_NONE_PAGE) }, .expect = EFAULT },
	{ "values a kernel address", C_RECORD, .set = { SET(kstats_record, values, PTR_KERNEL) }, .expect = EFAULT },
};
const size_t nr_arg_cases = ARRAY_SIZE(arg_cases);

/* A metric of that name exists (SNAPSHOT with no buffer: ENOSPC, not ENOENT). */
int metric_exists(int fd, const char *name)
{
	struct kstats_snapshot s = { .flags = 0 };

	set_name(s.name, name);
	return kioctl(fd, KSTATS_IOC_SNAPSHOT, &s) != ENOENT;
}

static unsigned long make_ioc(const struct cmd *c, enum ioc_variant v, size_t size)
{
	unsigned int dir = _IOC_DIR(c->ioc), nr = _IOC_NR(c->ioc), type = _IOC_TYPE(c->ioc);

	switch (v) {
	case V_RIGHT: break;
	case V_NR0B: nr = 0x0b; break;
	case V_NRFF: nr = 0xff; break;
	case V_DIR_NONE: dir = _IOC_NONE; break;
	case V_DIR_R: dir = _IOC_READ; break;
	case V_DIR_W: dir = _IOC_WRITE; break;
	case V_DIR_RW: dir = _IOC_READ | _IOC_WRITE; break;
	case V_MAGIC: type = KSTATS_IOC_MAGIC + 1; break;
	}
	return _IOC(dir, type, nr, size);
}

static size_t case_size(const struct cmd *c, enum size_variant v)
{
	size_t ks = _IOC_SIZE(c->ioc);

	switch (v) {
	case S_KSIZE: return ks;
	case S_ZERO: return 0;
	case S_VER0M1: return c->ver0 - 1;
	case S_VER0: return c->ver0;
	case S_VER0P4: return c->ver0 + 4;
	case S_BIG: return ks + 8;
	case S_MAX: return _IOC_SIZEMASK;
	}
	return ks;
}

static int first_diff(const uint8_t *a, const uint8_t *b, size_t from, size_t to)
{
	size_t i;

	for (i = from; i < to; i++)
		if (a[i] != b[i])
			return (int)i;
	return -1;
}

/*
 * What the call may have written: nothing for a command that only reads
 * its argument, nothing on an error other than -ENOSPC, nothing past the
 * size passed; and a larger caller struct's tail comes back zeroed.
 */
static void check_written(const struct cmd *c, size_t us, int err)
{
	const struct kstats_snapshot *sn = (const void *)g_arg;
	size_t ks = _IOC_SIZE(c->ioc), from = us, i;
	int d;

	if (!(_IOC_DIR(c->ioc) & _IOC_READ))
		from = 0;
	else if (err && err != ENOSPC)
		from = 0;
	d = first_diff(g_arg, g_before, from, ARGBUF);
	if (d >= 0)
		tap_fail("byte %d of the argument changed (0x%02x -> 0x%02x); the call may write [0, %zu)",
			 d, g_before[d], g_arg[d], from);
	if ((_IOC_DIR(c->ioc) & _IOC_READ) && (!err || err == ENOSPC))
		for (i = ks; i < us; i++)
			if (g_arg[i]) {
				tap_fail("tail byte %zu past the kernel's %zu is 0x%02x, not 0", i, ks, g_arg[i]);
				break;
			}
	if (c == &cmds[C_INFO] && !err && us >= 4 &&
	    ((struct kstats_info *)g_arg)->abi_version != KSTATS_ABI_VERSION)
		tap_fail("abi_version %u", ((struct kstats_info *)g_arg)->abi_version);
	/* A successful SNAPSHOT of the row's new metric (frac_bits 3, empty) overwrote every out field. */
	if (c == &cmds[C_SNAPSHOT] && !err &&
	    (sn->frac_bits != 3 || sn->nr_cpus != g_info.nr_cpus || sn->nr_slots ||
	     sn->kind != KSTATS_KIND_USER || sn->metric_flags != KSTATS_METRIC_ACTIVE ||
	     sn->hits || sn->misses || sn->floor_ns || !sn->time_ns || sn->time_ns == UINT64_MAX ||
	     !sn->realtime_ns || sn->realtime_ns == UINT64_MAX))
		tap_fail("SNAPSHOT out: frac_bits %u nr_cpus %u nr_slots %u kind %u metric_flags 0x%x hits %llu misses %llu floor_ns %llu time_ns %llu realtime_ns %llu",
			 sn->frac_bits, sn->nr_cpus, sn->nr_slots, sn->kind, sn->metric_flags,
			 (unsigned long long)sn->hits, (unsigned long long)sn->misses,
			 (unsigned long long)sn->floor_ns, (unsigned long long)sn->time_ns,
			 (unsigned long long)sn->realtime_ns);
}

static int case_expect(const struct tcase *t, int ci, const char *name, const char **why)
{
	if (t->expect == OK_FPROBE)
		return g_info.mechanisms & (1ULL << KSTATS_MECH_FPROBE) ? 0 : EOPNOTSUPP;
	if (t->expect != OK)
		return t->expect;
	/* A function trace also creates GAP-NAME, which must be a valid name too. */
	if (ci == C_TRACE && !(t->how & (H_SECTION | H_TPS)) && strlen(name) > TRACE_NAME_MAX) {
		*why = " (function trace: GAP-NAME would exceed 63 bytes)";
		return EINVAL;
	}
	return 0;
}

static void setup_check(int err, const char *what, const char *name)
{
	if (err)
		tap_fail("setup: %s %s: %s", what, name, errname(err));
}

/* After a TRACE or UNTRACE: the metrics its result implies, and no others. */
static void check_trace_result(const struct tcase *t, int ci, const char *name,
			       const char *gap, int err, int pre)
{
	const struct kstats_trace *tr = (const void *)g_before;
	int traced, func = ci == C_TRACE ? tr->func != 0 : strlen(name) <= TRACE_NAME_MAX;
	int untrace;

	if (ci == C_TRACE)
		traced = !err;
	else
		traced = err && !(t->how & H_NOSETUP);
	if (metric_exists(g_fd, name) != (traced || pre || !!(t->how & H_PRECREATE)))
		tap_fail("metric %s %s", name, traced ? "missing" : "left behind");
	if (metric_exists(g_fd, gap) != ((traced && func) || !!(t->how & H_PREGAP)))
		tap_fail("metric %s %s", gap, traced && func ? "missing" : "left behind");
	untrace = k_untrace(g_fd, name);
	if (untrace != (traced ? 0 : ENOENT))
		tap_fail("cleanup: UNTRACE %s: %s, want %s", name, errname(untrace),
			 traced ? "success" : "ENOENT");
}

static void run_case(const struct tcase *t, int ci, int nr)
{
	const struct cmd *c = &cmds[ci];
	size_t ks = _IOC_SIZE(c->ioc), us = case_size(c, t->size), placed = 0, i;
	unsigned long ioc = make_ioc(c, t->ioc, us);
	char name[KSTATS_NAME_LEN], gap[KSTATS_NAME_LEN + 4];
	const char *why = "";
	uint8_t *arg = g_arg;
	int want, err, pre;

	tap_begin();
	if (t->name)
		snprintf(name, sizeof(name), "%s", t->name);
	else
		snprintf(name, sizeof(name), "abi.case%d", nr);
	snprintf(gap, sizeof(gap), "GAP-%s", name);
	want = case_expect(t, ci, name, &why);
	/* A name someone else owns, e.g. selftest.b0. */
	pre = (ci == C_TRACE || c->needs_trace) && metric_exists(g_fd, name);
	if ((c->needs_metric && !(t->how & H_NOSETUP)) || (t->how & H_PRECREATE))
		setup_check(k_create(g_fd, name, 3, 0), "CREATE", name);
	if (t->how & H_PREGAP)
		setup_check(k_create(g_fd, gap, 3, 0), "CREATE", gap);
	if (c->needs_trace && !(t->how & H_NOSETUP))
		setup_check(trace_setup(g_fd, name), "TRACE", name);

	/* Output-only arguments start as 0xAA: whatever is not written shows. */
	memset(g_arg, _IOC_DIR(c->ioc) == _IOC_READ ? 0xAA : 0, ARGBUF);
	c->build(g_arg, name);
	if (t->how & (H_SECTION | H_TPS)) {
		struct kstats_trace *tr = (void *)g_arg;

		tr->func = 0;
		tr->start = U64PTR(t->how & H_TPS ? TRACE_TP_START : TRACE_FUNC);
		tr->end = U64PTR(t->how & H_TPS ? TRACE_TP_END : TRACE_FUNC2);
	}
	for (i = 0; i < ARRAY_SIZE(t->set); i++) {
		uint64_t v = resolve(t->set[i].val);

		if (t->set[i].len)
			memcpy(g_arg + t->set[i].off, &v, t->set[i].len);	/* little-endian */
	}
	if (t->how & H_RAWNAME) {
		memset(g_arg, 0, KSTATS_NAME_LEN);
		memcpy(g_arg, t->raw, t->raw_len);
	}
	if (t->how & H_NAME63)
		g_arg[KSTATS_NAME_LEN - 1] = 'x';
	if (t->how & H_TAIL_NZ)
		g_arg[us - 1] = 0x01;
	if (t->how & H_GARBAGE)
		memset(g_arg + us, 0x5A, ARGBUF - us);
	memcpy(g_before, g_arg, ARGBUF);

	if (t->how & H_ARG_ODD)
		arg = (uint8_t *)1;
	else if (t->how & H_ARG_NULL)
		arg = NULL;
	else if (t->how & H_ARG_NONE)
		arg = g_none_page;
	else if (t->how & H_ARG_EDGE) {
		placed = us < ks ? us : ks;
		arg = g_edge - placed;
		memcpy(arg, g_arg, placed);
	}
	err = kioctl(g_fd, ioc, arg);
	want_errno(err, want, "ioctl");
	if (t->how & H_ARG_EDGE) {
		memcpy(g_arg, arg, placed);
		if (err)
			placed = 0;	/* may have written part of it */
	}
	if (!(t->how & (H_ARG_ODD | H_ARG_NULL | H_ARG_NONE)) && (!(t->how & H_ARG_EDGE) || placed))
		check_written(c, us, err);

	/* Whatever the case made or was given goes. */
	if (ci == C_TRACE || c->needs_trace)
		check_trace_result(t, ci, name, gap, err, pre);
	if (c->has_name && (ci == C_CREATE || c->needs_metric || (t->how & H_PRECREATE)))
		k_delete(g_fd, name);
	if (t->how & H_PREGAP)
		k_delete(g_fd, gap);
	tap_end("%s: %s (size %zu): %s%s", c->name, t->what, us, want ? errname(want) : "works", why);
}

static int in_group(int group, int ci)
{
	if (group == ALL_CMDS)
		return 1;
	if (group == NAMED)
		return cmds[ci].has_name;
	if (group == WRITERS)
		return !!(_IOC_DIR(cmds[ci].ioc) & _IOC_WRITE);
	return group == ci;
}

void run_table(const struct tcase *cases, size_t n)
{
	static int nr;	/* numbers the rows' metric names across tables */
	size_t i;
	int ci;

	for (i = 0; i < n; i++) {
		for (ci = 0; ci < NR_CMDS; ci++) {
			if (!in_group(cases[i].cmd, ci))
				continue;
			/* The right direction is not a wrong one. */
			if (cases[i].ioc >= V_DIR_NONE && cases[i].ioc <= V_DIR_RW &&
			    make_ioc(&cmds[ci], cases[i].ioc, 0) == make_ioc(&cmds[ci], V_RIGHT, 0))
				continue;
			run_case(&cases[i], ci, nr++);
		}
	}
}

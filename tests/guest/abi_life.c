// SPDX-License-Identifier: GPL-2.0
/*
 * INFO and LIST: nothing leaked (every byte not written comes back
 * zeroed), LIST's -ENOSPC; CONTROL on one metric and on all; the lifetime
 * and ownership of user metrics (AUTOREMOVE, creator's comm, pid, uid) and
 * what LIST says of module metrics.
 */
#include "abi_test.h"

const struct kstats_metric_info *list_one(int fd, const char *name,
					  struct kstats_metric_info **all, uint32_t *n)
{
	int err = k_list(fd, all, n);

	if (err) {
		tap_fail("LIST: %s", errname(err));
		return NULL;
	}
	return list_find(*all, *n, name);
}

/* ---- infoleak: everything not written comes back zeroed ---- */

int all_zero(const void *p, size_t len)
{
	const uint8_t *b = p;
	size_t i;

	for (i = 0; i < len; i++)
		if (b[i])
			return 0;
	return 1;
}

/* A NUL-terminated name field with nothing after the NUL. */
int clean_name(const uint8_t *f, size_t len)
{
	size_t n = strnlen((const char *)f, len);

	return n < len && all_zero(f + n, len - n);
}

void test_infoleak_info(void)
{
	enum { BIG = sizeof(struct kstats_info) + 64 };
	static uint8_t buf[BIG + 64];
	struct kstats_info *i = (void *)buf;
	int err;

	memset(buf, 0xAA, sizeof(buf));
	err = kioctl(g_fd, _IOC(_IOC_READ, KSTATS_IOC_MAGIC, 0, BIG), buf);
	want_errno(err, 0, "INFO");
	if (!clean_name(i->version, sizeof(i->version)))
		tap_fail("version[] has bytes after its NUL");
	if (!all_zero(i->reserved, sizeof(i->reserved)))
		tap_fail("reserved[] not zeroed");
	if (!all_zero(buf + sizeof(*i), BIG - sizeof(*i)))
		tap_fail("tail past the kernel's struct not zeroed");
	if (buf[BIG] != 0xAA || buf[sizeof(buf) - 1] != 0xAA)
		tap_fail("bytes past the size passed were written");
	tap_end("infoleak: INFO over 0xAA, version tail, reserved and larger struct's tail zeroed");
}

/* Whether entry @name of kind @kind is among the @n entries of @es bytes in g_list. */
static int leak_find(uint32_t es, uint32_t n, const char *name, uint32_t kind)
{
	uint32_t e;

	for (e = 0; e < n; e++) {
		const struct kstats_metric_info *m = (const void *)(g_list + (size_t)e * es);

		if (!strncmp((const char *)m->name, name, sizeof(m->name)))
			return m->kind == kind;
	}
	return 0;
}

void test_infoleak_list(void)
{
	static const uint32_t sizes[] = { KSTATS_METRIC_INFO_SIZE_VER0,
					  sizeof(struct kstats_metric_info), 240 };
	struct kstats_list l;
	uint32_t n, e, k;
	size_t i;
	int err;

	k_create(g_fd, "abi.leak.list", 1, 0);
	err = k_trace(g_fd, "abi.leak.tr", TRACE_FUNC, NULL, NULL, KSTATS_MECH_AUTO, 0);
	if (err)
		tap_fail("TRACE: %s", errname(err));
	for (k = 0; k < ARRAY_SIZE(sizes); k++) {
		uint32_t es = sizes[k];
		size_t total = (size_t)(LIST_CAP) * es;

		memset(g_list, 0xAA, total);
		memset(&l, 0, sizeof(l));
		l.entries = U64PTR(g_list);
		l.entry_size = es;
		l.nr_entries = LIST_CAP;
		err = kioctl(g_fd, KSTATS_IOC_LIST, &l);
		want_errno(err, 0, "LIST");
		n = err ? 0 : l.nr_entries;
		if (err || n < 8)
			tap_fail("%u metrics listed; selftest.* and ours should be there", n);
		for (e = 0; e < n && n <= LIST_CAP; e++) {
			const struct kstats_metric_info *m = (const void *)(g_list + (size_t)e * es);
			size_t keep = es < sizeof(*m) ? es : sizeof(*m);

			if (!clean_name(m->name, sizeof(m->name)) || !m->name[0])
				tap_fail("entry %u: name not clean", e);
			if (!clean_name(m->owner, sizeof(m->owner)))
				tap_fail("entry %u (%s): owner not clean", e, m->name);
			if (m->kind < KSTATS_KIND_MODULE || m->kind > KSTATS_KIND_GAP)
				tap_fail("entry %u (%s): kind %u", e, m->name, m->kind);
			if (m->frac_bits > KSTATS_FRAC_BITS_MAX)
				tap_fail("entry %u (%s): frac_bits %u", e, m->name, m->frac_bits);
			if (m->flags & ~(KSTATS_METRIC_ACTIVE | KSTATS_METRIC_AUTOREMOVE))
				tap_fail("entry %u (%s): flags 0x%x", e, m->name, m->flags);
			if (keep > KSTATS_METRIC_INFO_SIZE_VER0 &&
			    !all_zero(m->reserved, keep - KSTATS_METRIC_INFO_SIZE_VER0))
				tap_fail("entry %u (%s): reserved not zeroed", e, m->name);
			if (es > keep && !all_zero((const uint8_t *)m + keep, es - keep))
				tap_fail("entry %u (%s): tail past the kernel's size not zeroed",
					 e, m->name);
		}
		for (i = (size_t)n * es; n <= LIST_CAP && i < total; i++)
			if (g_list[i] != 0xAA) {
				tap_fail("byte %zu past the %u entries written", i, n);
				break;
			}
		if (!err && n <= LIST_CAP && (!leak_find(es, n, "abi.leak.tr", KSTATS_KIND_TRACE) ||
					      !leak_find(es, n, "GAP-abi.leak.tr", KSTATS_KIND_GAP)))
			tap_fail("the trace's metrics are not listed as TRACE and GAP");
		tap_end("infoleak: LIST entry_size %u over 0xAA (user, module, trace, gap entries): names, owners, reserved, tails clean; nothing past the entries",
			es);
	}
	k_untrace(g_fd, "abi.leak.tr");
	k_delete(g_fd, "abi.leak.list");
}

void test_enospc_list(void)
{
	struct kstats_info info;
	struct kstats_list l;
	uint32_t n;
	int err;

	memset(&l, 0, sizeof(l));
	l.entry_size = sizeof(struct kstats_metric_info);
	err = kioctl(g_fd, KSTATS_IOC_LIST, &l);
	want_errno(err, ENOSPC, "LIST capacity 0");
	k_info(g_fd, &info);
	if (l.nr_entries != info.nr_metrics || !l.nr_entries)
		tap_fail("nr_entries %u, INFO nr_metrics %u", l.nr_entries, info.nr_metrics);
	tap_end("LIST capacity 0, entries NULL: ENOSPC, nr_entries = number of metrics (%u)",
		l.nr_entries);
	n = l.nr_entries;

	memset(g_list, 0xAA, (size_t)n * sizeof(struct kstats_metric_info));
	memset(&l, 0, sizeof(l));
	l.entries = U64PTR(g_list);
	l.entry_size = sizeof(struct kstats_metric_info);
	l.nr_entries = n - 1;
	err = kioctl(g_fd, KSTATS_IOC_LIST, &l);
	want_errno(err, ENOSPC, "LIST capacity n - 1");
	if (l.nr_entries != n)
		tap_fail("nr_entries %u, want %u", l.nr_entries, n);
	if (g_list[0] != 0xAA || g_list[(size_t)(n - 1) * sizeof(struct kstats_metric_info) - 1] != 0xAA)
		tap_fail("entries written on -ENOSPC");
	tap_end("LIST capacity n - 1: ENOSPC, nr_entries = n, no entry written");

	l.entries = U64PTR(g_list);
	l.nr_entries = n;
	err = kioctl(g_fd, KSTATS_IOC_LIST, &l);
	want_errno(err, 0, "LIST capacity n");
	if (l.nr_entries != n)
		tap_fail("nr_entries %u, want %u", l.nr_entries, n);
	tap_end("LIST capacity n works (the struct ENOSPC returned, reused)");
}

/* ---- CONTROL ---- */

static uint32_t list_flags(const char *name, uint64_t *count)
{
	struct kstats_metric_info *all = NULL;
	const struct kstats_metric_info *m;
	uint32_t n, flags = 0xdead;

	m = list_one(g_fd, name, &all, &n);
	if (m) {
		flags = m->flags;
		if (count)
			*count = m->count;
	} else {
		tap_fail("%s not listed", name);
	}
	free(all);
	return flags;
}

void test_control(void)
{
	const char *name = "abi.ctl", *a1 = "abi.all1", *a2 = "abi.all2";
	uint64_t v[10] = { 1, 2, 3, 4, 5, 6, 7, 8, 9, 10 }, count = 0;
	struct snap s = { 0 };
	int err;

	k_create(g_fd, name, 2, 0);
	k_record(g_fd, name, v, 10);
	err = k_control(g_fd, name, KSTATS_OP_STOP, 0);
	want_errno(err, 0, "CONTROL STOP");
	if (list_flags(name, NULL) & KSTATS_METRIC_ACTIVE)
		tap_fail("LIST still ACTIVE");
	if (!k_snapshot(g_fd, name, &s) && (s.hdr.metric_flags & KSTATS_METRIC_ACTIVE))
		tap_fail("SNAPSHOT metric_flags still ACTIVE");
	err = k_record(g_fd, name, v, 5);
	want_errno(err, 0, "RECORD into a stopped metric");
	list_flags(name, &count);
	if (count != 10)
		tap_fail("count %llu after recording into a stopped metric, want 10",
			 (unsigned long long)count);
	tap_end("CONTROL STOP: ACTIVE cleared (LIST, SNAPSHOT), RECORD succeeds and adds nothing");

	err = k_control(g_fd, name, KSTATS_OP_START, 0);
	want_errno(err, 0, "CONTROL START");
	if (!(list_flags(name, NULL) & KSTATS_METRIC_ACTIVE))
		tap_fail("LIST not ACTIVE");
	k_record(g_fd, name, v, 5);
	list_flags(name, &count);
	if (count != 15)
		tap_fail("count %llu, want 15", (unsigned long long)count);
	tap_end("CONTROL START: ACTIVE again, RECORD adds");

	err = k_control(g_fd, name, KSTATS_OP_RESET, 0);
	want_errno(err, 0, "CONTROL RESET");
	err = k_snapshot(g_fd, name, &s);
	want_errno(err, 0, "SNAPSHOT");
	if (!err && (s.hdr.nr_slots || s.hdr.buf_len != (uint64_t)g_info.nr_cpus * 16))
		tap_fail("after RESET: %u slots, buf_len %llu", s.hdr.nr_slots,
			 (unsigned long long)s.hdr.buf_len);
	if (!(list_flags(name, &count) & KSTATS_METRIC_ACTIVE) || count)
		tap_fail("after RESET: count %llu, or not ACTIVE", (unsigned long long)count);
	tap_end("CONTROL RESET: snapshot has no slots, count 0, still ACTIVE");
	k_delete(g_fd, name);

	k_create(g_fd, a1, 1, 0);
	k_create(g_fd, a2, 5, KSTATS_CREATE_AUTOREMOVE);
	k_record(g_fd, a1, v, 3);
	k_record(g_fd, a2, v, 4);
	err = k_control(g_fd, NULL, KSTATS_OP_STOP, KSTATS_CONTROL_ALL);
	want_errno(err, 0, "CONTROL_ALL STOP");
	if ((list_flags(a1, NULL) | list_flags(a2, NULL) | list_flags("selftest.b0", NULL)) &
	    KSTATS_METRIC_ACTIVE)
		tap_fail("a metric still ACTIVE");
	k_record(g_fd, a1, v, 3);
	list_flags(a1, &count);
	if (count != 3)
		tap_fail("%s count %llu, want 3", a1, (unsigned long long)count);
	tap_end("CONTROL_ALL STOP: every metric (ours and selftest.b0) stopped");

	err = k_control(g_fd, NULL, KSTATS_OP_START, KSTATS_CONTROL_ALL);
	want_errno(err, 0, "CONTROL_ALL START");
	if (!(list_flags(a1, NULL) & list_flags(a2, NULL) & list_flags("selftest.b0", NULL) &
	      KSTATS_METRIC_ACTIVE))
		tap_fail("a metric not ACTIVE");
	tap_end("CONTROL_ALL START: every metric active again");

	err = k_control(g_fd, NULL, KSTATS_OP_RESET, KSTATS_CONTROL_ALL);
	want_errno(err, 0, "CONTROL_ALL RESET");
	list_flags(a1, &count);
	if (count)
		tap_fail("%s count %llu", a1, (unsigned long long)count);
	list_flags(a2, &count);
	if (count)
		tap_fail("%s count %llu", a2, (unsigned long long)count);
	tap_end("CONTROL_ALL RESET: our metrics empty");
	k_delete(g_fd, a1);
	k_delete(g_fd, a2);
	snap_free(&s);
}

/* ---- lifetime and ownership ---- */

void check_user_entry(const struct kstats_metric_info *m, const char *name,
		      uint32_t bits, uint32_t flags, uint64_t count, const char *comm,
		      pid_t pid, uid_t uid)
{
	if (!m) {
		tap_fail("%s not listed", name);
		return;
	}
	if (m->kind != KSTATS_KIND_USER)
		tap_fail("%s: kind %u, want USER", name, m->kind);
	if (strncmp((const char *)m->owner, comm, sizeof(m->owner)))
		tap_fail("%s: owner \"%.64s\", want \"%s\"", name, m->owner, comm);
	if (m->owner_pid != pid || m->owner_uid != uid)
		tap_fail("%s: owner_pid %lld owner_uid %u, want %d %u", name,
			 (long long)m->owner_pid, m->owner_uid, (int)pid, (unsigned int)uid);
	if (m->frac_bits != bits || m->flags != flags || m->count != count)
		tap_fail("%s: frac_bits %u flags 0x%x count %llu, want %u 0x%x %llu", name,
			 m->frac_bits, m->flags, (unsigned long long)m->count, bits, flags,
			 (unsigned long long)count);
}

void test_lifetime(void)
{
	const char *au = "abi.life.auto", *keep = "abi.life.keep";
	struct kstats_metric_info *all = NULL;
	struct kstats_info info;
	uint64_t v[7] = { 1, 2, 3, 4, 5, 6, 7 };
	uint32_t n, b;
	int a = kopen(), fb = kopen(), d, err;
	char name[32];

	err = k_create(a, au, 1, KSTATS_CREATE_AUTOREMOVE);
	want_errno(err, 0, "CREATE AUTOREMOVE");
	err = k_create(a, keep, 2, 0);
	want_errno(err, 0, "CREATE");
	k_record(a, au, v, 5);
	k_record(a, keep, v, 7);
	k_list(fb, &all, &n);
	check_user_entry(list_find(all, n, au), au, 1,
			 KSTATS_METRIC_ACTIVE | KSTATS_METRIC_AUTOREMOVE, 5, g_comm, getpid(), getuid());
	check_user_entry(list_find(all, n, keep), keep, 2, KSTATS_METRIC_ACTIVE, 7, g_comm,
			 getpid(), getuid());
	free(all);
	tap_end("LIST (another fd): kind USER, owner = creator's comm \"%s\", owner_pid, owner_uid, frac_bits, flags ACTIVE[|AUTOREMOVE], count",
		g_comm);

	d = dup(a);
	close(a);
	k_list(fb, &all, &n);
	if (!list_find(all, n, au))
		tap_fail("gone after closing one of two descriptors of its file");
	free(all);
	tap_end("AUTOREMOVE metric stays while a dup() of its file is open");

	close(d);
	k_list(fb, &all, &n);
	if (list_find(all, n, au))
		tap_fail("%s still listed after its file closed", au);
	if (!list_find(all, n, keep))
		tap_fail("%s gone after its creator's file closed", keep);
	free(all);
	tap_end("file closed: AUTOREMOVE metric gone, the other persists");

	err = k_create(fb, au, 1, 0);
	want_errno(err, 0, "CREATE the name again");
	k_delete(fb, au);
	tap_end("the AUTOREMOVE metric's name is free again");

	err = k_record(fb, keep, v, 1);
	want_errno(err, 0, "RECORD through another (privileged) file");
	err = k_delete(fb, keep);
	want_errno(err, 0, "DELETE");
	k_list(fb, &all, &n);
	if (list_find(all, n, keep))
		tap_fail("%s still listed", keep);
	free(all);
	err = k_delete(fb, keep);
	want_errno(err, ENOENT, "DELETE again");
	tap_end("orphaned metric: RECORD and DELETE through another file; DELETE again ENOENT");

	err = k_list(fb, &all, &n);
	for (b = 0; b <= 6 && !err; b++) {
		const struct kstats_metric_info *m;

		if (b < 6)
			snprintf(name, sizeof(name), "selftest.b%u", b);
		else
			snprintf(name, sizeof(name), "selftest.race");
		m = list_find(all, n, name);
		if (!m) {
			tap_fail("%s not listed (is tests/kmod/kstats_selftest.ko loaded?)", name);
			continue;
		}
		if (m->kind != KSTATS_KIND_MODULE || strcmp((const char *)m->owner, "kstats_selftest") ||
		    m->owner_pid != -1 || m->owner_uid != 0 || (m->flags & KSTATS_METRIC_AUTOREMOVE) ||
		    (b < 6 && m->frac_bits != b))
			tap_fail("%s: kind %u owner \"%.64s\" pid %lld uid %u flags 0x%x frac_bits %u",
				 name, m->kind, m->owner, (long long)m->owner_pid, m->owner_uid,
				 m->flags, m->frac_bits);
	}
	k_info(fb, &info);
	if (info.nr_metrics != n)
		tap_fail("INFO nr_metrics %u, LIST %u", info.nr_metrics, n);
	free(all);
	tap_end("LIST: selftest.* are kind MODULE, owner \"kstats_selftest\", owner_pid -1, uid 0; INFO nr_metrics = LIST count");
	close(fb);
}

/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Shared by the /dev/kstats ABI tests (abi_test and abi_stress): TAP
 * output, errno names, and thin wrappers around each ioctl. Header-only;
 * everything is static inline so either program can leave parts unused.
 *
 * TAP: tap_begin(); ...; tap_fail("why %d", x); ...; tap_end("name");
 * prints "ok N - name" or "not ok N - name", then the diagnostics. The
 * counters live in shared memory, so a forked child can report too (one
 * process at a time: the tests hand over explicitly).
 */
#ifndef KSTATS_ABI_UTIL_H
#define KSTATS_ABI_UTIL_H

#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <unistd.h>

#include <uapi/linux/kstats.h>	/* not include/linux/kstats.h: the kernel API */
#include "kstats_hist.h"

#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))
#define U64PTR(p)	((uint64_t)(uintptr_t)(p))

/* ---- TAP ---- */

struct tap_state {
	int n, failed;
	int cur_failed;		/* the test in progress */
	size_t diag_len;
	char diag[16384];	/* "# ..." lines of the test in progress */
};

/* One for the whole program, however many files include this: weak, not static. */
__attribute__((weak)) struct tap_state *tap;

static inline void tap_init(void)
{
	tap = mmap(NULL, sizeof(*tap), PROT_READ | PROT_WRITE,
		   MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (tap == MAP_FAILED) {
		perror("mmap");
		exit(2);
	}
	memset(tap, 0, sizeof(*tap));
}

static inline void tap_begin(void)
{
	tap->cur_failed = 0;
	tap->diag_len = 0;
	tap->diag[0] = 0;
}

static inline void tap_vdiag(const char *fmt, va_list ap)
{
	size_t room = sizeof(tap->diag) - tap->diag_len;
	int n;

	if (room < 4)
		return;
	memcpy(tap->diag + tap->diag_len, "# ", 2);
	tap->diag_len += 2;
	room -= 2;
	n = vsnprintf(tap->diag + tap->diag_len, room - 1, fmt, ap);
	if (n < 0)
		n = 0;
	if ((size_t)n > room - 2)
		n = (int)(room - 2);
	tap->diag_len += (size_t)n;
	tap->diag[tap->diag_len++] = '\n';
	tap->diag[tap->diag_len] = 0;
}

/* A diagnostic line, printed after the test's result line. */
static inline __attribute__((format(printf, 1, 2))) void tap_note(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	tap_vdiag(fmt, ap);
	va_end(ap);
}

/* Marks the test in progress failed, with a reason. */
static inline __attribute__((format(printf, 1, 2))) void tap_fail(const char *fmt, ...)
{
	va_list ap;

	tap->cur_failed = 1;
	va_start(ap, fmt);
	tap_vdiag(fmt, ap);
	va_end(ap);
}

/* Ends the test in progress: prints its result line and diagnostics. */
static inline __attribute__((format(printf, 1, 2))) int tap_end(const char *fmt, ...)
{
	va_list ap;
	int ok = !tap->cur_failed;

	tap->n++;
	if (!ok)
		tap->failed++;
	printf("%sok %d - ", ok ? "" : "not ", tap->n);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n%s", tap->diag);
	fflush(stdout);
	tap_begin();
	return ok;
}

/* Prints the plan and the summary; returns the exit status. */
static inline int tap_finish(void)
{
	printf("1..%d\n", tap->n);
	printf("%d passed, %d failed\n", tap->n - tap->failed, tap->failed);
	fflush(stdout);
	return tap->failed ? 1 : 0;
}

/* ---- errno names ---- */

static inline const char *errname(int e)
{
	static __thread char buf[24];
	const char *s;

	if (!e)
		return "success";
	s = strerrorname_np(e);
	if (s)
		return s;
	snprintf(buf, sizeof(buf), "errno %d", e);
	return buf;
}

/* Checks that @got is @want; records a failure naming @what otherwise. */
static inline int want_errno(int got, int want, const char *what)
{
	if (got == want)
		return 1;
	tap_fail("%s: got %s (%d), want %s (%d)", what, errname(got), got,
		 errname(want), want);
	return 0;
}

/* ---- ioctl wrappers: each returns 0 or the errno ---- */

static inline int kioctl(int fd, unsigned long req, void *arg)
{
	return ioctl(fd, req, arg) ? errno : 0;
}

static inline int kopen(void)
{
	return open(KSTATS_DEVICE, O_RDWR | O_CLOEXEC);
}

static inline void set_name(uint8_t dst[KSTATS_NAME_LEN], const char *name)
{
	size_t len = strlen(name);

	if (len > KSTATS_NAME_LEN - 1)
		len = KSTATS_NAME_LEN - 1;

	memset(dst, 0, KSTATS_NAME_LEN);
	memcpy(dst, name, len);
}

static inline int k_info(int fd, struct kstats_info *info)
{
	memset(info, 0, sizeof(*info));
	return kioctl(fd, KSTATS_IOC_INFO, info);
}

static inline int k_create(int fd, const char *name, uint32_t frac_bits, uint32_t flags)
{
	struct kstats_create c = { .frac_bits = frac_bits, .flags = flags };

	set_name(c.name, name);
	return kioctl(fd, KSTATS_IOC_CREATE, &c);
}

static inline int k_delete(int fd, const char *name)
{
	struct kstats_delete d = { .flags = 0 };

	set_name(d.name, name);
	return kioctl(fd, KSTATS_IOC_DELETE, &d);
}

static inline int k_control(int fd, const char *name, uint32_t op, uint32_t flags)
{
	struct kstats_control c = { .op = op, .flags = flags };

	if (name)
		set_name(c.name, name);
	return kioctl(fd, KSTATS_IOC_CONTROL, &c);
}

static inline int k_record(int fd, const char *name, const uint64_t *values, uint32_t count)
{
	struct kstats_record r = { .values = U64PTR(values), .count = count };

	set_name(r.name, name);
	return kioctl(fd, KSTATS_IOC_RECORD, &r);
}

/*
 * TRACE: a function (@func) or a section (@start, @end); the other pointers
 * 0. Creates NAME (and GAP-NAME for a function): k_untrace() it after.
 */
static inline int k_trace(int fd, const char *name, const char *func, const char *start,
			  const char *end, uint32_t mech, uint32_t flags)
{
	struct kstats_trace t = {
		.func = U64PTR(func), .start = U64PTR(start), .end = U64PTR(end),
		.mechanism = mech, .flags = flags,
	};

	set_name(t.name, name);
	return kioctl(fd, KSTATS_IOC_TRACE, &t);
}

static inline int k_untrace(int fd, const char *name)
{
	struct kstats_untrace u = { .flags = 0 };

	set_name(u.name, name);
	return kioctl(fd, KSTATS_IOC_UNTRACE, &u);
}

/* A snapshot: the header as returned and the buffer it describes. */
struct snap {
	struct kstats_snapshot hdr;
	uint8_t *buf;
	size_t cap;
	const struct kstats_snap_cpu *cpus;
	const struct kstats_snap_slot *slots;
};

/* SNAPSHOT into @s (reusing its buffer), growing it on -ENOSPC. */
static inline int k_snapshot(int fd, const char *name, struct snap *s)
{
	int err, tries;

	for (tries = 0; tries < 100; tries++) {
		memset(&s->hdr, 0, sizeof(s->hdr));
		set_name(s->hdr.name, name);
		s->hdr.buf = U64PTR(s->buf);
		s->hdr.buf_len = s->cap;
		err = kioctl(fd, KSTATS_IOC_SNAPSHOT, &s->hdr);
		if (err != ENOSPC)
			break;
		free(s->buf);
		s->cap = s->hdr.buf_len + 4096;
		s->buf = malloc(s->cap);
		if (!s->buf)
			return ENOMEM;
	}
	s->cpus = (const void *)s->buf;
	s->slots = (const void *)(s->buf + (err ? 0 : (size_t)s->hdr.nr_cpus * sizeof(*s->cpus)));
	return err;
}

static inline void snap_free(struct snap *s)
{
	free(s->buf);
	memset(s, 0, sizeof(*s));
}

/* Total samples in a snapshot. */
static inline uint64_t snap_count(const struct snap *s)
{
	uint64_t n = 0;
	uint32_t i;

	for (i = 0; i < s->hdr.nr_slots; i++)
		n += s->slots[i].count;
	return n;
}

/* LIST into a fresh array of *@n entries of the kernel's size. */
static inline int k_list(int fd, struct kstats_metric_info **out, uint32_t *n)
{
	struct kstats_list l;
	uint32_t cap = 0;
	int err, tries;

	*out = NULL;
	*n = 0;
	for (tries = 0; tries < 100; tries++) {
		free(*out);
		*out = calloc(cap + 1, sizeof(**out));
		if (!*out)
			return ENOMEM;
		memset(&l, 0, sizeof(l));
		l.entries = U64PTR(*out);
		l.entry_size = sizeof(**out);
		l.nr_entries = cap;
		err = kioctl(fd, KSTATS_IOC_LIST, &l);
		if (err != ENOSPC)
			break;
		cap = l.nr_entries + 8;
	}
	*n = err ? 0 : l.nr_entries;
	return err;
}

static inline const struct kstats_metric_info *
list_find(const struct kstats_metric_info *e, uint32_t n, const char *name)
{
	uint32_t i;

	for (i = 0; i < n; i++)
		if (!strncmp((const char *)e[i].name, name, KSTATS_NAME_LEN))
			return &e[i];
	return NULL;
}

/*
 * ---- Handing a file to another process ----
 * Over a UNIX socket pair (SCM_RIGHTS) where the kernel has sockets. The debug
 * kernel has none (tests/vm/debug.config: no CONFIG_NET, so socket calls fail
 * with ENOSYS); there two pipes carry the sender's pid and fd number, and the
 * receiver takes its own reference to the same file with pidfd_getfd(). That
 * needs ptrace rights over the sender: root can take an unprivileged
 * process's file, not the other way round.
 */
struct fd_chan {
	int rd, wr;	/* one socket, or the ends of two pipes */
	int pipes;
};

/* 0, or -1 with errno; c[0] talks to c[1]. */
static inline int chan_pair(struct fd_chan c[2])
{
	int sv[2], a[2], b[2];

	if (!socketpair(AF_UNIX, SOCK_STREAM, 0, sv)) {
		c[0] = (struct fd_chan){ sv[0], sv[0], 0 };
		c[1] = (struct fd_chan){ sv[1], sv[1], 0 };
		return 0;
	}
	if (errno != ENOSYS || pipe(a))	/* ENOSYS: no socket calls at all */
		return -1;
	if (pipe(b)) {
		close(a[0]);
		close(a[1]);
		return -1;
	}
	c[0] = (struct fd_chan){ b[0], a[1], 1 };
	c[1] = (struct fd_chan){ a[0], b[1], 1 };
	return 0;
}

static inline void chan_close(struct fd_chan *c)
{
	close(c->rd);
	if (c->wr != c->rd)
		close(c->wr);
}

/* A new descriptor for file @fd of process @pid (close-on-exec), or -1. */
static inline int pidfd_take(pid_t pid, int fd)
{
	int pidfd = syscall(SYS_pidfd_open, pid, 0), got;

	if (pidfd < 0)
		return -1;
	got = syscall(SYS_pidfd_getfd, pidfd, fd, 0);
	close(pidfd);
	return got;
}

struct fd_note {
	int32_t pid, fd;
};

/* Without sockets this waits until the receiver holds its own reference. */
static inline int send_fd(struct fd_chan *ch, int fd)
{
	char byte = 'F';
	struct iovec iov = { .iov_base = &byte, .iov_len = 1 };
	union {
		struct cmsghdr h;
		char buf[CMSG_SPACE(sizeof(int))];
	} u;
	struct msghdr msg = {
		.msg_iov = &iov, .msg_iovlen = 1,
		.msg_control = u.buf, .msg_controllen = sizeof(u.buf),
	};
	struct fd_note note = { getpid(), fd };
	struct cmsghdr *c = CMSG_FIRSTHDR(&msg);

	if (ch->pipes)
		return write(ch->wr, &note, sizeof(note)) == sizeof(note) &&
		       read(ch->rd, &byte, 1) == 1 && byte == 'A' ? 0 : -1;
	memset(&u, 0, sizeof(u));
	c->cmsg_level = SOL_SOCKET;
	c->cmsg_type = SCM_RIGHTS;
	c->cmsg_len = CMSG_LEN(sizeof(int));
	memcpy(CMSG_DATA(c), &fd, sizeof(int));
	return sendmsg(ch->wr, &msg, 0) == 1 ? 0 : -1;
}

static inline int recv_fd(struct fd_chan *ch)
{
	char byte;
	struct iovec iov = { .iov_base = &byte, .iov_len = 1 };
	union {
		struct cmsghdr h;
		char buf[CMSG_SPACE(sizeof(int))];
	} u;
	struct msghdr msg = {
		.msg_iov = &iov, .msg_iovlen = 1,
		.msg_control = u.buf, .msg_controllen = sizeof(u.buf),
	};
	struct fd_note note;
	struct cmsghdr *c;
	int fd;

	if (ch->pipes) {
		if (read(ch->rd, &note, sizeof(note)) != sizeof(note))
			return -1;
		fd = pidfd_take(note.pid, note.fd);
		/* The sender waits for this either way. */
		if (write(ch->wr, "A", 1) != 1 && fd >= 0) {
			close(fd);
			fd = -1;
		}
		return fd;
	}
	if (recvmsg(ch->rd, &msg, MSG_CMSG_CLOEXEC) != 1)
		return -1;
	c = CMSG_FIRSTHDR(&msg);
	if (!c || c->cmsg_level != SOL_SOCKET || c->cmsg_type != SCM_RIGHTS)
		return -1;
	memcpy(&fd, CMSG_DATA(c), sizeof(int));
	return fd;
}

#endif /* KSTATS_ABI_UTIL_H */

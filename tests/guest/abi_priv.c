// SPDX-License-Identifier: GPL-2.0
/*
 * Privilege is the opener's credentials, not the caller's: an unprivileged
 * opener gets EPERM for every mutating command (after the argument
 * checks), an unprivileged caller holding a root-opened file (inherited,
 * or received over SCM_RIGHTS) may do everything, and root holding an
 * unprivileged-opened file may not. Needs root (to drop to nobody).
 */
#include "abi_test.h"

#include <grp.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>

#define NOBODY 65534

struct priv_op {
	const char *what;
	int cmd;
	const char *name;
	struct fset set;
	int expect;
};

static const struct priv_op unpriv_ops[] = {
	{ "CREATE", C_CREATE, "abi.priv.c", { 0 }, EPERM },
	{ "DELETE", C_DELETE, "abi.priv.m", { 0 }, EPERM },
	{ "CONTROL START", C_CONTROL, "abi.priv.m", { 0 }, EPERM },
	{ "CONTROL STOP", C_CONTROL, "abi.priv.m", SET(kstats_control, op, KSTATS_OP_STOP), EPERM },
	{ "CONTROL RESET", C_CONTROL, "abi.priv.m", SET(kstats_control, op, KSTATS_OP_RESET), EPERM },
	{ "RECORD into a metric it did not create", C_RECORD, "abi.priv.m", { 0 }, EPERM },
	{ "TRACE", C_TRACE, "abi.priv.t", { 0 }, EPERM },
	{ "TRACE, a section", C_TRACE, "abi.priv.t", SET(kstats_trace, func, 0), EPERM },
	{ "TRACE with flags bit 31 (arguments are checked first)", C_TRACE, "abi.priv.t",
	  SET(kstats_trace, flags, 1u << 31), EINVAL },
	{ "TRACE with an expr in a PROT_NONE page (read before the privilege check)", C_TRACE,
	  "abi.priv.t", SET(kstats_trace, expr, PTR_NONE_PAGE), EFAULT },
	{ "TRACE with an expr with an unknown flag (checked before the privilege)", C_TRACE,
	  "abi.priv.t", SET(kstats_trace, expr, PTR_EXPR_BAD), EINVAL },
	{ "UNTRACE of root's trace", C_UNTRACE, "abi.priv.tr", { 0 }, EPERM },
	{ "UNTRACE of an unknown name", C_UNTRACE, "abi.priv.t", { 0 }, EPERM },
	{ "INFO", C_INFO, NULL, { 0 }, 0 },
	{ "LIST", C_LIST, NULL, { 0 }, 0 },
	{ "SNAPSHOT", C_SNAPSHOT, "abi.priv.m", { 0 }, 0 },
};

static int run_op(int fd, int ci, const char *name, const struct fset *set)
{
	uint8_t buf[512] __attribute__((aligned(8)));	/* more than any request's struct */

	memset(buf, 0, sizeof(buf));
	cmds[ci].build(buf, name ? name : "");
	if (ci == C_TRACE && set && set->len && set->off == offsetof(struct kstats_trace, func)) {
		((struct kstats_trace *)buf)->start = U64PTR(TRACE_FUNC);
		((struct kstats_trace *)buf)->end = U64PTR(TRACE_FUNC2);
	}
	if (set && set->len) {
		uint64_t v = resolve(set->val);

		memcpy(buf + set->off, &v, set->len);
	}
	return kioctl(fd, cmds[ci].ioc, buf);
}

static void priv_child(struct fd_chan *ch, int rootfd)
{
	struct kstats_metric_info *all = NULL;
	uint64_t v[3] = { 10, 20, 30 };
	char line[256];
	uint32_t n;
	size_t i;
	int ufd, rfd2, err;
	FILE *f;
	char b;

	prctl(PR_SET_NAME, "abi_unpriv");
	if (setgroups(0, NULL) || setresgid(NOBODY, NOBODY, NOBODY) ||
	    setresuid(NOBODY, NOBODY, NOBODY))
		tap_fail("dropping to %d: %s", NOBODY, strerror(errno));
	f = fopen("/proc/self/status", "r");
	while (f && fgets(line, sizeof(line), f))
		if (!strncmp(line, "CapEff:", 7) && strtoull(line + 7, NULL, 16))
			tap_fail("capabilities left: %s", line);
	if (f)
		fclose(f);
	tap_end("child: uid/gid %d, no effective capabilities", NOBODY);

	ufd = kopen();
	if (ufd < 0)
		tap_fail("open: %s", strerror(errno));
	tap_end("child: opens /dev/kstats (mode 0666 for the test)");

	for (i = 0; i < ARRAY_SIZE(unpriv_ops); i++) {
		const struct priv_op *o = &unpriv_ops[i];

		err = run_op(ufd, o->cmd, o->name, &o->set);
		want_errno(err, o->expect, o->what);
		tap_end("unprivileged opener: %s: %s", o->what, o->expect ? errname(o->expect) : "works");
	}
	err = k_control(ufd, NULL, KSTATS_OP_START, KSTATS_CONTROL_ALL);
	want_errno(err, EPERM, "CONTROL_ALL");
	tap_end("unprivileged opener: CONTROL_ALL START: EPERM");

	/* (a) A file root opened, inherited: the opener's privilege counts. */
	err = k_create(rootfd, "abi.priv.a", 1, 0);
	want_errno(err, 0, "CREATE through the inherited root-opened fd");
	tap_end("unprivileged caller, inherited root-opened fd: CREATE works");
	err = k_record(rootfd, "abi.priv.a", v, 3);
	want_errno(err, 0, "RECORD through the root-opened fd");
	tap_end("unprivileged caller, root-opened fd: RECORD into the metric created through it works");
	err = k_record(ufd, "abi.priv.a", v, 3);
	want_errno(err, EPERM, "RECORD through its own fd");
	tap_end("unprivileged opener: RECORD into a metric created through another file: EPERM");
	err = k_trace(rootfd, "abi.priv.rt", TRACE_FUNC, NULL, NULL, KSTATS_MECH_AUTO, 0);
	want_errno(err, 0, "TRACE through the inherited root-opened fd");
	err = k_untrace(ufd, "abi.priv.rt");
	want_errno(err, EPERM, "UNTRACE through its own fd");
	err = k_untrace(rootfd, "abi.priv.rt");
	want_errno(err, 0, "UNTRACE through the root-opened fd");
	tap_end("unprivileged caller, root-opened fd: TRACE and UNTRACE work (own fd: UNTRACE EPERM)");
	err = k_list(ufd, &all, &n);
	want_errno(err, 0, "LIST");
	check_user_entry(list_find(all, n, "abi.priv.a"), "abi.priv.a", 1, KSTATS_METRIC_ACTIVE,
			 3, "abi_unpriv", getpid(), NOBODY);
	free(all);
	tap_end("metric created by the unprivileged caller: owner comm \"abi_unpriv\", its pid, uid %d",
		NOBODY);

	/* A root-opened file received over SCM_RIGHTS. */
	if (ch->pipes) {
		/* pidfd_getfd() would need ptrace rights over root; (a) covers the file. */
		tap_end("unprivileged caller, root-opened fd over SCM_RIGHTS # SKIP no sockets in this kernel");
	} else {
		rfd2 = recv_fd(ch);
		if (rfd2 < 0)
			tap_fail("no fd received");
		err = k_create(rfd2, "abi.priv.s", 0, 0);
		want_errno(err, 0, "CREATE through the received fd");
		err = k_record(rfd2, "abi.priv.s", v, 1);
		want_errno(err, 0, "RECORD through the received fd");
		err = k_delete(rfd2, "abi.priv.s");
		want_errno(err, 0, "DELETE through the received fd");
		tap_end("unprivileged caller, root-opened fd over SCM_RIGHTS: CREATE, RECORD, DELETE work");
	}

	/* (b) Its own file to root. */
	if (send_fd(ch, ufd))
		_exit(3);
	if (read(ch->rd, &b, 1) != 1)
		_exit(4);
	_exit(0);
}

void test_privilege(void)
{
	uint64_t v[4] = { 1, 2, 3, 4 };
	struct kstats_info info;
	struct stat st;
	struct fd_chan ch[2];
	int rootfd, rfd2, ufd, status, err;
	pid_t pid;

	if (geteuid() != 0) {
		printf("ok %d - privilege tests # SKIP not root\n", ++tap->n);
		return;
	}
	k_create(g_fd, "abi.priv.m", 2, 0);
	k_record(g_fd, "abi.priv.m", v, 4);
	err = k_trace(g_fd, "abi.priv.tr", TRACE_FUNC, NULL, NULL, KSTATS_MECH_AUTO, 0);
	want_errno(err, 0, "setup: TRACE abi.priv.tr");
	/* The channel first: a failure after the chmod would leave the mode changed. */
	if (chan_pair(ch) || stat(KSTATS_DEVICE, &st) || chmod(KSTATS_DEVICE, 0666)) {
		tap_fail("setup: %s", strerror(errno));
		tap_end("privilege tests set up");
		k_untrace(g_fd, "abi.priv.tr");
		k_delete(g_fd, "abi.priv.m");
		return;
	}
	rootfd = kopen();
	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		chan_close(&ch[0]);
		priv_child(&ch[1], rootfd);
		_exit(0);
	}
	chan_close(&ch[1]);
	rfd2 = kopen();
	if (!ch[0].pipes)
		send_fd(&ch[0], rfd2);
	close(rfd2);

	ufd = recv_fd(&ch[0]);	/* the child's own, unprivileged file */
	if (ufd < 0)
		tap_fail("no fd from the child");
	err = k_create(ufd, "abi.priv.b", 0, 0);
	want_errno(err, EPERM, "root CREATE through the child's fd");
	tap_end("root caller, unprivileged-opened fd handed over: CREATE: EPERM");
	err = k_record(ufd, "abi.priv.m", v, 1);
	want_errno(err, EPERM, "root RECORD through the child's fd");
	tap_end("root caller, unprivileged-opened fd: RECORD: EPERM");
	err = k_control(ufd, "abi.priv.m", KSTATS_OP_RESET, 0);
	want_errno(err, EPERM, "root CONTROL through the child's fd");
	tap_end("root caller, unprivileged-opened fd: CONTROL: EPERM");
	err = k_trace(ufd, "abi.priv.b", TRACE_FUNC, NULL, NULL, KSTATS_MECH_AUTO, 0);
	want_errno(err, EPERM, "root TRACE through the child's fd");
	err = k_untrace(ufd, "abi.priv.tr");
	want_errno(err, EPERM, "root UNTRACE through the child's fd");
	tap_end("root caller, unprivileged-opened fd: TRACE, UNTRACE: EPERM");
	err = k_info(ufd, &info);
	want_errno(err, 0, "INFO through the child's fd");
	tap_end("root caller, unprivileged-opened fd: INFO works");
	close(ufd);
	if (write(ch[0].wr, "d", 1) != 1)
		tap_fail("handshake");

	if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status) || WEXITSTATUS(status))
		tap_fail("child status 0x%x", status);
	tap_end("unprivileged child exited cleanly");
	chan_close(&ch[0]);
	close(rootfd);
	if (chmod(KSTATS_DEVICE, st.st_mode & 07777))
		tap_fail("restoring the mode: %s", strerror(errno));
	err = k_delete(g_fd, "abi.priv.a");
	want_errno(err, 0, "DELETE abi.priv.a");
	k_delete(g_fd, "abi.priv.m");
	if (!k_delete(g_fd, "abi.priv.c") || !k_delete(g_fd, "abi.priv.b") ||
	    metric_exists(g_fd, "abi.priv.t") || metric_exists(g_fd, "abi.priv.rt"))
		tap_fail("a metric an unprivileged file tried to create exists");
	err = k_untrace(g_fd, "abi.priv.tr");
	want_errno(err, 0, "UNTRACE abi.priv.tr (still there after the EPERMs)");
	tap_end("privilege tests cleaned up, %s mode restored to %04o", KSTATS_DEVICE,
		(unsigned int)(st.st_mode & 07777));
}

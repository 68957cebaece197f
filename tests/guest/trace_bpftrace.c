// SPDX-License-Identifier: GPL-2.0
/*
 * bpftrace as an oracle: it counts the calls its own kprobe sees while
 * kstats traces the same function, on every CPU at once; kstats' samples
 * plus misses must be its count.
 *
 * The harness never waits on bpftrace without a bound, and never relies on
 * a signal to stop it. bpftrace 0.17 (Debian 12) acts on SIGINT only when
 * it interrupts epoll_wait(): a SIGINT that lands anywhere else in its
 * poll loop (e.g. between the 100 ms timeout waking it and epoll_wait()
 * returning 0, which the kernel does without looking at signals) is
 * recorded and never acted on, and a count()-only program sends no event
 * that would make it look. That is the hang seen on fully preemptible
 * kernels. So bpftrace stops itself: a call of ktarget_sleep() runs its
 * exit(). SIGINT, then SIGKILL, remain only as bounded fallbacks, and the
 * test fails if either is needed.
 *
 * "Attached" is proven, not assumed: warm-up calls of ktarget_empty() are
 * made one at a time until bpftrace's probe reports the first; bpftrace's
 * count then includes exactly those warm-up calls.
 */
#define _GNU_SOURCE	/* unshare() */
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sched.h>
#include <sys/mount.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "abi_util.h"
#include "trace_test.h"


static const char bpf_prog[] =
	"BEGIN { printf(\"begin\\n\"); } "
	"kprobe:ktarget_empty { @n = count(); "
	"if (@first == 0) { @first = 1; printf(\"attached\\n\"); } } "
	"kprobe:ktarget_sleep { exit(); }";

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/*
 * The next line of @pr's output into @line, waiting at most @secs: 1, or 0
 * on timeout or end of output.
 */
int peer_line(struct peer *pr, char *line, size_t size, double secs)
{
	double end = now_s() + secs;
	struct pollfd p = { .fd = pr->out, .events = POLLIN };
	char *nl;
	ssize_t n;

	for (;;) {
		nl = memchr(pr->buf, '\n', pr->len);
		if (nl) {
			size_t l = nl - pr->buf + 1;

			snprintf(line, size, "%.*s", (int)(l - 1), pr->buf);
			memmove(pr->buf, pr->buf + l, pr->len - l);
			pr->len -= l;
			return 1;
		}
		if (pr->eof || now_s() >= end)
			return 0;
		if (pr->len >= sizeof(pr->buf) - 1)
			pr->len = 0;	/* a line too long to be ours */
		if (poll(&p, 1, (int)((end - now_s()) * 1000) + 1) <= 0)
			continue;
		n = read(pr->out, pr->buf + pr->len, sizeof(pr->buf) - 1 - pr->len);
		if (n <= 0)
			pr->eof = 1;
		else
			pr->len += n;
	}
}

/* Waits up to @secs for a line equal to @want. */
int peer_expect(struct peer *pr, const char *want, double secs)
{
	double end = now_s() + secs;
	char line[256];

	while (peer_line(pr, line, sizeof(line), end - now_s()))
		if (!strcmp(line, want))
			return 1;
	return 0;
}

/*
 * Chroots into @root, a Debian root with its own bpftrace, with the guest's
 * /proc, /sys (tracefs, debugfs, BTF beneath) and /dev bound there in a
 * mount namespace of its own: nothing stays mounted once it exits. 0, or
 * what failed.
 */
static const char *enter_root(const char *root)
{
	static const char *const binds[] = { "/proc", "/sys", "/dev" };
	char at[4096];
	size_t i;

	if (unshare(CLONE_NEWNS))
		return "unshare";
	if (mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL))
		return "mount --make-rprivate /";
	for (i = 0; i < sizeof(binds) / sizeof(binds[0]); i++) {
		snprintf(at, sizeof(at), "%s%s", root, binds[i]);
		if (mount(binds[i], at, NULL, MS_BIND | MS_REC, NULL))
			return binds[i];
	}
	if (chroot(root) || chdir("/"))
		return "chroot";
	return NULL;
}

/*
 * Where the lane has no bpftrace (KSTATS_NO_BPFTRACE says why: main-tests.sh,
 * the debug kernel is built without BPF), a comparison with it is a TAP skip,
 * said so; on any other lane a bpftrace that cannot start fails it.
 */
int no_bpftrace(const char *what)
{
	const char *why = getenv("KSTATS_NO_BPFTRACE");

	if (!why || !*why)
		return 0;
	ok(1, "%s # SKIP %s", what, why);
	return 1;
}

/* bpftrace running @prog: the host's, or @root's (see enter_root()). */
int peer_start(struct peer *pr, const char *root, const char *prog)
{
	const char *failed;
	int pipefd[2];

	memset(pr, 0, sizeof(*pr));
	if (pipe(pipefd))
		return 0;
	pr->pid = fork();
	if (!pr->pid) {
		dup2(pipefd[1], 1);
		close(pipefd[0]);
		failed = root ? enter_root(root) : NULL;
		if (failed) {
			fprintf(stderr, "# bpftrace in %s: %s: %s\n", root, failed, strerror(errno));
			_exit(127);
		}
		execlp("bpftrace", "bpftrace", "-e", prog, (char *)NULL);
		_exit(127);
	}
	close(pipefd[1]);
	pr->out = pipefd[0];
	return pr->pid > 0;
}

/*
 * Reads the rest of @pr's output, each line to @fn, until it exits by
 * itself or @secs pass; then SIGINT, then SIGKILL, each with a bound. 0 if
 * a fallback was needed.
 */
int peer_finish(struct peer *pr, void (*fn)(const char *line, void *arg), void *arg,
		double secs)
{
	static const int fallback[] = { 0, SIGINT, SIGKILL };
	char line[256];
	int status, i, clean = 1;
	double end;

	for (i = 0; i < 3 && !pr->eof; i++) {
		if (fallback[i]) {
			diag("bpftrace did not exit in %.0f s: %s", secs, strsignal(fallback[i]));
			kill(pr->pid, fallback[i]);
			clean = 0;
		}
		end = now_s() + secs;
		while (now_s() < end && !pr->eof)
			if (peer_line(pr, line, sizeof(line), end - now_s()))
				fn(line, arg);
	}
	if (!pr->eof) {
		diag("bpftrace's output never ended");
		clean = 0;
	}
	close(pr->out);
	waitpid(pr->pid, &status, 0);
	return clean;
}

static void count_line(const char *line, void *arg)
{
	sscanf(line, "@n: %llu", (unsigned long long *)arg);
}

/*
 * One bpftrace beside a kstats trace of each mechanism in @mechs (a bit
 * each) on the same calls: its start is the slow part (6-11 s under TCG).
 */
void test_bpftrace(uint64_t mechs)
{
	static const struct { uint32_t mech; const char *m, *name; } all[] = {
		{ KSTATS_MECH_FPROBE, "fprobe", "t.bpf.fp" },
		{ KSTATS_MECH_KRETPROBE, "kretprobe", "t.bpf.kr" },
	};
	unsigned long long counted = 0, warm = 0;
	int begun, attached = 0, traced = 1, clean;
	struct hist h[ARRAY_SIZE(all)];
	uint64_t calls;
	struct peer pr;
	size_t i;

	if (no_bpftrace("bpftrace's counts beside both mechanisms"))
		return;
	if (!ok(peer_start(&pr, NULL, bpf_prog), "bpftrace started"))
		return;
	begun = peer_expect(&pr, "begin", BPF_START_S);
	while (begun && !attached && warm < 1000) {
		target("empty 1");
		warm++;
		attached = peer_expect(&pr, "attached", 1);
	}
	for (i = 0; i < ARRAY_SIZE(all) && attached; i++) {
		struct req r = { .name = all[i].name, .func = "ktarget_empty", .mech = all[i].mech };

		if (mechs & (1ULL << all[i].mech))
			traced &= trace(fd, &r) == 0;
	}
	if (!ok(attached && traced,
		"bpftrace's probe counting (after %llu warm-up calls), and kstats attached", warm)) {
		kill(pr.pid, SIGKILL);
		peer_finish(&pr, count_line, &counted, 1);
		for (i = 0; i < ARRAY_SIZE(all); i++)
			untrace(all[i].name);
		return;
	}
	calls = target("empty 2000");
	calls += target("hammer 1000");
	for (i = 0; i < ARRAY_SIZE(all); i++)
		if (mechs & (1ULL << all[i].mech)) {
			snap(all[i].name, &h[i]);
			untrace(all[i].name);
		}
	target("sleep 1 1");	/* bpftrace's exit() */
	clean = peer_finish(&pr, count_line, &counted, BPF_STOP_S);
	ok(clean, "bpftrace exited by itself");
	for (i = 0; i < ARRAY_SIZE(all); i++) {
		if (!(mechs & (1ULL << all[i].mech)))
			continue;
		ok(counted == warm + calls && h[i].total + h[i].sn.misses == calls,
		   "%s: bpftrace counted %llu calls (%llu warm-up), kstats %llu samples + %llu "
		   "misses, of %llu", all[i].m, counted, warm, (unsigned long long)h[i].total,
		   (unsigned long long)h[i].sn.misses, (unsigned long long)calls);
	}
}

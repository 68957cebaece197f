// SPDX-License-Identifier: GPL-2.0
/*
 * What one SNAPSHOT (and one read of the debugfs view) allocates in the
 * kernel, counted by the kernel's own trace events for the allocations the
 * call asks for: kmalloc (kmalloc_node where a kernel still has it; large
 * kmallocs and kvmalloc included) and percpu_alloc_percpu, their
 * bytes_alloc summed, for this process in process context, with tracing on
 * only around the call. So the figure does not depend on kstats' own
 * bookkeeping, nor on the state of the slab caches: the pages the allocator
 * takes to refill a cache on the call's behalf (mm_page_alloc, 32 KB for
 * kmalloc-8k) are its own cost, not the call's, and made the figure vary
 * from boot to boot. kmem_cache_alloc is not counted: kstats has no slab
 * cache of its own, and what the VFS takes from its caches for an open()
 * (the path name, 4 KB, struct file, seq_file) is not the view's. kstats must
 * allocate in proportion to what it returns, not to possible CPUs x slots:
 * a metric with frac_bits 5 and a few samples, on a machine with many
 * possible CPUs, would otherwise cost ~30 KB per possible CPU.
 *
 * Output is TAP; each test prints "bytes allocated / bytes returned".
 * Usage: alloc_test [SAMPLES]   (root, kstats loaded, tracefs mounted)
 */
#include "abi_util.h"

#include <fcntl.h>

#define TRACING		"/sys/kernel/tracing/"
#define METRIC		"alloc.test"
#define VIEW		"/sys/kernel/debug/kstats/" METRIC
/* Fixed costs besides what is returned: the copy's header, rounding. */
#define SLACK		8192

/* The allocation events counted; the first must exist, the others may not. */
static const char *const counted[] = {
	"kmem/kmalloc", "kmem/kmalloc_node", "percpu/percpu_alloc_percpu",
};

static void put(const char *file, const char *text)
{
	int fd = open(file, O_WRONLY | O_TRUNC);

	if (fd < 0 || write(fd, text, strlen(text)) != (ssize_t)strlen(text)) {
		fprintf(stderr, "alloc_test: cannot write '%s' to %s: %s\n", text, file,
			strerror(errno));
		exit(2);
	}
	close(fd);
}

static int tracing_on = -1;

static void enable(const char *on)
{
	char path[256];
	size_t i;

	for (i = 0; i < ARRAY_SIZE(counted); i++) {
		snprintf(path, sizeof(path), TRACING "events/%s/enable", counted[i]);
		if (i && access(path, W_OK))
			continue;
		put(path, on);
	}
}

static void events(int on)
{
	char pid[32];

	if (on) {
		put(TRACING "tracing_on", "0");
		put(TRACING "trace", "");
		/* The context column (hardirq, softirq) of each line: see allocated(). */
		put(TRACING "options/irq-info", "1");
		snprintf(pid, sizeof(pid), "%d", getpid());
		put(TRACING "set_event_pid", pid);
		enable("1");
		tracing_on = open(TRACING "tracing_on", O_WRONLY);
		if (tracing_on < 0) {
			perror("alloc_test: tracing_on");
			exit(2);
		}
	} else {
		close(tracing_on);
		enable("0");
		put(TRACING "set_event_pid", "");
	}
}

/*
 * Bytes the recorded events allocated (their bytes_alloc). An interrupt
 * taken while this process ran is filtered to it too, but is not the call:
 * lines whose context column says hardirq, softirq or NMI are skipped
 * ("  alloc_test-42  [001] ..s1.  12.3: kmalloc: ... bytes_alloc=64 ...").
 */
/* The events counted last time, "event call_site bytes" a line: shown on failure. */
static char counted_events[4096];

static void keep_event(const char *line)
{
	size_t len = strlen(counted_events), n;
	const char *ev = strstr(line, ": "), *site = strstr(line, "call_site="),
		   *bytes = strstr(line, "bytes_alloc=");

	if (!ev || !site || !bytes || len + 200 > sizeof(counted_events))
		return;
	ev = strstr(ev + 2, ": ") ? ev + 2 : ev;
	n = strcspn(ev, ":");
	len += snprintf(counted_events + len, sizeof(counted_events) - len, "%.*s %.*s %.*s\n",
			(int)n, ev, (int)strcspn(site, " "), site, (int)strcspn(bytes, " \n"), bytes);
}

static uint64_t allocated(void)
{
	FILE *f = fopen(TRACING "trace", "r");
	char line[1024], *p;
	uint64_t sum = 0;

	counted_events[0] = 0;

	if (!f) {
		perror("alloc_test: trace");
		exit(2);
	}
	while (fgets(line, sizeof(line), f)) {
		if (line[0] == '#')
			continue;
		p = strstr(line, "] ");
		if (p && strlen(p) > 5 && strchr("hsHzZ", p[4]))
			continue;
		p = strstr(line, "bytes_alloc=");
		if (p) {
			sum += strtoull(p + strlen("bytes_alloc="), NULL, 10);
			keep_event(line);
		}
	}
	fclose(f);
	return sum;
}

/* Tracing on for exactly the call: the write that turns it off is traced too. */
static void trace_window(int on)
{
	if (write(tracing_on, on ? "1" : "0", 1) != 1) {
		perror("alloc_test: tracing_on");
		exit(2);
	}
}

/* ALLOC_TEST_EVENTS=1: every counted event is listed, not only on failure. */
static void check(const char *what, uint64_t used, uint64_t returned)
{
	const char *e = counted_events;
	int failed = used > 2 * returned + SLACK;

	if (failed)
		tap_fail("%s allocated %llu bytes for %llu returned (allowed 2x + %d)", what,
			 (unsigned long long)used, (unsigned long long)returned, SLACK);
	tap_note("%s: %llu bytes allocated, %llu bytes returned", what,
		 (unsigned long long)used, (unsigned long long)returned);
	while ((failed || getenv("ALLOC_TEST_EVENTS")) && *e) {
		tap_note("  %.*s", (int)strcspn(e, "\n"), e);
		e += strcspn(e, "\n") + 1;
	}
	tap_end("%s allocates in proportion to what it returns", what);
}

/* What one SNAPSHOT into @buf allocates; its errno (0: none) in @err. */
static uint64_t snapshot_cost(int fd, void *buf, size_t len, struct kstats_snapshot *sn,
			      int *err)
{
	memset(sn, 0, sizeof(*sn));
	set_name(sn->name, METRIC);
	sn->buf = U64PTR(buf);
	sn->buf_len = len;
	events(1);
	trace_window(1);
	*err = ioctl(fd, KSTATS_IOC_SNAPSHOT, sn) ? errno : 0;
	trace_window(0);
	events(0);
	return allocated();
}

int main(int argc, char **argv)
{
	uint32_t samples = argc > 1 ? (uint32_t)strtoul(argv[1], NULL, 0) : 64;
	struct kstats_info info;
	struct kstats_snapshot sn;
	uint64_t *vals, used;
	size_t len = 1 << 20;
	char *buf = malloc(len), *view;
	ssize_t n, total = 0;
	uint32_t i;
	int fd, vfd, err;

	tap_init();
	fd = kopen();
	vals = calloc(samples, sizeof(*vals));
	if (fd < 0 || !buf || !vals || k_info(fd, &info)) {
		perror("alloc_test: setup");
		return 2;
	}
	/* Spread over the value range: many slots of one CPU in use. */
	for (i = 0; i < samples; i++)
		vals[i] = 1ULL << (i % 60);
	k_delete(fd, METRIC);
	if (k_create(fd, METRIC, 5, 0) || k_record(fd, METRIC, vals, samples)) {
		perror("alloc_test: create/record");
		return 2;
	}
	memset(buf, 1, len);	/* faulted in now, not during the call */
	tap_note("%u possible CPUs, frac_bits 5, %u samples", info.nr_cpus, samples);

	/* The sizing call: no buffer, -ENOSPC and the size. */
	used = snapshot_cost(fd, NULL, 0, &sn, &err);
	if (err != ENOSPC)
		tap_fail("sizing SNAPSHOT: %s, want ENOSPC", errname(err));
	check("SNAPSHOT sizing call", used, sn.buf_len);

	used = snapshot_cost(fd, buf, len, &sn, &err);
	if (err)
		tap_fail("SNAPSHOT: %s", errname(err));
	else if (sn.nr_slots == 0 || sn.nr_cpus != info.nr_cpus)
		tap_fail("SNAPSHOT: %u slots, %u CPUs", sn.nr_slots, sn.nr_cpus);
	check("SNAPSHOT", used, sn.buf_len);

	/*
	 * The debugfs view: open, read it all, close; measured the second time:
	 * the first open of a debugfs file also sets up its proxy (once for the
	 * file's life).
	 */
	view = buf;
	for (i = 0; i < 2; i++) {
		total = 0;
		events(1);
		trace_window(1);
		vfd = open(VIEW, O_RDONLY);
		while (vfd >= 0 && (n = read(vfd, view + total, len - total)) > 0)
			total += n;
		if (vfd >= 0)
			close(vfd);
		trace_window(0);
		events(0);
		used = allocated();
	}
	if (vfd < 0 || total <= 0)
		tap_fail("reading %s: %s", VIEW, strerror(errno));
	check("debugfs view", used, (uint64_t)total);

	k_delete(fd, METRIC);
	return tap_finish();
}

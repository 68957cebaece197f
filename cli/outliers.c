// SPDX-License-Identifier: GPL-2.0
/*
 * kstatsctl outliers NAME: the slow calls a trace kept (trace --outliers),
 * oldest first, each with its task, CPUs and kernel stack, symbolized from
 * /proc/kallsyms as "function+offset [module]" (KSTATS_IOC_OUTLIERS).
 * Also the line 'show' prints under a trace that keeps outliers.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <time.h>
#include <unistd.h>

#include "kstatsctl.h"

static const struct argp_child children[] = {
	{ &ks_global_argp, 0, NULL, 0 },
	{ 0 }
};

const struct argp outliers_argp = {
	NULL, ks_names_parse, "NAME",
	"Shows the slowest calls a trace kept (kstatsctl trace FUNC --outliers ...), "
	"oldest first: when each ended, its duration, task, CPUs at entry and exit, "
	"and the kernel stack from its caller up, symbolized from /proc/kallsyms. "
	"Stack addresses need CAP_PERFMON or CAP_SYS_ADMIN (as the trace did); "
	"without, the rest is shown.",
	children, NULL, NULL
};

/* ---- /proc/kallsyms: text symbols, sorted by address ---- */

struct ksym {
	uint64_t addr;
	char *name;		/* "func" or "func [module]" */
};

struct ksyms {
	struct ksym *v;
	size_t nr;
	bool hidden;		/* every address reads 0: kptr_restrict */
};

static int ksym_cmp(const void *a, const void *b)
{
	const struct ksym *x = a, *y = b;

	return x->addr < y->addr ? -1 : x->addr > y->addr;
}

static void ksyms_load(struct ksyms *k)
{
	FILE *f = fopen("/proc/kallsyms", "re");
	char line[512], name[256], mod[256];
	unsigned long long addr;
	size_t cap = 0, zeros = 0, all = 0;
	char type;
	int n;

	memset(k, 0, sizeof(*k));
	while (f && fgets(line, sizeof(line), f)) {
		/* Text symbols only: the type is the letter after the address. */
		char *sp = strchr(line, ' ');

		if (!sp || (sp[1] != 't' && sp[1] != 'T'))
			continue;
		mod[0] = '\0';
		n = sscanf(line, "%llx %c %255s [%255[^]]]", &addr, &type, name, mod);
		if (n < 3)
			continue;
		all++;
		if (!addr) {
			zeros++;
			continue;
		}
		if (k->nr == cap) {
			cap = cap ? 2 * cap : 65536;
			k->v = xrealloc(k->v, cap, sizeof(*k->v));
		}
		k->v[k->nr].addr = addr;
		if (mod[0]) {
			size_t len = strlen(name) + strlen(mod) + 4;

			k->v[k->nr].name = xcalloc(1, len);
			snprintf(k->v[k->nr].name, len, "%s [%s]", name, mod);
		} else {
			k->v[k->nr].name = xstrdup(name);
		}
		k->nr++;
	}
	if (f)
		fclose(f);
	k->hidden = all && zeros == all;
	qsort(k->v, k->nr, sizeof(*k->v), ksym_cmp);
}

static void ksyms_free(struct ksyms *k)
{
	size_t i;

	for (i = 0; i < k->nr; i++)
		free(k->v[i].name);
	free(k->v);
}

/* "func+0xoff [module]", or the address in hex when no symbol holds it. */
static char *ksym_name(char *buf, size_t len, const struct ksyms *k, uint64_t addr)
{
	size_t lo = 0, hi = k->nr;
	const char *mod;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (k->v[mid].addr <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (!lo) {
		snprintf(buf, len, "0x%llx", (unsigned long long)addr);
		return buf;
	}
	mod = strchr(k->v[lo - 1].name, ' ');
	snprintf(buf, len, "%.*s+0x%llx%s",
		 (int)(mod ? mod - k->v[lo - 1].name : (long)strlen(k->v[lo - 1].name)),
		 k->v[lo - 1].name, (unsigned long long)(addr - k->v[lo - 1].addr),
		 mod ? mod : "");
	return buf;
}

static int outliers_error(int err, const char *name)
{
	if (err == ENOTTY)
		return ks_fail(EXIT_RUNTIME, "a newer kstats module can ('kstatsctl "
			       "info' lists what this one supports)", "this kstats "
			       "module cannot keep outliers");
	if (err == ENOENT)
		return ks_fail(EXIT_RUNTIME, "'kstatsctl list' shows the traces (kind "
			       "trace)", "%s: no such metric", name);
	if (err == EINVAL)
		return ks_fail(EXIT_RUNTIME, "trace it with 'kstatsctl trace FUNC "
			       "--outliers 5ms' (or p99.9)", "%s: not a trace that "
			       "keeps outliers", name);
	return ks_dev_error(err, name);
}

/* CLOCK_REALTIME of @mono_ns, by the instant the ioctl read both. */
static void wall_time(char *buf, size_t len, const struct kstats_outliers *o, uint64_t mono_ns)
{
	int64_t real = (int64_t)o->realtime_ns - (int64_t)(o->time_ns - mono_ns);
	time_t sec = (time_t)(real / 1000000000);
	struct tm tm;
	char day[32];

	localtime_r(&sec, &tm);
	strftime(day, sizeof(day), "%Y-%m-%d %H:%M:%S", &tm);
	snprintf(buf, len, "%s.%06" PRId64, day, (real % 1000000000) / 1000);
}

static const char *noaddr_reason =
	"stacks withheld: addresses need CAP_PERFMON or CAP_SYS_ADMIN";
static const char *hidden_reason =
	"/proc/kallsyms shows no addresses to this user (kptr_restrict): raw addresses";

static void print_json(const char *name, const struct kstats_outliers *o,
		       const struct kstats_outlier *e, uint32_t n, const struct ksyms *k)
{
	struct json *j = json_doc("outliers");
	char sym[600];
	uint32_t i, f;

	json_kstr(j, "name", name);
	json_ku64(j, "threshold_ns", o->threshold_ns);
	if (o->threshold_ppm)
		json_kdbl(j, "threshold_percentile", o->threshold_ppm / 1e4);
	json_ku64(j, "captured", o->captured);
	json_ku64(j, "overwritten", o->overwritten);
	json_ku64(j, "ratelimited", o->ratelimited);
	json_ku64(j, "capacity", o->capacity);
	json_kbool(j, "addresses", !(o->out_flags & KSTATS_OUTLIERS_NOADDR));
	if (o->out_flags & KSTATS_OUTLIERS_NOADDR)
		json_kstr(j, "note", noaddr_reason);
	else if (k->hidden)
		json_kstr(j, "note", hidden_reason);
	json_key(j, "outliers");
	json_arr(j);
	for (i = 0; i < n; i++) {
		json_obj(j);
		json_ku64(j, "seq", e[i].seq);
		json_ku64(j, "time_ns", e[i].time_ns);
		json_ki64(j, "realtime_ns", (int64_t)o->realtime_ns -
			  (int64_t)(o->time_ns - e[i].time_ns));
		json_ku64(j, "duration_ns", e[i].duration_ns);
		json_ki64(j, "pid", e[i].pid);
		json_ki64(j, "tgid", e[i].tgid);
		json_kstr(j, "comm", (const char *)e[i].comm);
		json_ku64(j, "cpu_start", e[i].cpu_start);
		json_ku64(j, "cpu_end", e[i].cpu_end);
		json_kbool(j, "truncated", e[i].flags & KSTATS_OUTLIER_TRUNCATED);
		json_kbool(j, "task", !(e[i].flags & KSTATS_OUTLIER_NOTASK));
		json_ku64(j, "nr_frames", e[i].nr_frames);
		json_key(j, "stack");
		json_arr(j);
		for (f = 0; !(e[i].flags & KSTATS_OUTLIER_NOADDR) && f < e[i].nr_frames &&
		     f < KSTATS_OUTLIER_FRAMES; f++)
			json_str(j, ksym_name(sym, sizeof(sym), k, e[i].frames[f]));
		json_arr_end(j);
		json_obj_end(j);
	}
	json_arr_end(j);
	json_obj_end(j);
	json_end(j);
}

static void print_table(const char *name, const struct kstats_outliers *o,
			const struct kstats_outlier *e, uint32_t n, const struct ksyms *k)
{
	char thr[128], when[64], dur[64], sym[600];
	uint32_t i, f;

	printf("%s: %u outlier%s %s kept of %llu (ring of %u); %llu overwritten, "
	       "%llu rate-limited\n", name, n, n == 1 ? "" : "s",
	       ks_outliers_threshold(thr, sizeof(thr), o), (unsigned long long)o->captured,
	       o->capacity, (unsigned long long)o->overwritten,
	       (unsigned long long)o->ratelimited);
	if (o->out_flags & KSTATS_OUTLIERS_NOADDR)
		printf("(%s)\n", noaddr_reason);
	else if (k->hidden)
		printf("(%s)\n", hidden_reason);
	for (i = 0; i < n; i++) {
		wall_time(when, sizeof(when), o, e[i].time_ns);
		ks_fmt_int(dur, sizeof(dur), e[i].duration_ns, opts.units);
		printf("\n#%llu  %s  %s  pid %d tgid %d %.16s  CPU %u->%u%s\n",
		       (unsigned long long)e[i].seq, when, dur, e[i].pid, e[i].tgid, (const char *)e[i].comm,
		       e[i].cpu_start, e[i].cpu_end,
		       e[i].flags & KSTATS_OUTLIER_NOTASK ? "  (interrupt)" : "");
		if (e[i].flags & KSTATS_OUTLIER_NOADDR) {
			printf("    (%u frames withheld)\n", e[i].nr_frames);
			continue;
		}
		for (f = 0; f < e[i].nr_frames && f < KSTATS_OUTLIER_FRAMES; f++)
			printf("    %s\n", ksym_name(sym, sizeof(sym), k, e[i].frames[f]));
		if (e[i].flags & KSTATS_OUTLIER_TRUNCATED)
			printf("    (the kernel's unwinder stops at the probe's "
			       "trampoline here: the caller only)\n");
	}
}

int cmd_outliers(int argc, char **argv)
{
	struct ks_names a = { 0 };
	struct kstats_outliers o;
	struct kstats_outlier *e = NULL;
	struct ksyms k = { 0 };
	int rc, done, fd = -1, err;

	rc = ks_parse(&outliers_argp, argc, argv, &a, &done);
	if (rc || done)
		goto out;
	rc = EXIT_USAGE;
	if (a.nr != 1) {
		ks_usage("outliers takes one NAME");
		goto out;
	}
	if (ks_name_valid(a.v[0]))
		goto out;
	rc = EXIT_RUNTIME;
	fd = ks_dev_open();
	if (fd < 0)
		goto out;
	err = ks_outliers_read(fd, a.v[0], &o, &e);
	if (err) {
		rc = outliers_error(err, a.v[0]);
		goto out;
	}
	if (o.nr_entries && !(o.out_flags & KSTATS_OUTLIERS_NOADDR))
		ksyms_load(&k);
	if (opts.json)
		print_json(a.v[0], &o, e, o.nr_entries, &k);
	else
		print_table(a.v[0], &o, e, o.nr_entries, &k);
	rc = 0;
out:
	ksyms_free(&k);
	free(e);
	if (fd >= 0)
		close(fd);
	free(a.v);
	return rc;
}

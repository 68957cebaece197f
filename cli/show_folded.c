// SPDX-License-Identifier: GPL-2.0
/*
 * show --folded NAME... [--weight count|time]: a trace --by stack's
 * histograms as Brendan Gregg's folded stacks, for flamegraph.pl and
 * speedscope: a line per stack key, NAME{stack=ID}, its frames (SNAPSHOT
 * gives them to privileged readers) outermost first, then the traced
 * function, then its calls, or (--weight time) their summed durations in
 * ns. NAME{stack=other} (more stacks than --keys, or none could be
 * taken) starts with [other]; a stack the unwinder did not give whole
 * with [truncated]; frames withheld (no privilege) with [withheld]. From a
 * snapshot file (-i FILE), the frames it keeps (format 8): the same lines.
 */
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "kstatsctl.h"
#include "device.h"
#include "model.h"
#include "names.h"
#include "outliers.h"
#include "snapfile.h"
#include "stats.h"

/* A key metric's samples summed, in ns (its slots' sums). */
static uint64_t metric_sum(const struct ks_metric *m)
{
	struct ks_hist h;
	double sum = 0, s;
	uint32_t i;

	ks_hist_build(&h, m, -1);
	for (i = h.first; h.first <= h.last && i <= h.last; i++) {
		s = h.count[i] ? ks_hist_slot_sum(&h, i) : 0;
		sum += isnan(s) ? 0 : s;
	}
	ks_hist_free(&h);
	return (uint64_t)llround(sum);
}

/* Whether @name is one of @trace's stack keys; *@other: the key "other". */
static bool stack_key(const char *name, const char *trace, bool *other)
{
	size_t len = strlen(trace);

	if (strncmp(name, trace, len) || strncmp(name + len, "{stack=", 7))
		return false;
	*other = !strcmp(name + len, "{stack=other}");
	return true;
}

/* One key's line into @v (grown); 0, or an exit code (a file's key without frames). */
static int add_line(const struct ks_metric *m, bool other, const char *func, bool by_time,
		    const char *path, struct ks_folded **v, size_t *nr)
{
	if (!other && !m->stack) {
		ks_set_hint("snapshot files keep a stack key's frames from format 8 on: "
			    "take the snapshot again with this kstatsctl");
		return ks_fail(EXIT_RUNTIME, NULL, "%s: %s keeps no frames", path, m->name);
	}
	*v = xrealloc(*v, *nr + 1, sizeof(**v));
	(*v)[*nr].stack = ks_stack_folded_line(m->stack, other, func);
	(*v)[*nr].weight = by_time ? metric_sum(m) : m->hits;
	(*nr)++;
	return 0;
}

/* @trace's stack keys, live (LIST @li says which), as folded lines into @v. */
static int live_lines(int fd, const char *trace, const struct kstats_metric_info *li,
		      uint32_t nli, bool by_time, struct ks_ksyms *k, struct ks_folded **v,
		      size_t *nr, size_t *found)
{
	char func[KSTATS_NAME_LEN] = "";
	struct ks_key_stack st;
	struct ks_metric m;
	const char *name;
	bool other;
	uint32_t i;
	int rc;

	for (i = 0; i < nli; i++)
		if (!strncmp((const char *)li[i].name, trace, KSTATS_NAME_LEN))
			snprintf(func, sizeof(func), "%.*s", KSTATS_NAME_LEN - 1,
				 (const char *)li[i].owner);
	for (i = 0; i < nli; i++) {
		name = (const char *)li[i].name;
		if (!stack_key(name, trace, &other))
			continue;
		memset(&st, 0, sizeof(st));
		rc = ks_snapshot_live_stack(fd, name, &m, true, &st);
		if (rc < 0)
			continue;	/* gone meanwhile */
		if (rc)
			return rc;
		m.stack = ks_stack_name(&st, k);
		rc = add_line(&m, other, func[0] ? func : trace, by_time, NULL, v, nr);
		ks_stack_names_free(m.stack);
		ks_metric_free(&m);
		if (rc)
			return rc;
		(*found)++;
	}
	return 0;
}

/* @trace's stack keys in the file @set read from @path, likewise. */
static int file_lines(const struct ks_set *set, const char *path, const char *trace,
		      bool by_time, struct ks_folded **v, size_t *nr, size_t *found)
{
	const struct ks_metric *base = ks_set_find(set, trace);
	const char *func;
	bool other;
	size_t i;
	int rc;

	for (i = 0; i < set->nr; i++) {
		if (!stack_key(set->m[i].name, trace, &other))
			continue;
		func = base && base->owner[0] ? base->owner :
		       set->m[i].owner[0] ? set->m[i].owner : trace;
		rc = add_line(&set->m[i], other, func, by_time, path, v, nr);
		if (rc)
			return rc;
		(*found)++;
	}
	return 0;
}

int ks_show_folded(const struct ks_names *traces, const char *path, bool by_time)
{
	struct kstats_metric_info *li = NULL;
	struct ks_set set = { 0 };
	struct ks_folded *v = NULL;
	struct ks_ksyms k = { 0 };
	size_t nr = 0, i, found;
	uint32_t nli = 0;
	int fd = -1, rc = 0;

	if (path) {
		rc = ks_snapfile_read(path, &set);
		if (rc)
			return rc;
	} else {
		fd = ks_dev_open();
		if (fd < 0)
			return EXIT_RUNTIME;
		if (ks_dev_list(fd, &li, &nli)) {
			close(fd);
			return EXIT_RUNTIME;
		}
	}
	for (i = 0; i < traces->nr && !rc; i++) {
		found = 0;
		rc = path ? file_lines(&set, path, traces->v[i], by_time, &v, &nr, &found) :
			    live_lines(fd, traces->v[i], li, nli, by_time, &k, &v, &nr, &found);
		if (!rc && !found) {
			ks_set_hint("'kstatsctl trace FUNC --by stack' keys calls by their "
				    "stack; a key appears with its first call");
			rc = ks_fail(EXIT_RUNTIME, NULL, "%s%s%s: no stack keys (not a trace "
				     "--by stack, or no call yet)", path ? path : "",
				     path ? ": " : "", traces->v[i]);
		}
	}
	if (!rc)
		ks_folded_print(stdout, v, nr);
	else
		for (i = 0; i < nr; i++)
			free(v[i].stack);
	free(v);
	free(li);
	ks_ksyms_free(&k);
	ks_set_free(&set);
	if (fd >= 0)
		close(fd);
	return rc;
}

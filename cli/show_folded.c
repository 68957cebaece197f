// SPDX-License-Identifier: GPL-2.0
/*
 * show --folded NAME... [--weight count|time]: a trace --by stack's
 * histograms as Brendan Gregg's folded stacks, for flamegraph.pl and
 * speedscope: a line per stack key, NAME{stack=ID}, its frames (SNAPSHOT
 * gives them to privileged readers) outermost first, then the traced
 * function, then its calls, or (--weight time) their summed durations in
 * ns. NAME{stack=other} (more stacks than --keys, or none could be
 * taken) starts with [other]; a stack the unwinder did not give whole
 * with [truncated]; frames withheld (no privilege) with [withheld]. Live
 * only: snapshot files do not keep the frames yet.
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

/* One stack key's line: its frames named from @k, @func last. */
static char *key_line(const struct ks_key_stack *st, bool other, const char *func,
		      struct ks_ksyms *k)
{
	char names[KSTATS_OUTLIER_FRAMES][600];
	const char *frames[KSTATS_OUTLIER_FRAMES];
	const char *root = NULL;
	uint32_t i, n = 0;

	if (other)
		root = "[other]";
	else if (st->flags & KSTATS_OUTLIER_NOADDR)
		root = "[withheld]";
	else if (!st->nr)
		root = "[no stack]";
	else if (st->flags & KSTATS_OUTLIER_TRUNCATED)
		root = "[truncated]";
	if (!other && !(st->flags & KSTATS_OUTLIER_NOADDR)) {
		if (!k->loaded)
			ks_ksyms_load(k);
		for (i = 0; i < st->nr; i++, n++) {
			if (!ks_ksym_name(names[i], sizeof(names[i]), k, st->frames[i]))
				snprintf(names[i], sizeof(names[i]), "[unknown]");
			frames[i] = names[i];
		}
	}
	return ks_folded_join(root, frames, n, func);
}

/* @trace's stack keys, from LIST @li, as folded lines into @v; how many. */
static int trace_lines(int fd, const char *trace, const struct kstats_metric_info *li,
		       uint32_t nli, bool by_time, struct ks_ksyms *k, struct ks_folded **v,
		       size_t *nr, size_t *found)
{
	size_t len = strlen(trace);
	char func[KSTATS_NAME_LEN] = "";
	struct ks_key_stack st;
	struct ks_metric m;
	const char *name;
	uint32_t i;
	int rc;

	for (i = 0; i < nli; i++)
		if (!strncmp((const char *)li[i].name, trace, KSTATS_NAME_LEN))
			snprintf(func, sizeof(func), "%.*s", KSTATS_NAME_LEN - 1,
				 (const char *)li[i].owner);
	for (i = 0; i < nli; i++) {
		name = (const char *)li[i].name;
		if (strncmp(name, trace, len) || strncmp(name + len, "{stack=", 7))
			continue;
		memset(&st, 0, sizeof(st));
		rc = ks_snapshot_live_stack(fd, name, &m, true, &st);
		if (rc < 0)
			continue;	/* gone meanwhile */
		if (rc)
			return rc;
		*v = xrealloc(*v, *nr + 1, sizeof(**v));
		(*v)[*nr].stack = key_line(&st, !strcmp(name + len, "{stack=other}"),
					   func[0] ? func : trace, k);
		(*v)[*nr].weight = by_time ? metric_sum(&m) : m.hits;
		(*nr)++;
		(*found)++;
		ks_metric_free(&m);
	}
	return 0;
}

int ks_show_folded(const struct ks_names *traces, bool by_time)
{
	struct kstats_metric_info *li = NULL;
	struct ks_folded *v = NULL;
	struct ks_ksyms k = { 0 };
	size_t nr = 0, i, found;
	uint32_t nli = 0;
	int fd, rc = 0;

	fd = ks_dev_open();
	if (fd < 0)
		return EXIT_RUNTIME;
	if (ks_dev_list(fd, &li, &nli)) {
		close(fd);
		return EXIT_RUNTIME;
	}
	for (i = 0; i < traces->nr && !rc; i++) {
		found = 0;
		rc = trace_lines(fd, traces->v[i], li, nli, by_time, &k, &v, &nr, &found);
		if (!rc && !found) {
			ks_set_hint("'kstatsctl trace FUNC --by stack' keys calls by their "
				    "stack; a key appears with its first call");
			rc = ks_fail(EXIT_RUNTIME, NULL, "%s: no stack keys (not a trace "
				     "--by stack, or no call yet)", traces->v[i]);
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
	close(fd);
	return rc;
}

// SPDX-License-Identifier: GPL-2.0
/*
 * outliers --folded: the slow calls' stacks in Brendan Gregg's collapsed
 * format, which flamegraph.pl and speedscope read: one line per distinct
 * stack, its frames outermost first and the traced function last, joined
 * by ';', then a space and its weight: how many of the calls had that
 * stack, or (--weight time) their summed durations in ns. A frame is its
 * function, without the offset ("vfs_read", "ctl_cmd [kstats_target]"):
 * calls from two places in one function are one path. Lines are sorted,
 * so the same entries always give the same text.
 *
 * A stack the kernel did not give whole starts with a frame saying why:
 * [withheld] (no privilege: no frames at all), [truncated] (the unwinder
 * stopped at the probe's trampoline: the caller alone), [no stack].
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "kstatsctl.h"
#include "outliers.h"
#include "text.h"

/* "ctl_cmd+0x9e2 [kstats_target]" -> "ctl_cmd [kstats_target]", made safe. */
void ks_folded_frame(char *buf, size_t len, const char *frame)
{
	char plain[600], t[KS_TEXT_LEN(600)];
	const char *plus = strstr(frame, "+0x"), *mod;
	char *c;

	if (plus) {
		mod = strchr(plus, ' ');
		snprintf(plain, sizeof(plain), "%.*s%s", (int)(plus - frame), frame,
			 mod ? mod : "");
	} else {
		snprintf(plain, sizeof(plain), "%s", frame);
	}
	/* ';' separates frames: none in a name (symbols have none; be sure). */
	for (c = plain; *c; c++)
		if (*c == ';')
			*c = ':';
	snprintf(buf, len, "%s", ks_text(t, sizeof(t), plain));
}

struct buf {
	char *s;
	size_t at, cap;
};

/* @name, then ';' unless it is the last frame. */
static void add(struct buf *b, const char *name, bool last)
{
	size_t need = b->at + strlen(name) + 2;

	if (need > b->cap) {
		b->cap = need * 2;
		b->s = xrealloc(b->s, b->cap, 1);
	}
	b->at += (size_t)snprintf(b->s + b->at, b->cap - b->at, "%s%s", name, last ? "" : ";");
}

char *ks_outl_stack_line(const struct ks_outl *ol, const struct ks_outl_entry *e,
			 const char *func)
{
	struct buf b = { NULL, 0, 0 };
	char name[KS_TEXT_LEN(600)];
	uint32_t f;

	if (ol->withheld || (e->flags & KSTATS_OUTLIER_NOADDR)) {
		add(&b, "[withheld]", false);
	} else if (!e->nr_stack) {
		add(&b, "[no stack]", false);
	} else {
		if (e->flags & KSTATS_OUTLIER_TRUNCATED)
			add(&b, "[truncated]", false);
		for (f = e->nr_stack; f-- > 0;) {
			ks_folded_frame(name, sizeof(name), ol->text + e->stack[f]);
			add(&b, name, false);
		}
	}
	ks_folded_frame(name, sizeof(name), func);
	add(&b, name, true);
	return b.s;
}

static int by_stack(const void *a, const void *b)
{
	return strcmp(((const struct ks_folded *)a)->stack, ((const struct ks_folded *)b)->stack);
}

void ks_folded_print(FILE *out, struct ks_folded *v, size_t nr)
{
	size_t i, n = 0;

	qsort(v, nr, sizeof(*v), by_stack);
	for (i = 0; i < nr; i++) {
		if (n && !strcmp(v[n - 1].stack, v[i].stack)) {
			v[n - 1].weight += v[i].weight;
			free(v[i].stack);
			continue;
		}
		v[n++] = v[i];
	}
	for (i = 0; i < n; i++) {
		fprintf(out, "%s %" PRIu64 "\n", v[i].stack, v[i].weight);
		free(v[i].stack);
	}
}

char *ks_folded_join(const char *root, const char *const *frames, uint32_t nr, const char *func)
{
	struct buf b = { NULL, 0, 0 };
	char name[KS_TEXT_LEN(600)];
	uint32_t f;

	if (root)
		add(&b, root, false);
	for (f = nr; f-- > 0;) {
		ks_folded_frame(name, sizeof(name), frames[f]);
		add(&b, name, false);
	}
	ks_folded_frame(name, sizeof(name), func);
	add(&b, name, true);
	return b.s;
}

void fmt_outliers_folded(FILE *out, const char *func, const struct ks_outl *ol, bool by_time)
{
	struct ks_folded *v = xcalloc(ol->nr ? ol->nr : 1, sizeof(*v));
	uint32_t i;

	for (i = 0; i < ol->nr; i++) {
		v[i].stack = ks_outl_stack_line(ol, &ol->e[i], func);
		v[i].weight = by_time ? ol->e[i].duration_ns : 1;
	}
	ks_folded_print(out, v, ol->nr);
	free(v);
}

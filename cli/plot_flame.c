// SPDX-License-Identifier: GPL-2.0
/*
 * plot flame: a flame graph of a trace's slow calls (its outliers), the
 * stacks 'outliers --folded' prints, drawn as Brendan Gregg's are: the
 * outermost frame at the bottom, each frame above the one that called
 * it, the traced function on top. A frame's width is the share of the
 * slow calls' time spent in calls through it (not their number: a slow
 * path that is rare but long is wide); frames side by side are sorted by
 * name, so the same entries always draw the same picture. Its tooltip
 * gives its calls, its share, and the p50 and p99 of their durations
 * (nearest rank, exact: from the entries, not a histogram).
 *
 * A frame narrower than a tenth of a pixel is not drawn (it could not be
 * seen); its time is still in the frames below it.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "kstatsctl.h"
#include "outliers.h"
#include "plot.h"
#include "units.h"

#define ROW		17	/* px a frame */
#define TOP		50	/* title and subtitle */
#define BOTTOM		28	/* the note under the frames */
#define CHAR_PX		6.6	/* a character of the 11 px labels, about */

struct fnode {
	char *name;
	uint64_t total_ns;
	uint64_t *dur;		/* the durations of the calls through it */
	size_t nr, cap;
	struct fnode **kids;
	size_t nkids;
};

static struct fnode *child(struct fnode *n, const char *name, size_t len)
{
	struct fnode *c;
	size_t i;

	for (i = 0; i < n->nkids; i++)
		if (strlen(n->kids[i]->name) == len && !strncmp(n->kids[i]->name, name, len))
			return n->kids[i];
	c = xcalloc(1, sizeof(*c));
	c->name = xcalloc(len + 1, 1);
	memcpy(c->name, name, len);
	n->kids = xrealloc(n->kids, n->nkids + 1, sizeof(*n->kids));
	n->kids[n->nkids++] = c;
	return c;
}

static void add_call(struct fnode *n, uint64_t ns)
{
	if (n->nr == n->cap) {
		n->cap = n->cap ? 2 * n->cap : 4;
		n->dur = xrealloc(n->dur, n->cap, sizeof(*n->dur));
	}
	n->dur[n->nr++] = ns;
	n->total_ns += ns;
}

/* One call along its folded stack "a;b;c". */
static void insert(struct fnode *root, const char *stack, uint64_t ns)
{
	const char *p = stack, *semi;
	struct fnode *n = root;

	add_call(n, ns);
	for (;;) {
		semi = strchr(p, ';');
		n = child(n, p, semi ? (size_t)(semi - p) : strlen(p));
		add_call(n, ns);
		if (!semi)
			break;
		p = semi + 1;
	}
}

static int by_name(const void *a, const void *b)
{
	return strcmp((*(struct fnode *const *)a)->name, (*(struct fnode *const *)b)->name);
}

static int by_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/* Nearest rank: the smallest duration with at least @q of the calls at or below it. */
static uint64_t rank(const struct fnode *n, double q)
{
	size_t r = (size_t)ceil(q * (double)n->nr);

	return n->dur[r ? r - 1 : 0];
}

static size_t depth(const struct fnode *n)
{
	size_t i, d = 0, k;

	for (i = 0; i < n->nkids; i++) {
		k = depth(n->kids[i]);
		d = k > d ? k : d;
	}
	return d + 1;
}

/* flamegraph.pl's warm colours, from the name (the same name, the same colour). */
static void colour(char *buf, size_t len, const char *name)
{
	uint32_t h = 2166136261u;
	const char *c;

	if (name[0] == '[') {
		snprintf(buf, len, "#c8c8c8");	/* [truncated], [unknown]...: not code */
		return;
	}
	for (c = name; *c; c++)
		h = (h ^ (unsigned char)*c) * 16777619u;
	snprintf(buf, len, "#%02x%02x%02x", 205 + h % 50, (h >> 8) % 230, (h >> 16) % 55);
}

struct draw {
	FILE *out;
	double x0, w, base;	/* the frame area: left, width, bottom row's top */
	uint64_t total_ns;	/* the root's: 100 % */
	size_t calls;
};

static void draw(const struct draw *d, struct fnode *n, double x, size_t level)
{
	double w = d->w * (double)n->total_ns / (double)d->total_ns, y, kx = x;
	char fill[8], p50[32], p99[32], label[256];
	size_t i, fit;

	if (w < 0.1)
		return;
	qsort(n->dur, n->nr, sizeof(*n->dur), by_u64);
	y = d->base - (double)level * ROW;
	colour(fill, sizeof(fill), n->name);
	ks_fmt_int(p50, sizeof(p50), rank(n, 0.5), opts.units);
	ks_fmt_int(p99, sizeof(p99), rank(n, 0.99), opts.units);
	fputs("<g class=\"frame\">\n", d->out);
	/* A pixel of white between neighbours: frames of one name stay apart. */
	svg_rect_title(d->out, x, y, w >= 2 ? w - 1 : w, ROW - 1, fill, "%s: %zu of %zu slow calls, %.2f%% of "
		       "their time; p50 %s, p99 %s", n->name, n->nr, d->calls,
		       100.0 * (double)n->total_ns / (double)d->total_ns, p50, p99);
	fit = (size_t)((w - 6) / CHAR_PX);
	if (fit >= 3) {
		if (strlen(n->name) <= fit)
			snprintf(label, sizeof(label), "%s", n->name);
		else
			snprintf(label, sizeof(label), "%.*s..", (int)(fit - 2), n->name);
		svg_text(d->out, x + 3, y + ROW - 5, "font-size=\"11\" pointer-events=\"none\"",
			 "%s", label);
	}
	fputs("</g>\n", d->out);
	qsort(n->kids, n->nkids, sizeof(*n->kids), by_name);
	for (i = 0; i < n->nkids; i++) {
		draw(d, n->kids[i], kx, level + 1);
		kx += d->w * (double)n->kids[i]->total_ns / (double)d->total_ns;
	}
}

static void free_tree(struct fnode *n)
{
	size_t i;

	for (i = 0; i < n->nkids; i++)
		free_tree(n->kids[i]);
	free(n->kids);
	free(n->dur);
	free(n->name);
	free(n);
}

int ks_plot_flame(FILE *out, const char *name, const char *func, const struct ks_outl *ol,
		  const struct ks_plot *p)
{
	struct fnode *root = xcalloc(1, sizeof(*root));
	struct ks_plot q = *p;
	char title[256], sub[256], over[64];
	struct draw d = { .out = out };
	size_t rows;
	uint32_t i;

	if (!ol->nr || !func) {
		free(root);
		return ks_fail(EXIT_RUNTIME, "'kstatsctl outliers NAME' lists them as they "
			       "come", "%s: no slow calls kept, no flame graph to draw", name);
	}
	root->name = xstrdup("all");
	for (i = 0; i < ol->nr; i++) {
		char *stack = ks_outl_stack_line(ol, &ol->e[i], func);

		/* A call of 0 ns would draw nothing: 1 ns, so it is there. */
		insert(root, stack, ol->e[i].duration_ns ? ol->e[i].duration_ns : 1);
		free(stack);
	}
	rows = depth(root);
	q.height = TOP + (int)rows * ROW + BOTTOM;
	d.x0 = 10;
	d.w = q.width - 20;
	d.base = TOP + (double)(rows - 1) * ROW;
	d.total_ns = root->total_ns;
	d.calls = ol->nr;
	snprintf(title, sizeof(title), "slow calls of %s", name);
	snprintf(sub, sizeof(sub), "%u calls %s; width: share of their time, "
		 "callers below", ol->nr, ks_outliers_threshold(over, sizeof(over), &ol->o));
	svg_begin(out, q.width, q.height, q.title ? q.title : title);
	ks_plot_title(out, &q, title, sub);
	draw(&d, root, d.x0, 0);
	svg_text(out, d.x0, q.height - 9, "fill=\"#555555\" font-size=\"11\"",
		 "hover a frame for its calls, share, p50 and p99; narrower than 0.1 px: not drawn");
	svg_end(out);
	free_tree(root);
	return 0;
}

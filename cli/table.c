// SPDX-License-Identifier: GPL-2.0
/*
 * Text tables that fit the screen: 80 columns, or a terminal's width.
 *
 * Every column is as wide as its widest cell (display width: one column
 * per character). When the first column (names) would push a row past the
 * width, that column is narrowed, and a name wider than it gets a line of
 * its own, the rest of its row on the next line under the other columns:
 * names are never cut, and every other column stays aligned for awk.
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "kstatsctl.h"
#include "text.h"

#define GAP	2	/* spaces between columns */

size_t ks_text_width(const char *s)
{
	size_t w = 0, n;

	while (*s) {
		if (*s == '\033') {	/* our colours; ks_text() escapes others' */
			s += strcspn(s, "m");
			s += !!*s;
			continue;
		}
		n = ks_utf8_len(s);
		s += n ? n : 1;
		w++;
	}
	return w;
}

size_t ks_out_width(FILE *out)
{
	const char *c = getenv("COLUMNS");
	struct winsize ws;

	if (c && atoi(c) > 0)
		return (size_t)atoi(c);
	if (!ioctl(fileno(out), TIOCGWINSZ, &ws) && ws.ws_col)
		return ws.ws_col;
	return 80;
}

void ks_table_init(struct ks_table *t, const char *align)
{
	memset(t, 0, sizeof(*t));
	t->align = align;
	t->cols = strlen(align);
}

void ks_table_add(struct ks_table *t, const char *cell)
{
	t->cell = xrealloc(t->cell, t->nr + 1, sizeof(*t->cell));
	t->cell[t->nr++] = xstrdup(cell);
}

static void pad(FILE *out, size_t n)
{
	while (n--)
		fputc(' ', out);
}

/* Cells @from.. of row @r, each in its width. */
static void cells(FILE *out, const struct ks_table *t, size_t r, size_t from,
		  const size_t *w)
{
	size_t c, cw;

	for (c = from; c < t->cols; c++) {
		const char *s = t->cell[r * t->cols + c];
		bool last = c + 1 == t->cols;

		cw = ks_text_width(s);
		if (c)
			pad(out, GAP);
		if (t->align[c] == 'r')
			pad(out, w[c] - cw);
		fputs(s, out);
		if (t->align[c] != 'r' && !last)
			pad(out, w[c] - cw);
	}
}

void ks_table_print(FILE *out, const struct ks_table *t, size_t width)
{
	size_t *w = xcalloc(t->cols, sizeof(*w)), rest = 0, r, c, cw;
	size_t rows = t->nr / t->cols;

	for (r = 0; r < rows; r++)
		for (c = 0; c < t->cols; c++) {
			cw = ks_text_width(t->cell[r * t->cols + c]);
			w[c] = cw > w[c] ? cw : w[c];
		}
	for (c = 1; c < t->cols; c++)
		rest += GAP + w[c];
	/* Names narrow to what the other columns leave, down to the header's. */
	if (w[0] + rest > width) {
		cw = ks_text_width(t->cell[0]);
		w[0] = width > rest + cw ? width - rest : cw;
	}
	for (r = 0; r < rows; r++) {
		const char *name = t->cell[r * t->cols];

		if (!r)
			fputs(ks_color(opts.color_out, C_BOLD), out);
		if (ks_text_width(name) > w[0]) {
			fprintf(out, "%s\n", name);
			pad(out, w[0]);
		} else {
			cells(out, t, r, 0, w);
			name = NULL;
		}
		if (name)
			cells(out, t, r, 1, w);
		if (!r)
			fputs(ks_color(opts.color_out, C_RESET), out);
		fputc('\n', out);
	}
	free(w);
}

void ks_table_free(struct ks_table *t)
{
	size_t i;

	for (i = 0; i < t->nr; i++)
		free(t->cell[i]);
	free(t->cell);
}

void ks_wrap_item(struct ks_wrap *w, const char *sep, const char *text)
{
	size_t tw = ks_text_width(text), sw = ks_text_width(sep), n;

	if (w->col && w->col + sw + tw > w->width) {
		/* The separator's mark stays on this line: "a," then "  b". */
		n = strcspn(sep, " ");
		fprintf(w->out, "%.*s\n%s", (int)n, sep, w->cont);
		w->col = ks_text_width(w->cont);
	} else if (w->col) {
		fputs(sep, w->out);
		w->col += sw;
	} else {
		w->col = ks_text_width(w->start);
	}
	fputs(text, w->out);
	w->col += tw;
}

/*
 * Where the word at @s ends: at a blank, but a quote that opens a word or
 * follows punctuation ('kstatsctl show NAME', "(e.g. 'p99>2ms')") runs to
 * its closing quote, so a quoted command is never broken. An apostrophe
 * ("log's", "Prometheus' ") follows a letter and opens nothing.
 */
static size_t word_len(const char *s)
{
	const char *p = s, *close;

	while (*p && *p != ' ') {
		if ((*p == '\'' || *p == '"') && (p == s || !isalnum((unsigned char)p[-1]))) {
			close = strchr(p + 1, *p);
			while (close && isalnum((unsigned char)close[1]))
				close = strchr(close + 1, *p);
			if (close) {
				p = close + 1;
				continue;
			}
		}
		p++;
	}
	return (size_t)(p - s);
}

static void wrap_words(struct ks_wrap *w, const char *text)
{
	char *word;
	size_t n;

	while (*text) {
		n = word_len(text);
		if (n) {
			word = xcalloc(n + 1, 1);
			memcpy(word, text, n);
			ks_wrap_item(w, w->col ? " " : "", word);
			free(word);
		}
		text += n;
		text += strspn(text, " ");
	}
}

void ks_wrap_end(struct ks_wrap *w)
{
	fputc('\n', w->out);
	w->col = 0;
}

void ks_print_wrapped(FILE *out, const char *start, const char *cont, const char *text)
{
	struct ks_wrap w = { out, ks_out_width(out), 0, start, cont };

	fputs(start, out);
	wrap_words(&w, text);
	ks_wrap_end(&w);
}

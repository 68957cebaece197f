/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Strings from files and the kernel made safe to print (text.c, crc.c),
 * and tables that fit the screen (table.c).
 */
#ifndef KSTATSCTL_TEXT_H
#define KSTATSCTL_TEXT_H

#include "kstatsctl.h"

/*
 * @s made safe for a terminal, into @buf: control characters (C0, DEL,
 * C1) and bytes that are not valid UTF-8 as \xNN, a backslash as \\.
 * KS_TEXT_LEN(n) bytes hold it whole for a string of n bytes.
 */
#define KS_TEXT_LEN(n)	(4 * (n) + 1)
char *ks_text(char *buf, size_t len, const char *s);
/* The length of the valid UTF-8 sequence at @s (1..4), or 0. */
size_t ks_utf8_len(const char *s);
/* Is that sequence, of @n bytes, a control character (C0, DEL, C1)? */
bool ks_utf8_control(const char *s, size_t n);
/* CRC-32C of @len bytes, continuing from @crc (0 to start). */
uint32_t ks_crc32c(uint32_t crc, const void *buf, size_t len);

/* Display width of UTF-8 text: one column per character. */
size_t ks_text_width(const char *s);
/* The width to fit: COLUMNS, a terminal's width, else 80. */
size_t ks_out_width(FILE *out);
struct ks_table {
	const char *align;	/* per column: 'l' or 'r' */
	size_t cols, nr;	/* columns; cells so far (header first) */
	char **cell;
};
void ks_table_init(struct ks_table *t, const char *align);
void ks_table_add(struct ks_table *t, const char *cell);	/* the next cell */
/* Prints it within @width (table.c says how a long name wraps). */
void ks_table_print(FILE *out, const struct ks_table *t, size_t width);
void ks_table_free(struct ks_table *t);
/*
 * Items on lines of at most @width columns: a line full, the next item
 * goes on a new line that starts with @cont. The caller prints @start.
 */
struct ks_wrap {
	FILE *out;
	size_t width, col;
	const char *start, *cont;
};
void ks_wrap_item(struct ks_wrap *w, const char *sep, const char *text);
void ks_wrap_end(struct ks_wrap *w);	/* the final newline */
/*
 * @start, then @text's words on lines of @out's width, each further line
 * starting with @cont; never broken inside a word or a quoted command.
 */
void ks_print_wrapped(FILE *out, const char *start, const char *cont, const char *text);

#endif /* KSTATSCTL_TEXT_H */

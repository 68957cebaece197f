// SPDX-License-Identifier: GPL-2.0
/*
 * Strings kstatsctl did not make, on their way to a terminal or a parser.
 *
 * A snapshot file's strings (host, kernel release and version, machine,
 * module and kstatsctl versions, boot ID, a metric's owner) are whatever
 * bytes the file holds but NUL, and a live metric's owner is a process
 * name, which its process chooses. Printed as they are, an ESC starts a
 * terminal escape sequence (colours, a new window title, on some
 * terminals worse), and bytes that are not UTF-8 make JSON invalid.
 *
 * Text output (tables, bars, titles, diff, list, CSV, Prometheus help
 * lines, error messages) goes through ks_text(): every control character
 * (C0, DEL, and C1, U+0080..U+009F, which terminals may take as CSI and
 * the like) and every byte that is not part of valid UTF-8 becomes
 * \xNN, one per byte, and a backslash \\, so that what is printed tells
 * the bytes apart; other UTF-8 is printed as it is. JSON strings escape
 * control characters as \u00NN and write U+FFFD for each byte that is not
 * part of valid UTF-8 (json.c), so every JSON document is valid UTF-8.
 */
#include <string.h>

#include "kstatsctl.h"
#include "text.h"

/*
 * The length of the UTF-8 sequence @s starts with (1..4), or 0 when it is
 * not a valid one: a stray continuation byte, a sequence cut short, an
 * overlong form, a surrogate or past U+10FFFF (as RFC 3629 and Python's
 * decoder say). NUL ends @s: it is never a continuation byte.
 */
size_t ks_utf8_len(const char *s)
{
	const unsigned char *p = (const unsigned char *)s;
	unsigned char lo = 0x80, hi = 0xbf;
	size_t n, i;

	if (p[0] < 0x80)
		return 1;
	if (p[0] >= 0xc2 && p[0] <= 0xdf)
		n = 2;
	else if (p[0] >= 0xe0 && p[0] <= 0xef)
		n = 3;
	else if (p[0] >= 0xf0 && p[0] <= 0xf4)
		n = 4;
	else
		return 0;
	if (p[0] == 0xe0)
		lo = 0xa0;		/* overlong */
	else if (p[0] == 0xed)
		hi = 0x9f;		/* surrogates */
	else if (p[0] == 0xf0)
		lo = 0x90;		/* overlong */
	else if (p[0] == 0xf4)
		hi = 0x8f;		/* past U+10FFFF */
	if (p[1] < lo || p[1] > hi)
		return 0;
	for (i = 2; i < n; i++)
		if (p[i] < 0x80 || p[i] > 0xbf)
			return 0;
	return n;
}

/* Is the valid sequence of @n bytes at @s a control character? */
bool ks_utf8_control(const char *s, size_t n)
{
	const unsigned char *p = (const unsigned char *)s;

	if (n == 1)
		return p[0] < 0x20 || p[0] == 0x7f;
	return n == 2 && p[0] == 0xc2 && p[1] < 0xa0;	/* U+0080..U+009F */
}

char *ks_text(char *buf, size_t len, const char *s)
{
	static const char hex[] = "0123456789abcdef";
	size_t o = 0, n, i;

	if (!len)
		return buf;
	while (*s) {
		n = ks_utf8_len(s);
		if (n && !ks_utf8_control(s, n) && *s != '\\') {
			if (o + n >= len)
				break;
			memcpy(buf + o, s, n);
			o += n;
			s += n;
			continue;
		}
		if (*s == '\\') {
			if (o + 2 >= len)
				break;
			buf[o++] = '\\';
			buf[o++] = '\\';
			s++;
			continue;
		}
		/* A control character's bytes, or one byte that is not UTF-8. */
		n = n ? n : 1;
		if (o + 4 * n >= len)
			break;
		for (i = 0; i < n; i++, s++) {
			buf[o++] = '\\';
			buf[o++] = 'x';
			buf[o++] = hex[(unsigned char)*s >> 4];
			buf[o++] = hex[*s & 0xf];
		}
	}
	buf[o] = '\0';
	return buf;
}

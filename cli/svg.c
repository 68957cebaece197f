// SPDX-License-Identifier: GPL-2.0
/*
 * A small SVG writer for the plots: a document of a fixed size in pixels
 * (viewBox = width x height, so one user unit is one CSS pixel), shapes
 * with presentation attributes, and text. Self-contained by construction:
 * no scripts, no links, no external fonts (a generic font family).
 *
 * Text from files (metric names, paths, --title) goes through ks_text()
 * first, which turns control characters and bytes that are not UTF-8
 * into \xNN; then the XML specials are escaped, and U+FFFE and U+FFFF,
 * valid UTF-8 but not XML characters, are written as \xNN too. What comes
 * out is well-formed XML whatever the input.
 */
#include <stdarg.h>
#include <string.h>

#include "kstatsctl.h"
#include "plot.h"
#include "text.h"

void svg_begin(FILE *out, int width, int height, const char *title)
{
	fprintf(out, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
		"<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" "
		"viewBox=\"0 0 %d %d\" font-family=\"sans-serif\" font-size=\"12\">\n",
		width, height, width, height);
	fputs("<title>", out);
	svg_esc(out, title);
	fputs("</title>\n", out);
	fprintf(out, "<rect class=\"background\" x=\"0\" y=\"0\" width=\"%d\" height=\"%d\" "
		"fill=\"#ffffff\"/>\n", width, height);
}

void svg_end(FILE *out)
{
	fputs("</svg>\n", out);
}

void svg_esc(FILE *out, const char *s)
{
	char in[513], buf[KS_TEXT_LEN(512)];
	const char *p;

	/* Longer strings are cut: a title is a line, not a document. */
	snprintf(in, sizeof(in), "%s", s);
	p = ks_text(buf, sizeof(buf), in);
	for (; *p; p++) {
		const unsigned char *u = (const unsigned char *)p;

		switch (*p) {
		case '&':
			fputs("&amp;", out);
			break;
		case '<':
			fputs("&lt;", out);
			break;
		case '>':
			fputs("&gt;", out);
			break;
		case '"':
			fputs("&quot;", out);
			break;
		case '\'':
			fputs("&apos;", out);
			break;
		default:
			if (u[0] == 0xef && u[1] == 0xbf && (u[2] == 0xbe || u[2] == 0xbf)) {
				fprintf(out, "\\xef\\xbf\\x%02x", u[2]);
				p += 2;
			} else {
				fputc(*p, out);
			}
		}
	}
}

void svg_text(FILE *out, double x, double y, const char *attrs, const char *fmt, ...)
{
	char buf[1024];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	fprintf(out, "<text x=\"%.1f\" y=\"%.1f\"%s%s>", x, y, attrs[0] ? " " : "", attrs);
	svg_esc(out, buf);
	fputs("</text>\n", out);
}

void svg_rect(FILE *out, double x, double y, double w, double h, const char *fill)
{
	fprintf(out, "<rect x=\"%.2f\" y=\"%.2f\" width=\"%.2f\" height=\"%.2f\" fill=\"%s\"/>\n",
		x, y, w, h, fill);
}

void svg_line(FILE *out, double x1, double y1, double x2, double y2, const char *stroke,
	      double width)
{
	fprintf(out, "<line x1=\"%.2f\" y1=\"%.2f\" x2=\"%.2f\" y2=\"%.2f\" stroke=\"%s\" "
		"stroke-width=\"%g\"/>\n", x1, y1, x2, y2, stroke, width);
}

void svg_rect_title(FILE *out, double x, double y, double w, double h, const char *fill,
		    const char *fmt, ...)
{
	char buf[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	fprintf(out, "<rect x=\"%.2f\" y=\"%.2f\" width=\"%.2f\" height=\"%.2f\" fill=\"%s\">"
		"<title>", x, y, w, h, fill);
	svg_esc(out, buf);
	fputs("</title></rect>\n", out);
}

// SPDX-License-Identifier: GPL-2.0
/*
 * Units. Samples are nanoseconds unless a metric says otherwise; values are
 * shown in ns, us, ms or s (--units), or with "auto" in whichever of those
 * reads best for each value. Integers in a fixed unit are exact decimals
 * (1536 ns in us is "1.536us"); everything else shows 4 significant digits.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "kstatsctl.h"

static const struct {
	const char *name;
	double scale;
	unsigned int decimals;	/* log10(scale) */
} units[] = {
	[UNIT_AUTO] = { "auto", 1, 0 },
	[UNIT_NS] = { "ns", 1, 0 },
	[UNIT_US] = { "us", 1e3, 3 },
	[UNIT_MS] = { "ms", 1e6, 6 },
	[UNIT_S] = { "s", 1e9, 9 },
};

const char *ks_unit_name(enum ks_unit u)
{
	return units[u].name;
}

double ks_unit_scale(enum ks_unit u)
{
	return units[u].scale;
}

int ks_unit_parse(const char *s, enum ks_unit *u)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(units); i++) {
		if (!strcmp(s, units[i].name)) {
			*u = (enum ks_unit)i;
			return 0;
		}
	}
	return -1;
}

/* The unit that reads best for @ns (auto). */
static enum ks_unit pick(double ns)
{
	ns = fabs(ns);
	if (ns < 1e3)
		return UNIT_NS;
	if (ns < 1e6)
		return UNIT_US;
	if (ns < 1e9)
		return UNIT_MS;
	return UNIT_S;
}

enum ks_unit ks_table_unit(enum ks_unit u, double typical_ns)
{
	return u == UNIT_AUTO ? pick(typical_ns) : u;
}

/* Drops trailing zeros after a decimal point, and the point itself. */
static void trim(char *s)
{
	char *dot = strchr(s, '.'), *end;

	if (!dot)
		return;
	end = s + strlen(s) - 1;
	while (end > dot && *end == '0')
		*end-- = '\0';
	if (end == dot)
		*end = '\0';
}

/*
 * "%.*f" of @v, trailing zeros trimmed; integer arithmetic when it fits
 * (printf's floating point is slow, and tables print a lot of numbers).
 */
static void fixed(char *buf, size_t len, double v, int decimals)
{
	static const double pow10[] = { 1, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8,
					1e9, 1e10, 1e11, 1e12 };
	double scaled = decimals <= 12 ? nearbyint(fabs(v) * pow10[decimals]) : 0x1p63;
	uint64_t i, div;
	char frac[16];

	if (!(scaled < 0x1p62) || decimals > 12) {
		snprintf(buf, len, "%.*f", decimals, v);
		trim(buf);
		return;
	}
	i = (uint64_t)scaled;
	div = (uint64_t)pow10[decimals];
	frac[0] = '\0';
	if (decimals) {
		snprintf(frac, sizeof(frac), ".%0*llu", decimals,
			 (unsigned long long)(i % div));
		trim(frac);
	}
	snprintf(buf, len, "%s%llu%s", v < 0 && i ? "-" : "",
		 (unsigned long long)(i / div), frac);
}

/* @v (in the unit already) with 4 significant digits, no exponent. */
static void sig4(char *buf, size_t len, double v)
{
	int decimals = 0;

	if (v != 0 && fabs(v) < 1000)
		decimals = 3 - (int)floor(log10(fabs(v)));
	if (decimals > 12)
		decimals = 12;
	if (decimals < 0)
		decimals = 0;
	fixed(buf, len, v, decimals);
}

/* @ns in @u exactly, with the unit's name after it when @suffix. */
static char *fmt_exact(char *buf, size_t len, uint64_t ns, enum ks_unit u,
		       bool suffix)
{
	const char *name = suffix ? units[u].name : "";
	uint64_t div;
	unsigned int i;
	char frac[16];

	for (div = 1, i = 0; i < units[u].decimals; i++)
		div *= 10;
	if (div == 1) {
		snprintf(buf, len, "%llu%s", (unsigned long long)ns, name);
		return buf;
	}
	snprintf(frac, sizeof(frac), ".%0*llu", (int)units[u].decimals,
		 (unsigned long long)(ns % div));
	trim(frac);
	snprintf(buf, len, "%llu%s%s", (unsigned long long)(ns / div),
		 frac[0] == '.' ? frac : "", name);
	return buf;
}

char *ks_fmt_int(char *buf, size_t len, uint64_t ns, enum ks_unit u)
{
	if (u == UNIT_AUTO)
		return ks_fmt_dbl(buf, len, (double)ns, UNIT_AUTO);
	return fmt_exact(buf, len, ns, u, true);
}

char *ks_fmt_intnum(char *buf, size_t len, uint64_t ns, enum ks_unit u)
{
	return fmt_exact(buf, len, ns, u == UNIT_AUTO ? UNIT_NS : u, false);
}

char *ks_fmt_dbl(char *buf, size_t len, double ns, enum ks_unit u)
{
	char num[64];

	if (isnan(ns)) {
		snprintf(buf, len, "-");
		return buf;
	}
	if (u == UNIT_AUTO) {
		u = pick(ns);
		sig4(num, sizeof(num), ns / units[u].scale);
		/* 999.96 us rounds to "1000": say 1 ms instead. */
		if (u != UNIT_S && fabs(strtod(num, NULL)) >= 1000) {
			u++;
			sig4(num, sizeof(num), ns / units[u].scale);
		}
	} else {
		sig4(num, sizeof(num), ns / units[u].scale);
	}
	snprintf(buf, len, "%s%s", num, units[u].name);
	return buf;
}

char *ks_fmt_num(char *buf, size_t len, double ns, enum ks_unit u)
{
	int decimals;

	if (u == UNIT_AUTO)
		u = UNIT_NS;
	if (isnan(ns)) {
		snprintf(buf, len, "nan");
		return buf;
	}
	if (u == UNIT_NS && ns == floor(ns) && ns >= 0 && ns < 0x1p63) {
		snprintf(buf, len, "%llu", (unsigned long long)ns);
		return buf;
	}
	decimals = (int)units[u].decimals + (ns == floor(ns) ? 0 : 3);
	fixed(buf, len, ns / units[u].scale, decimals);
	return buf;
}

int ks_parse_value(const char *s, uint64_t *ns)
{
	unsigned int i;
	char *end;
	double v;

	if (!ks_parse_u64(s, ns))
		return 0;
	if (!*s || *s == '-' || *s == '+')
		return -1;
	v = strtod(s, &end);
	if (end == s)
		return -1;
	for (i = UNIT_NS; i < ARRAY_SIZE(units); i++)
		if (!strcmp(end, units[i].name))
			break;
	if (i == ARRAY_SIZE(units) || !isfinite(v) || v < 0)
		return -1;
	v = round(v * units[i].scale);
	if (v >= 0x1p64)
		return -1;
	*ns = (uint64_t)v;
	return 0;
}

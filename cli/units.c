// SPDX-License-Identifier: GPL-2.0
/*
 * Units, and how values are written. A trace's samples are nanoseconds (and
 * a metric's named by --ns); a module's or a program's are numbers in a
 * unit kstats is not told, shown as plain numbers, whatever --units says.
 * Nanoseconds are shown in ns, us, ms or s (--units), or with "auto" in
 * whichever of those reads best for each value. Integers in a fixed unit
 * are exact decimals (1536 ns in us is "1.536us"); everything else shows 4
 * significant digits, a million or more (auto, or no unit) as 1.153e10.
 *
 * Estimates say how well they are known: a value known only to its slot
 * is the slot ("in [16ns, 32ns)") or its middle with the distance from
 * what is printed to either end of the slot ("23.5ns (±32%)"), a relative
 * error always rounded up so that it stays a bound.
 */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "kstatsctl.h"
#include "model.h"
#include "names.h"
#include "stats.h"
#include "trace.h"
#include "units.h"

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
	[UNIT_NONE] = { "", 1, 0 },	/* not a choice of --units */
};

bool ks_metric_is_ns(const struct ks_metric *m)
{
	/* A traced value (trace --value) is a count of whatever it is: never ns. */
	if (ks_metric_is_value(m))
		return false;
	return ks_kind_is_trace(m->kind) || m->ns ||
	       (opts.ns && ks_names_fnmatch(opts.ns, m->name));
}

bool ks_metric_is_value(const struct ks_metric *m)
{
	return m->kind == KSTATS_KIND_VALUE || (m->flags & KSTATS_METRIC_VALUE);
}

enum ks_unit ks_metric_unit(const struct ks_metric *m, enum ks_unit u)
{
	return ks_metric_is_ns(m) ? u : UNIT_NONE;
}

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

	for (i = 0; i < UNIT_NONE; i++) {
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
	return u == UNIT_AUTO ? pick(typical_ns) : u;	/* UNIT_NONE stays */
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

/*
 * @v (in the unit already) with 4 significant digits, no exponent: digits
 * past the fourth of a large number are zeros.
 */
static void sig4(char *buf, size_t len, double v, bool compact)
{
	int decimals = 0, e;
	double step;
	char num[32], *exp;

	if (fabs(v) >= 1e6 && compact) {
		/* 1.153e10: no row of zeros standing for unknown digits. */
		snprintf(buf, len, "%.3e", v);
		exp = strchr(buf, 'e');
		e = atoi(exp + 1);
		*exp = '\0';
		snprintf(num, sizeof(num), "%s", buf);
		trim(num);
		snprintf(buf, len, "%se%d", num, e);
		return;
	}
	if (fabs(v) >= 10000) {
		step = pow(10, floor(log10(fabs(v))) - 3);
		v = round(v / step) * step;
	}
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
	/* No unit: exact to 9 digits, then 4 significant ones, as auto does. */
	if (u == UNIT_AUTO || (u == UNIT_NONE && ns >= 1000000000))
		return ks_fmt_dbl(buf, len, (double)ns, u);
	return fmt_exact(buf, len, ns, u, true);
}

char *ks_fmt_intnum(char *buf, size_t len, uint64_t ns, enum ks_unit u)
{
	return fmt_exact(buf, len, ns, u == UNIT_AUTO ? UNIT_NS : u, false);
}

/* ks_fmt_dbl, and in *@shown the value printed, in ns. */
static char *fmt_dbl(char *buf, size_t len, double ns, enum ks_unit u, double *shown)
{
	char num[64];

	*shown = ns;
	if (isnan(ns)) {
		snprintf(buf, len, "-");
		return buf;
	}
	if (u == UNIT_AUTO) {
		u = pick(ns);
		sig4(num, sizeof(num), ns / units[u].scale, true);
		/* 999.96 us rounds to "1000": say 1 ms instead. */
		if (u != UNIT_S && fabs(strtod(num, NULL)) >= 1000) {
			u++;
			sig4(num, sizeof(num), ns / units[u].scale, true);
		}
	} else {
		sig4(num, sizeof(num), ns / units[u].scale, u == UNIT_NONE);
	}
	*shown = strtod(num, NULL) * units[u].scale;
	snprintf(buf, len, "%s%s", num, units[u].name);
	return buf;
}

char *ks_fmt_dbl(char *buf, size_t len, double ns, enum ks_unit u)
{
	double shown;

	return fmt_dbl(buf, len, ns, u, &shown);
}

/* As ks_fmt_dbl, rounded up: a bound that stays one (summary's max). */
char *ks_fmt_up(char *buf, size_t len, double ns, enum ks_unit u)
{
	double shown, x = ns;
	int i;

	/* Nearest, then nudged up until what is printed is not below @ns. */
	fmt_dbl(buf, len, x, u, &shown);
	for (i = 0; shown < ns && i < 64; i++) {
		x += ns - shown + ns * 1e-9;
		fmt_dbl(buf, len, x, u, &shown);
	}
	return buf;
}

char *ks_fmt_u128(char *buf, size_t len, ks_u128 v)
{
	char tmp[48];
	int n = sizeof(tmp);

	tmp[--n] = '\0';
	do {
		tmp[--n] = (char)('0' + (int)(v % 10));
		v /= 10;
	} while (v);
	snprintf(buf, len, "%s", tmp + n);
	return buf;
}

char *ks_fmt_high(char *buf, size_t len, uint32_t slot, uint32_t frac_bits,
		  enum ks_unit u)
{
	uint64_t last = kstats_slot_last(slot, frac_bits);

	if (last != UINT64_MAX)
		return ks_fmt_int(buf, len, last + 1, u);
	if (u == UNIT_NS) {
		snprintf(buf, len, "18446744073709551616ns");
		return buf;
	}
	return ks_fmt_dbl(buf, len, kstats_slot_high(slot, frac_bits), u);
}

char *ks_fmt_highnum(char *buf, size_t len, uint32_t slot, uint32_t frac_bits,
		     enum ks_unit u)
{
	uint64_t last = kstats_slot_last(slot, frac_bits);

	if (last != UINT64_MAX)
		return ks_fmt_intnum(buf, len, last + 1, u);
	if (u == UNIT_NS || u == UNIT_AUTO) {
		snprintf(buf, len, "18446744073709551616");
		return buf;
	}
	return ks_fmt_num(buf, len, kstats_slot_high(slot, frac_bits), u);
}

/*
 * Slot bounds as row labels. A bound is a whole number of ns (2^64 at the
 * top), so in us, ms or s it is exact with at most 3, 6 or 9 decimals, and
 * it is printed exact, never rounded to the nearest: a rounded 11.01us
 * would claim a slot ends past 11.008us, where it does not. Within one
 * table, every bound in the same unit has the same number of decimals,
 * the most any of them needs, so that rows line up ("[2.112us, 2.176us)"
 * above "[2.176us, 2.240us)"). Exact would take more than 10 significant
 * digits only near the top of the range (past 9.99 s or 10^10 with no
 * unit; --units ns stays whole): such a bound gets 4 significant digits
 * rounded outwards (a low bound down, a high one up), so that the label
 * still holds the whole slot ("[9.223e18, 1.845e19)").
 */
#define BOUND_DIGITS	10

void ks_bounds_init(struct ks_bounds *b, enum ks_unit u)
{
	memset(b, 0, sizeof(*b));
	b->u = u;
}

/* The unit @v is printed in: auto picks per bound, as everywhere else. */
static enum ks_unit bound_unit(const struct ks_bounds *b, ks_u128 v)
{
	return b->u == UNIT_AUTO ? pick((double)v) : b->u;
}

static uint64_t pow10u(unsigned int n)
{
	uint64_t p = 1;

	while (n--)
		p *= 10;
	return p;
}

static unsigned int nr_digits(ks_u128 v)
{
	unsigned int n = 1;

	while (v >= 10) {
		v /= 10;
		n++;
	}
	return n;
}

/* The decimals @v needs in @u to be exact; *@sig: its significant digits. */
static unsigned int exact_decimals(ks_u128 v, enum ks_unit u, unsigned int *sig)
{
	unsigned int d = units[u].decimals;
	ks_u128 whole = v / pow10u(d);
	uint64_t frac = (uint64_t)(v % pow10u(d));

	while (d && frac % 10 == 0) {	/* trailing zeros are not needed */
		frac /= 10;
		d--;
	}
	*sig = whole ? nr_digits(whole) + d : nr_digits(frac);
	return d;
}

static bool bound_rounded(const struct ks_bounds *b, ks_u128 v)
{
	enum ks_unit u = bound_unit(b, v);
	unsigned int sig;

	exact_decimals(v, u, &sig);
	return sig > BOUND_DIGITS && u != UNIT_NS;
}

static void bound_add(struct ks_bounds *b, ks_u128 v)
{
	enum ks_unit u = bound_unit(b, v);
	unsigned int sig, d = exact_decimals(v, u, &sig);

	if (!bound_rounded(b, v))
		b->decimals[u] = d > b->decimals[u] ? d : b->decimals[u];
}

/* The exclusive upper bound of @slot: 2^64 for the last. */
static ks_u128 slot_end(uint32_t slot, uint32_t frac_bits)
{
	return (ks_u128)kstats_slot_last(slot, frac_bits) + 1;
}

void ks_bounds_add_slot(struct ks_bounds *b, uint32_t from, uint32_t to, uint32_t frac_bits)
{
	bound_add(b, kstats_slot_low(from, frac_bits));
	bound_add(b, slot_end(to, frac_bits));
}

/* @v with 4 significant digits, rounded down (a low bound) or up. */
static char *bound_outwards(char *buf, size_t len, ks_u128 v, enum ks_unit u, bool up)
{
	uint64_t div = pow10u(units[u].decimals);
	unsigned int k = nr_digits(v / div);	/* digits before the point, >= 1 */
	ks_u128 step = k >= 4 ? (ks_u128)div * pow10u(k - 4) : div / pow10u(4 - k);
	ks_u128 q = v / step + (up && v % step);
	char m[32];

	if (k < 4) {	/* 17.18s */
		snprintf(buf, len, "%llu.%0*llu%s", (unsigned long long)(q / pow10u(4 - k)),
			 (int)(4 - k), (unsigned long long)(q % pow10u(4 - k)), units[u].name);
		return buf;
	}
	if (q == 10000) {	/* 9.9995e9 up is 1e10 */
		q = 1000;
		k++;
	}
	snprintf(m, sizeof(m), "%llu.%03llu", (unsigned long long)(q / 1000),
		 (unsigned long long)(q % 1000));
	trim(m);
	snprintf(buf, len, "%se%u%s", m, k - 1, units[u].name);
	return buf;
}

static char *bound_fmt(const struct ks_bounds *b, char *buf, size_t len, ks_u128 v, bool up)
{
	enum ks_unit u = bound_unit(b, v);
	unsigned int d = b->decimals[u];
	uint64_t div = pow10u(units[u].decimals), f;
	char whole[48], frac[16];

	if (bound_rounded(b, v))
		return bound_outwards(buf, len, v, u, up);
	ks_fmt_u128(whole, sizeof(whole), v / div);
	f = (uint64_t)(v % div) / pow10u(units[u].decimals - d);	/* zeros cut */
	frac[0] = '\0';
	if (d)
		snprintf(frac, sizeof(frac), ".%0*llu", (int)d, (unsigned long long)f);
	snprintf(buf, len, "%s%s%s", whole, frac, units[u].name);
	return buf;
}

char *ks_bounds_slot(const struct ks_bounds *b, char *buf, size_t len, uint32_t from,
		     uint32_t to, uint32_t frac_bits)
{
	char lo[64], hi[64];

	snprintf(buf, len, "[%s, %s)",
		 bound_fmt(b, lo, sizeof(lo), kstats_slot_low(from, frac_bits), false),
		 bound_fmt(b, hi, sizeof(hi), slot_end(to, frac_bits), true));
	return buf;
}

char *ks_fmt_slot(char *buf, size_t len, uint32_t slot, uint32_t frac_bits,
		  enum ks_unit u)
{
	struct ks_bounds b;

	ks_bounds_init(&b, u);
	ks_bounds_add_slot(&b, slot, slot, frac_bits);
	return ks_bounds_slot(&b, buf, len, slot, slot, frac_bits);
}

char *ks_fmt_err(char *buf, size_t len, double err)
{
	double x = err * 100, step;
	char num[32];
	int decimals;

	if (!(err > 0)) {
		snprintf(buf, len, "exact");
		return buf;
	}
	/* Two significant digits, rounded up: it stays a bound. */
	step = pow(10, floor(log10(x)) - 1);
	x = ceil(x / step * (1 - 1e-12)) * step;
	decimals = step < 1 ? (int)lround(-log10(step)) : 0;
	snprintf(num, sizeof(num), "%.*f", decimals, x);
	trim(num);
	snprintf(buf, len, "±%s%%", num);
	return buf;
}

/* How far the truth can be from what is shown, relative to it. */
static double err_shown(double shown, double lo, double hi)
{
	double d = fmax(shown - lo, hi - shown);

	return shown > 0 ? d / shown : INFINITY;
}

char *ks_fmt_est(char *buf, size_t len, const struct ks_est *e, uint32_t frac_bits,
		 enum ks_unit u, bool bounds, bool table)
{
	char num[112], err[24];
	double shown;

	if (e->slot < 0) {
		snprintf(buf, len, "-");
	} else if (e->low == e->last) {
		ks_fmt_int(num, sizeof(num), e->low, u);
		snprintf(buf, len, "%s%s", num, bounds || table ? "" : " (exact)");
	} else if (bounds) {
		ks_fmt_slot(num, sizeof(num), (uint32_t)e->slot, frac_bits, u);
		snprintf(buf, len, "%s%s", table ? "" : "in ", num);
	} else {
		fmt_dbl(num, sizeof(num), e->value, u, &shown);
		ks_fmt_err(err, sizeof(err),
			   err_shown(shown, (double)e->low, (double)e->last));
		snprintf(buf, len, table ? "%s %s" : "%s (%s)", num, err);
	}
	return buf;
}

char *ks_fmt_est_value(char *buf, size_t len, const struct ks_est *e, enum ks_unit u,
		       double *err)
{
	double shown;

	*err = 0;
	if (e->slot < 0) {
		snprintf(buf, len, "-");
	} else if (e->low == e->last) {
		ks_fmt_int(buf, len, e->low, u);
	} else {
		fmt_dbl(buf, len, e->value, u, &shown);
		*err = err_shown(shown, (double)e->low, (double)e->last);
	}
	return buf;
}

char *ks_fmt_mean_value(char *buf, size_t len, const struct ks_stats *st,
			enum ks_unit u, double *err)
{
	double shown, d = st->mean_err * st->mean;

	fmt_dbl(buf, len, st->mean, u, &shown);
	*err = isnan(st->mean) || st->mean_err < 5e-4 ? 0 :
	       err_shown(shown, st->mean - d, st->mean + d);
	return buf;
}

char *ks_fmt_mean(char *buf, size_t len, const struct ks_stats *st, enum ks_unit u,
		  bool table)
{
	double shown, d = st->mean_err * st->mean;
	char num[48], err[24];

	fmt_dbl(num, sizeof(num), st->mean, u, &shown);
	/* Four significant digits are right to one in the last below 5e-4. */
	if (isnan(st->mean) || st->mean_err < 5e-4) {
		snprintf(buf, len, "%s", num);
		return buf;
	}
	ks_fmt_err(err, sizeof(err), err_shown(shown, st->mean - d, st->mean + d));
	snprintf(buf, len, table ? "%s %s" : "%s (%s)", num, err);
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
	for (i = UNIT_NS; i < UNIT_NONE; i++)
		if (!strcmp(end, units[i].name))
			break;
	if (i == UNIT_NONE || !isfinite(v) || v < 0)
		return -1;
	v = round(v * units[i].scale);
	if (v >= 0x1p64)
		return -1;
	*ns = (uint64_t)v;
	return 0;
}

char *ks_fmt_shortest(char *buf, size_t len, double v)
{
	int prec, decimals;

	for (prec = 1; prec < 17; prec++) {
		snprintf(buf, len, "%.*g", prec, v);
		if (strtod(buf, NULL) == v)
			break;
	}
	if (prec == 17)
		snprintf(buf, len, "%.17g", v);
	/* No exponent where a plain decimal reads as well: 50, not 5e+01. */
	if (strchr(buf, 'e') && fabs(v) >= 1e-4 && fabs(v) < 1e15) {
		decimals = prec - 1 - (int)floor(log10(fabs(v)));
		snprintf(buf, len, "%.*f", decimals > 0 ? decimals : 0, v);
	}
	return buf;
}

/*
 * "5", "5s", "500ms", "2m", "1h": seconds. The one reading of a duration
 * in seconds, for every option that takes one (a bare number: seconds).
 */
int ks_seconds_parse(const char *s, double *out)
{
	static const struct { const char *name; double s; } secs[] = {
		{ "", 1 }, { "s", 1 }, { "ms", 1e-3 }, { "us", 1e-6 }, { "m", 60 },
		{ "h", 3600 },
	};
	char *end;
	double v;
	size_t i;

	if (!isdigit((unsigned char)*s) && *s != '.')
		return -1;
	v = strtod(s, &end);
	if (end == s || !isfinite(v))
		return -1;
	for (i = 0; i < ARRAY_SIZE(secs); i++)
		if (!strcmp(end, secs[i].name)) {
			*out = v * secs[i].s;
			return 0;
		}
	return -1;
}

int ks_parse_seconds(const char *opt, const char *arg, double min, double max, double *out)
{
	double v;

	if (!ks_seconds_parse(arg, &v) && v >= min && v <= max) {
		*out = v;
		return 0;
	}
	ks_usage("%s: '%s' is not a duration from %gs to %gs (5, 5s, 500ms, 2m, 1h)",
		 opt, arg, min, max);
	return EINVAL;
}

/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Values in units: formatting and parsing them, and the unit each
 * metric is shown in (units.c).
 */
#ifndef KSTATSCTL_UNITS_H
#define KSTATSCTL_UNITS_H

#include "kstatsctl.h"

/* Formats @ns in @u: exact for integers, 4 significant digits for "auto". */
char *ks_fmt_int(char *buf, size_t len, uint64_t ns, enum ks_unit u);
char *ks_fmt_up(char *buf, size_t len, double ns, enum ks_unit u);	/* never below @ns */
char *ks_fmt_dbl(char *buf, size_t len, double ns, enum ks_unit u);
/* The exclusive upper bound of @slot (2^64 for the last), as ks_fmt_int. */
char *ks_fmt_high(char *buf, size_t len, uint32_t slot, uint32_t frac_bits,
		  enum ks_unit u);
/* The same without the unit's name, as ks_fmt_intnum (tables). */
char *ks_fmt_highnum(char *buf, size_t len, uint32_t slot, uint32_t frac_bits,
		     enum ks_unit u);
/* "[16ns, 32ns)": the values of @slot, exactly. */
char *ks_fmt_slot(char *buf, size_t len, uint32_t slot, uint32_t frac_bits,
		  enum ks_unit u);
/*
 * Row labels of one table (units.c): every bound exact, those in one unit
 * with as many decimals as the most any needs. Add every row's slots
 * (@from..@to, one row), then print each row's label.
 */
struct ks_bounds {
	enum ks_unit u;
	unsigned int decimals[UNIT_NONE + 1];
};
void ks_bounds_init(struct ks_bounds *b, enum ks_unit u);
void ks_bounds_add_slot(struct ks_bounds *b, uint32_t from, uint32_t to, uint32_t frac_bits);
char *ks_bounds_slot(const struct ks_bounds *b, char *buf, size_t len, uint32_t from,
		     uint32_t to, uint32_t frac_bits);
/* A count, exactly, in decimal. */
char *ks_fmt_u128(char *buf, size_t len, ks_u128 v);
/* The shortest "%g" form of @v that reads back as @v (CSV, labels). */
char *ks_fmt_shortest(char *buf, size_t len, double v);
/* Exactly, without the unit's name (tables). */
char *ks_fmt_intnum(char *buf, size_t len, uint64_t ns, enum ks_unit u);
/* A plain number in @u (no suffix), for tables. */
char *ks_fmt_num(char *buf, size_t len, double ns, enum ks_unit u);
/*
 * A relative error bound as "±5.9%": rounded up to two significant
 * digits, so that it stays a bound; "exact" for 0.
 */
char *ks_fmt_err(char *buf, size_t len, double err);
const char *ks_unit_name(enum ks_unit u);
double ks_unit_scale(enum ks_unit u);	/* ns per unit */
int ks_unit_parse(const char *s, enum ks_unit *u);
/* "10s", "500ms", "2m", "1h", "5" (s): seconds; 0 or -1 (units.c, for every option). */
int ks_seconds_parse(const char *s, double *out);
/* "1500", "1.5us", "2ms": a value in ns; 0 or -1. */
int ks_parse_value(const char *s, uint64_t *ns);
struct ks_metric;
/*
 * The unit @m is shown in: @u (--units) when it holds nanoseconds (a
 * trace's or a gap's, or one named by --ns), else UNIT_NONE: a module's or
 * a program's metric records numbers in a unit kstats is not told.
 */
enum ks_unit ks_metric_unit(const struct ks_metric *m, enum ks_unit u);
bool ks_metric_is_ns(const struct ks_metric *m);
/* A trace's value (KSTATS_KIND_VALUE, or KSTATS_METRIC_VALUE: a key's), unitless. */
bool ks_metric_is_value(const struct ks_metric *m);
/* One unit for a whole table: @u, or from a typical value when auto. */
enum ks_unit ks_table_unit(enum ks_unit u, double typical_ns);

#endif /* KSTATSCTL_UNITS_H */

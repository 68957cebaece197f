// SPDX-License-Identifier: GPL-2.0
/*
 * diff --fail-if 'STAT>+10%' | 'STAT<-5%': a condition on the change of one
 * statistic (mean, min, max, or a percentile shown: p50, p99, p99.9, or one
 * of --percentiles), from A to B (or to B - A). It holds only when the
 * change is certain: every value the slots allow is past the threshold,
 * so a regression is never reported from a slot's width alone.
 */
#include <stdlib.h>
#include <string.h>

#include "kstatsctl.h"

/* The statistic's row in diff's table: 1 mean, 2 min, 3 max, 4.. the percentiles. */
static int stat_row(const char *s, size_t len)
{
	static const char *const fixed[] = { "mean", "min", "max" };
	size_t i;

	for (i = 0; i < 3; i++)
		if (strlen(fixed[i]) == len && !strncmp(s, fixed[i], len))
			return (int)i + 1;
	for (i = 0; i < ks_nr_pcts; i++)
		if (strlen(ks_pct_names[i]) == len && !strncmp(s, ks_pct_names[i], len))
			return (int)i + 4;
	return -1;
}

int ks_fail_if_parse(const char *s, struct ks_fail_if *f)
{
	const char *op = strpbrk(s, "<>");
	char *end;

	snprintf(f->text, sizeof(f->text), "%s", s);
	if (!op || op == s) {
		ks_usage("--fail-if: '%s' is not STAT>CHANGE or STAT<CHANGE, such as "
			 "'p99>+10%%'", s);
		return EXIT_USAGE;
	}
	f->row = stat_row(s, (size_t)(op - s));
	if (f->row < 0) {
		return ks_fail(EXIT_USAGE, "add it to --percentiles (e.g. --percentiles "
			       "50,95,99), or use mean, min or max",
			       "--fail-if: '%.*s' is not a statistic diff shows",
			       (int)(op - s), s);
	}
	f->above = *op == '>';
	f->pct = strtod(op + 1, &end);
	if (end == op + 1 || strcmp(end, "%") || f->pct != f->pct) {
		ks_usage("--fail-if: '%s' is not a change in %%, such as +10%% or -5%%",
			 op + 1);
		return EXIT_USAGE;
	}
	return 0;
}

bool ks_fail_if_holds(const struct ks_fail_if *f, double lo, double hi)
{
	if (lo != lo || hi != hi)	/* no value on a side */
		return false;
	return f->above ? lo > f->pct : hi < f->pct;
}

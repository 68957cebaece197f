// SPDX-License-Identifier: GPL-2.0
/*
 * --from / --to: a window of an HdrHistogram interval log, as
 * HistogramLogProcessor's -start / -end: seconds from the log's start, or
 * clock times (UTC, as the log's own times are). An interval is read when
 * its start lies in [from, to): windows that meet do not share one.
 */
#define _GNU_SOURCE	/* timegm */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "kstatsctl.h"
#include "hdr.h"
#include "hlog.h"
#include "units.h"

enum when_kind { WHEN_NONE, WHEN_SECONDS, WHEN_CLOCK, WHEN_EPOCH };

struct when {
	enum when_kind kind;
	double v;	/* seconds from the start; of the day; since the epoch */
};

static struct when win_from, win_to;

bool ks_hlog_window_set(void)
{
	return win_from.kind != WHEN_NONE || win_to.kind != WHEN_NONE;
}

/* "1800", "90s", "30m", "1.5h": seconds, as every option reads them. */
static int parse_offset(const char *arg, double *out)
{
	return ks_seconds_parse(arg, out) || *out < 0 ? -1 : 0;
}

/* "HH:MM[:SS]": seconds of the day. */
static int parse_clock(const char *arg, double *out)
{
	unsigned int h, m, s = 0;
	int n = 0;

	if ((sscanf(arg, "%2u:%2u:%2u%n", &h, &m, &s, &n) != 3 &&
	     sscanf(arg, "%2u:%2u%n", &h, &m, &n) != 2) || arg[n] || h > 23 || m > 59 ||
	    s > 60)
		return -1;
	*out = h * 3600.0 + m * 60.0 + s;
	return 0;
}

/* "YYYY-MM-DDTHH:MM[:SS]" (or a space for the T), UTC: epoch seconds. */
static int parse_date(const char *arg, double *out)
{
	struct tm tm = { 0 };
	const char *end;

	end = strptime(arg, "%Y-%m-%d", &tm);
	if (!end || (*end != 'T' && *end != ' '))
		return -1;
	if (!(end = strptime(end + 1, "%H:%M", &tm)))
		return -1;
	if (*end == ':' && !(end = strptime(end + 1, "%S", &tm)))
		return -1;
	if (*end)
		return -1;
	*out = (double)timegm(&tm);
	return 0;
}

int ks_hlog_window_parse(const char *arg, bool to)
{
	struct when *w = to ? &win_to : &win_from;

	if (!parse_offset(arg, &w->v))
		w->kind = WHEN_SECONDS;
	else if (!parse_clock(arg, &w->v))
		w->kind = WHEN_CLOCK;
	else if (!parse_date(arg, &w->v))
		w->kind = WHEN_EPOCH;
	else
		return ks_usage("--%s: '%s' is not seconds from the log's start (e.g. 3600, "
				"90m), a UTC clock time HH:MM[:SS] or YYYY-MM-DDTHH:MM[:SS]",
				to ? "to" : "from", arg);
	return 0;
}

static double resolve(const struct when *w, double log_start, double none)
{
	double day, t;

	switch (w->kind) {
	case WHEN_SECONDS:
		return log_start + w->v;
	case WHEN_CLOCK:
		day = floor(log_start / 86400) * 86400;
		t = day + w->v;
		return t < floor(log_start) ? t + 86400 : t;
	case WHEN_EPOCH:
		return w->v;
	default:
		return none;
	}
}

void ks_hlog_window_resolve(double log_start, double *from, double *to)
{
	*from = resolve(&win_from, log_start, -INFINITY);
	*to = resolve(&win_to, log_start, INFINITY);
}

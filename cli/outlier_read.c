// SPDX-License-Identifier: GPL-2.0
/*
 * A trace's outliers (KSTATS_IOC_OUTLIERS) for every command that shows a
 * trace: reading them all, their counters alone, and the line under a
 * trace in 'show' ("12 outliers over p99.9 = 1.3 ms, 3 lost; ...").
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>

#include "kstatsctl.h"

/*
 * The counters into @o and the entries into *@e (malloc'ed), growing on
 * -ENOSPC as often as the ring fills in between. 0, or an errno.
 */
int ks_outliers_read(int fd, const char *name, struct kstats_outliers *o,
		     struct kstats_outlier **e)
{
	uint32_t cap = 0;

	*e = NULL;
	for (;;) {
		memset(o, 0, sizeof(*o));
		snprintf((char *)o->name, sizeof(o->name), "%s", name);
		o->entry_size = sizeof(**e);
		o->nr_entries = cap;
		o->entries = (uint64_t)(uintptr_t)*e;
		if (!ioctl(fd, KSTATS_IOC_OUTLIERS, o))
			return 0;
		if (errno != ENOSPC) {
			free(*e);
			*e = NULL;
			return errno;
		}
		cap = o->nr_entries + 16;
		*e = xrealloc(*e, cap, sizeof(**e));
	}
}

/* A trace's outlier counters into @m, if it keeps outliers (else none). */
void ks_outliers_counters(int fd, struct ks_metric *m)
{
	struct kstats_outliers *o = &m->outl;

	memset(o, 0, sizeof(*o));
	snprintf((char *)o->name, sizeof(o->name), "%s", m->name);
	o->entry_size = sizeof(struct kstats_outlier);
	m->has_outliers = !ioctl(fd, KSTATS_IOC_OUTLIERS, o) || errno == ENOSPC;
	o->entries = 0;
	o->nr_entries = 0;
}

/* "over 1 ms", or "over p99.9 = 1.3 ms" ("= ?" before it has one). */
char *ks_outliers_threshold(char *buf, size_t len, const struct kstats_outliers *o)
{
	char v[64], q[32];

	ks_fmt_int(v, sizeof(v), o->threshold_ns, opts.units);
	if (!o->threshold_ppm) {
		snprintf(buf, len, "over %s", v);
		return buf;
	}
	ks_fmt_shortest(q, sizeof(q), o->threshold_ppm / 1e4);
	snprintf(buf, len, "over p%s = %s", q, o->threshold_ns ? v : "? (too few calls yet)");
	return buf;
}

/*
 * 'show': "12 outliers over p99.9 = 1.3 ms, 3 lost; kstatsctl outliers
 * NAME", wrapped at the output's width as the other footer lines.
 */
void ks_outliers_line(FILE *out, const char *name, const struct kstats_outliers *o)
{
	char item[128 + KS_TEXT_LEN(KSTATS_NAME_LEN)], thr[128], t[KS_TEXT_LEN(KSTATS_NAME_LEN)];
	struct ks_wrap w = { out, ks_out_width(out), 0, "", "  " };

	snprintf(item, sizeof(item), "%llu outlier%s %s,", (unsigned long long)o->captured,
		 o->captured == 1 ? "" : "s", ks_outliers_threshold(thr, sizeof(thr), o));
	ks_wrap_item(&w, "", item);
	snprintf(item, sizeof(item), "%llu lost", (unsigned long long)(o->overwritten +
								   o->ratelimited));
	ks_wrap_item(&w, " ", item);
	if (o->ratelimited) {
		snprintf(item, sizeof(item), "(%llu to the rate limit)",
			 (unsigned long long)o->ratelimited);
		ks_wrap_item(&w, " ", item);
	}
	ks_wrap_item(&w, "", ";");
	snprintf(item, sizeof(item), "kstatsctl outliers %s", ks_text(t, sizeof(t), name));
	ks_wrap_item(&w, " ", item);
	ks_wrap_end(&w);
}


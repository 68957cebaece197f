// SPDX-License-Identifier: GPL-2.0
/*
 * What 'outliers' prints of a trace's outliers, read from the module or
 * from a snapshot file (-i): the same either way. The table: a header of
 * the counters, then each outlier, oldest first, with its stack; -j: the
 * same as the "outliers" JSON document (kstatsctl.schema.json).
 */
#include <inttypes.h>
#include <string.h>
#include <time.h>

#include "kstatsctl.h"

/* "2026-11-25 04:49:50.546902", local time (a file's may be any). */
static void wall_time(char *buf, size_t len, int64_t real)
{
	int64_t ns = real % 1000000000;
	time_t sec = (time_t)(real / 1000000000);
	struct tm tm;
	char day[32];

	if (ns < 0) {
		ns += 1000000000;
		sec--;
	}
	if (!localtime_r(&sec, &tm) ||
	    !strftime(day, sizeof(day), "%Y-%m-%d %H:%M:%S", &tm)) {
		snprintf(buf, len, "%" PRId64 " ns since the epoch", real);
		return;
	}
	snprintf(buf, len, "%s.%06" PRId64, day, ns / 1000);
}

static bool withheld(const struct ks_outl *ol, const struct ks_outl_entry *e)
{
	return ol->withheld || (e->flags & KSTATS_OUTLIER_NOADDR);
}

void fmt_outliers_json(struct json *j, const char *name, const struct ks_outl *ol)
{
	const struct kstats_outliers *o = &ol->o;
	uint32_t i, f;

	json_kstr(j, "name", name);
	json_ku64(j, "threshold_ns", o->threshold_ns);
	if (o->threshold_ppm)
		json_kdbl(j, "threshold_percentile", o->threshold_ppm / 1e4);
	json_ku64(j, "captured", o->captured);
	json_ku64(j, "overwritten", o->overwritten);
	json_ku64(j, "ratelimited", o->ratelimited);
	json_ku64(j, "capacity", o->capacity);
	json_kbool(j, "addresses", !ol->withheld);
	if (ol->note[0])
		json_kstr(j, "note", ol->note);
	json_key(j, "outliers");
	json_arr(j);
	for (i = 0; i < ol->nr; i++) {
		const struct ks_outl_entry *e = &ol->e[i];

		json_obj(j);
		json_ku64(j, "seq", e->seq);
		json_ku64(j, "time_ns", e->time_ns);
		json_ki64(j, "realtime_ns", e->realtime_ns);
		json_ku64(j, "duration_ns", e->duration_ns);
		json_ki64(j, "pid", e->pid);
		json_ki64(j, "tgid", e->tgid);
		json_kstr(j, "comm", e->comm);
		json_ku64(j, "cpu_start", e->cpu_start);
		json_ku64(j, "cpu_end", e->cpu_end);
		json_kbool(j, "truncated", e->flags & KSTATS_OUTLIER_TRUNCATED);
		json_kbool(j, "task", !(e->flags & KSTATS_OUTLIER_NOTASK));
		json_ku64(j, "nr_frames", e->nr_frames);
		json_key(j, "stack");
		json_arr(j);
		for (f = 0; !withheld(ol, e) && f < e->nr_stack; f++)
			json_str(j, ol->text + e->stack[f]);
		json_arr_end(j);
		json_obj_end(j);
	}
	json_arr_end(j);
}

void fmt_outliers_table(FILE *out, const char *name, const struct ks_outl *ol)
{
	char thr[128], when[64], dur[64], t[KS_TEXT_LEN(600)];
	const struct kstats_outliers *o = &ol->o;
	uint32_t i, f;

	fprintf(out, "%s: %u outlier%s %s kept of %llu (ring of %u); %llu overwritten, "
		"%llu rate-limited\n", name, ol->nr, ol->nr == 1 ? "" : "s",
		ks_outliers_threshold(thr, sizeof(thr), o), (unsigned long long)o->captured,
		o->capacity, (unsigned long long)o->overwritten,
		(unsigned long long)o->ratelimited);
	if (ol->note[0])
		fprintf(out, "(%s)\n", ks_text(t, sizeof(t), ol->note));
	for (i = 0; i < ol->nr; i++) {
		const struct ks_outl_entry *e = &ol->e[i];

		wall_time(when, sizeof(when), e->realtime_ns);
		ks_fmt_int(dur, sizeof(dur), e->duration_ns, opts.units);
		/* A comm is any bytes a task chose (PR_SET_NAME): made safe. */
		fprintf(out, "\n#%llu  %s  %s  ", (unsigned long long)e->seq, when, dur);
		if (withheld(ol, e) && !e->pid && !e->tgid && !e->comm[0])
			fprintf(out, "(task withheld)");
		else
			fprintf(out, "pid %d tgid %d %s", e->pid, e->tgid,
				ks_text(t, sizeof(t), e->comm));
		fprintf(out, "  CPU %u->%u%s\n", e->cpu_start, e->cpu_end,
			e->flags & KSTATS_OUTLIER_NOTASK ? "  (interrupt)" : "");
		if (withheld(ol, e)) {
			fprintf(out, "    (%u frames withheld)\n", e->nr_frames);
			continue;
		}
		for (f = 0; f < e->nr_stack; f++)
			fprintf(out, "    %s\n", ks_text(t, sizeof(t), ol->text + e->stack[f]));
		if (e->flags & KSTATS_OUTLIER_TRUNCATED)
			fprintf(out, "    (the kernel's unwinder stops at the probe's "
				"trampoline here: the caller only)\n");
	}
}

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
#include "json.h"
#include "keys.h"
#include "outliers.h"
#include "text.h"
#include "units.h"

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

/*
 * "returned -ENOENT" (the errno key's rule, keys.c), "returned 4096", or
 * hex for another negative (a pointer, most often): the whole register.
 */
static char *retval_text(char *buf, size_t len, uint64_t v)
{
	int err = ks_retval_errno(v);
	const char *n = err ? ks_errno_name(-err) : NULL;

	if (n)
		snprintf(buf, len, "returned -%s", n);
	else if (err)
		snprintf(buf, len, "returned %d", err);
	else if ((int64_t)v < 0)
		snprintf(buf, len, "returned 0x%" PRIx64, v);
	else
		snprintf(buf, len, "returned %" PRIu64, v);
	return buf;
}

void fmt_outliers_json(struct json *j, const char *name, const struct ks_outl *ol)
{
	const struct kstats_outliers *o = &ol->o;
	uint32_t i, f;

	json_kstr(j, "name", name);
	/* A trace's: its durations, and so the threshold, are nanoseconds. */
	json_kstr(j, "unit", "ns");
	json_ku64(j, "threshold", o->threshold_ns);
	if (o->threshold_ppm)
		json_kdbl(j, "threshold_percentile", o->threshold_ppm / 1e4);
	json_ku64(j, "captured", o->captured);
	json_ku64(j, "overwritten", o->overwritten);
	json_ku64(j, "ratelimited", o->ratelimited);
	json_ku64(j, "capacity", o->capacity);
	json_kbool(j, "addresses", !ol->withheld);
	if (ol->note[0])
		json_kstr(j, "note", ol->note);
	if (ol->follow) {
		json_ku64(j, "lost", ol->lost);
		json_ku64(j, "ratelimited_since", ol->ratelimited_since);
	}
	if (ol->filtered)
		json_ku64(j, "unmatched", ol->unmatched);
	json_key(j, "outliers");
	json_arr(j);
	for (i = 0; i < ol->nr; i++) {
		const struct ks_outl_entry *e = &ol->e[i];

		json_obj(j);
		json_ku64(j, "seq", e->seq);
		json_ku64(j, "time_ns", e->time_ns);
		json_ki64(j, "realtime_ns", e->realtime_ns);
		json_ku64(j, "duration", e->duration_ns);
		json_ki64(j, "pid", e->pid);
		json_ki64(j, "tgid", e->tgid);
		json_kstr(j, "comm", e->comm);
		json_ku64(j, "cpu_start", e->cpu_start);
		json_ku64(j, "cpu_end", e->cpu_end);
		if (e->flags & KSTATS_OUTLIER_RETVAL) {
			json_ku64(j, "retval", e->retval);
			if (ks_retval_errno(e->retval))
				json_ki64(j, "errno", ks_retval_errno(e->retval));
		}
		json_kbool(j, "truncated", e->flags & KSTATS_OUTLIER_TRUNCATED);
		json_kbool(j, "task", !(e->flags & KSTATS_OUTLIER_NOTASK));
		if (e->flags & KSTATS_OUTLIER_USER)
			json_kbool(j, "user", true);
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

/* The counters, within the terminal's width (a name may be 63 characters). */
static void header(FILE *out, const char *name, const struct ks_outl *ol)
{
	const struct kstats_outliers *o = &ol->o;
	char thr[128], item[256], t[KS_TEXT_LEN(600)];
	struct ks_wrap w = { out, ks_out_width(out), 0, "", "  " };
	uint64_t kept = ol->nr + ol->unmatched;

	snprintf(item, sizeof(item), "%s:", name);
	ks_wrap_item(&w, "", item);

	snprintf(item, sizeof(item), "%llu outlier%s %s", (unsigned long long)kept,
		 kept == 1 ? "" : "s", ks_outliers_threshold(thr, sizeof(thr), o));
	ks_wrap_item(&w, " ", item);
	snprintf(item, sizeof(item), "kept of %llu (ring of %u)",
		 (unsigned long long)o->captured, o->capacity);
	ks_wrap_item(&w, " ", item);
	snprintf(item, sizeof(item), "%llu overwritten, %llu rate-limited",
		 (unsigned long long)o->overwritten, (unsigned long long)o->ratelimited);
	ks_wrap_item(&w, "; ", item);
	if (ol->filtered) {
		snprintf(item, sizeof(item), "%u shown, %llu not matching", ol->nr,
			 (unsigned long long)ol->unmatched);
		ks_wrap_item(&w, "; ", item);
	}
	ks_wrap_end(&w);
	if (ol->note[0]) {
		snprintf(item, sizeof(item), "(%s)", ks_text(t, sizeof(t), ol->note));
		ks_print_wrapped(out, "", " ", item);
	}
}

/*
 * "#5  2026-11-21 22:26:36.123333  3.1ms  pid 0 swapper/0  CPU 1->1
 * returned -EAGAIN  (interrupt)"
 */
static void entry_line(FILE *out, const struct ks_outl *ol, const struct ks_outl_entry *e)
{
	char when[64], dur[64], item[KS_TEXT_LEN(600) + 64], t[KS_TEXT_LEN(600)];
	/* Continued by 2 spaces: the stack's frames are indented by 4. */
	struct ks_wrap w = { out, ks_out_width(out), 0, "", "  " };

	wall_time(when, sizeof(when), e->realtime_ns);
	ks_fmt_int(dur, sizeof(dur), e->duration_ns, opts.units);
	snprintf(item, sizeof(item), "#%llu", (unsigned long long)e->seq);
	ks_wrap_item(&w, "", item);
	ks_wrap_item(&w, "  ", when);
	ks_wrap_item(&w, "  ", dur);
	/* A comm is any bytes a task chose (PR_SET_NAME): made safe. */
	if (withheld(ol, e) && !e->pid && !e->tgid && !e->comm[0])
		snprintf(item, sizeof(item), "(task withheld)");
	else if (e->pid == e->tgid)	/* a process's main thread: one number */
		snprintf(item, sizeof(item), "pid %d %s", e->pid,
			 ks_text(t, sizeof(t), e->comm));
	else
		snprintf(item, sizeof(item), "pid %d tgid %d %s", e->pid, e->tgid,
			 ks_text(t, sizeof(t), e->comm));
	ks_wrap_item(&w, "  ", item);
	snprintf(item, sizeof(item), "CPU %u->%u", e->cpu_start, e->cpu_end);
	ks_wrap_item(&w, "  ", item);
	if (e->flags & KSTATS_OUTLIER_RETVAL)
		ks_wrap_item(&w, "  ", retval_text(item, sizeof(item), e->retval));
	if (e->flags & KSTATS_OUTLIER_NOTASK)
		ks_wrap_item(&w, "  ", "(interrupt)");
	ks_wrap_end(&w);
}

void fmt_outlier_entry(FILE *out, const struct ks_outl *ol, uint32_t i)
{
	const struct ks_outl_entry *e = &ol->e[i];
	char t[KS_TEXT_LEN(600)];
	uint32_t f;

	entry_line(out, ol, e);
	if (withheld(ol, e)) {
		fprintf(out, "    (%u frames withheld)\n", e->nr_frames);
		return;
	}
	for (f = 0; f < e->nr_stack; f++)
		fprintf(out, "    %s\n", ks_text(t, sizeof(t), ol->text + e->stack[f]));
	if (e->flags & KSTATS_OUTLIER_TRUNCATED)
		fprintf(out, "    (the unwinder stops at the probe's trampoline here: "
			"the caller only)\n");
}

void fmt_outliers_table(FILE *out, const char *name, const struct ks_outl *ol)
{
	uint32_t i;

	header(out, name, ol);
	for (i = 0; i < ol->nr; i++) {
		fputc('\n', out);
		fmt_outlier_entry(out, ol, i);
	}
}

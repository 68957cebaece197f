// SPDX-License-Identifier: GPL-2.0
/*
 * The in-memory model: a metric at one instant (struct ks_metric, filled
 * from KSTATS_IOC_SNAPSHOT or from a snapshot file), differences of two
 * instants (--watch, diff), and the dense per-slot view every formatter
 * reads (struct ks_hist) with its summary statistics.
 *
 * Slot bounds, means, sums, ranks and error bounds all come from
 * include/kstats_hist.h. What is added here: counts summed over CPUs in
 * 128 bits (no total can wrap), and estimates that say what is known. A
 * sample is known only to its slot, so min, max and every percentile are
 * a slot (struct ks_est): the middle of its values, plus or minus half its
 * width, the tightest the data allows. Sums and means come from the slots'
 * part sums: exact in slots up to 2^12 wide, within 2^-(13 + frac_bits)
 * above, and unknown in a slot of 2^52 samples or more, whose part sum may
 * have wrapped; such a slot counts at its middle, and mean_err says how
 * far off the mean can then be.
 */
#include <errno.h>
#include <fnmatch.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/utsname.h>
#include <time.h>

#include "kstatsctl.h"
#include "device.h"
#include "keys.h"
#include "model.h"
#include "names.h"
#include "outliers.h"
#include "stats.h"
#include "units.h"

double ks_pcts[KS_MAX_PCT] = { 0.50, 0.90, 0.99, 0.999, 0.9999 };
char ks_pct_names[KS_MAX_PCT][24] = { "p50", "p90", "p99", "p99.9", "p99.99" };
size_t ks_nr_pcts = 5;
bool ks_pcts_set;

/* "50,95,99.5": up to KS_MAX_PCT percentiles, each above 0 and at most 100. */
int ks_pcts_parse(const char *s)
{
	const char *p = s;
	char *end, num[40];
	size_t n = 0;
	double v;

	for (;;) {
		v = strtod(p, &end);
		if (n == KS_MAX_PCT) {
			ks_usage("--percentiles: '%s' has more than %d percentiles", s,
				 KS_MAX_PCT);
			return EINVAL;
		}
		if (end == p || !(v > 0 && v <= 100) || (*end && *end != ',')) {
			/* Which item: "0,101" has two, and one is wrong. */
			ks_usage("--percentiles: '%.*s' (item %zu) is not a percentile above "
				 "0 and up to 100, as in 50,95,99.5", (int)strcspn(p, ","), p,
				 n + 1);
			return EINVAL;
		}
		ks_pcts[n] = v / 100;
		/* The label reads back as the percentile asked: 99.99999 is
		 * "p99.99999", never "%g"'s "p100". */
		snprintf(ks_pct_names[n], sizeof(ks_pct_names[n]), "p%s",
			 ks_fmt_shortest(num, sizeof(num), v));
		n++;
		if (!*end)
			break;
		p = end + 1;
	}
	ks_nr_pcts = n;
	ks_pcts_set = true;
	return 0;
}

/* Past 2^52 samples a slot's part sum may have wrapped (kstats_hist.h). */
#define SUM_KNOWN_BELOW	((ks_u128)1 << (64 - KSTATS_SUM_BITS))

void ks_metric_free(struct ks_metric *m)
{
	free(m->cpus);
	free(m->slots);
	m->cpus = NULL;
	m->slots = NULL;
}

void ks_metric_since(const struct ks_metric *prev, const struct ks_metric *cur,
		     struct ks_metric *out)
{
	struct ks_metric empty;
	uint32_t r;

	if (prev) {
		ks_metric_delta(prev, cur, out, NULL, 0);
		return;
	}
	empty = *cur;
	empty.nr_slots = 0;
	empty.hits = empty.misses = empty.faults = empty.rejected = 0;
	empty.cpus = xcalloc(cur->nr_cpus ? cur->nr_cpus : 1, sizeof(*empty.cpus));
	for (r = 0; r < cur->nr_cpus; r++)
		empty.cpus[r].cpu = cur->cpus[r].cpu;
	ks_metric_delta(&empty, cur, out, NULL, 0);
	free(empty.cpus);
}

bool ks_names_fnmatch(const struct ks_names *pats, const char *name)
{
	size_t i;

	for (i = 0; i < pats->nr; i++)
		if (!fnmatch(pats->v[i], name, 0))
			return true;
	return false;
}

/* Does @pat have a shell-style metacharacter (else it is a plain name)? */
static bool is_glob(const char *pat)
{
	return strpbrk(pat, "*?[") != NULL;
}

int ks_names_check(const struct ks_names *pats, const char *const *names, size_t nr,
		   const char *path)
{
	const char *near;
	size_t p, i;

	for (p = 0; p < pats->nr; p++)
		if (ks_pattern_valid(pats->v[p]))
			return EXIT_USAGE;
	for (p = 0; p < pats->nr; p++) {
		const char *pat = pats->v[p];

		for (i = 0; i < nr; i++)
			if (!fnmatch(pat, names[i], 0))
				break;
		if (i < nr)
			continue;
		near = ks_closest(pat, names, nr);
		if (near)
			ks_set_hint("did you mean '%s'?", near);
		else
			ks_set_hint(path ? "'kstatsctl list -i %s' lists its metrics" :
				    "'kstatsctl list' lists the metrics", path);
		if (is_glob(pat))
			return ks_fail(EXIT_RUNTIME, NULL, "%s%sno metric matches '%s'",
				       path ? path : "", path ? ": " : "", pat);
		return ks_fail(EXIT_RUNTIME, NULL, "%s%sno metric %s%s", path ? path : "",
			       path ? ": " : "", pat, path ? " in it" : "");
	}
	return 0;
}

int ks_set_check(const struct ks_set *set, const struct ks_names *pats, const char *path)
{
	const char **names = xcalloc(set->nr, sizeof(*names));
	size_t i;
	int rc;

	for (i = 0; i < set->nr; i++)
		names[i] = set->m[i].name;
	rc = ks_names_check(pats, names, set->nr, path);
	free(names);
	return rc;
}

int ks_take_matching(int fd, const struct ks_names *pats, struct ks_set *set)
{
	struct kstats_metric_info *li = NULL;
	uint32_t nr = 0, i;
	int rc = ks_dev_list(fd, &li, &nr);

	if (rc)
		return ks_dev_error(-rc, "listing metrics");
	if (pats->nr) {
		const char **names = xcalloc(nr, sizeof(*names));

		for (i = 0; i < nr; i++)
			names[i] = (const char *)li[i].name;
		rc = ks_names_check(pats, names, nr, NULL);
		free(names);
		if (rc) {
			free(li);
			return rc;
		}
	}
	set->m = xcalloc(nr, sizeof(*set->m));
	for (i = 0; i < nr; i++) {
		if (pats->nr && !ks_names_fnmatch(pats, (const char *)li[i].name))
			continue;
		rc = ks_snapshot_live(fd, (const char *)li[i].name, &set->m[set->nr], true);
		if (rc < 0)
			continue;	/* gone since LIST */
		if (rc)
			break;
		set->nr++;
	}
	free(li);
	return rc > 0 ? rc : 0;
}

void ks_set_keep(struct ks_set *set, const struct ks_names *pats)
{
	size_t i, n = 0;

	for (i = 0; i < set->nr; i++) {
		if (!pats->nr || ks_names_fnmatch(pats, set->m[i].name)) {
			set->m[n++] = set->m[i];
		} else {
			ks_outl_free(set->m[i].outl_entries);
			ks_stack_names_free(set->m[i].stack);
			ks_metric_free(&set->m[i]);
		}
	}
	set->nr = n;
}

void ks_metric_cpus(const struct ks_metric *m, const uint8_t *mask, struct ks_metric *out)
{
	const struct kstats_snap_slot *s = m->slots;
	uint32_t r, n = 0, ns = 0;

	*out = *m;
	out->outl_entries = NULL;	/* its set's */
	out->stack = NULL;
	out->cpus = xcalloc(m->nr_cpus ? m->nr_cpus : 1, sizeof(*out->cpus));
	out->slots = xcalloc(m->nr_slots ? m->nr_slots : 1, sizeof(*out->slots));
	for (r = 0; r < m->nr_cpus; s += m->cpus[r].nr_slots, r++) {
		uint32_t c = m->cpus[r].cpu;

		if (c >= KS_CPU_BITS || !(mask[c / 8] & (1u << (c % 8))))
			continue;
		out->cpus[n++] = m->cpus[r];
		memcpy(out->slots + ns, s, m->cpus[r].nr_slots * sizeof(*s));
		ns += m->cpus[r].nr_slots;
	}
	out->nr_cpus = n;
	out->nr_slots = ns;
}

void ks_set_free(struct ks_set *s)
{
	size_t i;

	for (i = 0; i < s->nr; i++) {
		ks_outl_free(s->m[i].outl_entries);	/* the set's; copies borrow it */
		ks_stack_names_free(s->m[i].stack);
		ks_metric_free(&s->m[i]);
	}
	free(s->m);
	s->m = NULL;
	s->nr = 0;
}

struct ks_metric *ks_set_find(const struct ks_set *s, const char *name)
{
	size_t i;

	for (i = 0; i < s->nr; i++)
		if (!strcmp(s->m[i].name, name))
			return &s->m[i];
	return NULL;
}

int ks_metric_row(const struct ks_metric *m, uint32_t cpu)
{
	uint32_t r;

	for (r = 0; r < m->nr_cpus; r++)
		if (m->cpus[r].cpu == cpu)
			return (int)r;
	return -1;
}

bool ks_metric_row_used(const struct ks_metric *m, uint32_t r)
{
	const struct kstats_snap_slot *s = m->slots;
	uint32_t i;

	if (m->cpus[r].count)
		return true;
	for (i = 0; i < r; i++)
		s += m->cpus[i].nr_slots;
	for (i = 0; i < m->cpus[r].nr_slots; i++)
		if (s[i].count)
			return true;
	return false;
}

/* The boot's random ID: two snapshots with the same one are of one boot. */
void ks_read_boot_id(char *buf, size_t len)
{
	FILE *f = fopen("/proc/sys/kernel/random/boot_id", "re");

	buf[0] = '\0';
	if (!f)
		return;
	if (fgets(buf, (int)len, f))
		buf[strcspn(buf, "\n")] = '\0';
	fclose(f);
}

void ks_source_live(struct ks_source *src, int fd)
{
	struct kstats_info info;
	struct timespec ts;
	struct utsname un;

	memset(src, 0, sizeof(*src));
	uname(&un);
	snprintf(src->host, sizeof(src->host), "%s", un.nodename);
	snprintf(src->kernel, sizeof(src->kernel), "%s", un.release);
	snprintf(src->kernel_version, sizeof(src->kernel_version), "%s", un.version);
	snprintf(src->machine, sizeof(src->machine), "%s", un.machine);
	snprintf(src->tool_version, sizeof(src->tool_version), "%s", KSTATS_VERSION);
	ks_read_boot_id(src->boot_id, sizeof(src->boot_id));
	if (fd >= 0 && !ks_dev_info(fd, &info)) {
		snprintf(src->module_version, sizeof(src->module_version), "%s",
			 (const char *)info.version);
		src->abi_version = info.abi_version;
	}
	clock_gettime(CLOCK_REALTIME, &ts);
	src->created_ns = (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

/* LIST, kept for the owner fields of live snapshots. */
static struct kstats_metric_info *list_cache;
static uint32_t list_nr;

static const struct kstats_metric_info *list_find(int fd, const char *name)
{
	uint32_t i;
	int pass;

	for (pass = 0; pass < 2; pass++) {
		for (i = 0; list_cache && i < list_nr; i++)
			if (!strncmp((const char *)list_cache[i].name, name,
				     KSTATS_NAME_LEN))
				return &list_cache[i];
		free(list_cache);
		list_cache = NULL;
		if (ks_dev_list(fd, &list_cache, &list_nr))
			return NULL;
	}
	return NULL;
}

int ks_snapshot_live(int fd, const char *name, struct ks_metric *m,
		     bool missing_ok)
{
	return ks_snapshot_live_stack(fd, name, m, missing_ok, NULL);
}

int ks_snapshot_live_stack(int fd, const char *name, struct ks_metric *m,
			   bool missing_ok, struct ks_key_stack *st)
{
	const struct kstats_metric_info *li;
	struct kstats_snapshot sn;
	size_t cap = 64 * 1024, need;
	void *buf = NULL;
	uint32_t r, total;
	int tries;

	memset(m, 0, sizeof(*m));
	for (tries = 0; ; tries++) {
		buf = xrealloc(buf, cap, 1);
		memset(&sn, 0, sizeof(sn));
		snprintf((char *)sn.name, sizeof(sn.name), "%s", name);
		sn.buf = (uint64_t)(uintptr_t)buf;
		sn.buf_len = cap;
		if (st)
			sn.frames = (uint64_t)(uintptr_t)st->frames;
		if (!ioctl(fd, KSTATS_IOC_SNAPSHOT, &sn))
			break;
		if (errno != ENOSPC || tries == 16) {
			int err = errno;

			free(buf);
			if (err == ENOENT && missing_ok)
				return -1;
			return ks_dev_error(err, name);
		}
		cap = sn.buf_len + sn.buf_len / 4 + 4096;
	}
	need = (size_t)sn.nr_cpus * sizeof(*m->cpus) +
	       (size_t)sn.nr_slots * sizeof(*m->slots);
	if (need > sn.buf_len || sn.frac_bits > KSTATS_FRAC_BITS_MAX) {
		free(buf);
		return ks_fail(EXIT_RUNTIME, NULL, "%s: the module returned a "
			       "malformed snapshot", name);
	}
	snprintf(m->name, sizeof(m->name), "%s", name);
	if (st) {
		st->nr = sn.nr_frames <= KSTATS_OUTLIER_FRAMES ? sn.nr_frames : 0;
		st->flags = sn.frames_flags;
		st->tgid = sn.frames_tgid;
	}
	m->kind = sn.kind;
	m->flags = sn.metric_flags;
	m->frac_bits = sn.frac_bits;
	m->time_ns = sn.time_ns;
	m->realtime_ns = sn.realtime_ns;
	m->hits = sn.hits;
	m->misses = sn.misses;
	m->floor_ns = sn.floor_ns;
	m->faults = sn.faults;
	m->rejected = sn.rejected;
	m->group_misses = sn.group_misses;
	m->expr_known = true;
	m->generation = sn.generation;
	m->smp = (struct ks_sampling){
		.mode = sn.trace_mode, .sample_every = sn.sample_every,
		.budget_ppm = sn.budget_ppm, .cost_ppm = sn.cost_ppm,
		.full_cost_ppm = sn.full_cost_ppm, .flags = sn.trace_flags,
		.since_ns = sn.mode_since_ns, .skipped = sn.skipped,
		.call_ps = sn.call_cost_ps, .skip_ps = sn.skip_cost_ps,
	};
	if (sn.kind == KSTATS_KIND_TRACE)
		ks_outliers_counters(fd, m);
	m->nr_cpus = sn.nr_cpus;
	m->nr_slots = sn.nr_slots;
	m->owner_pid = -1;
	m->cpus = xcalloc(sn.nr_cpus, sizeof(*m->cpus));
	m->slots = xcalloc(sn.nr_slots, sizeof(*m->slots));
	memcpy(m->cpus, buf, (size_t)sn.nr_cpus * sizeof(*m->cpus));
	memcpy(m->slots, (char *)buf + (size_t)sn.nr_cpus * sizeof(*m->cpus),
	       (size_t)sn.nr_slots * sizeof(*m->slots));
	free(buf);
	for (r = 0, total = 0; r < m->nr_cpus; r++)
		total += m->cpus[r].nr_slots;
	for (r = 0; r < m->nr_slots; r++)
		if (m->slots[r].slot >= kstats_hist_nslots(m->frac_bits))
			total = ~0u;
	if (total != m->nr_slots) {
		ks_metric_free(m);
		return ks_fail(EXIT_RUNTIME, NULL, "%s: the module returned a "
			       "malformed snapshot", name);
	}
	li = list_find(fd, name);
	if (li) {
		snprintf(m->owner, sizeof(m->owner), "%.*s", KSTATS_NAME_LEN - 1,
			 (const char *)li->owner);
		m->owner_uid = li->owner_uid;
		m->owner_pid = li->owner_pid;
	}
	return 0;
}

/* Copies @src into @dst, arrays included. */
static void metric_copy(struct ks_metric *dst, const struct ks_metric *src)
{
	*dst = *src;
	dst->outl_entries = NULL;	/* its set's */
	dst->stack = NULL;
	dst->cpus = xcalloc(src->nr_cpus, sizeof(*dst->cpus));
	dst->slots = xcalloc(src->nr_slots, sizeof(*dst->slots));
	memcpy(dst->cpus, src->cpus, (size_t)src->nr_cpus * sizeof(*dst->cpus));
	memcpy(dst->slots, src->slots, (size_t)src->nr_slots * sizeof(*dst->slots));
}

/* Can @c (NULL: an empty slot) not have grown from @p? */
static bool shrank(const struct kstats_snap_slot *p, const struct kstats_snap_slot *c)
{
	uint64_t count = c ? c->count : 0, part_sum = c ? c->part_sum : 0;

	if (count < p->count)
		return true;
	return !kstats_slot_sum_may_wrap(count) && part_sum < p->part_sum;
}

/* What showed a reset: slot @p of @prev, and @c (or nothing) in @cur. */
static void say_shrank(char *why, size_t len, const struct ks_metric *m,
		       const struct kstats_snap_slot *p, const struct kstats_snap_slot *c)
{
	char sl[112];
	uint64_t count = c ? c->count : 0;

	ks_fmt_slot(sl, sizeof(sl), p->slot, m->frac_bits, ks_metric_unit(m, opts.units));
	if (count < p->count)
		snprintf(why, len, "slot %s of CPU %u went from %llu to %llu samples",
			 sl, p->cpu, (unsigned long long)p->count,
			 (unsigned long long)count);
	else
		snprintf(why, len, "the sum of slot %s of CPU %u went down", sl, p->cpu);
}

void ks_metric_delta(const struct ks_metric *prev, const struct ks_metric *cur,
		     struct ks_metric *out, char *why, size_t why_len)
{
	const struct kstats_snap_slot *p = prev->slots, *pe, *c = cur->slots, *ce;
	char dummy[8];
	uint32_t r;

	if (!why) {
		why = dummy;
		why_len = sizeof(dummy);
	}
	/* Files keep the low 32 bits of the generation; 0 is unknown. */
	if (prev->generation && cur->generation &&
	    (uint32_t)prev->generation != (uint32_t)cur->generation) {
		snprintf(why, why_len, "its generation changed (%u, then %u)",
			 (uint32_t)prev->generation, (uint32_t)cur->generation);
		goto reset;
	}
	if (prev->frac_bits != cur->frac_bits) {
		snprintf(why, why_len, "frac_bits went from %u to %u", prev->frac_bits,
			 cur->frac_bits);
		goto reset;
	}
	if (prev->nr_cpus != cur->nr_cpus) {
		snprintf(why, why_len, "the CPUs differ");
		goto reset;
	}
	if (cur->hits < prev->hits || cur->misses < prev->misses ||
	    cur->smp.skipped < prev->smp.skipped || cur->faults < prev->faults ||
	    cur->rejected < prev->rejected || cur->group_misses < prev->group_misses) {
		snprintf(why, why_len, "its hits, misses, skipped, faulted or rejected "
			 "calls went down");
		goto reset;
	}
	*out = *cur;
	out->outl_entries = NULL;	/* its set's */
	out->stack = NULL;
	out->cpus = xcalloc(cur->nr_cpus, sizeof(*out->cpus));
	out->slots = xcalloc(cur->nr_slots, sizeof(*out->slots));
	out->nr_slots = 0;
	out->hits = cur->hits - prev->hits;
	out->misses = cur->misses - prev->misses;
	out->smp.skipped = cur->smp.skipped - prev->smp.skipped;
	out->faults = cur->faults - prev->faults;
	out->rejected = cur->rejected - prev->rejected;
	out->group_misses = cur->group_misses - prev->group_misses;
	/* Both from the module, or not known. */
	out->expr_known = cur->expr_known && prev->expr_known;
	for (r = 0; r < cur->nr_cpus; r++) {
		if (prev->cpus[r].cpu != cur->cpus[r].cpu) {
			snprintf(why, why_len, "the CPUs differ");
			goto reset_free;
		}
		out->cpus[r] = (struct kstats_snap_cpu){ .cpu = cur->cpus[r].cpu };
		pe = p + prev->cpus[r].nr_slots;
		ce = c + cur->cpus[r].nr_slots;
		for (; c < ce; c++) {
			struct kstats_snap_slot d = *c;

			for (; p < pe && p->slot < c->slot; p++)
				if (shrank(p, NULL))
					goto shrank;	/* a slot emptied */
			if (p < pe && p->slot == c->slot) {
				if (shrank(p, c))
					goto shrank;
				d.count -= p->count;
				d.part_sum -= p->part_sum;
				p++;
			}
			/* A part sum alone: samples counted on another CPU. */
			if (!d.count && !d.part_sum)
				continue;
			out->slots[out->nr_slots++] = d;
			out->cpus[r].nr_slots++;
			out->cpus[r].count += d.count;
		}
		for (; p < pe; p++)
			if (shrank(p, NULL)) {
				c = NULL;
				goto shrank;
			}
	}
	out->reset = false;
	return;
shrank:
	say_shrank(why, why_len, prev, p, c && c->cpu == p->cpu && c->slot == p->slot ?
		   c : NULL);
reset_free:
	ks_metric_free(out);
reset:
	metric_copy(out, cur);
	out->reset = true;
}

void ks_hist_build(struct ks_hist *h, const struct ks_metric *m, int row)
{
	const struct kstats_snap_slot *s = m->slots, *end = m->slots + m->nr_slots;
	int r;

	memset(h, 0, sizeof(*h));
	h->frac_bits = m->frac_bits;
	h->sums_unknown = m->sums_unknown;
	h->nslots = kstats_hist_nslots(m->frac_bits);
	h->count = xcalloc(h->nslots, sizeof(*h->count));
	h->part_sum = xcalloc(h->nslots, sizeof(*h->part_sum));
	if (row >= 0) {
		for (r = 0; r < row; r++)
			s += m->cpus[r].nr_slots;
		end = s + m->cpus[row].nr_slots;
	}
	for (; s < end; s++) {
		if (s->slot >= h->nslots)
			continue;
		h->count[s->slot] += s->count;
		h->part_sum[s->slot] += s->part_sum;
	}
	h->first = 1;
	h->last = 0;
	for (uint32_t i = 0; i < h->nslots; i++) {
		if (!h->count[i])
			continue;
		if (h->first > h->last)
			h->first = i;
		h->last = i;
		h->total += h->count[i];
		h->used++;
	}
}

void ks_hist_free(struct ks_hist *h)
{
	free(h->count);
	free(h->part_sum);
	h->count = h->part_sum = NULL;
}

double ks_hist_slot_sum(const struct ks_hist *h, uint32_t s)
{
	uint64_t part;

	/* Known: below 2^52 samples, the part sum is below 2^64 too. */
	if (!h->count[s] || h->count[s] >= SUM_KNOWN_BELOW || h->sums_unknown)
		return NAN;
	/* Past 2^64 only when CPUs disagree; kstats_slot_sum() caps it. */
	part = h->part_sum[s] >> 64 ? UINT64_MAX : (uint64_t)h->part_sum[s];
	return kstats_slot_sum(s, h->frac_bits, (uint64_t)h->count[s], part);
}

double ks_hist_slot_mean(const struct ks_hist *h, uint32_t s)
{
	return ks_hist_slot_sum(h, s) / (double)h->count[s];
}

void ks_est_slot(struct ks_est *e, int slot, uint32_t frac_bits)
{
	memset(e, 0, sizeof(*e));
	e->slot = slot;
	e->value = NAN;
	if (slot < 0)
		return;
	e->low = kstats_slot_low((uint32_t)slot, frac_bits);
	e->last = kstats_slot_last((uint32_t)slot, frac_bits);
	if (e->low == e->last) {
		e->value = (double)e->low;
		return;
	}
	e->value = (double)e->low / 2 + (double)e->last / 2;
	e->err = (double)(e->last - e->low) / 2 / e->value;
}

ks_u128 ks_quantile_rank(double q, ks_u128 total)
{
	double r;

	if (total <= (ks_u128)1 << 53)
		return kstats_quantile_rank(q, (uint64_t)total);
	/* Beyond 2^53 samples the rank is right to 2^-52 of the count. */
	if (q >= 1.0)
		return total;
	r = ceil(q * (double)total);
	if (!(r >= 1.0))
		return 1;
	if (r >= (double)total)
		return total;
	return (ks_u128)r;
}

void ks_hist_quantile(const struct ks_hist *h, double q, struct ks_est *e)
{
	ks_u128 rank, cum = 0;
	uint32_t s;

	if (!h->total) {
		ks_est_slot(e, -1, h->frac_bits);
		return;
	}
	rank = ks_quantile_rank(q, h->total);
	for (s = h->first; s < h->last; s++) {
		cum += h->count[s];
		if (h->count[s] && cum >= rank)
			break;
	}
	ks_est_slot(e, (int)s, h->frac_bits);
	e->beyond = h->total - rank;
	e->supported = e->beyond >= KS_PCT_MIN_BEYOND;
}

const char *ks_pct_mark(const struct ks_est *e)
{
	return e->slot >= 0 && !e->supported ? "*" : "";
}

bool ks_pct_few(const struct ks_stats *st)
{
	size_t i;

	for (i = 0; i < ks_nr_pcts; i++)
		if (*ks_pct_mark(&st->pct[i]))
			return true;
	return false;
}

void ks_pct_footnote(FILE *out)
{
	fprintf(out, "* fewer than %d samples beyond it: the largest few decide "
		"it (kstatsctl(8))\n", KS_PCT_MIN_BEYOND);
}

void ks_hist_stats(const struct ks_hist *h, struct ks_stats *st)
{
	double err = 0, sum, n;
	struct ks_est e;
	uint32_t s;
	int i;

	memset(st, 0, sizeof(*st));
	st->count = h->total;
	ks_est_slot(&st->min, h->total ? (int)h->first : -1, h->frac_bits);
	ks_est_slot(&st->max, h->total ? (int)h->last : -1, h->frac_bits);
	for (s = h->first; s <= h->last && s < h->nslots; s++) {
		if (!h->count[s])
			continue;
		n = (double)h->count[s];
		sum = ks_hist_slot_sum(h, s);
		if (!isnan(sum)) {
			uint32_t shift = kstats_bucket_sum_shift(s >> h->frac_bits);

			/* Each sample within half a unit of the shifted sum. */
			st->sum += sum;
			err += shift ? n * ldexp(1.0, (int)shift - 1) : 0;
			continue;
		}
		ks_est_slot(&e, (int)s, h->frac_bits);
		st->sum += n * e.value;
		err += n * e.err * e.value;
	}
	st->mean = h->total ? st->sum / (double)h->total : NAN;
	st->mean_err = st->sum > 0 ? err / st->sum : 0;
	for (i = 0; i < (int)ks_nr_pcts; i++)
		ks_hist_quantile(h, ks_pcts[i], &st->pct[i]);
}

// SPDX-License-Identifier: GPL-2.0
/*
 * A trace's outliers (KSTATS_IOC_OUTLIERS) for every command that shows a
 * trace: reading them all, their counters alone, and the line under a
 * trace in 'show' ("12 outliers over p99.9 = 1.3 ms, 3 lost; ..."); the
 * entries symbolized, as 'outliers' prints them and a snapshot file keeps
 * them.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>

#include "kstatsctl.h"
#include "model.h"
#include "outliers.h"
#include "text.h"
#include "units.h"

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

static const char *noaddr_reason =
	"stacks withheld: addresses need CAP_PERFMON or CAP_SYS_ADMIN";
static const char *hidden_reason =
	"/proc/kallsyms shows no addresses to this user (kptr_restrict): raw addresses";
/* A file leaves the machine: raw addresses would give its KASLR offset away. */
static const char *hidden_file_reason =
	"stacks withheld: /proc/kallsyms showed the writer no addresses "
	"(kptr_restrict), and a snapshot file keeps no raw addresses";

uint32_t ks_outl_text(struct ks_outl *ol, const char *s, size_t len)
{
	size_t at = ol->text_len;

	if (ol->text_len + len + 1 > ol->text_cap) {
		ol->text_cap = (ol->text_len + len + 1) * 2;
		ol->text = xrealloc(ol->text, ol->text_cap, 1);
	}
	memcpy(ol->text + at, s, len);
	ol->text[at + len] = '\0';
	ol->text_len += len + 1;
	return (uint32_t)at;
}

void ks_outl_from_module(struct ks_outl *ol, const struct kstats_outliers *o,
			 const struct kstats_outlier *e, uint32_t nr,
			 struct ks_ksyms *k, bool file)
{
	char sym[600];
	uint32_t i, f;
	bool kernel;

	memset(ol, 0, sizeof(*ol));
	ol->o = *o;
	ol->o.entries = 0;
	ol->o.nr_entries = nr;
	ol->withheld = o->out_flags & KSTATS_OUTLIERS_NOADDR;
	if (ol->withheld)
		snprintf(ol->note, sizeof(ol->note), "%s", noaddr_reason);
	/* User code's frames are named through their process, not kallsyms. */
	for (i = 0, kernel = false; i < nr; i++)
		kernel |= !(e[i].flags & KSTATS_OUTLIER_USER);
	if (kernel && !ol->withheld && !k->loaded)
		ks_ksyms_load(k);
	if (kernel && !ol->withheld && k->hidden) {
		ol->withheld = file;
		snprintf(ol->note, sizeof(ol->note), "%s",
			 file ? hidden_file_reason : hidden_reason);
	}
	ol->e = xcalloc(nr ? nr : 1, sizeof(*ol->e));
	ol->nr = nr;
	for (i = 0; i < nr; i++) {
		struct ks_outl_entry *x = &ol->e[i];

		x->seq = e[i].seq;
		x->time_ns = e[i].time_ns;
		/* CLOCK_REALTIME by the instant the ioctl read both clocks. */
		x->realtime_ns = (int64_t)o->realtime_ns - (int64_t)(o->time_ns - e[i].time_ns);
		x->duration_ns = e[i].duration_ns;
		x->pid = e[i].pid;
		x->tgid = e[i].tgid;
		x->cpu_start = e[i].cpu_start;
		x->cpu_end = e[i].cpu_end;
		x->flags = e[i].flags;
		x->retval = e[i].retval;
		x->nr_frames = e[i].nr_frames < KSTATS_OUTLIER_FRAMES ?
			       e[i].nr_frames : KSTATS_OUTLIER_FRAMES;
		snprintf(x->comm, sizeof(x->comm), "%.15s", (const char *)e[i].comm);
		if (ol->withheld || (e[i].flags & KSTATS_OUTLIER_NOADDR))
			continue;
		for (f = 0; f < x->nr_frames; f++) {
			const char *s = !(e[i].flags & KSTATS_OUTLIER_USER) ?
					ks_ksym_name(sym, sizeof(sym), k, e[i].frames[f]) :
					ks_uaddr_namer ? ks_uaddr_namer(sym, sizeof(sym), e[i].tgid,
									e[i].frames[f]) : NULL;

			if (!s && file)
				s = "[unknown]";
			else if (!s)
				snprintf(sym, sizeof(sym), "0x%llx",
					 (unsigned long long)e[i].frames[f]);
			s = s ? s : sym;
			x->stack[f] = ks_outl_text(ol, s, strlen(s));
		}
		x->nr_stack = x->nr_frames;
	}
}

static bool matches(const struct ks_outl_filter *f, const struct ks_outl_entry *e)
{
	return (!f->pid || e->tgid == f->pid) && (!f->tid || e->pid == f->tid) &&
	       (!f->cpus || (e->cpu_end < KS_CPU_BITS &&
			     (f->cpus[e->cpu_end / 8] & 1u << (e->cpu_end % 8)))) &&
	       (!f->comm[0] || !strncmp(e->comm, f->comm, sizeof(e->comm))) &&
	       e->duration_ns >= f->min_ns;
}

void ks_outl_filter(struct ks_outl *ol, const struct ks_outl_filter *f)
{
	uint32_t i, n = 0;

	if (!f || !f->on)
		return;
	ol->filtered = true;
	for (i = 0; i < ol->nr; i++) {
		if (matches(f, &ol->e[i]))
			ol->e[n++] = ol->e[i];
		else
			ol->unmatched++;
	}
	ol->nr = n;
}

void ks_outl_free(struct ks_outl *ol)
{
	if (!ol)
		return;
	free(ol->e);
	free(ol->text);
	free(ol);
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


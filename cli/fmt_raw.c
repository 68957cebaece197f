// SPDX-License-Identifier: GPL-2.0
/*
 * --format raw: the original patch's text, byte for byte what
 * /sys/kernel/debug/kstats/NAME prints (module/debugfs.c), so that
 * "grep CPUS" and its gnuplot one-liners keep working on saved snapshots.
 * For every non-empty slot, one line per CPU with samples in it, then one
 * for all CPUs, where the number after CPUS is the number of CPU rows:
 *
 *   slot 55  CPU  0     count      589 avg      480 p 0.027613
 *   slot 55  CPUS  4    count      814 avg      480 p 0.002474
 *
 * avg is kstats_slot_mean(); p the cumulative fraction up to the slot (of
 * that CPU, or of all), floor(cum * 10^6 / total) micro-units. A CPUS line
 * folds every CPU's part sum, counted there or not (a migration between a
 * record's two adds splits them), so its avg is exact; a CPU line's is
 * clamped to the slot.
 *
 * Counts are summed in 128 bits, so they are exact where debugfs's 64-bit
 * sums would wrap (2^64 samples and more); a CPUS line whose count or part
 * sum is past 64 bits then has the middle of the slot for avg.
 *
 * This is the largest output kstatsctl makes (a line per CPU and slot), so
 * it formats its lines by hand rather than through printf.
 */
#include <stdlib.h>
#include <string.h>

#include "kstatsctl.h"
#include "fmt.h"
#include "model.h"
#include "units.h"

/* @v right-aligned in @width, into @p; two digits at a time. */
static char *put_u64(char *p, uint64_t v, int width)
{
	static const char pairs[] =
		"00010203040506070809101112131415161718192021222324252627282930313233343536373839"
		"40414243444546474849505152535455565758596061626364656667686970717273747576777879"
		"8081828384858687888990919293949596979899";
	char tmp[24];
	int n = sizeof(tmp), i;

	while (v >= 100) {
		n -= 2;
		memcpy(tmp + n, pairs + (v % 100) * 2, 2);
		v /= 100;
	}
	if (v >= 10) {
		n -= 2;
		memcpy(tmp + n, pairs + v * 2, 2);
	} else {
		tmp[--n] = (char)('0' + v);
	}
	for (i = (int)sizeof(tmp) - n; i < width; i++)
		*p++ = ' ';
	memcpy(p, tmp + n, sizeof(tmp) - (size_t)n);
	return p + sizeof(tmp) - n;
}

/* put_u64, for counts that may be past 64 bits. */
static char *put_u128(char *p, ks_u128 v, int width)
{
	char tmp[48];
	int i;

	if (!(v >> 64))
		return put_u64(p, (uint64_t)v, width);
	ks_fmt_u128(tmp, sizeof(tmp), v);
	for (i = (int)strlen(tmp); i < width; i++)
		*p++ = ' ';
	memcpy(p, tmp, strlen(tmp));
	return p + strlen(tmp);
}

static char *put_str(char *p, const char *s)
{
	size_t n = strlen(s);

	memcpy(p, s, n);
	return p + n;
}

/* @v left-aligned in @width. */
static char *put_left(char *p, uint64_t v, int width)
{
	char *start = p;

	p = put_u64(p, v, 0);
	while (p - start < width)
		*p++ = ' ';
	return p;
}

/* Lines are gathered here and written in large blocks. */
struct outbuf {
	FILE *out;
	size_t len;
	char buf[1 << 16];
};

static void line(struct outbuf *ob, uint32_t slot, bool all, uint32_t cpu,
		 uint32_t frac_bits, ks_u128 count, ks_u128 part_sum,
		 ks_u128 cum, ks_u128 total)
{
	uint64_t micro, avg;
	char *buf, *p;

	/* floor(cum * 10^6 / total), in 64 bits when it fits. */
	if (!total)
		micro = 0;
	else if (total < (1ull << 44))
		micro = (uint64_t)cum * 1000000 / (uint64_t)total;
	else
		micro = (uint64_t)(cum * 1000000 / total);
	if (!(count >> 64) && !(part_sum >> 64))
		avg = kstats_slot_mean(slot, frac_bits, (uint64_t)count, (uint64_t)part_sum);
	else
		avg = kstats_slot_low(slot, frac_bits) +
		      (kstats_slot_last(slot, frac_bits) - kstats_slot_low(slot, frac_bits)) / 2;

	if (ob->len > sizeof(ob->buf) - 160) {
		fwrite(ob->buf, 1, ob->len, ob->out);
		ob->len = 0;
	}
	buf = p = ob->buf + ob->len;

	/*
	 * "slot %-3u %s%3u %*scount %8llu avg %8llu p %llu.%06u\n", and a space
	 * before a CPU number of 100 or more, as the debugfs view has it.
	 */
	p = put_str(p, "slot ");
	p = put_left(p, slot, 3);
	p = put_str(p, all ? " CPUS" : " CPU");
	if (cpu >= 100)
		*p++ = ' ';
	p = put_u64(p, cpu, 3);
	p = put_str(p, all ? "   count " : "    count ");
	p = put_u128(p, count, 8);
	p = put_str(p, " avg ");
	p = put_u64(p, avg, 8);
	p = put_str(p, " p ");
	p = put_u64(p, micro / 1000000, 0);
	*p++ = '.';
	for (int i = 5; i >= 0; i--, micro /= 10)
		p[i] = (char)('0' + micro % 10);
	p += 6;
	*p++ = '\n';
	ob->len += (size_t)(p - buf);
}

void fmt_raw(FILE *out, const struct ks_metric *m)
{
	uint32_t nslots = kstats_hist_nslots(m->frac_bits), r, s;
	const struct kstats_snap_slot **cur, **end;
	ks_u128 *cpu_total, *cpu_cum, total = 0, cum = 0;
	struct outbuf *ob = xcalloc(1, sizeof(*ob));

	ob->out = out;
	cur = xcalloc(m->nr_cpus, sizeof(*cur));
	end = xcalloc(m->nr_cpus, sizeof(*end));
	cpu_total = xcalloc(m->nr_cpus, sizeof(*cpu_total));
	cpu_cum = xcalloc(m->nr_cpus, sizeof(*cpu_cum));
	for (r = 0, s = 0; r < m->nr_cpus; r++) {
		const struct kstats_snap_slot *sl;

		cur[r] = m->slots + s;
		s += m->cpus[r].nr_slots;
		end[r] = m->slots + s;
		for (sl = cur[r]; sl < end[r]; sl++)
			cpu_total[r] += sl->count;
		total += cpu_total[r];
	}
	for (s = 0; s < nslots; s++) {
		ks_u128 count = 0, part_sum = 0;

		for (r = 0; r < m->nr_cpus; r++) {
			const struct kstats_snap_slot *sl = cur[r];

			if (sl == end[r] || sl->slot != s)
				continue;
			cur[r]++;
			/* A part sum alone: samples counted on another CPU. */
			count += sl->count;
			part_sum += sl->part_sum;
			if (!sl->count)
				continue;
			cpu_cum[r] += sl->count;
			line(ob, s, false, m->cpus[r].cpu, m->frac_bits, sl->count,
			     sl->part_sum, cpu_cum[r], cpu_total[r]);
		}
		if (!count)
			continue;
		cum += count;
		line(ob, s, true, m->nr_cpus, m->frac_bits, count, part_sum, cum,
		     total);
	}
	fwrite(ob->buf, 1, ob->len, out);
	free(ob);
	free(cur);
	free(end);
	free(cpu_total);
	free(cpu_cum);
}

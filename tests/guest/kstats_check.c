// SPDX-License-Identifier: GPL-2.0
/*
 * Predicts the debugfs view of a kstats metric and compares it with what the
 * kernel shows, line for line. Runs in the guest after each self-test step.
 *
 *   kstats_check record NAME BITS N	every online CPU recorded selftest_seq(cpu, 0..N-1)
 *   kstats_check irq NAME BITS N	selftest_seq(0, 0..N-1) on any CPUs
 *   kstats_check empty NAME		no samples at all
 *   kstats_check race NAME BITS VALUE MADE
 *					only VALUE's slot, count <= MADE, and each
 *					slot's count and sum agree within one sample
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kstats_hist.h"
#include "../kmod/selftest_seq.h"

#define MAX_CPUS 256
#define VIEW_DIR "/sys/kernel/debug/kstats/"

struct line {
	unsigned int slot, cpu, all;	/* all: a CPUS line */
	unsigned long long count, avg;
	char p[32];
};

static struct line *lines;
static size_t nr_lines;

static void die(const char *fmt, const char *arg)
{
	fprintf(stderr, "kstats_check: ");
	fprintf(stderr, fmt, arg);
	fprintf(stderr, "\n");
	exit(1);
}

static void read_view(const char *name)
{
	char path[256], buf[256], who[8];
	size_t cap = 0;
	FILE *f;

	snprintf(path, sizeof(path), VIEW_DIR "%s", name);
	f = fopen(path, "r");
	if (!f)
		die("cannot open %s", path);
	while (fgets(buf, sizeof(buf), f)) {
		struct line l = { 0 };

		if (sscanf(buf, "slot %u %7s %u count %llu avg %llu p %31s",
			   &l.slot, who, &l.cpu, &l.count, &l.avg, l.p) != 6)
			die("unparsable line: %s", buf);
		l.all = !strcmp(who, "CPUS");
		if (!l.all && strcmp(who, "CPU"))
			die("bad line: %s", buf);
		if (nr_lines == cap) {
			cap = cap ? 2 * cap : 1024;
			lines = realloc(lines, cap * sizeof(*lines));
			if (!lines)
				die("%s", "out of memory");
		}
		lines[nr_lines++] = l;
	}
	fclose(f);
}

/* Parses a sysfs CPU list such as "0-3,5" into a mask. */
static unsigned int read_cpus(const char *file, unsigned char *mask)
{
	unsigned int a, b, n = 0;
	char buf[512], *p = buf;
	FILE *f = fopen(file, "r");

	if (!f || !fgets(buf, sizeof(buf), f))
		die("cannot read %s", file);
	fclose(f);
	while (sscanf(p, "%u", &a) == 1) {
		b = a;
		while (*p >= '0' && *p <= '9')
			p++;
		if (*p == '-' && sscanf(++p, "%u", &b) == 1)
			while (*p >= '0' && *p <= '9')
				p++;
		for (; a <= b && a < MAX_CPUS; a++, n++)
			mask[a] = 1;
		if (*p != ',')
			break;
		p++;
	}
	return n;
}

static void fraction(char *out, size_t len, uint64_t num, uint64_t den)
{
	uint64_t micro = den ? (uint64_t)((unsigned __int128)num * 1000000 / den) : 0;

	snprintf(out, len, "%llu.%06llu", (unsigned long long)(micro / 1000000),
		 (unsigned long long)(micro % 1000000));
}

struct expect {
	uint64_t count[MAX_CPUS][KSTATS_SLOTS_MAX];
	uint64_t part[MAX_CPUS][KSTATS_SLOTS_MAX];
};

static int compare(const struct line *want, size_t n)
{
	size_t i;

	for (i = 0; i < n || i < nr_lines; i++) {
		const struct line *a = i < n ? &want[i] : NULL;
		const struct line *b = i < nr_lines ? &lines[i] : NULL;

		if (a && b && a->slot == b->slot && a->cpu == b->cpu &&
		    a->all == b->all && a->count == b->count &&
		    a->avg == b->avg && !strcmp(a->p, b->p))
			continue;
		fprintf(stderr, "kstats_check: line %zu differs\n", i + 1);
		if (a)
			fprintf(stderr, "  want: slot %u %s %u count %llu avg %llu p %s\n",
				a->slot, a->all ? "CPUS" : "CPU", a->cpu,
				a->count, a->avg, a->p);
		if (b)
			fprintf(stderr, "  got:  slot %u %s %u count %llu avg %llu p %s\n",
				b->slot, b->all ? "CPUS" : "CPU", b->cpu,
				b->count, b->avg, b->p);
		return 1;
	}
	return 0;
}

/* Builds the view the kernel should print for @e; per_cpu: CPU lines too. */
static size_t render(const struct expect *e, unsigned int bits,
		     unsigned int nr_possible, const unsigned char *possible,
		     int per_cpu, struct line *out)
{
	uint64_t cpu_total[MAX_CPUS] = { 0 }, cpu_cum[MAX_CPUS] = { 0 };
	uint64_t total = 0, cum = 0;
	unsigned int s, c, nslots = kstats_hist_nslots(bits);
	size_t n = 0;

	for (c = 0; c < MAX_CPUS; c++)
		for (s = 0; s < nslots; s++)
			cpu_total[c] += e->count[c][s];
	for (c = 0; c < MAX_CPUS; c++)
		total += cpu_total[c];
	for (s = 0; s < nslots; s++) {
		uint64_t count = 0, part = 0;

		for (c = 0; c < MAX_CPUS; c++) {
			if (!possible[c])
				continue;
			/* As debugfs: a part sum without its count still folds in. */
			count += e->count[c][s];
			part += e->part[c][s];
			if (!e->count[c][s])
				continue;
			cpu_cum[c] += e->count[c][s];
			if (!per_cpu)
				continue;
			out[n] = (struct line){ .slot = s, .cpu = c,
				.count = e->count[c][s],
				.avg = kstats_slot_mean(s, bits, e->count[c][s],
							e->part[c][s]) };
			fraction(out[n].p, sizeof(out[n].p), cpu_cum[c], cpu_total[c]);
			n++;
		}
		if (!count)
			continue;
		cum += count;
		out[n] = (struct line){ .slot = s, .cpu = nr_possible, .all = 1,
			.count = count,
			.avg = kstats_slot_mean(s, bits, count, part) };
		fraction(out[n].p, sizeof(out[n].p), cum, total);
		n++;
	}
	return n;
}

static void add(struct expect *e, unsigned int cpu, unsigned int bits, uint64_t v)
{
	uint64_t part;
	uint32_t slot = kstats_hist_locate(v, bits, &part);

	e->count[cpu][slot]++;
	e->part[cpu][slot] += part;
}

static int check_race(unsigned int bits, uint64_t value, uint64_t made)
{
	uint64_t part, total = 0, cpus_total = 0, cpu_lines = 0;
	uint32_t slot = kstats_hist_locate(value, bits, &part);
	size_t i;

	for (i = 0; i < nr_lines; i++) {
		const struct line *l = &lines[i];
		/* Count and part sum may disagree by one sample per CPU. */
		uint64_t k = l->all ? cpu_lines : 1;
		uint64_t lo = kstats_slot_mean(slot, bits, l->count,
					       (l->count > k ? l->count - k : 0) * part);
		uint64_t hi = kstats_slot_mean(slot, bits, l->count, (l->count + k) * part);

		if (l->slot != slot || l->avg < lo || l->avg > hi) {
			fprintf(stderr, "kstats_check: race: slot %u count %llu avg %llu, want slot %u avg in [%llu, %llu]\n",
				l->slot, l->count, l->avg, slot,
				(unsigned long long)lo, (unsigned long long)hi);
			return 1;
		}
		if (l->all) {
			cpus_total += l->count;
			cpu_lines = 0;
		} else {
			total += l->count;
			cpu_lines++;
		}
	}
	if (total != cpus_total || total > made) {
		fprintf(stderr, "kstats_check: race: CPU lines %llu, CPUS line %llu, made %llu\n",
			(unsigned long long)total, (unsigned long long)cpus_total,
			(unsigned long long)made);
		return 1;
	}
	return 0;
}

int main(int argc, char **argv)
{
	static unsigned char online[MAX_CPUS], possible[MAX_CPUS];
	static struct expect e;
	static struct line want[MAX_CPUS * KSTATS_SLOTS_MAX];
	unsigned int bits = 0, n = 0, nr_possible, c, i;
	const char *mode;
	size_t nw = 0;

	if (argc < 3)
		die("%s", "usage: kstats_check record|irq|empty|race NAME [BITS N | BITS VALUE MADE]");
	mode = argv[1];
	if (argc >= 5) {
		bits = strtoul(argv[3], NULL, 0);
		n = strtoul(argv[4], NULL, 0);
	}
	read_cpus("/sys/devices/system/cpu/online", online);
	nr_possible = read_cpus("/sys/devices/system/cpu/possible", possible);
	read_view(argv[2]);

	if (!strcmp(mode, "empty"))
		return compare(want, 0);
	if (!strcmp(mode, "race") && argc == 6)
		return check_race(bits, strtoull(argv[4], NULL, 0),
				  strtoull(argv[5], NULL, 0));
	if (!strcmp(mode, "record") && argc == 5) {
		for (c = 0; c < MAX_CPUS; c++)
			for (i = 0; online[c] && i < n; i++)
				add(&e, c, bits, selftest_seq(c, i));
		nw = render(&e, bits, nr_possible, possible, 1, want);
		return compare(want, nw);
	}
	if (!strcmp(mode, "irq") && argc == 5) {
		struct line *all = lines;
		size_t nr_all = nr_lines, k = 0, j;

		for (i = 0; i < n; i++)
			add(&e, 0, bits, selftest_seq(0, i));
		nw = render(&e, bits, nr_possible, possible, 0, want);
		/* Compare the CPUS lines; CPU lines must add up to them. */
		lines = malloc(nr_all * sizeof(*lines));
		for (j = 0, nr_lines = 0; j < nr_all; j++) {
			if (all[j].all) {
				if (k != all[j].count)
					die("%s", "CPU lines do not add up to the CPUS line");
				lines[nr_lines++] = all[j];
				k = 0;
			} else {
				k += all[j].count;
			}
		}
		return compare(want, nw);
	}
	die("bad arguments for mode %s", mode);
	return 2;
}

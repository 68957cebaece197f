// SPDX-License-Identifier: GPL-2.0
/*
 * Kernel addresses as "function+0xoffset [module]", from /proc/kallsyms'
 * text symbols (the outliers' stacks, as bpftrace's ksym names them).
 */
#include <stdlib.h>
#include <string.h>

#include "kstatsctl.h"
#include "outliers.h"

static int ksym_cmp(const void *a, const void *b)
{
	const struct ks_ksym *x = a, *y = b;

	return x->addr < y->addr ? -1 : x->addr > y->addr;
}

void ks_ksyms_load(struct ks_ksyms *k)
{
	FILE *f = fopen("/proc/kallsyms", "re");
	char line[512], name[256], mod[256];
	unsigned long long addr;
	size_t cap = 0, zeros = 0, all = 0;
	char type;
	int n;

	memset(k, 0, sizeof(*k));
	k->loaded = true;
	while (f && fgets(line, sizeof(line), f)) {
		/* Text symbols only: the type is the letter after the address. */
		char *sp = strchr(line, ' ');

		if (!sp || (sp[1] != 't' && sp[1] != 'T'))
			continue;
		mod[0] = '\0';
		n = sscanf(line, "%llx %c %255s [%255[^]]]", &addr, &type, name, mod);
		if (n < 3)
			continue;
		all++;
		if (!addr) {
			zeros++;
			continue;
		}
		if (k->nr == cap) {
			cap = cap ? 2 * cap : 65536;
			k->v = xrealloc(k->v, cap, sizeof(*k->v));
		}
		k->v[k->nr].addr = addr;
		if (mod[0]) {
			size_t len = strlen(name) + strlen(mod) + 4;

			k->v[k->nr].name = xcalloc(1, len);
			snprintf(k->v[k->nr].name, len, "%s [%s]", name, mod);
		} else {
			k->v[k->nr].name = xstrdup(name);
		}
		k->nr++;
	}
	if (f)
		fclose(f);
	k->hidden = all && zeros == all;
	qsort(k->v, k->nr, sizeof(*k->v), ksym_cmp);
}

char *(*ks_uaddr_namer)(char *buf, size_t len, long pid, uint64_t addr);

void ks_ksyms_free(struct ks_ksyms *k)
{
	size_t i;

	for (i = 0; i < k->nr; i++)
		free(k->v[i].name);
	free(k->v);
	memset(k, 0, sizeof(*k));
}

char *ks_ksym_name(char *buf, size_t len, const struct ks_ksyms *k, uint64_t addr)
{
	size_t lo = 0, hi = k->nr;
	const char *name, *mod;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (k->v[mid].addr <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (!lo)
		return NULL;
	name = k->v[lo - 1].name;
	mod = strchr(name, ' ');
	snprintf(buf, len, "%.*s+0x%llx%s", (int)(mod ? mod - name : (long)strlen(name)),
		 name, (unsigned long long)(addr - k->v[lo - 1].addr), mod ? mod : "");
	return buf;
}

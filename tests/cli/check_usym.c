// SPDX-License-Identifier: GPL-2.0
/*
 * check_usym FILE SYMBOL: the file offset trace BINARY:SYMBOL resolves, in
 * hex; check_usym --usdt FILE PROVIDER START END: each place of the two USDT
 * probes, "ROLE OFFSET SEMAPHORE_OFFSET" (check_usym.py);
 * check_usym --usdt-arg SPEC...: each USDT argument spec as read, "KIND REG
 * OFFSET SIZE SIGNED" (KIND other, reg, mem or const; REG its DWARF number).
 * check_usym --addr: user outliers' frame names (usym_addr.c) of addresses
 * inside libc functions of this very process, against glibc's dladdr():
 * the same file, the same function (or an alias at its address) and offset;
 * prints each, exits 1 on a mismatch.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "outliers.h"

#include "kstatsctl.h"
#include "usdt.h"
#include "usym.h"

static int usdt(const char *file, const char *provider, const char *start, const char *end)
{
	struct ks_trace_args a = { .mech = KSTATS_MECH_AUTO };
	char s[8192], e[8192];
	struct ks_usdt u;
	uint32_t i;
	int rc;

	snprintf(s, sizeof(s), "usdt:%s:%s:%s", file, provider, start);
	snprintf(e, sizeof(e), "usdt:%s:%s:%s", file, provider, end);
	a.start = s;
	a.end = e;
	rc = ks_usdt_resolve(&a, NULL, &u);
	if (rc)
		return rc;
	for (i = 0; i < u.nr; i++)
		printf("%u 0x%llx 0x%llx\n", u.up[i].role, (unsigned long long)u.up[i].offset,
		       (unsigned long long)u.up[i].ref_ctr_offset);
	close(u.fd);
	return 0;
}

static int usdt_args(int n, char **specs)
{
	static const char *const kinds[] = { "other", "reg", "mem", "const" };
	struct ks_usdt_arg a;
	int i;

	for (i = 0; i < n; i++) {
		ks_usdt_arg_parse(specs[i], &a);
		printf("%s %d %d %u %d\n", kinds[a.kind], a.kind == KS_UARG_REG ||
		       a.kind == KS_UARG_MEM ? a.reg : -1, a.off, a.size, a.sign);
	}
	return 0;
}

static int addr_names(void)
{
	const struct {
		const char *what;
		void *f;
		uintptr_t off;
	} at[] = {
		{ "getpid", (void *)getpid, 0 }, { "fopen", (void *)fopen, 7 },
		{ "qsort", (void *)qsort, 3 }, { "write", (void *)write, 2 },
	};
	char buf[600], want[600], *plus;
	unsigned int i, bad = 0;
	Dl_info dl;

	for (i = 0; i < sizeof(at) / sizeof(at[0]); i++) {
		uintptr_t a = (uintptr_t)at[i].f + at[i].off;
		const char *got = ks_uaddr_name(buf, sizeof(buf), getpid(), a);
		const char *file;

		if (!dladdr((void *)a, &dl) || !dl.dli_sname || !dl.dli_fname) {
			printf("%s: dladdr() cannot name it\n", at[i].what);
			bad++;
			continue;
		}
		file = strrchr(dl.dli_fname, '/') ? strrchr(dl.dli_fname, '/') + 1 : dl.dli_fname;
		snprintf(want, sizeof(want), "+0x%lx [%s]",
			 (unsigned long)(a - (uintptr_t)dl.dli_saddr), file);
		plus = got ? strchr(got, '+') : NULL;
		/* The same place; the name, dladdr's or an alias at its address. */
		if (!plus || strcmp(plus, want) ||
		    (strncmp(got, dl.dli_sname, plus - got) &&
		     dlsym(RTLD_DEFAULT, strndup(got, plus - got)) != dl.dli_saddr)) {
			printf("%s: %s, dladdr() %s%s\n", at[i].what, got ? got : "(none)",
			       dl.dli_sname, want);
			bad++;
		} else {
			printf("%s: %s\n", at[i].what, got);
		}
	}
	return bad ? 1 : 0;
}

int main(int argc, char **argv)
{
	struct ks_utarget u;
	char target[8192];
	int rc;

	if (argc == 6 && !strcmp(argv[1], "--usdt"))
		return usdt(argv[2], argv[3], argv[4], argv[5]);
	if (argc > 2 && !strcmp(argv[1], "--usdt-arg"))
		return usdt_args(argc - 2, argv + 2);
	if (argc == 2 && !strcmp(argv[1], "--addr"))
		return addr_names();
	if (argc != 3)
		return 2;
	snprintf(target, sizeof(target), "%s:%s", argv[1], argv[2]);
	rc = ks_utarget_resolve(target, 0, &u);
	if (rc)
		return rc;
	printf("0x%llx\n", (unsigned long long)u.offset);
	close(u.fd);
	return 0;
}

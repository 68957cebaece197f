// SPDX-License-Identifier: GPL-2.0
/*
 * check_usym FILE SYMBOL: the file offset trace BINARY:SYMBOL resolves, in
 * hex; check_usym --usdt FILE PROVIDER START END: each place of the two USDT
 * probes, "ROLE OFFSET SEMAPHORE_OFFSET" (check_usym.py).
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

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
	rc = ks_usdt_resolve(&a, &u);
	if (rc)
		return rc;
	for (i = 0; i < u.nr; i++)
		printf("%u 0x%llx 0x%llx\n", u.up[i].role, (unsigned long long)u.up[i].offset,
		       (unsigned long long)u.up[i].ref_ctr_offset);
	close(u.fd);
	return 0;
}

int main(int argc, char **argv)
{
	struct ks_utarget u;
	char target[8192];
	int rc;

	if (argc == 6 && !strcmp(argv[1], "--usdt"))
		return usdt(argv[2], argv[3], argv[4], argv[5]);
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

// SPDX-License-Identifier: GPL-2.0
/* check_usym FILE SYMBOL: the file offset trace BINARY:SYMBOL resolves, in hex (check_usym.py). */
#include <stdint.h>
#include <stdio.h>
#include <unistd.h>

#include "kstatsctl.h"
#include "usym.h"

int main(int argc, char **argv)
{
	struct ks_utarget u;
	char target[8192];
	int rc;

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

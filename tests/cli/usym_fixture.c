// SPDX-License-Identifier: GPL-2.0
/*
 * trace BINARY:SYMBOL's resolver fixture (check_usym.py): built as a PIE,
 * a non-PIE executable, a shared library and a stripped PIE (.dynsym only),
 * each function's file offset checked against readelf's figures, and so
 * are its USDT probes' and their semaphores' (a semaphore sits in the
 * writable segment, whose file offset is not its address).
 */
#define _SDT_HAS_SEMAPHORES 1
#include <sys/sdt.h>

#include <stdio.h>

int usym_counter;
/* USDT probes (check_usym.py --usdt): their semaphores, as dtrace -h makes them. */
__attribute__((section(".probes"), used)) unsigned short usym_first_semaphore;
__attribute__((section(".probes"), used)) unsigned short usym_second_semaphore;

__attribute__((noinline)) void usym_first(void)
{
	DTRACE_PROBE(usym, first);
	usym_counter++;
}

__attribute__((noinline)) int usym_second(int x)
{
	DTRACE_PROBE(usym, second);
	return x * 3 + usym_counter;
}

#ifndef USYM_LIB
int main(void)
{
	usym_first();
	printf("%d\n", usym_second(2));
	return 0;
}
#endif

// SPDX-License-Identifier: GPL-2.0
/*
 * trace BINARY:SYMBOL's resolver fixture (check_usym.py): built as a PIE,
 * a non-PIE executable, a shared library and a stripped PIE (.dynsym only),
 * each function's file offset checked against readelf's figures.
 */
#include <stdio.h>

int usym_counter;

__attribute__((noinline)) void usym_first(void)
{
	usym_counter++;
}

__attribute__((noinline)) int usym_second(int x)
{
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

// SPDX-License-Identifier: GPL-2.0
/*
 * CRC-32C (Castagnoli: polynomial 0x1EDC6F41, bits reflected, initial and
 * final value all ones), the checksum of snapshot files. A CRC of degree
 * 32 catches every error confined to 32 consecutive bits, so every
 * changed byte; other damage gets past it with a chance of 2^-32.
 *
 * One table lookup per byte, the table made on first use: a 1 GiB file
 * (the largest read) takes about a second, a typical one microseconds.
 */
#include "kstatsctl.h"

#define CRC32C_POLY	0x82f63b78u	/* 0x1EDC6F41, bits reversed */

static uint32_t table[256];

static void make_table(void)
{
	uint32_t i, c;
	int k;

	for (i = 0; i < 256; i++) {
		c = i;
		for (k = 0; k < 8; k++)
			c = c & 1 ? (c >> 1) ^ CRC32C_POLY : c >> 1;
		table[i] = c;
	}
}

uint32_t ks_crc32c(uint32_t crc, const void *buf, size_t len)
{
	const uint8_t *p = buf;

	if (!table[1])
		make_table();
	crc = ~crc;
	while (len--)
		crc = table[(crc ^ *p++) & 0xff] ^ (crc >> 8);
	return ~crc;
}

// SPDX-License-Identifier: GPL-2.0
/*
 * CRC-32C (Castagnoli: polynomial 0x1EDC6F41, bits reflected, initial and
 * final value all ones), the checksum of snapshot files. A CRC of degree
 * 32 catches every error confined to 32 consecutive bits, so every
 * changed byte; other damage gets past it with a chance of 2^-32.
 *
 * Eight bytes a step, through eight tables made on first use ("slicing by
 * 8"): table[0] is the CRC of each byte value, and table[k] that of the
 * byte followed by k zero bytes, so that the CRC of 8 bytes is the XOR of
 * one lookup per byte. About 1.8 GB/s on the x86 machine this was written
 * on, six times a byte a step: under 2 ms for the 3 MB file of 'make -C
 * cli bench', whose target is 20 ms for all of 'show'. Bytes are
 * assembled one by one, whatever the machine's byte order.
 */
#include "kstatsctl.h"
#include "text.h"

#define CRC32C_POLY	0x82f63b78u	/* 0x1EDC6F41, bits reversed */

static uint32_t table[8][256];

static void make_tables(void)
{
	uint32_t i, c;
	int k;

	for (i = 0; i < 256; i++) {
		c = i;
		for (k = 0; k < 8; k++)
			c = c & 1 ? (c >> 1) ^ CRC32C_POLY : c >> 1;
		table[0][i] = c;
	}
	for (i = 0; i < 256; i++)
		for (k = 1; k < 8; k++)
			table[k][i] = (table[k - 1][i] >> 8) ^
				      table[0][table[k - 1][i] & 0xff];
}

static uint32_t le32(const uint8_t *p)
{
	return p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
	       (uint32_t)p[3] << 24;
}

uint32_t ks_crc32c(uint32_t crc, const void *buf, size_t len)
{
	const uint8_t *p = buf;
	uint32_t lo, hi;

	if (!table[0][1])
		make_tables();
	crc = ~crc;
	for (; len >= 8; len -= 8, p += 8) {
		lo = crc ^ le32(p);
		hi = le32(p + 4);
		crc = table[7][lo & 0xff] ^ table[6][(lo >> 8) & 0xff] ^
		      table[5][(lo >> 16) & 0xff] ^ table[4][lo >> 24] ^
		      table[3][hi & 0xff] ^ table[2][(hi >> 8) & 0xff] ^
		      table[1][(hi >> 16) & 0xff] ^ table[0][hi >> 24];
	}
	while (len--)
		crc = table[0][(crc ^ *p++) & 0xff] ^ (crc >> 8);
	return ~crc;
}

// SPDX-License-Identifier: GPL-2.0
/*
 * The kernel's crc32_le() as the stock Debian kernels build it
 * (lib/crc32.c, CONFIG_CRC32_SLICEBY8=y, x86 little-endian), for the
 * instruction benchmark: counting the wire library's instructions on zlib's
 * CRC would measure a CRC the module never runs. Tables are generated at
 * start-up as lib/gen_crc32table.c generates them at build time.
 */
#include "wire_platform.h"

#define CRC32_POLY_LE 0xedb88320

static u32 tab[8][256];

/* Fills the tables; call once before crc32_le(). */
void crc32_slice8_init(void)
{
	u32 i, j, crc;

	for (i = 0; i < 256; i++) {
		crc = i;
		for (j = 0; j < 8; j++)
			crc = (crc >> 1) ^ (crc & 1 ? CRC32_POLY_LE : 0);
		tab[0][i] = crc;
	}
	for (i = 0; i < 256; i++)
		for (j = 1; j < 8; j++)
			tab[j][i] = (tab[j - 1][i] >> 8) ^
				    tab[0][tab[j - 1][i] & 0xff];
}

#define DO_CRC(x) (crc = t0[(crc ^ (x)) & 255] ^ (crc >> 8))
#define DO_CRC4 (t3[(q) & 255] ^ t2[(q >> 8) & 255] ^ \
		 t1[(q >> 16) & 255] ^ t0[(q >> 24) & 255])
#define DO_CRC8 (t7[(q) & 255] ^ t6[(q >> 8) & 255] ^ \
		 t5[(q >> 16) & 255] ^ t4[(q >> 24) & 255])

/* lib/crc32.c crc32_body(), CRC_LE_BITS == 64, CONFIG_X86. */
u32 crc32_le(u32 crc, const void *p, size_t len)
{
	const u32 *t0 = tab[0], *t1 = tab[1], *t2 = tab[2], *t3 = tab[3];
	const u32 *t4 = tab[4], *t5 = tab[5], *t6 = tab[6], *t7 = tab[7];
	const unsigned char *buf = p;
	size_t rem_len, i;
	const u32 *b;
	u32 q;

	if (__builtin_expect((long)buf & 3 && len, 0)) {
		do {
			DO_CRC(*buf++);
		} while ((--len) && ((long)buf) & 3);
	}
	rem_len = len & 7;
	len = len >> 3;
	b = (const u32 *)buf;
	--b;
	for (i = 0; i < len; i++) {
		q = crc ^ *++b;
		crc = DO_CRC8;
		q = *++b;
		crc ^= DO_CRC4;
	}
	len = rem_len;
	if (len) {
		const u8 *c = (const u8 *)(b + 1) - 1;

		for (i = 0; i < len; i++)
			DO_CRC(*++c);
	}
	return crc;
}

// SPDX-License-Identifier: GPL-2.0
/*
 * Writes the fuzzer's seed corpus: the two vectors of roce-wire.md and one
 * CM MAD of every attribute over IPv4 and IPv6, each built with the library.
 */
#include <stdio.h>

#include "wire.h"

static int write_seed(const char *dir, const char *name, const u8 *p, u32 n)
{
	char path[512];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "wb");
	if (!f || fwrite(p, 1, n, f) != n) {
		perror(path);
		return 1;
	}
	return fclose(f) ? 1 : 0;
}

/* IP, UDP, BTH, DETH to QP1 and a CM MAD of @attr, with a valid ICRC. */
static u32 cm_seed(u8 *buf, u8 family, u16 attr)
{
	u32 l4 = family == 4 ? 20 : 40;
	u32 len = l4 + 8 + ROCE_BTH_LEN + ROCE_DETH_LEN + ROCE_MAD_LEN +
		  ROCE_ICRC_LEN;
	u8 *b = buf + l4;
	struct roce_ip_udp h = { .family = family, .ttl = 64, .sport = 0xc000 };

	if (family == 4) {
		memcpy(h.saddr, "\x0a\x00\x00\x01", 4);
		memcpy(h.daddr, "\x0a\x00\x00\x02", 4);
	} else {
		h.saddr[15] = 1;
		h.daddr[15] = 2;
	}
	memset(buf, 0, len);
	roce_put_ip_udp(buf, len, &h);
	b += 8;
	b[0] = ROCE_OP_UD_SEND_ONLY;
	put_unaligned_be16(0xffff, b + 2);
	put_unaligned_be32(ROCE_GSI_QPN, b + 4);
	b += ROCE_BTH_LEN;
	put_unaligned_be32(0x80010000, b);
	put_unaligned_be32(ROCE_GSI_QPN, b + 4);
	b += ROCE_DETH_LEN;
	b[0] = 1;
	b[1] = 0x07;
	b[2] = 2;
	b[3] = 3;
	put_unaligned_be16(attr, b + 16);
	put_unaligned_be32(0x1000 + attr, b + 24);
	put_unaligned_be64(0x0000000001061c06ULL, b + 24 + 8);
	b[24 + 140 + 1] = family << 4;
	put_unaligned_le32(roce_icrc_calc(buf, l4, len), buf + len - 4);
	return len;
}

int main(int argc, char **argv)
{
	static const u8 cnp[] = {
		0x45, 0xc2, 0x00, 0x3c, 0x71, 0x8c, 0x40, 0x00, 0x40, 0x11,
		0x91, 0x61, 0x0a, 0x00, 0x11, 0x01, 0x0a, 0x00, 0x12, 0x01,
		0x00, 0x00, 0x12, 0xb7, 0x00, 0x28, 0x00, 0x00, 0x81, 0x00,
		0xff, 0xff, 0x40, 0x00, 0x01, 0x18, 0x00, 0x00, 0x00, 0x00,
		0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
		0x82, 0xfd, 0x00, 0x2a,
	};
	u8 buf[512];
	char name[32];
	int err = 0;
	u16 attr;

	if (argc != 2) {
		fprintf(stderr, "usage: %s DIR\n", argv[0]);
		return 2;
	}
	err |= write_seed(argv[1], "cnp-v4", cnp, sizeof(cnp));
	for (attr = ROCE_CM_REQ; attr <= ROCE_CM_APR; attr++) {
		snprintf(name, sizeof(name), "cm-%02x-v4", attr);
		err |= write_seed(argv[1], name, buf, cm_seed(buf, 4, attr));
		snprintf(name, sizeof(name), "cm-%02x-v6", attr);
		err |= write_seed(argv[1], name, buf, cm_seed(buf, 6, attr));
	}
	return err;
}

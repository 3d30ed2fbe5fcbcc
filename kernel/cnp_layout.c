// SPDX-License-Identifier: GPL-2.0
/*
 * Packet layouts: the IP and UDP headers of a RoCEv2 packet, and the
 * Congestion Notification Packet (IBTA annex A17.9.3): IP | UDP to the
 * flow's RoCE port (4791) | BTH opcode 0x81 with BECN | 16 reserved bytes
 * | ICRC. A CNP is built from a template, its ICRC from tables: it is sent
 * from the packet path, once per congested flow and interval.
 */
#include "wire.h"

/**
 * roce_put_ip_udp() - write the IP and UDP headers of a RoCEv2 packet
 * @buf: the packet, from its IP header
 * @len: its length in IP bytes
 * @h: addresses, marking and ports
 *
 * The IPv4 header checksum is filled in; the UDP checksum is zero (RoCEv2
 * allows it over IPv4; over IPv6 the caller computes it once the payload
 * is there). The payload is left as it is.
 *
 * Return: the length of the headers (28 or 48), or 0 if @len cannot hold
 * them or the family is neither 4 nor 6.
 */
u32 roce_put_ip_udp(u8 *buf, u32 len, const struct roce_ip_udp *h)
{
	u32 hl;

	if (h->family == 4) {
		hl = 20;
		if (len < hl + 8 || len > 0xffff)
			return 0;
		buf[0] = 0x45;
		buf[1] = h->tos;
		put_unaligned_be16(len, buf + 2);
		put_unaligned_be16(h->ip_id, buf + 4);
		put_unaligned_be16(h->df ? 0x4000 : 0, buf + 6);
		buf[8] = h->ttl;
		buf[9] = 17;
		put_unaligned_be16(0, buf + 10);
		memcpy(buf + 12, h->saddr, 4);
		memcpy(buf + 16, h->daddr, 4);
		put_unaligned_be16(roce_ip_fast_csum(buf, 5), buf + 10);
	} else if (h->family == 6) {
		hl = 40;
		if (len < hl + 8 || len - hl > 0xffff)
			return 0;
		put_unaligned_be32(6u << 28 | (u32)h->tos << 20 |
				   (h->flow_label & 0xfffff), buf);
		put_unaligned_be16(len - hl, buf + 4);
		buf[6] = 17;
		buf[7] = h->ttl;
		memcpy(buf + 8, h->saddr, 16);
		memcpy(buf + 24, h->daddr, 16);
	} else {
		return 0;
	}
	put_unaligned_be16(h->sport, buf + hl);
	put_unaligned_be16(h->dport ?: ROCE_UDP_PORT, buf + hl + 2);
	put_unaligned_be16(len - hl, buf + hl + 4);
	put_unaligned_be16(0, buf + hl + 6);
	return hl + 8;
}

/* Offsets in a CNP of the bytes that differ from one CNP to another. */
enum cnp_var {
	CNP4_VAR_OFF	= 12,	/* IPv4 source and destination, UDP ports */
	CNP4_VAR_LEN	= 12,	/* (cnp_icrc_by_table() reads three words) */
	CNP6_VAR_OFF	= 8,	/* IPv6 source and destination, UDP ports */
	CNP6_VAR_LEN	= 36,
	CNP_PKEY_OFF	= 8 + 2,	/* from the UDP header */
	CNP_QPN_OFF	= 8 + 5,
};

/* What byte @b adds to a CNP's CRC state when @dist bytes follow it. */
#define CNP_CRC(t, b, dist)	((t)->tab[(dist) - ROCE_CNP_CRC_DIST_MIN][b])

/* What four bytes at @p add to a CNP's CRC state; @dist bytes follow @p[0]. */
static __always_inline u32 cnp_crc4(const struct roce_cnp_crc *t,
				    const u8 *p, u32 dist)
{
	return CNP_CRC(t, p[0], dist) ^ CNP_CRC(t, p[1], dist - 1) ^
	       CNP_CRC(t, p[2], dist - 2) ^ CNP_CRC(t, p[3], dist - 3);
}

/*
 * The ICRC of the CNP at @buf, by the tables: distances count to the ICRC.
 * Inlined per family, so that every table's address is a constant.
 */
static __always_inline u32 cnp_icrc_by_table(const struct roce_cnp_crc *t,
					     const u8 *buf, u8 family)
{
	u32 l4 = family == 4 ? 20 : 40, end = l4 + 8 + ROCE_BTH_LEN +
		 ROCE_CNP_PAYLOAD_LEN, crc, i;
	u32 pkey = l4 + CNP_PKEY_OFF, qpn = l4 + CNP_QPN_OFF;

	/*
	 * IPv4's three words spelled out: as a loop, gcc keeps it rolled
	 * and the CNP costs 56 more instructions (make bench).
	 */
	if (family == 4) {
		i = CNP4_VAR_OFF;
		crc = t->base[0] ^ cnp_crc4(t, buf + i, end - 1 - i) ^
		      cnp_crc4(t, buf + i + 4, end - 5 - i) ^
		      cnp_crc4(t, buf + i + 8, end - 9 - i);
	} else {
		crc = t->base[1];
		for (i = CNP6_VAR_OFF; i < CNP6_VAR_OFF + CNP6_VAR_LEN; i += 4)
			crc ^= cnp_crc4(t, buf + i, end - 1 - i);
	}
	crc ^= CNP_CRC(t, buf[pkey], end - 1 - pkey) ^
	       CNP_CRC(t, buf[pkey + 1], end - 2 - pkey) ^
	       CNP_CRC(t, buf[qpn], end - 1 - qpn) ^
	       CNP_CRC(t, buf[qpn + 1], end - 2 - qpn) ^
	       CNP_CRC(t, buf[qpn + 2], end - 3 - qpn);
	return ~crc;	/* the ICRC's final inversion */
}

/* Every byte of a CNP that is the same in all of them; ICRC excluded. */
static const u8 cnp4_template[ROCE_CNP_LEN_V4 - ROCE_ICRC_LEN] = {
	[0] = 0x45, [3] = ROCE_CNP_LEN_V4, [6] = 0x40 /* DF */, [9] = 17,
	[20 + 5] = ROCE_CNP_LEN_V4 - 20,
	[28] = ROCE_OP_CNP, [28 + 4] = ROCE_BTH_BECN,
};

static const u8 cnp6_template[ROCE_CNP_LEN_V6 - ROCE_ICRC_LEN] = {
	[5] = ROCE_CNP_LEN_V6 - 40, [6] = 17,
	[40 + 5] = ROCE_CNP_LEN_V6 - 40,
	[48] = ROCE_OP_CNP, [48 + 4] = ROCE_BTH_BECN,
};

/* UDP ports, P_Key and QPN of a CNP; its IP header ends at @udp. */
static __always_inline void cnp_put_udp_bth(u8 *udp,
					    const struct roce_cnp_params *cp)
{
	put_unaligned_be16(cp->ip.sport, udp);
	put_unaligned_be16(cp->ip.dport ?: ROCE_UDP_PORT, udp + 2);
	put_unaligned_be16(cp->pkey, udp + 8 + 2);
	put_unaligned_be32(ROCE_BTH_BECN << 24 | (cp->dest_qp & ROCE_QPN_MASK),
			   udp + 8 + 4);
}

static u32 cnp4_build(u8 *buf, const struct roce_cnp_params *cp,
		      const struct roce_cnp_crc *t)
{
	const struct roce_ip_udp *h = &cp->ip;
	u32 icrc;

	memcpy(buf, cnp4_template, sizeof(cnp4_template));
	buf[1] = h->tos;
	put_unaligned_be32((u32)h->ip_id << 16 | (h->df ? 0x4000 : 0), buf + 4);
	buf[8] = h->ttl;
	memcpy(buf + 12, h->saddr, 4);
	memcpy(buf + 16, h->daddr, 4);
	cnp_put_udp_bth(buf + 20, cp);
	/*
	 * The tables take bytes: loading them back from the packet costs
	 * fewer instructions than the compiler's shifting them out of the
	 * words it stored.
	 */
	barrier();
	/* The tables' base has the fixed ID and DF of a kernel CNP. */
	if (t && h->df && !h->ip_id)
		icrc = cnp_icrc_by_table(t, buf, 4);
	else
		icrc = roce_icrc_calc(buf, 20, ROCE_CNP_LEN_V4);
	put_unaligned_le32(icrc, buf + ROCE_CNP_LEN_V4 - ROCE_ICRC_LEN);
	put_unaligned_be16(roce_ip_fast_csum(buf, 5), buf + 10);
	return ROCE_CNP_LEN_V4;
}

static u32 cnp6_build(u8 *buf, const struct roce_cnp_params *cp,
		      const struct roce_cnp_crc *t)
{
	const struct roce_ip_udp *h = &cp->ip;
	u8 *udp = buf + 40;
	u32 icrc;

	memcpy(buf, cnp6_template, sizeof(cnp6_template));
	put_unaligned_be32(6u << 28 | (u32)h->tos << 20 |
			   (h->flow_label & 0xfffff), buf);
	buf[7] = h->ttl;
	memcpy(buf + 8, h->saddr, 16);
	memcpy(buf + 24, h->daddr, 16);
	cnp_put_udp_bth(udp, cp);
	if (t)
		icrc = cnp_icrc_by_table(t, buf, 6);
	else
		icrc = roce_icrc_calc(buf, 40, ROCE_CNP_LEN_V6);
	put_unaligned_le32(icrc, buf + ROCE_CNP_LEN_V6 - ROCE_ICRC_LEN);
	put_unaligned_be16(roce_udp6_csum(buf + 8, buf + 24, udp,
					  ROCE_CNP_LEN_V6 - 40), udp + 6);
	return ROCE_CNP_LEN_V6;
}

/**
 * roce_cnp_build() - write a complete CNP, from the IP header on
 * @buf: where to write
 * @buflen: its size; %ROCE_CNP_LEN_V4 or %ROCE_CNP_LEN_V6 bytes are needed
 * @cp: addresses, QoS marking and destination QP
 * @t: tables from roce_cnp_crc_init(), or NULL to compute the ICRC over
 *	the whole packet
 *
 * A CNP is a template with its addresses, marking, ports, P_Key and QPN
 * filled in. The IPv4 header checksum and the ICRC are filled in too. The
 * IPv4 UDP checksum is zero, as RoCEv2 allows; over IPv6 it is computed.
 *
 * Return: the packet length, or 0 if @buf is too small or the family is
 * neither 4 nor 6.
 */
u32 roce_cnp_build(u8 *buf, u32 buflen, const struct roce_cnp_params *cp,
		   const struct roce_cnp_crc *t)
{
	if (cp->ip.family == 4 && buflen >= ROCE_CNP_LEN_V4)
		return cnp4_build(buf, cp, t);
	if (cp->ip.family == 6 && buflen >= ROCE_CNP_LEN_V6)
		return cnp6_build(buf, cp, t);
	return 0;
}

/**
 * roce_cnp_crc_init() - fill the tables roce_cnp_build() can use
 * @t: the tables
 *
 * Context: any; computes 17,000 one-byte CRC steps, in well under a
 * millisecond.
 */
void roce_cnp_crc_init(struct roce_cnp_crc *t)
{
	static const u8 zero;
	struct roce_cnp_params cp = {
		.ip = { .family = 4, .df = true },
	};
	u8 buf[ROCE_CNP_LEN_V6];
	u32 d, b, crc, len;

	for (b = 0; b < 256; b++) {
		u8 byte = b;

		crc = crc32_le(0, &byte, 1);
		for (d = 0; d < ROCE_CNP_CRC_DIST_MIN + ROCE_CNP_CRC_DISTS; d++) {
			if (d >= ROCE_CNP_CRC_DIST_MIN)
				t->tab[d - ROCE_CNP_CRC_DIST_MIN][b] = crc;
			crc = crc32_le(crc, &zero, 1);
		}
	}
	/* A CNP with every varying byte zero: its state before the ICRC. */
	for (b = 0; b < 2; b++) {
		u32 l4 = b ? 40 : 20;

		cp.ip.family = b ? 6 : 4;
		len = roce_cnp_build(buf, sizeof(buf), &cp, NULL);
		if (b)
			memset(buf + CNP6_VAR_OFF, 0, CNP6_VAR_LEN);
		else
			memset(buf + CNP4_VAR_OFF, 0, CNP4_VAR_LEN);
		memset(buf + l4 + CNP_PKEY_OFF, 0, 2);
		memset(buf + l4 + CNP_QPN_OFF, 0, 3);
		t->base[b] = ~roce_icrc_calc(buf, l4, len);
	}
}

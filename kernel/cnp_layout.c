// SPDX-License-Identifier: GPL-2.0
/*
 * RoCEv2 Congestion Notification Packet layout (IBTA annex A17.9.3):
 * IP | UDP to the flow's RoCE port (4791) | BTH opcode 0x81 with BECN |
 * 16 reserved bytes | ICRC.
 */
#include "wire.h"

static u8 *put_udp_bth(u8 *p, const struct roce_cnp_params *cp)
{
	u16 udp_len = 8 + ROCE_BTH_LEN + ROCE_CNP_PAYLOAD_LEN + ROCE_ICRC_LEN;

	put_unaligned_be16(cp->sport, p);
	put_unaligned_be16(cp->dport ?: ROCE_UDP_PORT, p + 2);
	put_unaligned_be16(udp_len, p + 4);
	put_unaligned_be16(0, p + 6);
	p += 8;
	memset(p, 0, ROCE_BTH_LEN + ROCE_CNP_PAYLOAD_LEN);
	p[0] = ROCE_OP_CNP;
	put_unaligned_be16(cp->pkey, p + 2);
	put_unaligned_be32(cp->dest_qp & ROCE_QPN_MASK, p + 4);
	p[4] = ROCE_BTH_BECN;
	return p + ROCE_BTH_LEN + ROCE_CNP_PAYLOAD_LEN;
}

/**
 * roce_cnp_build() - write a complete CNP, from the IP header on
 * @buf: where to write
 * @buflen: its size; %ROCE_CNP_LEN_V4 or %ROCE_CNP_LEN_V6 bytes are needed
 * @cp: addresses, QoS marking and destination QP
 *
 * The IPv4 header checksum and the ICRC are filled in. The IPv4 UDP
 * checksum is zero, as RoCEv2 allows; over IPv6 it is computed.
 *
 * Return: the packet length, or 0 if @buf is too small or the family is
 * neither 4 nor 6.
 */
u32 roce_cnp_build(u8 *buf, u32 buflen, const struct roce_cnp_params *cp)
{
	u32 len, l4_off;
	u8 *icrc;

	if (cp->family == 4) {
		len = ROCE_CNP_LEN_V4;
		l4_off = 20;
		if (buflen < len)
			return 0;
		buf[0] = 0x45;
		buf[1] = cp->tos;
		put_unaligned_be16(len, buf + 2);
		put_unaligned_be16(cp->ip_id, buf + 4);
		put_unaligned_be16(cp->df ? 0x4000 : 0, buf + 6);
		buf[8] = cp->ttl;
		buf[9] = 17;
		put_unaligned_be16(0, buf + 10);
		memcpy(buf + 12, cp->saddr, 4);
		memcpy(buf + 16, cp->daddr, 4);
		put_unaligned_be16(roce_ip_fast_csum(buf, 5), buf + 10);
	} else if (cp->family == 6) {
		len = ROCE_CNP_LEN_V6;
		l4_off = 40;
		if (buflen < len)
			return 0;
		put_unaligned_be32(6u << 28 | (u32)cp->tos << 20 |
				   (cp->flow_label & 0xfffff), buf);
		put_unaligned_be16(len - l4_off, buf + 4);
		buf[6] = 17;
		buf[7] = cp->ttl;
		memcpy(buf + 8, cp->saddr, 16);
		memcpy(buf + 24, cp->daddr, 16);
	} else {
		return 0;
	}

	icrc = put_udp_bth(buf + l4_off, cp);
	put_unaligned_le32(roce_icrc_calc(buf, l4_off, len), icrc);
	if (cp->family == 6)
		put_unaligned_be16(roce_udp6_csum(buf + 8, buf + 24,
						  buf + l4_off, len - l4_off),
				   buf + l4_off + 6);
	return len;
}

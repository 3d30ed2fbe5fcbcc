// SPDX-License-Identifier: GPL-2.0
/*
 * Packet layouts: the IP and UDP headers of a RoCEv2 packet, and the
 * Congestion Notification Packet (IBTA annex A17.9.3): IP | UDP to the
 * flow's RoCE port (4791) | BTH opcode 0x81 with BECN | 16 reserved bytes
 * | ICRC.
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
	u32 len, hdr, l4_off;
	u8 *p;

	len = cp->ip.family == 4 ? ROCE_CNP_LEN_V4 : ROCE_CNP_LEN_V6;
	hdr = buflen < len ? 0 : roce_put_ip_udp(buf, len, &cp->ip);
	if (!hdr)
		return 0;
	l4_off = hdr - 8;
	p = buf + hdr;
	memset(p, 0, ROCE_BTH_LEN + ROCE_CNP_PAYLOAD_LEN);
	p[0] = ROCE_OP_CNP;
	put_unaligned_be16(cp->pkey, p + 2);
	put_unaligned_be32(cp->dest_qp & ROCE_QPN_MASK, p + 4);
	p[4] = ROCE_BTH_BECN;
	p += ROCE_BTH_LEN + ROCE_CNP_PAYLOAD_LEN;
	put_unaligned_le32(roce_icrc_calc(buf, l4_off, len), p);
	if (cp->ip.family == 6)
		put_unaligned_be16(roce_udp6_csum(buf + 8, buf + 24,
						  buf + l4_off, len - l4_off),
				   buf + l4_off + 6);
	return len;
}

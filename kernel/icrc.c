// SPDX-License-Identifier: GPL-2.0
/*
 * RoCEv2 invariant CRC (IBTA annex A17.3.3): CRC-32 over eight 0xff bytes
 * standing in for the InfiniBand LRH, then the IP, UDP and BTH headers with
 * the fields a router may change replaced by ones, then the rest of the
 * packet up to the ICRC. The result goes on the wire least-significant byte
 * first.
 */
#include "wire.h"

/* CRC state after the eight 0xff bytes, as rxe seeds it. */
#define ICRC_SEED 0xdebb20e3

/*
 * Three steps (masked headers, body, inversion) for the two calls below,
 * which take a contiguous packet: the module's packets are whole in
 * memory (a CM MAD within the bytes the helper captured, a CNP it built).
 */

/**
 * roce_icrc_start() - CRC state over the masked IP, UDP and BTH headers
 * @ip: the packet, from its IP header (4 or 6 in the version nibble)
 * @l4_off: offset of the UDP header; the BTH must follow it in memory
 *
 * IPv6 extension headers between the fixed header and UDP are covered as
 * they are. Continue with roce_icrc_update() from @ip + @l4_off + 20.
 *
 * Return: the running CRC state.
 */
static u32 roce_icrc_start(const u8 *ip, u32 l4_off)
{
	u8 hdr[60 + 8 + ROCE_BTH_LEN];	/* IPv4 with options, UDP, BTH */
	bool v4 = (ip[0] >> 4) == 4;
	u32 fixed = v4 ? l4_off : 40, crc = ICRC_SEED;

	memcpy(hdr, ip, fixed);
	if (v4) {			/* the whole header, options too */
		hdr[1] = 0xff;		/* TOS */
		hdr[8] = 0xff;		/* TTL */
		hdr[10] = 0xff;		/* header checksum */
		hdr[11] = 0xff;
	} else {
		hdr[0] |= 0x0f;		/* traffic class and flow label */
		hdr[1] = 0xff;
		hdr[2] = 0xff;
		hdr[3] = 0xff;
		hdr[7] = 0xff;		/* hop limit */
	}
	if (fixed < l4_off) {
		/* IPv6 extension headers, covered as they are */
		crc = crc32_le(crc, hdr, fixed);
		crc = crc32_le(crc, ip + fixed, l4_off - fixed);
		fixed = 0;
	}
	/* Otherwise one masked block and one CRC call: the common case. */
	memcpy(hdr + fixed, ip + l4_off, 8 + ROCE_BTH_LEN);
	hdr[fixed + 6] = 0xff;		/* UDP checksum */
	hdr[fixed + 7] = 0xff;
	hdr[fixed + 8 + 4] = 0xff;	/* BTH FECN, BECN, reserved */
	return crc32_le(crc, hdr, fixed + 8 + ROCE_BTH_LEN);
}

/**
 * roce_icrc_update() - continue an ICRC over more packet bytes
 * @crc: state from roce_icrc_start() or an earlier update
 * @data: the bytes
 * @len: their number
 *
 * Return: the new state.
 */
static u32 roce_icrc_update(u32 crc, const u8 *data, u32 len)
{
	return roce_crc32_bulk(crc, data, len);
}

/**
 * roce_icrc_final() - the ICRC value from a running state
 * @crc: the state after the last byte before the ICRC field
 *
 * Return: the ICRC; its little-endian encoding is the wire bytes.
 */
static u32 roce_icrc_final(u32 crc)
{
	return ~crc;
}

/**
 * roce_icrc_calc() - ICRC of a contiguous packet
 * @ip: the packet, from its IP header
 * @l4_off: offset of the UDP header
 * @len: IP packet length, ICRC field included
 *
 * Return: the ICRC, or 0 if @len cannot hold UDP, BTH and ICRC.
 */
u32 roce_icrc_calc(const u8 *ip, u32 l4_off, u32 len)
{
	u32 body = l4_off + 8 + ROCE_BTH_LEN;

	if (len < body + ROCE_ICRC_LEN)
		return 0;
	if ((ip[0] >> 4) == 4 && l4_off > 60)
		return 0;
	return roce_icrc_final(roce_icrc_update(roce_icrc_start(ip, l4_off),
						ip + body,
						len - body - ROCE_ICRC_LEN));
}

/**
 * roce_icrc_verify() - check the ICRC field of a contiguous packet
 * @ip: the packet, from its IP header
 * @l4_off: offset of the UDP header
 * @len: IP packet length, ICRC field included
 *
 * Return: true if the ICRC field matches the packet.
 */
bool roce_icrc_verify(const u8 *ip, u32 l4_off, u32 len)
{
	if (len < l4_off + 8 + ROCE_BTH_LEN + ROCE_ICRC_LEN)
		return false;
	return get_unaligned_le32(ip + len - ROCE_ICRC_LEN) ==
	       roce_icrc_calc(ip, l4_off, len);
}

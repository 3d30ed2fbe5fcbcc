// SPDX-License-Identifier: GPL-2.0
/*
 * A refusal, as the server's CM would send it: a REJ of a REQ (IBTA 12.6.7:
 * MessageREJected 0, the REQ's communication ID as the remote one, no local
 * one, since no connection was made) or a SIDR_REP with a failing status
 * (12.11.2), in a UD SEND_ONLY from QP1 to QP1 with the GSI Q_Key, the
 * REQ's P_Key and transaction ID, and its ICRC. Linux's CM finds the
 * refused connection by the remote ID alone when a REQ is refused.
 */
#include "cm_reply.h"

#define GSI_QKEY	0x80010000
#define MAD_BASE_VERSION 1
#define MAD_CLASS_CM	0x07
#define MAD_CM_VERSION	2
#define MAD_METHOD_SEND	0x03

/* The MAD's data: a REJ or a SIDR_REP. */
static void put_cm_data(u8 *d, const struct roce_cm_reply *r)
{
	if (r->sidr) {
		/* Request ID, status; no QPN or Q_Key: nothing is served. */
		put_unaligned_be32(r->comm_id, d);
		d[4] = r->reason;
		put_unaligned_be64(r->service_id, d + 12);
		return;
	}
	/* Local ID 0, remote ID, MessageREJected 0 (REQ), no ARI, reason. */
	put_unaligned_be32(r->comm_id, d + 4);
	put_unaligned_be16(r->reason, d + 10);
}

/**
 * roce_cm_reply_build() - write a REJ or SIDR_REP, from the IP header on
 * @buf: where to write
 * @buflen: its size: %ROCE_CM_REPLY_LEN_V4 or %ROCE_CM_REPLY_LEN_V6 bytes
 * @r: what it answers
 *
 * The IPv4 header checksum and the ICRC are filled in; the UDP checksum
 * is zero over IPv4, computed over IPv6.
 *
 * Return: the packet's length, or 0 if @buf is too small or the family is
 * neither 4 nor 6.
 */
u32 roce_cm_reply_build(u8 *buf, u32 buflen, const struct roce_cm_reply *r)
{
	u32 len = r->ip.family == 4 ? ROCE_CM_REPLY_LEN_V4 :
		  ROCE_CM_REPLY_LEN_V6;
	u8 *bth, *mad;
	u32 hl;

	if ((r->ip.family != 4 && r->ip.family != 6) || buflen < len)
		return 0;
	memset(buf, 0, len);
	hl = roce_put_ip_udp(buf, len, &r->ip);
	if (!hl)
		return 0;
	bth = buf + hl;
	bth[0] = ROCE_OP_UD_SEND_ONLY;
	put_unaligned_be16(r->pkey, bth + 2);
	put_unaligned_be32(ROCE_GSI_QPN, bth + 4);
	put_unaligned_be32(GSI_QKEY, bth + ROCE_BTH_LEN);
	put_unaligned_be32(ROCE_GSI_QPN, bth + ROCE_BTH_LEN + 4);
	mad = bth + ROCE_BTH_LEN + ROCE_DETH_LEN;
	mad[0] = MAD_BASE_VERSION;
	mad[1] = MAD_CLASS_CM;
	mad[2] = MAD_CM_VERSION;
	mad[3] = MAD_METHOD_SEND;
	put_unaligned_be64(r->tid, mad + 8);
	put_unaligned_be16(r->sidr ? ROCE_CM_SIDR_REP : ROCE_CM_REJ, mad + 16);
	put_cm_data(mad + ROCE_MAD_HDR_LEN, r);
	put_unaligned_le32(roce_icrc_calc(buf, hl - 8, len),
			   buf + len - ROCE_ICRC_LEN);
	if (r->ip.family == 6)
		put_unaligned_be16(roce_udp6_csum(buf + 8, buf + 24, buf + 40,
						  len - 40), buf + 46);
	return len;
}

// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of the service policy's refusals (kernel/cm_reply.c): a REJ
 * of a REQ and a SIDR_REP of a SIDR_REQ, over IPv4 and IPv6, read back by
 * the wire library's own parser, their ICRC and UDP checksum checked.
 */
#include "cm_reply.h"
#include "tap.h"

static struct roce_cm_reply reply(u8 family, bool sidr)
{
	struct roce_cm_reply r = {
		.ip = { .family = family, .tos = 0x68, .ttl = 64,
			.sport = 0xc000, .dport = ROCE_UDP_PORT, .df = true },
		.pkey = 0xffff,
		.tid = 0x0123456789abcdefULL,
		.comm_id = 0x1a2b3c4d,
		.service_id = 0x0000000001061c06ULL,
		.sidr = sidr,
		.reason = sidr ? ROCE_SIDR_UNSUPPORTED :
				 ROCE_REJ_INVALID_SERVICE_ID,
	};

	if (family == 4) {
		memcpy(r.ip.saddr, "\x0a\x00\x02\x01", 4);
		memcpy(r.ip.daddr, "\x0a\x00\x01\x01", 4);
	} else {
		memcpy(r.ip.saddr, "\xfd\x00\x00\x02\0\0\0\0\0\0\0\0\0\0\0\x01", 16);
		memcpy(r.ip.daddr, "\xfd\x00\x00\x01\0\0\0\0\0\0\0\0\0\0\0\x01", 16);
	}
	return r;
}

static void test_reply(u8 family, bool sidr)
{
	struct roce_cm_reply r = reply(family, sidr);
	u8 buf[ROCE_CM_REPLY_LEN_V6 + 8];
	struct roce_pkt pkt;
	bool ok = true;
	u32 n;

	n = roce_cm_reply_build(buf, sizeof(buf), &r);
	EXPECT(n == (family == 4 ? ROCE_CM_REPLY_LEN_V4 : ROCE_CM_REPLY_LEN_V6));
	EXPECT(roce_cm_reply_build(buf, n - 1, &r) == 0);
	n = roce_cm_reply_build(buf, sizeof(buf), &r);
	EXPECT(roce_parse(buf, n, n, &pkt) == ROCE_CLASS_CM);
	EXPECT(roce_icrc_verify(buf, pkt.l4_off, pkt.len));
	EXPECT(pkt.family == family && roce_pkt_sport(&pkt) == 0xc000 &&
	       roce_pkt_dport(&pkt) == ROCE_UDP_PORT);
	EXPECT(!memcmp(roce_pkt_saddr(&pkt), r.ip.saddr, family == 4 ? 4 : 16));
	EXPECT(roce_bth_pkey(&pkt.bth) == 0xffff && pkt.has_deth &&
	       pkt.deth_src_qp == ROCE_GSI_QPN);
	EXPECT(pkt.cm.method == 3 && pkt.cm.tid == r.tid);
	if (sidr) {
		EXPECT(pkt.cm.attr_id == ROCE_CM_SIDR_REP);
		EXPECT(pkt.cm.local_comm_id == r.comm_id);
		EXPECT(pkt.cm.sidr_status == ROCE_SIDR_UNSUPPORTED);
		EXPECT(pkt.cm.service_id == r.service_id && pkt.cm.qpn == 0);
	} else {
		EXPECT(pkt.cm.attr_id == ROCE_CM_REJ);
		EXPECT(pkt.cm.local_comm_id == 0);
		EXPECT(pkt.cm.remote_comm_id == r.comm_id);
		EXPECT(pkt.cm.msg_target == 0);
		EXPECT(pkt.cm.reject_reason == ROCE_REJ_INVALID_SERVICE_ID);
	}
	if (family == 6)
		/* Summed over its own checksum, a right one folds to all ones. */
		EXPECT(roce_udp6_csum(buf + 8, buf + 24, buf + 40, n - 40) == 0xffff);
	/* One bit changed anywhere the ICRC covers is caught. */
	buf[n - 20] ^= 1;
	EXPECT(!roce_icrc_verify(buf, pkt.l4_off, pkt.len));
	result(ok, "cm reply: %s over IPv%u parses back, ICRC%s right",
	       sidr ? "SIDR_REP (not supported)" : "REJ (invalid service ID)",
	       family, family == 6 ? " and UDP checksum" : "");
}

void test_cm_reply(void)
{
	test_reply(4, false);
	test_reply(6, false);
	test_reply(4, true);
	test_reply(6, true);
}

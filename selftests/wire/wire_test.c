// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of the pure RoCEv2 wire library (kernel/wire.c, icrc.c, cnp_layout.c)
 * built in userspace. Output is TAP, closed by "N passed, N failed".
 */
#include <stdio.h>
#include <stdlib.h>

#include "tap.h"
#include "wire.h"

/* Hex strings (NULL-terminated list, spaces ignored) into bytes. */
static u32 unhex(const char * const *parts, u8 *buf, u32 max)
{
	const char *hex;
	unsigned int b;
	u32 n = 0;

	for (; *parts; parts++) {
		for (hex = *parts; *hex && n < max; hex += 2) {
			while (*hex == ' ')
				hex++;
			if (sscanf(hex, "%2x", &b) != 1)
				break;
			buf[n++] = b;
		}
	}
	return n;
}

/* ../shared/notes/roce-wire.md: ConnectX-4 Lx CNP, IPv4. */
static const char * const cnp_vector[] = {
	"45c2003c718c400040119161 0a001101 0a001201 000012b700280000",
	"8100ffff40000118 00000000 00000000000000000000000000000000 82fd002a",
	NULL
};

/* ../shared/notes/roce-wire.md: scapy UC SEND_ONLY, IPv4. */
static const char * const uc_vector[] = {
	"45010040047840004011b4d5c0a80007c0a80007 c00012b7002caca2",
	"2460ffff000000d300cf1710 4630818be28935d90e9a95505401be885e500000",
	"78f353f3",
	NULL
};

static void test_cnp_vector(void)
{
	struct roce_cnp_params cp = {
		.ip = { .family = 4, .tos = 0xc2, .ttl = 64, .sport = 0,
			.ip_id = 0x718c, .df = true,
			.saddr = { 10, 0, 17, 1 }, .daddr = { 10, 0, 18, 1 } },
		.pkey = 0xffff, .dest_qp = 0x118,
	};
	u8 want[128], got[128];
	u32 n = unhex(cnp_vector, want, sizeof(want));
	struct roce_pkt pkt;
	bool ok = true;

	EXPECT(n == ROCE_CNP_LEN_V4);
	EXPECT(roce_cnp_build(got, sizeof(got), &cp, NULL) == ROCE_CNP_LEN_V4);
	EXPECT(!memcmp(got, want, ROCE_CNP_LEN_V4));
	result(ok, "CNP builder reproduces the ConnectX-4 Lx vector byte for byte");

	ok = true;
	EXPECT(roce_parse(want, n, n, &pkt) == ROCE_CLASS_CNP);
	EXPECT(roce_bth_dest_qp(&pkt.bth) == 0x118 &&
	       roce_bth_becn(&pkt.bth) && !roce_bth_fecn(&pkt.bth));
	EXPECT(roce_pkt_tos(&pkt) == 0xc2 && roce_pkt_ttl(&pkt) == 64 &&
	       roce_pkt_sport(&pkt) == 0);
	EXPECT(roce_icrc_verify(want, pkt.l4_off, pkt.len));
	EXPECT(roce_icrc_calc(want, pkt.l4_off, pkt.len) == 0x2a00fd82);
	EXPECT(roce_cnp_build(got, ROCE_CNP_LEN_V4 - 1, &cp, NULL) == 0);
	cp.ip.family = 5;
	EXPECT(roce_cnp_build(got, sizeof(got), &cp, NULL) == 0);
	result(ok, "CNP vector parses as a CNP to QP 0x118 with a valid ICRC");
}

/* The IP/UDP writer the CNP, the benchmarks and the seeds share. */
static void test_ip_udp(void)
{
	struct roce_ip_udp h = {
		.family = 4, .tos = ROCE_ECN_CE, .ttl = 9, .sport = 0xc001,
		.saddr = { 10, 0, 0, 1 }, .daddr = { 10, 0, 0, 2 },
	};
	u8 buf[200] = { 0 };
	struct roce_pkt pkt;
	bool ok = true;

	EXPECT(roce_put_ip_udp(buf, 28 + ROCE_BTH_LEN + ROCE_ICRC_LEN, &h) == 28);
	buf[28] = 0x04;			/* RC SEND only */
	EXPECT(roce_parse(buf, 44, 44, &pkt) == ROCE_CLASS_RC);
	EXPECT(roce_pkt_tos(&pkt) == ROCE_ECN_CE && roce_pkt_ttl(&pkt) == 9 &&
	       roce_pkt_sport(&pkt) == 0xc001);
	EXPECT(roce_ip_fast_csum(buf, 5) == 0);
	EXPECT(roce_put_ip_udp(buf, 27, &h) == 0);
	h.family = 6;
	EXPECT(roce_put_ip_udp(buf, 47, &h) == 0);
	EXPECT(roce_put_ip_udp(buf, 48, &h) == 48);
	EXPECT(get_unaligned_be16(buf + 4) == 8 && buf[6] == 17);
	h.family = 0;
	EXPECT(roce_put_ip_udp(buf, 48, &h) == 0);
	result(ok, "IP/UDP headers: lengths, marking, IPv4 checksum; short or unknown refused");
}

static void test_uc_vector(void)
{
	u8 p[128];
	u32 n = unhex(uc_vector, p, sizeof(p));
	struct roce_pkt pkt;
	bool ok = true;

	EXPECT(roce_parse(p, n, n, &pkt) == ROCE_CLASS_UC);
	EXPECT(pkt.bth.opcode == 0x24 && roce_bth_dest_qp(&pkt.bth) == 0xd3);
	EXPECT(roce_bth_psn(&pkt.bth) == 0xcf1710 &&
	       roce_bth_pad_count(&pkt.bth) == 2);
	EXPECT(roce_bth_mig_req(&pkt.bth) && !roce_bth_solicited(&pkt.bth));
	EXPECT(pkt.payload_len == 36 - 12 - 2 - 4);
	EXPECT(roce_pkt_sport(&pkt) == 0xc000 &&
	       roce_pkt_dport(&pkt) == ROCE_UDP_PORT);
	EXPECT(roce_icrc_calc(p, pkt.l4_off, pkt.len) == 0xf353f378);
	EXPECT(roce_icrc_verify(p, pkt.l4_off, pkt.len));
	EXPECT(roce_ip_fast_csum(p, 5) == 0);
	result(ok, "UC SEND_ONLY vector parses and its ICRC 78f353f3 verifies");

	/* Fields a router may rewrite are masked; the rest are covered. */
	ok = true;
	p[1] = 0x03;	/* ECN CE */
	p[8] = 1;	/* TTL */
	p[10] ^= 0x55;	/* IP checksum */
	p[26] ^= 0x11;	/* UDP checksum */
	p[32] = 0xc0;	/* BTH FECN, BECN */
	EXPECT(roce_icrc_verify(p, 20, n));
	p[12] ^= 1;	/* source address */
	EXPECT(!roce_icrc_verify(p, 20, n));
	p[12] ^= 1;
	p[n - 5] ^= 0x80;	/* last payload byte */
	EXPECT(!roce_icrc_verify(p, 20, n));
	p[n - 5] ^= 0x80;
	p[n - 1] ^= 1;	/* the ICRC itself */
	EXPECT(!roce_icrc_verify(p, 20, n));
	EXPECT(!roce_icrc_verify(p, 20, 20 + 8 + 12 + 3));
	result(ok, "ICRC ignores TOS/TTL/checksums/BECN and covers addresses and payload");
}

/* Test packet builder: IP, UDP, BTH, extension area, payload, ICRC. */
struct tpkt {
	u8 family;
	u8 ip_opts;		/* IPv4 option bytes (multiple of 4) */
	u8 opcode;
	u32 dqpn;
	u8 pad;
	u32 ext_len;		/* bytes after the BTH before the payload */
	u32 payload_len;
	const u8 *payload;	/* NULL: pattern */
};

static u32 build(u8 *buf, const struct tpkt *t)
{
	u32 l4 = t->family == 4 ? 20 + t->ip_opts : 40;
	u32 rlen = ROCE_BTH_LEN + t->ext_len + t->payload_len + t->pad +
		   ROCE_ICRC_LEN;
	u32 len = l4 + 8 + rlen, i;
	u8 *b;

	memset(buf, 0, len);
	if (t->family == 4) {
		buf[0] = 0x40 | (l4 / 4);
		buf[1] = 0x02;
		put_unaligned_be16(len, buf + 2);
		buf[8] = 64;
		buf[9] = 17;
		memcpy(buf + 12, "\x0a\x00\x00\x01\x0a\x00\x00\x02", 8);
		for (i = 20; i < l4; i++)
			buf[i] = 1;	/* NOP options */
		put_unaligned_be16(roce_ip_fast_csum(buf, l4 / 4), buf + 10);
	} else {
		put_unaligned_be32(0x60000000 | 0x02 << 20 | 0x12345, buf);
		put_unaligned_be16(len - 40, buf + 4);
		buf[6] = 17;
		buf[7] = 64;
		buf[8] = 0xfd;
		buf[23] = 1;
		buf[24] = 0xfd;
		buf[39] = 2;
	}
	b = buf + l4;
	put_unaligned_be16(0xc123, b);
	put_unaligned_be16(ROCE_UDP_PORT, b + 2);
	put_unaligned_be16(8 + rlen, b + 4);
	b += 8;
	b[0] = t->opcode;
	b[1] = t->pad << 4;
	put_unaligned_be16(0xffff, b + 2);
	put_unaligned_be32(t->dqpn, b + 4);
	put_unaligned_be32(0x00abcdef, b + 8);
	b += ROCE_BTH_LEN;
	for (i = 0; i < t->ext_len; i++)
		b[i] = 0x40 + i;
	b += t->ext_len;
	for (i = 0; i < t->payload_len; i++)
		b[i] = t->payload ? t->payload[i] : (u8)(i * 7);
	put_unaligned_le32(roce_icrc_calc(buf, l4, len), buf + len - 4);
	return len;
}

/* CM attribute fields written at their IBTA offsets. */
struct cm_fields {
	u16 attr;
	u32 local, remote, qpn, psn, qkey;
	u64 sid;
	u16 pkey, reason;
	u8 target, status, transport;
	bool cma6;
};

static void put_be24(u32 v, u8 *p)
{
	p[0] = v >> 16;
	p[1] = v >> 8;
	p[2] = v;
}

static void fill_cma(u8 *p, bool v6)
{
	p[0] = 0;
	p[1] = v6 ? 0x60 : 0x40;
	put_unaligned_be16(0x1234, p + 2);
	if (v6) {
		memset(p + 4, 0xaa, 16);
		memset(p + 20, 0xbb, 16);
	} else {
		memcpy(p + 4 + 12, "\xc0\xa8\x01\x01", 4);
		memcpy(p + 20 + 12, "\xc0\xa8\x01\x02", 4);
	}
}

static void fill_mad(u8 *mad, const struct cm_fields *f)
{
	u8 *d = mad + ROCE_MAD_HDR_LEN;

	memset(mad, 0, ROCE_MAD_LEN);
	mad[0] = 1;
	mad[1] = 0x07;
	mad[2] = 2;
	mad[3] = 0x03;
	put_unaligned_be64(0x0102030405060708ULL, mad + 8);
	put_unaligned_be16(f->attr, mad + 16);
	put_unaligned_be32(f->local, d);
	put_unaligned_be32(f->remote, d + 4);
	switch (f->attr) {
	case ROCE_CM_REQ:
		memset(d + 4, 0xee, 4);	/* reserved: must not leak into remote */
		put_unaligned_be64(f->sid, d + 8);
		put_unaligned_be32(f->qkey, d + 28);
		put_be24(f->qpn, d + 32);
		d[35] = 0x77;		/* responder resources */
		d[43] = 0xf8 | f->transport << 1 | 1;
		put_be24(f->psn, d + 44);
		d[47] = 0x5f;		/* timeout, retry count */
		put_unaligned_be16(f->pkey, d + 48);
		memset(d + 56, 0x11, 16);
		memset(d + 72, 0x22, 16);
		/* Flow label, then packet rate bits that must not leak in. */
		put_unaligned_be32(0xabcdeu << 12 | 0xfff, d + 88);
		fill_cma(d + 140, f->cma6);
		break;
	case ROCE_CM_REP:
		put_unaligned_be32(f->qkey, d + 8);
		put_be24(f->qpn, d + 12);
		d[15] = 0x99;
		put_be24(f->psn, d + 20);
		break;
	case ROCE_CM_REJ:
		d[8] = f->target << 6;
		put_unaligned_be16(f->reason, d + 10);
		break;
	case ROCE_CM_MRA:
		d[8] = f->target << 6 | 0x3f;
		break;
	case ROCE_CM_DREQ:
		put_be24(f->qpn, d + 8);
		break;
	case ROCE_CM_LAP:
		put_be24(f->qpn, d + 12);
		break;
	case ROCE_CM_APR:
		d[9] = f->status;
		break;
	case ROCE_CM_SIDR_REQ:
		put_unaligned_be16(f->pkey, d + 4);
		put_unaligned_be64(f->sid, d + 8);
		fill_cma(d + 16, f->cma6);
		break;
	case ROCE_CM_SIDR_REP:
		d[4] = f->status;
		put_be24(f->qpn, d + 8);
		put_unaligned_be64(f->sid, d + 12);
		put_unaligned_be32(f->qkey, d + 20);
		break;
	}
}

static u32 build_cm(u8 *buf, u8 family, const struct cm_fields *f)
{
	u8 payload[ROCE_MAD_LEN];
	struct tpkt t = {
		.family = family, .opcode = ROCE_OP_UD_SEND_ONLY,
		.dqpn = ROCE_GSI_QPN, .ext_len = ROCE_DETH_LEN,
		.payload_len = ROCE_MAD_LEN, .payload = payload,
	};
	u32 len, l4 = family == 4 ? 20 : 40;

	fill_mad(payload, f);
	len = build(buf, &t);
	/* DETH: GSI Q_Key and source QP 1 */
	put_unaligned_be32(0x80010000, buf + l4 + 8 + ROCE_BTH_LEN);
	put_unaligned_be32(1, buf + l4 + 8 + ROCE_BTH_LEN + 4);
	put_unaligned_le32(roce_icrc_calc(buf, l4, len), buf + len - 4);
	return len;
}

static const u16 cm_attrs[] = {
	ROCE_CM_REQ, ROCE_CM_MRA, ROCE_CM_REJ, ROCE_CM_REP, ROCE_CM_RTU,
	ROCE_CM_DREQ, ROCE_CM_DREP, ROCE_CM_SIDR_REQ, ROCE_CM_SIDR_REP,
	ROCE_CM_LAP, ROCE_CM_APR, 0x0001 /* ClassPortInfo */,
};

static struct cm_fields cm_sample(u16 attr, bool cma6)
{
	struct cm_fields f = {
		.attr = attr, .local = 0x11223344, .remote = 0x55667788,
		.qpn = 0xabcdef, .psn = 0x123456, .qkey = 0xcafe0001,
		.sid = 0x0000000001061c06ULL, .pkey = 0xffff, .reason = 28,
		.target = 1, .status = 2, .transport = 0, .cma6 = cma6,
	};

	if (attr == ROCE_CM_SIDR_REQ || attr == ROCE_CM_SIDR_REP)
		f.sid = 0x0000000001111d4fULL;
	return f;
}

static bool check_cm(const struct roce_pkt *pkt, const struct cm_fields *f)
{
	const struct roce_cm *cm = &pkt->cm;
	bool sidr = f->attr == ROCE_CM_SIDR_REQ || f->attr == ROCE_CM_SIDR_REP;
	bool ok = true;

	EXPECT(pkt->class == ROCE_CLASS_CM);
	EXPECT(cm->attr_id == f->attr && cm->kind == roce_cm_kind(f->attr));
	EXPECT(cm->tid == 0x0102030405060708ULL && cm->method == 3);
	EXPECT(cm->local_comm_id == f->local);
	EXPECT(pkt->has_deth && pkt->deth_src_qp == 1 &&
	       pkt->deth_qkey == 0x80010000);
	if (f->attr != ROCE_CM_REQ && !sidr)
		EXPECT(cm->remote_comm_id == f->remote);
	switch (f->attr) {
	case ROCE_CM_REQ:
		EXPECT(cm->remote_comm_id == 0);
		EXPECT(cm->service_id == f->sid && cm->qkey == f->qkey);
		EXPECT(cm->qpn == f->qpn && cm->starting_psn == f->psn);
		EXPECT(cm->pkey == f->pkey && cm->transport == f->transport);
		EXPECT(cm->local_gid[0] == 0x11 && cm->remote_gid[15] == 0x22);
		EXPECT(cm->flow_label == 0xabcde);
		break;
	case ROCE_CM_REP:
		EXPECT(cm->qkey == f->qkey && cm->qpn == f->qpn);
		EXPECT(cm->starting_psn == f->psn);
		break;
	case ROCE_CM_REJ:
		EXPECT(cm->reject_reason == f->reason);
		EXPECT(cm->msg_target == f->target);
		break;
	case ROCE_CM_MRA:
		EXPECT(cm->msg_target == f->target);
		break;
	case ROCE_CM_DREQ:
	case ROCE_CM_LAP:
		EXPECT(cm->qpn == f->qpn);
		break;
	case ROCE_CM_APR:
		EXPECT(cm->ap_status == f->status);
		break;
	case ROCE_CM_SIDR_REQ:
		EXPECT(cm->pkey == f->pkey && cm->service_id == f->sid);
		break;
	case ROCE_CM_SIDR_REP:
		EXPECT(cm->sidr_status == f->status && cm->qpn == f->qpn);
		EXPECT(cm->service_id == f->sid && cm->qkey == f->qkey);
		break;
	}
	if (f->attr == ROCE_CM_REQ || f->attr == ROCE_CM_SIDR_REQ) {
		EXPECT(cm->cma.valid && cm->cma.src_port == 0x1234);
		EXPECT(cm->cma.ip_version == (f->cma6 ? 6 : 4));
		if (f->cma6)
			EXPECT(cm->cma.src[0] == 0xaa && cm->cma.dst[15] == 0xbb);
		else
			EXPECT(!memcmp(cm->cma.src, "\xc0\xa8\x01\x01\0", 5) &&
			       !memcmp(cm->cma.dst, "\xc0\xa8\x01\x02\0", 5));
	}
	return ok;
}

static void test_cm_fields(void)
{
	u8 buf[512];
	struct roce_pkt pkt;
	unsigned int i, fam;

	for (fam = 4; fam <= 6; fam += 2) {
		for (i = 0; i < ARRAY_SIZE(cm_attrs); i++) {
			struct cm_fields f = cm_sample(cm_attrs[i], fam == 6);
			u32 n = build_cm(buf, fam, &f);
			bool ok;

			roce_parse(buf, n, n, &pkt);
			ok = check_cm(&pkt, &f);
			EXPECT(roce_icrc_verify(buf, pkt.l4_off, pkt.len));
			result(ok, "IPv%u CM %s (0x%04x) fields parsed", fam,
			       roce_cm_kind_name(roce_cm_kind(cm_attrs[i])),
			       cm_attrs[i]);
		}
	}
}

/* Rewrite the IP and UDP lengths so a truncated packet is self-consistent. */
static void set_lengths(u8 *buf, u32 len)
{
	u32 l4 = buf[0] >> 4 == 4 ? (buf[0] & 0xf) * 4 : 40;

	if (buf[0] >> 4 == 4)
		put_unaligned_be16(len, buf + 2);
	else
		put_unaligned_be16(len - 40, buf + 4);
	if (len >= l4 + 6)
		put_unaligned_be16(len - l4, buf + l4 + 4);
}

static void test_cm_truncation(void)
{
	u8 buf[512], cut[512];
	struct roce_pkt pkt;
	unsigned int i, fam;

	for (fam = 4; fam <= 6; fam += 2) {
		for (i = 0; i < ARRAY_SIZE(cm_attrs); i++) {
			struct cm_fields f = cm_sample(cm_attrs[i], fam == 6);
			u32 n = build_cm(buf, fam, &f), len, bad = 0;
			bool ok = true;

			for (len = 0; len < n; len++) {
				/* lying: headers claim the full length */
				memcpy(cut, buf, n);
				if (roce_parse(cut, len, len, &pkt) !=
				    ROCE_CLASS_MALFORMED ||
				    pkt.malformed == ROCE_MAL_NONE)
					bad++;
				/* consistent: lengths say the truncated size */
				set_lengths(cut, len);
				if (roce_parse(cut, len, len, &pkt) !=
				    ROCE_CLASS_MALFORMED)
					bad++;
				/*
				 * Captured short of a real full packet: every
				 * byte but the ICRC's is needed to parse.
				 */
				if (len < n - ROCE_ICRC_LEN &&
				    (roce_parse(buf, len, n, &pkt) !=
				     ROCE_CLASS_MALFORMED ||
				     pkt.malformed != ROCE_MAL_CAPTURE))
					bad++;
			}
			EXPECT(bad == 0);
			if (bad)
				printf("#   %u of %u truncations accepted\n",
				       bad, 3 * n);
			result(ok, "IPv%u CM %s: all %u truncation points rejected",
			       fam, roce_cm_kind_name(roce_cm_kind(cm_attrs[i])),
			       n);
		}
	}
}

/*
 * A MAD is exactly 256 bytes: a longer QP1 payload (a page-fragment flood
 * that lies about nothing) is malformed, and a MAD whose bytes up to the
 * ICRC were not all captured is never classed CM, so that the ICRC check
 * reads only what exists.
 */
static void test_cm_exact_length(void)
{
	u8 buf[2048];
	struct roce_pkt pkt;
	unsigned int fam;

	for (fam = 4; fam <= 6; fam += 2) {
		struct cm_fields f = cm_sample(ROCE_CM_REQ, fam == 6);
		u32 n = build_cm(buf, fam, &f), extra;
		bool ok = true;

		for (extra = 1; extra <= 1400; extra += extra < 8 ? 1 : 97) {
			memset(buf + n, 0xa5, extra);
			set_lengths(buf, n + extra);
			if (roce_parse(buf, n + extra, n + extra, &pkt) !=
			    ROCE_CLASS_MALFORMED ||
			    pkt.malformed != ROCE_MAL_MAD_LEN)
				ok = false;
		}
		set_lengths(buf, n);
		EXPECT(roce_parse(buf, n, n, &pkt) == ROCE_CLASS_CM);
		EXPECT(roce_parse(buf, n - 1, n, &pkt) == ROCE_CLASS_MALFORMED &&
		       pkt.malformed == ROCE_MAL_CAPTURE);
		EXPECT(roce_parse(buf, n - ROCE_ICRC_LEN, n, &pkt) ==
		       ROCE_CLASS_MALFORMED && pkt.malformed == ROCE_MAL_CAPTURE);
		result(ok, "IPv%u MAD followed by 1-1400 extra bytes is mad-len; "
		       "a MAD captured short of its ICRC is capture", fam);
	}
}

static enum roce_malformed reason_of(const u8 *p, u32 n)
{
	struct roce_pkt pkt;

	/* The reason is defined for a malformed packet only. */
	if (roce_parse(p, n, n, &pkt) != ROCE_CLASS_MALFORMED)
		return ROCE_MAL_NONE;
	return pkt.malformed;
}

static void test_malformed_reasons(void)
{
	struct cm_fields f = cm_sample(ROCE_CM_REQ, false);
	u8 good[512], p[512];
	u32 n = build_cm(good, 4, &f), n6;
	bool ok = true;

#define MUTATE(stmt, want) do {						\
	enum roce_malformed __want = (want), __got;			\
	memcpy(p, good, n);						\
	stmt;								\
	__got = reason_of(p, n);					\
	if (__got != __want) {						\
		printf("#   %s: got %s, want %s\n", #stmt,		\
		       roce_malformed_name(__got),			\
		       roce_malformed_name(__want));			\
		ok = false;						\
	}								\
} while (0)

	MUTATE((void)0, ROCE_MAL_NONE);
	MUTATE(p[0] = 0x55, ROCE_MAL_IP_VERSION);
	MUTATE(p[0] = 0x44, ROCE_MAL_IP_HEADER_LEN);
	MUTATE(put_unaligned_be16(n + 1, p + 2), ROCE_MAL_IP_TOTAL_LEN);
	MUTATE(p[6] = 0x20, ROCE_MAL_IP_FRAGMENT);
	MUTATE(p[7] = 0x08, ROCE_MAL_IP_FRAGMENT);
	MUTATE(p[9] = 6, ROCE_MAL_NOT_UDP);
	MUTATE(put_unaligned_be16(n - 20 - 1, p + 24), ROCE_MAL_UDP_LEN);
	MUTATE(put_unaligned_be16(7, p + 24), ROCE_MAL_UDP_LEN);
	MUTATE(p[29] = 0x01, ROCE_MAL_BTH_VERSION);
	MUTATE(p[29] = 0x30, ROCE_MAL_MAD_TRUNCATED);	/* pad eats the MAD */
	MUTATE(p[48] = 2, ROCE_MAL_MAD_VERSION);	/* base version */
	MUTATE(p[50] = 1, ROCE_MAL_MAD_VERSION);	/* CM class version */
	result(ok, "IPv4 header faults map to their malformed reasons");

	/* IPv6: extension headers walked, fragments and ESP refused. */
	ok = true;
	f.attr = ROCE_CM_RTU;
	n6 = build_cm(good, 6, &f);
	memcpy(p, good, 40);
	p[6] = 0;			/* hop-by-hop */
	put_unaligned_be16(n6 - 40 + 8, p + 4);
	memset(p + 40, 0, 8);
	p[40] = 17;
	p[42] = 1;			/* PadN option */
	p[43] = 4;
	memcpy(p + 48, good + 40, n6 - 40);
	{
		struct roce_pkt pkt;

		EXPECT(roce_parse(p, n6 + 8, n6 + 8, &pkt) == ROCE_CLASS_CM);
		EXPECT(pkt.l4_off == 48 && pkt.cm.attr_id == ROCE_CM_RTU);
		/* The ICRC covers the extension header as it is. */
		put_unaligned_le32(roce_icrc_calc(p, 48, n6 + 8),
				   p + n6 + 8 - 4);
		EXPECT(roce_icrc_verify(p, 48, n6 + 8));
	}
	p[6] = 44;
	EXPECT(reason_of(p, n6 + 8) == ROCE_MAL_IP_FRAGMENT);
	p[6] = 50;
	EXPECT(reason_of(p, n6 + 8) == ROCE_MAL_IPV6_EXTHDR);
	p[6] = 0;
	p[41] = 200;			/* header longer than the packet */
	EXPECT(reason_of(p, n6 + 8) == ROCE_MAL_IPV6_EXTHDR);
	p[41] = 0;
	p[40] = 6;			/* TCP after the options */
	EXPECT(reason_of(p, n6 + 8) == ROCE_MAL_NOT_UDP);
	put_unaligned_be16(0, p + 4);	/* jumbogram */
	EXPECT(reason_of(p, n6 + 8) == ROCE_MAL_IP_TOTAL_LEN);
	result(ok, "IPv6 extension headers: walked, fragment/ESP/overrun refused");

	/* More than ROCE_IPV6_MAX_EXTHDRS options headers. */
	ok = true;
	{
		u32 i, hdrs = ROCE_IPV6_MAX_EXTHDRS + 1, off = 40;

		memcpy(p, good, 40);
		p[6] = 60;
		for (i = 0; i < hdrs; i++, off += 8) {
			memset(p + off, 0, 8);
			p[off] = i + 1 < hdrs ? 60 : 17;
		}
		memcpy(p + off, good + 40, n6 - 40);
		put_unaligned_be16(n6 - 40 + 8 * hdrs, p + 4);
		EXPECT(reason_of(p, n6 + 8 * hdrs) == ROCE_MAL_IPV6_EXTHDR);
	}
	result(ok, "IPv6 chain of %d extension headers refused",
	       ROCE_IPV6_MAX_EXTHDRS + 1);
#undef MUTATE
}

/* Every opcode: transport class, header layout and payload offset. */
static void test_opcodes(void)
{
	static const struct {
		u8 opcode;
		enum roce_class class;
		u32 ext;
	} want[] = {
		{ 0x04, ROCE_CLASS_RC, 0 },	/* SEND_ONLY */
		{ 0x05, ROCE_CLASS_RC, 4 },	/* SEND_ONLY_IMM */
		{ 0x0a, ROCE_CLASS_RC, 16 },	/* WRITE_ONLY */
		{ 0x0b, ROCE_CLASS_RC, 20 },	/* WRITE_ONLY_IMM */
		{ 0x0c, ROCE_CLASS_RC, 16 },	/* READ_REQUEST */
		{ 0x11, ROCE_CLASS_RC, 4 },	/* ACKNOWLEDGE */
		{ 0x12, ROCE_CLASS_RC, 12 },	/* ATOMIC_ACKNOWLEDGE */
		{ 0x13, ROCE_CLASS_RC, 28 },	/* COMPARE_SWAP */
		{ 0x17, ROCE_CLASS_RC, 4 },	/* SEND_ONLY_INV */
		{ 0x1c, ROCE_CLASS_RC, 20 },	/* FLUSH */
		{ 0x15, ROCE_CLASS_UNKNOWN_OPCODE, 0 },
		{ 0x24, ROCE_CLASS_UC, 0 },
		{ 0x2a, ROCE_CLASS_UC, 16 },
		{ 0x2c, ROCE_CLASS_UNKNOWN_OPCODE, 0 },	/* no UC read */
		{ 0x44, ROCE_CLASS_RD, 12 },	/* RDETH + DETH */
		{ 0x51, ROCE_CLASS_RD, 8 },	/* RDETH + AETH */
		{ 0x64, ROCE_CLASS_UD, 8 },
		{ 0x65, ROCE_CLASS_UD, 12 },
		{ 0x60, ROCE_CLASS_UNKNOWN_OPCODE, 0 },
		{ 0x81, ROCE_CLASS_CNP, 0 },
		{ 0x80, ROCE_CLASS_UNKNOWN_OPCODE, 0 },
		{ 0xa4, ROCE_CLASS_XRC, 4 },	/* XRCETH */
		{ 0xb1, ROCE_CLASS_XRC, 4 },	/* AETH only */
		{ 0xc0, ROCE_CLASS_UNKNOWN_OPCODE, 0 },
		{ 0xff, ROCE_CLASS_UNKNOWN_OPCODE, 0 },
	};
	unsigned int i, op, counts[ROCE_CLASS_MAX] = { 0 };
	struct roce_pkt pkt;
	u8 buf[256];
	bool ok = true;

	for (i = 0; i < ARRAY_SIZE(want); i++) {
		struct tpkt t = {
			.family = 4, .opcode = want[i].opcode, .dqpn = 0x42,
			.ext_len = want[i].ext, .payload_len = 16,
		};
		u32 n;

		if (want[i].class == ROCE_CLASS_CNP)
			t.payload_len = ROCE_CNP_PAYLOAD_LEN;
		n = build(buf, &t);
		if (roce_parse(buf, n, n, &pkt) != want[i].class ||
		    pkt.payload_off != 20 + 8 + 12 + want[i].ext) {
			printf("#   opcode 0x%02x: class %s, payload at %u\n",
			       want[i].opcode, roce_class_name(pkt.class),
			       pkt.payload_off);
			ok = false;
		}
	}
	/* And every opcode is classified without a fault. */
	for (op = 0; op < 256; op++) {
		struct tpkt t = {
			.family = 4, .opcode = op, .dqpn = 0x42,
			.payload_len = 64,
		};
		u32 n = build(buf, &t);

		counts[roce_parse(buf, n, n, &pkt)]++;
	}
	/* Only the CNP opcode: 64 bytes is not a CNP's size. */
	EXPECT(counts[ROCE_CLASS_MALFORMED] == 1);
	EXPECT(counts[ROCE_CLASS_RC] == 25 && counts[ROCE_CLASS_UC] == 12);
	EXPECT(counts[ROCE_CLASS_RD] == 21 && counts[ROCE_CLASS_UD] == 2);
	EXPECT(counts[ROCE_CLASS_XRC] == 23);
	EXPECT(counts[ROCE_CLASS_CNP] == 0);
	result(ok, "opcode table: classes and extension header lengths");
}

/*
 * roce_parse() and roce_parse_general() parse @buf alike: the same class
 * and every byte of the result the same, each over a poisoned result.
 */
static bool parse_paths_agree(const u8 *buf, u32 caplen, u32 pktlen)
{
	struct roce_pkt fast, general;

	memset(&fast, 0xa5, sizeof(fast));
	memset(&general, 0xa5, sizeof(general));
	return roce_parse(buf, caplen, pktlen, &fast) ==
	       roce_parse_general(buf, caplen, pktlen, &general) &&
	       !memcmp(&fast, &general, sizeof(fast));
}

/*
 * The fast path (IPv4 without options, RC, UC or XRC) must find what the
 * general path finds: every opcode with every pad count, extension header
 * and payload lengths that do and do not fit it, captured in part, and
 * with each header byte the fast path looks at changed.
 */
static void test_parse_fast_path(void)
{
	static const u32 exts[] = { 0, 4, 16, 28 }, lens[] = { 0, 1, 13, 64 };
	/* IP version/IHL, TOS, length, flags and offset, TTL, protocol;
	 * UDP length; BTH opcode, flags, P_Key, QPN, PSN.
	 */
	static const u8 pokes[] = { 0, 1, 2, 3, 6, 7, 8, 9, 24, 25, 28, 29,
				    30, 32, 33, 36, 37 };
	unsigned int i, op, k, bad = 0, runs = 0;
	u8 buf[256];

	/* Each opcode with 4 pad counts, 4 extension and 4 payload lengths. */
	for (i = 0; i < 256 * 4 * 4 * 4; i++) {
		struct tpkt t = {
			.family = 4, .opcode = i / 64, .dqpn = 0x123456 + i,
			.pad = i / 16 % 4, .ext_len = exts[i / 4 % 4],
			.payload_len = lens[i % 4],
		};
		u32 n = build(buf, &t), len;

		op = t.opcode;

		bad += !parse_paths_agree(buf, n, n);
		bad += !parse_paths_agree(buf, n, n + 1);
		bad += !parse_paths_agree(buf, n + 1, n);
		runs += 3;
		for (len = 0; len < n && len < 48; len++) {
			bad += !parse_paths_agree(buf, len, n);
			runs++;
		}
		for (k = 0; k < ARRAY_SIZE(pokes); k++) {
			u8 was = buf[pokes[k]];

			buf[pokes[k]] ^= 1 << (op + k) % 8;
			bad += !parse_paths_agree(buf, n, n);
			buf[pokes[k]] = was ^ 0xff;
			bad += !parse_paths_agree(buf, n, n);
			buf[pokes[k]] = was;
			runs += 2;
		}
	}
	if (bad)
		printf("#   %u of %u parses differ\n", bad, runs);
	result(bad == 0, "fast path and general path agree on %u packets",
	       runs);
}

/*
 * The opcode rules as IBTA vol. 1 ch. 9 states them, kept here as the
 * oracle of the parser's compiled opcode table.
 */
/* Transport headers that may follow the BTH, by size. */
enum spec_ext_hdr_len {
	RDETH_LEN	= 4,
	XRCETH_LEN	= 4,
	RETH_LEN	= 16,
	AETH_LEN	= 4,
	ATOMICETH_LEN	= 28,
	ATOMICACKETH_LEN = 8,
	IMMDT_LEN	= 4,
	IETH_LEN	= 4,
	FETH_LEN	= 4,
};

enum spec_op_flags {
	OP_VALID	= 1 << 0,
	OP_RESPONSE	= 1 << 1,	/* responder to requester: no DETH/XRCETH */
	OP_RETH		= 1 << 2,
	OP_AETH		= 1 << 3,
	OP_ATOMICETH	= 1 << 4,
	OP_ATOMICACK	= 1 << 5,
	OP_IMMDT	= 1 << 6,
	OP_IETH		= 1 << 7,
	OP_FETH		= 1 << 8,
};

/* Headers of each operation, indexed by the low five opcode bits. */
static const u16 spec_op_table[32] = {
	[0x00] = OP_VALID,				/* SEND_FIRST */
	[0x01] = OP_VALID,				/* SEND_MIDDLE */
	[0x02] = OP_VALID,				/* SEND_LAST */
	[0x03] = OP_VALID | OP_IMMDT,			/* SEND_LAST_IMM */
	[0x04] = OP_VALID,				/* SEND_ONLY */
	[0x05] = OP_VALID | OP_IMMDT,			/* SEND_ONLY_IMM */
	[0x06] = OP_VALID | OP_RETH,			/* WRITE_FIRST */
	[0x07] = OP_VALID,				/* WRITE_MIDDLE */
	[0x08] = OP_VALID,				/* WRITE_LAST */
	[0x09] = OP_VALID | OP_IMMDT,			/* WRITE_LAST_IMM */
	[0x0a] = OP_VALID | OP_RETH,			/* WRITE_ONLY */
	[0x0b] = OP_VALID | OP_RETH | OP_IMMDT,		/* WRITE_ONLY_IMM */
	[0x0c] = OP_VALID | OP_RETH,			/* READ_REQUEST */
	[0x0d] = OP_VALID | OP_RESPONSE | OP_AETH,	/* READ_RESPONSE_FIRST */
	[0x0e] = OP_VALID | OP_RESPONSE,		/* READ_RESPONSE_MIDDLE */
	[0x0f] = OP_VALID | OP_RESPONSE | OP_AETH,	/* READ_RESPONSE_LAST */
	[0x10] = OP_VALID | OP_RESPONSE | OP_AETH,	/* READ_RESPONSE_ONLY */
	[0x11] = OP_VALID | OP_RESPONSE | OP_AETH,	/* ACKNOWLEDGE */
	[0x12] = OP_VALID | OP_RESPONSE | OP_AETH | OP_ATOMICACK,
	[0x13] = OP_VALID | OP_ATOMICETH,		/* COMPARE_SWAP */
	[0x14] = OP_VALID | OP_ATOMICETH,		/* FETCH_ADD */
	[0x16] = OP_VALID | OP_IETH,			/* SEND_LAST_INV */
	[0x17] = OP_VALID | OP_IETH,			/* SEND_ONLY_INV */
	[0x1c] = OP_VALID | OP_FETH | OP_RETH,		/* FLUSH */
	[0x1d] = OP_VALID | OP_RETH,			/* ATOMIC_WRITE */
};

/* Which low opcodes each transport defines (bit n = opcode n). */
enum spec_transport_ops {
	RC_OPS	= 0x301fffff | 1 << 0x16 | 1 << 0x17,
	UC_OPS	= 0x00000fff,
	RD_OPS	= 0x001fffff,
	UD_OPS	= 1 << 0x04 | 1 << 0x05,
	XRC_OPS	= 0x001fffff | 1 << 0x16 | 1 << 0x17,
};

/*
 * Bytes of transport headers after the BTH, or -1 for an unknown opcode.
 * *@deth_off is the DETH's offset from the BTH, 0 when there is none.
 */
static int spec_ext_hdr_len(u8 opcode, enum roce_class *class, u32 *deth_off)
{
	static const struct {
		enum roce_class class;
		u32 ops;
	} transports[8] = {
		{ ROCE_CLASS_RC, RC_OPS },
		{ ROCE_CLASS_UC, UC_OPS },
		{ ROCE_CLASS_RD, RD_OPS },
		{ ROCE_CLASS_UD, UD_OPS },
		{ ROCE_CLASS_CNP, 1 << (ROCE_OP_CNP & 0x1f) },
		{ ROCE_CLASS_XRC, XRC_OPS },
		{ ROCE_CLASS_UNKNOWN_OPCODE, 0 },	/* vendor specific */
		{ ROCE_CLASS_UNKNOWN_OPCODE, 0 },
	};
	unsigned int op = opcode & 0x1f;
	u16 f = spec_op_table[op];
	int len = 0;

	*class = transports[opcode >> 5].class;
	*deth_off = 0;
	if (!(transports[opcode >> 5].ops & (1u << op))) {
		*class = ROCE_CLASS_UNKNOWN_OPCODE;
		return -1;
	}
	if (*class == ROCE_CLASS_CNP)
		return 0;
	if (*class == ROCE_CLASS_RD) {
		len += RDETH_LEN;
		if (!(f & OP_RESPONSE)) {
			*deth_off = ROCE_BTH_LEN + RDETH_LEN;
			len += ROCE_DETH_LEN;
		}
	}
	if (*class == ROCE_CLASS_UD) {
		*deth_off = ROCE_BTH_LEN;
		len += ROCE_DETH_LEN;
	}
	if (*class == ROCE_CLASS_XRC && !(f & OP_RESPONSE))
		len += XRCETH_LEN;
	len += f & OP_FETH ? FETH_LEN : 0;
	len += f & OP_RETH ? RETH_LEN : 0;
	len += f & OP_ATOMICETH ? ATOMICETH_LEN : 0;
	len += f & OP_AETH ? AETH_LEN : 0;
	len += f & OP_ATOMICACK ? ATOMICACKETH_LEN : 0;
	len += f & OP_IMMDT ? IMMDT_LEN : 0;
	len += f & OP_IETH ? IETH_LEN : 0;
	return len;
}

/* Every opcode: class, where the payload starts, whether a DETH is read. */
static void test_opcode_table_vs_spec(void)
{
	unsigned int op, wrong = 0;
	struct roce_pkt pkt;
	u8 buf[256];
	bool ok = true;

	for (op = 0; op < 256; op++) {
		struct tpkt t = {
			.family = 4, .opcode = op, .dqpn = 0x42,
			.payload_len = 16,
		};
		enum roce_class class;
		u32 deth_off, n;
		int ext = spec_ext_hdr_len(op, &class, &deth_off);

		if (ext > 0)
			t.ext_len = ext;
		n = build(buf, &t);
		if (deth_off)	/* a recognisable DETH source QP */
			put_be24(0xabcdef ^ op, buf + 20 + 8 + deth_off + 5);
		memset(&pkt, 0xa5, sizeof(pkt));	/* nothing left over */
		roce_parse(buf, n, n, &pkt);
		if (pkt.class != class ||
		    pkt.payload_off != 20 + 8 + 12 + (u32)(ext > 0 ? ext : 0) ||
		    pkt.has_deth != !!deth_off ||
		    (deth_off && pkt.deth_src_qp != (0xabcdef ^ op))) {
			printf("#   opcode 0x%02x: class %s, payload at %u\n", op,
			       roce_class_name(pkt.class), pkt.payload_off);
			wrong++;
		}
	}
	EXPECT(!wrong);
	result(ok, "opcode table agrees with the spec's rules on all 256 opcodes");
}

static void test_udp_ext_truncation(void)
{
	struct tpkt t = {
		.family = 4, .opcode = 0x0a /* RC WRITE_ONLY: RETH */,
		.dqpn = 0x42, .ext_len = 0, .payload_len = 8,
	};
	struct roce_pkt pkt;
	u8 buf[256];
	u32 n = build(buf, &t);
	bool ok = true;

	/* 8 bytes after the BTH cannot hold a 16-byte RETH. */
	EXPECT(roce_parse(buf, n, n, &pkt) == ROCE_CLASS_MALFORMED);
	EXPECT(pkt.malformed == ROCE_MAL_EXT_TRUNCATED);
	t.ext_len = 16;
	t.payload_len = 0;
	t.pad = 3;		/* pad without payload bytes is still in range */
	n = build(buf, &t);
	EXPECT(roce_parse(buf, n, n, &pkt) == ROCE_CLASS_RC);
	buf[29] = 0x30;
	put_unaligned_be16(get_unaligned_be16(buf + 24) - 3, buf + 24);
	put_unaligned_be16(n - 3, buf + 2);
	EXPECT(roce_parse(buf, n - 3, n - 3, &pkt) == ROCE_CLASS_MALFORMED);
	EXPECT(pkt.malformed == ROCE_MAL_EXT_TRUNCATED);
	/* UDP payload shorter than BTH + ICRC */
	put_unaligned_be16(8 + 15, buf + 24);
	put_unaligned_be16(20 + 8 + 15, buf + 2);
	EXPECT(reason_of(buf, 20 + 8 + 15) == ROCE_MAL_BTH_TRUNCATED);
	result(ok, "extension headers and pad beyond the UDP payload rejected");
}

static void test_ipv4_options(void)
{
	struct tpkt t = {
		.family = 4, .ip_opts = 8, .opcode = 0x04, .dqpn = 0x99,
		.payload_len = 100,
	};
	struct roce_pkt pkt;
	u8 buf[256];
	u32 n = build(buf, &t);
	bool ok = true;

	EXPECT(roce_parse(buf, n, n, &pkt) == ROCE_CLASS_RC);
	EXPECT(pkt.l4_off == 28 && roce_bth_dest_qp(&pkt.bth) == 0x99);
	EXPECT(roce_icrc_verify(buf, pkt.l4_off, pkt.len));
	/* Link-layer padding after the IP packet is not part of it. */
	memset(buf + n, 0, 10);
	EXPECT(roce_parse(buf, n + 10, n + 10, &pkt) == ROCE_CLASS_RC);
	EXPECT(pkt.len == n);
	result(ok, "IPv4 options skipped and covered by the ICRC; link padding ignored");
}

static void test_cnp_ipv6(void)
{
	struct roce_cnp_params cp = {
		.ip = { .family = 6, .tos = 48 << 2 | ROCE_ECN_ECT0, .ttl = 255,
			.sport = 0xd000, .flow_label = 0xabcde },
		.pkey = 0xffff, .dest_qp = 0x123456,
	};
	struct roce_pkt pkt;
	u8 buf[128];
	u32 n, sum = 0, i;
	bool ok = true;

	memset(cp.ip.saddr, 0x20, 16);
	memset(cp.ip.daddr, 0x30, 16);
	n = roce_cnp_build(buf, sizeof(buf), &cp, NULL);
	EXPECT(n == ROCE_CNP_LEN_V6);
	EXPECT(roce_parse(buf, n, n, &pkt) == ROCE_CLASS_CNP);
	EXPECT(pkt.family == 6 && roce_pkt_tos(&pkt) == cp.ip.tos &&
	       roce_pkt_ttl(&pkt) == 255);
	EXPECT(roce_pkt_flow_label(&pkt) == 0xabcde &&
	       roce_pkt_sport(&pkt) == 0xd000);
	EXPECT(roce_bth_dest_qp(&pkt.bth) == 0x123456 && roce_bth_becn(&pkt.bth));
	EXPECT(!memcmp(roce_pkt_saddr(&pkt), cp.ip.saddr, 16));
	EXPECT(roce_icrc_verify(buf, 40, n));
	/* UDP checksum: pseudo-header plus segment sums to 0xffff. */
	for (i = 8; i < 40; i += 2)
		sum += get_unaligned_be16(buf + i);
	sum += 17 + (n - 40);
	for (i = 40; i < n; i += 2)
		sum += get_unaligned_be16(buf + i);
	while (sum >> 16)
		sum = (sum & 0xffff) + (sum >> 16);
	EXPECT(sum == 0xffff);
	EXPECT(roce_cnp_build(buf, ROCE_CNP_LEN_V6 - 1, &cp, NULL) == 0);
	result(ok, "IPv6 CNP: parses, ICRC and UDP checksum valid");

	ok = true;
	cp.ip.family = 4;
	memcpy(cp.ip.saddr, "\xc0\x00\x02\x01", 4);
	memcpy(cp.ip.daddr, "\xc0\x00\x02\x02", 4);
	n = roce_cnp_build(buf, sizeof(buf), &cp, NULL);
	EXPECT(roce_parse(buf, n, n, &pkt) == ROCE_CLASS_CNP);
	EXPECT(roce_ip_fast_csum(buf, 5) == 0);
	EXPECT(roce_pkt_tos(&pkt) == 0xc2 && get_unaligned_be16(buf + 6) == 0);
	result(ok, "IPv4 CNP with DSCP 48/ECT(0): header checksum valid");
}

/*
 * The table-driven ICRC (what the module uses) against the whole-packet
 * one, over random addresses, ports, P_Keys and QPNs of both families.
 */
static void test_cnp_crc_tables(void)
{
	static struct roce_cnp_crc t;
	struct roce_cnp_params cp = { .ip = { .df = true, .ttl = 64 } };
	u8 fast[128], full[128];
	u32 seed = 12345, i, k, n, differ = 0, bad = 0;
	bool ok = true;

	roce_cnp_crc_init(&t);
	for (i = 0; i < 4000; i++) {
		cp.ip.family = i & 1 ? 6 : 4;
		for (k = 0; k < 16; k++) {
			seed = seed * 1103515245 + 12345;
			cp.ip.saddr[k] = seed >> 16;
			cp.ip.daddr[k] = seed >> 8;
		}
		if (cp.ip.family == 4) {
			memset(cp.ip.saddr + 4, 0, 12);
			memset(cp.ip.daddr + 4, 0, 12);
		}
		cp.ip.sport = seed;
		cp.ip.dport = i % 3 ? 0 : seed >> 8;
		cp.ip.tos = seed >> 24;
		cp.pkey = seed >> 12;
		cp.dest_qp = seed * 7;
		n = roce_cnp_build(fast, sizeof(fast), &cp, &t);
		EXPECT(n == roce_cnp_build(full, sizeof(full), &cp, NULL));
		differ += !!memcmp(fast, full, n);
		bad += !roce_icrc_verify(fast, cp.ip.family == 4 ? 20 : 40, n);
	}
	EXPECT(!differ && !bad);
	/* IPv4 with an ID or without DF is outside the tables' base. */
	cp.ip.family = 4;
	cp.ip.ip_id = 0x718c;
	n = roce_cnp_build(fast, sizeof(fast), &cp, &t);
	EXPECT(roce_icrc_verify(fast, 20, n));
	cp.ip.ip_id = 0;
	cp.ip.df = false;
	n = roce_cnp_build(fast, sizeof(fast), &cp, &t);
	EXPECT(roce_icrc_verify(fast, 20, n));
	result(ok, "CNP ICRC by tables equals the whole-packet ICRC, 4000 CNPs");
}

static void test_gsi_other_and_names(void)
{
	struct cm_fields f = cm_sample(ROCE_CM_REQ, false);
	struct roce_pkt pkt;
	u8 buf[512];
	u32 n = build_cm(buf, 4, &f), i;
	bool ok = true;

	buf[20 + 8 + 12 + 8 + 1] = 0x03;	/* SA management class */
	EXPECT(roce_parse(buf, n, n, &pkt) == ROCE_CLASS_GSI_OTHER);
	EXPECT(roce_service_id_is_rdma_cm(0x0000000001061c06ULL));
	EXPECT(!roce_service_id_is_rdma_cm(0x1000000001061c06ULL));
	for (i = 0; i < ROCE_CLASS_MAX; i++)
		EXPECT(strcmp(roce_class_name(i), "?"));
	for (i = 0; i < ROCE_MAL_MAX; i++)
		EXPECT(strcmp(roce_malformed_name(i), "?"));
	for (i = 0; i < ROCE_CM_KIND_MAX; i++)
		EXPECT(strcmp(roce_cm_kind_name(i), "?"));
	EXPECT(!strcmp(roce_class_name(ROCE_CLASS_MAX), "?"));
	result(ok, "other management classes on QP1; every counter has a name");
}

/* Every attribute ID of the 16 bits: the IBTA's CM messages by kind, the rest other. */
static void test_cm_kinds(void)
{
	static const char *const ibta[] = {	/* 0x10 to 0x1a */
		"req", "mra", "rej", "rep", "rtu", "dreq", "drep",
		"sidr-req", "sidr-rep", "lap", "apr",
	};
	unsigned int id, named = 0;
	bool ok = true;

	for (id = 0; id <= 0xffff; id++) {
		enum roce_cm_kind k = roce_cm_kind(id);

		if (id >= 0x10 && id < 0x10 + ARRAY_SIZE(ibta)) {
			EXPECT(!strcmp(roce_cm_kind_name(k), ibta[id - 0x10]));
			named++;
		} else {
			EXPECT(k == ROCE_CM_KIND_OTHER);
		}
	}
	EXPECT(named == ROCE_CM_KIND_OTHER);
	result(ok, "CM attribute IDs 0 to 0xffff: %u named by kind, the rest other",
	       named);
}

/*
 * rdma_get_udp_sport()'s results, worked by hand from ib_verbs.h: the
 * fold of the QP numbers' product, or of the flow label when one is set.
 */
static void test_udp_sport(void)
{
	result(roce_udp_sport(0, 0x11, 0x12) == 0xc132 &&
	       roce_udp_sport(0, 0x12, 0x11) == 0xc132,
	       "UDP sport of QPs 0x11, 0x12: 0xc132 from both sides");
	result(roce_udp_sport(0xfc001, 1, 2) == 0xc03e,
	       "UDP sport from a flow label folds its high six bits in");
	result(roce_udp_sport(0, 0xffffff, 0xfffffe) == 0xff12 &&
	       roce_udp_sport(0, 0x12345, 0x6789a) == 0xfa58,
	       "UDP sport of large QP numbers folds the product's high bits");
}

int main(void)
{
	printf("TAP version 13\n");
	test_cnp_vector();
	test_ip_udp();
	test_uc_vector();
	test_cm_fields();
	test_cm_truncation();
	test_malformed_reasons();
	test_cm_exact_length();
	test_opcodes();
	test_parse_fast_path();
	test_opcode_table_vs_spec();
	test_udp_ext_truncation();
	test_ipv4_options();
	test_cnp_ipv6();
	test_cnp_crc_tables();
	test_gsi_other_and_names();
	test_cm_kinds();
	test_cm_fsm();
	test_pair_infer();
	test_psn_window();
	test_service_rules();
	test_cm_reply();
	test_udp_sport();
	printf("1..%d\n", ntest);
	printf("%d passed, %d failed\n", passed, failed);
	return failed ? 1 : 0;
}

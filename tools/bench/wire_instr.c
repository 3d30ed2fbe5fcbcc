// SPDX-License-Identifier: GPL-2.0
/*
 * wire_instr: one operation of the wire library, called N times, for
 * valgrind's callgrind to count its instructions (scripts/bench_instr.sh).
 * Each operation is a noinline op_*() function; the script collects only
 * inside it (--toggle-collect) and subtracts op_baseline(), which does the
 * same indexing and one empty call. The CRC is the kernel's slice-by-8
 * (crc32_slice8.c), checked here against zlib before anything is counted.
 *
 *   wire_instr OP N      OP: baseline data-parse cm-parse cm-step cm-icrc
 *                            crc-64 icrc-64 icrc-1k cnp-v4 cnp-v6
 *                            learn-request psn-window
 */
#include <stdio.h>
#include <stdlib.h>
#include <zlib.h>

#include "wire.h"
#include "cm_fsm.h"
#include "pair_infer.h"
#include "psn_window.h"

void crc32_slice8_init(void);

#define NOINLINE __attribute__((__noinline__))

/*
 * Aligned as packet buffers are: slice-by-8 walks bytes up to a 4-byte
 * boundary, so an address that moved with the link order would change the
 * counts from one build to the next.
 */
#define ALIGNED __attribute__((__aligned__(64)))
static u8 data_pkt[2][1152] ALIGNED, req_pkt[384] ALIGNED, pkt64[64] ALIGNED;
static u8 pkt1k[1024] ALIGNED, cnp_buf[128] ALIGNED;
static u32 data_len[2], req_len;
static struct roce_cnp_params cnp4, cnp6;
static struct roce_cnp_crc cnp_crc;
static struct roce_pkt pkt;
static u32 sink;	/* printed at exit: the calls cannot be dropped */

/* IPv4 or IPv6 headers, a BTH of @op to QP 0x12 and @ext zero bytes. */
static u32 put_headers(u8 *buf, u32 len, u8 family, u8 op, u32 dqpn)
{
	struct roce_ip_udp h = { .family = family, .ttl = 64, .sport = 0xc123,
				 .tos = ROCE_ECN_ECT0 };
	u32 hl;

	h.saddr[0] = 10;
	h.saddr[3] = 1;
	h.daddr[0] = 10;
	h.daddr[3] = 2;
	if (family == 6) {
		h.saddr[15] = 9;
		h.daddr[15] = 9;
	}
	memset(buf, 0, len);
	hl = roce_put_ip_udp(buf, len, &h);
	buf[hl] = op;
	put_unaligned_be16(0xffff, buf + hl + 2);
	put_unaligned_be32(dqpn, buf + hl + 4);
	put_unaligned_be32(0x80000000 | 0x1234, buf + hl + 8);
	return hl + ROCE_BTH_LEN;
}

static void seal(u8 *buf, u32 len)
{
	put_unaligned_le32(roce_icrc_calc(buf, 20, len), buf + len - 4);
}

static void build_packets(void)
{
	u32 off;
	u8 *m;

	/* RC SEND_ONLY and RDMA WRITE_ONLY (with its RETH), 1 KiB payloads */
	data_len[0] = 20 + 8 + ROCE_BTH_LEN + 1024 + ROCE_ICRC_LEN;
	put_headers(data_pkt[0], data_len[0], 4, 0x04, 0x12);
	seal(data_pkt[0], data_len[0]);
	data_len[1] = data_len[0] + 16;
	put_headers(data_pkt[1], data_len[1], 4, 0x0a, 0x12);
	seal(data_pkt[1], data_len[1]);

	/* A CM REQ from RDMA CM (TCP port space), IPv4 */
	req_len = 20 + 8 + ROCE_BTH_LEN + ROCE_DETH_LEN + ROCE_MAD_LEN +
		  ROCE_ICRC_LEN;
	off = put_headers(req_pkt, req_len, 4, ROCE_OP_UD_SEND_ONLY,
			  ROCE_GSI_QPN);
	put_unaligned_be32(0x80010000, req_pkt + off);
	put_unaligned_be32(ROCE_GSI_QPN, req_pkt + off + 4);
	m = req_pkt + off + ROCE_DETH_LEN;
	m[0] = 1;
	m[1] = 0x07;
	m[2] = 2;
	m[3] = 3;
	put_unaligned_be64(0x1122334455667788ULL, m + 8);
	put_unaligned_be16(ROCE_CM_REQ, m + 16);
	m += ROCE_MAD_HDR_LEN;
	put_unaligned_be32(0xabcd, m);
	put_unaligned_be64(0x0000000001064e21ULL, m + 8);
	put_unaligned_be32(0x11 << 8, m + 32);
	put_unaligned_be32(0x4242 << 8, m + 44);
	put_unaligned_be16(0xffff, m + 48);
	m[140 + 1] = 4 << 4;
	put_unaligned_be16(0xc001, m + 140 + 2);
	memcpy(m + 140 + 4 + 12, req_pkt + 12, 8);
	seal(req_pkt, req_len);

	put_headers(pkt64, sizeof(pkt64), 4, 0x04, 0x12);
	seal(pkt64, sizeof(pkt64));
	put_headers(pkt1k, sizeof(pkt1k), 4, 0x04, 0x12);
	seal(pkt1k, sizeof(pkt1k));

	cnp4.ip.family = 4;
	cnp4.ip.tos = 0xc0;
	cnp4.ip.ttl = 64;
	cnp4.ip.sport = 0xc123;
	cnp4.ip.df = true;
	cnp4.ip.saddr[0] = 10;
	cnp4.ip.daddr[0] = 10;
	cnp4.ip.saddr[3] = 2;
	cnp4.ip.daddr[3] = 1;
	cnp4.pkey = 0xffff;
	cnp4.dest_qp = 0x11;
	cnp6 = cnp4;
	cnp6.ip.family = 6;
	cnp6.ip.saddr[15] = 9;
	cnp6.ip.daddr[15] = 9;
}

static NOINLINE void nothing(const u8 *p, u32 len)
{
	__asm__ volatile("" : : "r"(p), "r"(len) : "memory");
}

static NOINLINE void op_baseline(unsigned int i)
{
	nothing(data_pkt[i & 1], data_len[i & 1]);
}

static NOINLINE void op_data_parse(unsigned int i)
{
	roce_parse(data_pkt[i & 1], data_len[i & 1], data_len[i & 1], &pkt);
}

static NOINLINE void op_cm_parse(unsigned int i)
{
	roce_parse(req_pkt, req_len, req_len, &pkt);
}

static NOINLINE void op_cm_step(unsigned int i)
{
	enum roce_cm_state next;
	enum roce_cm_event ev;

	roce_parse(req_pkt, req_len, req_len, &pkt);
	if (roce_cm_event_of(&pkt.cm, &ev))
		sink += roce_cm_step(ROCE_CS_NONE, ev, &next) + next;
}

static NOINLINE void op_cm_icrc(unsigned int i)
{
	sink += roce_icrc_verify(req_pkt, 20, req_len);
}

static NOINLINE void op_crc_64(unsigned int i)
{
	sink += crc32_le(i, pkt64, 64);
}

static NOINLINE void op_icrc_64(unsigned int i)
{
	sink += roce_icrc_calc(pkt64, 20, sizeof(pkt64));
}

static NOINLINE void op_icrc_1k(unsigned int i)
{
	sink += roce_icrc_calc(pkt1k, 20, sizeof(pkt1k));
}

static NOINLINE void op_cnp_v4(unsigned int i)
{
	sink += roce_cnp_build(cnp_buf, sizeof(cnp_buf), &cnp4, &cnp_crc);
}

/*
 * learn on's worst case: a request to a QP that is not among the 8 its
 * host pair remembers (1024 QPs in turn, as the guest's 1000 in learn-unknown).
 */
static struct roce_pair_hosts pair_hosts;

static NOINLINE void op_learn_request(unsigned int i)
{
	roce_pair_request(&pair_hosts, 0x10000 + (i & 1023), i, i);
}

/*
 * check-psn's part of a data packet's decision: its space by opcode, the
 * window test and the word moved on, for in-order requests (each moves it).
 */
static u32 psn_words[ROCE_PSN_SPACES];

static NOINLINE void op_psn_window(unsigned int i)
{
	u32 *word = &psn_words[roce_psn_space_of(pkt.bth.opcode)];
	u32 next = roce_psn_next(*word, i & ROCE_QPN_MASK, 4096,
				 psn_words[ROCE_PSN_RESPONSES], 0, 1);

	if (next != *word)
		*word = next;
}

static NOINLINE void op_cnp_v6(unsigned int i)
{
	sink += roce_cnp_build(cnp_buf, sizeof(cnp_buf), &cnp6, &cnp_crc);
}

static const struct {
	const char *name;
	void (*fn)(unsigned int i);
} ops[] = {
	{ "baseline", op_baseline },
	{ "data-parse", op_data_parse },
	{ "cm-parse", op_cm_parse },
	{ "cm-step", op_cm_step },
	{ "cm-icrc", op_cm_icrc },
	{ "crc-64", op_crc_64 },
	{ "icrc-64", op_icrc_64 },
	{ "icrc-1k", op_icrc_1k },
	{ "cnp-v4", op_cnp_v4 },
	{ "cnp-v6", op_cnp_v6 },
	{ "learn-request", op_learn_request },
	{ "psn-window", op_psn_window },
};

/* What is counted must also be right: the CRC, the classes, the CNP. */
static int self_check(void)
{
	struct roce_pkt p;
	u32 crc = crc32_le(~0u, req_pkt, req_len);

	if (~crc != (u32)crc32(0, req_pkt, req_len))
		return fprintf(stderr, "wire_instr: slice-by-8 CRC != zlib\n"), 1;
	if (roce_parse(data_pkt[0], data_len[0], data_len[0], &p) !=
	    ROCE_CLASS_RC ||
	    roce_parse(data_pkt[1], data_len[1], data_len[1], &p) !=
	    ROCE_CLASS_RC ||
	    roce_parse(req_pkt, req_len, req_len, &p) != ROCE_CLASS_CM ||
	    p.cm.attr_id != ROCE_CM_REQ || !p.cm.cma.valid)
		return fprintf(stderr, "wire_instr: trace misparsed\n"), 1;
	if (!roce_icrc_verify(req_pkt, 20, req_len) ||
	    roce_cnp_build(cnp_buf, sizeof(cnp_buf), &cnp4, &cnp_crc) != ROCE_CNP_LEN_V4 ||
	    !roce_icrc_verify(cnp_buf, 20, ROCE_CNP_LEN_V4) ||
	    roce_cnp_build(cnp_buf, sizeof(cnp_buf), &cnp6, &cnp_crc) != ROCE_CNP_LEN_V6 ||
	    !roce_icrc_verify(cnp_buf, 40, ROCE_CNP_LEN_V6))
		return fprintf(stderr, "wire_instr: bad ICRC\n"), 1;
	return 0;
}

int main(int argc, char **argv)
{
	unsigned int i, k, n = argc > 2 ? strtoul(argv[2], NULL, 0) : 0;

	crc32_slice8_init();
	roce_cnp_crc_init(&cnp_crc);
	build_packets();
	if (self_check())
		return 1;
	roce_parse(data_pkt[0], data_len[0], data_len[0], &pkt);
	for (k = 0; argc > 2 && k < ARRAY_SIZE(ops); k++) {
		if (strcmp(argv[1], ops[k].name))
			continue;
		for (i = 0; i < n; i++)
			ops[k].fn(i);
		return sink == 0x5eed ? 3 : 0;
	}
	fprintf(stderr, "usage: %s OP N; OP is one of:", argv[0]);
	for (k = 0; k < ARRAY_SIZE(ops); k++)
		fprintf(stderr, " %s", ops[k].name);
	fprintf(stderr, "\n");
	return 2;
}

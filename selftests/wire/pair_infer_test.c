// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of the PSN rule that infers QP pairs (kernel/pair_infer.c):
 * interleaved pairs between the same two hosts, reordering, loss,
 * retransmissions, PSN wrap, READ responses, ambiguity and forged ACKs.
 */
#include "pair_infer.h"
#include "tap.h"

#define OP_SEND_ONLY	0x04
#define OP_READ_REQ	0x0c
#define OP_READ_FIRST	0x0d
#define OP_READ_LAST	0x0f
#define OP_ACK		0x11
#define MAX_AGE		1000

/* Feed one response; return what it told, and the QP on a find. */
static enum roce_pair_result ack(struct roce_pair_hosts *h, u8 op, u32 to,
				 u32 psn, u32 now, u32 *found)
{
	*found = 0;
	return roce_pair_response(h, op, to, psn & ROCE_QPN_MASK, now,
				  MAX_AGE, found);
}

static void test_one_pair(void)
{
	struct roce_pair_hosts h = {};
	u32 psn = 0x123456, found;
	bool ok = true;
	int i;

	for (i = 0; i < 2; i++) {
		roce_pair_request(&h, 0x11, psn + i, 10);
		EXPECT(ack(&h, OP_ACK, 0x22, psn + i, 11, &found) ==
		       ROCE_PAIR_EVIDENCE_ADDED);
	}
	roce_pair_request(&h, 0x11, psn + 2, 12);
	EXPECT(ack(&h, OP_ACK, 0x22, psn + 2, 13, &found) == ROCE_PAIR_FOUND);
	EXPECT(found == 0x11);
	/* The slot is free: the caller tracks the pair from here. */
	EXPECT(ack(&h, OP_ACK, 0x22, psn + 2, 13, &found) == ROCE_PAIR_NONE);
	result(ok, "pair: three ACKs agreeing with one QP's requests");
}

static void test_interleaved(void)
{
	/* Four pairs between the same hosts, far apart in PSN space. */
	static const u32 dqpn[4] = { 0x101, 0x102, 0x103, 0x104 };
	static const u32 sqpn[4] = { 0x201, 0x202, 0x203, 0x204 };
	static const u32 start[4] = { 0x000100, 0x400000, 0x800000, 0xc00000 };
	struct roce_pair_hosts h = {};
	u32 found, got[4] = {};
	unsigned int round, q;
	bool ok = true;

	for (round = 0; round < 4; round++) {
		for (q = 0; q < 4; q++)
			roce_pair_request(&h, dqpn[q], start[q] + round * 10,
					  round);
		/* ACKs in reverse order. */
		for (q = 4; q-- > 0;) {
			if (ack(&h, OP_ACK, sqpn[q], start[q] + round * 10,
				round, &found) == ROCE_PAIR_FOUND)
				got[q] = found;
		}
	}
	for (q = 0; q < 4; q++)
		EXPECT(got[q] == dqpn[q]);
	result(ok, "pair: four interleaved pairs, ACKs in reverse order");
}

static void test_retransmission_and_loss(void)
{
	struct roce_pair_hosts h = {};
	u32 found;
	bool ok = true;

	roce_pair_request(&h, 0x31, 500, 1);
	roce_pair_request(&h, 0x31, 501, 1);
	/* Request 500 retransmitted: the newest PSN stays 501. */
	roce_pair_request(&h, 0x31, 500, 2);
	EXPECT(h.slot[0].psn == 501);
	EXPECT(ack(&h, OP_ACK, 0x41, 500, 2, &found) ==
	       ROCE_PAIR_EVIDENCE_ADDED);
	/* The same ACK again (a retransmitted ACK) adds nothing. */
	EXPECT(ack(&h, OP_ACK, 0x41, 500, 2, &found) ==
	       ROCE_PAIR_EVIDENCE_ADDED);
	EXPECT(h.slot[0].evidence == 1);
	/* ACKs for 501 and 502 lost; 503's arrives. */
	roce_pair_request(&h, 0x31, 503, 3);
	EXPECT(ack(&h, OP_ACK, 0x41, 503, 3, &found) ==
	       ROCE_PAIR_EVIDENCE_ADDED);
	/* A NAK (sequence error) names the PSN expected next. */
	roce_pair_request(&h, 0x31, 505, 4);
	EXPECT(ack(&h, OP_ACK, 0x41, 504, 4, &found) == ROCE_PAIR_FOUND);
	EXPECT(found == 0x31);
	result(ok, "pair: retransmitted requests and ACKs, lost ACKs, a NAK");
}

static void test_wrap(void)
{
	struct roce_pair_hosts h = {};
	u32 psn = 0xfffffe, found = 0;
	enum roce_pair_result r = ROCE_PAIR_NONE;
	bool ok = true;
	int i;

	for (i = 0; i < 3; i++) {
		roce_pair_request(&h, 0x51, (psn + i) & ROCE_QPN_MASK, 1);
		r = ack(&h, OP_ACK, 0x61, psn + i, 1, &found);
	}
	EXPECT(r == ROCE_PAIR_FOUND && found == 0x51);
	EXPECT(!(h.used & 1));
	result(ok, "pair: PSNs wrapping from 0xffffff to 0");
}

static void test_read_responses(void)
{
	struct roce_pair_hosts h = {};
	u32 found;
	bool ok = true;

	/* READ at PSN 1000 for 64 packets: responses 1000 to 1063. */
	roce_pair_request(&h, 0x71, 1000, 1);
	EXPECT(ack(&h, OP_READ_FIRST, 0x81, 1000, 1, &found) ==
	       ROCE_PAIR_EVIDENCE_ADDED);
	EXPECT(ack(&h, OP_READ_LAST, 0x81, 1063, 1, &found) ==
	       ROCE_PAIR_EVIDENCE_ADDED);
	/* An ACK ahead of every request answers none. */
	EXPECT(ack(&h, OP_ACK, 0x81, 1063, 1, &found) == ROCE_PAIR_NONE);
	/* Far ahead even for a READ: none either. */
	EXPECT(ack(&h, OP_READ_LAST, 0x81, 1000 + ROCE_PAIR_AHEAD + 1, 1,
		   &found) == ROCE_PAIR_NONE);
	roce_pair_request(&h, 0x71, 1064, 2);
	EXPECT(ack(&h, OP_READ_FIRST, 0x81, 1064, 2, &found) ==
	       ROCE_PAIR_FOUND);
	EXPECT(found == 0x71);
	result(ok, "pair: READ responses ahead of their request, ACKs not");
}

static void test_ambiguous_and_stale(void)
{
	struct roce_pair_hosts h = {};
	u32 found;
	bool ok = true;
	int i;

	/* Two QPs that both started at PSN 0 (as NCCL's do). */
	for (i = 0; i <= 12; i++) {
		roce_pair_request(&h, 0x91, i, 1);
		roce_pair_request(&h, 0x92, i, 1);
	}
	for (i = 0; i < 5; i++)
		EXPECT(ack(&h, OP_ACK, 0xa1, 10, 1, &found) ==
		       ROCE_PAIR_AMBIGUOUS);
	/* Once they diverge, the response is one QP's. */
	roce_pair_request(&h, 0x92, 90000, 2);
	EXPECT(ack(&h, OP_ACK, 0xa1, 11, 2, &found) ==
	       ROCE_PAIR_EVIDENCE_ADDED);
	EXPECT(h.slot[0].peer == 0xa1 && h.slot[0].evidence == 1);
	/* Requests older than max_age are not weighed. */
	EXPECT(ack(&h, OP_ACK, 0xa1, 10, 1 + MAX_AGE + 1, &found) ==
	       ROCE_PAIR_NONE);
	result(ok, "pair: close PSNs of two QPs are no evidence; old requests neither");
}

static void test_forged(void)
{
	struct roce_pair_hosts h = {};
	u32 found;
	bool ok = true;
	int i;

	roce_pair_request(&h, 0xb1, 7000, 1);
	/* A forged ACK to another QP of the requester, matching PSN. */
	EXPECT(ack(&h, OP_ACK, 0xdead, 7000, 1, &found) ==
	       ROCE_PAIR_EVIDENCE_ADDED);
	/* Forged again with the same PSN: still one piece of evidence. */
	for (i = 0; i < 5; i++)
		EXPECT(ack(&h, OP_ACK, 0xdead, 7000, 1, &found) !=
		       ROCE_PAIR_FOUND);
	/* Genuine ACKs name the real QP; the forged evidence is dropped. */
	for (i = 1; i <= 3; i++) {
		roce_pair_request(&h, 0xb1, 7000 + i, 2);
		if (ack(&h, OP_ACK, 0xc1, 7000 + i, 2, &found) ==
		    ROCE_PAIR_FOUND)
			break;
	}
	EXPECT(i == 3 && found == 0xb1);
	/* A blind forger must hit the PSNs of the requests seen. */
	roce_pair_request(&h, 0xb2, 9000, 3);
	roce_pair_request(&h, 0xb2, 9001, 3);
	for (i = 1; i <= 5000; i++)
		EXPECT(ack(&h, OP_ACK, 0xdead, 9000 - i, 3, &found) ==
		       ROCE_PAIR_NONE);
	/* Nor does replaying an older PSN after a newer one count. */
	EXPECT(ack(&h, OP_ACK, 0xdead, 9001, 3, &found) ==
	       ROCE_PAIR_EVIDENCE_ADDED);
	EXPECT(ack(&h, OP_ACK, 0xdead, 9000, 3, &found) ==
	       ROCE_PAIR_EVIDENCE_ADDED);
	EXPECT(ack(&h, OP_ACK, 0xdead, 9001, 3, &found) ==
	       ROCE_PAIR_EVIDENCE_ADDED);
	EXPECT(h.slot[0].evidence == 1);
	result(ok, "pair: forged ACKs make no pair and do not block the real one");
}

static void test_eviction(void)
{
	struct roce_pair_hosts h = {};
	u32 found;
	bool ok = true;
	unsigned int q;

	for (q = 0; q < ROCE_PAIR_SLOTS; q++)
		roce_pair_request(&h, 0x300 + q, 0x100000 * q, q);
	/* Refresh the first; the next new QP replaces the second. */
	roce_pair_request(&h, 0x300, 1, 100);
	roce_pair_request(&h, 0x3ff, 0xf00000, 101);
	EXPECT(h.slot[0].dqpn == 0x300 && h.slot[1].dqpn == 0x3ff);
	EXPECT(ack(&h, OP_ACK, 0x1, 0x100000, 101, &found) == ROCE_PAIR_NONE);
	/* Evidence that spans an eviction is not trusted: start over. */
	roce_pair_request(&h, 0x300, 2, 102);
	roce_pair_request(&h, 0x300, 3, 102);
	EXPECT(ack(&h, OP_ACK, 0x2, 1, 102, &found) ==
	       ROCE_PAIR_EVIDENCE_ADDED);
	EXPECT(ack(&h, OP_ACK, 0x2, 2, 102, &found) ==
	       ROCE_PAIR_EVIDENCE_ADDED);
	roce_pair_request(&h, 0x3fe, 0xe00000, 103);
	EXPECT(ack(&h, OP_ACK, 0x2, 3, 103, &found) == ROCE_PAIR_NONE);
	EXPECT(h.slot[0].evidence == 0);
	EXPECT(roce_pair_is_response(OP_ACK) && roce_pair_is_response(0xb1) &&
	       !roce_pair_is_response(OP_SEND_ONLY) &&
	       !roce_pair_is_response(OP_READ_REQ) &&
	       !roce_pair_is_response(0x2d) && !roce_pair_is_response(0x71));
	result(ok, "pair: the least recently used QP makes room; responses by opcode");
}

void test_pair_infer(void)
{
	test_one_pair();
	test_interleaved();
	test_retransmission_and_loss();
	test_wrap();
	test_read_responses();
	test_ambiguous_and_stale();
	test_forged();
	test_eviction();
}

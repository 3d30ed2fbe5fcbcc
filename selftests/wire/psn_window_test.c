// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of the PSN window (kernel/psn_window.h): a sender's requests
 * in order and across the 24-bit wrap, retransmission back to the oldest
 * unacknowledged PSN, duplicates, packets lost before the router, READ
 * requests and their responses, coalesced ACKs, a window kept from one
 * direction alone, and PSNs an injector might pick.
 */
#include "psn_window.h"
#include "tap.h"

#define OP_SEND_ONLY	0x04
#define OP_WRITE_ONLY	0x0a
#define OP_READ_REQ	0x0c
#define OP_READ_FIRST	0x0d
#define OP_READ_MIDDLE	0x0e
#define OP_READ_LAST	0x0f
#define OP_ACK		0x11
#define OP_ATOMIC_ACK	0x12
#define OP_UC_SEND_ONLY	0x24
#define WINDOW		1024

/* A word's position, without the flags beside it. */
static u32 pos(u32 word)
{
	return word & (ROCE_PSN_KNOWN | ROCE_QPN_MASK);
}

/* One space: feed @psn; true if it passed. */
static bool seen(u32 *word, u32 psn)
{
	u32 next = roce_psn_next(*word, psn & ROCE_QPN_MASK, WINDOW, 0, 0, 1);

	if (next)
		*word = next;
	return next != 0;
}

static void test_in_order_and_wrap(void)
{
	u32 w = 0, psn;
	bool ok = true;

	/* The first packet starts the space; then in order across 2^24. */
	for (psn = 0xfffff0; psn != 0x000010; psn = (psn + 1) & ROCE_QPN_MASK)
		EXPECT(seen(&w, psn));
	EXPECT(pos(w) == roce_psn_start(0x000010));
	/* A CM starting PSN just below the wrap. */
	w = roce_psn_start(0xfffffe);
	EXPECT(seen(&w, 0xfffffe) && seen(&w, 0xffffff) && seen(&w, 0));
	EXPECT(pos(w) == roce_psn_start(1));
	result(ok, "psn: in order, across the 24-bit wrap, from a CM starting PSN");
}

static void test_retransmission_and_loss(void)
{
	u32 w = roce_psn_start(0x100000), psn;
	bool ok = true;

	for (psn = 0x100000; psn < 0x100000 + 600; psn++)
		EXPECT(seen(&w, psn));
	/* A NAK or a timeout: back to the oldest unacknowledged PSN. */
	EXPECT(seen(&w, 0x100000 + 100));
	EXPECT(pos(w) == roce_psn_start(0x100000 + 600));
	/* Duplicates, and the retransmission catching up. */
	EXPECT(seen(&w, 0x100000 + 100) && seen(&w, 0x100000 + 599));
	EXPECT(pos(w) == roce_psn_start(0x100000 + 600));
	/* 300 packets lost before the router: the next one is ahead. */
	EXPECT(seen(&w, 0x100000 + 900));
	EXPECT(pos(w) == roce_psn_start(0x100000 + 901));
	/* The window's edges: WINDOW behind passes, one more does not. */
	EXPECT(seen(&w, 0x100000 + 901 - WINDOW));
	EXPECT(!seen(&w, 0x100000 + 900 - WINDOW));
	EXPECT(seen(&w, 0x100000 + 901 + WINDOW - 1));
	EXPECT(!seen(&w, 0x100000 + 901 + 2 * WINDOW));
	result(ok, "psn: retransmission, duplicates, loss before the router, the edges");
}

static void test_read_and_responses(void)
{
	u32 req = roce_psn_start(0xfffe00), resp = roce_psn_start(0xfffe00);
	bool ok = true;
	u32 psn;

	/* A READ of 512 packets at 0xfffe00: the next request is 512 on. */
	EXPECT(seen(&req, 0xfffe00));
	EXPECT(seen(&req, 0xfffe00 + 512));
	/* Its responses, the other way, in the requester's space. */
	for (psn = 0xfffe00; psn < 0xfffe00 + 512; psn++)
		EXPECT(seen(&resp, psn));
	/* One coalesced ACK for the next 300 requests. */
	EXPECT(seen(&resp, 0xfffe00 + 512 + 299));
	/* The READ repeated: its responses again. */
	EXPECT(seen(&resp, 0xfffe00) && seen(&resp, 0xfffe00 + 1));
	EXPECT(pos(resp) == roce_psn_start(0xfffe00 + 812));
	EXPECT(roce_psn_space_of(OP_READ_REQ) == ROCE_PSN_REQUESTS &&
	       roce_psn_space_of(OP_SEND_ONLY) == ROCE_PSN_REQUESTS &&
	       roce_psn_space_of(OP_WRITE_ONLY) == ROCE_PSN_REQUESTS &&
	       roce_psn_space_of(OP_UC_SEND_ONLY) == ROCE_PSN_REQUESTS &&
	       roce_psn_space_of(OP_READ_FIRST) == ROCE_PSN_RESPONSES &&
	       roce_psn_space_of(OP_READ_MIDDLE) == ROCE_PSN_RESPONSES &&
	       roce_psn_space_of(OP_READ_LAST) == ROCE_PSN_RESPONSES &&
	       roce_psn_space_of(OP_ACK) == ROCE_PSN_RESPONSES &&
	       roce_psn_space_of(OP_ATOMIC_ACK) == ROCE_PSN_RESPONSES);
	result(ok, "psn: a READ moves the requests on; responses, coalesced ACKs, a repeated READ");
}

static void test_injection(void)
{
	u32 w = roce_psn_start(0x123456);
	bool ok = true;

	EXPECT(seen(&w, 0x123456));
	/* Moved by 2^23, or anywhere beyond the window: out, unmoved. */
	EXPECT(!seen(&w, 0x123456 + 0x800000));
	EXPECT(!seen(&w, 0x123456 + 0x400000));
	EXPECT(!seen(&w, 0x123456 - 0x400000));
	EXPECT(pos(w) == roce_psn_start(0x123457));
	/* A window of half the space lets every PSN pass. */
	EXPECT(roce_psn_next(w, 0x923457, ROCE_PSN_WINDOW_MAX, 0, 0, 1) &&
	       roce_psn_next(w, 0x923456, ROCE_PSN_WINDOW_MAX, 0, 0, 1) &&
	       roce_psn_next(w, 0x123456, ROCE_PSN_WINDOW_MAX, 0, 0, 1));
	/* A window of 1: the next PSN and the last one only. */
	EXPECT(roce_psn_next(w, 0x123457, 1, 0, 0, 1) && roce_psn_next(w, 0x123456, 1, 0, 0, 1) &&
	       !roce_psn_next(w, 0x123458, 1, 0, 0, 1) && !roce_psn_next(w, 0x123455, 1, 0, 0, 1));
	result(ok, "psn: PSNs beyond the window do not pass or move it; the window's size");
}

/* How many of all 2^24 PSNs pass a word, as blind guesses would. */
static u32 passing(u32 word, u32 window, u32 floor)
{
	u32 psn, n = 0;

	for (psn = 0; psn <= ROCE_QPN_MASK; psn++)
		n += roce_psn_next(word, psn, window, floor, 0, 1) != 0;
	return n;
}

static void test_blind_rate(void)
{
	u32 w = roce_psn_start(0x345678) | ROCE_PSN_SEEN;
	u32 floor = roce_psn_start(0x345678) | ROCE_PSN_SEEN;
	bool ok = true;

	/* 4096 either way: 8192 of 2^24, 1 guess in 2048. */
	EXPECT(passing(w, 4096, 0) == 8192);
	EXPECT(passing(w, 4096, floor) == 8192);
	/* 1000 requests unacknowledged widen it by those: still below 1/1000. */
	floor = roce_psn_start(0x345678 - 1000) | ROCE_PSN_SEEN;
	EXPECT(passing(w, 4096, floor) == 9192);
	/* A floor no response has moved widens nothing. */
	EXPECT(passing(w, 4096, roce_psn_start(0x345678 - 1000)) == 8192);
	/* The largest window lets every PSN pass, with a floor or not. */
	EXPECT(passing(w, ROCE_PSN_WINDOW_MAX, floor) == ROCE_QPN_MASK + 1);
	result(ok, "psn: 2 x window of 2^24 PSNs pass; a floor widens by what is unacknowledged");
}

static void test_guesses_cannot_cut_off(void)
{
	u32 req = roce_psn_start(0x000100), floor = roce_psn_start(0x000100);
	u32 guess, i, big;
	bool ok = true;

	/* The sender's requests 0x100-0x1ff; the peer acknowledges them. */
	for (i = 0x100; i < 0x200; i++)
		EXPECT(seen(&req, i));
	floor = roce_psn_next(floor, 0x1ff, WINDOW, 0, 0, 1);
	EXPECT(pos(floor) == roce_psn_start(0x200));
	/* Guesses that land just inside the window ahead, 20 times over. */
	for (i = 0, guess = 0x200 + WINDOW - 1; i < 20; i++) {
		req = roce_psn_next(req, guess, WINDOW, floor, 0, 1);
		EXPECT(req);
		guess = (req & ROCE_QPN_MASK) + WINDOW - 1;
	}
	/* The sender's own next request still passes: the floor holds it. */
	EXPECT(roce_psn_next(req, 0x200, WINDOW, floor, 0, 1));
	/* ... and a retransmission back to its oldest unacknowledged. */
	EXPECT(roce_psn_next(req, 0x200 - WINDOW, WINDOW, floor, 0, 1));
	/* Without the peer's floor it would not. */
	EXPECT(!roce_psn_next(req, 0x200, WINDOW, 0, 0, 1));
	/*
	 * Forged READs of 2^31 bytes at a 256-byte MTU (2^23 PSNs each):
	 * next may not get half the space beyond the floor, the sender passes.
	 */
	for (i = 0; i < 8; i++) {
		guess = (req & ROCE_QPN_MASK) + 1;
		big = roce_psn_next(req | 1 << ROCE_PSN_MTU_SHIFT, guess, WINDOW,
				    floor, 0, roce_psn_read_span(1 << ROCE_PSN_MTU_SHIFT,
								 0xffffffffu));
		EXPECT(!big);
	}
	EXPECT(roce_psn_next(req, 0x200, WINDOW, floor, 0, 1));
	result(ok, "psn: guesses ahead move next, the peer's floor keeps the sender in");
}

static void test_read_span_and_step(void)
{
	u32 req = roce_psn_start(0x000010) | 3 << ROCE_PSN_MTU_SHIFT;
	u32 resp = roce_psn_start(0x000010), span, psn, small;
	bool ok = true;

	EXPECT(roce_psn_mtu_code(256) == 1 && roce_psn_mtu_code(1024) == 3 &&
	       roce_psn_mtu_code(4096) == 5 && !roce_psn_mtu_code(1000) &&
	       !roce_psn_mtu_code(8192) && !roce_psn_mtu_code(0));
	EXPECT(roce_psn_first_or_middle(0x00) && roce_psn_first_or_middle(0x07) &&
	       roce_psn_first_or_middle(0x21) && roce_psn_first_or_middle(0x26) &&
	       !roce_psn_first_or_middle(0x04) && !roce_psn_first_or_middle(0x0e) &&
	       !roce_psn_first_or_middle(0xa0) && !roce_psn_first_or_middle(0x64));
	/* 2 GiB at a 1024-byte MTU: 2^21 packets, twice 2^20. */
	span = roce_psn_read_span(req, 0x80000000u);
	EXPECT(span == 1u << 21);
	EXPECT(roce_psn_read_span(req, 0) == 1 && roce_psn_read_span(req, 1024) == 1 &&
	       roce_psn_read_span(req, 1025) == 2);
	/* The MTU unknown: as at 256 bytes; beyond 2^31: as 2^31. */
	EXPECT(roce_psn_read_span(roce_psn_start(0x10), 0x80000000u) == 1u << 23);
	EXPECT(roce_psn_read_span(req, 0xffffffffu) == 1u << 21);
	req = roce_psn_next(req, 0x10, WINDOW, 0, 0, span);
	EXPECT(pos(req) == roce_psn_start(0x10 + (1u << 21)));
	EXPECT((req & ROCE_PSN_MTU_MASK) == 3 << ROCE_PSN_MTU_SHIFT);
	/* The next request, 2^21 on, and the READ's responses all pass. */
	EXPECT(roce_psn_next(req, 0x10 + (1u << 21), WINDOW, 0, 0, 1));
	/*
	 * Responses lost after the router: the READ asked again from the
	 * middle, although the peer's floor has passed it: the largest READ
	 * (2^21: k 5) widens the window behind. A small READ does not.
	 */
	EXPECT(roce_psn_read_room(req) == 1u << 21);
	EXPECT(roce_psn_next(req, 0x10 + 1000, WINDOW,
			     roce_psn_start(0x10 + (1u << 21)) | ROCE_PSN_SEEN, 0, 1));
	small = roce_psn_next(roce_psn_start(5) | 3 << ROCE_PSN_MTU_SHIFT, 5,
			      WINDOW, 0, 0, 64);
	EXPECT(small && !roce_psn_read_room(small));
	EXPECT(roce_psn_read_room(roce_psn_read_seen(0, 2049)) == 1u << 13 &&
	       roce_psn_read_room(roce_psn_read_seen(0, 1u << 23)) == 1u << 23);
	for (psn = 0x10; psn < 0x10 + (1u << 21); psn++)
		EXPECT(seen(&resp, psn));
	/* In sequence: the first packet, or less than 64 ahead. */
	EXPECT(roce_psn_in_step(0, 0x777) && roce_psn_in_step(resp, 0x10 + (1u << 21)) &&
	       roce_psn_in_step(resp, 0x10 + (1u << 21) + 63) &&
	       !roce_psn_in_step(resp, 0x10 + (1u << 21) + 64) &&
	       !roce_psn_in_step(resp, 0x10 + (1u << 21) - 1));
	result(ok, "psn: a 2 GiB READ moves the requests 2^21 on; MTU codes; in sequence");
}

static void test_ceiling(void)
{
	u32 resp = roce_psn_start(0x100) | ROCE_PSN_SEEN;
	u32 ceil = roce_psn_start(0x100 + 3001) | ROCE_PSN_SEEN;
	bool ok = true;

	/* One ACK for 3001 requests: beyond the window, before the ceiling. */
	EXPECT(pos(roce_psn_next(resp, 0x100 + 3000, WINDOW, 0, ceil, 1)) ==
	       roce_psn_start(0x100 + 3001));
	/* Responses to requests not seen: none, even inside the window. */
	EXPECT(!roce_psn_next(resp, 0x100 + 3001, WINDOW, 0, ceil, 1));
	ceil = roce_psn_start(0x100 + 10) | ROCE_PSN_SEEN;
	EXPECT(!roce_psn_next(resp, 0x100 + 10, WINDOW, 0, ceil, 1));
	EXPECT(roce_psn_next(resp, 0x100 + 9, WINDOW, 0, ceil, 1));
	/* Behind: the window, or the peer's largest READ. */
	EXPECT(roce_psn_next(resp, 0x100 - WINDOW, WINDOW, 0, ceil, 1));
	EXPECT(!roce_psn_next(resp, 0x100 - 2 * WINDOW, WINDOW, 0, ceil, 1));
	EXPECT(roce_psn_next(resp, 0x100 - 2 * WINDOW, WINDOW, 0,
			     roce_psn_read_seen(ceil, 1 << 15), 1));
	/* The largest window: every PSN, ceiling or not. */
	EXPECT(roce_psn_next(resp, 0x900000, ROCE_PSN_WINDOW_MAX, 0, ceil, 1));
	result(ok, "psn: responses before the peer's next requests, a coalesced ACK of any length");
}

void test_psn_window(void)
{
	test_in_order_and_wrap();
	test_retransmission_and_loss();
	test_read_and_responses();
	test_injection();
	test_blind_rate();
	test_guesses_cannot_cut_off();
	test_read_span_and_step();
	test_ceiling();
}

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

/* One space: feed @psn; true if it passed. */
static bool seen(u32 *word, u32 psn)
{
	u32 next = roce_psn_next(*word, psn & ROCE_QPN_MASK, WINDOW);

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
	EXPECT(w == roce_psn_start(0x000010));
	/* A CM starting PSN just below the wrap. */
	w = roce_psn_start(0xfffffe);
	EXPECT(seen(&w, 0xfffffe) && seen(&w, 0xffffff) && seen(&w, 0));
	EXPECT(w == roce_psn_start(1));
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
	EXPECT(w == roce_psn_start(0x100000 + 600));
	/* Duplicates, and the retransmission catching up. */
	EXPECT(seen(&w, 0x100000 + 100) && seen(&w, 0x100000 + 599));
	EXPECT(w == roce_psn_start(0x100000 + 600));
	/* 300 packets lost before the router: the next one is ahead. */
	EXPECT(seen(&w, 0x100000 + 900));
	EXPECT(w == roce_psn_start(0x100000 + 901));
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
	EXPECT(resp == roce_psn_start(0xfffe00 + 812));
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
	EXPECT(w == roce_psn_start(0x123457));
	/* A window of half the space lets every PSN pass. */
	EXPECT(roce_psn_next(w, 0x923457, ROCE_PSN_WINDOW_MAX) &&
	       roce_psn_next(w, 0x923456, ROCE_PSN_WINDOW_MAX) &&
	       roce_psn_next(w, 0x123456, ROCE_PSN_WINDOW_MAX));
	/* A window of 1: the next PSN and the last one only. */
	EXPECT(roce_psn_next(w, 0x123457, 1) && roce_psn_next(w, 0x123456, 1) &&
	       !roce_psn_next(w, 0x123458, 1) && !roce_psn_next(w, 0x123455, 1));
	result(ok, "psn: PSNs beyond the window do not pass or move it; the window's size");
}

void test_psn_window(void)
{
	test_in_order_and_wrap();
	test_retransmission_and_loss();
	test_read_and_responses();
	test_injection();
}

/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The PSN window of one direction of an RC or UC QP pair, as a router sees
 * it. Pure: no kernel-only API, shared with the userspace unit tests.
 *
 * A direction carries two PSN spaces: its sender's requests, which the
 * sender numbers, and its sender's responses (ACK, NAK, READ responses,
 * ATOMIC ACK), which name PSNs of the peer's requests. Each space is kept
 * in one word: the PSN after the newest packet that moved it (its "next").
 *
 * A packet passes if its PSN lies less than the window ahead of next
 * (packets lost before the router, a coalesced ACK skipping what it
 * acknowledges), which moves next on to it, or up to the window behind
 * the lower of next and the peer's acknowledgements (retransmission back
 * to the oldest unacknowledged PSN, duplicates, a READ's responses
 * repeated), which moves nothing. A READ request moves its space on by
 * the packets its responses take (IBTA 9.4.4: a READ of n packets
 * consumes n PSNs), from its RETH length and the path MTU; a requester
 * that lost some of them asks again from the first it lacks, so the
 * window behind is at least the largest READ the sender made.
 *
 * Why the peer's acknowledgements: requests the peer's responses have
 * acknowledged (the peer's response space) are what a live requester
 * sends from, whatever PSNs a blind injector landed meanwhile. Anchoring
 * the lower edge there (TCP conntrack bounds a direction by what the
 * other acknowledged the same way) keeps the real sender inside the
 * window even after guesses moved next on: only the peer's own responses
 * move the floor, and next never gets half the PSN space beyond it.
 * Responses, the other way round, must name a request seen (before the
 * peer's next requests word: the ceiling), may jump as far ahead as that
 * (a coalesced ACK of any length), and go back as far as the peer's
 * largest READ. Where the peer's direction is not seen (routed past the
 * router, a managed entry, no link between the directions), the lower
 * edge is next's: a guess that lands ahead still passes at the same rate,
 * but two that land before the sender catches up can leave its PSNs
 * behind the window.
 *
 * Neither space needs a packet of the other direction to start: a window
 * holds where routing is asymmetric; it starts at the starting PSN of the
 * CM REQ or REP, or at the first packet. PSNs are 24-bit serial numbers:
 * they wrap.
 */
#ifndef _ROCECT_PSN_WINDOW_H
#define _ROCECT_PSN_WINDOW_H

#include "pair_infer.h"

/**
 * enum roce_psn_space - the PSN spaces of one direction
 * @ROCE_PSN_REQUESTS: its sender's requests
 * @ROCE_PSN_RESPONSES: its sender's responses to the peer's requests
 * @ROCE_PSN_SPACES: number of spaces
 */
enum roce_psn_space {
	ROCE_PSN_REQUESTS = 0,
	ROCE_PSN_RESPONSES = 1,
	ROCE_PSN_SPACES,
};

enum roce_psn_window_const {
	/* In a space's word: it has a position (bits 0-23). */
	ROCE_PSN_KNOWN		= 1u << 31,
	/* In a space's word: a packet has moved it since it started. */
	ROCE_PSN_SEEN		= 1 << 30,
	/*
	 * In a requests word: the path MTU as IBTA codes it (1 for 256 to 5
	 * for 4096), 0 while unknown; from the CM REQ or a FIRST or MIDDLE
	 * packet, whose payload is the path MTU.
	 */
	ROCE_PSN_MTU_SHIFT	= 24,
	ROCE_PSN_MTU_MASK	= 7 << ROCE_PSN_MTU_SHIFT,
	/*
	 * In a requests word: k, the largest READ the sender made, as 2^(11
	 * + 2k) PSNs (0: none over 2^11). A requester that lost some of a
	 * READ's responses asks again from the first it lacks, anywhere in
	 * the READ, however far the responses that passed moved the peer's
	 * floor: the window behind is at least that wide.
	 */
	ROCE_PSN_READ_SHIFT	= 27,
	ROCE_PSN_READ_MASK	= 7 << ROCE_PSN_READ_SHIFT,
	/* Half the PSN space either way: every PSN passes. */
	ROCE_PSN_WINDOW_MAX	= 1 << 23,
	/*
	 * A packet at most this far ahead of next is in sequence: only such
	 * a packet binds its entry's UDP source port, so that a blind guess
	 * must hit 64 PSNs, not the window, to bind one.
	 */
	ROCE_PSN_STEP		= 64,
};

/**
 * roce_psn_space_of() - the space a packet's PSN belongs to
 * @opcode: its BTH opcode (RC or UC)
 *
 * Return: %ROCE_PSN_RESPONSES for a responder's packet, else
 * %ROCE_PSN_REQUESTS.
 */
static inline enum roce_psn_space roce_psn_space_of(u8 opcode)
{
	/* The table's 0 and 1 are the spaces' values: no conversion. */
	return (enum roce_psn_space)roce_response_opcodes[opcode];
}

/**
 * roce_psn_start() - a space's word at a starting PSN
 * @psn: the first PSN its packets will carry
 *
 * Return: the word.
 */
static inline u32 roce_psn_start(u32 psn)
{
	return ROCE_PSN_KNOWN | (psn & ROCE_QPN_MASK);
}

/**
 * roce_psn_mtu_code() - the IBTA code of a path MTU
 * @bytes: the payload of a FIRST or MIDDLE packet, or an MTU
 *
 * Return: 1 (256) to 5 (4096), or 0 if @bytes is no path MTU.
 */
static inline u32 roce_psn_mtu_code(u32 bytes)
{
	u32 code;

	for (code = 1; code <= 5; code++)
		if (bytes == 128u << code)
			return code;
	return 0;
}

/**
 * roce_psn_first_or_middle() - does a packet carry exactly the path MTU?
 * @opcode: its BTH opcode (RC or UC)
 *
 * Return: true for SEND and RDMA WRITE FIRST and MIDDLE packets.
 */
static inline bool roce_psn_first_or_middle(u8 opcode)
{
	switch (opcode & 0x1f) {
	case 0x00: case 0x01: case 0x06: case 0x07:
		return opcode < 0x40;
	}
	return false;
}

/**
 * roce_psn_read_span() - the PSNs an RDMA READ request takes
 * @word: its requests word, whose MTU bits say the path MTU
 * @len: the RETH's DMA length
 *
 * Return: one PSN per response packet, at least 1. While the path MTU is
 * unknown, as many as the smallest (256) makes: next then lies beyond
 * the real requester's next request, which the READ's room behind
 * (roce_psn_read_room()) lets pass. Lengths beyond 2^31, the most a
 * message carries, count as 2^31.
 */
static inline u32 roce_psn_read_span(u32 word, u32 len)
{
	u32 code = (word & ROCE_PSN_MTU_MASK) >> ROCE_PSN_MTU_SHIFT;
	u32 shift = code && code <= 5 ? code + 7 : 8;

	if (len > 1u << 31)
		len = 1u << 31;
	if (len <= (1u << shift))
		return 1;
	return (len >> shift) + !!(len & ((1u << shift) - 1));
}

/**
 * roce_psn_read_room() - how far behind a READ's sender may ask again
 * @word: its requests word
 *
 * Return: 2^(11 + 2k) for its largest READ's k, or 0.
 */
static inline u32 roce_psn_read_room(u32 word)
{
	u32 k = (word & ROCE_PSN_READ_MASK) >> ROCE_PSN_READ_SHIFT;

	return k ? 1u << (11 + 2 * k) : 0;
}

/* @word with its largest READ at least @span PSNs. */
static inline u32 roce_psn_read_seen(u32 word, u32 span)
{
	u32 k = 0;

	while (k < 6 && span > (1u << (11 + 2 * k)))
		k++;
	if (k > (word & ROCE_PSN_READ_MASK) >> ROCE_PSN_READ_SHIFT)
		word = (word & ~ROCE_PSN_READ_MASK) | k << ROCE_PSN_READ_SHIFT;
	return word;
}

/**
 * roce_psn_next() - does @psn fall within the window of its space?
 * @word: the space's word: %ROCE_PSN_KNOWN | next, or 0 before the first
 *	packet (flag bits other than those are kept)
 * @psn: the packet's PSN
 * @window: PSNs either way, 1 to %ROCE_PSN_WINDOW_MAX (which lets every
 *	PSN pass, floor and ceiling aside)
 * @floor: requests: the peer's responses word (the PSN after the newest
 *	request it acknowledged), or 0 where the peer's responses are not
 *	seen here
 * @ceil: responses: the peer's requests word (the PSN after the newest
 *	request seen), or 0 where the peer's requests are not seen here
 * @span: the PSNs the packet takes: 1, or a READ's roce_psn_read_span()
 *
 * With a floor, requests pass down to the window below it, and next never
 * moves half the PSN space or more beyond it: whatever guesses landed
 * ahead, the real requester, which sends from the oldest request its
 * peer has not acknowledged, stays inside. With a ceiling, a response
 * must name a request seen (before the peer's next), as far ahead as
 * that (a coalesced ACK), and may go back as far as the peer's largest
 * READ (it repeats its responses).
 *
 * Inline: called for every RC and UC data packet of a known QP.
 *
 * Return: the space's word with the packet seen (a first packet starts
 * it; one ahead moves it on), or 0 if @psn lies outside the window.
 */
static __always_inline u32 roce_psn_next(u32 word, u32 psn, u32 window,
					 u32 floor, u32 ceil, u32 span)
{
	const u32 both = ROCE_PSN_KNOWN | ROCE_PSN_SEEN;
	u32 next = word & ROCE_QPN_MASK, ahead = window, behind = window;
	u32 lag = 0, d, room;

	/* Most packets: the next ones of a space that nothing else bounds. */
	if (likely(!(floor | ceil) && (word & ROCE_PSN_KNOWN) &&
		   ((psn - next) & ROCE_QPN_MASK) < window && span == 1))
		return ((word | ROCE_PSN_SEEN) & ~ROCE_QPN_MASK) |
		       ((psn + 1) & ROCE_QPN_MASK);
	if (unlikely(window >= ROCE_PSN_WINDOW_MAX)) {
		floor = 0;
		ceil = 0;
	}
	if (unlikely((ceil & both) == both)) {
		if (((ceil - 1 - psn) & ROCE_QPN_MASK) >= ROCE_PSN_WINDOW_MAX)
			return 0;
		d = (ceil - next) & ROCE_QPN_MASK;
		if (d < ROCE_PSN_WINDOW_MAX && d > ahead)
			ahead = d;
		room = roce_psn_read_room(ceil);
		if (room > behind)
			behind = room;
	}
	/* The floor counts where it is behind next, as a live peer's is. */
	if ((floor & both) == both) {
		lag = (next - floor) & ROCE_QPN_MASK;
		if (lag >= ROCE_PSN_WINDOW_MAX)
			lag = 0;
	}
	if (unlikely(!(word & ROCE_PSN_KNOWN)) ||
	    ((psn - next) & ROCE_QPN_MASK) < ahead) {
		if ((floor & both) == both &&
		    ((psn + span - floor) & ROCE_QPN_MASK) >= ROCE_PSN_WINDOW_MAX &&
		    (lag || next == (floor & ROCE_QPN_MASK)))
			return 0;
		if (unlikely(span > 1))
			word = roce_psn_read_seen(word, span);
		return ((word | both) & ~ROCE_QPN_MASK) |
		       ((psn + span) & ROCE_QPN_MASK);
	}
	/* Behind: the window (or the largest READ) below next or the floor. */
	room = roce_psn_read_room(word);	/* 2^23 at most */
	if (unlikely(room > behind))
		behind = room;
	return ((next - psn) & ROCE_QPN_MASK) <= lag + behind ? word : 0;
}

/**
 * roce_psn_in_step() - is @psn in sequence in its space?
 * @word: the space's word
 * @psn: the packet's PSN
 *
 * Return: true for a space's first packet or one at most
 * %ROCE_PSN_STEP - 1 ahead of next.
 */
static inline bool roce_psn_in_step(u32 word, u32 psn)
{
	return !(word & ROCE_PSN_KNOWN) ||
	       ((psn - word) & ROCE_QPN_MASK) < ROCE_PSN_STEP;
}

#endif /* _ROCECT_PSN_WINDOW_H */

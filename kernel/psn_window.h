/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The PSN window of one direction of an RC or UC QP pair, as a router sees
 * it. Pure: no kernel-only API, shared with the userspace unit tests.
 *
 * A direction carries two PSN spaces: its sender's requests, which the
 * sender numbers, and its sender's responses (ACK, NAK, READ responses,
 * ATOMIC ACK), which name PSNs of the peer's requests. Each space is kept
 * from its own packets: one word, the PSN after the newest packet seen. A
 * PSN up to the window behind it passes (retransmission back to the
 * oldest unacknowledged PSN after a NAK or a timeout, duplicates, READ
 * responses repeated for a repeated READ), and so does one up to the
 * window ahead (packets lost before the router; a READ of n packets moves
 * the next request n on; a coalesced ACK skips the PSNs it acknowledges).
 * A live sender stays within the PSNs it has outstanding, which the
 * window is sized for; a blind injector must guess a PSN within it.
 *
 * Neither space needs a packet of the other direction, so a window holds
 * where routing is asymmetric; it starts at the starting PSN of the CM
 * REQ or REP, or at the first packet. PSNs are 24-bit serial numbers:
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
	/* Half the PSN space either way: every PSN passes. */
	ROCE_PSN_WINDOW_MAX	= 1 << 23,
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
 * roce_psn_next() - does @psn fall within @window of its space?
 * @word: the space's word: %ROCE_PSN_KNOWN | the PSN after the newest
 *	packet seen, or 0 before the first
 * @psn: the packet's PSN
 * @window: PSNs either way, 1 to %ROCE_PSN_WINDOW_MAX
 *
 * Inline: called for every RC and UC data packet of a known QP.
 *
 * Return: the space's word with the packet seen (a first packet starts
 * it; a newer one moves it on), or 0 if @psn lies outside the window.
 */
static inline u32 roce_psn_next(u32 word, u32 psn, u32 window)
{
	/* Where @psn lies from the oldest PSN that passes: the window behind. */
	u32 off = (psn - word + window) & ROCE_QPN_MASK;

	if (unlikely(!(word & ROCE_PSN_KNOWN)))
		return roce_psn_start(psn + 1);
	/* Behind: at most the window; the word stays. */
	if (off < window)
		return word;
	/* Ahead: less than the window (all of it at the largest window). */
	return off - window < window ? roce_psn_start(psn + 1) : 0;
}

#endif /* _ROCECT_PSN_WINDOW_H */

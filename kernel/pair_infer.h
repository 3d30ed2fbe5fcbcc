/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Inferring the QP pair of an RC connection from its PSNs, for traffic that
 * never used RDMA CM. Pure: no kernel-only API, shared with the userspace
 * unit tests.
 *
 * The rule: host A's requests to B's QP x and B's responses (ACK, NAK,
 * READ responses, ATOMIC ACK) to A's QP y belong to one connection when
 * the responses' PSNs agree with the requests' PSNs: a response names the
 * PSN of a request it answers, so it lies within the PSNs of the requests
 * seen, at most ROCE_PAIR_BEHIND behind the newest (a READ response up to
 * ROCE_PAIR_AHEAD ahead of its READ request). A response is evidence for
 * the pair (x, y) only if exactly one QP that A recently sent requests to
 * agrees with it and its PSN is newer than the last evidence's; the pair
 * is inferred after ROCE_PAIR_EVIDENCE pieces of evidence for the same
 * (x, y), unless a slot was given up for another QP meanwhile (the true
 * requester's may have been). QPs whose PSNs stay close to each other (all
 * starting at 0, as NCCL's and UCX's do, and moving in lockstep) stay
 * unpaired rather than paired wrongly.
 */
#ifndef _ROCECT_PAIR_INFER_H
#define _ROCECT_PAIR_INFER_H

#include "wire.h"

enum roce_pair_const {
	/* QPs of one host pair that requests are remembered for. */
	ROCE_PAIR_SLOTS		= 8,
	/* &roce_pair_hosts.used with every slot taken (fewer than 32 slots). */
	ROCE_PAIR_ALL_USED	= (1u << ROCE_PAIR_SLOTS) - 1,
	/* Agreeing responses, with distinct PSNs, that make a pair. */
	ROCE_PAIR_EVIDENCE	= 3,
	/*
	 * How far a response's PSN may lie behind the last request's: the
	 * requests in flight (perftest: 128 messages of up to 64 packets).
	 */
	ROCE_PAIR_BEHIND	= 16384,
	/* How far a READ response may lie ahead of its READ request. */
	ROCE_PAIR_AHEAD		= 4096,
};

/**
 * struct roce_pair_slot - requests of one host to one QP of another
 * @dqpn: their destination QP
 * @first_psn: the oldest request's PSN (since the slot was taken)
 * @psn: the newest request's PSN
 * @seen: the caller's clock at the newest request
 * @peer: the QP the evidence so far names as their source
 * @last_psn: the PSN of the last piece of evidence
 * @evict_gen: &roce_pair_hosts.evictions when the evidence began
 * @evidence: pieces of evidence for @peer
 */
struct roce_pair_slot {
	u32 dqpn;
	u32 first_psn;
	u32 psn;
	u32 seen;
	u32 peer;
	u32 last_psn;
	u32 evict_gen;
	u8 evidence;
};

/**
 * struct roce_pair_hosts - what is remembered of one host's requests to
 *	another (one direction of a pair of addresses)
 * @slot: the QPs requests went to, least recently used replaced first
 * @evictions: slots given up for another QP
 * @used: bit i set: slot i holds a QP (a mask, so that a flood of new QPs
 *	finds a free slot, or none, in one test)
 */
struct roce_pair_hosts {
	struct roce_pair_slot slot[ROCE_PAIR_SLOTS];
	u32 evictions;
	u32 used;
};

/**
 * enum roce_pair_result - what a response told
 * @ROCE_PAIR_NONE: no recent request agrees with it
 * @ROCE_PAIR_AMBIGUOUS: requests to several QPs agree with it
 * @ROCE_PAIR_EVIDENCE_ADDED: one more piece of evidence, not enough yet
 * @ROCE_PAIR_FOUND: the pair is inferred
 */
enum roce_pair_result {
	ROCE_PAIR_NONE,
	ROCE_PAIR_AMBIGUOUS,
	ROCE_PAIR_EVIDENCE_ADDED,
	ROCE_PAIR_FOUND,
};

/* @a - @b as a signed 24-bit serial-number difference: PSNs wrap. */
static inline int roce_psn_diff(u32 a, u32 b)
{
	return (int)((a - b) << 8) >> 8;
}

/* By opcode: 1 for a responder's packets, 0 for the rest (pair_infer.c). */
extern const u8 roce_response_opcodes[256];

/**
 * roce_pair_is_response() - is this a responder's packet (RC or XRC)?
 * @opcode: BTH opcode
 *
 * Inline: learn calls it for every packet of a QP without an entry.
 *
 * Return: true for READ responses, ACK (and NAK) and ATOMIC ACK.
 */
static inline bool roce_pair_is_response(u8 opcode)
{
	/* One load: the data path asks for every RC and UC packet. */
	return roce_response_opcodes[opcode];
}

void roce_pair_request(struct roce_pair_hosts *h, u32 dqpn, u32 psn, u32 now);
enum roce_pair_result roce_pair_response(struct roce_pair_hosts *h, u8 opcode,
					 u32 to_qpn, u32 psn, u32 now,
					 u32 max_age, u32 *dqpn);

#endif /* _ROCECT_PAIR_INFER_H */

// SPDX-License-Identifier: GPL-2.0
/*
 * The PSN rule that infers an RC connection's QP pair (see pair_infer.h).
 * The caller keeps one struct roce_pair_hosts per ordered pair of addresses
 * and serialises calls on it; the clock is the caller's (jiffies in the
 * kernel), compared only by difference.
 */
#include "pair_infer.h"

/*
 * 1 for a responder's opcodes: READ responses, ACK (and NAK) and ATOMIC
 * ACK (operations 0x0d to 0x12) of RC (transport 0) and XRC (5).
 */
const u8 roce_response_opcodes[256] = {
	[0x0d ... 0x12] = 1,
	[0xad ... 0xb2] = 1,
};

static bool is_read_response(u8 opcode)
{
	u8 op = opcode & 0x1f;

	return op >= 0x0d && op <= 0x10;
}

/**
 * roce_pair_request() - remember a request from one host to another's QP
 * @h: the requests of this ordered pair of addresses
 * @dqpn: the request's destination QP
 * @psn: its PSN
 * @now: the caller's clock
 *
 * A retransmission (a PSN shortly behind the newest) leaves the newest PSN
 * as it is; any other PSN, including a jump of a reused QP, replaces it.
 */
void roce_pair_request(struct roce_pair_hosts *h, u32 dqpn, u32 psn, u32 now)
{
	struct roce_pair_slot *s, *v, *end = h->slot + ROCE_PAIR_SLOTS;
	u32 oldest;
	int d;

	/*
	 * The QP's slot first, then a victim: a flood of new QPs walks twice
	 * with one test each, not once with the LRU's tests on every slot.
	 */
	for (s = h->slot; s < end; s++) {
		if (s->dqpn != dqpn || !(h->used & (1u << (s - h->slot))))
			continue;
		d = roce_psn_diff(s->psn, psn);
		/* A jump (a reused QP) starts the range afresh. */
		if (d > ROCE_PAIR_BEHIND || d < -ROCE_PAIR_BEHIND)
			s->first_psn = psn;
		if (d < 0 || d > ROCE_PAIR_BEHIND)
			s->psn = psn;
		s->seen = now;
		return;
	}
	/* The first free slot, else the least recently seen (first of equals). */
	if (h->used != ROCE_PAIR_ALL_USED) {
		v = &h->slot[__builtin_ctz(~h->used)];
	} else {
		v = h->slot;
		oldest = now - v->seen;
		for (s = h->slot + 1; s < end; s++) {
			if (now - s->seen > oldest) {
				v = s;
				oldest = now - s->seen;
			}
		}
		h->evictions++;
	}
	h->used |= 1u << (v - h->slot);
	v->dqpn = dqpn;
	v->first_psn = psn;
	v->psn = psn;
	v->seen = now;
	v->peer = 0;
	v->last_psn = 0;
	v->evict_gen = 0;
	v->evidence = 0;
}

/*
 * Does a response with @psn answer the requests seen in @s? It lies at or
 * after the oldest of them and at most ROCE_PAIR_BEHIND behind the newest
 * (a READ response: up to ROCE_PAIR_AHEAD ahead of it). A blind forger
 * must hit that range, which is as narrow as the requests seen.
 */
static bool agrees(const struct roce_pair_slot *s, u8 opcode, u32 psn)
{
	int d = roce_psn_diff(s->psn, psn);

	if (roce_psn_diff(psn, s->first_psn) < 0)
		return false;
	if (d >= 0)
		return d <= ROCE_PAIR_BEHIND;
	return is_read_response(opcode) && -d <= ROCE_PAIR_AHEAD;
}

/**
 * roce_pair_response() - weigh a response from the other host
 * @h: the requests of the ordered pair of addresses the response answers
 *	(its destination to its source)
 * @opcode: the response's BTH opcode (roce_pair_is_response())
 * @to_qpn: its destination QP: the requester's QP
 * @psn: its PSN
 * @now: the caller's clock
 * @max_age: requests older than this (in the clock's units) are not
 *	weighed
 * @dqpn: on %ROCE_PAIR_FOUND, the QP the requests from @to_qpn went to
 *
 * On %ROCE_PAIR_FOUND the slot is freed: the caller now tracks the pair.
 *
 * Return: &enum roce_pair_result.
 */
enum roce_pair_result roce_pair_response(struct roce_pair_hosts *h, u8 opcode,
					 u32 to_qpn, u32 psn, u32 now,
					 u32 max_age, u32 *dqpn)
{
	struct roce_pair_slot *s, *match = NULL;
	unsigned int i;

	for (i = 0; i < ROCE_PAIR_SLOTS; i++) {
		s = &h->slot[i];
		if (!(h->used & (1u << i)) || now - s->seen > max_age ||
		    !agrees(s, opcode, psn))
			continue;
		if (match)
			return ROCE_PAIR_AMBIGUOUS;
		match = s;
	}
	if (!match)
		return ROCE_PAIR_NONE;
	if (match->evidence && match->peer == to_qpn) {
		/*
		 * Only a newer PSN is new evidence: not a repeated response
		 * (a retransmission), a late one, or a forger's replay.
		 */
		if (roce_psn_diff(psn, match->last_psn) <= 0)
			return ROCE_PAIR_EVIDENCE_ADDED;
		match->evidence++;
	} else {
		match->peer = to_qpn;
		match->evidence = 1;
		match->evict_gen = h->evictions;
	}
	match->last_psn = psn;
	if (match->evidence < ROCE_PAIR_EVIDENCE)
		return ROCE_PAIR_EVIDENCE_ADDED;
	/* The true requester's slot may have been given up: start over. */
	if (match->evict_gen != h->evictions) {
		match->evidence = 0;
		return ROCE_PAIR_NONE;
	}
	*dqpn = match->dqpn;
	h->used &= ~(1u << (match - h->slot));
	return ROCE_PAIR_FOUND;
}

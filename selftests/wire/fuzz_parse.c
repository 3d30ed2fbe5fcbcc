// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target for the RoCEv2 parser and ICRC: any input, read as a
 * packet from its IP header, must be classified without reading past the
 * buffer (ASan) or undefined behaviour (UBSan), with the capture length
 * both complete and cut short. The result is poisoned before each parse:
 * roce_parse() does not clear it, so every field its class defines must be
 * seen written; and its fast path must agree with the general path.
 */
#include <stdlib.h>

#include "wire.h"

int LLVMFuzzerTestOneInput(const u8 *data, size_t size);

#define POISON 0xa5

/* Fields a well-formed packet defines still hold the poison: abort. */
static void check_written(const struct roce_pkt *pkt)
{
	u8 has_deth;	/* as a byte: a poisoned bool is no bool to read */

	memcpy(&has_deth, &pkt->has_deth, 1);
	if (has_deth > 1)
		abort();
	if ((pkt->family != 4 && pkt->family != 6) ||
	    (pkt->has_deth && pkt->deth_src_qp > ROCE_QPN_MASK) ||
	    pkt->l4_off + 8 > pkt->len || pkt->payload_off > pkt->len)
		abort();
}

/*
 * Parse into @pkt, poisoned first, and hold roce_parse()'s fast path to the
 * general path's result, byte for byte: abort if they differ.
 */
static enum roce_class parse(const u8 *ip, u32 caplen, u32 pktlen,
			     struct roce_pkt *pkt)
{
	struct roce_pkt general;
	enum roce_class class;

	memset(pkt, POISON, sizeof(*pkt));
	memset(&general, POISON, sizeof(general));
	class = roce_parse(ip, caplen, pktlen, pkt);
	if (roce_parse_general(ip, caplen, pktlen, &general) != class ||
	    memcmp(pkt, &general, sizeof(general)))
		abort();
	return class;
}

int LLVMFuzzerTestOneInput(const u8 *data, size_t size)
{
	struct roce_pkt pkt;
	u8 *copy;
	u32 len = size > 0xffff ? 0xffff : size;

	/* An exact-size heap copy so ASan sees every overread. */
	copy = malloc(len ? len : 1);
	if (!copy)
		return 0;
	memcpy(copy, data, len);

	if (parse(copy, len, len, &pkt) != ROCE_CLASS_MALFORMED) {
		if (pkt.class >= ROCE_CLASS_MAX || pkt.len > len ||
		    pkt.payload_off + pkt.payload_len > pkt.len)
			abort();
		check_written(&pkt);
		roce_icrc_verify(copy, pkt.l4_off, pkt.len);
	} else if (pkt.malformed == ROCE_MAL_NONE ||
		   pkt.malformed >= ROCE_MAL_MAX) {
		abort();
	}
	free(copy);
	/*
	 * The packet claims more bytes than were captured, as when the helper
	 * copies only the head of a paged skb: nothing past the capture may be
	 * read, the ICRC check of a CM MAD included.
	 */
	len /= 2;
	copy = malloc(len ? len : 1);
	if (!copy)
		return 0;
	memcpy(copy, data, len);
	parse(copy, len, size > 0xffff ? 0xffff : size, &pkt);
	if (pkt.class == ROCE_CLASS_MALFORMED && pkt.malformed == ROCE_MAL_NONE)
		abort();
	if (pkt.class == ROCE_CLASS_CM) {
		if (pkt.len > len)
			abort();
		roce_icrc_verify(copy, pkt.l4_off, pkt.len);
	}
	free(copy);
	return 0;
}

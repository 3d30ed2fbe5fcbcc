// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target for the RoCEv2 parser and ICRC: any input, read as a
 * packet from its IP header, must be classified without reading past the
 * buffer (ASan) or undefined behaviour (UBSan), with the capture length
 * both complete and cut short.
 */
#include <stdlib.h>

#include "wire.h"

int LLVMFuzzerTestOneInput(const u8 *data, size_t size);

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

	if (roce_parse(copy, len, len, &pkt) != ROCE_CLASS_MALFORMED) {
		if (pkt.class >= ROCE_CLASS_MAX || pkt.len > len ||
		    pkt.payload_off + pkt.payload_len > pkt.len)
			abort();
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
	roce_parse(copy, len, size > 0xffff ? 0xffff : size, &pkt);
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

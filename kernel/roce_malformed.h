/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Why a packet is malformed: ROCE_MAL(NAME, "name"), in the order of
 * &enum roce_malformed and the uapi's ROCECT_MALFORMED_*.
 *
 * The name is what counters, the CLI and the netlink spec's enums call the
 * member. No include guard: included once per table, with ROCE_MAL(name,
 * str) defined as that table needs. A new line needs, besides: the uapi
 * member of the same NAME at the same place (an ABI change for every
 * member after it: add at the end), the spec's entry
 * (scripts/spec_check.py compares), the admin guide's table and what the
 * parser (wire.c) does with it.
 */
ROCE_MAL(NONE, "none")			/* well formed */
ROCE_MAL(CAPTURE, "capture")		/* headers past the capture */
ROCE_MAL(IP_TRUNCATED, "ip-truncated")	/* shorter than its IP header */
ROCE_MAL(IP_VERSION, "ip-version")	/* neither 4 nor 6 */
ROCE_MAL(IP_HEADER_LEN, "ip-header-len") /* IHL < 5 or past the packet */
ROCE_MAL(IP_TOTAL_LEN, "ip-total-len")	/* IP length past the packet */
ROCE_MAL(IP_FRAGMENT, "ip-fragment")	/* a fragment */
ROCE_MAL(IPV6_EXTHDR, "ipv6-exthdr")	/* truncated, ESP or AH, too many */
ROCE_MAL(NOT_UDP, "not-udp")		/* another transport */
ROCE_MAL(UDP_LEN, "udp-len")		/* UDP and IP lengths disagree */
ROCE_MAL(BTH_TRUNCATED, "bth-truncated") /* no room for BTH and ICRC */
ROCE_MAL(BTH_VERSION, "bth-version")	/* transport version not 0 */
ROCE_MAL(EXT_TRUNCATED, "ext-truncated") /* extension headers, pad */
ROCE_MAL(MAD_TRUNCATED, "mad-truncated") /* QP1 without a whole MAD */
ROCE_MAL(MAD_VERSION, "mad-version")	/* MAD or CM class version */
ROCE_MAL(CNP_LEN, "cnp-len")		/* CNP payload not 16 bytes */
ROCE_MAL(MAD_LEN, "mad-len")		/* QP1 longer than one MAD */

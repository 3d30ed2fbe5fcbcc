/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What a RoCEv2 packet is: ROCE_CLASS(NAME, "name"), in the order of
 * &enum roce_class and the uapi's ROCECT_CLASS_*.
 *
 * The name is what counters, the CLI and the netlink spec's enums call the
 * member. No include guard: included once per table, with ROCE_CLASS(name,
 * str) defined as that table needs. A new line needs, besides: the uapi
 * member of the same NAME at the same place (an ABI change for every
 * member after it: add at the end), the spec's entry
 * (scripts/spec_check.py compares), the admin guide's table and what the
 * parser (wire.c) does with it.
 */
ROCE_CLASS(MALFORMED, "malformed")	/* see &roce_pkt.malformed */
ROCE_CLASS(CM, "cm")			/* a CM MAD on QP1 */
ROCE_CLASS(GSI_OTHER, "gsi-other")	/* another MAD class on QP1 */
ROCE_CLASS(RC, "rc")			/* reliable connected */
ROCE_CLASS(UC, "uc")			/* unreliable connected */
ROCE_CLASS(RD, "rd")			/* reliable datagram */
ROCE_CLASS(UD, "ud")			/* unreliable datagram, not QP1 */
ROCE_CLASS(XRC, "xrc")			/* extended reliable connected */
ROCE_CLASS(CNP, "cnp")			/* congestion notification */
ROCE_CLASS(UNKNOWN_OPCODE, "unknown-opcode") /* reserved, vendor's */

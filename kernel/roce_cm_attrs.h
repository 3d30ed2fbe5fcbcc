/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The CM attributes the helper counts and tracks: ROCE_CM_ATTR(NAME,
 * "name") for the attribute ID ROCE_CM_NAME (&enum roce_cm_attr), in the
 * order of &enum roce_cm_kind and the uapi's ROCECT_CM_* (whose OTHER
 * comes after them).
 *
 * The name is what counters, the CLI and the netlink spec's enums call the
 * member. No include guard: included once per table, with
 * ROCE_CM_ATTR(name, str) defined as that table needs. A new line
 * needs, besides: the uapi member of the same NAME at the same place (an
 * ABI change for every member after it: add at the end), the spec's entry
 * (scripts/spec_check.py compares), the admin guide's table and what cm.c
 * and cm_fsm.c do with it.
 */
ROCE_CM_ATTR(REQ, "req")		/* connection request */
ROCE_CM_ATTR(MRA, "mra")		/* message receipt acknowledgment */
ROCE_CM_ATTR(REJ, "rej")		/* reject */
ROCE_CM_ATTR(REP, "rep")		/* reply to request */
ROCE_CM_ATTR(RTU, "rtu")		/* ready to use */
ROCE_CM_ATTR(DREQ, "dreq")		/* disconnect request */
ROCE_CM_ATTR(DREP, "drep")		/* disconnect reply */
ROCE_CM_ATTR(SIDR_REQ, "sidr-req")	/* service ID resolution request */
ROCE_CM_ATTR(SIDR_REP, "sidr-rep")	/* its reply */
ROCE_CM_ATTR(LAP, "lap")		/* load alternate path */
ROCE_CM_ATTR(APR, "apr")		/* alternate path response */

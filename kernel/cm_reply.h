/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The CM replies the service policy sends in a server's name (cm_reply.c):
 * pure code, compiled into the module and into the unit tests.
 */
#ifndef _ROCECT_CM_REPLY_H
#define _ROCECT_CM_REPLY_H

#include "wire.h"

/* IBTA REJ reason 8: Invalid Service ID; SIDR_REP status 1: not supported. */
#define ROCE_REJ_INVALID_SERVICE_ID	8
#define ROCE_SIDR_UNSUPPORTED		1

enum {
	ROCE_CM_REPLY_LEN_V4 = 20 + 8 + ROCE_BTH_LEN + ROCE_DETH_LEN +
			       ROCE_MAD_LEN + ROCE_ICRC_LEN,
	ROCE_CM_REPLY_LEN_V6 = ROCE_CM_REPLY_LEN_V4 + 20,
};

/**
 * struct roce_cm_reply - what a reply to a REQ or SIDR_REQ is built from
 * @ip: its IP and UDP headers: from the REQ's destination to its source
 * @pkey: the REQ's BTH P_Key
 * @tid: the REQ's MAD transaction ID
 * @comm_id: the REQ's local communication ID (SIDR: its request ID)
 * @service_id: SIDR: the SIDR_REQ's Service ID
 * @sidr: answer a SIDR_REQ with a SIDR_REP, else a REQ with a REJ
 * @reason: REJ reason, or SIDR_REP status
 */
struct roce_cm_reply {
	struct roce_ip_udp ip;
	u16 pkey;
	u64 tid;
	u32 comm_id;
	u64 service_id;
	bool sidr;
	u16 reason;
};

u32 roce_cm_reply_build(u8 *buf, u32 buflen, const struct roce_cm_reply *r);

#endif /* _ROCECT_CM_REPLY_H */

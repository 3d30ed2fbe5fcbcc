/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _ROCECT_STATS_H
#define _ROCECT_STATS_H

#include <linux/percpu.h>

#include "wire.h"

struct rocect_net;

/* Event counters besides the per-class ones. */
enum rocect_counter {
	ROCECT_CTR_ICRC_BAD,
	ROCECT_CTR_TABLE_FULL,
	ROCECT_CTR_QP_CREATED,
	ROCECT_CTR_QP_DESTROYED,
	ROCECT_CTR_QP_EXPIRED,
	ROCECT_CTR_UNKNOWN_QP_DROPPED,
	ROCECT_CTR_CONN_CREATED,
	ROCECT_CTR_CONN_DESTROYED,
	ROCECT_CTR_CONN_EXPIRED,
	ROCECT_CTR_CONN_FULL,
	ROCECT_CTR_CM_UNMATCHED,
	ROCECT_CTR_CM_UNEXPECTED,
	ROCECT_CTR_QP_CONFLICT,
	ROCECT_CTR_EXPECT_CREATED,
	ROCECT_CTR_EXPECT_FAILED,
	ROCECT_CTR_CE,
	ROCECT_CTR_CNP_SENT,
	ROCECT_CTR_CNP_INTERVAL,
	ROCECT_CTR_CNP_CAPPED,
	ROCECT_CTR_CNP_NO_ROUTE,
	ROCECT_CTR_CNP_UNKNOWN_QP,
	ROCECT_CTR_CONN_EVICTED,
	ROCECT_CTR_CM_SPOOFED,
	ROCECT_CTR_GSO,
	ROCECT_CTR_DROP_MALFORMED,
	ROCECT_CTR_DROP_UNKNOWN_OPCODE,
	ROCECT_CTR_DROP_ICRC,
	ROCECT_CTR_DROP_SPOOFED,
	ROCECT_CTR_DROP_GSO,
	ROCECT_CTR_CNP_TX_DROPPED,
	ROCECT_CTR_MAX
};

/**
 * struct rocect_stats - per-CPU counters of one network namespace
 * @packets: packets the helper inspected
 * @class: packets per &enum roce_class
 * @malformed: malformed packets per &enum roce_malformed
 * @cm: CM MADs per &enum roce_cm_kind
 * @ctr: events per &enum rocect_counter
 */
struct rocect_stats {
	u64 packets;
	u64 class[ROCE_CLASS_MAX];
	u64 malformed[ROCE_MAL_MAX];
	u64 cm[ROCE_CM_KIND_MAX];
	u64 ctr[ROCECT_CTR_MAX];
};

void rocect_stats_packet(struct rocect_net *rn, const struct roce_pkt *pkt);
void rocect_stats_inc(struct rocect_net *rn, enum rocect_counter ctr);
void rocect_stats_sum(struct rocect_net *rn, struct rocect_stats *sum);
void rocect_stats_reset(struct rocect_net *rn);
int rocect_stats_net_init(struct rocect_net *rn);
void rocect_stats_net_exit(struct rocect_net *rn);

#endif /* _ROCECT_STATS_H */

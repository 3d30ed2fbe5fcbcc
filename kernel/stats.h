/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _ROCECT_STATS_H
#define _ROCECT_STATS_H

#include <linux/percpu.h>
#include <net/net_namespace.h>

#include "wire.h"

/**
 * struct rocect_stats - per-CPU packet counters of one network namespace
 * @packets: packets the helper inspected
 * @class: packets per &enum roce_class
 * @malformed: malformed packets per &enum roce_malformed
 * @cm: CM MADs per &enum roce_cm_kind
 * @icrc_bad: CM MADs whose ICRC did not match
 */
struct rocect_stats {
	u64 packets;
	u64 class[ROCE_CLASS_MAX];
	u64 malformed[ROCE_MAL_MAX];
	u64 cm[ROCE_CM_KIND_MAX];
	u64 icrc_bad;
};

void rocect_stats_count(struct net *net, const struct roce_pkt *pkt,
			bool icrc_bad);
int rocect_stats_init(void);
void rocect_stats_exit(void);

#endif /* _ROCECT_STATS_H */

/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _ROCECT_CNP_POLICY_H
#define _ROCECT_CNP_POLICY_H

#include <linux/skbuff.h>
#include <linux/spinlock.h>

#include "wire.h"

struct rocect_net;
struct rocect_qp;

/**
 * struct rocect_cnp_bucket - a token bucket: the namespace's budget of CNPs,
 *	or of the service policy's REJs
 * @lock: protects the other fields
 * @credit_ns: accumulated budget, in nanoseconds of sending time
 * @last_ns: when @credit_ns was last topped up
 */
struct rocect_cnp_bucket {
	spinlock_t lock;	/* credit_ns and last_ns */
	u64 credit_ns;
	u64 last_ns;
};

void rocect_cnp_ce(struct rocect_net *rn, struct sk_buff *skb,
		   struct rocect_qp *qp, const struct roce_pkt *pkt);
int rocect_cnp_send(struct rocect_net *rn, struct rocect_qp *qp);
void rocect_cnp_net_init(struct rocect_cnp_bucket *b);
bool rocect_bucket_take(struct rocect_cnp_bucket *b, u32 rate);

#endif /* _ROCECT_CNP_POLICY_H */

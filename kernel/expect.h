/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _ROCECT_EXPECT_H
#define _ROCECT_EXPECT_H

#include <net/netfilter/nf_conntrack_expect.h>

/*
 * Expectation classes, named by the direction of the traffic they admit:
 * "reverse" towards the side that sent REQ (the REP, then its peer's data),
 * "forward" from it (its data to the passive side's QP).
 */
enum rocect_expect_class {
	ROCECT_EXP_REVERSE,
	ROCECT_EXP_FORWARD,
	ROCECT_EXP_CLASS_MAX = ROCECT_EXP_FORWARD,
};

extern const struct nf_conntrack_expect_policy
	rocect_expect_policy[ROCECT_EXP_CLASS_MAX + 1];

struct rocect_net;

void rocect_expect(struct rocect_net *rn, struct nf_conn *ct,
		   enum rocect_expect_class class, const union nf_inet_addr *src,
		   const union nf_inet_addr *dst, bool permanent);
void rocect_expect_keepalive(struct rocect_net *rn, struct nf_conn *ct,
			     const struct sk_buff *skb,
			     const union nf_inet_addr *active,
			     const union nf_inet_addr *passive, bool reverse);

#endif /* _ROCECT_EXPECT_H */

/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _ROCECT_EXPECT_H
#define _ROCECT_EXPECT_H

#include <net/netfilter/nf_conntrack_expect.h>

#include "ct_priv.h"

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

/**
 * enum rocect_expect_flags - how rocect_expect() sets an expectation up
 * @ROCECT_EXP_PERMANENT: admit every such flow until the expectation times
 *	out, not only the first
 * @ROCECT_EXP_RENEW: replace one of the same master and class however
 *	fresh it is: a keepalive's renewal, which must push the timeout out
 * @ROCECT_EXP_OFFLOAD: offload mode's: rocect_offload_child() gives the
 *	helper to the flows that need it (set by rocect_expect())
 */
enum rocect_expect_flags {
	ROCECT_EXP_PERMANENT	= 1 << 0,
	ROCECT_EXP_RENEW	= 1 << 1,
	ROCECT_EXP_OFFLOAD	= 1 << 2,
};

struct rocect_net;

void rocect_expect(struct rocect_net *rn, struct nf_conn *ct,
		   enum rocect_expect_class class, const union nf_inet_addr *src,
		   const union nf_inet_addr *dst, unsigned int flags);
void rocect_expect_rehold(struct rocect_net *rn, struct nf_conn *master,
			  u32 renewed);

/**
 * rocect_expect_hold() - keep a held master's hold through its own packets
 * @rn: the namespace's state
 * @ct: the conntrack of a packet the helper sees
 * @priv: its rocect_ct_priv()
 *
 * Several connections between two hosts share one CM flow (QP1 to QP1).
 * Every packet of it passes conntrack's UDP tracker before the helper, and
 * the tracker sets an unreplied flow back to the UDP timeout (30 s): the
 * second connection's REQ, another one's DREQ, would cut the hold of the
 * master of every established connection, and the keepalive would not
 * renew it within its period. The helper puts the hold back.
 *
 * Context: the helper callback, for every packet: one load unless @ct is
 * a master that a keepalive holds.
 */
static inline void rocect_expect_hold(struct rocect_net *rn,
				      struct nf_conn *ct,
				      const struct rocect_ct_priv *priv)
{
	u32 renewed = READ_ONCE(priv->renewed);

	if (unlikely(renewed))
		rocect_expect_rehold(rn, ct, renewed);
}

void rocect_expect_keepalive(struct rocect_net *rn, struct nf_conn *ct,
			     const union nf_inet_addr *active,
			     const union nf_inet_addr *passive, bool reverse);
bool rocect_expect_renew(struct rocect_net *rn, struct nf_conn *ct,
			 const union nf_inet_addr *active,
			 const union nf_inet_addr *passive, bool reverse);

#endif /* _ROCECT_EXPECT_H */

/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _ROCECT_ADOPT_H
#define _ROCECT_ADOPT_H

#include <linux/types.h>
#include <net/netfilter/nf_conntrack_helper.h>

/**
 * struct rocect_ct_priv - the helper's private area of a conntrack
 * @renewed: a master's last keepalive (expect.c), jiffies; 0: never
 * @flow: how this box came by the conntrack (&enum rocect_flow bits) and,
 *	for an adopted one, the destination QP it was bound to (low 24 bits)
 */
struct rocect_ct_priv {
	u32 renewed;
	u32 flow;
};

/**
 * enum rocect_flow - bits of &rocect_ct_priv.flow
 * @ROCECT_FLOW_SEEN: seen by this box's helper, not adopted
 * @ROCECT_FLOW_ADOPTED: injected through ctnetlink (by conntrackd) and
 *	related through an expectation of this helper
 * @ROCECT_FLOW_BOUND: an adopted flow bound to the QP in the low 24 bits
 */
enum rocect_flow {
	ROCECT_FLOW_SEEN	= BIT(24),
	ROCECT_FLOW_ADOPTED	= BIT(25),
	ROCECT_FLOW_BOUND	= BIT(26),
};

static inline struct rocect_ct_priv *rocect_ct_priv(const struct nf_conn *ct)
{
	return nfct_help_data(ct);
}

struct rocect_net;
struct roce_pkt;

void rocect_flow_first_sight(struct rocect_net *rn, struct nf_conn *ct);
bool rocect_flow_bound(const struct nf_conn *ct,
		       enum ip_conntrack_info ctinfo, u32 dqpn);
bool rocect_flow_adopted(struct net *net, const struct sk_buff *skb,
			 struct nf_conn *ct, enum ip_conntrack_info ctinfo,
			 const struct roce_pkt *pkt);

/**
 * rocect_flow_note() - remember how this box came by a conntrack
 * @rn: the namespace's state
 * @ct: the conntrack of a packet the helper sees
 *
 * Context: the helper callback, for every packet; one load after the
 * conntrack's first.
 */
static inline void rocect_flow_note(struct rocect_net *rn, struct nf_conn *ct)
{
	if (unlikely(!READ_ONCE(rocect_ct_priv(ct)->flow)))
		rocect_flow_first_sight(rn, ct);
}

#endif /* _ROCECT_ADOPT_H */

// SPDX-License-Identifier: GPL-2.0
/*
 * Flows taken over from a peer firewall. conntrackd copies conntracks,
 * their helper's name, their master and the expectations from the active
 * firewall to the backup, but not the helper's QP table. After a failover
 * the backup's helper sees data flows it never saw created: it finds such
 * a flow confirmed on its first packet, which only ctnetlink's injection
 * does (a packet's own conntrack is confirmed after the helper ran). A
 * flow that the peer related to an RDMA CM handshake (its master is one of
 * this helper's conntracks) is adopted: in the unknown-qp drop mode it
 * admits the one destination QP it is first seen carrying (an RDMA flow
 * is one QP's: its UDP source port is chosen per QP), and its packets feed
 * the pair inference, whose pairs become "recovered" entries (learn.c).
 */
#include <net/netfilter/nf_conntrack.h>

#include "adopt.h"
#include "netns.h"

/* Is @ct related through an expectation of this helper? */
static bool related_by_us(const struct nf_conn *ct)
{
	const struct nf_conntrack_helper *helper;
	const struct nf_conn_help *help;

	if (!ct->master)
		return false;
	help = nfct_help(ct->master);
	helper = help ? rcu_dereference(help->helper) : NULL;
	return helper && helper->me == THIS_MODULE;
}

/**
 * rocect_flow_first_sight() - classify a conntrack on its first packet here
 * @rn: the namespace's state
 * @ct: the conntrack
 *
 * Context: the helper callback, rcu_read_lock() held.
 */
void rocect_flow_first_sight(struct rocect_net *rn, struct nf_conn *ct)
{
	u32 flow = ROCECT_FLOW_SEEN;

	BUILD_BUG_ON(sizeof(struct rocect_ct_priv) >
		     sizeof_field(struct nf_conn_help, data));
	if (nf_ct_is_confirmed(ct) && related_by_us(ct))
		flow = ROCECT_FLOW_ADOPTED;
	/* Two CPUs at once on an injected conntrack: the first one counts. */
	if (!cmpxchg(&rocect_ct_priv(ct)->flow, 0, flow) &&
	    flow == ROCECT_FLOW_ADOPTED)
		rocect_stats_inc(rn, ROCECT_CTR_FLOW_ADOPTED);
}

/**
 * rocect_flow_adopted() - does an adopted flow vouch for a packet?
 * @ct: the packet's conntrack
 * @dqpn: its destination QP
 *
 * An adopted flow is bound to the first destination QP asked about; it
 * vouches for that QP only, so that a flow the peer admitted cannot carry
 * packets to any other QP on this box.
 *
 * Context: the helper callback, after rocect_flow_note().
 * Return: true if @ct is adopted and bound to @dqpn.
 */
bool rocect_flow_adopted(struct nf_conn *ct, u32 dqpn)
{
	u32 *flow = &rocect_ct_priv(ct)->flow;
	u32 old = READ_ONCE(*flow);

	/* Binds it, unless another CPU bound it first. */
	if (old == ROCECT_FLOW_ADOPTED &&
	    cmpxchg(flow, old, ROCECT_FLOW_BOUND | dqpn) == old)
		return true;
	return READ_ONCE(*flow) == (ROCECT_FLOW_BOUND | dqpn);
}

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
 * admits the one destination QP it is first seen carrying in its original
 * direction (an RDMA flow is one QP's: its UDP source port is chosen per
 * QP), and its packets feed the pair inference, whose pairs become
 * "recovered" entries (learn.c).
 */
#include <net/netfilter/nf_conntrack.h>

#include "adopt.h"
#include "netns.h"
#include "rpcheck.h"
#include "wire.h"

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
 * rocect_flow_bound() - is an adopted flow bound to a packet's QP?
 * @ct: the packet's conntrack
 * @ctinfo: its conntrack info
 * @dqpn: its destination QP
 *
 * Context: the helper callback, after rocect_flow_note().
 * Return: true if @ct is adopted, bound to @dqpn, and the packet goes the
 *	way the flow does (the reply direction of a RoCE flow, to the
 *	sender's UDP port, carries no RoCE of that flow).
 */
bool rocect_flow_bound(const struct nf_conn *ct,
		       enum ip_conntrack_info ctinfo, u32 dqpn)
{
	return CTINFO2DIR(ctinfo) == IP_CT_DIR_ORIGINAL &&
	       READ_ONCE(rocect_ct_priv(ct)->flow) == (ROCECT_FLOW_BOUND | dqpn);
}

/**
 * rocect_flow_adopted() - does an adopted flow vouch for a data packet?
 * @rn: the namespace's state
 * @skb: the packet
 * @ct: its conntrack
 * @ctinfo: its conntrack info
 * @pkt: the parsed packet
 *
 * An adopted flow is bound to the destination QP of the first data packet
 * that asks, in the flow's own direction and from a source that passes
 * the reverse-path check (as CM MADs must): a third host on another link
 * cannot bind it first. It vouches for that QP only, so that a flow the
 * peer admitted cannot carry packets to any other QP on this box.
 *
 * Context: the helper callback, after rocect_flow_note().
 * Return: true if @ct is adopted and now bound to @pkt's QP.
 */
bool rocect_flow_adopted(struct rocect_net *rn, const struct sk_buff *skb,
			 struct nf_conn *ct, enum ip_conntrack_info ctinfo,
			 const struct roce_pkt *pkt)
{
	u32 *flow = &rocect_ct_priv(ct)->flow, dqpn = roce_bth_dest_qp(&pkt->bth);

	if (CTINFO2DIR(ctinfo) != IP_CT_DIR_ORIGINAL)
		return false;
	/* Binds it, unless another CPU bound it first. */
	if (READ_ONCE(*flow) == ROCECT_FLOW_ADOPTED &&
	    rocect_rp_check(rn, skb, pkt) &&
	    cmpxchg(flow, ROCECT_FLOW_ADOPTED, ROCECT_FLOW_BOUND | dqpn) ==
	    ROCECT_FLOW_ADOPTED)
		return true;
	return rocect_flow_bound(ct, ctinfo, dqpn);
}

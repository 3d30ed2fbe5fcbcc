// SPDX-License-Identifier: GPL-2.0
/*
 * The service policy's reject: a REQ it refuses is answered in its
 * server's name with a REJ (reason Invalid Service ID), a SIDR_REQ with a
 * SIDR_REP (status: Service ID not supported), as a TCP RST answers a SYN,
 * so that the client fails at once rather than retrying for a minute.
 * Sent back the way the REQ came, through the CNPs' transmit path, at most
 * reject-max-rate a second in a namespace.
 */
#include <linux/skbuff.h>
#include <net/addrconf.h>
#include <net/l3mdev.h>

#include "cm_reject.h"
#include "cm_reply.h"
#include "cnp_xmit.h"
#include "netns.h"
#include "rpcheck.h"

/*
 * Answer only a REQ sent to one host from one host, as nf_send_reset()
 * does: one sent to a broadcast or multicast address would be answered
 * by every firewall that sees it, in the group's name.
 */
static bool unicast(const struct sk_buff *skb, const struct roce_pkt *pkt)
{
	const u8 *s = roce_pkt_saddr(pkt), *d = roce_pkt_daddr(pkt);
	__be32 s4, d4;

	if (skb->pkt_type != PACKET_HOST)
		return false;
	if (pkt->family == 6)
		return !ipv6_addr_is_multicast((const struct in6_addr *)d) &&
		       !ipv6_addr_is_multicast((const struct in6_addr *)s) &&
		       !ipv6_addr_any((const struct in6_addr *)s);
	memcpy(&s4, s, 4);
	memcpy(&d4, d, 4);
	return !ipv4_is_multicast(d4) && !ipv4_is_lbcast(d4) &&
	       !ipv4_is_multicast(s4) && !ipv4_is_lbcast(s4) &&
	       !ipv4_is_zeronet(s4);
}

/**
 * rocect_cm_reject() - refuse a REQ or SIDR_REQ in its server's name
 * @rn: the namespace's state
 * @skb: the REQ, which the caller drops
 * @pkt: its parse
 *
 * Counts a reply sent as policy-rejected, one over the rate, to or from a
 * broadcast or multicast address, or that could not be built, routed or
 * sent as policy-rej-unsent.
 *
 * Context: the helper callback (RCU, softirq).
 */
void rocect_cm_reject(struct rocect_net *rn, struct sk_buff *skb,
		      const struct roce_pkt *pkt)
{
	struct roce_cm_reply r = {
		.ip = {
			.family = pkt->family,
			/* The REQ's DSCP, not its ECN: a new packet. */
			.tos = roce_pkt_tos(pkt) & ~3,
			.ttl = 64,
			.sport = roce_pkt_sport(pkt),
			.dport = roce_pkt_dport(pkt),
			.df = true,
		},
		.pkey = roce_bth_pkey(&pkt->bth),
		.tid = pkt->cm.tid,
		.comm_id = pkt->cm.local_comm_id,
		.service_id = pkt->cm.service_id,
		.sidr = pkt->cm.attr_id == ROCE_CM_SIDR_REQ,
	};
	struct rocect_cnp_port port = {};
	union nf_inet_addr to, from;
	struct net_device *in;
	struct sk_buff *reply;
	u32 len;

	r.reason = r.sidr ? ROCE_SIDR_UNSUPPORTED : ROCE_REJ_INVALID_SERVICE_ID;
	if (!unicast(skb, pkt) ||
	    !rocect_bucket_take(&rn->rej,
				rocect_cfg(&rn->config, reject_max_rate)))
		goto unsent;
	roce_addr_widen(&to, roce_pkt_saddr(pkt), pkt->family);
	roce_addr_widen(&from, roce_pkt_daddr(pkt), pkt->family);
	memcpy(r.ip.saddr, &from, 16);
	memcpy(r.ip.daddr, &to, 16);
	len = pkt->family == 4 ? ROCE_CM_REPLY_LEN_V4 : ROCE_CM_REPLY_LEN_V6;
	reply = alloc_skb(LL_MAX_HEADER + len, GFP_ATOMIC);
	if (!reply)
		goto unsent;
	skb_reserve(reply, LL_MAX_HEADER);
	if (roce_cm_reply_build(skb_put(reply, len), len, &r) != len) {
		kfree_skb(reply);
		goto unsent;
	}
	in = rocect_in_dev(rn, skb, pkt->family);
	if (in) {
		port.ifindex = in->ifindex;
		port.l3mdev = l3mdev_master_ifindex_rcu(in);
	}
	if (rocect_xmit_packet(rn, reply, pkt->family, &to, &from, &port, 0))
		goto unsent;
	rocect_stats_inc(rn, ROCECT_CTR_POLICY_REJECTED);
	return;
unsent:
	rocect_stats_inc(rn, ROCECT_CTR_POLICY_REJ_UNSENT);
}

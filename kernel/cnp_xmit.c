// SPDX-License-Identifier: GPL-2.0
/*
 * Sending a CNP, or a CM reply of the service policy's, from the kernel:
 * build it with the wire library, route it in the namespace (from any
 * source address: on a router the packet speaks for the congested flow's
 * receiver, or for the server a REQ asked for), keep it out of conntrack
 * and the helper, and hand it to ip_local_out()/ip6_local_out(), as
 * nf_send_reset() does with its resets.
 */
#include <linux/skbuff.h>
#include <net/ip.h>
#include <net/ip6_route.h>
#include <net/route.h>
#include <net/netfilter/nf_conntrack.h>

#include "netns.h"
#include "wire.h"
#include "cnp_xmit.h"

/* Makes each CNP's ICRC a few table lookups (48 KiB, filled at load). */
static struct roce_cnp_crc cnp_crc;

/**
 * rocect_cnp_xmit_init() - fill the CNP ICRC tables
 */
void rocect_cnp_xmit_init(void)
{
	roce_cnp_crc_init(&cnp_crc);
}

/*
 * An output route in a VRF is asked for with the VRF device as oif: the
 * lookup then takes the VRF's table without binding the CNP to a device.
 */
static int route4(struct net *net, struct sk_buff *skb,
		  const union nf_inet_addr *to, const union nf_inet_addr *from,
		  const struct rocect_cnp_port *port)
{
	struct flowi4 fl4 = {
		.daddr = to->ip,
		.saddr = from->ip,
		.flowi4_oif = port->l3mdev,
		.flowi4_proto = IPPROTO_UDP,
		.flowi4_flags = FLOWI_FLAG_ANYSRC,
	};
	struct rtable *rt;

	rt = ip_route_output_key(net, &fl4);
	if (IS_ERR(rt))
		return PTR_ERR(rt);
	skb_dst_set(skb, &rt->dst);
	return 0;
}

static int route6(struct net *net, struct sk_buff *skb,
		  const union nf_inet_addr *to, const union nf_inet_addr *from,
		  const struct rocect_cnp_port *port)
{
	struct flowi6 fl6 = {
		.daddr = to->in6,
		.saddr = from->in6,
		.flowi6_oif = port->l3mdev,
		.flowi6_proto = IPPROTO_UDP,
	};
	struct dst_entry *dst;
	int err;

	/* fe80::/10 is ambiguous without the link it lives on. */
	if (ipv6_addr_type(&fl6.daddr) & IPV6_ADDR_LINKLOCAL)
		fl6.flowi6_oif = port->ifindex;
	dst = ip6_route_output(net, NULL, &fl6);
	err = dst->error;
	if (err) {
		dst_release(dst);
		return err;
	}
	skb_dst_set(skb, dst);
	return 0;
}

/**
 * rocect_xmit_packet() - send a RoCE packet rocect built
 * @rn: the namespace's state
 * @skb: the packet, its IP header at skb->data; consumed
 * @family: 4 or 6
 * @to: its destination
 * @from: its source, which need not be this host's
 * @port: the interface towards @to (its UDP ports are in the packet)
 * @priority: its skb priority
 *
 * Context: any.
 * Return: 0 when the output path took it; -ENOBUFS when that path dropped
 * it (a full queue, a netfilter rule); another negative errno when it was
 * not routed.
 */
int rocect_xmit_packet(struct rocect_net *rn, struct sk_buff *skb, u8 family,
		       const union nf_inet_addr *to,
		       const union nf_inet_addr *from,
		       const struct rocect_cnp_port *port, u32 priority)
{
	struct net *net = rn->net;
	int err;

	skb_reset_network_header(skb);
	skb_set_transport_header(skb, family == 4 ? sizeof(struct iphdr) :
					     sizeof(struct ipv6hdr));
	skb->protocol = htons(family == 4 ? ETH_P_IP : ETH_P_IPV6);
	skb->priority = priority;
	/* Not a new flow to track, and never back through the helper. */
	nf_ct_set(skb, NULL, IP_CT_UNTRACKED);

	err = family == 4 ? route4(net, skb, to, from, port) :
			    route6(net, skb, to, from, port);
	if (err) {
		kfree_skb(skb);
		return err;
	}
	/* Count only what left: a full queue is a packet never seen. */
	err = family == 4 ? ip_local_out(net, NULL, skb) :
			    ip6_local_out(net, NULL, skb);
	return net_xmit_eval(err) ? -ENOBUFS : 0;
}

/**
 * rocect_xmit_cnp() - send one CNP
 * @rn: the namespace's state
 * @family: 4 or 6
 * @to: its destination: the sender of the congested flow
 * @from: its source: that flow's destination
 * @dest_qp: the QP that must slow down
 * @port: UDP ports and the interface towards @to
 * @pkey: BTH partition key
 *
 * DSCP, ECN, TTL and skb priority come from the namespace's configuration.
 *
 * Context: any; allocates atomically.
 * Return: 0 when the output path took it; -ENOBUFS when that path dropped
 * it (a full queue, a netfilter rule); another negative errno when it was
 * not built or routed (no route, no memory).
 */
int rocect_xmit_cnp(struct rocect_net *rn, u8 family,
		    const union nf_inet_addr *to,
		    const union nf_inet_addr *from, u32 dest_qp,
		    const struct rocect_cnp_port *port, u16 pkey)
{
	const struct rocect_config *c = &rn->config;
	struct roce_cnp_params p = {
		.ip = {
			.family = family,
			.tos = rocect_cfg(c, cnp_dscp) << 2 |
			       rocect_cfg(c, cnp_ecn),
			.ttl = rocect_cfg(c, cnp_ttl),
			.sport = port->sport,
			.dport = port->dport,
			.df = true,
		},
		.pkey = pkey,
		.dest_qp = dest_qp,
	};
	struct sk_buff *skb;
	u32 len;

	memcpy(p.ip.saddr, from, sizeof(p.ip.saddr));
	memcpy(p.ip.daddr, to, sizeof(p.ip.daddr));
	len = family == 4 ? ROCE_CNP_LEN_V4 : ROCE_CNP_LEN_V6;
	skb = alloc_skb(LL_MAX_HEADER + len, GFP_ATOMIC);
	if (!skb)
		return -ENOMEM;
	skb_reserve(skb, LL_MAX_HEADER);
	if (roce_cnp_build(skb_put(skb, len), len, &p, &cnp_crc) != len) {
		kfree_skb(skb);
		return -EINVAL;
	}
	return rocect_xmit_packet(rn, skb, family, to, from, port,
				  rocect_cfg(c, cnp_priority));
}

// SPDX-License-Identifier: GPL-2.0
/*
 * Reverse-path check of CM MADs, as nft's "fib saddr . iif oif" and the
 * rpfilter match do it: a MAD is believed only if the route back to its
 * source leaves through the interface it came in on, in that interface's
 * VRF. Without it, a host on one side of a router could speak for a host
 * on the other (forge the REP) and open the unknown-qp drop policy for
 * itself, rp_filter or not.
 */
#include <linux/netdevice.h>
#include <net/ip.h>
#include <net/ip_fib.h>
#include <net/ip6_fib.h>
#include <net/ip6_route.h>
#include <net/ipv6.h>
#include <net/l3mdev.h>
#include <net/route.h>

#include "netns.h"
#include "rpcheck.h"

/* Where this host's own packets come in: loopback, or a VRF's device. */
static bool local_dev(const struct net_device *dev)
{
	return dev->flags & IFF_LOOPBACK || netif_is_l3_master(dev);
}

static bool rp_ok4(struct net *net, const struct net_device *dev,
		   const struct roce_pkt *pkt)
{
	struct flowi4 fl4 = {
		.flowi4_iif = LOOPBACK_IFINDEX,
		.flowi4_l3mdev = l3mdev_master_ifindex_rcu(dev),
		.flowi4_scope = RT_SCOPE_UNIVERSE,
	};
	struct fib_result res;

	memcpy(&fl4.daddr, roce_pkt_saddr(pkt), sizeof(fl4.daddr));
	if (fib_lookup(net, &fl4, &res, FIB_LOOKUP_IGNORE_LINKSTATE))
		return false;
	if (res.type == RTN_LOCAL)
		return local_dev(dev);
	return res.type == RTN_UNICAST && fib_info_nh_uses_dev(res.fi, dev);
}

static bool rp_ok6(struct net *net, const struct net_device *dev,
		   const struct sk_buff *skb, const struct roce_pkt *pkt)
{
	struct flowi6 fl6 = {
		.flowi6_iif = LOOPBACK_IFINDEX,
		.flowi6_oif = dev->ifindex,
		.flowi6_l3mdev = l3mdev_master_ifindex_rcu(dev),
		.flowi6_proto = IPPROTO_UDP,
	};
	int flags = 0, type;
	struct rt6_info *rt;
	bool ok = false;

	memcpy(&fl6.daddr, roce_pkt_saddr(pkt), sizeof(fl6.daddr));
	type = ipv6_addr_type(&fl6.daddr);
	if (type & IPV6_ADDR_LINKLOCAL)
		flags |= RT6_LOOKUP_F_IFACE;
	rt = (struct rt6_info *)ip6_route_lookup(net, &fl6, skb, flags);
	if (rt->dst.error || !rt->rt6i_idev ||
	    (rt->rt6i_flags & (RTF_REJECT | RTF_ANYCAST)))
		goto out;
	if (rt->rt6i_flags & RTF_LOCAL)
		ok = local_dev(dev);
	else
		ok = rt->rt6i_idev->dev == dev;
out:
	ip6_rt_put(rt);
	return ok;
}

/* Does @pkt's source route back through @dev, in @dev's VRF? */
static bool rp_ok(struct net *net, const struct net_device *dev,
		  const struct sk_buff *skb, const struct roce_pkt *pkt)
{
	return pkt->family == 4 ? rp_ok4(net, dev, pkt) :
				  rp_ok6(net, dev, skb, pkt);
}

/*
 * A VRF puts its own device in skb_iif when it takes a packet in; the
 * enslaved interface stays in the IP control block, as inet_sdif() reads
 * it. The block is believed only where it names a slave of that VRF: on
 * the bridge family's and tc's paths the control block is theirs.
 */
static struct net_device *vrf_slave(struct net *net, const struct sk_buff *skb,
				    struct net_device *vrf, u8 family)
{
	struct net_device *slave;
	int iif = 0;

	if (family == 4 && IPCB(skb)->flags & IPSKB_L3SLAVE)
		iif = IPCB(skb)->iif;
	else if (family == 6 && IP6CB(skb)->flags & IP6SKB_L3SLAVE)
		iif = IP6CB(skb)->iif;
	slave = iif ? dev_get_by_index_rcu(net, iif) : NULL;
	if (slave && netif_is_l3_slave(slave) &&
	    l3mdev_master_ifindex_rcu(slave) == vrf->ifindex)
		return slave;
	return vrf;
}

/**
 * rocect_in_dev() - the interface routing knows a packet came in on
 * @rn: the namespace's state
 * @skb: the packet
 * @family: 4 or 6
 *
 * The enslaved interface a VRF took the packet in on, not the VRF; for a
 * packet that came in on a bridge port, the bridge: routing knows the
 * bridge, not the port behind which a host sits (as rpfilter sees bridged
 * packets under br_netfilter).
 *
 * Context: under rcu_read_lock().
 * Return: the device, or NULL for a packet sent from this host or from an
 * interface that is gone.
 */
struct net_device *rocect_in_dev(struct rocect_net *rn,
				 const struct sk_buff *skb, u8 family)
{
	struct net *net = rn->net;
	struct net_device *dev;

	if (!skb->skb_iif)
		return NULL;
	dev = dev_get_by_index_rcu(net, skb->skb_iif);
	if (dev && netif_is_l3_master(dev))
		return vrf_slave(net, skb, dev, family);
	if (dev && netif_is_bridge_port(dev))
		return netdev_master_upper_dev_get_rcu(dev);
	return dev;
}

/**
 * rocect_arrival() - the interface a QP entry's sender is bound to
 * @rn: the namespace's state
 * @skb: a packet of the sender
 * @family: 4 or 6
 *
 * Finer than rocect_in_dev(): a bridge's port, not the bridge, for bridged
 * packets (both a MAD and the data it binds take the same way), and the
 * enslaved interface of a VRF. Packets of this host (none, loopback or a
 * VRF's own device) are one place.
 *
 * Context: under rcu_read_lock().
 * Return: an ifindex, or 0 for a packet of this host.
 */
int rocect_arrival(struct rocect_net *rn, const struct sk_buff *skb, u8 family)
{
	struct net *net = rn->net;
	struct net_device *dev;

	if (!skb->skb_iif)
		return 0;
	dev = dev_get_by_index_rcu(net, skb->skb_iif);
	if (!dev)
		return skb->skb_iif;
	if (netif_is_l3_master(dev))
		dev = vrf_slave(net, skb, dev, family);
	return rocect_dev_arrival(dev);
}

/**
 * rocect_dev_arrival() - rocect_arrival() of a packet that came in on @dev
 * @dev: the interface, a VRF's enslaved one rather than the VRF
 *
 * Also what an operator's binding to @dev means (netlink's qp-new).
 *
 * Return: 0 for this host's own packets (loopback, a VRF's own device),
 * else @dev's ifindex.
 */
int rocect_dev_arrival(const struct net_device *dev)
{
	return local_dev(dev) ? 0 : dev->ifindex;
}

/**
 * rocect_rp_check() - may a CM MAD be believed, as far as routing can tell?
 * @rn: the namespace's state
 * @skb: the MAD
 * @pkt: its parse
 *
 * Locally generated MADs (no input interface) pass: on an endpoint only
 * forgeries that arrive through the wrong interface can be told apart; a
 * host on the same link as the real peer can still speak for it. A bridged
 * MAD is checked against its bridge (rocect_in_dev()), which tells on-link
 * sources from others only.
 *
 * Context: the helper callback, under rcu_read_lock().
 * Return: true if the check is off, the MAD is local or its source routes
 * back through its input interface.
 */
bool rocect_rp_check(struct rocect_net *rn, const struct sk_buff *skb,
		     const struct roce_pkt *pkt)
{
	struct net_device *dev;

	if (!rocect_cfg(&rn->config, rp_check) || !skb->skb_iif)
		return true;
	dev = rocect_in_dev(rn, skb, pkt->family);
	if (!dev)
		return false;
	return rp_ok(rn->net, dev, skb, pkt);
}

/**
 * rocect_rp_vouches() - may routing vouch for a QP's packet from elsewhere?
 * @rn: the namespace's state
 * @skb: a data packet or CNP that came in on another interface than the
 *	one its entry is bound to
 * @pkt: its parse
 *
 * With ECMP, or after a route or link change, a sender's packets can come
 * in on another interface than its CM MADs did: they are believed if its
 * source routes back through the interface they came in on, as the
 * rpfilter match would. Not for bridged packets (routing knows the bridge,
 * not the port), nor with rp-check off (routing is asymmetric on purpose).
 *
 * Context: the helper callback, under rcu_read_lock().
 * Return: true if the reverse-path check vouches for the packet.
 */
bool rocect_rp_vouches(struct rocect_net *rn, const struct sk_buff *skb,
		       const struct roce_pkt *pkt)
{
	struct net_device *dev;

	if (!rocect_cfg(&rn->config, rp_check) || !skb->skb_iif)
		return false;
	dev = rocect_in_dev(rn, skb, pkt->family);
	if (!dev || dev->ifindex != rocect_arrival(rn, skb, pkt->family))
		return false;
	return rp_ok(rn->net, dev, skb, pkt);
}

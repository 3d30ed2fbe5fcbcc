// SPDX-License-Identifier: GPL-2.0
/*
 * The guard of offload guarded. Offload mode admits the data flow that one
 * pair alone explains without the helper (offload.c), so that nft's
 * flowtable can forward it from its netdev ingress hook. In guarded mode a
 * netdev ingress hook of rocect's on every device of the namespace, ahead
 * of any flowtable's, gives each packet of such a flow the helper's
 * per-QP checks (rocect_data_verdict(), rocect_class_verdict()), whether
 * the flowtable or conntrack forwards it afterwards. Packets of other
 * flows pass untouched: conntrack and the helper see them later.
 *
 * Bridge and bond ports are left alone: their packets rise to the upper
 * device and are checked there, once, where the helper would see them.
 * VLAN devices are the exception (vlan_round()).
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/if_vlan.h>
#include <linux/ip.h>
#include <linux/ipv6.h>
#include <linux/netdevice.h>
#include <linux/netfilter.h>
#include <linux/rtnetlink.h>
#include <linux/slab.h>
#include <linux/udp.h>
#include <net/ip.h>
#include <net/ipv6.h>
#include <uapi/linux/rocect.h>

#include "conn.h"
#include "drop_report.h"
#include "guard.h"
#include "helper.h"
#include "offload.h"
#include "qp_find.h"

/* Ahead of any flowtable's hook, whatever priority its ruleset gives it. */
#define ROCECT_GUARD_PRIORITY	(INT_MIN + 1)

/**
 * struct guard_hook - the guard's hook on one device
 * @ops: registered on the device's ingress
 * @node: in &rocect_net.guard_hooks
 * @rcu: freed after the packets that may still run it
 */
struct guard_hook {
	struct nf_hook_ops ops;
	struct list_head node;
	struct rcu_head rcu;
};

/**
 * struct guard_flow - what the guard reads of a packet before parsing it
 * @family: 4 or 6
 * @saddr: source address, in the packet's header
 * @daddr: destination address
 * @sport: UDP source port
 * @dport: UDP destination port, as it came
 * @pktlen: the IP length
 */
struct guard_flow {
	u8 family;
	const u8 *saddr;
	const u8 *daddr;
	u16 sport;
	__be16 dport;
	u32 pktlen;
};

static bool guarded(const struct rocect_net *rn)
{
	return rocect_cfg(&rn->config, offload) == ROCECT_OFFLOAD_GUARDED;
}

/*
 * Is a data packet, whose entry the lookup found, one of its pair's bare
 * flow? The common case, without the walk of rocect_offload_bare().
 */
static bool entry_flow_bare(const struct rocect_qp *qp,
			    const struct guard_flow *f)
{
	const struct rocect_conn *conn = qp ? rocect_qp_conn(qp) : NULL;

	return conn && READ_ONCE(conn->bare[rocect_qp_dir(qp)]) &&
	       f->sport == READ_ONCE(conn->data_sport) &&
	       f->dport == READ_ONCE(conn->data_dport);
}

static bool flow_bare(struct rocect_net *rn, const struct guard_flow *f)
{
	return rocect_offload_bare(rn, f->family, f->saddr, f->daddr, f->sport,
				   f->dport);
}

/*
 * A packet of a bare flow that cannot be checked as the helper would: a
 * first fragment (conntrack would reassemble the packet and pass it
 * without the helper, and no RoCE sender fragments; the fragments after
 * it then never make a packet), an IPv4 header with a bad checksum (which
 * the flowtable would forward), or a MAD to QP1 (offload keeps the CM's
 * port out of bare flows: one there is forged, and the CM state machine
 * runs on conntracks only). Dropped in drop mode, counted under @ctr.
 */
static unsigned int guard_unfit(struct rocect_net *rn,
				const struct sk_buff *skb,
				const struct guard_flow *f,
				const struct roce_pkt *pkt,
				enum rocect_counter ctr, const char *why)
{
	if (!rocect_strict(rn) || !flow_bare(rn, f))
		return NF_ACCEPT;
	rocect_stats_inc(rn, ctr);
	rocect_drop_report(rn, skb, NULL, pkt, ctr, why);
	return NF_DROP;
}

/*
 * A whole packet to a RoCE port: the helper's checks if of a bare flow.
 * Inline, as are the steps before it, and no buffer zeroed: every packet
 * of an offloaded flow comes this way (make bench: 40 instructions a
 * packet fewer than with the calls).
 */
static __always_inline unsigned int
guard_packet(struct rocect_net *rn, struct sk_buff *skb,
	     const struct guard_flow *f)
{
	u32 caplen = min_t(u32, f->pktlen, ROCECT_CAPTURE_LEN);
	/* As in roce_help(): read only where filled. */
	struct rocect_qp_key key __uninitialized;
	u8 buf[ROCECT_CAPTURE_LEN] __uninitialized;
	struct roce_pkt pkt __uninitialized;
	struct rocect_qp *qp = NULL;
	bool data = false;
	const u8 *ip;

	ip = skb_header_pointer(skb, 0, caplen, buf);
	if (!ip)
		return NF_ACCEPT;
	roce_parse(ip, caplen, f->pktlen, &pkt);
	switch (pkt.class) {
	case ROCE_CLASS_CM:
	case ROCE_CLASS_GSI_OTHER:
		return guard_unfit(rn, skb, f, &pkt, ROCECT_CTR_DROP_SPOOFED,
				   "a MAD");
	case ROCE_CLASS_CNP:
	case ROCE_CLASS_MALFORMED:
	case ROCE_CLASS_UNKNOWN_OPCODE:
		if (!flow_bare(rn, f))
			return NF_ACCEPT;
		break;
	default:
		rocect_qp_key_of(&key, 0, &pkt);
		qp = rocect_qp_find(rn, &key);
		if (!entry_flow_bare(qp, f) && !flow_bare(rn, f))
			return NF_ACCEPT;
		data = true;
	}
	if (unlikely(skb_is_gso(skb)) &&
	    rocect_gso_verdict(rn, skb, NULL) == NF_DROP)
		return NF_DROP;
	rocect_stats_packet(rn->stats, &pkt);
	if (data)
		return rocect_data_verdict(rn, skb, NULL, 0, &key, qp, ip, caplen,
					   &pkt);
	return rocect_class_verdict(rn, skb, NULL, 0, 0, &pkt);
}

/* The UDP header at @thoff, if the packet's is whole and to a RoCE port. */
static __always_inline bool roce_udp(const struct sk_buff *skb,
				     unsigned int thoff, struct guard_flow *f)
{
	struct udphdr _uh __uninitialized;	/* read only if filled */
	const struct udphdr *uh;

	if (f->pktlen < thoff + sizeof(_uh))
		return false;
	uh = skb_header_pointer(skb, thoff, sizeof(_uh), &_uh);
	if (!uh || !rocect_helper_port(uh->dest))
		return false;
	f->sport = ntohs(uh->source);
	f->dport = uh->dest;
	return true;
}

static __always_inline unsigned int guard_ip(struct rocect_net *rn,
					     struct sk_buff *skb)
{
	/* Each field is written before it is read; the buffers likewise. */
	struct guard_flow f __uninitialized;
	struct iphdr _iph __uninitialized;
	u8 hdr[60] __uninitialized;
	const struct iphdr *iph;
	unsigned int thoff;

	iph = skb_header_pointer(skb, 0, sizeof(_iph), &_iph);
	if (!iph || iph->version != 4 || iph->ihl < 5 ||
	    iph->protocol != IPPROTO_UDP)
		return NF_ACCEPT;
	f.family = 4;
	f.pktlen = ntohs(iph->tot_len);
	thoff = iph->ihl * 4;
	/* ip_rcv() drops a packet whose header lies about its length. */
	if (f.pktlen > skb->len || f.pktlen < thoff ||
	    iph->frag_off & htons(IP_OFFSET) || !roce_udp(skb, thoff, &f))
		return NF_ACCEPT;
	f.saddr = (const u8 *)&iph->saddr;
	f.daddr = (const u8 *)&iph->daddr;
	/*
	 * The flowtable forwards what ip_rcv() would drop for its checksum:
	 * such a packet may not pass here either (nor move a window).
	 */
	if (iph->frag_off & htons(IP_MF))
		return guard_unfit(rn, skb, &f, NULL, ROCECT_CTR_DROP_MALFORMED,
				   "a fragment");
	if (thoff > sizeof(_iph)) {
		iph = skb_header_pointer(skb, 0, thoff, hdr);
		if (!iph)
			return NF_ACCEPT;
	}
	if (ip_fast_csum(iph, iph->ihl))
		return guard_unfit(rn, skb, &f, NULL, ROCECT_CTR_DROP_MALFORMED,
				   "a bad IP checksum");
	return guard_packet(rn, skb, &f);
}

static unsigned int guard_ip6(struct rocect_net *rn, struct sk_buff *skb)
{
	struct guard_flow f = { .family = 6 };
	const struct ipv6hdr *ip6h;
	unsigned int thoff = 0;
	struct ipv6hdr _ip6h __uninitialized;	/* read only if filled */
	unsigned short fragoff;
	int flags = 0;

	ip6h = skb_header_pointer(skb, 0, sizeof(_ip6h), &_ip6h);
	if (!ip6h || ip6h->version != 6)
		return NF_ACCEPT;
	f.pktlen = ntohs(ip6h->payload_len) + sizeof(*ip6h);
	if (f.pktlen > skb->len)
		return NF_ACCEPT;
	/* Non-first fragments hold no UDP header: not found. */
	if (ip6h->nexthdr == IPPROTO_UDP)
		thoff = sizeof(*ip6h);
	else if (ipv6_find_hdr(skb, &thoff, IPPROTO_UDP, &fragoff, &flags) !=
		 IPPROTO_UDP)
		return NF_ACCEPT;
	if (!roce_udp(skb, thoff, &f))
		return NF_ACCEPT;
	f.saddr = ip6h->saddr.s6_addr;
	f.daddr = ip6h->daddr.s6_addr;
	if (flags & IP6_FH_F_FRAG)
		return guard_unfit(rn, skb, &f, NULL, ROCECT_CTR_DROP_MALFORMED,
				   "a fragment");
	return guard_packet(rn, skb, &f);
}

/*
 * A VLAN's frames come in on its real device first, tagged (a tag in the
 * frame is moved to the skb before the ingress hooks run), and 6.12's
 * flowtable can forward them from there: they are checked there, as from
 * the VLAN device, which the helper sees them come in on. The VLAN
 * device's own round is not checked again.
 *
 * Return: the interface to check the packet as from, 0 for none.
 */
static int vlan_round(const struct sk_buff *skb)
{
	struct net_device *vdev;

	if (is_vlan_dev(skb->dev))
		return 0;
	if (!skb_vlan_tag_present(skb))
		return skb->skb_iif;
	vdev = __vlan_find_dev_deep_rcu(skb->dev, skb->vlan_proto,
					skb_vlan_tag_get_id(skb));
	return vdev ? vdev->ifindex : skb->skb_iif;
}

/*
 * A VRF's own device takes in only what the VRF hands it (and its control
 * block is another layer's then): its packets were checked where they
 * came in.
 */
static unsigned int guard_in(void *priv, struct sk_buff *skb,
			     const struct nf_hook_state *state)
{
	struct rocect_net *rn = rocect_net_rcu(state->net);
	const struct net_device *dev = skb->dev;
	unsigned int verdict = NF_ACCEPT;
	int iif, was = skb->skb_iif;

	if (!guarded(rn) || netif_is_bridge_port(dev) ||
	    netif_is_lag_port(dev) || netif_is_l3_master(dev))
		return NF_ACCEPT;
	iif = vlan_round(skb);
	if (!iif)
		return NF_ACCEPT;
	/* What the checks read; the next round sets it again anyway. */
	skb->skb_iif = iif;
	if (skb->protocol == htons(ETH_P_IP))
		verdict = guard_ip(rn, skb);
	else if (skb->protocol == htons(ETH_P_IPV6))
		verdict = guard_ip6(rn, skb);
	skb->skb_iif = was;
	return verdict;
}

static int guard_attach(struct rocect_net *rn, struct net_device *dev)
{
	struct guard_hook *h;
	int err;

	ASSERT_RTNL();
	list_for_each_entry(h, &rn->guard_hooks, node)
		if (h->ops.dev == dev)
			return 0;
	h = kzalloc(sizeof(*h), GFP_KERNEL);
	if (!h)
		return -ENOMEM;
	h->ops.hook = guard_in;
	h->ops.pf = NFPROTO_NETDEV;
	h->ops.hooknum = NF_NETDEV_INGRESS;
	h->ops.priority = ROCECT_GUARD_PRIORITY;
	h->ops.dev = dev;
	err = nf_register_net_hook(rn->net, &h->ops);
	if (err) {
		kfree(h);
		return err;
	}
	list_add(&h->node, &rn->guard_hooks);
	return 0;
}

static void guard_detach(struct rocect_net *rn, struct guard_hook *h)
{
	ASSERT_RTNL();
	nf_unregister_net_hook(rn->net, &h->ops);
	list_del(&h->node);
	kfree_rcu(h, rcu);
}

static void guard_detach_all(struct rocect_net *rn)
{
	struct guard_hook *h, *tmp;

	list_for_each_entry_safe(h, tmp, &rn->guard_hooks, node)
		guard_detach(rn, h);
}

/**
 * rocect_guard_prepare() - hook the guard on before guarded mode starts
 * @rn: the namespace's state
 * @mode: the offload mode about to be set (&enum rocect_offload_mode)
 *
 * Takes the RTNL, which rocect_guard_finish() releases once the mode is
 * written: devices registered meanwhile see the mode they will run under.
 * On failure the RTNL is released and nothing changed.
 *
 * Context: process context.
 * Return: 0 or a negative errno.
 */
int rocect_guard_prepare(struct rocect_net *rn, u32 mode)
{
	struct net_device *dev;
	int err;

	rtnl_lock();
	if (mode != ROCECT_OFFLOAD_GUARDED)
		return 0;
	for_each_netdev(rn->net, dev) {
		err = guard_attach(rn, dev);
		if (err) {
			if (!guarded(rn))
				guard_detach_all(rn);
			rtnl_unlock();
			return err;
		}
	}
	return 0;
}

/**
 * rocect_guard_finish() - hook the guard off if the mode is not guarded
 * @rn: the namespace's state
 *
 * Context: after a successful rocect_guard_prepare(); releases the RTNL.
 */
void rocect_guard_finish(struct rocect_net *rn)
{
	if (!guarded(rn))
		guard_detach_all(rn);
	rtnl_unlock();
}

/**
 * rocect_guard_net_init() - a namespace without hooks
 * @rn: the namespace's state
 */
void rocect_guard_net_init(struct rocect_net *rn)
{
	INIT_LIST_HEAD(&rn->guard_hooks);
}

/**
 * rocect_guard_net_exit() - the hooks of devices still there go
 * @rn: the namespace's state
 *
 * At module unload; a dying namespace has unregistered its devices.
 */
void rocect_guard_net_exit(struct rocect_net *rn)
{
	bool hooked;

	rtnl_lock();
	hooked = !list_empty(&rn->guard_hooks);
	guard_detach_all(rn);
	rtnl_unlock();
	/* The module may go next: no packet may still be in guard_in(). */
	if (hooked)
		synchronize_net();
}

/* Devices come and go (and move between namespaces) under the RTNL. */
static int guard_netdev_event(struct notifier_block *nb, unsigned long event,
			      void *ptr)
{
	struct net_device *dev = netdev_notifier_info_to_dev(ptr);
	struct rocect_net *rn = rocect_net(dev_net(dev));
	struct guard_hook *h;
	int err;

	switch (event) {
	case NETDEV_REGISTER:
		/* A device the guard cannot watch would be a way around it. */
		err = guarded(rn) ? guard_attach(rn, dev) : 0;
		if (err)
			return notifier_from_errno(err);
		break;
	case NETDEV_UNREGISTER:
		list_for_each_entry(h, &rn->guard_hooks, node) {
			if (h->ops.dev == dev) {
				guard_detach(rn, h);
				break;
			}
		}
		break;
	}
	return NOTIFY_DONE;
}

static struct notifier_block guard_notifier = {
	.notifier_call = guard_netdev_event,
};

/**
 * rocect_guard_init() - follow devices for the guard
 *
 * After every namespace's state exists: the notifier replays the devices
 * there are.
 *
 * Return: 0 or a negative errno.
 */
int rocect_guard_init(void)
{
	return register_netdevice_notifier(&guard_notifier);
}

/**
 * rocect_guard_exit() - stop following devices
 *
 * Before the namespaces' state goes: unregistering replays each device's
 * going, which takes its hook off.
 */
void rocect_guard_exit(void)
{
	unregister_netdevice_notifier(&guard_notifier);
	synchronize_net();
}

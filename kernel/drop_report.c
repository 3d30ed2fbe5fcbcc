// SPDX-License-Identifier: GPL-2.0
/*
 * What a dropped packet leaves behind besides its counter: a log line
 * (through the helper's netfilter logger, or the kernel log for the
 * guard's packets) and an event on the "drops" group, both naming the
 * reason, zone, addresses, destination QP and interface. Both are rate
 * limited: a flood must turn into neither a printk storm nor an event
 * storm; the events over drop-events-max-rate are counted and the next
 * event sent carries that count.
 *
 * genl_has_listeners() reads one bitmap for all namespaces: a listener in
 * any namespace makes every namespace's drops take the rate check, so the
 * check refuses without its lock once the budget is surely spent.
 */
#include <linux/ip.h>
#include <linux/ipv6.h>
#include <net/genetlink.h>
#include <net/netfilter/nf_conntrack_helper.h>
#include <net/netfilter/nf_conntrack_zones.h>
#include <uapi/linux/rocect.h>

#include "cnp_policy.h"
#include "drop_report.h"
#include "genl.h"
#include "netns.h"
#include "wire.h"

/* The family is registered: its group IDs are its own (rocect_nl_init()). */
static bool drops_ready;

/**
 * rocect_drop_report_ready() - let drops be reported, or stop them
 * @ready: true once the family is registered, false before it goes
 *
 * The guard's hooks can drop packets before the family is registered and
 * after it is gone (with offload=guarded at load): its group would then be
 * another family's.
 */
void rocect_drop_report_ready(bool ready)
{
	WRITE_ONCE(drops_ready, ready);
	if (!ready)
		synchronize_net();	/* reports under way are done */
}

/* A drop event's size: every attribute it may carry. */
static size_t drop_msg_size(void)
{
	return nla_total_size(sizeof(u32)) +		/* REASON */
	       nla_total_size(sizeof(u16)) +		/* ZONE */
	       2 * nla_total_size(16) +			/* SADDR, DADDR */
	       nla_total_size(sizeof(u32)) +		/* DQPN */
	       nla_total_size(sizeof(u16)) +		/* SPORT */
	       nla_total_size(sizeof(u32)) +		/* IIF */
	       nla_total_size_64bit(sizeof(u64));	/* SUPPRESSED */
}

/**
 * struct drop_info - what is known of a dropped packet
 * @family: 4 or 6; 0 if its IP header cannot be read
 * @saddr: its source address (4 or 16 bytes)
 * @daddr: its destination address
 * @dqpn: its BTH's destination QP, or -1 (no parse: malformed, GSO)
 * @sport: its UDP source port, where @dqpn is known
 * @iif: the interface it came in on, 0 for this host's own
 * @zone: its conntrack's zone, or -1 without one (the guard's)
 */
struct drop_info {
	u8 family;
	u8 saddr[16];
	u8 daddr[16];
	int dqpn;
	u16 sport;
	int iif;
	int zone;
};

/* The addresses from the packet's own IP header (no parse to trust). */
static void addrs_of_skb(const struct sk_buff *skb, struct drop_info *d)
{
	u8 buf[sizeof(struct ipv6hdr)];
	const u8 *ip;

	ip = skb_header_pointer(skb, skb_network_offset(skb), 1, buf);
	if (!ip)
		return;
	if (*ip >> 4 == 4) {
		const struct iphdr *h;

		h = skb_header_pointer(skb, skb_network_offset(skb),
				       sizeof(*h), buf);
		if (!h)
			return;
		memcpy(d->saddr, &h->saddr, 4);
		memcpy(d->daddr, &h->daddr, 4);
		d->family = 4;
	} else if (*ip >> 4 == 6) {
		const struct ipv6hdr *h;

		h = skb_header_pointer(skb, skb_network_offset(skb),
				       sizeof(*h), buf);
		if (!h)
			return;
		memcpy(d->saddr, &h->saddr, 16);
		memcpy(d->daddr, &h->daddr, 16);
		d->family = 6;
	}
}

static void info_of(const struct sk_buff *skb, const struct nf_conn *ct,
		    const struct roce_pkt *pkt, struct drop_info *d)
{
	d->family = 0;
	d->dqpn = -1;
	d->sport = 0;
	d->iif = skb->skb_iif;
	d->zone = ct ? nf_ct_zone(ct)->id : -1;
	if (pkt && pkt->class != ROCE_CLASS_MALFORMED) {
		d->family = pkt->family;
		memcpy(d->saddr, roce_pkt_saddr(pkt), pkt->family == 4 ? 4 : 16);
		memcpy(d->daddr, roce_pkt_daddr(pkt), pkt->family == 4 ? 4 : 16);
		d->dqpn = roce_bth_dest_qp(&pkt->bth);
		d->sport = roce_pkt_sport(pkt);
	} else {
		addrs_of_skb(skb, d);
	}
}

static int put_drop(struct sk_buff *msg, const struct drop_info *d,
		    enum rocect_counter ctr, u64 unreported)
{
	bool v4 = d->family == 4;

	if (nla_put_u32(msg, ROCECT_A_DROP_REASON, rocect_stats_attrs[ctr]) ||
	    (d->zone >= 0 && nla_put_u16(msg, ROCECT_A_DROP_ZONE, d->zone)) ||
	    (d->family &&
	     (nla_put(msg, v4 ? ROCECT_A_DROP_SADDR4 : ROCECT_A_DROP_SADDR6,
		      v4 ? 4 : 16, d->saddr) ||
	      nla_put(msg, v4 ? ROCECT_A_DROP_DADDR4 : ROCECT_A_DROP_DADDR6,
		      v4 ? 4 : 16, d->daddr))) ||
	    (d->dqpn >= 0 &&
	     (nla_put_u32(msg, ROCECT_A_DROP_DQPN, d->dqpn) ||
	      nla_put_u16(msg, ROCECT_A_DROP_SPORT, d->sport))) ||
	    (d->iif && nla_put_u32(msg, ROCECT_A_DROP_IIF, d->iif)) ||
	    nla_put_u64_64bit(msg, ROCECT_A_DROP_SUPPRESSED, unreported,
			      ROCECT_A_DROP_PAD))
		return -EMSGSIZE;
	return 0;
}

/*
 * May an event go out now? Refused without the bucket's lock while its
 * credit, plus what has flowed in since its last refill, is short of one
 * event: a flood then costs every CPU a few reads, not the lock. A race
 * with a refill can refuse one event that had credit; it is counted.
 */
static bool drop_event_due(struct rocect_net *rn)
{
	u32 rate = rocect_cfg(&rn->config, drop_events_max_rate);
	struct rocect_cnp_bucket *b = &rn->drop_events;
	u64 now = ktime_get_mono_fast_ns(), last = READ_ONCE(b->last_ns);

	if (now > last &&
	    READ_ONCE(b->credit_ns) + (now - last) < NSEC_PER_SEC / rate)
		return false;
	return rocect_bucket_take(b, rate);
}

/* Send an event for the drops group's listeners. */
static void drop_event(struct rocect_net *rn, const struct drop_info *d,
		       enum rocect_counter ctr)
{
	struct sk_buff *msg;
	u64 unreported;
	void *hdr;

	msg = genlmsg_new(drop_msg_size(), GFP_ATOMIC);
	if (!msg)
		goto lost;
	hdr = genlmsg_put(msg, 0, 0, &rocect_nl_family, 0,
			  ROCECT_CMD_DROP_NTF);
	unreported = atomic64_xchg(&rn->drops_unreported, 0);
	if (!hdr || put_drop(msg, d, ctr, unreported)) {
		atomic64_add(unreported, &rn->drops_unreported);
		nlmsg_free(msg);
		goto lost;
	}
	genlmsg_end(msg, hdr);
	/* No listener left after all: its count waits for the next one. */
	if (genlmsg_multicast_netns(&rocect_nl_family, rn->net, msg, 0,
				    ROCECT_NLGRP_DROPS, GFP_ATOMIC) == -ESRCH)
		atomic64_add(unreported + 1, &rn->drops_unreported);
	return;
lost:
	atomic64_inc(&rn->drops_unreported);
}

/*
 * The log line: the helper's logger shows the addresses and interface
 * (if one is set up: see the admin guide); this adds the QP. The guard
 * has no conntrack to log with, so its line says it all.
 */
static void drop_log(const struct sk_buff *skb, const struct nf_conn *ct,
		     const struct drop_info *d, const char *why)
{
	const struct net_device *in;
	char qp[16] = "";

	if (d->dqpn >= 0)
		snprintf(qp, sizeof(qp), ", QP 0x%06x", d->dqpn);
	if (ct) {
		/* The logger's IN= is empty where helpers run: name it. */
		rcu_read_lock();
		in = d->iif ? dev_get_by_index_rcu(nf_ct_net(ct), d->iif) : NULL;
		nf_ct_helper_log((struct sk_buff *)skb, ct, "%s%s, zone %d%s%s",
				 why, qp, d->zone, in ? ", in " : "",
				 in ? in->name : "");
		rcu_read_unlock();
	} else if (d->family == 4)
		pr_info("guard: %s on an offloaded flow from %pI4 to %pI4%s, in %s\n",
			why, d->saddr, d->daddr, qp, skb->dev->name);
	else if (d->family == 6)
		pr_info("guard: %s on an offloaded flow from %pI6c to %pI6c%s, in %s\n",
			why, d->saddr, d->daddr, qp, skb->dev->name);
	else
		pr_info("guard: %s on an offloaded flow, in %s\n", why,
			skb->dev->name);
}

/**
 * rocect_drop_report() - log a drop and tell the drops group of it
 * @rn: the namespace's state
 * @skb: the packet dropped
 * @ct: its conntrack, or NULL for the guard's packets
 * @pkt: its parse, or NULL before one (a GRO super-packet); a malformed
 *	one's addresses are read from @skb
 * @ctr: the counter that counted it: the reason
 * @why: the reason in words, for the log
 *
 * Nothing is built without a listener, and at most drop-events-max-rate
 * events a second are sent; the others are counted into the next one's
 * ROCECT_A_DROP_SUPPRESSED.
 *
 * Context: the packet path (softirq or the guard's hook).
 */
void rocect_drop_report(struct rocect_net *rn, const struct sk_buff *skb,
			const struct nf_conn *ct, const struct roce_pkt *pkt,
			enum rocect_counter ctr, const char *why)
{
	bool event = READ_ONCE(drops_ready) &&
		     genl_has_listeners(&rocect_nl_family, rn->net,
					ROCECT_NLGRP_DROPS);
	bool log = net_ratelimit();
	struct drop_info d;

	/* Over the budget: counted, and nothing more is done for it. */
	if (event && !drop_event_due(rn)) {
		atomic64_inc(&rn->drops_unreported);
		event = false;
	}
	if (!event && !log)
		return;
	info_of(skb, ct, pkt, &d);
	if (event)
		drop_event(rn, &d, ctr);
	if (log)
		drop_log(skb, ct, &d, why);
}

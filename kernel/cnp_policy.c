// SPDX-License-Identifier: GPL-2.0
/*
 * A DCQCN notification point in the network: a CE-marked RoCE data packet
 * of a known QP makes the helper send a CNP to the packet's sender, at most
 * one per QP per interval, and no more than the namespace's global rate, so
 * that a flood of CE packets cannot turn the box into an amplifier.
 */
#include <linux/ktime.h>
#include <net/dsfield.h>
#include <net/inet_ecn.h>
#include <net/l3mdev.h>
#include <uapi/linux/rocect.h>

#include "netns.h"
#include "cnp_policy.h"
#include "qp_cong.h"
#include "cnp_xmit.h"
#include "rpcheck.h"

/**
 * rocect_cnp_net_init() - a full budget for a new namespace
 * @b: the namespace's bucket
 */
void rocect_cnp_net_init(struct rocect_cnp_bucket *b)
{
	spin_lock_init(&b->lock);
	b->credit_ns = 0;
	b->last_ns = ktime_get_mono_fast_ns();
}

/**
 * rocect_bucket_take() - may one more packet go out at a rate?
 * @b: the bucket
 * @rate: packets per second, at least 1
 *
 * The bucket holds a tenth of a second's worth. The clock is read under
 * the lock: read before it, a CPU that waited could store an older time
 * than another's, and the next refill would count the same span twice.
 *
 * Return: true if it may (its cost is taken).
 */
bool rocect_bucket_take(struct rocect_cnp_bucket *b, u32 rate)
{
	u64 cost = NSEC_PER_SEC / rate;
	u64 now, cap = max_t(u64, cost, NSEC_PER_SEC / 10);
	bool ok;

	spin_lock_bh(&b->lock);
	now = ktime_get_mono_fast_ns();
	if (now > b->last_ns) {
		b->credit_ns = min(cap, b->credit_ns + (now - b->last_ns));
		b->last_ns = now;
	}
	ok = b->credit_ns >= cost;
	if (ok)
		b->credit_ns -= cost;
	spin_unlock_bh(&b->lock);
	return ok;
}

/*
 * At most one attempt per QP per interval, whether the CNP then goes out
 * or not (no route, no memory): a CE flood towards an unroutable sender
 * must not cost a route lookup per packet. The CPU that moves the stamp
 * wins; a new record (qp_cong.c) starts with a stamp an interval in the
 * past.
 *
 * The stamp is read before the clock. Read after it, a stamp that another
 * CPU moved meanwhile can be newer than "now", and now - last wraps to a
 * gap of an hour: two CNPs in one interval. A "now" up to CLOCK_SKEW_US
 * before the stamp is taken as no time at all.
 */
#define CLOCK_SKEW_US	1000

static bool qp_interval(struct rocect_qp_cong *cong, u32 interval_us)
{
	u32 last = READ_ONCE(cong->last_cnp);
	u32 now;

	/*
	 * The clock after the stamp: a delay in between only makes "now"
	 * larger. What the CPU may reorder (arm64 orders no loads before
	 * its counter read) and clock skew stay well within CLOCK_SKEW_US.
	 */
	now = rocect_qp_now_us();
	if (now - last < interval_us || last - now <= CLOCK_SKEW_US)
		return false;
	return cmpxchg(&cong->last_cnp, last, now) == last;
}

static int send_for(struct rocect_net *rn, const struct rocect_qp *qp,
		    struct rocect_qp_cong *cong, u32 dest_qp,
		    const struct rocect_cnp_port *port, u16 pkey)
{
	int err;

	err = rocect_xmit_cnp(rn, qp->key.family, &qp->key.saddr,
			      &qp->key.daddr, dest_qp, port, pkey);
	if (err) {
		rocect_stats_inc(rn, err == -ENOBUFS ? ROCECT_CTR_CNP_TX_DROPPED :
						       ROCECT_CTR_CNP_NO_ROUTE);
		return err;
	}
	atomic64_inc(&cong->cnps);
	rocect_stats_inc(rn, ROCECT_CTR_CNP_SENT);
	return 0;
}

/* Forward the packet as ECT(0): the receiver need not notify again. */
static void clear_ce(struct sk_buff *skb, u8 family)
{
	unsigned int nhoff = skb_network_offset(skb);

	if (family == 4) {
		if (!skb_ensure_writable(skb, nhoff + sizeof(struct iphdr)))
			ipv4_change_dsfield(ip_hdr(skb), (u8)~INET_ECN_MASK,
					    INET_ECN_ECT_0);
	} else {
		if (!skb_ensure_writable(skb, nhoff + sizeof(struct ipv6hdr)))
			ipv6_change_dsfield(ipv6_hdr(skb), (u8)~INET_ECN_MASK,
					    INET_ECN_ECT_0);
	}
}

/**
 * rocect_cnp_ce() - a CE-marked RoCE data packet was seen
 * @rn: the namespace's state
 * @skb: the packet (CE cleared in it if so configured and a CNP went out)
 * @qp: its QP entry, or NULL
 * @pkt: its parse
 *
 * The CNP goes to the packet's source QP: the entry's source QP, or for
 * UD the DETH's.
 *
 * Context: the helper callback.
 */
void rocect_cnp_ce(struct rocect_net *rn, struct sk_buff *skb,
		   struct rocect_qp *qp, const struct roce_pkt *pkt)
{
	const struct rocect_config *c = &rn->config;
	u32 sport = rocect_cfg(c, cnp_sport);
	struct rocect_cnp_port port = {};
	struct rocect_qp_cong *cong;
	struct net_device *in;
	u32 dest_qp;

	rocect_stats_inc(rn, ROCECT_CTR_CE);
	if (!qp) {
		if (rocect_cfg(c, cnp))
			rocect_stats_inc(rn, ROCECT_CTR_CNP_UNKNOWN_QP);
		return;
	}
	cong = rocect_qp_cong_get(rn, qp);
	if (IS_ERR(cong)) {
		/* No record, no interval to keep: no CNP. */
		if (PTR_ERR(cong) == -ENOMEM && rocect_cfg(c, cnp))
			rocect_stats_inc(rn, ROCECT_CTR_CNP_TX_DROPPED);
		return;
	}
	atomic64_inc(&cong->ce);
	if (!rocect_cfg(c, cnp))
		return;
	if (!qp_interval(cong, rocect_cfg(c, cnp_interval))) {
		rocect_stats_inc(rn, ROCECT_CTR_CNP_INTERVAL);
		return;
	}
	if (!rocect_bucket_take(&rn->np, rocect_cfg(c, cnp_max_rate))) {
		rocect_stats_inc(rn, ROCECT_CTR_CNP_CAPPED);
		return;
	}
	dest_qp = pkt->has_deth ? pkt->deth_src_qp : rocect_qp_sqpn(qp);
	/* Back the way the packet came, to the RoCE port its flow uses. */
	port.sport = sport == ROCECT_CNP_SPORT_COPY ? roce_pkt_sport(pkt) : sport;
	port.dport = roce_pkt_dport(pkt);
	in = rocect_in_dev(rn, skb, pkt->family);
	if (in) {
		port.ifindex = in->ifindex;
		port.l3mdev = l3mdev_master_ifindex_rcu(in);
	}
	if (!send_for(rn, qp, cong, dest_qp, &port, roce_bth_pkey(&pkt->bth)) &&
	    rocect_cfg(c, cnp_clear_ce))
		clear_ce(skb, pkt->family);
}

/**
 * rocect_cnp_send() - send one CNP for an entry now, on request
 * @rn: the namespace's state
 * @qp: the entry: the CNP goes to its source QP at its source address
 *
 * Neither the interval nor the global rate applies: the request comes from
 * an administrator or a congestion controller in userspace.
 *
 * Return: 0, -ENOENT if the entry left the table meanwhile, -ENOMEM, or
 * what sending returned.
 */
int rocect_cnp_send(struct rocect_net *rn, struct rocect_qp *qp)
{
	u32 sport = rocect_cfg(&rn->config, cnp_sport);
	struct rocect_cnp_port port = { .dport = ROCE_UDP_PORT };
	struct rocect_qp_cong *cong = rocect_qp_cong_get(rn, qp);

	if (IS_ERR(cong))
		return PTR_ERR(cong);
	/* Without a packet to copy the port from, port 0, as hardware does. */
	port.sport = sport == ROCECT_CNP_SPORT_COPY ? 0 : sport;
	return send_for(rn, qp, cong, rocect_qp_sqpn(qp), &port, 0xffff);
}

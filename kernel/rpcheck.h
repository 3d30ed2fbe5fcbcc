/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _ROCECT_RPCHECK_H
#define _ROCECT_RPCHECK_H

#include <linux/skbuff.h>

#include "wire.h"

struct net_device;
struct rocect_net;

struct net_device *rocect_in_dev(struct rocect_net *rn,
				 const struct sk_buff *skb, u8 family);

bool rocect_rp_check(struct rocect_net *rn, const struct sk_buff *skb,
		     const struct roce_pkt *pkt);
int rocect_arrival(struct rocect_net *rn, const struct sk_buff *skb, u8 family);
int rocect_dev_arrival(const struct net_device *dev);
bool rocect_rp_vouches(struct rocect_net *rn, const struct sk_buff *skb,
		       const struct roce_pkt *pkt);

/**
 * rocect_arrived_on() - did a packet come in where a QP entry is bound?
 * @rn: the namespace's state
 * @skb: the packet
 * @family: 4 or 6
 * @iif: the entry's &rocect_qp.iif
 *
 * Inline: the helper asks for every data packet. Where nothing rewrites
 * skb_iif (no VRF, no loopback) the first comparison answers.
 *
 * Context: under rcu_read_lock().
 * Return: true if rocect_arrival() of the packet is @iif.
 */
static inline bool rocect_arrived_on(struct rocect_net *rn,
				     const struct sk_buff *skb, u8 family,
				     int iif)
{
	return likely(skb->skb_iif == iif) ||
	       rocect_arrival(rn, skb, family) == iif;
}

#endif /* _ROCECT_RPCHECK_H */

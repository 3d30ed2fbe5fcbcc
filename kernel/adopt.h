/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _ROCECT_ADOPT_H
#define _ROCECT_ADOPT_H

#include <linux/types.h>
#include <net/netfilter/nf_conntrack_helper.h>

#include "ct_priv.h"

struct rocect_net;
struct roce_pkt;

void rocect_flow_first_sight(struct rocect_net *rn, struct nf_conn *ct);
bool rocect_flow_bound(const struct nf_conn *ct,
		       enum ip_conntrack_info ctinfo, u32 dqpn);
bool rocect_flow_adopted(struct rocect_net *rn, const struct sk_buff *skb,
			 struct nf_conn *ct, enum ip_conntrack_info ctinfo,
			 const struct roce_pkt *pkt);

/**
 * rocect_flow_note() - remember how this box came by a conntrack
 * @rn: the namespace's state
 * @ct: the conntrack of a packet the helper sees
 * @priv: its rocect_ct_priv(), which the helper looks up once a packet
 *
 * Context: the helper callback, for every packet; one load after the
 * conntrack's first.
 */
static inline void rocect_flow_note(struct rocect_net *rn, struct nf_conn *ct,
				    const struct rocect_ct_priv *priv)
{
	if (unlikely(!READ_ONCE(priv->flow)))
		rocect_flow_first_sight(rn, ct);
}

#endif /* _ROCECT_ADOPT_H */

/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _ROCECT_RPCHECK_H
#define _ROCECT_RPCHECK_H

#include <linux/skbuff.h>

#include "wire.h"

struct net;
struct net_device;

struct net_device *rocect_in_dev(struct net *net, const struct sk_buff *skb,
				 u8 family);

bool rocect_rp_check(struct net *net, const struct sk_buff *skb,
		     const struct roce_pkt *pkt);

#endif /* _ROCECT_RPCHECK_H */

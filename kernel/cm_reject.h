/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _ROCECT_CM_REJECT_H
#define _ROCECT_CM_REJECT_H

struct roce_pkt;
struct rocect_net;
struct sk_buff;

void rocect_cm_reject(struct rocect_net *rn, struct sk_buff *skb,
		      const struct roce_pkt *pkt);

#endif /* _ROCECT_CM_REJECT_H */

/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _ROCECT_SERVICE_POLICY_H
#define _ROCECT_SERVICE_POLICY_H

#include <linux/types.h>

#include "service_rules.h"

struct netlink_ext_ack;
struct roce_pkt;
struct rocect_net;

int rocect_policy_insert(struct rocect_net *rn, const struct roce_rule *r,
			 u32 index, struct netlink_ext_ack *extack);
int rocect_policy_find(struct rocect_net *rn, const struct roce_rule *r);
int rocect_policy_delete(struct rocect_net *rn, u32 index,
			 struct roce_rule *r, u64 *hits);
void rocect_policy_flush(struct rocect_net *rn);
bool rocect_policy_rule(struct rocect_net *rn, u32 index,
			struct roce_rule *r, u64 *hits, u32 *gen);
u8 rocect_policy_decide(struct rocect_net *rn, const struct roce_pkt *pkt,
			u16 zone, u32 *mark, int *index);
bool rocect_policy_refuses(struct rocect_net *rn, const struct roce_pkt *pkt,
			   u16 zone);
void rocect_policy_refused_notify(struct rocect_net *rn,
				  const struct roce_pkt *pkt, u16 zone,
				  u8 action, int index);
void rocect_policy_net_exit(struct rocect_net *rn);

#endif /* _ROCECT_SERVICE_POLICY_H */

/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The family's definition, laid out as ynl-gen would generate it from
 * Documentation/netlink/specs/rocect.yaml; the handlers are in netlink.c.
 */
#ifndef _ROCECT_GENL_H
#define _ROCECT_GENL_H

#include <net/genetlink.h>
#include <uapi/linux/rocect.h>

extern const struct nla_policy rocect_config_set_nl_policy[ROCECT_A_CONFIG_MAX + 1];

int rocect_nl_qp_get_doit(struct sk_buff *skb, struct genl_info *info);
int rocect_nl_qp_get_start(struct netlink_callback *cb);
int rocect_nl_qp_get_dumpit(struct sk_buff *skb, struct netlink_callback *cb);
int rocect_nl_qp_query_doit(struct sk_buff *skb, struct genl_info *info);
int rocect_nl_qp_new_doit(struct sk_buff *skb, struct genl_info *info);
int rocect_nl_qp_del_doit(struct sk_buff *skb, struct genl_info *info);
int rocect_nl_qp_flush_doit(struct sk_buff *skb, struct genl_info *info);
int rocect_nl_stats_get_doit(struct sk_buff *skb, struct genl_info *info);
int rocect_nl_stats_reset_doit(struct sk_buff *skb, struct genl_info *info);
int rocect_nl_config_get_doit(struct sk_buff *skb, struct genl_info *info);
int rocect_nl_config_set_doit(struct sk_buff *skb, struct genl_info *info);
int rocect_nl_conn_get_start(struct netlink_callback *cb);
int rocect_nl_conn_get_dumpit(struct sk_buff *skb, struct netlink_callback *cb);
int rocect_nl_cnp_send_doit(struct sk_buff *skb, struct genl_info *info);
int rocect_nl_dump_done(struct netlink_callback *cb);
int rocect_nl_policy_new_doit(struct sk_buff *skb, struct genl_info *info);
int rocect_nl_policy_del_doit(struct sk_buff *skb, struct genl_info *info);
int rocect_nl_policy_get_dumpit(struct sk_buff *skb, struct netlink_callback *cb);
int rocect_nl_policy_flush_doit(struct sk_buff *skb, struct genl_info *info);

enum {
	ROCECT_NLGRP_EVENTS,
	ROCECT_NLGRP_DROPS,
};

extern struct genl_family rocect_nl_family;

#endif /* _ROCECT_GENL_H */

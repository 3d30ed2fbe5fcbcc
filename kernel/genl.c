// SPDX-License-Identifier: GPL-2.0
/*
 * The generic netlink family "rocect": each operation's request policy,
 * the operations and the multicast group, laid out as ynl-gen would
 * generate them from Documentation/netlink/specs/rocect.yaml (a request
 * takes the attributes the spec lists for it and no others:
 * scripts/spec_check.py compares the two). The handlers are in netlink.c.
 *
 * Unlike ynl-gen's, every policy of an attribute set spans the whole set
 * (its maxattr is the set's MAX): the strict validation refuses what a
 * command does not list (NLA_UNSPEC), and a handler may look up any
 * attribute of the set in info->attrs without reading past its end.
 */
#include <net/genetlink.h>
#include <uapi/linux/rocect.h>

#include "config.h"
#include "genl.h"

/* Not const: 6.1 takes range validations by non-const pointer. */
static struct netlink_range_validation rocect_qpn_range = {
	.max = ROCECT_QPN_MAX,
};

/* 0: this host's own packets (rocect_arrival()) */
static struct netlink_range_validation rocect_ifindex_range = {
	.max = INT_MAX,
};

/* A dump's "seen within": one millisecond to one day. */
static struct netlink_range_validation rocect_seen_range = {
	.min = 1,
	.max = ROCECT_SEEN_WITHIN_MAX,
};

/* The key of one entry: zone, addresses, destination QP. */
#define ROCECT_QP_KEY_POLICY						\
	[ROCECT_A_QP_ZONE]	= { .type = NLA_U16, },			\
	[ROCECT_A_QP_SADDR4]	= { .type = NLA_BE32, },		\
	[ROCECT_A_QP_DADDR4]	= { .type = NLA_BE32, },		\
	[ROCECT_A_QP_SADDR6]	= NLA_POLICY_EXACT_LEN(16),		\
	[ROCECT_A_QP_DADDR6]	= NLA_POLICY_EXACT_LEN(16),		\
	[ROCECT_A_QP_DQPN]	= NLA_POLICY_FULL_RANGE(NLA_U32, &rocect_qpn_range)

/*
 * ROCECT_CMD_QP_GET - do and dump: 6.1 has one policy per command, so the
 * dump's filters (sqpn, origin, state, seen-within) pass it on a do too, where the
 * handler refuses them.
 */
static const struct nla_policy rocect_qp_get_nl_policy[ROCECT_A_QP_MAX + 1] = {
	ROCECT_QP_KEY_POLICY,
	[ROCECT_A_QP_SQPN]	= NLA_POLICY_FULL_RANGE(NLA_U32, &rocect_qpn_range),
	[ROCECT_A_QP_ORIGIN]	= NLA_POLICY_MAX(NLA_U8, ROCECT_ORIGIN_MAX),
	[ROCECT_A_QP_STATE]	= NLA_POLICY_MAX(NLA_U8, ROCECT_STATE_MAX),
	[ROCECT_A_QP_SEEN_WITHIN] = NLA_POLICY_FULL_RANGE(NLA_U32,
							  &rocect_seen_range),
};

/* ROCECT_CMD_QP_QUERY, ROCECT_CMD_QP_DEL, ROCECT_CMD_CNP_SEND - do */
static const struct nla_policy rocect_qp_key_nl_policy[ROCECT_A_QP_MAX + 1] = {
	ROCECT_QP_KEY_POLICY,
};

/* ROCECT_CMD_QP_NEW - do */
static const struct nla_policy rocect_qp_new_nl_policy[ROCECT_A_QP_MAX + 1] = {
	ROCECT_QP_KEY_POLICY,
	[ROCECT_A_QP_SQPN]	= NLA_POLICY_FULL_RANGE(NLA_U32, &rocect_qpn_range),
	[ROCECT_A_QP_IIF]	= NLA_POLICY_FULL_RANGE(NLA_U32, &rocect_ifindex_range),
	[ROCECT_A_QP_REPLACE]	= { .type = NLA_FLAG },
};

/* ROCECT_CMD_QP_FLUSH - do */
static const struct nla_policy rocect_qp_flush_nl_policy[ROCECT_A_QP_MAX + 1] = {
	[ROCECT_A_QP_ORIGIN]	= NLA_POLICY_MAX(NLA_U8, ROCECT_ORIGIN_MAX),
};

/* A rule's match, as POLICY_NEW and POLICY_DEL take it. */
#define ROCECT_POLICY_MATCH_POLICY					\
	[ROCECT_A_POLICY_ZONE]		= { .type = NLA_U16, },		\
	[ROCECT_A_POLICY_SADDR4]	= { .type = NLA_BE32, },	\
	[ROCECT_A_POLICY_DADDR4]	= { .type = NLA_BE32, },	\
	[ROCECT_A_POLICY_SADDR6]	= NLA_POLICY_EXACT_LEN(16),	\
	[ROCECT_A_POLICY_DADDR6]	= NLA_POLICY_EXACT_LEN(16),	\
	[ROCECT_A_POLICY_SPREFIX]	= NLA_POLICY_MAX(NLA_U8, 128),	\
	[ROCECT_A_POLICY_DPREFIX]	= NLA_POLICY_MAX(NLA_U8, 128),	\
	[ROCECT_A_POLICY_SERVICE_ID]	= { .type = NLA_U64, },		\
	[ROCECT_A_POLICY_SERVICE_MASK]	= { .type = NLA_U64, }

/* ROCECT_CMD_POLICY_NEW - do */
static const struct nla_policy rocect_policy_new_nl_policy[ROCECT_A_POLICY_MAX + 1] = {
	ROCECT_POLICY_MATCH_POLICY,
	[ROCECT_A_POLICY_INDEX]	= { .type = NLA_U32, },
	[ROCECT_A_POLICY_ACTION] = NLA_POLICY_MAX(NLA_U8, ROCECT_POLICY_ACTION_MAX),
	[ROCECT_A_POLICY_MARK]	= { .type = NLA_U32, },
};

/* ROCECT_CMD_POLICY_DEL - do: by index, or by match */
static const struct nla_policy rocect_policy_del_nl_policy[ROCECT_A_POLICY_MAX + 1] = {
	ROCECT_POLICY_MATCH_POLICY,
	[ROCECT_A_POLICY_INDEX]	= { .type = NLA_U32, },
};

#define ROCECT_NLA_u8	NLA_U8
#define ROCECT_NLA_u32	NLA_U32

/* ROCECT_CMD_CONFIG_SET - do: every setting, in its range (settings.h) */
const struct nla_policy rocect_config_set_nl_policy[ROCECT_A_CONFIG_MAX + 1] = {
#define ROCECT_SETTING(name, attr, type, lo, hi, def)		\
	[ROCECT_A_CONFIG_##attr] =					\
		NLA_POLICY_FULL_RANGE(ROCECT_NLA_##type,		\
				      &rocect_config_ranges[ROCECT_CFG_##name]),
#include "settings.h"
#undef ROCECT_SETTING
};

/* Ops table for rocect */
static const struct genl_ops rocect_nl_ops[] = {
	{
		.cmd		= ROCECT_CMD_QP_GET,
		.doit		= rocect_nl_qp_get_doit,
		.start		= rocect_nl_qp_get_start,
		.dumpit		= rocect_nl_qp_get_dumpit,
		.done		= rocect_nl_dump_done,
		.policy		= rocect_qp_get_nl_policy,
		.maxattr	= ROCECT_A_QP_MAX,
		.flags		= GENL_UNS_ADMIN_PERM,
	},
	{
		.cmd		= ROCECT_CMD_QP_QUERY,
		.doit		= rocect_nl_qp_query_doit,
		.policy		= rocect_qp_key_nl_policy,
		.maxattr	= ROCECT_A_QP_MAX,
		.flags		= GENL_UNS_ADMIN_PERM,
	},
	{
		.cmd		= ROCECT_CMD_QP_NEW,
		.doit		= rocect_nl_qp_new_doit,
		.policy		= rocect_qp_new_nl_policy,
		.maxattr	= ROCECT_A_QP_MAX,
		.flags		= GENL_UNS_ADMIN_PERM,
	},
	{
		.cmd		= ROCECT_CMD_QP_DEL,
		.doit		= rocect_nl_qp_del_doit,
		.policy		= rocect_qp_key_nl_policy,
		.maxattr	= ROCECT_A_QP_MAX,
		.flags		= GENL_UNS_ADMIN_PERM,
	},
	{
		.cmd		= ROCECT_CMD_QP_FLUSH,
		.doit		= rocect_nl_qp_flush_doit,
		.policy		= rocect_qp_flush_nl_policy,
		.maxattr	= ROCECT_A_QP_MAX,
		.flags		= GENL_UNS_ADMIN_PERM,
	},
	{
		.cmd		= ROCECT_CMD_STATS_GET,
		.doit		= rocect_nl_stats_get_doit,
	},
	{
		.cmd		= ROCECT_CMD_STATS_RESET,
		.doit		= rocect_nl_stats_reset_doit,
		.flags		= GENL_UNS_ADMIN_PERM,
	},
	{
		.cmd		= ROCECT_CMD_CONFIG_GET,
		.doit		= rocect_nl_config_get_doit,
	},
	{
		.cmd		= ROCECT_CMD_CONN_GET,
		.start		= rocect_nl_conn_get_start,
		.dumpit		= rocect_nl_conn_get_dumpit,
		.done		= rocect_nl_dump_done,
		.flags		= GENL_UNS_ADMIN_PERM,
	},
	{
		.cmd		= ROCECT_CMD_CNP_SEND,
		.doit		= rocect_nl_cnp_send_doit,
		.policy		= rocect_qp_key_nl_policy,
		.maxattr	= ROCECT_A_QP_MAX,
		.flags		= GENL_UNS_ADMIN_PERM,
	},
	{
		.cmd		= ROCECT_CMD_CONFIG_SET,
		.doit		= rocect_nl_config_set_doit,
		.policy		= rocect_config_set_nl_policy,
		.maxattr	= ROCECT_A_CONFIG_MAX,
		.flags		= GENL_UNS_ADMIN_PERM,
	},
	{
		.cmd		= ROCECT_CMD_POLICY_NEW,
		.doit		= rocect_nl_policy_new_doit,
		.policy		= rocect_policy_new_nl_policy,
		.maxattr	= ROCECT_A_POLICY_MAX,
		.flags		= GENL_UNS_ADMIN_PERM,
	},
	{
		.cmd		= ROCECT_CMD_POLICY_DEL,
		.doit		= rocect_nl_policy_del_doit,
		.policy		= rocect_policy_del_nl_policy,
		.maxattr	= ROCECT_A_POLICY_MAX,
		.flags		= GENL_UNS_ADMIN_PERM,
	},
	{
		.cmd		= ROCECT_CMD_POLICY_GET,
		.dumpit		= rocect_nl_policy_get_dumpit,
		.flags		= GENL_UNS_ADMIN_PERM,
	},
	{
		.cmd		= ROCECT_CMD_POLICY_FLUSH,
		.doit		= rocect_nl_policy_flush_doit,
		.flags		= GENL_UNS_ADMIN_PERM,
	},
};

static const struct genl_multicast_group rocect_nl_mcgrps[] = {
	/* Events carry PSNs and comm IDs, as dumps do: CAP_NET_ADMIN too. */
	[ROCECT_NLGRP_EVENTS] = {
		.name	= ROCECT_MCGRP_EVENTS,
		.flags	= GENL_MCAST_CAP_NET_ADMIN,
	},
	/* Drops name the addresses and QPs of the traffic: the same. */
	[ROCECT_NLGRP_DROPS] = {
		.name	= ROCECT_MCGRP_DROPS,
		.flags	= GENL_MCAST_CAP_NET_ADMIN,
	},
};

struct genl_family rocect_nl_family __ro_after_init = {
	.name		= ROCECT_FAMILY_NAME,
	.version	= ROCECT_FAMILY_VERSION,
	.netnsok	= true,
	.module		= THIS_MODULE,
	.ops		= rocect_nl_ops,
	.n_ops		= ARRAY_SIZE(rocect_nl_ops),
	.mcgrps		= rocect_nl_mcgrps,
	.n_mcgrps	= ARRAY_SIZE(rocect_nl_mcgrps),
};

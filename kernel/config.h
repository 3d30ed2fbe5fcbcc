/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _ROCECT_CONFIG_H
#define _ROCECT_CONFIG_H

#include <linux/types.h>

struct rocect_net;

/* Bounds of the configuration values, shared by netlink and parameters. */
enum rocect_config_limits {
	ROCECT_MAX_QPS_MAX		= 1 << 24,
	ROCECT_MAX_CONNS_MAX		= 1 << 23,
	ROCECT_IDLE_TIMEOUT_MAX		= 7 * 24 * 3600,
	ROCECT_TIMEWAIT_TIMEOUT_MAX	= 3600,
	ROCECT_HALF_OPEN_TIMEOUT_MAX	= 3600,
	ROCECT_CNP_INTERVAL_MAX		= 1000000,
	ROCECT_CNP_MAX_RATE_MAX		= 10000000,
};

/**
 * struct rocect_config - runtime configuration of one namespace
 * @max_qps: most QP entries in the table
 * @max_conns: most tracked CM connections
 * @idle_timeout: seconds after which an idle learned entry expires
 * @timewait_timeout: seconds a disconnected entry stays in TIMEWAIT
 * @half_open_timeout: seconds a connection may stay in REQ or REP without
 *	a CM message
 * @unknown_qp: &enum rocect_unknown_qp_policy for data to unknown QPs
 * @rp_check: CM MADs count only if their source routes back through the
 *	interface they came in on
 * @cnp: send CNPs for CE-marked data of known QPs
 * @cnp_dscp: DSCP of CNPs
 * @cnp_ecn: ECN codepoint of CNPs
 * @cnp_ttl: TTL or hop limit of CNPs
 * @cnp_clear_ce: forward a packet that caused a CNP as ECT(0)
 * @cnp_interval: least microseconds between two CNPs to one QP
 * @cnp_max_rate: most CNPs per second, all QPs together
 * @cnp_priority: skb priority of CNPs
 * @cnp_sport: UDP source port of CNPs, or %ROCECT_CNP_SPORT_COPY
 *
 * Read locklessly (READ_ONCE) on the packet path; written under the genl
 * mutex.
 */
struct rocect_config {
	u32 max_qps;
	u32 max_conns;
	u32 idle_timeout;
	u32 timewait_timeout;
	u32 half_open_timeout;
	u8 unknown_qp;
	u8 rp_check;
	u8 cnp;
	u8 cnp_dscp;
	u8 cnp_ecn;
	u8 cnp_ttl;
	u8 cnp_clear_ce;
	u32 cnp_interval;
	u32 cnp_max_rate;
	u32 cnp_priority;
	u32 cnp_sport;
};

int rocect_config_check_defaults(void);
void rocect_config_net_init(struct rocect_net *rn);

#endif /* _ROCECT_CONFIG_H */

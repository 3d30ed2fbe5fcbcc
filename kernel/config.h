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
};

/**
 * struct rocect_config - runtime configuration of one namespace
 * @max_qps: most QP entries in the table
 * @max_conns: most tracked CM connections
 * @idle_timeout: seconds after which an idle learned entry expires
 * @timewait_timeout: seconds a disconnected entry stays in TIMEWAIT
 * @unknown_qp: &enum rocect_unknown_qp_policy for data to unknown QPs
 *
 * Read locklessly (READ_ONCE) on the packet path; written under the genl
 * mutex.
 */
struct rocect_config {
	u32 max_qps;
	u32 max_conns;
	u32 idle_timeout;
	u32 timewait_timeout;
	u8 unknown_qp;
};

int rocect_config_check_defaults(void);
void rocect_config_net_init(struct rocect_net *rn);

#endif /* _ROCECT_CONFIG_H */

/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _ROCECT_NETNS_H
#define _ROCECT_NETNS_H

#include <net/net_namespace.h>

#include "config.h"
#include "qp.h"
#include "stats.h"

/**
 * struct rocect_net - all of rocect's state in one network namespace
 * @stats: per-CPU counters
 * @config: runtime configuration
 * @qps: the QP table
 */
struct rocect_net {
	struct rocect_stats __percpu *stats;
	struct rocect_config config;
	struct rocect_qp_table qps;
};

struct rocect_net *rocect_net(const struct net *net);
int rocect_netns_init(void);
void rocect_netns_exit(void);

#endif /* _ROCECT_NETNS_H */

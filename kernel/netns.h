/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _ROCECT_NETNS_H
#define _ROCECT_NETNS_H

#include <net/net_namespace.h>
#include <net/netns/generic.h>

#include <linux/spinlock.h>

#include "config.h"
#include "conn.h"
#include "events.h"
#include "cnp_policy.h"
#include "qp.h"
#include "stats.h"

/**
 * struct rocect_net - all of rocect's state in one network namespace
 * @net: the namespace
 * @stats: per-CPU counters
 * @config: runtime configuration
 * @lock: serialises changes of @qps and @conns; lookups need only RCU.
 *	Taken with rocect_net_lock(), which sends the changes' events after
 *	it is dropped
 * @events: the current lock holder's queued events
 * @qps: the QP table
 * @conns: the tracked CM connections
 * @np: the CNP budget
 * @learn: learning's records, allocated when learn is first set on
 */
struct rocect_net {
	struct net *net;
	struct rocect_stats __percpu *stats;
	struct rocect_config config;
	spinlock_t lock;	/* changes of qps and conns */
	struct rocect_events *events;
	struct rocect_qp_table qps;
	struct rocect_conn_table conns;
	struct rocect_cnp_bucket np;
	struct rocect_learn *learn;
};

struct rocect_learn;

extern unsigned int rocect_net_id;

/**
 * rocect_net() - rocect's state in a namespace
 * @net: the namespace
 *
 * Inline: the helper asks for it on every packet.
 *
 * Return: the state; valid while @net is alive.
 */
static inline struct rocect_net *rocect_net(const struct net *net)
{
	return net_generic(net, rocect_net_id);
}

int rocect_netns_init(void);
void rocect_netns_exit(void);

#endif /* _ROCECT_NETNS_H */

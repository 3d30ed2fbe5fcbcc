// SPDX-License-Identifier: GPL-2.0
/*
 * The namespaces other than the initial one share the initial one's table
 * limits. Each may set its own max_qps and max_conns up to the host's
 * (config.c), but its entries are made in softirq, where no task's memory
 * cgroup pays for them: without a bound across namespaces, root in a user
 * namespace could make as many namespaces as it likes and fill each. So
 * together they hold at most max_qps entries and max_conns connections of
 * the initial namespace, which is bounded by its own: rocect's memory is
 * at most twice the host's limits, however many namespaces there are.
 */

#include <linux/atomic.h>
#include <net/net_namespace.h>

#include "shared_limit.h"
#include "netns.h"

/* Entries and connections held by all namespaces but the initial one. */
static atomic_t shared_used[2];

static atomic_t *counter(enum rocect_setting limit)
{
	return &shared_used[limit == ROCECT_CFG_max_conns];
}

/**
 * rocect_shared_take() - a place for one more entry or connection
 * @rn: the namespace's state
 * @limit: %ROCECT_CFG_max_qps (an entry) or %ROCECT_CFG_max_conns
 *
 * The initial namespace has its own limits alone; the others take from
 * the pool the initial namespace's limit sizes. Each successful take is
 * given back with rocect_shared_give() when the object goes.
 *
 * Return: true if there was room (then it is taken).
 */
bool rocect_shared_take(struct rocect_net *rn, enum rocect_setting limit)
{
	u32 max;

	if (net_eq(rn->net, &init_net))
		return true;
	max = READ_ONCE(rocect_net(&init_net)->config.val[limit]);
	/* The host may have lowered its limit below what is held. */
	if ((u32)atomic_inc_return(counter(limit)) <= max)
		return true;
	atomic_dec(counter(limit));
	return false;
}

/**
 * rocect_shared_give() - give places back
 * @rn: the namespace's state
 * @limit: %ROCECT_CFG_max_qps or %ROCECT_CFG_max_conns
 * @n: how many objects went
 */
void rocect_shared_give(struct rocect_net *rn, enum rocect_setting limit,
			unsigned int n)
{
	if (!net_eq(rn->net, &init_net))
		WARN_ON_ONCE(atomic_sub_return(n, counter(limit)) < 0);
}

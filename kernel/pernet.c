// SPDX-License-Identifier: GPL-2.0
/*
 * A namespace's life: its state is made with each network namespace (and
 * for every existing one at module load) and destroyed with it (and at
 * module unload); and the changes of its settings that other parts must
 * follow. Above the tables, so that they call down into netns.c for the
 * handle, the lock and the events, and only this file calls up into them
 * for their own life cycle.
 */
#include <net/netns/generic.h>

#include "pernet.h"
#include "guard.h"
#include "learn.h"
#include "netns.h"
#include "offload.h"
#include "service_policy.h"

/* Setting @i as rocect_config_apply() leaves it. */
static u32 setting_after(const struct rocect_config *c, const u32 *val,
			 u32 given, enum rocect_setting i)
{
	return given & BIT(i) ? val[i] : READ_ONCE(c->val[i]);
}

/**
 * rocect_config_apply() - change a namespace's settings, with what they need
 * @rn: the namespace's state
 * @val: the new values, by &enum rocect_setting; read where @given says
 * @given: bit i: setting i changes to @val[i] (checked by the caller)
 *
 * learn's records serve learn on and, in unknown-qp drop, the recovery of
 * adopted flows' pairs: they are allocated first, so that a failure
 * changes nothing. Going to drop mode forgets every request learnt so far:
 * from then on only adopted flows may count towards a pair.
 *
 * Any change kills the flows that offload mode let go without the helper:
 * each one's next packet is decided under the new settings. The guard is
 * on every device before guarded mode starts, and off once it ended; a
 * namespace that starts guarded (the module parameter) has its devices
 * hooked as they register (guard.c's notifier).
 *
 * Context: process context; netlink's changes are serialised by genetlink.
 * Return: 0 or -ENOMEM (nothing changed).
 */
int rocect_config_apply(struct rocect_net *rn, const u32 *val, u32 given)
{
	struct rocect_config *c = &rn->config;
	bool to_drop = given & BIT(ROCECT_CFG_unknown_qp) &&
		       val[ROCECT_CFG_unknown_qp] == ROCECT_UNKNOWN_QP_DROP;
	bool offloading;
	unsigned int i;
	int err;

	BUILD_BUG_ON(ROCECT_CFG_COUNT > 32);
	/* What the settings will be needs them (a second enable is a no-op). */
	if ((setting_after(c, val, given, ROCECT_CFG_learn) ||
	     setting_after(c, val, given, ROCECT_CFG_unknown_qp) ==
	     ROCECT_UNKNOWN_QP_DROP) &&
	    rocect_learn_enable(rn))
		return -ENOMEM;
	offloading = rocect_cfg(c, offload);
	if (given & BIT(ROCECT_CFG_offload)) {
		err = rocect_guard_prepare(rn, val[ROCECT_CFG_offload]);
		if (err)
			return err;
	}
	for (i = 0; i < ROCECT_CFG_COUNT; i++)
		if (given & BIT(i))
			WRITE_ONCE(c->val[i], val[i]);
	if (given & BIT(ROCECT_CFG_offload))
		rocect_guard_finish(rn);
	if (to_drop)
		rocect_learn_forget(rn);
	/* Offloaded flows were admitted under the old settings. */
	if (offloading && given)
		rocect_offload_revoke_all(rn);
	return 0;
}

static int __net_init rocect_net_init(struct net *net)
{
	struct rocect_net *rn = rocect_net(net);
	int err;

	rn->net = net;
	spin_lock_init(&rn->lock);
	rocect_guard_net_init(rn);
	rocect_config_net_init(rn);
	rocect_cnp_net_init(&rn->np);
	rocect_cnp_net_init(&rn->rej);
	rocect_cnp_net_init(&rn->drop_events);
	err = rocect_stats_net_init(rn);
	if (err)
		return err;
	err = rocect_qp_net_init(rn);
	if (err)
		goto err_stats;
	err = rocect_conn_net_init(rn);
	if (err)
		goto err_qp;
	/* Nothing to change: what the defaults need. */
	err = rocect_config_apply(rn, NULL, 0);
	if (err)
		goto err_conn;
	return 0;

err_conn:
	rocect_conn_net_exit(rn);
err_qp:
	rocect_qp_net_exit(rn);
err_stats:
	rocect_stats_net_exit(rn);
	return err;
}

/*
 * ORDER: the collector has stopped (gc.c's pernet operations exit first);
 * the QP table before the connections it uses.
 */
static void __net_exit rocect_net_exit(struct net *net)
{
	struct rocect_net *rn = rocect_net(net);

	rocect_guard_net_exit(rn);
	rocect_qp_net_exit(rn);
	rocect_conn_net_exit(rn);
	rocect_learn_net_exit(rn);
	rocect_policy_net_exit(rn);
	rocect_stats_net_exit(rn);
}

static struct pernet_operations rocect_net_ops = {
	.init = rocect_net_init,
	.exit = rocect_net_exit,
	.id = &rocect_net_id,
	.size = sizeof(struct rocect_net),
};

/**
 * rocect_netns_init() - set up rocect in every namespace, now and later
 *
 * Return: 0 or a negative errno.
 */
int rocect_netns_init(void)
{
	return register_pernet_subsys(&rocect_net_ops);
}

/**
 * rocect_netns_exit() - tear rocect down in every namespace
 */
void rocect_netns_exit(void)
{
	unregister_pernet_subsys(&rocect_net_ops);
}

// SPDX-License-Identifier: GPL-2.0
/*
 * Per-namespace state: created with each network namespace (and for every
 * existing one at module load), destroyed with it (and at module unload).
 */
#include <net/netns/generic.h>

#include "learn.h"
#include "netns.h"

unsigned int rocect_net_id __read_mostly;

static int __net_init rocect_net_init(struct net *net)
{
	struct rocect_net *rn = rocect_net(net);
	int err;

	rn->net = net;
	spin_lock_init(&rn->lock);
	rocect_config_net_init(rn);
	rocect_cnp_net_init(&rn->np);
	err = rocect_stats_net_init(rn);
	if (err)
		return err;
	err = rocect_qp_net_init(rn);
	if (err)
		goto err_stats;
	err = rocect_conn_net_init(net);
	if (err)
		goto err_qp;
	/* learn's records serve learn on and recovery in drop mode. */
	if (rocect_cfg(&rn->config, learn) ||
	    rocect_cfg(&rn->config, unknown_qp) == ROCECT_UNKNOWN_QP_DROP) {
		err = rocect_learn_enable(rn);
		if (err)
			goto err_conn;
	}
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
 * ORDER: the collector has stopped (conn.c's pernet operations exit first);
 * the QP table before the connections it uses.
 */
static void __net_exit rocect_net_exit(struct net *net)
{
	struct rocect_net *rn = rocect_net(net);

	rocect_qp_net_exit(rn);
	rocect_conn_net_exit(rn);
	rocect_learn_net_exit(rn);
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

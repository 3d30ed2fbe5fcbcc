// SPDX-License-Identifier: GPL-2.0
/*
 * The collector: once a second in every namespace it expires the
 * connections that are due (idle, done with TIMEWAIT, half-open too long)
 * and the inferred QP entries that have been idle too long. One clock ages
 * both tables.
 */
#include <linux/workqueue.h>

#include "gc.h"
#include "netns.h"

#define GC_INTERVAL	HZ

static void gc_run(struct work_struct *work)
{
	struct rocect_net *rn = container_of(to_delayed_work(work),
					     struct rocect_net, gc);

	rocect_conn_expire(rn);
	rocect_qp_expire_inferred(rn);
	queue_delayed_work(system_power_efficient_wq, &rn->gc, GC_INTERVAL);
}

static int __net_init gc_net_init(struct net *net)
{
	struct rocect_net *rn = rocect_net(net);

	INIT_DELAYED_WORK(&rn->gc, gc_run);
	queue_delayed_work(system_power_efficient_wq, &rn->gc, GC_INTERVAL);
	return 0;
}

static void __net_exit gc_net_exit(struct net *net)
{
	cancel_delayed_work_sync(&rocect_net(net)->gc);
}

/*
 * Pernet operations of their own, registered after the netlink family and
 * unregistered before it: the collector announces the entries it expires,
 * so it must not run once the family is gone.
 */
static struct pernet_operations gc_net_ops = {
	.init = gc_net_init,
	.exit = gc_net_exit,
};

/**
 * rocect_gc_init() - start the collector in every namespace, now and later
 *
 * Return: 0 or a negative errno.
 */
int rocect_gc_init(void)
{
	return register_pernet_subsys(&gc_net_ops);
}

/**
 * rocect_gc_exit() - stop every namespace's collector
 */
void rocect_gc_exit(void)
{
	unregister_pernet_subsys(&gc_net_ops);
}

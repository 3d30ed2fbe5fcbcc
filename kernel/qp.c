// SPDX-License-Identifier: GPL-2.0
/*
 * The QP table of a namespace: (zone, addresses, destination QP) -> source
 * QP. Packet-path lookups are lock-free (RCU rhashtable); changes take the
 * table's lock, announce themselves on the "events" multicast group and
 * free entries after a grace period.
 */
#include <linux/jiffies.h>
#include <linux/rhashtable.h>
#include <linux/slab.h>
#include <uapi/linux/rocect.h>

#include "netlink.h"
#include "netns.h"

static struct kmem_cache *qp_cache __read_mostly;

static const struct rhashtable_params qp_params = {
	.head_offset = offsetof(struct rocect_qp, node),
	.key_offset = offsetof(struct rocect_qp, key),
	.key_len = sizeof(struct rocect_qp_key),
	.automatic_shrinking = true,
};

/**
 * rocect_qp_lookup() - find the entry of a packet's QP
 * @rn: the namespace's state
 * @key: the packet's key
 *
 * Context: under rcu_read_lock(); the entry is valid until it is dropped.
 * Return: the entry or NULL.
 */
struct rocect_qp *rocect_qp_lookup(struct rocect_net *rn,
				   const struct rocect_qp_key *key)
{
	return rhashtable_lookup(&rn->qps.ht, key, qp_params);
}

/**
 * rocect_qp_account() - count a packet to this QP
 * @qp: the entry
 * @bytes: the packet's IP length
 */
void rocect_qp_account(struct rocect_qp *qp, unsigned int bytes)
{
	unsigned long now = jiffies;

	atomic64_inc(&qp->packets);
	atomic64_add(bytes, &qp->bytes);
	/* Written at most once a tick: the line stays shared between CPUs. */
	if (READ_ONCE(qp->last_seen) != now)
		WRITE_ONCE(qp->last_seen, now);
}

static void qp_free_rcu(struct rcu_head *head)
{
	kmem_cache_free(qp_cache, container_of(head, struct rocect_qp, rcu));
}

/**
 * rocect_qp_add() - insert an entry
 * @net: the namespace
 * @key: its key (zone, family, addresses, destination QP)
 * @sqpn: the source QP
 * @origin: &enum rocect_origin
 * @state: &enum rocect_state
 * @extack: for the reason of a failure, may be NULL
 *
 * Return: 0, -EEXIST, -ENOSPC (the namespace's max_qps is reached) or
 * -ENOMEM.
 */
int rocect_qp_add(struct net *net, const struct rocect_qp_key *key, u32 sqpn,
		  u8 origin, u8 state, struct netlink_ext_ack *extack)
{
	struct rocect_net *rn = rocect_net(net);
	struct rocect_qp_table *t = &rn->qps;
	struct rocect_qp *qp;
	int err;

	qp = kmem_cache_zalloc(qp_cache, GFP_ATOMIC);
	if (!qp)
		return -ENOMEM;
	qp->key = *key;
	qp->sqpn = sqpn;
	qp->origin = origin;
	qp->state = state;
	qp->last_seen = jiffies;

	spin_lock_bh(&t->lock);
	if (t->count >= READ_ONCE(rn->config.max_qps)) {
		spin_unlock_bh(&t->lock);
		rocect_stats_inc(rn, ROCECT_CTR_TABLE_FULL);
		NL_SET_ERR_MSG(extack, "QP table is full (max-qps)");
		kmem_cache_free(qp_cache, qp);
		return -ENOSPC;
	}
	err = rhashtable_lookup_insert_fast(&t->ht, &qp->node, qp_params);
	if (!err) {
		t->count++;
		atomic_inc(&t->gen);
	}
	spin_unlock_bh(&t->lock);

	if (err) {
		kmem_cache_free(qp_cache, qp);
		if (err == -EEXIST)
			NL_SET_ERR_MSG(extack, "QP entry exists");
		return err;
	}
	rocect_stats_inc(rn, ROCECT_CTR_QP_CREATED);
	rocect_nl_qp_notify(net, qp, ROCECT_CMD_QP_CREATE_NTF);
	return 0;
}

/* Unlink @qp, announce it, free it after a grace period. */
static void qp_remove(struct net *net, struct rocect_qp *qp)
{
	struct rocect_net *rn = rocect_net(net);

	lockdep_assert_held(&rn->qps.lock);
	rhashtable_remove_fast(&rn->qps.ht, &qp->node, qp_params);
	rn->qps.count--;
	atomic_inc(&rn->qps.gen);
	rocect_stats_inc(rn, ROCECT_CTR_QP_DESTROYED);
	rocect_nl_qp_notify(net, qp, ROCECT_CMD_QP_DELETE_NTF);
	call_rcu(&qp->rcu, qp_free_rcu);
}

/**
 * rocect_qp_del() - delete an entry
 * @net: the namespace
 * @key: its key
 *
 * Return: 0 or -ENOENT.
 */
int rocect_qp_del(struct net *net, const struct rocect_qp_key *key)
{
	struct rocect_net *rn = rocect_net(net);
	struct rocect_qp *qp;
	int err = -ENOENT;

	spin_lock_bh(&rn->qps.lock);
	rcu_read_lock();
	qp = rocect_qp_lookup(rn, key);
	if (qp) {
		qp_remove(net, qp);
		err = 0;
	}
	rcu_read_unlock();
	spin_unlock_bh(&rn->qps.lock);
	return err;
}

/**
 * rocect_qp_flush() - delete every entry, or every entry of one origin
 * @net: the namespace
 * @origin: &enum rocect_origin, or -1 for all
 *
 * Context: process context (walks the table).
 * Return: the number of entries deleted.
 */
unsigned int rocect_qp_flush(struct net *net, int origin)
{
	struct rocect_net *rn = rocect_net(net);
	struct rhashtable_iter iter;
	struct rocect_qp *qp;
	unsigned int n = 0;

	rhashtable_walk_enter(&rn->qps.ht, &iter);
	rhashtable_walk_start(&iter);
	while ((qp = rhashtable_walk_next(&iter))) {
		if (IS_ERR(qp))		/* -EAGAIN: resized, walk on */
			continue;
		if (origin >= 0 && qp->origin != origin)
			continue;
		spin_lock_bh(&rn->qps.lock);
		/* Gone already if a concurrent delete won the race. */
		if (rhashtable_lookup(&rn->qps.ht, &qp->key, qp_params) == qp) {
			qp_remove(net, qp);
			n++;
		}
		spin_unlock_bh(&rn->qps.lock);
	}
	rhashtable_walk_stop(&iter);
	rhashtable_walk_exit(&iter);
	return n;
}

/**
 * rocect_qp_net_init() - an empty table for a new namespace
 * @rn: the namespace's state
 *
 * Return: 0 or a negative errno.
 */
int rocect_qp_net_init(struct rocect_net *rn)
{
	spin_lock_init(&rn->qps.lock);
	rn->qps.count = 0;
	/* Dumps treat generation 0 as "not started". */
	atomic_set(&rn->qps.gen, 1);
	return rhashtable_init(&rn->qps.ht, &qp_params);
}

static void qp_free_now(void *ptr, void *arg)
{
	kmem_cache_free(qp_cache, ptr);
}

/**
 * rocect_qp_net_exit() - free a dying namespace's table
 * @rn: the namespace's state
 *
 * No packet of the namespace can still be in flight, so entries are freed
 * at once, without events.
 */
void rocect_qp_net_exit(struct rocect_net *rn)
{
	rhashtable_free_and_destroy(&rn->qps.ht, qp_free_now, NULL);
}

/**
 * rocect_qp_init() - create the slab cache of entries
 *
 * A cache of its own makes the memory per entry visible in
 * /proc/slabinfo ("rocect_qp").
 *
 * Return: 0 or -ENOMEM.
 */
int rocect_qp_init(void)
{
	qp_cache = KMEM_CACHE(rocect_qp, 0);
	return qp_cache ? 0 : -ENOMEM;
}

/**
 * rocect_qp_exit() - destroy the cache once all deferred frees have run
 */
void rocect_qp_exit(void)
{
	rcu_barrier();
	kmem_cache_destroy(qp_cache);
}

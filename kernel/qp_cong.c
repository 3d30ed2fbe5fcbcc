// SPDX-License-Identifier: GPL-2.0
/*
 * The congestion records of a namespace's QP entries, by entry: the CE
 * marks an entry's packets carried, the CNPs sent for it and when the last
 * went (the per-QP interval). A record is made under the namespace's lock,
 * only for a linked entry, and goes once the entry's delete event is out
 * (rocect_net_unlock()): no record outlives its entry, and an entry's last
 * event still shows its counters.
 */
#include <linux/rhashtable.h>
#include <linux/slab.h>

#include "netns.h"
#include "qp_cong.h"

static const struct rhashtable_params cong_params = {
	.head_offset = offsetof(struct rocect_qp_cong, node),
	.key_offset = offsetof(struct rocect_qp_cong, qp),
	.key_len = sizeof(const struct rocect_qp *),
	.automatic_shrinking = true,
};

/**
 * rocect_qp_cong_get() - an entry's congestion record, made if need be
 * @rn: the namespace's state
 * @qp: the entry
 *
 * Records are charged to the memory cgroup of a task that asks for a CNP
 * (netlink); the packet path's are not (softirq), and are bounded by the
 * entries.
 *
 * Context: under rcu_read_lock(), &rocect_net.lock not held.
 * Return: the record, valid until rcu_read_unlock(); ERR_PTR(-ENOMEM), or
 * ERR_PTR(-ENOENT) if the entry has left the table meanwhile.
 */
struct rocect_qp_cong *rocect_qp_cong_get(struct rocect_net *rn,
					  const struct rocect_qp *qp)
{
	struct rocect_qp_cong *cong, *old;
	struct rocect_events ev;

	cong = rhashtable_lookup(&rn->qps.cong, &qp, cong_params);
	if (likely(cong))
		return cong;
	cong = kzalloc(sizeof(*cong), GFP_ATOMIC | __GFP_ACCOUNT | __GFP_NOWARN);
	if (!cong)
		return ERR_PTR(-ENOMEM);
	cong->qp = qp;
	/* The first CE packet may trigger a CNP at once. */
	cong->last_cnp = rocect_qp_now_us() - ROCECT_CNP_INTERVAL_MAX - 1;
	rocect_net_lock(rn, &ev);
	/* Unlinked, its delete event may be out: no record after it. */
	old = qp->linked ? rhashtable_lookup_get_insert_fast(&rn->qps.cong,
							     &cong->node,
							     cong_params) :
			   ERR_PTR(-ENOENT);
	rocect_net_unlock(rn, &ev);
	if (!old)
		return cong;
	kfree(cong);
	return old;
}

/**
 * rocect_qp_cong_read() - an entry's congestion counters
 * @rn: the namespace's state
 * @qp: the entry
 *
 * Return: its counters; zeros for an entry that never saw CE.
 */
struct rocect_qp_cong_counts
rocect_qp_cong_read(struct rocect_net *rn, const struct rocect_qp *qp)
{
	struct rocect_qp_cong_counts counts = {};
	struct rocect_qp_cong *cong = NULL;

	rcu_read_lock();
	/* A dump of a million entries, none congested: no hashing. */
	if (atomic_read(&rn->qps.cong.nelems))
		cong = rhashtable_lookup(&rn->qps.cong, &qp, cong_params);
	if (cong) {
		counts.ce = atomic64_read(&cong->ce);
		counts.cnps = atomic64_read(&cong->cnps);
	}
	rcu_read_unlock();
	return counts;
}

/**
 * rocect_qp_cong_forget() - drop the record of an entry that left the table
 * @rn: the namespace's state
 * @qp: the entry, unlinked; its memory not yet reused (under RCU)
 *
 * Context: under rcu_read_lock().
 */
void rocect_qp_cong_forget(struct rocect_net *rn, const struct rocect_qp *qp)
{
	struct rocect_qp_cong *cong;

	if (!atomic_read(&rn->qps.cong.nelems))
		return;
	cong = rhashtable_lookup(&rn->qps.cong, &qp, cong_params);
	if (cong &&
	    !rhashtable_remove_fast(&rn->qps.cong, &cong->node, cong_params))
		kfree_rcu(cong, rcu);
}

/**
 * rocect_qp_cong_net_init() - no records in a new namespace
 * @rn: the namespace's state
 *
 * Return: 0 or a negative errno.
 */
int rocect_qp_cong_net_init(struct rocect_net *rn)
{
	return rhashtable_init(&rn->qps.cong, &cong_params);
}

static void cong_free_now(void *ptr, void *arg)
{
	kfree(ptr);
}

/**
 * rocect_qp_cong_net_exit() - free a dying namespace's records
 * @rn: the namespace's state
 *
 * Its entries are gone without delete events (rocect_qp_net_exit()), and
 * no packet is in flight: the records go at once.
 */
void rocect_qp_cong_net_exit(struct rocect_net *rn)
{
	rhashtable_free_and_destroy(&rn->qps.cong, cong_free_now, NULL);
}

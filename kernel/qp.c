// SPDX-License-Identifier: GPL-2.0
/*
 * The QP table of a namespace: (zone, addresses, destination QP) -> source
 * QP. Packet-path lookups are lock-free (RCU rhashtable); changes take the
 * namespace's lock and queue their events, sent once it is dropped.
 * Learned entries belong to a connection (conn.c); managed ones are added
 * and deleted through netlink; inferred ones are added by learn.c and
 * expire when idle.
 */
#include <linux/jhash.h>
#include <linux/jiffies.h>
#include <linux/rhashtable.h>
#include <linux/slab.h>
#include <uapi/linux/rocect.h>

#include "qp.h"
#include "netns.h"
#include "qp_find.h"
#include "qp_cong.h"
#include "shared_limit.h"
#include "source.h"
#include "walk.h"

/* Inferred entries the collector looks at in one run, and in one hold. */
#define EXPIRE_BATCH	4096
#define EXPIRE_HOLD	256

/**
 * struct rocect_managed_qp - an entry without a connection: managed or
 *	inferred
 * @qp: the entry
 * @inferred: an inferred entry's place in &rocect_qp_table.inferred
 * @rcu: deferred free, once off that list
 */
struct rocect_managed_qp {
	struct rocect_qp qp;
	union {
		struct list_head inferred;
		struct rcu_head rcu;
	};
};

static struct kmem_cache *managed_cache __read_mostly;

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
	return rocect_qp_find(rn, key);
}

/* An IPv6 key: the whole key, as rhashtable's default would hash it. */
u32 rocect_qp_key_hash6(const void *data, u32 len, u32 seed)
{
	return jhash2(data, len / sizeof(u32), seed);
}

/**
 * rocect_qp_match() - whether an entry is one a filter names
 * @qp: the entry
 * @f: the filter
 *
 * Return: true if every field the filter gives matches.
 */
bool rocect_qp_match(const struct rocect_qp *qp,
		     const struct rocect_qp_filter *f)
{
	const struct rocect_qp_key *k = &qp->key;

	return (!f->key.family || k->family == f->key.family) &&
	       (!f->has_zone || k->zone == f->key.zone) &&
	       (!f->has_saddr || nf_inet_addr_cmp(&k->saddr, &f->key.saddr)) &&
	       (!f->has_daddr || nf_inet_addr_cmp(&k->daddr, &f->key.daddr)) &&
	       (!f->has_dqpn || k->dqpn == f->key.dqpn) &&
	       (f->sqpn < 0 || qp->sqpn == f->sqpn) &&
	       (f->origin < 0 || qp->origin == f->origin) &&
	       (f->state < 0 || rocect_qp_state(qp) == f->state) &&
	       (!f->seen_within ||
		(u32)jiffies - READ_ONCE(qp->last_seen) < f->seen_within);
}

/**
 * rocect_qp_find_one() - the entry a filter names, by a walk of the table
 * @rn: the namespace's state
 * @f: the filter, e.g. a destination without its source
 * @found: set to the key of an entry it names
 * @matches: set to the number of entries it names: 0, 1, or 2 for more
 *
 * The walk lets others run every %ROCECT_WALK_BATCH entries: the caller
 * looks @found up again under RCU.
 *
 * Context: process context, not under rcu_read_lock().
 */
void rocect_qp_find_one(struct rocect_net *rn, const struct rocect_qp_filter *f,
			struct rocect_qp_key *found, int *matches)
{
	unsigned int seen = 0;
	struct rocect_walk w;
	struct rocect_qp *qp;

	*matches = 0;
	rocect_walk_enter(&w, &rn->qps.ht, NULL);
	rocect_walk_start(&w);
	while (*matches < 2 && (qp = rocect_walk_next(&w))) {
		/* A restarted walk may show an entry again: count it once. */
		if (rocect_qp_match(qp, f) &&
		    (!*matches || memcmp(&qp->key, found, sizeof(*found)))) {
			*found = qp->key;
			(*matches)++;
		}
		if (++seen % ROCECT_WALK_BATCH == 0)
			rocect_walk_pause(&w);
	}
	rocect_walk_stop(&w);
	rocect_walk_exit(&w);
}

/**
 * rocect_qp_walk_enter() - begin a dump's walk of the QP table
 * @rn: the namespace's state
 * @w: the walk; rocect_walk_exit() ends it
 */
void rocect_qp_walk_enter(struct rocect_net *rn, struct rocect_walk *w)
{
	rocect_walk_enter(w, &rn->qps.ht, &rn->qps.gen);
}

/**
 * rocect_qp_init_entry() - reset an entry before its key is filled in
 * @qp: the entry
 * @origin: &enum rocect_origin
 */
void rocect_qp_init_entry(struct rocect_qp *qp, u8 origin)
{
	/* The 128 bytes a direction may take, with its slab and bucket. */
	BUILD_BUG_ON(sizeof(struct rocect_qp) != 88);
	BUILD_BUG_ON(ROCECT_ORIGIN_MAX > 3);
	BUILD_BUG_ON(ROCE_CLASS_MAX > 16);
	qp->sqpn = 0;
	qp->origin = origin;
	qp->linked = 0;
	qp->sport = 0;
	qp->iif = ROCECT_IIF_UNBOUND;
	atomic64_set(&qp->packets, 0);
	atomic64_set(&qp->bytes, 0);
	qp->last_seen = jiffies;
}

/**
 * rocect_qp_state() - an entry's state: its connection's
 * @qp: the entry
 *
 * Return: &enum rocect_state; %ROCECT_STATE_ESTABLISHED for an entry
 * without a connection.
 */
u8 rocect_qp_state(const struct rocect_qp *qp)
{
	const struct rocect_conn *conn = rocect_qp_conn(qp);

	return conn ? rocect_conn_uapi_state(READ_ONCE(conn->state)) :
		      ROCECT_STATE_ESTABLISHED;
}

/**
 * rocect_qp_insert() - put an entry into the namespace's table
 * @rn: the namespace's state
 * @qp: the entry, its key and source QP set
 * @extack: for the reason of a failure, may be NULL
 *
 * Context: &rocect_net.lock held.
 * Return: 0, -EEXIST or -ENOSPC (the namespace's max_qps is reached, or
 * the initial namespace's, which all others share: shared_limit.c).
 */
int rocect_qp_insert(struct rocect_net *rn, struct rocect_qp *qp,
		     struct netlink_ext_ack *extack)
{
	int err;

	lockdep_assert_held(&rn->lock);
	if (rn->qps.count >= rocect_limit(rn, max_qps)) {
		rocect_stats_inc(rn, ROCECT_CTR_TABLE_FULL);
		NL_SET_ERR_MSG(extack, "QP table is full (max-qps)");
		return -ENOSPC;
	}
	if (!rocect_shared_take(rn, ROCECT_CFG_max_qps)) {
		rocect_stats_inc(rn, ROCECT_CTR_TABLE_FULL);
		NL_SET_ERR_MSG(extack,
			       "QP tables of all namespaces are full (the initial namespace's max-qps)");
		return -ENOSPC;
	}
	err = rhashtable_lookup_insert_fast(&rn->qps.ht, &qp->node, qp_params);
	if (err) {
		rocect_shared_give(rn, ROCECT_CFG_max_qps, 1);
		if (err == -EEXIST)
			NL_SET_ERR_MSG(extack, "QP entry exists");
		return err;
	}
	qp->linked = 1;
	rn->qps.count++;
	atomic_inc(&rn->qps.gen);
	rocect_stats_inc(rn, ROCECT_CTR_QP_CREATED);
	rocect_event(rn, qp, ROCECT_EV_CREATE);
	return 0;
}

/**
 * rocect_qp_unlink() - take an entry out of the table and announce it
 * @rn: the namespace's state
 * @qp: a linked entry; the caller frees it after a grace period
 *
 * Context: &rocect_net.lock held.
 */
void rocect_qp_unlink(struct rocect_net *rn, struct rocect_qp *qp)
{
	lockdep_assert_held(&rn->lock);
	rhashtable_remove_fast(&rn->qps.ht, &qp->node, qp_params);
	qp->linked = 0;
	rn->qps.count--;
	rocect_shared_give(rn, ROCECT_CFG_max_qps, 1);
	atomic_inc(&rn->qps.gen);
	rocect_stats_inc(rn, ROCECT_CTR_QP_DESTROYED);
	rocect_event(rn, qp, ROCECT_EV_DELETE);
}

/**
 * rocect_qp_changed() - announce that an entry's state changed
 * @rn: the namespace's state
 * @qp: the entry
 *
 * Context: &rocect_net.lock held.
 */
void rocect_qp_changed(struct rocect_net *rn, struct rocect_qp *qp)
{
	lockdep_assert_held(&rn->lock);
	if (!qp->linked)
		return;
	/* A dump that shows states must see this as a change. */
	atomic_inc(&rn->qps.gen);
	rocect_event(rn, qp, ROCECT_EV_CHANGE);
}

static void managed_free_rcu(struct rcu_head *head)
{
	kmem_cache_free(managed_cache,
			container_of(head, struct rocect_managed_qp, rcu));
}

/* The host an inferred entry is charged to: its packets' sender. */
static struct rocect_source *inferred_source(struct rocect_net *rn,
					     const struct rocect_qp_key *key,
					     bool create)
{
	struct rocect_source_key sk;

	rocect_source_key_init(&sk, &key->saddr, key->zone, key->family);
	return create ? rocect_source_get(rn, &sk) : rocect_source_find(rn, &sk);
}

/**
 * rocect_qp_source_room() - may the sender of @key's packets have @n more
 *	inferred entries?
 * @rn: the namespace's state
 * @key: the entry's key; its source address is charged
 * @n: how many
 *
 * One host may hold source-share percent of the inferred entries' half of
 * max_qps (all of it at 100): a flood of forged QPs from one host must not
 * keep learning from the others' traffic.
 *
 * Context: &rocect_net.lock held.
 * Return: true if there is room; else counted.
 */
bool rocect_qp_source_room(struct rocect_net *rn,
			   const struct rocect_qp_key *key, unsigned int n)
{
	struct rocect_source *src = inferred_source(rn, key, false);

	if (!src || rocect_cfg(&rn->config, source_share) == 100 ||
	    src->inferred + n <= rocect_source_inferred_share(rn))
		return true;
	rocect_stats_inc(rn, ROCECT_CTR_QP_SOURCE_FULL);
	return false;
}

/**
 * rocect_qp_remove() - remove an entry: a managed or inferred one alone, a
 *	learned one with its connection
 * @rn: the namespace's state
 * @qp: a linked entry
 *
 * Context: &rocect_net.lock held.
 */
void rocect_qp_remove(struct rocect_net *rn, struct rocect_qp *qp)
{
	struct rocect_conn *conn = rocect_qp_conn(qp);
	struct rocect_managed_qp *m;

	if (conn) {
		rocect_conn_destroy(rn, conn, false);
		return;
	}
	m = container_of(qp, struct rocect_managed_qp, qp);
	if (rocect_qp_from_traffic(qp)) {
		struct rocect_source *src = inferred_source(rn, &qp->key,
							    false);

		list_del(&m->inferred);
		rn->qps.inferred_count--;
		/* Each inferred entry holds a reference to its source. */
		if (!WARN_ON_ONCE(!src)) {
			src->inferred--;
			rocect_source_put(rn, src);
		}
	}
	rocect_qp_unlink(rn, qp);
	call_rcu(&m->rcu, managed_free_rcu);
}

/*
 * Make a managed entry what a replacing add says, in place: its source QP
 * and interface as given, and what its traffic bound (port, Q_Key, PSN
 * window) forgotten, so that its sender's next packets bind it afresh.
 * Its counters stay. A packet deciding against the old binding loses its
 * cmpxchg against the cleared words, or binds the entry as a first packet
 * would.
 */
static void managed_rebind(struct rocect_net *rn, struct rocect_qp *qp,
			   u32 sqpn, int iif)
{
	qp->sqpn = sqpn;
	WRITE_ONCE(qp->iif, iif);
	WRITE_ONCE(qp->sport, 0);
	/* One store: no moment with a known Q_Key of 0. */
	WRITE_ONCE(qp->qkey, 0);
	rocect_qp_changed(rn, qp);
}

/**
 * rocect_qp_add_managed() - add an entry through netlink
 * @rn: the namespace's state
 * @key: its key (zone, family, addresses, destination QP)
 * @sqpn: the source QP
 * @iif: where its sender's packets come in, if the operator knows
 *	(ifindex); else %ROCECT_IIF_UNBOUND: its first packet binds it
 * @replace: a managed entry of the key is replaced, in place
 * @extack: for the reason of a failure
 *
 * An inferred or recovered entry of the same key makes way: this is how an
 * operator promotes it, so that the unknown-qp drop policy admits its
 * packets, or keeps it past its idle timeout. With @replace a managed one
 * is changed without a moment in which the key has no entry (which drop
 * mode would turn into drops), keeping its counters: this is also how a
 * managed entry is unbound from a sender that moved. A learned entry
 * belongs to its connection and is never replaced.
 *
 * Return: 0, -EEXIST, -EBUSY (a learned entry), -ENOSPC or -ENOMEM.
 */
int rocect_qp_add_managed(struct rocect_net *rn,
			  const struct rocect_qp_key *key, u32 sqpn, int iif,
			  bool replace, struct netlink_ext_ack *extack)
{
	struct rocect_managed_qp *m;
	struct rocect_events ev;
	struct rocect_qp *old;
	int err;

	m = kmem_cache_zalloc(managed_cache, GFP_KERNEL);
	if (!m)
		return -ENOMEM;
	rocect_qp_init_entry(&m->qp, ROCECT_ORIGIN_MANAGED);
	m->qp.key = *key;
	m->qp.sqpn = sqpn;
	m->qp.iif = iif;

	rocect_net_lock(rn, &ev);
	old = rocect_qp_lookup(rn, key);
	if (old && replace && old->origin == ROCECT_ORIGIN_MANAGED) {
		managed_rebind(rn, old, sqpn, iif);
		rocect_net_unlock(rn, &ev);
		kmem_cache_free(managed_cache, m);
		return 0;
	}
	if (old && replace && old->origin == ROCECT_ORIGIN_LEARNED) {
		NL_SET_ERR_MSG(extack,
			       "QP entry of a CM connection: not replaced");
		err = -EBUSY;
		goto unlock;
	}
	if (old && rocect_qp_from_traffic(old))
		rocect_qp_remove(rn, old);
	err = rocect_qp_insert(rn, &m->qp, extack);
unlock:
	rocect_net_unlock(rn, &ev);
	if (err)
		kmem_cache_free(managed_cache, m);
	return err;
}

/**
 * rocect_qp_inferred_room() - may @n more inferred entries be added?
 * @rn: the namespace's state
 * @n: how many
 *
 * Inferred entries may take at most half of max_qps: forged packets must
 * not leave handshakes and operators without room. Exact under
 * &rocect_net.lock; a hint without it (the packet path asks first).
 *
 * Return: true if there is room.
 */
bool rocect_qp_inferred_room(struct rocect_net *rn, unsigned int n)
{
	u32 max = rocect_limit(rn, max_qps);

	if (READ_ONCE(rn->qps.count) + n <= max &&
	    READ_ONCE(rn->qps.inferred_count) + n <= max / 2)
		return true;
	rocect_stats_inc(rn, ROCECT_CTR_TABLE_FULL);
	return false;
}

/**
 * rocect_qp_add_inferred() - add an entry that learning inferred
 * @rn: the namespace's state
 * @key: its key
 * @sqpn: the source QP its packets come from
 * @from: the &enum roce_class of the packets it was inferred from
 * @origin: %ROCECT_ORIGIN_INFERRED, or %ROCECT_ORIGIN_RECOVERED when a
 *	flow adopted from a peer firewall completed the inference
 *
 * An entry of the key inferred from traffic that says otherwise (another
 * source QP, or inferred from other packets: a UD packet may lie about an
 * RC QP) makes way, and so does an inferred one for a recovered one; a
 * recovered entry never makes way for an inferred one, nor does any other
 * entry. A new entry needs room in the table's inferred half and in its
 * sender's share of it (rocect_qp_source_room()).
 *
 * Context: &rocect_net.lock held; packet path.
 * Return: 0, -EEXIST, -ENOSPC or -ENOMEM.
 */
int rocect_qp_add_inferred(struct rocect_net *rn,
			   const struct rocect_qp_key *key, u32 sqpn, u8 from,
			   u8 origin)
{
	struct rocect_source *src;
	struct rocect_managed_qp *m;
	struct rocect_qp *old;
	int err;

	lockdep_assert_held(&rn->lock);
	/* Ask before allocating: a flood of new QPs must not churn slabs. */
	old = rocect_qp_lookup(rn, key);
	if (old && (!rocect_qp_from_traffic(old) ||
		    (old->origin == ROCECT_ORIGIN_RECOVERED &&
		     origin == ROCECT_ORIGIN_INFERRED) ||
		    (old->sqpn == sqpn && old->inferred_from == from &&
		     old->origin == origin)))
		return -EEXIST;
	if (!old && (!rocect_qp_inferred_room(rn, 1) ||
		     !rocect_qp_source_room(rn, key, 1)))
		return -ENOSPC;
	/* Before the old entry goes: no memory must not lose it. */
	m = kmem_cache_zalloc(managed_cache, GFP_ATOMIC);
	if (!m)
		return -ENOMEM;
	src = inferred_source(rn, key, true);
	if (!src) {
		kmem_cache_free(managed_cache, m);
		return -ENOMEM;
	}
	if (old)
		rocect_qp_remove(rn, old);
	rocect_qp_init_entry(&m->qp, origin);
	m->qp.key = *key;
	m->qp.sqpn = sqpn;
	m->qp.inferred_from = from;
	err = rocect_qp_insert(rn, &m->qp, NULL);
	if (err) {
		rocect_source_put(rn, src);
		kmem_cache_free(managed_cache, m);
		return err;
	}
	list_add_tail(&m->inferred, &rn->qps.inferred);
	rn->qps.inferred_count++;
	src->inferred++;
	rocect_stats_inc(rn, origin == ROCECT_ORIGIN_RECOVERED ?
			 ROCECT_CTR_QP_RECOVERED : ROCECT_CTR_QP_INFERRED);
	return 0;
}

/* Has an inferred entry been idle for longer than the idle timeout? */
static bool idle_expired(struct rocect_net *rn, const struct rocect_qp *qp)
{
	return (u32)jiffies - READ_ONCE(qp->last_seen) >
	       rocect_cfg(&rn->config, idle_timeout) * HZ;
}

/**
 * rocect_qp_idle_left() - seconds until an inferred entry expires
 * @rn: the namespace's state
 * @qp: the entry
 *
 * Return: the seconds, 0 if due.
 */
u32 rocect_qp_idle_left(struct rocect_net *rn, const struct rocect_qp *qp)
{
	u32 idle = (u32)jiffies - READ_ONCE(qp->last_seen);
	u32 limit = rocect_cfg(&rn->config, idle_timeout) * HZ;

	return idle < limit ? DIV_ROUND_UP(limit - idle, HZ) : 0;
}

/**
 * rocect_qp_expire_inferred() - forget inferred entries idle for longer than
 *	the idle timeout
 * @rn: the namespace's state
 *
 * Looks at up to %EXPIRE_BATCH entries a run, oldest first; those still
 * active go to the back of the list.
 *
 * Context: process context (the collector).
 */
void rocect_qp_expire_inferred(struct rocect_net *rn)
{
	struct rocect_managed_qp *m;
	struct rocect_events ev;
	unsigned int n, seen = 0;

	/* The collector runs in every namespace; most have none. */
	if (!READ_ONCE(rn->qps.inferred_count))
		return;
	rocect_net_lock(rn, &ev);
	n = min_t(unsigned int, rn->qps.inferred_count, EXPIRE_BATCH);
	while (n--) {
		if (++seen % EXPIRE_HOLD == 0) {
			/* Let the packet path have the lock now and then. */
			rocect_net_unlock(rn, &ev);
			cond_resched();
			rocect_net_lock(rn, &ev);
			n = min(n, rn->qps.inferred_count);
			if (!n)
				break;
		}
		m = list_first_entry(&rn->qps.inferred, struct rocect_managed_qp,
				     inferred);
		if (!idle_expired(rn, &m->qp)) {
			list_move_tail(&m->inferred, &rn->qps.inferred);
			continue;
		}
		rocect_qp_remove(rn, &m->qp);
		rocect_stats_inc(rn, ROCECT_CTR_QP_EXPIRED);
		/* Send this one's event before the queue fills. */
		rocect_net_unlock(rn, &ev);
		rocect_net_lock(rn, &ev);
		n = min(n, rn->qps.inferred_count);
	}
	rocect_net_unlock(rn, &ev);
}

/**
 * rocect_qp_del() - delete an entry; a learned one takes its connection
 *	(both directions) with it
 * @rn: the namespace's state
 * @key: its key
 *
 * Return: 0 or -ENOENT.
 */
int rocect_qp_del(struct rocect_net *rn, const struct rocect_qp_key *key)
{
	struct rocect_events ev;
	struct rocect_qp *qp;
	int err = -ENOENT;

	rocect_net_lock(rn, &ev);
	qp = rocect_qp_lookup(rn, key);
	if (qp) {
		rocect_qp_remove(rn, qp);
		err = 0;
	}
	rocect_net_unlock(rn, &ev);
	return err;
}

/**
 * rocect_qp_flush() - delete every entry, or every entry of one origin
 * @rn: the namespace's state
 * @origin: &enum rocect_origin, or -1 for all
 *
 * One walk, which lets others run every %ROCECT_WALK_BATCH entries. Every
 * entry there when it began and not deleted by others meanwhile is found:
 * rocect_walk_start() resumes a walk whose table was resized, or whose
 * entry went, where rhashtable alone would skip entries (before it did,
 * a flush of 100000 entries on 6.12 could leave 2 behind: those a resize
 * had put into the first bucket of the new table). Entries added during
 * the walk may stay.
 *
 * Context: process context (walks the table).
 * Return: the number of entries deleted.
 */
unsigned int rocect_qp_flush(struct rocect_net *rn, int origin)
{
	unsigned int n = 0, seen = 0;
	struct rocect_events ev;
	struct rocect_walk w;
	struct rocect_qp *qp;

	rocect_walk_enter(&w, &rn->qps.ht, NULL);
	rocect_walk_start(&w);
	while ((qp = rocect_walk_next(&w))) {
		if (origin < 0 || qp->origin == origin) {
			rocect_net_lock(rn, &ev);
			/* Gone already if a concurrent delete won the race. */
			if (qp->linked) {
				rocect_qp_remove(rn, qp);
				n++;
			}
			rocect_net_unlock(rn, &ev);
		}
		if (++seen % ROCECT_WALK_BATCH == 0)
			rocect_walk_pause(&w);
	}
	rocect_walk_stop(&w);
	rocect_walk_exit(&w);
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
	int err;

	rn->qps.count = 0;
	rn->qps.inferred_count = 0;
	INIT_LIST_HEAD(&rn->qps.inferred);
	/* Dumps treat generation 0 as "not started". */
	atomic_set(&rn->qps.gen, 1);
	err = rhashtable_init(&rn->qps.ht, &qp_params);
	if (err)
		return err;
	err = rocect_qp_cong_net_init(rn);
	if (err)
		rhashtable_destroy(&rn->qps.ht);
	return err;
}

static void qp_free_now(void *ptr, void *arg)
{
	struct rocect_qp *qp = ptr;

	/* Learned entries go with their connections (conn.c). */
	if (qp->origin != ROCECT_ORIGIN_LEARNED)
		kmem_cache_free(managed_cache,
				container_of(qp, struct rocect_managed_qp, qp));
}

/**
 * rocect_qp_net_exit() - free a dying namespace's managed and inferred
 *	entries
 * @rn: the namespace's state
 *
 * No packet of the namespace can still be in flight, so entries are freed
 * at once, without events, and so are all congestion records. Runs before
 * the connections, which hold the learned entries, are freed.
 */
void rocect_qp_net_exit(struct rocect_net *rn)
{
	rhashtable_free_and_destroy(&rn->qps.ht, qp_free_now, NULL);
	rocect_shared_give(rn, ROCECT_CFG_max_qps, rn->qps.count);
	rn->qps.count = 0;
	rocect_qp_cong_net_exit(rn);
}

/**
 * rocect_qp_init() - create the slab cache of managed entries
 *
 * A cache of its own makes their memory visible in /proc/slabinfo
 * ("rocect_managed_qp", which inferred entries share); learned entries live
 * in "rocect_conn". Accounted: a managed entry is charged to the memory
 * cgroup of the task that adds it, so that root in a user namespace cannot
 * pin memory its cgroup does not pay for.
 *
 * Return: 0 or -ENOMEM.
 */
int rocect_qp_init(void)
{
	managed_cache = KMEM_CACHE(rocect_managed_qp, SLAB_ACCOUNT);
	return managed_cache ? 0 : -ENOMEM;
}

/**
 * rocect_qp_exit() - destroy the cache once all deferred frees have run
 */
void rocect_qp_exit(void)
{
	rcu_barrier();
	kmem_cache_destroy(managed_cache);
}

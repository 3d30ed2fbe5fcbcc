// SPDX-License-Identifier: GPL-2.0
/*
 * Tracked CM connections of a namespace. A connection is one allocation
 * holding both QP directions; it is keyed by its addresses, zone and the
 * active side's communication ID, and expires when idle or some time after
 * its end (TIMEWAIT, reject). Changes take the namespace's lock.
 */
#include <linux/jhash.h>
#include <linux/jiffies.h>
#include <linux/rhashtable.h>
#include <linux/slab.h>
#include <uapi/linux/rocect.h>

#include "conn.h"
#include "netns.h"
#include "offload.h"
#include "shared_limit.h"
#include "walk.h"

static struct kmem_cache *conn_cache __read_mostly;

static bool half_open(u8 state)
{
	return state == ROCE_CS_REQ || state == ROCE_CS_REP;
}

static bool finished(u8 state)
{
	return state == ROCE_CS_DISCONNECTING || state == ROCE_CS_TIMEWAIT ||
	       state == ROCE_CS_REJECTED;
}

/*
 * The connection that makes room for a new one when the table is full:
 * the oldest finished one, else the oldest half-open one. An established
 * connection never makes room.
 */
static struct rocect_conn *eviction_victim(struct rocect_net *rn)
{
	struct rocect_conn *conn;

	conn = list_first_entry_or_null(&rn->conns.finished,
					struct rocect_conn, evictable);
	return conn ?: list_first_entry_or_null(&rn->conns.half_open,
						struct rocect_conn, evictable);
}

static void key_of(const struct rocect_conn *conn, struct rocect_conn_key *k)
{
	const struct rocect_qp_key *q = &conn->qp[0].key;

	memset(k, 0, sizeof(*k));
	k->active = q->saddr;
	k->passive = q->daddr;
	k->comm_id = conn->comm_id[0];
	k->zone = q->zone;
	k->family = q->family;
	k->sidr = conn->sidr;
}

static u32 conn_hash(const void *data, u32 len, u32 seed)
{
	BUILD_BUG_ON(sizeof(struct rocect_conn_key) % sizeof(u32));
	return jhash2(data, sizeof(struct rocect_conn_key) / sizeof(u32), seed);
}

static u32 conn_obj_hash(const void *data, u32 len, u32 seed)
{
	struct rocect_conn_key k;

	key_of(data, &k);
	return conn_hash(&k, sizeof(k), seed);
}

static int conn_obj_cmp(struct rhashtable_compare_arg *arg, const void *obj)
{
	struct rocect_conn_key k;

	key_of(obj, &k);
	return memcmp(&k, arg->key, sizeof(k));
}

static const struct rhashtable_params conn_params = {
	.head_offset = offsetof(struct rocect_conn, node),
	.hashfn = conn_hash,
	.obj_hashfn = conn_obj_hash,
	.obj_cmpfn = conn_obj_cmp,
	.automatic_shrinking = true,
};

/**
 * rocect_conn_lookup() - find a connection by its key
 * @rn: the namespace's state
 * @key: the key, padding zeroed
 *
 * Context: under rcu_read_lock() or &rocect_net.lock.
 * Return: the connection or NULL.
 */
struct rocect_conn *rocect_conn_lookup(struct rocect_net *rn,
				       const struct rocect_conn_key *key)
{
	return rhashtable_lookup(&rn->conns.ht, key, conn_params);
}

/**
 * rocect_conn_uapi_state() - the netlink state of a connection state
 * @state: &enum roce_cm_state, not %ROCE_CS_NONE
 *
 * Return: &enum rocect_state.
 */
u8 rocect_conn_uapi_state(enum roce_cm_state state)
{
	BUILD_BUG_ON(ROCE_CS_REJECTED - 1 != ROCECT_STATE_REJECTED);
	BUILD_BUG_ON(ROCE_CS_REQ - 1 != ROCECT_STATE_REQ);
	return state - 1;
}

/**
 * rocect_conn_walk_enter() - begin a dump's walk of the connections
 * @rn: the namespace's state
 * @w: the walk; rocect_walk_exit() ends it
 */
void rocect_conn_walk_enter(struct rocect_net *rn, struct rocect_walk *w)
{
	rocect_walk_enter(w, &rn->conns.ht, &rn->conns.gen);
}

/* Does the connection count against its source's share? */
static bool held(u8 state)
{
	return !finished(state);
}

/* Not kept in the connection: 8 bytes each, for a lookup per change. */
static struct rocect_source *source_of(struct rocect_net *rn,
				       const struct rocect_conn *conn)
{
	const struct rocect_qp_key *q = &conn->qp[0].key;
	struct rocect_source_key sk;

	rocect_source_key_init(&sk, &q->saddr, q->zone, q->family);
	return rocect_source_find(rn, &sk);
}

/*
 * Has the source of a new connection room for it? At its share, its oldest
 * half-open connection makes room; if all it holds are established, no
 * (counted). Looked up, not created: a refused REQ allocates nothing.
 */
static bool source_room(struct rocect_net *rn,
			const struct rocect_source_key *sk)
{
	struct rocect_source *src;
	struct rocect_conn *old;

	src = rocect_source_find(rn, sk);
	/* At 100 %, the table's own limit decides. */
	if (!src || src->held < rocect_source_share(rn) ||
	    rocect_cfg(&rn->config, source_share) == 100)
		return true;
	old = list_first_entry_or_null(&src->half_open, struct rocect_conn,
				       source_half_open);
	if (!old) {
		rocect_stats_inc(rn, ROCECT_CTR_CONN_SOURCE_FULL);
		return false;
	}
	rocect_conn_destroy(rn, old, false);
	rocect_stats_inc(rn, ROCECT_CTR_CONN_EVICTED);
	return true;
}

/* Keep the source's counts in step with a change from @from to @to. */
static void source_follow(struct rocect_source *src, struct rocect_conn *conn,
			  u8 from, u8 to)
{
	/* Each connection holds a reference to its source. */
	if (WARN_ON_ONCE(!src))
		return;

	if (held(from) != held(to)) {
		if (held(to))
			src->held++;
		else
			src->held--;
	}
	if (half_open(from) && !half_open(to))
		list_del_init(&conn->source_half_open);
	else if (!half_open(from) && half_open(to))
		list_add_tail(&conn->source_half_open, &src->half_open);
}

/**
 * rocect_conn_create() - start tracking a connection, in state REQ
 * @rn: the namespace's state
 * @key: addresses, zone, family and the active side's ID
 *
 * A source (the active side's address) at its share of max_conns makes
 * room from its own oldest half-open connection, or is refused. When
 * max_conns is reached, the oldest finished connection (refused, or torn
 * down) makes room, else the oldest half-open one (REQ or REP): a flood of
 * unanswered REQs, or of REQs each refused by a REJ, cannot lock out new
 * connections, and no established connection is ever evicted for a new
 * one. A namespace other than the initial one also needs a place in what
 * all of them share (shared_limit.c); when they hold it all, it makes
 * room from its own connections the same way, never from another's.
 *
 * Context: &rocect_net.lock held.
 * Return: the connection, or NULL if its source holds its share or
 * max_conns is reached, in established connections, or the namespaces'
 * shared max_conns is (counted), or memory is short.
 */
struct rocect_conn *rocect_conn_create(struct rocect_net *rn,
				       const struct rocect_conn_key *key)
{
	struct rocect_source_key sk;
	struct rocect_source *src;
	struct rocect_conn *conn;
	int i;

	lockdep_assert_held(&rn->lock);
	rocect_source_key_init(&sk, &key->active, key->zone, key->family);
	if (!source_room(rn, &sk))
		return NULL;
	if (rn->conns.count >= rocect_limit(rn, max_conns) ||
	    !rocect_shared_take(rn, ROCECT_CFG_max_conns)) {
		conn = eviction_victim(rn);
		if (!conn) {
			rocect_stats_inc(rn, ROCECT_CTR_CONN_FULL);
			return NULL;
		}
		/* Gives back its shared place, for the new one to take. */
		rocect_conn_destroy(rn, conn, false);
		rocect_stats_inc(rn, ROCECT_CTR_CONN_EVICTED);
		if (!rocect_shared_take(rn, ROCECT_CFG_max_conns)) {
			rocect_stats_inc(rn, ROCECT_CTR_CONN_FULL);
			return NULL;
		}
	}
	conn = kmem_cache_zalloc(conn_cache, GFP_ATOMIC);
	if (!conn)
		goto give_back;
	src = rocect_source_get(rn, &sk);
	if (!src) {
		kmem_cache_free(conn_cache, conn);
		goto give_back;
	}
	for (i = 0; i < 2; i++) {
		struct rocect_qp *qp = &conn->qp[i];

		rocect_qp_init_entry(qp, ROCECT_ORIGIN_LEARNED);
		qp->dir = i;
		qp->key.saddr = i ? key->passive : key->active;
		qp->key.daddr = i ? key->active : key->passive;
		qp->key.zone = key->zone;
		qp->key.family = key->family;
	}
	conn->comm_id[0] = key->comm_id;
	conn->sidr = key->sidr;
	conn->state = ROCE_CS_REQ;
	conn->created = jiffies;
	conn->changed = conn->created;
	conn->seen = conn->created;
	/* _fast() is for fixed-length keys only: this table hashes objects. */
	if (rhashtable_lookup_insert_key(&rn->conns.ht, key, &conn->node,
					 conn_params)) {
		kmem_cache_free(conn_cache, conn);
		rocect_source_put(rn, src);
		goto give_back;
	}
	list_add_tail(&conn->evictable, &rn->conns.half_open);
	src->held++;
	list_add_tail(&conn->source_half_open, &src->half_open);
	rn->conns.count++;
	atomic_inc(&rn->conns.gen);
	rocect_stats_inc(rn, ROCECT_CTR_CONN_CREATED);
	return conn;

give_back:
	rocect_shared_give(rn, ROCECT_CFG_max_conns, 1);
	return NULL;
}

static void conn_free_rcu(struct rcu_head *head)
{
	kmem_cache_free(conn_cache, container_of(head, struct rocect_conn, rcu));
}

/**
 * rocect_conn_destroy() - forget a connection and its QP entries
 * @rn: the namespace's state
 * @conn: the connection
 * @expired: it timed out (counted as such)
 *
 * Context: &rocect_net.lock held. Freed after a grace period.
 */
void rocect_conn_destroy(struct rocect_net *rn, struct rocect_conn *conn,
			 bool expired)
{
	struct rocect_source *src;
	int i;

	lockdep_assert_held(&rn->lock);
	for (i = 0; i < 2; i++) {
		if (!conn->qp[i].linked)
			continue;
		rocect_qp_unlink(rn, &conn->qp[i]);
		if (expired)
			rocect_stats_inc(rn, ROCECT_CTR_QP_EXPIRED);
	}
	rhashtable_remove_fast(&rn->conns.ht, &conn->node, conn_params);
	rocect_offload_unindex(rn, conn);
	if (!list_empty(&conn->evictable))
		list_del(&conn->evictable);
	src = source_of(rn, conn);
	source_follow(src, conn, conn->state, ROCE_CS_TIMEWAIT);
	if (src)
		rocect_source_put(rn, src);
	rn->conns.count--;
	rocect_shared_give(rn, ROCECT_CFG_max_conns, 1);
	atomic_inc(&rn->conns.gen);
	rocect_stats_inc(rn, ROCECT_CTR_CONN_DESTROYED);
	if (expired)
		rocect_stats_inc(rn, ROCECT_CTR_CONN_EXPIRED);
	call_rcu(&conn->rcu, conn_free_rcu);
}

/**
 * rocect_conn_set_state() - move a connection and its entries on
 * @rn: the namespace's state
 * @conn: the connection
 * @state: the new state
 *
 * Context: &rocect_net.lock held.
 */
void rocect_conn_set_state(struct rocect_net *rn, struct rocect_conn *conn,
			   enum roce_cm_state state)
{
	u8 before;

	lockdep_assert_held(&rn->lock);
	if (finished(state) && !finished(conn->state))
		list_move_tail(&conn->evictable, &rn->conns.finished);
	else if (!half_open(state) && !finished(state))
		list_del_init(&conn->evictable);
	source_follow(source_of(rn, conn), conn, conn->state, state);
	atomic_inc(&rn->conns.gen);
	before = rocect_conn_uapi_state(conn->state);
	WRITE_ONCE(conn->state, state);
	WRITE_ONCE(conn->changed, (u32)jiffies);
	/* Its entries' state is its own, as netlink shows it. */
	if (rocect_conn_uapi_state(state) != before) {
		rocect_qp_changed(rn, &conn->qp[0]);
		rocect_qp_changed(rn, &conn->qp[1]);
	}
}

/* A 32-bit jiffies stamp (at most 49 days old at HZ=1000) in full. */
static unsigned long stamp(u32 then)
{
	unsigned long now = jiffies;

	return now - (u32)((u32)now - then);
}

/**
 * rocect_conn_last_active() - jiffies of the last CM message or data packet
 * @conn: the connection
 *
 * Return: the latest of the three, as a full jiffies value.
 */
unsigned long rocect_conn_last_active(const struct rocect_conn *conn)
{
	unsigned long last = stamp(READ_ONCE(conn->seen));
	int i;

	for (i = 0; i < 2; i++) {
		unsigned long seen = stamp(READ_ONCE(conn->qp[i].last_seen));

		if (time_after(seen, last))
			last = seen;
	}
	return last;
}

/* Jiffies after which @conn is forgotten. */
static unsigned long conn_deadline(struct rocect_net *rn,
				   const struct rocect_conn *conn)
{
	u8 state = READ_ONCE(conn->state);

	if (state == ROCE_CS_TIMEWAIT || state == ROCE_CS_REJECTED)
		return stamp(READ_ONCE(conn->changed)) +
		       rocect_cfg(&rn->config, timewait_timeout) * HZ;
	if (half_open(state))
		return rocect_conn_last_active(conn) +
		       rocect_cfg(&rn->config, half_open_timeout) * HZ;
	return rocect_conn_last_active(conn) +
	       rocect_cfg(&rn->config, idle_timeout) * HZ;
}

/**
 * rocect_conn_replaceable() - may a new connection take this one's QPs?
 * @rn: the namespace's state
 * @conn: the connection holding them
 *
 * A host reuses a QP number once the connection that had it is over: torn
 * down (DREQ, TIMEWAIT), refused, or silent for longer than a handshake may
 * take (the host crashed). A live connection keeps its entries: otherwise
 * one forged REQ and REP would take them away.
 *
 * Return: true if @conn may be replaced.
 */
bool rocect_conn_replaceable(struct rocect_net *rn,
			     const struct rocect_conn *conn)
{
	u8 state = READ_ONCE(conn->state);

	if (finished(state))
		return true;
	return time_after(jiffies, rocect_conn_last_active(conn) +
			  rocect_cfg(&rn->config, half_open_timeout) * HZ);
}

/**
 * rocect_conn_timeout() - seconds until a connection is forgotten
 * @rn: the namespace's state
 * @conn: the connection
 *
 * Return: the seconds, 0 if due.
 */
u32 rocect_conn_timeout(struct rocect_net *rn, const struct rocect_conn *conn)
{
	unsigned long deadline = conn_deadline(rn, conn);

	return time_after(deadline, jiffies) ?
	       DIV_ROUND_UP(deadline - jiffies, HZ) : 0;
}

/**
 * rocect_conn_expire() - destroy the connections that are due
 * @rn: the namespace's state
 *
 * Context: process context (gc.c's collector).
 */
void rocect_conn_expire(struct rocect_net *rn)
{
	struct rocect_conn_key k;
	struct rocect_conn *conn;
	struct rocect_events ev;
	struct rocect_walk w;
	unsigned int n = 0;

	rocect_walk_enter(&w, &rn->conns.ht, NULL);
	rocect_walk_start(&w);
	while ((conn = rocect_walk_next(&w))) {
		/* The lock's writers change the byte whole. */
		if (data_race((u8)conn->indexed))
			rocect_offload_age(rn, conn);
		if (!time_before(jiffies, conn_deadline(rn, conn))) {
			rocect_net_lock(rn, &ev);
			/* Still there, and still due? A CM message may have won. */
			key_of(conn, &k);
			if (rocect_conn_lookup(rn, &k) == conn &&
			    !time_before(jiffies, conn_deadline(rn, conn)))
				rocect_conn_destroy(rn, conn, true);
			rocect_net_unlock(rn, &ev);
		}
		/* Let others run; the walk goes on after this connection. */
		if (++n % ROCECT_WALK_BATCH == 0)
			rocect_walk_pause(&w);
	}
	rocect_walk_stop(&w);
	rocect_walk_exit(&w);
}

/**
 * rocect_conn_net_init() - an empty table
 * @rn: the namespace's state
 *
 * Return: 0 or a negative errno.
 */
int rocect_conn_net_init(struct rocect_net *rn)
{
	int err;

	rn->conns.count = 0;
	INIT_LIST_HEAD(&rn->conns.finished);
	INIT_LIST_HEAD(&rn->conns.half_open);
	/* Dumps treat generation 0 as "not started". */
	atomic_set(&rn->conns.gen, 1);
	err = rocect_source_net_init(rn);
	if (err)
		return err;
	err = rhashtable_init(&rn->conns.ht, &conn_params);
	if (err)
		goto err_source;
	err = rocect_offload_net_init(rn);
	if (err)
		goto err_ht;
	return 0;

err_ht:
	rhashtable_destroy(&rn->conns.ht);
err_source:
	rocect_source_net_exit(rn);
	return err;
}

static void conn_free_now(void *ptr, void *arg)
{
	kmem_cache_free(conn_cache, ptr);
}

/**
 * rocect_conn_net_exit() - free a dying namespace's connections
 * @rn: the namespace's state
 *
 * After the QP table is gone: no reference to the entries inside remains.
 */
void rocect_conn_net_exit(struct rocect_net *rn)
{
	rocect_offload_net_exit(rn);
	rhashtable_free_and_destroy(&rn->conns.ht, conn_free_now, NULL);
	rocect_shared_give(rn, ROCECT_CFG_max_conns, rn->conns.count);
	rn->conns.count = 0;
	rocect_source_net_exit(rn);
}

/**
 * rocect_conn_init() - create the slab cache of connections
 *
 * Its objects ("rocect_conn" in /proc/slabinfo) hold both directions of a
 * connection: half an object is the memory of one tracked QP direction.
 * Accounted, as conntrack's own cache is: charged to the memory cgroup of
 * the task whose packet created it (traffic it sends itself); softirq
 * charges nobody.
 *
 * Return: 0 or -ENOMEM.
 */
int rocect_conn_init(void)
{
	conn_cache = KMEM_CACHE(rocect_conn, SLAB_ACCOUNT);
	return conn_cache ? 0 : -ENOMEM;
}

/**
 * rocect_conn_exit() - destroy the cache once all deferred frees have run
 */
void rocect_conn_exit(void)
{
	rcu_barrier();
	kmem_cache_destroy(conn_cache);
}

// SPDX-License-Identifier: GPL-2.0
/*
 * Offload of established data flows (the offload setting). Each RC or UC
 * QP pair sends from one UDP port, which RDMA devices derive from the two
 * QP numbers or the path's flow label (roce_udp_sport()). Connections
 * past REP are indexed by that port and their addresses; a data flow that
 * arrives through one of rocect's expectations and that exactly one of
 * them explains is admitted without the helper (rocect_offload_child()),
 * which is what nft's "flow add" and tc's act_ct ask of a conntrack
 * before they take it over. Any other flow gets the helper as before.
 * When the explanation goes (DREQ, the end of a connection, a second pair
 * on the port), the flow is killed: its next packet comes back through
 * the expectation and is decided again.
 */
#include <linux/jhash.h>
#include <linux/rhashtable.h>
#include <net/netfilter/nf_conntrack.h>
#include <net/netfilter/nf_conntrack_core.h>
#include <net/netfilter/nf_conntrack_helper.h>
#include <net/netfilter/nf_conntrack_zones.h>
#include <uapi/linux/rocect.h>

#include "cm.h"
#include "conn.h"
#include "expect.h"
#include "offload.h"

/*
 * What the index is keyed by: a connection's addresses (active side
 * first), zone and the port its pair sends from.
 */
struct offload_key {
	union nf_inet_addr active;
	union nf_inet_addr passive;
	u16 zone;
	u16 port;
	u8 family;
	u8 pad[3];
};

static void key_of(const struct rocect_conn *conn, struct offload_key *k)
{
	const struct rocect_qp_key *q = &conn->qp[0].key;

	memset(k, 0, sizeof(*k));
	k->active = q->saddr;
	k->passive = q->daddr;
	k->zone = q->zone;
	k->port = conn->data_sport;
	k->family = q->family;
}

static u32 key_hash(const void *data, u32 len, u32 seed)
{
	BUILD_BUG_ON(sizeof(struct offload_key) % sizeof(u32));
	return jhash2(data, sizeof(struct offload_key) / sizeof(u32), seed);
}

static u32 obj_hash(const void *data, u32 len, u32 seed)
{
	struct offload_key k;

	key_of(data, &k);
	return key_hash(&k, sizeof(k), seed);
}

static int obj_cmp(struct rhashtable_compare_arg *arg, const void *obj)
{
	struct offload_key k;

	key_of(obj, &k);
	return memcmp(&k, arg->key, sizeof(k));
}

static const struct rhashtable_params port_params = {
	.head_offset = offsetof(struct rocect_conn, port_node),
	.hashfn = key_hash,
	.obj_hashfn = obj_hash,
	.obj_cmpfn = obj_cmp,
	.automatic_shrinking = true,
};

/**
 * rocect_offload_net_init() - an empty index
 * @rn: the namespace's state
 *
 * Return: 0 or a negative errno.
 */
int rocect_offload_net_init(struct rocect_net *rn)
{
	return rhltable_init(&rn->conns.ports, &port_params);
}

/**
 * rocect_offload_net_exit() - free the index (not the connections in it)
 * @rn: the namespace's state
 */
void rocect_offload_net_exit(struct rocect_net *rn)
{
	rhltable_destroy(&rn->conns.ports);
}

/**
 * rocect_offload_index() - index a connection that the REP completed
 * @rn: the namespace's state
 * @conn: an RC or UC connection whose &rocect_conn.data_sport is known
 *
 * Without memory the connection stays out: its flows keep the helper.
 *
 * Context: &rocect_net.lock held.
 */
void rocect_offload_index(struct rocect_net *rn, struct rocect_conn *conn)
{
	bool guard = true;
	struct rocect_conn *other;
	struct rhlist_head *pos;
	struct offload_key k;

	lockdep_assert_held(&rn->lock);
	if (conn->indexed || conn->data_sport == ROCECT_DATA_SPORT_NONE ||
	    !conn->data_sport)
		return;
	/* With the key: the list of its equals is found by it, not the object. */
	key_of(conn, &k);
	/*
	 * A pair on the port of others: their flows get the helper back
	 * (rocect_offload_settle() kills them), so the guard leaves them.
	 */
	rhl_for_each_entry_rcu(other, pos,
			       rhltable_lookup(&rn->conns.ports, &k, port_params),
			       port_node) {
		WRITE_ONCE(other->bare[0], 0);
		WRITE_ONCE(other->bare[1], 0);
		guard = false;
	}
	if (rhltable_insert_key(&rn->conns.ports, &k, &conn->port_node,
				port_params))
		return;
	conn->indexed = 1;
	/*
	 * The first packet of a data flow comes before the conntrack that
	 * rocect_offload_child() admits: in guarded mode (now or once the mode
	 * is changed) the guard checks it already.
	 */
	WRITE_ONCE(conn->bare[0], guard);
	WRITE_ONCE(conn->bare[1], guard);
}

/**
 * rocect_offload_unindex() - take a connection out of the index
 * @rn: the namespace's state
 * @conn: the connection, indexed or not
 *
 * Context: &rocect_net.lock held.
 */
void rocect_offload_unindex(struct rocect_net *rn, struct rocect_conn *conn)
{
	lockdep_assert_held(&rn->lock);
	if (!conn->indexed)
		return;
	rhltable_remove(&rn->conns.ports, &conn->port_node, port_params);
	conn->indexed = 0;
}

/*
 * The one connection that explains a flow from @t's source to its
 * destination and source port, either side of it active; NULL if none
 * or more than one does. *@dir: the direction of the flow in it.
 */
static struct rocect_conn *explaining(struct rocect_net *rn, u8 family,
				      const union nf_inet_addr *src,
				      const union nf_inet_addr *dst,
				      u16 port, u16 zone, int *dir)
{
	struct rocect_conn *conn, *found = NULL;
	struct rhlist_head *list, *pos;
	struct offload_key k;
	int way;

	memset(&k, 0, sizeof(k));
	k.zone = zone;
	k.port = port;
	k.family = family;
	for (way = 0; way < 2; way++) {
		k.active = way ? *dst : *src;
		k.passive = way ? *src : *dst;
		list = rhltable_lookup(&rn->conns.ports, &k, port_params);
		rhl_for_each_entry_rcu(conn, pos, list, port_node) {
			if (found)
				return NULL;
			found = conn;
			*dir = way;
		}
	}
	return found;
}

/*
 * May the flow @t of @master, which @conn alone explains in direction
 * @dir, go without the helper? Only a live pair's data, from the port it
 * was seen from (if any), on no port of the master's (its CM traffic must
 * stay in sight); in guarded mode only in zone 0, the zone of the packets
 * the guard sees (it runs before conntrack).
 */
static bool offloadable(struct rocect_net *rn, const struct nf_conn *master,
			const struct nf_conntrack_tuple *t, u16 zone,
			struct rocect_conn *conn, int dir)
{
	const struct nf_conntrack_tuple *cm =
		&master->tuplehash[IP_CT_DIR_ORIGINAL].tuple;
	u32 want = ROCECT_SPORT_RC | ntohs(t->src.u.udp.port);
	u8 mode = rocect_cfg(&rn->config, offload);
	struct rocect_qp *qp;
	u32 sport;
	u8 state;

	if (!mode || t->src.u.udp.port == cm->src.u.udp.port ||
	    (mode == ROCECT_OFFLOAD_GUARDED && zone))
		return false;
	state = READ_ONCE(conn->state);
	if (state != ROCE_CS_REP && state != ROCE_CS_ESTABLISHED)
		return false;
	qp = &conn->qp[dir];
	/* The lock's writers change the word whole: a stale bit is harmless. */
	if (!data_race(qp->linked && conn->qp[!dir].linked))
		return false;
	/* Bind the entry to the port, as its first packet would. */
	sport = READ_ONCE(qp->sport);
	if (!sport)
		sport = cmpxchg(&qp->sport, 0, want) ?: want;
	return sport == want;
}

/**
 * rocect_offload_child() - decide whether a new data flow keeps the helper
 * @ct: the flow's conntrack, new and not yet confirmed
 * @exp: the expectation it came through, of a CM master of rocect's
 *
 * The expectation's expectfn in offload mode, which gives its flows no
 * helper: this one adds it (adding an extension is legal until the
 * conntrack is confirmed) unless the flow may be offloaded. A flow that
 * should keep the helper and cannot get it is marked dying: the packet is
 * dropped at confirmation, and the next one tries again.
 *
 * Context: init_conntrack(), under rcu_read_lock().
 */
void rocect_offload_child(struct nf_conn *ct, struct nf_conntrack_expect *exp)
{
	const struct nf_conntrack_tuple *t = &ct->tuplehash[IP_CT_DIR_ORIGINAL].tuple;
	struct rocect_net *rn = rocect_net_rcu(nf_ct_net(ct));
	struct nf_conn *master = exp->master;
	const struct nf_conn_help *mhelp = nfct_help(master);
	u16 zone = nf_ct_zone(ct)->id;
	struct rocect_conn *conn;
	struct nf_conn_help *help;
	bool bare, was;
	int dir;

	if (!mhelp)
		return;
	conn = explaining(rn, t->src.l3num == NFPROTO_IPV4 ? 4 : 6, &t->src.u3,
			  &t->dst.u3, ntohs(t->src.u.udp.port), zone, &dir);
	/* Another port's flow (a second helper port) is not the pair's. */
	if (conn && t->dst.u.udp.port == READ_ONCE(conn->data_dport)) {
		bare = offloadable(rn, master, t, zone, conn, dir);
		/* The guard checks the flow that the helper will not. */
		was = xchg(&conn->bare[dir], bare);
		if (bare && !was && rocect_cfg(&rn->config, offload) ==
		    ROCECT_OFFLOAD_GUARDED) {
			/*
			 * The guard let this packet pass unchecked: it goes
			 * (the sender retransmits), and the next is checked.
			 */
			set_bit(IPS_DYING_BIT, &ct->status);
			return;
		}
		if (bare) {
			/* The helper will not see it: mark it now. */
			rocect_cm_mark(ct, conn);
			rocect_stats_inc(rn, ROCECT_CTR_OFFLOAD_FLOWS);
			return;
		}
	}
	help = nf_ct_helper_ext_add(ct, GFP_ATOMIC);
	if (!help) {
		rocect_stats_inc(rn, ROCECT_CTR_EXPECT_FAILED);
		set_bit(IPS_DYING_BIT, &ct->status);
		return;
	}
	rcu_assign_pointer(help->helper, rcu_dereference(mhelp->helper));
}

static struct nf_ct_helper_expectfn offload_expectfn = {
	.name = "roce-offload",
	.expectfn = rocect_offload_child,
};

/* A data flow of a CM master of rocect's that runs without the helper. */
static bool offloaded_child(struct nf_conn *ct)
{
	const struct nf_conntrack_helper *helper;
	const struct nf_conn_help *help;
	bool ours;

	if (!ct->master || nfct_help(ct))
		return false;
	help = nfct_help(ct->master);
	if (!help)
		return false;
	rcu_read_lock();
	helper = rcu_dereference(help->helper);
	ours = helper && helper->me == THIS_MODULE;
	rcu_read_unlock();
	return ours;
}

/* A data flow of a CM master of rocect's that has rocect's helper. */
static bool helped_child(struct nf_conn *ct)
{
	const struct nf_conntrack_helper *helper;
	const struct nf_conn_help *help = nfct_help(ct);

	if (!ct->master || !help)
		return false;
	helper = rcu_dereference(help->helper);
	return helper && helper->me == THIS_MODULE;
}

/*
 * The conntrack of the data flow from @qp's sender, from port @port, as
 * that sender opened it: referenced, for nf_ct_put().
 */
static struct nf_conn *flow_of(struct rocect_net *rn,
			       const struct rocect_qp *qp, u16 port)
{
	const struct rocect_conn *conn = rocect_qp_conn(qp);
	struct nf_conntrack_tuple_hash *h;
	struct nf_conntrack_zone zone;
	struct nf_conntrack_tuple t;
	struct nf_conn *ct;

	memset(&t, 0, sizeof(t));
	t.src.l3num = qp->key.family == 4 ? NFPROTO_IPV4 : NFPROTO_IPV6;
	t.src.u3 = qp->key.saddr;
	t.dst.u3 = qp->key.daddr;
	t.src.u.udp.port = htons(port);
	t.dst.u.udp.port = conn->data_dport;
	t.dst.protonum = IPPROTO_UDP;
	t.dst.dir = IP_CT_DIR_ORIGINAL;
	nf_ct_zone_init(&zone, qp->key.zone, NF_CT_DEFAULT_ZONE_DIR, 0);
	h = nf_conntrack_find_get(rn->net, &zone, &t);
	if (!h)
		return NULL;
	ct = nf_ct_tuplehash_to_ctrack(h);
	if (NF_CT_DIRECTION(h) == IP_CT_DIR_ORIGINAL)
		return ct;
	nf_ct_put(ct);
	return NULL;
}

/* flow_of(), if the flow is an offloaded one. */
static struct nf_conn *offloaded_flow_of(struct rocect_net *rn,
					 const struct rocect_qp *qp, u16 port)
{
	struct nf_conn *ct = flow_of(rn, qp, port);

	if (ct && !offloaded_child(ct)) {
		nf_ct_put(ct);
		return NULL;
	}
	return ct;
}

/**
 * rocect_offload_settle() - revoke what an entry's event takes away
 * @rn: the namespace's state
 * @qp: an entry created, changed or deleted under the lock just dropped
 * @what: &enum rocect_event
 *
 * A learned entry of a connection that was indexed: if the connection is
 * no longer live (DREQ, DREP, REJ, gone), or the entry was just created
 * (its pair may share the port of another), the offloaded flow from its
 * sender on that port is killed.
 * Its next packet is a new flow, decided again by rocect_offload_child().
 *
 * Context: rocect_net_unlock(), under RCU, &rocect_net.lock not held.
 */
void rocect_offload_settle(struct rocect_net *rn, const struct rocect_qp *qp,
			   enum rocect_event what)
{
	const struct rocect_conn *conn = rocect_qp_conn(qp);
	struct nf_conn *ct;
	u8 state;
	u16 port;

	if (!conn)
		return;
	state = READ_ONCE(conn->state);
	if (what == ROCECT_EV_CHANGE &&
	    (state == ROCE_CS_REP || state == ROCE_CS_ESTABLISHED))
		return;
	/* Only a connection that was indexed has had a flow let go. */
	port = READ_ONCE(conn->data_sport);
	if (port < 0xc000 || !READ_ONCE(conn->data_dport))
		return;
	/*
	 * The pair is gone: its next flow, if any, is decided again
	 * (rocect_offload_child()). A new entry's pair is not: a second
	 * pair on its port cleared the bits when it was indexed.
	 */
	if (what != ROCECT_EV_CREATE)
		WRITE_ONCE(((struct rocect_conn *)conn)->bare[rocect_qp_dir(qp)],
			   0);
	ct = offloaded_flow_of(rn, qp, port);
	if (!ct)
		return;
	if (nf_ct_kill(ct))
		rocect_stats_inc(rn, ROCECT_CTR_OFFLOAD_REVOKED);
	nf_ct_put(ct);
}

/* Has the guard seen the entry's sender since the last collection? */
static bool seen_lately(const struct rocect_qp *qp)
{
	return (u32)jiffies - READ_ONCE(qp->last_seen) < 2 * HZ;
}

/*
 * The flows of a connection made before offload was turned on came
 * through expectations made without it, and keep the helper for as long
 * as they carry traffic (and in guarded mode the guard checks their
 * packets a second time). Such a flow is one that has the helper although
 * rocect_offload_child() would now let it go without: the connection
 * alone explains it, its direction is marked bare, and offloadable() says
 * yes. A flow that kept the helper for a reason of its own (a second pair
 * on its port, another zone in guarded mode) is left alone, or it would be
 * killed on every pass. The connection's expectations are renewed in the
 * mode in force (once a pass: *@renewed 1, or -1 if it has no live CM
 * master to renew them on, whose flows stay as they are: killing one would
 * take the expectations that hang off it) and the flow is killed: its next
 * packet is a new flow, decided again.
 */
static bool upgrade(struct rocect_net *rn, struct rocect_conn *conn,
		    struct nf_conn *ct, int dir, int *renewed)
{
	const struct nf_conntrack_tuple *t = &ct->tuplehash[IP_CT_DIR_ORIGINAL].tuple;
	u16 zone = nf_ct_zone(ct)->id;
	int way;

	if (!rocect_cfg(&rn->config, offload) || !READ_ONCE(conn->bare[dir]) ||
	    READ_ONCE(conn->state) != ROCE_CS_ESTABLISHED || !helped_child(ct))
		return false;
	if (explaining(rn, t->src.l3num == NFPROTO_IPV4 ? 4 : 6, &t->src.u3,
		       &t->dst.u3, ntohs(t->src.u.udp.port), zone, &way) != conn ||
	    way != dir || !offloadable(rn, ct->master, t, zone, conn, dir))
		return false;
	if (!*renewed) {
		local_bh_disable();
		*renewed = rocect_expect_renew(rn, ct, &conn->qp[0].key.saddr,
					       &conn->qp[0].key.daddr,
					       true) ? 1 : -1;
		local_bh_enable();
	}
	if (*renewed < 0)
		return false;
	nf_ct_kill(ct);
	return true;
}

/**
 * rocect_offload_age() - count an indexed connection's offloaded flows as
 *	its traffic
 * @rn: the namespace's state
 * @conn: the connection
 *
 * The helper sees no packet of an offloaded flow: while the flowtable
 * holds one (IPS_OFFLOAD), its entry counts as seen now, and the CM
 * master and its expectations are kept alive as data would keep them.
 * Once the flowtable lets an idle flow go, the entry ages as before. In
 * guarded mode the guard sees every packet and keeps the entry's time
 * exact: the master is kept while it saw one lately. A flow that kept the
 * helper only because it is older than offload mode is moved onto it
 * (upgrade()).
 *
 * Context: the collector (process context).
 */
void rocect_offload_age(struct rocect_net *rn, struct rocect_conn *conn)
{
	struct nf_conn *ct, *held = NULL;
	bool guarded = rocect_cfg(&rn->config, offload) ==
		       ROCECT_OFFLOAD_GUARDED;
	u16 port = READ_ONCE(conn->data_sport);
	int renewed = 0;
	int dir;

	rcu_read_lock();
	for (dir = 0; dir < 2; dir++) {
		ct = flow_of(rn, &conn->qp[dir], port);
		if (!ct)
			continue;
		if (upgrade(rn, conn, ct, dir, &renewed) ||
		    !offloaded_child(ct)) {
			nf_ct_put(ct);
			continue;
		}
		if (guarded ? seen_lately(&conn->qp[dir]) :
			      test_bit(IPS_OFFLOAD_BIT, &ct->status)) {
			if (!guarded)
				WRITE_ONCE(conn->qp[dir].last_seen,
					   (u32)jiffies);
			if (!held) {
				held = ct;
				continue;
			}
		}
		nf_ct_put(ct);
	}
	if (held) {
		if (READ_ONCE(conn->state) == ROCE_CS_ESTABLISHED) {
			local_bh_disable();
			rocect_expect_keepalive(rn, held,
						&conn->qp[0].key.saddr,
						&conn->qp[0].key.daddr, true);
			local_bh_enable();
		}
		nf_ct_put(held);
	}
	rcu_read_unlock();
}

/**
 * rocect_offload_bare() - is a packet's flow one the guard checks?
 * @rn: the namespace's state
 * @family: 4 or 6
 * @saddr: the packet's source address, 4 or 16 bytes
 * @daddr: its destination address
 * @sport: its UDP source port
 * @dport: its UDP destination port, as it came
 *
 * The flow in zone 0 that one connection explains and whose last
 * conntrack came without the helper (&rocect_conn.bare).
 *
 * Context: under rcu_read_lock().
 * Return: true if so.
 */
bool rocect_offload_bare(struct rocect_net *rn, u8 family, const u8 *saddr,
			 const u8 *daddr, u16 sport, __be16 dport)
{
	union nf_inet_addr src, dst;
	struct rocect_conn *conn;
	int dir;

	roce_addr_widen(&src, saddr, family);
	roce_addr_widen(&dst, daddr, family);
	conn = explaining(rn, family, &src, &dst, sport, 0, &dir);
	return conn && READ_ONCE(conn->bare[dir]) &&
	       dport == READ_ONCE(conn->data_dport);
}

static int offloaded_flow(struct nf_conn *ct, void *data)
{
	return offloaded_child(ct);
}

/**
 * rocect_offload_revoke_all() - kill every offloaded flow of a namespace
 * @rn: the namespace's state
 *
 * After a change of settings: each flow's next packet is decided under
 * the new ones.
 *
 * Context: process context.
 */
void rocect_offload_revoke_all(struct rocect_net *rn)
{
	struct nf_ct_iter_data d = { .net = rn->net };

	nf_ct_iterate_cleanup_net(offloaded_flow, &d);
}

/**
 * rocect_offload_init() - name the expectfn, for ctnetlink and conntrackd
 */
void rocect_offload_init(void)
{
	nf_ct_helper_expectfn_register(&offload_expectfn);
}

static bool ours(struct nf_conntrack_expect *exp, void *data)
{
	return exp->expectfn == rocect_offload_child;
}

/**
 * rocect_offload_exit() - remove the expectations that point into the
 *	module
 *
 * Offload mode's expectations name no helper, so unregistering the helper
 * does not remove them. After the helper and the collector, which make
 * them, are gone; a packet that found one just before runs its expectfn
 * inside its RCU read section, which the grace period waits for.
 */
void rocect_offload_exit(void)
{
	nf_ct_expect_iterate_destroy(ours, NULL);
	nf_ct_helper_expectfn_unregister(&offload_expectfn);
	synchronize_rcu();
}

// SPDX-License-Identifier: GPL-2.0
/*
 * Connection tracking from the CM MADs: find the connection a message
 * belongs to, step the state machine (cm_fsm.c) and carry out its action:
 * create the connection, learn the passive side and both QP entries, change
 * state, forget; then set up the conntrack expectations it calls for.
 */
#include <linux/jiffies.h>
#include <net/netfilter/nf_conntrack_zones.h>
#include <uapi/linux/rocect.h>

#include "cm.h"
#include "expect.h"
#include "netns.h"
#include "offload.h"
#include "psn_window.h"
#include "service_policy.h"

/* Expectations to set up once the namespace's lock is dropped. */
struct cm_todo {
	bool reverse;		/* traffic towards the active side */
	bool forward;		/* data towards the passive side */
	bool permanent;
	bool keepalive;		/* established: keep its flows related */
	bool sidr;
	union nf_inet_addr active, passive;
};

/* The key of a message's connection; @from_passive: the passive side sent it. */
static void make_key(struct rocect_conn_key *k, const struct roce_pkt *pkt,
		     bool from_passive, u32 comm_id, u16 zone, bool sidr)
{
	const u8 *src = roce_pkt_saddr(pkt), *dst = roce_pkt_daddr(pkt);

	memset(k, 0, sizeof(*k));
	roce_addr_widen(&k->active, from_passive ? dst : src, pkt->family);
	roce_addr_widen(&k->passive, from_passive ? src : dst, pkt->family);
	k->comm_id = comm_id;
	k->zone = zone;
	k->family = pkt->family;
	k->sidr = sidr;
}

/*
 * Once a connection has both communication IDs, a message must carry both:
 * one ID is easily guessed, two are not, and a REJ or DREQ ends it.
 */
static bool ids_match(const struct rocect_conn *conn, u32 passive_id)
{
	return !conn->comm_id[1] || conn->comm_id[1] == passive_id;
}

/*
 * The connection of a CM message. REQ, RTU and SIDR_REQ come from the
 * active side, REP and SIDR_REP from the passive side; the others may come
 * from either, and the second communication ID tells which.
 */
static struct rocect_conn *find_conn(struct rocect_net *rn,
				     const struct roce_pkt *pkt,
				     enum roce_cm_event ev, u16 zone,
				     struct rocect_conn_key *k)
{
	const struct roce_cm *cm = &pkt->cm;
	bool sidr = ev == ROCE_CM_EV_SIDR_REQ || ev == ROCE_CM_EV_SIDR_REP_OK ||
		    ev == ROCE_CM_EV_SIDR_REP_FAIL;
	struct rocect_conn *conn;

	switch (ev) {
	case ROCE_CM_EV_REQ:
	case ROCE_CM_EV_SIDR_REQ:
		make_key(k, pkt, false, cm->local_comm_id, zone, sidr);
		return rocect_conn_lookup(rn, k);
	case ROCE_CM_EV_RTU:
		make_key(k, pkt, false, cm->local_comm_id, zone, false);
		conn = rocect_conn_lookup(rn, k);
		return conn && ids_match(conn, cm->remote_comm_id) ? conn : NULL;
	case ROCE_CM_EV_REP:
		make_key(k, pkt, true, cm->remote_comm_id, zone, false);
		return rocect_conn_lookup(rn, k);
	case ROCE_CM_EV_SIDR_REP_OK:
	case ROCE_CM_EV_SIDR_REP_FAIL:
		/* The request ID parses as the local communication ID. */
		make_key(k, pkt, true, cm->local_comm_id, zone, true);
		return rocect_conn_lookup(rn, k);
	default:
		break;
	}
	make_key(k, pkt, false, cm->local_comm_id, zone, false);
	conn = rocect_conn_lookup(rn, k);
	if (conn && ids_match(conn, cm->remote_comm_id))
		return conn;
	make_key(k, pkt, true, cm->remote_comm_id, zone, false);
	conn = rocect_conn_lookup(rn, k);
	if (conn && ids_match(conn, cm->local_comm_id))
		return conn;
	return NULL;
}

/*
 * Link a learned entry. An older connection's learned entry with the same
 * key means the host reused the QP number, which it does only once that
 * connection is over (rocect_conn_replaceable()); while it is live, the
 * older one keeps its entry and the clash is counted. A managed entry
 * always wins: the operator's word stands. One inferred from traffic
 * (inferred or recovered) always makes way.
 */
static void link_qp(struct rocect_net *rn, struct rocect_conn *conn, int dir)
{
	struct rocect_conn *holder;
	struct rocect_qp *old;

	old = rocect_qp_lookup(rn, &conn->qp[dir].key);
	/* The handshake knows better than inference. */
	if (old && rocect_qp_from_traffic(old)) {
		rocect_qp_remove(rn, old);
		old = NULL;
	}
	if (!old) {
		rocect_qp_insert(rn, &conn->qp[dir], NULL);
		return;
	}
	holder = rocect_qp_conn(old);
	if (holder == conn)
		return;		/* both directions alike: a host to itself */
	if (!holder || !rocect_conn_replaceable(rn, holder)) {
		rocect_stats_inc(rn, ROCECT_CTR_QP_CONFLICT);
		return;
	}
	rocect_conn_destroy(rn, holder, false);
	rocect_qp_insert(rn, &conn->qp[dir], NULL);
}

/*
 * The REQ or SIDR_REQ's details, on a new connection; @iif: where it came
 * in, and so where the active side's packets will.
 */
static void learn_active(struct rocect_conn *conn, const struct roce_pkt *pkt,
			 int iif)
{
	const struct roce_cm *cm = &pkt->cm;
	u8 saddr[16], daddr[16];

	conn->service_id = cm->service_id;
	if (cm->cma.valid) {
		roce_addr_widen(saddr, roce_pkt_saddr(pkt), pkt->family);
		roce_addr_widen(daddr, roce_pkt_daddr(pkt), pkt->family);
		conn->cma_sport = cm->cma.src_port;
		conn->cma_match = !memcmp(cm->cma.src, saddr, 16) &&
				  !memcmp(cm->cma.dst, daddr, 16);
	}
	conn->qp[0].iif = iif;
	if (conn->sidr) {
		conn->qp[0].sport = ROCECT_SPORT_UD;
		return;
	}
	conn->psn[0] = cm->starting_psn;
	/* A flow label gives the data's port now, else the QPs at REP. */
	if (cm->transport > 1)
		conn->data_sport = ROCECT_DATA_SPORT_NONE;
	else if (cm->flow_label)
		conn->data_sport = roce_udp_sport(cm->flow_label, 0, 0);
	conn->qp[0].sqpn = cm->qpn;
	conn->qp[1].key.dqpn = cm->qpn;
	/*
	 * Both QPs take the REQ's path MTU (the passive side's from it): a
	 * READ request's PSNs follow from it. Kept in a requests word, not
	 * yet known, until the REP starts the words.
	 */
	if (roce_psn_mtu_code(128u << cm->path_mtu))
		conn->qp[0].psn[ROCE_PSN_REQUESTS] =
			cm->path_mtu << ROCE_PSN_MTU_SHIFT;
}

/*
 * The REP or accepting SIDR_REP: both QPs are known, link the entries;
 * @iif: where it came in, and so where the passive side's packets will.
 */
static void learn_passive(struct rocect_net *rn, struct rocect_conn *conn,
			  const struct roce_cm *cm, int iif)
{
	u32 mtu;

	conn->qp[0].key.dqpn = cm->qpn;
	conn->qp[1].iif = iif;
	if (conn->sidr) {
		conn->qp[1].sport = ROCECT_SPORT_UD;
		/* UD: the client's QP shows in its first packet's DETH. */
		conn->qkey = cm->qkey;
		conn->qp[0].qkey = ROCECT_QKEY_KNOWN | cm->qkey;
		link_qp(rn, conn, 0);
		return;
	}
	conn->comm_id[1] = cm->local_comm_id;
	conn->psn[1] = cm->starting_psn;
	conn->qp[1].sqpn = cm->qpn;
	/*
	 * Each side's requests, and the other's responses to them. A
	 * message's starting PSN is where its receiver sends from (Linux's CM
	 * sets the REQ's as the passive side's sq_psn and the REP's as the
	 * active side's; seen on the wire with rxe).
	 */
	mtu = conn->qp[0].psn[ROCE_PSN_REQUESTS] & ROCE_PSN_MTU_MASK;
	conn->qp[1].psn[ROCE_PSN_REQUESTS] = roce_psn_start(conn->psn[0]) | mtu;
	conn->qp[0].psn[ROCE_PSN_RESPONSES] = roce_psn_start(conn->psn[0]);
	conn->qp[0].psn[ROCE_PSN_REQUESTS] = roce_psn_start(conn->psn[1]) | mtu;
	conn->qp[1].psn[ROCE_PSN_RESPONSES] = roce_psn_start(conn->psn[1]);
	link_qp(rn, conn, 0);
	link_qp(rn, conn, 1);
}

/*
 * Offload mode: an RC or UC pair's data comes from one port at each end,
 * the same (roce_udp_sport()); index the connection by it.
 */
static void index_for_offload(struct rocect_net *rn, struct rocect_conn *conn,
			      const struct nf_conn *ct)
{
	if (conn->sidr || conn->data_sport == ROCECT_DATA_SPORT_NONE ||
	    !conn->qp[1].linked)
		return;
	if (!conn->data_sport)
		conn->data_sport = roce_udp_sport(0, conn->qp[0].sqpn,
						  conn->qp[1].sqpn);
	conn->data_dport = ct->tuplehash[IP_CT_DIR_ORIGINAL].tuple.dst.u.udp.port;
	rocect_offload_index(rn, conn);
}

/**
 * rocect_cm_packet() - track a CM MAD
 * @rn: the namespace's state
 * @ct: its conntrack
 * @pkt: the parsed MAD (class %ROCE_CLASS_CM, ICRC verified)
 * @iif: where it came in (rocect_arrival()): a REQ binds the active side's
 *	QP entry to it, a REP the passive side's
 *
 * A REQ or SIDR_REQ that would start a connection, or that names another
 * service than its connection's, asks the service policy first
 * (service_policy.c): one it refuses changes nothing.
 *
 * Context: the helper callback (RCU, softirq or process context).
 * Return: %ROCECT_POLICY_ACCEPT, or what the service policy does with a
 * REQ it refuses (%ROCECT_POLICY_DROP, %ROCECT_POLICY_REJECT).
 */
u8 rocect_cm_packet(struct rocect_net *rn, struct nf_conn *ct,
		    const struct roce_pkt *pkt, int iif)
{
	u16 zone = nf_ct_zone(ct)->id;
	struct cm_todo todo = { 0 };
	struct rocect_events events;
	enum roce_cm_state state, next;
	enum roce_cm_action act;
	struct rocect_conn_key k;
	struct rocect_conn *conn;
	enum roce_cm_event ev;
	u8 verdict = ROCECT_POLICY_ACCEPT;
	int rule = -1;
	u32 mark = 0;

	if (!roce_cm_event_of(&pkt->cm, &ev))
		return ROCECT_POLICY_ACCEPT;

	rocect_net_lock(rn, &events);
	conn = find_conn(rn, pkt, ev, zone, &k);
	state = conn ? conn->state : ROCE_CS_NONE;
	act = roce_cm_step(state, ev, &next);
	if (act == ROCE_CM_ACT_REPLACE || act == ROCE_CM_ACT_CREATE)
		verdict = rocect_policy_decide(rn, pkt, zone, &mark, &rule);
	else if (conn && (ev == ROCE_CM_EV_REQ || ev == ROCE_CM_EV_SIDR_REQ) &&
		 pkt->cm.service_id != conn->service_id)
		/*
		 * Not this connection's REQ again but another service under
		 * its communication ID (the server tells REQs apart by its
		 * CA GUID too): it asks the policy as a new one would.
		 */
		verdict = rocect_policy_decide(rn, pkt, zone, &mark, &rule);
	if (verdict != ROCECT_POLICY_ACCEPT) {
		/* What it would replace stays: the REQ never reaches B. */
		conn = NULL;
		act = ROCE_CM_ACT_NONE;
	}
	switch (act) {
	case ROCE_CM_ACT_REPLACE:
		rocect_conn_destroy(rn, conn, false);
		fallthrough;
	case ROCE_CM_ACT_CREATE:
		conn = rocect_conn_create(rn, &k);
		if (!conn)
			break;
		conn->mark = mark;
		learn_active(conn, pkt, iif);
		todo.reverse = !conn->sidr;
		break;
	case ROCE_CM_ACT_ACCEPT:
		learn_passive(rn, conn, &pkt->cm, iif);
		rocect_conn_set_state(rn, conn, next);
		if (rocect_cfg(&rn->config, offload))
			index_for_offload(rn, conn, ct);
		todo.reverse = !conn->sidr;
		todo.forward = true;
		todo.permanent = true;
		break;
	case ROCE_CM_ACT_UPDATE:
		if (next == ROCE_CS_REJECTED) {
			/* Refused: no data may flow, the entries go now. */
			conn->reason = ev == ROCE_CM_EV_REJ ?
				       pkt->cm.reject_reason : pkt->cm.sidr_status;
			if (conn->qp[0].linked)
				rocect_qp_unlink(rn, &conn->qp[0]);
			if (conn->qp[1].linked)
				rocect_qp_unlink(rn, &conn->qp[1]);
		}
		rocect_conn_set_state(rn, conn, next);
		break;
	case ROCE_CM_ACT_UNEXPECTED:
		rocect_stats_inc(rn, conn ? ROCECT_CTR_CM_UNEXPECTED :
					    ROCECT_CTR_CM_UNMATCHED);
		break;
	case ROCE_CM_ACT_NONE:
		break;
	}
	if (conn) {
		WRITE_ONCE(conn->seen, (u32)jiffies);
		todo.active = conn->qp[0].key.saddr;
		todo.passive = conn->qp[0].key.daddr;
		todo.sidr = conn->sidr;
		todo.keepalive = act == ROCE_CM_ACT_UPDATE &&
				 next == ROCE_CS_ESTABLISHED;
	}
	rocect_net_unlock(rn, &events);
	if (verdict != ROCECT_POLICY_ACCEPT)
		rocect_policy_refused_notify(rn, pkt, zone, verdict, rule);

	/* The flows of this connection are related to the CM conntrack. */
	if (todo.reverse)
		rocect_expect(rn, ct, ROCECT_EXP_REVERSE,
			      &todo.passive, &todo.active,
			      todo.permanent ? ROCECT_EXP_PERMANENT : 0);
	if (todo.forward)
		rocect_expect(rn, ct, ROCECT_EXP_FORWARD,
			      &todo.active, &todo.passive, ROCECT_EXP_PERMANENT);
	if (todo.keepalive)
		rocect_expect_keepalive(rn, ct, &todo.active,
					&todo.passive, !todo.sidr);
	return verdict;
}

/* rocect_cm_data()'s work, for the packets its inline part lets through. */
void rocect_cm_data_slow(struct rocect_net *rn, struct nf_conn *ct,
			 struct rocect_qp *qp, const struct roce_pkt *pkt)
{
	struct rocect_conn *conn = rocect_qp_conn(qp);
	struct rocect_events events;
	enum roce_cm_state next;
	bool indexed;
	u32 now, kept;

	if (qp->dir != 0)
		return;
	if (READ_ONCE(conn->state) == ROCE_CS_REP) {
		rocect_net_lock(rn, &events);
		if (qp->linked && roce_cm_step(conn->state,
					       ROCE_CM_EV_DATA_TO_PASSIVE,
					       &next) == ROCE_CM_ACT_UPDATE)
			rocect_conn_set_state(rn, conn, next);
		rocect_net_unlock(rn, &events);
	}
	if (conn->sidr && pkt->has_deth && pkt->deth_qkey == conn->qkey &&
	    !conn->qp[1].linked) {
		rocect_net_lock(rn, &events);
		if (qp->linked && !conn->qp[1].linked) {
			/* Under the lock: the word's other fields stay. */
			conn->qp[0].sqpn = pkt->deth_src_qp;
			conn->qp[1].key.dqpn = pkt->deth_src_qp;
			conn->qp[1].sqpn = conn->qp[0].key.dqpn;
			link_qp(rn, conn, 1);
		}
		rocect_net_unlock(rn, &events);
	}
	if (READ_ONCE(conn->state) != ROCE_CS_ESTABLISHED)
		return;
	/* Once a second (rocect_cm_data() says why). */
	now = jiffies;
	kept = READ_ONCE(conn->kept);
	if (kept && now - kept < HZ)
		return;
	WRITE_ONCE(conn->kept, now ?: 1);
	/*
	 * A connection older than offload mode is indexed now: the collector
	 * then moves its flows onto it (rocect_offload_age()).
	 */
	if (unlikely(!data_race((u8)conn->indexed)) && ct && !conn->sidr &&
	    conn->data_sport != ROCECT_DATA_SPORT_NONE &&
	    rocect_cfg(&rn->config, offload)) {
		rocect_net_lock(rn, &events);
		if (READ_ONCE(conn->state) == ROCE_CS_ESTABLISHED)
			index_for_offload(rn, conn, ct);
		indexed = conn->indexed;
		rocect_net_unlock(rn, &events);
		/*
		 * As at REP: a pair indexed on the port of another takes
		 * that one's offloaded flow back to the helper.
		 */
		if (indexed) {
			rocect_offload_settle(rn, &conn->qp[0], ROCECT_EV_CREATE);
			rocect_offload_settle(rn, &conn->qp[1], ROCECT_EV_CREATE);
		}
	}
	/* The guard's packets have none: the collector keeps theirs. */
	if (ct)
		rocect_expect_keepalive(rn, ct, &conn->qp[0].key.saddr,
					&conn->qp[0].key.daddr, !conn->sidr);
}

/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _ROCECT_CONN_H
#define _ROCECT_CONN_H

#include <linux/rhashtable-types.h>

#include "cm_fsm.h"
#include "qp.h"
#include "source.h"

/**
 * struct rocect_conn_key - what identifies a CM connection
 * @active: address of the side that sent REQ (or SIDR_REQ)
 * @passive: address of the other side
 * @comm_id: the active side's communication ID (SIDR: the request ID)
 * @zone: conntrack zone ID
 * @family: 4 or 6
 * @sidr: a service ID resolution (UD), not a connection
 *
 * Two clients using the same communication ID from different addresses,
 * or in different zones, are two connections.
 */
struct rocect_conn_key {
	union nf_inet_addr active;
	union nf_inet_addr passive;
	u32 comm_id;
	u16 zone;
	u8 family;
	u8 sidr;
};

/* &rocect_conn.data_sport of a SIDR or XRC connection: no RoCE port */
#define ROCECT_DATA_SPORT_NONE	1

/**
 * struct rocect_conn - a CM connection and its two QP directions
 * @node: in the namespace's connection table
 * @comm_id: communication IDs, [0] active side's, [1] passive side's
 * @psn: starting PSNs, [0] the REQ's (where the passive side's requests
 *	start), [1] the REP's (where the active side's start)
 * @service_id: from REQ or SIDR_REQ
 * @qkey: SIDR_REP Q_Key
 * @reason: REJ reason or SIDR_REP status
 * @cma_sport: RDMA CM private-data source port
 * @state: &enum roce_cm_state
 * @sidr: UD service resolution
 * @cma_match: the RDMA CM private-data addresses are the IP addresses
 * @indexed: in &rocect_conn_table.ports (offload.c)
 * @created: jiffies of the REQ
 * @changed: jiffies of the last state change
 * @seen: jiffies of the last CM message
 * @data_sport: the UDP source port of the pair's data (roce_udp_sport()):
 *	from the REQ's flow label, or at REP from the QP numbers; 0 until
 *	known, %ROCECT_DATA_SPORT_NONE for a transport offload leaves alone
 * @data_dport: the UDP destination port of the connection's flows
 * @kept: jiffies of the keepalive's last pass (rocect_cm_data()), 0 before
 * @mark: the conntrack mark of its data flows, from the service policy
 *	(service_policy.c); 0: none
 * @bare: per direction, its data flow's last conntrack was admitted
 *	without the helper (offload.c), so the guard checks it (guard.c)
 * @port_node: in &rocect_conn_table.ports while @indexed
 * @evictable: in &rocect_conn_table.half_open while in REQ or REP, in
 *	&rocect_conn_table.finished once refused or torn down
 * @rcu: deferred free, once off those lists
 * @source_half_open: in the half-open list of its active side's
 *	&struct rocect_source while in REQ or REP
 * @qp: [0] active to passive (dqpn: passive QP), [1] passive to active;
 *	their keys also hold the connection's addresses, zone and family
 *
 * The addresses are not repeated outside @qp[0].key: the connection
 * table hashes a connection from there.
 */
struct rocect_conn {
	struct rhash_head node;
	u32 comm_id[2];
	u32 psn[2];
	u64 service_id;
	u32 qkey;
	u16 reason;
	u16 cma_sport;
	u8 state;
	/* One byte: written under &rocect_net.lock, or before publication. */
	u8 sidr:1;
	u8 cma_match:1;
	u8 indexed:1;
	u8 bare[2];
	u32 created;
	u32 changed;
	u32 seen;
	u16 data_sport;
	__be16 data_dport;
	u32 kept;
	u32 mark;
	struct rhlist_head port_node;
	/* Never both: a connection leaves the list before it is freed. */
	union {
		struct list_head evictable;
		struct rcu_head rcu;
	};
	struct list_head source_half_open;
	struct rocect_qp qp[2];
};

/**
 * rocect_qp_conn() - the connection a learned entry belongs to
 * @qp: the entry
 *
 * Inline: the packet path asks for every RC and UC packet.
 *
 * Return: the connection, or NULL for a managed entry.
 */
static inline struct rocect_conn *rocect_qp_conn(const struct rocect_qp *qp)
{
	if (rocect_qp_origin(qp) != ROCECT_ORIGIN_LEARNED)
		return NULL;
	return container_of(qp - rocect_qp_dir(qp), struct rocect_conn,
			    qp[0]);
}

/**
 * struct rocect_conn_table - the connections of one namespace
 * @ht: connections by key, changes under &rocect_net.lock
 * @count: connections in @ht
 * @finished: connections refused (REJ) or torn down (DREQ, DREP), oldest
 *	first: evicted first when the table is full
 * @half_open: connections in REQ or REP, oldest first: evicted next
 * @sources: &struct rocect_source by key, changes under &rocect_net.lock
 * @gen: bumped by every creation, removal and state change, for dumps
 * @ports: offload mode: RC and UC connections past REP by their addresses
 *	and data port (offload.c); changes under &rocect_net.lock
 */
struct rocect_conn_table {
	struct rhashtable ht;
	unsigned int count;
	struct list_head finished;
	struct list_head half_open;
	struct rhashtable sources;
	atomic_t gen;
	struct rhltable ports;
};

struct rocect_net;
struct rocect_walk;

void rocect_conn_walk_enter(struct rocect_net *rn, struct rocect_walk *w);
struct rocect_conn *rocect_conn_lookup(struct rocect_net *rn,
				       const struct rocect_conn_key *key);
struct rocect_conn *rocect_conn_create(struct rocect_net *rn,
				       const struct rocect_conn_key *key);
void rocect_conn_destroy(struct rocect_net *rn, struct rocect_conn *conn,
			 bool expired);
void rocect_conn_set_state(struct rocect_net *rn, struct rocect_conn *conn,
			   enum roce_cm_state state);
u8 rocect_conn_uapi_state(enum roce_cm_state state);
u32 rocect_conn_timeout(struct rocect_net *rn, const struct rocect_conn *conn);
unsigned long rocect_conn_last_active(const struct rocect_conn *conn);
bool rocect_conn_replaceable(struct rocect_net *rn,
			     const struct rocect_conn *conn);
void rocect_conn_expire(struct rocect_net *rn);

int rocect_conn_net_init(struct rocect_net *rn);
void rocect_conn_net_exit(struct rocect_net *rn);
int rocect_conn_init(void);
void rocect_conn_exit(void);

#endif /* _ROCECT_CONN_H */

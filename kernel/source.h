/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _ROCECT_SOURCE_H
#define _ROCECT_SOURCE_H

#include <linux/list.h>
#include <linux/string.h>
#include <linux/rhashtable-types.h>
#include <linux/netfilter.h>

/**
 * struct rocect_source_key - a host that opens connections
 * @addr: the active side's address
 * @zone: conntrack zone ID
 * @family: 4 or 6
 * @pad: zero
 */
struct rocect_source_key {
	union nf_inet_addr addr;
	u16 zone;
	u8 family;
	u8 pad;
};

/**
 * struct rocect_source - what one host holds of the connection table
 * @node: in &rocect_conn_table.sources
 * @key: the host
 * @refs: connections that name it as their source, and its @inferred
 * @held: those in REQ, REP or ESTABLISHED: what its share limits
 * @half_open: those in REQ or REP, oldest first: the first to make room
 *	when it reaches its share
 * @inferred: QP entries learning inferred (or recovered) for the packets
 *	it sends; each holds a reference too
 * @rcu: deferred free
 */
struct rocect_source {
	struct rhash_head node;
	struct rocect_source_key key;
	u32 refs;
	u32 held;
	struct list_head half_open;
	u32 inferred;
	struct rcu_head rcu;
};

struct rocect_net;

/**
 * rocect_source_key_init() - the key of the host at @addr
 * @sk: filled in, padding zeroed
 * @addr: its address
 * @zone: conntrack zone ID
 * @family: 4 or 6
 */
static inline void rocect_source_key_init(struct rocect_source_key *sk,
					  const union nf_inet_addr *addr,
					  u16 zone, u8 family)
{
	memset(sk, 0, sizeof(*sk));
	sk->addr = *addr;
	sk->zone = zone;
	sk->family = family;
}

struct rocect_source *rocect_source_find(struct rocect_net *rn,
					 const struct rocect_source_key *key);
struct rocect_source *rocect_source_get(struct rocect_net *rn,
					const struct rocect_source_key *key);
void rocect_source_put(struct rocect_net *rn, struct rocect_source *src);
u32 rocect_source_share(struct rocect_net *rn);
u32 rocect_source_inferred_share(struct rocect_net *rn);
int rocect_source_net_init(struct rocect_net *rn);
void rocect_source_net_exit(struct rocect_net *rn);

#endif /* _ROCECT_SOURCE_H */

/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _ROCECT_QP_H
#define _ROCECT_QP_H

#include <linux/atomic.h>
#include <linux/netlink.h>
#include <linux/rhashtable-types.h>
#include <linux/netfilter.h>

struct net;
struct rocect_net;
struct rocect_conn;

/**
 * struct rocect_qp_key - what a RoCE data packet identifies its QP by
 * @saddr: IP source
 * @daddr: IP destination
 * @dqpn: BTH destination QP
 * @zone: conntrack zone ID
 * @family: 4 or 6
 * @pad: zero: the key is hashed and compared as bytes
 *
 * The network namespace is implicit: each has its own table. Aligned to
 * 8 bytes so that lookups compare it as five u64 words.
 */
struct rocect_qp_key {
	union nf_inet_addr saddr;
	union nf_inet_addr daddr;
	u32 dqpn;
	u16 zone;
	u8 family;
	u8 pad;
} __aligned(8);

/**
 * struct rocect_qp - one direction of a QP pair: packets from @key.saddr to
 *	QP @key.dqpn at @key.daddr come from QP @sqpn
 * @node: in the namespace's QP table
 * @key: lookup key
 * @sqpn: the source QP of those packets
 * @origin: &enum rocect_origin
 * @state: &enum rocect_state
 * @dir: learned entries: 0 from the active side, 1 from the passive side;
 *	the entry is &rocect_conn.qp[@dir]
 * @linked: in the QP table
 * @packets: packets seen
 * @bytes: their IP length
 * @last_seen: jiffies (low 32 bits) of the last packet, or of creation
 * @last_cnp: microseconds (low 32 bits) of the last CNP sent for it
 * @ce: CE-marked packets seen
 * @cnps: CNPs sent to the sender of those
 *
 * Learned entries live inside their connection, which frees them; managed
 * ones are a &struct rocect_managed_qp.
 */
struct rocect_qp {
	struct rhash_head node;
	struct rocect_qp_key key;
	u32 sqpn;
	u8 origin;
	u8 state;
	u8 dir;
	u8 linked;
	atomic64_t packets;
	atomic64_t bytes;
	u32 last_seen;
	u32 last_cnp;
	atomic_t ce;
	atomic_t cnps;
};

/**
 * struct rocect_qp_table - the QP entries of one namespace
 * @ht: entries by key; lookups under RCU, changes under &rocect_net.lock
 * @count: entries in @ht
 * @gen: bumped by every insertion and removal, for dump consistency
 */
struct rocect_qp_table {
	struct rhashtable ht;
	unsigned int count;
	atomic_t gen;
};

struct rocect_qp *rocect_qp_lookup(struct rocect_net *rn,
				   const struct rocect_qp_key *key);
struct rocect_conn *rocect_qp_conn(const struct rocect_qp *qp);
void rocect_qp_init_entry(struct rocect_qp *qp, u8 origin, u8 state);
int rocect_qp_insert(struct net *net, struct rocect_qp *qp,
		     struct netlink_ext_ack *extack);
void rocect_qp_unlink(struct net *net, struct rocect_qp *qp);
void rocect_qp_set_state(struct net *net, struct rocect_qp *qp, u8 state);
int rocect_qp_add_managed(struct net *net, const struct rocect_qp_key *key,
			  u32 sqpn, struct netlink_ext_ack *extack);
int rocect_qp_del(struct net *net, const struct rocect_qp_key *key);
unsigned int rocect_qp_flush(struct net *net, int origin);
void rocect_qp_account(struct rocect_qp *qp, unsigned int bytes);

int rocect_qp_net_init(struct rocect_net *rn);
void rocect_qp_net_exit(struct rocect_net *rn);
int rocect_qp_init(void);
void rocect_qp_exit(void);

#endif /* _ROCECT_QP_H */

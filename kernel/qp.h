/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _ROCECT_QP_H
#define _ROCECT_QP_H

#include <linux/atomic.h>
#include <linux/jiffies.h>
#include <linux/netlink.h>
#include <linux/rhashtable-types.h>
#include <linux/netfilter.h>

struct net;
struct rocect_net;
struct rocect_conn;

/* &rocect_qp.iif of an entry that has seen no packet of its sender yet */
#define ROCECT_IIF_UNBOUND	(-1)
/* &rocect_qp.sport: RC or UC data from the port in the low 16 bits */
#define ROCECT_SPORT_RC		BIT(16)
/* &rocect_qp.sport: UD (packets with a DETH), from any port */
#define ROCECT_SPORT_UD		BIT(17)
/* &rocect_qp.qkey: a UD entry's Q_Key is known, in the low 32 bits */
#define ROCECT_QKEY_KNOWN	BIT_ULL(32)

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
 * @linked: in the QP table
 * @dir: learned entries: 0 from the active side, 1 from the passive side;
 *	the entry is &rocect_conn.qp[@dir]
 * @inferred_from: inferred and recovered entries: the &enum roce_class of
 *	the packets they were inferred from
 * @sport: how the sender's data comes, 0 until its first data packet:
 *	%ROCECT_SPORT_RC and the UDP source port of RC and UC data (RoCE
 *	keeps one per QP), or %ROCECT_SPORT_UD for packets with a DETH, from
 *	any port (a SIDR service's entries are UD from the handshake)
 * @iif: where the sender's packets come in (rocect_arrival()): from the
 *	CM MAD that named the sender's QP, or the first packet of an entry
 *	that no MAD made, if routing agrees; %ROCECT_IIF_UNBOUND until then
 * @last_seen: jiffies (low 32 bits) of the last packet, or of creation
 * @psn: RC and UC: where the PSNs of the sender's requests and of its
 *	responses stand (psn_window.h), by &enum roce_psn_space; from the
 *	CM's starting PSNs or the first packets
 * @qkey: UD: %ROCECT_QKEY_KNOWN and the Q_Key the receiving QP takes (it
 *	drops others): from the SIDR_REP for a service's QP, else from the
 *	first packet; 0 until known
 * @packets: packets seen
 * @bytes: their IP length
 *
 * @sqpn, @origin, @linked, @dir and @inferred_from share a word: they
 * are written before the entry is linked or under &rocect_net.lock, so
 * the compiler's read-modify-write of the word loses nothing, and the
 * packet path reads them without the lock. What the packet path writes
 * without the lock (@sport, @iif, @last_seen, @psn, the counters) has
 * words of its own. An entry's state is its connection's (rocect_qp_state());
 * the counters of congestion are in a table of their own (qp_cong.h):
 * most entries never see CE, and this way an entry is 88 bytes.
 *
 * Learned entries live inside their connection, which frees them; managed,
 * inferred and recovered ones are a &struct rocect_managed_qp.
 */
struct rocect_qp {
	struct rhash_head node;
	struct rocect_qp_key key;
	u32 sqpn:24;
	u32 origin:2;
	u32 linked:1;
	u32 dir:1;
	u32 inferred_from:4;
	u32 sport;
	int iif;
	u32 last_seen;
	union {
		u32 psn[2];
		u64 qkey;
	};
	atomic64_t packets;
	atomic64_t bytes;
};

/*
 * The fields of the word @sqpn shares, read without &rocect_net.lock (the
 * packet path). Writers hold the lock or the entry is not linked yet; a
 * reader sees the word before or after a change, each field whole (one
 * aligned load): data_race() says so to KCSAN.
 */
static inline u32 rocect_qp_sqpn(const struct rocect_qp *qp)
{
	/* Racing only with the lock's writers, read whole. */
	return data_race((u32)qp->sqpn);
}

static inline u8 rocect_qp_origin(const struct rocect_qp *qp)
{
	/* Racing only with the lock's writers, read whole. */
	return data_race((u8)qp->origin);
}

static inline u8 rocect_qp_dir(const struct rocect_qp *qp)
{
	/* Racing only with the lock's writers, read whole. */
	return data_race((u8)qp->dir);
}

static inline u8 rocect_qp_inferred_from(const struct rocect_qp *qp)
{
	/* Racing only with the lock's writers, read whole. */
	return data_race((u8)qp->inferred_from);
}

/**
 * struct rocect_qp_table - the QP entries of one namespace
 * @ht: entries by key; lookups under RCU, changes under &rocect_net.lock
 * @count: entries in @ht
 * @gen: bumped by every insertion, removal and state change, for dumps
 * @inferred: the inferred entries, for their expiry; under &rocect_net.lock
 * @inferred_count: entries on @inferred
 * @cong: the congestion records of entries that have seen CE (qp_cong.c)
 */
struct rocect_qp_table {
	struct rhashtable ht;
	unsigned int count;
	atomic_t gen;
	struct list_head inferred;
	unsigned int inferred_count;
	struct rhashtable cong;
};

/**
 * struct rocect_qp_filter - which entries a request names
 * @key: zone, family, addresses, destination QP (family 0: any)
 * @has_saddr: @key.saddr was given
 * @has_daddr: @key.daddr was given
 * @has_dqpn: @key.dqpn was given
 * @has_zone: @key.zone was given
 * @sqpn: source QP, or -1
 * @origin: &enum rocect_origin, or -1
 * @state: &enum rocect_state, or -1
 */
struct rocect_qp_filter {
	struct rocect_qp_key key;
	bool has_saddr, has_daddr, has_dqpn, has_zone;
	int sqpn, origin, state;
	u32 seen_within;
};

struct rocect_walk;

struct rocect_qp *rocect_qp_lookup(struct rocect_net *rn,
				   const struct rocect_qp_key *key);
bool rocect_qp_match(const struct rocect_qp *qp,
		     const struct rocect_qp_filter *f);
void rocect_qp_find_one(struct rocect_net *rn, const struct rocect_qp_filter *f,
			struct rocect_qp_key *found, int *matches);
void rocect_qp_walk_enter(struct rocect_net *rn, struct rocect_walk *w);
void rocect_qp_init_entry(struct rocect_qp *qp, u8 origin);
u8 rocect_qp_state(const struct rocect_qp *qp);
int rocect_qp_insert(struct rocect_net *rn, struct rocect_qp *qp,
		     struct netlink_ext_ack *extack);
void rocect_qp_unlink(struct rocect_net *rn, struct rocect_qp *qp);
void rocect_qp_changed(struct rocect_net *rn, struct rocect_qp *qp);
int rocect_qp_add_managed(struct rocect_net *rn,
			  const struct rocect_qp_key *key, u32 sqpn, int iif,
			  bool replace, struct netlink_ext_ack *extack);
bool rocect_qp_inferred_room(struct rocect_net *rn, unsigned int n);
bool rocect_qp_source_room(struct rocect_net *rn,
			   const struct rocect_qp_key *key, unsigned int n);
int rocect_qp_add_inferred(struct rocect_net *rn,
			   const struct rocect_qp_key *key, u32 sqpn, u8 from,
			   u8 origin);
void rocect_qp_remove(struct rocect_net *rn, struct rocect_qp *qp);
void rocect_qp_expire_inferred(struct rocect_net *rn);
u32 rocect_qp_idle_left(struct rocect_net *rn, const struct rocect_qp *qp);
int rocect_qp_del(struct rocect_net *rn, const struct rocect_qp_key *key);
unsigned int rocect_qp_flush(struct rocect_net *rn, int origin);

/**
 * rocect_qp_account() - count a packet to this QP
 * @qp: the entry
 * @bytes: the packet's IP length
 *
 * Inline: the helper calls it for every packet of a known QP.
 */
static inline void rocect_qp_account(struct rocect_qp *qp, unsigned int bytes)
{
	u32 now = jiffies;

	atomic64_inc(&qp->packets);
	atomic64_add(bytes, &qp->bytes);
	/* Written at most once a tick: the line stays shared between CPUs. */
	if (READ_ONCE(qp->last_seen) != now)
		WRITE_ONCE(qp->last_seen, now);
}

/**
 * rocect_qp_from_traffic() - was the entry inferred from data packets?
 * @qp: the entry
 *
 * Inferred and recovered entries are on the table's list of such entries,
 * count against its share of max-qps and expire when idle.
 *
 * Return: true for an inferred or a recovered entry.
 */
static inline bool rocect_qp_from_traffic(const struct rocect_qp *qp)
{
	u8 origin = rocect_qp_origin(qp);

	return origin == ROCECT_ORIGIN_INFERRED ||
	       origin == ROCECT_ORIGIN_RECOVERED;
}

int rocect_qp_net_init(struct rocect_net *rn);
void rocect_qp_net_exit(struct rocect_net *rn);
int rocect_qp_init(void);
void rocect_qp_exit(void);

#endif /* _ROCECT_QP_H */

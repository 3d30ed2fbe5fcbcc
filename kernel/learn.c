// SPDX-License-Identifier: GPL-2.0
/*
 * learn on: QP entries for traffic that never used RDMA CM (NCCL, UCX, MPI,
 * perftest without -R). A UD packet names its source QP in its DETH; an RC
 * pair is inferred from its PSNs (pair_infer.c) over the requests one host
 * sends to another and the responses that come back. What is remembered of
 * each ordered pair of addresses lives in a fixed array of two-way sets of
 * records, hashed by the addresses: a pair that finds both records of its
 * set busy takes over the least recently used (counted), so memory stays
 * bounded whatever the traffic.
 */
#include <linux/jhash.h>
#include <linux/jiffies.h>
#include <linux/random.h>
#include <linux/slab.h>
#include <linux/spinlock.h>
#include <uapi/linux/rocect.h>

#include "learn.h"
#include "netns.h"
#include "pair_infer.h"

/*
 * Records of host pairs: 128 sets of two records of 312 bytes, 79 KiB a
 * namespace. Two ways: two busy pairs hashing to one set both keep theirs.
 */
#define LEARN_SETS	128
#define LEARN_WAYS	2
/* Requests older than this are no longer weighed against responses. */
#define LEARN_MAX_AGE	(10 * HZ)

/**
 * struct learn_hosts_key - an ordered pair of addresses in a zone
 * @saddr: the requester
 * @daddr: the responder
 * @zone: conntrack zone ID
 * @family: 4 or 6
 *
 * Aligned to 8 bytes, as &struct rocect_qp_key is: the addresses are
 * compared with a packet's key as two u64 words each.
 */
struct learn_hosts_key {
	union nf_inet_addr saddr;
	union nf_inet_addr daddr;
	u16 zone;
	u8 family;
} __aligned(8);

/**
 * struct learn_record - what one host recently requested of another
 * @key: whose record it is
 * @used: @key is valid
 * @last: jiffies of the last request
 * @hosts: the requests, for the PSN rule
 */
struct learn_record {
	struct learn_hosts_key key;
	bool used;
	u32 last;
	struct roce_pair_hosts hosts;
};

/**
 * struct learn_set - the records of the host pairs that hash alike
 * @lock: serialises the packets of these pairs
 * @rec: the records, the least recently used taken over first
 */
struct learn_set {
	spinlock_t lock;	/* @rec */
	struct learn_record rec[LEARN_WAYS];
};

/**
 * struct rocect_learn - a namespace's learning state
 * @seed: of the sets' hash
 * @set: the sets
 */
struct rocect_learn {
	u32 seed;
	struct learn_set set[LEARN_SETS];
};

/**
 * rocect_learn_enable() - allocate the namespace's records, once
 * @rn: the namespace's state
 *
 * Called before learn is set on or unknown-qp goes to drop (adopted flows'
 * pairs are recovered from the records); the records stay until the
 * namespace goes, so that the packet path needs no reference on them.
 *
 * Context: process context.
 * Return: 0 or -ENOMEM.
 */
int rocect_learn_enable(struct rocect_net *rn)
{
	struct rocect_learn *l;
	unsigned int i;

	BUILD_BUG_ON(ROCE_PAIR_SLOTS >= 32);	/* the taken slots' mask */
	/* Pairs with the cmpxchg_release() below. */
	if (smp_load_acquire(&rn->learn))
		return 0;
	l = kvzalloc(sizeof(*l), GFP_KERNEL_ACCOUNT);
	if (!l)
		return -ENOMEM;
	l->seed = get_random_u32();
	for (i = 0; i < LEARN_SETS; i++)
		spin_lock_init(&l->set[i].lock);
	/*
	 * Publishes the initialised records to the packet path. Two enables
	 * at once: the first one's records stay.
	 */
	if (cmpxchg_release(&rn->learn, NULL, l))
		kvfree(l);
	return 0;
}

/**
 * rocect_learn_forget() - forget every host pair's requests
 * @rn: the namespace's state
 *
 * Called when the namespace goes to unknown-qp drop: from then on only
 * flows adopted from a peer firewall feed learning, and the pairs they
 * complete are trusted (recovered), so no request learnt before, from
 * anyone, may count towards one.
 *
 * Context: process context.
 */
void rocect_learn_forget(struct rocect_net *rn)
{
	/* Pairs with the cmpxchg_release() of rocect_learn_enable(). */
	struct rocect_learn *l = smp_load_acquire(&rn->learn);
	unsigned int i;

	for (i = 0; l && i < LEARN_SETS; i++) {
		spin_lock_bh(&l->set[i].lock);
		memset(l->set[i].rec, 0, sizeof(l->set[i].rec));
		spin_unlock_bh(&l->set[i].lock);
	}
}

/**
 * rocect_learn_net_exit() - free a dying namespace's records
 * @rn: the namespace's state
 */
void rocect_learn_net_exit(struct rocect_net *rn)
{
	kvfree(rn->learn);
	rn->learn = NULL;
}

/*
 * The set of the host pair @src to @dst in @pk's zone, @pk being a packet
 * between them in either direction. This and the two below run for every
 * packet of a QP without an entry: inlined, and no key built for it.
 */
static __always_inline struct learn_set *set_of(struct rocect_learn *l,
						const union nf_inet_addr *src,
						const union nf_inet_addr *dst,
						const struct rocect_qp_key *pk)
{
	u32 hash;

	/* IPv4: one jhash round over the words that vary (as in qp.c). */
	if (likely(pk->family == 4))
		hash = jhash_3words((__force u32)src->ip, (__force u32)dst->ip,
				    pk->zone, l->seed);
	else
		hash = jhash2(src->all, 4,
			      jhash2(dst->all, 4, l->seed ^ pk->zone));
	return &l->set[hash % LEARN_SETS];
}

/* Is @k the key of the host pair @src to @dst in @pk's zone? */
static __always_inline bool hosts_key_is(const struct learn_hosts_key *k,
					 const union nf_inet_addr *src,
					 const union nf_inet_addr *dst,
					 const struct rocect_qp_key *pk)
{
	const u64 *ks = (const u64 *)&k->saddr, *kd = (const u64 *)&k->daddr;
	const u64 *s = (const u64 *)src, *d = (const u64 *)dst;

	BUILD_BUG_ON(offsetof(struct rocect_qp_key, daddr) % 8 ||
		     offsetof(struct learn_hosts_key, daddr) % 8);
	return !((ks[0] ^ s[0]) | (ks[1] ^ s[1]) | (kd[0] ^ d[0]) |
		 (kd[1] ^ d[1]) | (k->zone ^ pk->zone) |
		 (k->family ^ pk->family));
}

/* The record of the host pair @src to @dst, or NULL. Under @set->lock. */
static __always_inline struct learn_record *
record_find(struct learn_set *set, const union nf_inet_addr *src,
	    const union nf_inet_addr *dst, const struct rocect_qp_key *pk)
{
	unsigned int i;

	for (i = 0; i < LEARN_WAYS; i++)
		if (set->rec[i].used &&
		    hosts_key_is(&set->rec[i].key, src, dst, pk))
			return &set->rec[i];
	return NULL;
}

/*
 * The record of the host pair @src to @dst in @pk's zone, made if need be
 * from a free one or the least recently used at @now (counted). Under
 * @set->lock.
 */
static struct learn_record *record_get(struct rocect_net *rn,
				       struct learn_set *set,
				       const union nf_inet_addr *src,
				       const union nf_inet_addr *dst,
				       const struct rocect_qp_key *pk, u32 now)
{
	struct learn_record *r = record_find(set, src, dst, pk);
	struct learn_record *old = &set->rec[0];
	unsigned int i;

	if (r)
		return r;
	for (i = 0; i < LEARN_WAYS; i++) {
		r = &set->rec[i];
		if (!r->used) {
			old = r;
			break;
		}
		if (now - r->last > now - old->last)
			old = r;
	}
	if (old->used)
		rocect_stats_inc(rn, ROCECT_CTR_LEARN_EVICTED);
	memset(old, 0, sizeof(*old));
	old->key.saddr = *src;
	old->key.daddr = *dst;
	old->key.zone = pk->zone;
	old->key.family = pk->family;
	old->used = true;
	return old;
}

/*
 * A response to QP y (@key: from B to A) named requests from A to QP x: the
 * pair is (x, y) in both directions, or neither if there is no room for
 * both, in the table or in A's and B's shares. Either may exist by now
 * (another CPU, a handshake, an operator).
 */
static void add_pair(struct rocect_net *rn, const struct rocect_qp_key *key,
		     u32 x, u8 from, u8 origin)
{
	struct rocect_qp_key fwd = *key;
	struct rocect_events ev;

	fwd.saddr = key->daddr;
	fwd.daddr = key->saddr;
	fwd.dqpn = x;
	rocect_net_lock(rn, &ev);
	if (rocect_qp_inferred_room(rn, 2) &&
	    rocect_qp_source_room(rn, &fwd, 1) &&
	    rocect_qp_source_room(rn, key, 1)) {
		rocect_qp_add_inferred(rn, &fwd, key->dqpn, from, origin);
		rocect_qp_add_inferred(rn, key, x, from, origin);
	}
	rocect_net_unlock(rn, &ev);
}

/*
 * May a UD packet make @key's entry? One packet is no evidence against an
 * entry: it never replaces one, but one from an adopted flow recovers an
 * inferred entry.
 */
static bool ud_may_add(struct rocect_net *rn, const struct rocect_qp_key *key,
		       bool adopted)
{
	const struct rocect_qp *old = rocect_qp_lookup(rn, key);

	return !old || (adopted && rocect_qp_origin(old) == ROCECT_ORIGIN_INFERRED);
}

/*
 * A UD packet names its source QP in its DETH: its entry, if it may have
 * one. The namespace's lock only if the entry can be added: not for every
 * packet of a flood at a key that has one. Not inlined, as
 * learn_response(): the request path's frame needs no canary.
 */
static noinline void learn_ud(struct rocect_net *rn,
			      const struct rocect_qp_key *key,
			      const struct roce_pkt *pkt, bool adopted,
			      u8 origin)
{
	struct rocect_events ev;

	if (!pkt->has_deth || !ud_may_add(rn, key, adopted) ||
	    !rocect_qp_inferred_room(rn, 1))
		return;
	rocect_net_lock(rn, &ev);
	if (ud_may_add(rn, key, adopted))
		rocect_qp_add_inferred(rn, key, pkt->deth_src_qp,
				       pkt->class, origin);
	rocect_net_unlock(rn, &ev);
}

/*
 * A response from B to A (@key) answers A's requests to B: the pair it
 * completes, if it does. Not inlined: the request path's frame then needs
 * no stack canary for @x.
 */
static noinline void learn_response(struct rocect_net *rn,
				    struct rocect_learn *l,
				    const struct rocect_qp_key *key,
				    const struct roce_pkt *pkt, u8 origin)
{
	struct learn_set *set = set_of(l, &key->daddr, &key->saddr, key);
	enum roce_pair_result res = ROCE_PAIR_NONE;
	struct learn_record *r;
	u32 x;

	spin_lock_bh(&set->lock);
	r = record_find(set, &key->daddr, &key->saddr, key);
	if (r)
		res = roce_pair_response(&r->hosts, pkt->bth.opcode, key->dqpn,
					 roce_bth_psn(&pkt->bth), jiffies,
					 LEARN_MAX_AGE, &x);
	spin_unlock_bh(&set->lock);
	if (res == ROCE_PAIR_AMBIGUOUS)
		rocect_stats_inc(rn, ROCECT_CTR_LEARN_AMBIGUOUS);
	else if (res == ROCE_PAIR_FOUND)
		add_pair(rn, key, x, pkt->class, origin);
}

/**
 * rocect_learn_packet() - learn from a data packet of a QP without an entry
 * @rn: the namespace's state
 * @key: the packet's key, which has no entry or an inferred one that the
 *	packet contradicts
 * @pkt: the parsed packet
 * @adopted: it came on a flow adopted from a peer firewall (adopt.c): a
 *	pair it completes, or its UD entry, is recovered, not inferred, and
 *	an inferred entry of its key is no reason to ignore it
 *
 * Context: packet path, under rcu_read_lock().
 */
void rocect_learn_packet(struct rocect_net *rn, const struct rocect_qp_key *key,
			 const struct roce_pkt *pkt, bool adopted)
{
	u8 origin = adopted ? ROCECT_ORIGIN_RECOVERED : ROCECT_ORIGIN_INFERRED;
	/* Pairs with the cmpxchg_release() of rocect_learn_enable(). */
	struct rocect_learn *l = smp_load_acquire(&rn->learn);
	struct learn_record *r;
	struct learn_set *set;
	u32 now;

	if (!l)
		return;
	if (pkt->class == ROCE_CLASS_UD) {
		learn_ud(rn, key, pkt, adopted, origin);
		return;
	}
	if (pkt->class != ROCE_CLASS_RC && pkt->class != ROCE_CLASS_XRC)
		return;
	if (roce_pair_is_response(pkt->bth.opcode)) {
		learn_response(rn, l, key, pkt, origin);
		return;
	}
	/* A request from A to B: A's requests to B. */
	set = set_of(l, &key->saddr, &key->daddr, key);
	spin_lock_bh(&set->lock);
	/*
	 * The caller read accept mode, but drop mode may have started
	 * since: rocect_config_apply() writes the mode before
	 * rocect_learn_forget() takes this lock, so the mode read here is
	 * the one the forget acts on. A request from anyone but an adopted
	 * flow, recorded after the forget, could pair with an adopted
	 * flow's response into entries recovered in drop mode.
	 */
	if (!adopted && rocect_cfg(&rn->config, unknown_qp) ==
			ROCECT_UNKNOWN_QP_DROP) {
		spin_unlock_bh(&set->lock);
		return;
	}
	now = jiffies;
	r = record_get(rn, set, &key->saddr, &key->daddr, key, now);
	r->last = now;
	roce_pair_request(&r->hosts, key->dqpn, roce_bth_psn(&pkt->bth), now);
	spin_unlock_bh(&set->lock);
}

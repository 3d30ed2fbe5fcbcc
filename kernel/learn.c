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
 * @pad: zero
 * @pad2: zero: the key is compared as five u64 words
 */
struct learn_hosts_key {
	union nf_inet_addr saddr;
	union nf_inet_addr daddr;
	u16 zone;
	u8 family;
	u8 pad;
	u32 pad2;
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
 * Called before learn is set on; the records stay until the namespace
 * goes, so that the packet path needs no reference on them.
 *
 * Context: process context.
 * Return: 0 or -ENOMEM.
 */
int rocect_learn_enable(struct rocect_net *rn)
{
	struct rocect_learn *l;
	unsigned int i;

	/* Pairs with the cmpxchg_release() below. */
	if (smp_load_acquire(&rn->learn))
		return 0;
	l = kvzalloc(sizeof(*l), GFP_KERNEL);
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
 * The set of @pk's host pair: requests from its source to its destination
 * (@from_src), or from its destination to its source. @k is set to the
 * pair's key. This and the two below run for every packet of a QP without
 * an entry: inlined, not called, whatever gcc weighs.
 */
static __always_inline struct learn_set *set_of(struct rocect_learn *l,
						const struct rocect_qp_key *pk,
						bool from_src,
						struct learn_hosts_key *k)
{
	u32 hash;

	k->saddr = from_src ? pk->saddr : pk->daddr;
	k->daddr = from_src ? pk->daddr : pk->saddr;
	k->zone = pk->zone;
	k->family = pk->family;
	k->pad = 0;
	k->pad2 = 0;
	/* IPv4: one jhash round over the words that vary (as in qp.c). */
	if (likely(k->family == 4))
		hash = jhash_3words((__force u32)k->saddr.ip,
				    (__force u32)k->daddr.ip, k->zone, l->seed);
	else
		hash = jhash2((const u32 *)k, sizeof(*k) / sizeof(u32),
			      l->seed);
	return &l->set[hash % LEARN_SETS];
}

static __always_inline bool hosts_key_equal(const struct learn_hosts_key *x,
					    const struct learn_hosts_key *y)
{
	const u64 *a = (const u64 *)x, *b = (const u64 *)y;

	BUILD_BUG_ON(sizeof(*x) != 5 * sizeof(u64));
	return !((a[0] ^ b[0]) | (a[1] ^ b[1]) | (a[2] ^ b[2]) |
		 (a[3] ^ b[3]) | (a[4] ^ b[4]));
}

/* @k's record in @set, or NULL. Under @set->lock. */
static __always_inline struct learn_record *
record_find(struct learn_set *set, const struct learn_hosts_key *k)
{
	unsigned int i;

	for (i = 0; i < LEARN_WAYS; i++)
		if (set->rec[i].used && hosts_key_equal(&set->rec[i].key, k))
			return &set->rec[i];
	return NULL;
}

/*
 * @k's record in @set, made if need be from a free one or the least
 * recently used (counted). Under @set->lock.
 */
static struct learn_record *record_get(struct rocect_net *rn,
				       struct learn_set *set,
				       const struct learn_hosts_key *k)
{
	struct learn_record *r = record_find(set, k), *old = &set->rec[0];
	u32 now = jiffies;
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
	old->key = *k;
	old->used = true;
	return old;
}

/*
 * A response to QP y (@key: from B to A) named requests from A to QP x: the
 * pair is (x, y) in both directions, or neither if there is no room for
 * both. Either may exist by now (another CPU, a handshake, an operator).
 */
static void add_pair(struct net *net, struct rocect_net *rn,
		     const struct rocect_qp_key *key, u32 x, u8 from, u8 origin)
{
	struct rocect_qp_key fwd = *key;
	struct rocect_events ev;

	fwd.saddr = key->daddr;
	fwd.daddr = key->saddr;
	fwd.dqpn = x;
	rocect_net_lock(rn, &ev);
	if (rocect_qp_inferred_room(rn, 2)) {
		rocect_qp_add_inferred(net, &fwd, key->dqpn, from, origin);
		rocect_qp_add_inferred(net, key, x, from, origin);
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

	return !old || (adopted && old->origin == ROCECT_ORIGIN_INFERRED);
}

/*
 * A UD packet names its source QP in its DETH: its entry, if it may have
 * one. The namespace's lock only if the entry can be added: not for every
 * packet of a flood at a key that has one.
 */
static void learn_ud(struct net *net, struct rocect_net *rn,
		     const struct rocect_qp_key *key,
		     const struct roce_pkt *pkt, bool adopted, u8 origin)
{
	struct rocect_events ev;

	if (!pkt->has_deth || !ud_may_add(rn, key, adopted) ||
	    !rocect_qp_inferred_room(rn, 1))
		return;
	rocect_net_lock(rn, &ev);
	if (ud_may_add(rn, key, adopted))
		rocect_qp_add_inferred(net, key, pkt->deth_src_qp,
				       pkt->class, origin);
	rocect_net_unlock(rn, &ev);
}

/**
 * rocect_learn_packet() - learn from a data packet of a QP without an entry
 * @net: the namespace
 * @rn: its state
 * @key: the packet's key, which has no entry or an inferred one that the
 *	packet contradicts
 * @pkt: the parsed packet
 * @adopted: it came on a flow adopted from a peer firewall (adopt.c): a
 *	pair it completes, or its UD entry, is recovered, not inferred, and
 *	an inferred entry of its key is no reason to ignore it
 *
 * Context: packet path, under rcu_read_lock().
 */
void rocect_learn_packet(struct net *net, struct rocect_net *rn,
			 const struct rocect_qp_key *key,
			 const struct roce_pkt *pkt, bool adopted)
{
	u8 origin = adopted ? ROCECT_ORIGIN_RECOVERED : ROCECT_ORIGIN_INFERRED;
	/* Pairs with the cmpxchg_release() of rocect_learn_enable(). */
	struct rocect_learn *l = smp_load_acquire(&rn->learn);
	enum roce_pair_result res;
	/*
	 * Written whole by set_of(): not cleared on entry, for every packet,
	 * by CONFIG_INIT_STACK_ALL_ZERO (nor the UD path's events, which
	 * live in learn_ud()).
	 */
	struct learn_hosts_key k __uninitialized;
	struct learn_record *r;
	struct learn_set *set;
	u32 psn = roce_bth_psn(&pkt->bth), x;

	if (!l)
		return;
	if (pkt->class == ROCE_CLASS_UD) {
		learn_ud(net, rn, key, pkt, adopted, origin);
		return;
	}
	if (pkt->class != ROCE_CLASS_RC && pkt->class != ROCE_CLASS_XRC)
		return;
	if (!roce_pair_is_response(pkt->bth.opcode)) {
		set = set_of(l, key, true, &k);
		spin_lock_bh(&set->lock);
		r = record_get(rn, set, &k);
		r->last = jiffies;
		roce_pair_request(&r->hosts, key->dqpn, psn, r->last);
		spin_unlock_bh(&set->lock);
		return;
	}
	/* A response from B to A answers A's requests to B. */
	set = set_of(l, key, false, &k);
	spin_lock_bh(&set->lock);
	r = record_find(set, &k);
	res = !r ? ROCE_PAIR_NONE :
	      roce_pair_response(&r->hosts, pkt->bth.opcode, key->dqpn,
				 psn, jiffies, LEARN_MAX_AGE, &x);
	spin_unlock_bh(&set->lock);
	if (res == ROCE_PAIR_AMBIGUOUS)
		rocect_stats_inc(rn, ROCECT_CTR_LEARN_AMBIGUOUS);
	else if (res == ROCE_PAIR_FOUND)
		add_pair(net, rn, key, x, pkt->class, origin);
}

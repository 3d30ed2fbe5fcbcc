/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The QP table's hash, key compare and parameters, for qp.c and for the
 * one lookup that is inline: the helper's, once per data packet, where a
 * call's frame cost more than the lookup's own instructions (make bench).
 */
#ifndef _ROCECT_QP_FIND_H
#define _ROCECT_QP_FIND_H

#include <linux/jhash.h>
#include <linux/rhashtable.h>

#include "netns.h"
#include "qp.h"

u32 rocect_qp_key_hash6(const void *data, u32 len, u32 seed);

/*
 * Keys compared as five words, inline: rhashtable's default is an
 * out-of-line memcmp() on every lookup of the packet path.
 */
static inline int qp_key_cmp(struct rhashtable_compare_arg *arg,
			     const void *obj)
{
	const u64 *a = arg->key;
	const u64 *b = (const u64 *)&((const struct rocect_qp *)obj)->key;

	BUILD_BUG_ON(sizeof(struct rocect_qp_key) != 5 * sizeof(u64));
	return ((a[0] ^ b[0]) | (a[1] ^ b[1]) | (a[2] ^ b[2]) |
		(a[3] ^ b[3]) | (a[4] ^ b[4])) != 0;
}

/*
 * An IPv4 key has three words that vary: one jhash round instead of the
 * default's three over the whole key. Seeded per table like the default,
 * so a sender cannot aim its keys at one bucket. Inline in the lookup of
 * every packet; IPv6's loop stays out of line.
 */
static __always_inline u32 qp_key_hash(const void *data, u32 len, u32 seed)
{
	const struct rocect_qp_key *k = data;

	if (likely(k->family == 4))
		return jhash_3words((__force u32)k->saddr.ip,
				    (__force u32)k->daddr.ip, k->dqpn,
				    seed ^ k->zone);
	return rocect_qp_key_hash6(data, len, seed);
}

static const struct rhashtable_params qp_params = {
	.head_offset = offsetof(struct rocect_qp, node),
	.key_offset = offsetof(struct rocect_qp, key),
	.key_len = sizeof(struct rocect_qp_key),
	.hashfn = qp_key_hash,
	.obj_cmpfn = qp_key_cmp,
	.automatic_shrinking = true,
};

/**
 * rocect_qp_find() - rocect_qp_lookup(), inline
 * @rn: the namespace's state
 * @key: the packet's key
 *
 * Context: under rcu_read_lock(); the entry is valid until it is dropped.
 * Return: the entry or NULL.
 */
static __always_inline struct rocect_qp *
rocect_qp_find(struct rocect_net *rn, const struct rocect_qp_key *key)
{
	return rhashtable_lookup(&rn->qps.ht, key, qp_params);
}

#endif /* _ROCECT_QP_FIND_H */

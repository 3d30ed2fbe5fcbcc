// SPDX-License-Identifier: GPL-2.0
/*
 * Per-source accounting of connections. Eviction makes room for a new
 * connection from the oldest refused, torn-down or half-open ones, never
 * from established ones; so one host that opens connections to a peer
 * that answers them (both in the same hands) could fill max-conns with
 * established connections and lock every other host out. No address may
 * hold more than source-share percent of max-conns in half-open and
 * established connections: at its share its own oldest half-open
 * connection makes room, else its new one is refused. Changes take the
 * namespace's lock.
 */
#include <linux/jhash.h>
#include <linux/rhashtable.h>
#include <linux/slab.h>

#include "netns.h"
#include "source.h"

static u32 source_hash(const void *data, u32 len, u32 seed)
{
	BUILD_BUG_ON(sizeof(struct rocect_source_key) % sizeof(u32));
	return jhash2(data, sizeof(struct rocect_source_key) / sizeof(u32),
		      seed);
}

static const struct rhashtable_params source_params = {
	.head_offset = offsetof(struct rocect_source, node),
	.key_offset = offsetof(struct rocect_source, key),
	.key_len = sizeof(struct rocect_source_key),
	.hashfn = source_hash,
	.automatic_shrinking = true,
};

/**
 * rocect_source_share() - connections one source may hold
 * @rn: the namespace's state
 *
 * Return: source-share percent of max-conns, at least one.
 */
u32 rocect_source_share(struct rocect_net *rn)
{
	u64 n = (u64)rocect_limit(rn, max_conns) *
		rocect_cfg(&rn->config, source_share) / 100;

	return max_t(u64, n, 1);
}

/**
 * rocect_source_inferred_share() - inferred QP entries one source may hold
 * @rn: the namespace's state
 *
 * Return: source-share percent of the inferred entries' half of max-qps,
 * at least one.
 */
u32 rocect_source_inferred_share(struct rocect_net *rn)
{
	u64 n = (u64)(rocect_limit(rn, max_qps) / 2) *
		rocect_cfg(&rn->config, source_share) / 100;

	return max_t(u64, n, 1);
}

/**
 * rocect_source_find() - a source by its key
 * @rn: the namespace's state
 * @key: the source, padding zeroed
 *
 * Context: &rocect_net.lock held.
 * Return: the source or NULL.
 */
struct rocect_source *rocect_source_find(struct rocect_net *rn,
					 const struct rocect_source_key *key)
{
	lockdep_assert_held(&rn->lock);
	return rhashtable_lookup_fast(&rn->conns.sources, key, source_params);
}

/**
 * rocect_source_get() - a source, created if new, with a reference taken
 * @rn: the namespace's state
 * @key: the source, padding zeroed
 *
 * Context: &rocect_net.lock held.
 * Return: the source, or NULL if memory is short.
 */
struct rocect_source *rocect_source_get(struct rocect_net *rn,
					const struct rocect_source_key *key)
{
	struct rocect_source *src;

	src = rocect_source_find(rn, key);
	if (!src) {
		/* Not charged: the connections of many tasks share it. */
		src = kzalloc(sizeof(*src), GFP_ATOMIC | __GFP_NOWARN);
		if (!src)
			return NULL;
		src->key = *key;
		INIT_LIST_HEAD(&src->half_open);
		if (rhashtable_insert_fast(&rn->conns.sources, &src->node,
					   source_params)) {
			kfree(src);
			return NULL;
		}
	}
	src->refs++;
	return src;
}

/**
 * rocect_source_put() - drop a reference; the last frees the source
 * @rn: the namespace's state
 * @src: the source
 *
 * Context: &rocect_net.lock held.
 */
void rocect_source_put(struct rocect_net *rn, struct rocect_source *src)
{
	lockdep_assert_held(&rn->lock);
	if (--src->refs)
		return;
	WARN_ON_ONCE(src->held || !list_empty(&src->half_open));
	rhashtable_remove_fast(&rn->conns.sources, &src->node, source_params);
	kfree_rcu(src, rcu);
}

/**
 * rocect_source_net_init() - an empty table of sources
 * @rn: the namespace's state
 *
 * Return: 0 or a negative errno.
 */
int rocect_source_net_init(struct rocect_net *rn)
{
	return rhashtable_init(&rn->conns.sources, &source_params);
}

static void source_free(void *ptr, void *arg)
{
	kfree(ptr);
}

/**
 * rocect_source_net_exit() - free a dying namespace's sources
 * @rn: the namespace's state
 *
 * With its connections, which are freed without putting theirs.
 */
void rocect_source_net_exit(struct rocect_net *rn)
{
	rhashtable_free_and_destroy(&rn->conns.sources, source_free, NULL);
}

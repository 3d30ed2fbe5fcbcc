// SPDX-License-Identifier: GPL-2.0
/*
 * The service policy of a namespace: rules that decide, from a REQ's (or
 * SIDR_REQ's) addresses, zone and Service ID, whether rocect tracks the
 * connection it asks for (accept, maybe with a mark for its data flows) or
 * drops it. The CM path reads the rules under RCU; a change builds a new
 * table (service_rules.c) and publishes it. Each rule is allocated once
 * and shared by the tables it is in, so its hit counter survives changes
 * of the others.
 */
#include <linux/mutex.h>
#include <linux/netlink.h>
#include <linux/slab.h>
#include <linux/sort.h>
#include <uapi/linux/rocect.h>

#include "netns.h"
#include "service_policy.h"
#include "wire.h"

/**
 * struct rocect_rule - a rule of a namespace's policy
 * @r: what it matches and does
 * @hits: REQs it decided
 * @rcu: deferred free, once no table holds it
 */
struct rocect_rule {
	struct roce_rule r;
	atomic64_t hits;
	struct rcu_head rcu;
};

/**
 * struct rocect_policy - one version of a namespace's rules
 * @rcu: deferred free, once replaced
 * @table: the lookup over @rule
 * @n: rules
 * @rule: the rules in their order; the table's slots and groups follow
 */
struct rocect_policy {
	struct rcu_head rcu;
	struct roce_rule_table table;
	u32 n;
	struct rocect_rule *rule[];
};

/* Changes of every namespace's policy: netlink's, and namespace exit's. */
static DEFINE_MUTEX(policy_mutex);

static struct rocect_policy *policy_locked(struct rocect_net *rn)
{
	return rcu_dereference_protected(rn->policy,
					 lockdep_is_held(&policy_mutex));
}

/* A policy of @n rules, its table's room laid out after them. */
static struct rocect_policy *policy_alloc(u32 n)
{
	struct rocect_policy *p;
	size_t size;

	size = struct_size(p, rule, n) +
	       n * sizeof(struct roce_rule_slot) + (n + 1) * sizeof(u32);
	p = kvzalloc(size, GFP_KERNEL_ACCOUNT);
	if (!p)
		return NULL;
	p->n = n;
	p->table.slots = (struct roce_rule_slot *)&p->rule[n];
	p->table.groups = (u32 *)&p->table.slots[n];
	p->table.nslots = n;
	return p;
}

/* Publish @p (maybe NULL) in place of the rules now; return those. */
static struct rocect_policy *policy_swap(struct rocect_net *rn,
					 struct rocect_policy *p)
{
	struct rocect_policy *old = policy_locked(rn);

	rcu_assign_pointer(rn->policy, p);
	/* Odd: 0 is a dump's "not checked". */
	WRITE_ONCE(rn->policy_gen, (rn->policy_gen + 2) | 1);
	return old;
}

/* Sort and group the table of @p's rules, publish it, free the old one. */
static void policy_publish(struct rocect_net *rn, struct rocect_policy *p)
{
	struct rocect_policy *old;
	u32 i;

	if (p) {
		for (i = 0; i < p->n; i++)
			roce_rule_slot_init(&p->table.slots[i], &p->rule[i]->r, i);
		sort(p->table.slots, p->n, sizeof(*p->table.slots),
		     roce_rule_slot_cmp, NULL);
		roce_rule_table_group(&p->table);
	}
	old = policy_swap(rn, p);
	if (old)
		kvfree_rcu(old, rcu);
}

/**
 * rocect_policy_insert() - add a rule
 * @rn: the namespace's state
 * @r: the rule, roce_rule_valid()
 * @index: its place: before the rule now there, at the end if it is the
 *	number of rules, or %U32_MAX for the end
 * @extack: where to say what is wrong
 *
 * Return: the place it took, or -EEXIST (a rule of the same match),
 * -ERANGE (@index past the end), -ENOSPC (at %ROCECT_POLICY_RULES_MAX) or
 * -ENOMEM.
 */
int rocect_policy_insert(struct rocect_net *rn, const struct roce_rule *r,
			 u32 index, struct netlink_ext_ack *extack)
{
	struct rocect_policy *old, *p;
	struct rocect_rule *rule;
	u32 n, i;
	int err = 0;

	mutex_lock(&policy_mutex);
	old = policy_locked(rn);
	n = old ? old->n : 0;
	for (i = 0; i < n; i++) {
		if (roce_rule_same_match(&old->rule[i]->r, r)) {
			NL_SET_ERR_MSG(extack, "a rule of the same match exists");
			err = -EEXIST;
			goto out;
		}
	}
	if (n >= ROCECT_POLICY_RULES_MAX) {
		NL_SET_ERR_MSG(extack, "the policy holds its most rules");
		err = -ENOSPC;
		goto out;
	}
	if (index != U32_MAX && index > n) {
		NL_SET_ERR_MSG(extack, "index past the end of the rules");
		err = -ERANGE;
		goto out;
	}
	rule = kzalloc(sizeof(*rule), GFP_KERNEL_ACCOUNT);
	p = policy_alloc(n + 1);
	if (!rule || !p) {
		kfree(rule);
		kvfree(p);
		err = -ENOMEM;
		goto out;
	}
	rule->r = *r;
	index = min(index, n);
	for (i = 0; i < index; i++)
		p->rule[i] = old->rule[i];
	p->rule[index] = rule;
	for (i = index; i < n; i++)
		p->rule[i + 1] = old->rule[i];
	policy_publish(rn, p);
	err = index;
out:
	mutex_unlock(&policy_mutex);
	return err;
}

/**
 * rocect_policy_find() - the place of the rule of a match
 * @rn: the namespace's state
 * @r: a rule of that match (its action is not compared)
 *
 * Return: its index, or -ENOENT.
 */
int rocect_policy_find(struct rocect_net *rn, const struct roce_rule *r)
{
	struct rocect_policy *p;
	int found = -ENOENT;
	u32 i;

	mutex_lock(&policy_mutex);
	p = policy_locked(rn);
	for (i = 0; p && i < p->n; i++) {
		if (roce_rule_same_match(&p->rule[i]->r, r)) {
			found = i;
			break;
		}
	}
	mutex_unlock(&policy_mutex);
	return found;
}

/**
 * rocect_policy_delete() - remove a rule
 * @rn: the namespace's state
 * @index: its place
 * @r: filled with the rule removed
 * @hits: filled with its hits
 *
 * Return: 0, -ENOENT (no rule there) or -ENOMEM.
 */
int rocect_policy_delete(struct rocect_net *rn, u32 index,
			 struct roce_rule *r, u64 *hits)
{
	struct rocect_policy *old, *p = NULL;
	struct rocect_rule *gone;
	int err = 0;
	u32 i;

	mutex_lock(&policy_mutex);
	old = policy_locked(rn);
	if (!old || index >= old->n) {
		err = -ENOENT;
		goto out;
	}
	if (old->n > 1) {
		p = policy_alloc(old->n - 1);
		if (!p) {
			err = -ENOMEM;
			goto out;
		}
		for (i = 0; i < old->n; i++)
			if (i != index)
				p->rule[i - (i > index)] = old->rule[i];
	}
	gone = old->rule[index];
	*r = gone->r;
	*hits = atomic64_read(&gone->hits);
	policy_publish(rn, p);
	kfree_rcu(gone, rcu);
out:
	mutex_unlock(&policy_mutex);
	return err;
}

/*
 * Replace the rules with none, freeing them after readers are done: once
 * unpublished, so that no reader can find them after their grace period
 * began.
 */
static void policy_clear(struct rocect_net *rn)
{
	struct rocect_policy *old = policy_swap(rn, NULL);
	u32 i;

	if (!old)
		return;
	for (i = 0; i < old->n; i++)
		kfree_rcu(old->rule[i], rcu);
	kvfree_rcu(old, rcu);
}

/**
 * rocect_policy_flush() - remove every rule
 * @rn: the namespace's state
 */
void rocect_policy_flush(struct rocect_net *rn)
{
	mutex_lock(&policy_mutex);
	policy_clear(rn);
	mutex_unlock(&policy_mutex);
}

/**
 * rocect_policy_rule() - read a rule, for a dump
 * @rn: the namespace's state
 * @index: its place
 * @r: filled with the rule
 * @hits: filled with its hits
 * @gen: filled with the rules' generation, which each change moves on
 *
 * Return: false if there is no rule at @index.
 */
bool rocect_policy_rule(struct rocect_net *rn, u32 index,
			struct roce_rule *r, u64 *hits, u32 *gen)
{
	struct rocect_policy *p;
	bool found = false;

	rcu_read_lock();
	*gen = READ_ONCE(rn->policy_gen);
	p = rcu_dereference(rn->policy);
	if (p && index < p->n) {
		*r = p->rule[index]->r;
		*hits = atomic64_read(&p->rule[index]->hits);
		found = true;
	}
	rcu_read_unlock();
	return found;
}

/**
 * rocect_policy_decide() - what the policy does with a REQ or SIDR_REQ
 * @rn: the namespace's state
 * @pkt: the MAD
 * @zone: its conntrack's zone
 * @mark: filled with the mark of the connection's data flows (0: none)
 * @index: filled with the deciding rule's place, or -1 for the default
 *
 * Counts the deciding rule's hit, or a REQ no rule matched.
 *
 * Context: RCU read side (the helper callback).
 * Return: &enum rocect_policy_action.
 */
u8 rocect_policy_decide(struct rocect_net *rn, const struct roce_pkt *pkt,
			u16 zone, u32 *mark, int *index)
{
	const struct rocect_policy *p = rcu_dereference(rn->policy);
	const struct roce_rule_slot *slot;
	struct roce_rule_query q;
	struct rocect_rule *rule;

	*mark = 0;
	*index = -1;
	slot = NULL;
	if (p) {
		roce_addr_widen(q.saddr, roce_pkt_saddr(pkt), pkt->family);
		roce_addr_widen(q.daddr, roce_pkt_daddr(pkt), pkt->family);
		q.service_id = pkt->cm.service_id;
		q.zone = zone;
		q.family = pkt->family;
		slot = roce_rule_lookup(&p->table, &q);
	}
	if (!slot) {
		rocect_stats_inc(rn, ROCECT_CTR_POLICY_DEFAULT);
		return rocect_cfg(&rn->config, policy_default);
	}
	rule = container_of(slot->rule, struct rocect_rule, r);
	atomic64_inc(&rule->hits);
	*mark = rule->r.mark;
	*index = slot->index;
	return rule->r.action;
}

/**
 * rocect_policy_refuses() - would the policy refuse this CM MAD?
 * @rn: the namespace's state
 * @pkt: a CM MAD
 * @zone: its conntrack's zone
 *
 * For a REQ or SIDR_REQ that is not tracked (it failed rp-check): such a
 * packet passes in accept mode, but not past a rule that refuses it. Its
 * decision is counted as a tracked REQ's is.
 *
 * Context: RCU read side (the helper callback).
 * Return: true for a REQ or SIDR_REQ the policy drops or rejects.
 */
bool rocect_policy_refuses(struct rocect_net *rn, const struct roce_pkt *pkt,
			   u16 zone)
{
	u32 mark;
	int index;

	if (pkt->cm.attr_id != ROCE_CM_REQ && pkt->cm.attr_id != ROCE_CM_SIDR_REQ)
		return false;
	if (rocect_policy_decide(rn, pkt, zone, &mark, &index) ==
	    ROCECT_POLICY_ACCEPT)
		return false;
	/* Dropped, never answered: its source is not to be believed. */
	rocect_policy_refused_notify(rn, pkt, zone, ROCECT_POLICY_DROP, index);
	return true;
}

/**
 * rocect_policy_net_exit() - free a namespace's rules
 * @rn: the namespace's state, no longer reachable
 */
void rocect_policy_net_exit(struct rocect_net *rn)
{
	rocect_policy_flush(rn);
}

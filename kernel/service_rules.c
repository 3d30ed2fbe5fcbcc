// SPDX-License-Identifier: GPL-2.0
/*
 * The service policy's lookup: which rule, first in the policy's order,
 * matches a REQ's addresses, zone and Service ID. The rules are sorted by
 * Service ID mask, then Service ID, then place, so that a lookup is a
 * binary search for the REQ's Service ID under each mask in use; within a
 * Service ID the first rule whose prefixes and zone match is that mask's
 * answer, and the lowest place of those answers wins.
 */
#include "service_rules.h"

/* Does @addr lie in the prefix @prefix/@plen (both widened)? */
static bool in_prefix(const u8 *addr, const u8 *prefix, u8 plen)
{
	u8 bytes = plen / 8, bits = plen % 8;

	if (memcmp(addr, prefix, bytes))
		return false;
	return !bits || !((addr[bytes] ^ prefix[bytes]) & (u8)(0xff00 >> bits));
}

/* Are the bits of @addr past @plen zero (a widened IPv4 address's too)? */
static bool host_bits_zero(const u8 *addr, u8 plen)
{
	u8 i, keep;

	for (i = plen / 8; i < 16; i++) {
		keep = i == plen / 8 ? (u8)(0xff00 >> (plen % 8)) : 0;
		if (addr[i] & ~keep)
			return false;
	}
	return true;
}

/**
 * roce_rule_valid() - is a rule one the lookup can hold?
 * @r: the rule
 *
 * Its family is 0, 4 or 6; prefixes fit it (none without a family) and
 * have no host bits; its Service ID has no bits outside the mask; its zone
 * is a zone or any.
 *
 * Return: true if so.
 */
bool roce_rule_valid(const struct roce_rule *r)
{
	u8 max = r->family == 4 ? 32 : r->family == 6 ? 128 : 0;

	if (r->family != 0 && r->family != 4 && r->family != 6)
		return false;
	if (r->splen > max || r->dplen > max)
		return false;
	if (!host_bits_zero(r->saddr, r->splen) ||
	    !host_bits_zero(r->daddr, r->dplen))
		return false;
	return !(r->service_id & ~r->service_mask) &&
	       r->zone <= ROCE_RULE_ANY_ZONE;
}

/**
 * roce_rule_same_match() - do two rules match the same REQs?
 * @a: one
 * @b: the other
 *
 * Return: true if their prefixes, zone and service are the same, whatever
 * their actions.
 */
bool roce_rule_same_match(const struct roce_rule *a, const struct roce_rule *b)
{
	return a->family == b->family && a->splen == b->splen &&
	       a->dplen == b->dplen && a->zone == b->zone &&
	       a->service_id == b->service_id &&
	       a->service_mask == b->service_mask &&
	       !memcmp(a->saddr, b->saddr, 16) &&
	       !memcmp(a->daddr, b->daddr, 16);
}

/**
 * roce_rule_slot_init() - a rule's slot, before sorting
 * @slot: the slot
 * @rule: the rule, roce_rule_valid()
 * @index: its place in the policy
 */
void roce_rule_slot_init(struct roce_rule_slot *slot,
			 const struct roce_rule *rule, u32 index)
{
	slot->mask = rule->service_mask;
	slot->key = rule->service_id;
	slot->index = index;
	slot->rule = rule;
}

/**
 * roce_rule_slot_cmp() - the lookup's order, for sort() or qsort()
 * @a: a slot
 * @b: another
 *
 * Return: <0, 0 or >0 as @a goes before, with or after @b: by mask, then
 * Service ID, then place.
 */
int roce_rule_slot_cmp(const void *a, const void *b)
{
	const struct roce_rule_slot *x = a, *y = b;

	if (x->mask != y->mask)
		return x->mask < y->mask ? -1 : 1;
	if (x->key != y->key)
		return x->key < y->key ? -1 : 1;
	return x->index < y->index ? -1 : x->index > y->index;
}

/**
 * roce_rule_table_group() - find the runs of one mask in sorted slots
 * @t: the table, @t->slots sorted and @t->groups room for @t->nslots + 1
 */
void roce_rule_table_group(struct roce_rule_table *t)
{
	u32 i;

	t->ngroups = 0;
	for (i = 0; i < t->nslots; i++)
		if (!i || t->slots[i].mask != t->slots[i - 1].mask)
			t->groups[t->ngroups++] = i;
	t->groups[t->ngroups] = t->nslots;
}

/* Do a rule's prefixes and zone match a query? */
static bool rule_matches(const struct roce_rule *r,
			 const struct roce_rule_query *q)
{
	if (r->zone != ROCE_RULE_ANY_ZONE && r->zone != q->zone)
		return false;
	if (!r->family)
		return true;
	return r->family == q->family && in_prefix(q->saddr, r->saddr, r->splen) &&
	       in_prefix(q->daddr, r->daddr, r->dplen);
}

/**
 * roce_rule_lookup() - the first rule of the policy that matches a REQ
 * @t: the policy's table
 * @q: the REQ
 *
 * Return: that rule's slot, or NULL if none matches.
 */
const struct roce_rule_slot *
roce_rule_lookup(const struct roce_rule_table *t,
		 const struct roce_rule_query *q)
{
	const struct roce_rule_slot *best = NULL, *s, *end;
	u32 g, lo, hi, mid;
	u64 key;

	for (g = 0; g < t->ngroups; g++) {
		lo = t->groups[g];
		hi = t->groups[g + 1];
		end = t->slots + hi;
		key = q->service_id & t->slots[lo].mask;
		while (lo < hi) {
			mid = lo + (hi - lo) / 2;
			if (t->slots[mid].key < key)
				lo = mid + 1;
			else
				hi = mid;
		}
		for (s = t->slots + lo; s < end && s->key == key; s++) {
			if (best && s->index > best->index)
				break;
			if (rule_matches(s->rule, q)) {
				best = s;
				break;
			}
		}
	}
	return best;
}

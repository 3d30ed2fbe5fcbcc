/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The service policy's rules and their lookup (service_rules.c): pure
 * code, compiled into the module and into the unit tests and benchmarks.
 */
#ifndef _ROCECT_SERVICE_RULES_H
#define _ROCECT_SERVICE_RULES_H

#include "wire_platform.h"

/* &roce_rule.zone of a rule for every zone: zones are 16 bits. */
#define ROCE_RULE_ANY_ZONE	0x10000

/**
 * struct roce_rule - one rule of the service policy
 * @saddr: the source prefix, widened as roce_addr_widen() does, its host
 *	bits zero
 * @daddr: the destination prefix, likewise
 * @service_id: the Service ID a REQ must carry, under @service_mask (its
 *	bits outside the mask zero)
 * @service_mask: the Service ID's bits compared; 0: any service
 * @zone: the conntrack zone, or %ROCE_RULE_ANY_ZONE
 * @mark: accept: the conntrack mark of the connection's data flows, 0 none
 * @splen: the source prefix's length in bits of its family (0: any)
 * @dplen: the destination prefix's
 * @family: 4 or 6, or 0 for both (a rule without prefixes)
 * @action: &enum rocect_policy_action
 */
struct roce_rule {
	u8 saddr[16];
	u8 daddr[16];
	u64 service_id;
	u64 service_mask;
	u32 zone;
	u32 mark;
	u8 splen;
	u8 dplen;
	u8 family;
	u8 action;
};

/**
 * struct roce_rule_query - what a REQ asks for
 * @saddr: its source address, widened
 * @daddr: its destination address, widened
 * @service_id: its Service ID
 * @zone: its conntrack's zone
 * @family: 4 or 6
 */
struct roce_rule_query {
	u8 saddr[16];
	u8 daddr[16];
	u64 service_id;
	u32 zone;
	u8 family;
};

/**
 * struct roce_rule_slot - a rule in the lookup's order
 * @mask: its Service ID mask
 * @key: its Service ID (under @mask)
 * @index: its place in the policy: the lowest matching one wins
 * @rule: the rule
 */
struct roce_rule_slot {
	u64 mask;
	u64 key;
	u32 index;
	const struct roce_rule *rule;
};

/**
 * struct roce_rule_table - the rules, ready for lookups
 * @slots: one per rule, sorted with roce_rule_slot_cmp()
 * @groups: where each run of one mask starts in @slots, and @ngroups + 1
 *	entries (the last is @nslots)
 * @nslots: rules
 * @ngroups: distinct masks
 *
 * A lookup costs a binary search per distinct mask, and a walk of the
 * rules of the REQ's service that do not match its addresses or zone:
 * rules that each name a service cost no more than one does.
 */
struct roce_rule_table {
	struct roce_rule_slot *slots;
	u32 *groups;
	u32 nslots;
	u32 ngroups;
};

bool roce_rule_valid(const struct roce_rule *r);
bool roce_rule_same_match(const struct roce_rule *a, const struct roce_rule *b);
void roce_rule_slot_init(struct roce_rule_slot *slot,
			 const struct roce_rule *rule, u32 index);
int roce_rule_slot_cmp(const void *a, const void *b);
void roce_rule_table_group(struct roce_rule_table *t);
const struct roce_rule_slot *
roce_rule_lookup(const struct roce_rule_table *t,
		 const struct roce_rule_query *q);

#endif /* _ROCECT_SERVICE_RULES_H */

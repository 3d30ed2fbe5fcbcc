// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of the service policy's lookup (kernel/service_rules.c):
 * first match across masks, prefixes of both families, zones, rule
 * checks, and random policies against a plain first-match scan.
 */
#include <stdlib.h>

#include "service_rules.h"
#include "tap.h"

#define SID_TCP(port)	(0x0000000001060000ULL | (port))
#define SID_UDP(port)	(0x0000000001110000ULL | (port))
#define PS_MASK		(~0xffffULL)

/* A table over @n rules, built as the module builds it (with qsort). */
static void build(struct roce_rule_table *t, const struct roce_rule *rules,
		  unsigned int n)
{
	unsigned int i;

	t->slots = calloc(n ? n : 1, sizeof(*t->slots));
	t->groups = calloc(n + 1, sizeof(*t->groups));
	t->nslots = n;
	for (i = 0; i < n; i++)
		roce_rule_slot_init(&t->slots[i], &rules[i], i);
	qsort(t->slots, n, sizeof(*t->slots), roce_rule_slot_cmp);
	roce_rule_table_group(t);
}

static void unbuild(struct roce_rule_table *t)
{
	free(t->slots);
	free(t->groups);
}

static void v4(u8 *a, u8 b0, u8 b1, u8 b2, u8 b3)
{
	memset(a, 0, 16);
	a[0] = b0;
	a[1] = b1;
	a[2] = b2;
	a[3] = b3;
}

static int lookup(const struct roce_rule_table *t, const u8 *s, const u8 *d,
		  u8 family, u64 sid, u32 zone)
{
	struct roce_rule_query q = { .service_id = sid, .zone = zone,
				     .family = family };
	const struct roce_rule_slot *slot;

	memcpy(q.saddr, s, 16);
	memcpy(q.daddr, d, 16);
	slot = roce_rule_lookup(t, &q);
	return slot ? (int)slot->index : -1;
}

static void test_first_match(void)
{
	struct roce_rule r[5] = {};
	struct roce_rule_table t;
	u8 a1[16], a2[16], b[16], a6[16] = { 0xfd, 0, 0, 1 }, b6[16] = { 0xfd };
	bool ok = true;
	unsigned int i;

	for (i = 0; i < 5; i++)
		r[i].zone = ROCE_RULE_ANY_ZONE;
	/* 0: from 10.0.1.2 drop (any service) */
	r[0].family = 4;
	v4(r[0].saddr, 10, 0, 1, 2);
	r[0].splen = 32;
	r[0].action = 1;
	/* 1: to 10.0.2.0/24 tcp:4420 */
	r[1].family = 4;
	v4(r[1].daddr, 10, 0, 2, 0);
	r[1].dplen = 24;
	r[1].service_id = SID_TCP(4420);
	r[1].service_mask = ~0ULL;
	r[1].mark = 0x42;
	/* 2: tcp:7174 */
	r[2].service_id = SID_TCP(7174);
	r[2].service_mask = ~0ULL;
	/* 3: the udp port space, drop */
	r[3].service_id = SID_UDP(0);
	r[3].service_mask = PS_MASK;
	r[3].action = 1;
	/* 4: zone 5, tcp:4420 */
	r[4].zone = 5;
	r[4].service_id = SID_TCP(4420);
	r[4].service_mask = ~0ULL;
	for (i = 0; i < 5; i++)
		EXPECT(roce_rule_valid(&r[i]));
	build(&t, r, 5);
	EXPECT(t.ngroups == 3);
	v4(a1, 10, 0, 1, 1);
	v4(a2, 10, 0, 1, 2);
	v4(b, 10, 0, 2, 1);
	EXPECT(lookup(&t, a1, b, 4, SID_TCP(4420), 0) == 1);
	EXPECT(lookup(&t, a2, b, 4, SID_TCP(4420), 0) == 0);
	EXPECT(lookup(&t, a2, b, 4, SID_TCP(7174), 0) == 0);
	EXPECT(lookup(&t, a1, b, 4, SID_TCP(7174), 0) == 2);
	EXPECT(lookup(&t, a1, b, 4, SID_TCP(9999), 0) == -1);
	EXPECT(lookup(&t, a1, b, 4, SID_UDP(7174), 0) == 3);
	EXPECT(lookup(&t, a1, a2, 4, SID_TCP(4420), 0) == -1);
	EXPECT(lookup(&t, a1, a2, 4, SID_TCP(4420), 5) == 4);
	/* IPv6: the IPv4 prefixes never match; rules of no family do. */
	b6[15] = 1;
	a6[15] = 1;
	EXPECT(lookup(&t, a6, b6, 6, SID_TCP(4420), 0) == -1);
	EXPECT(lookup(&t, a6, b6, 6, SID_TCP(7174), 0) == 2);
	/* An IPv4 address whose bytes begin an IPv6 one's is not it. */
	memset(a6, 0, 16);
	memcpy(a6, a2, 4);
	a6[15] = 1;
	EXPECT(lookup(&t, a6, b, 6, SID_TCP(7174), 0) == 2);
	unbuild(&t);
	result(ok, "service rules: first match across masks, families and zones");
}

static void test_valid(void)
{
	struct roce_rule r = { .zone = ROCE_RULE_ANY_ZONE, .family = 4,
			       .splen = 8 };
	bool ok = true;

	v4(r.saddr, 10, 0, 0, 0);
	EXPECT(roce_rule_valid(&r));
	r.saddr[3] = 1;
	EXPECT(!roce_rule_valid(&r));		/* bits past the prefix */
	r.saddr[3] = 0;
	r.splen = 33;
	EXPECT(!roce_rule_valid(&r));		/* longer than IPv4 */
	r.splen = 8;
	r.saddr[4] = 1;
	EXPECT(!roce_rule_valid(&r));		/* IPv4 widened with junk */
	r.saddr[4] = 0;
	r.family = 6;
	r.splen = 128;
	EXPECT(roce_rule_valid(&r));
	r.splen = 129;
	EXPECT(!roce_rule_valid(&r));
	r.splen = 0;
	r.family = 0;
	memset(r.saddr, 0, 16);
	r.service_id = SID_TCP(1);
	r.service_mask = PS_MASK;
	EXPECT(!roce_rule_valid(&r));		/* bits outside the mask */
	r.service_mask = ~0ULL;
	EXPECT(roce_rule_valid(&r));
	r.splen = 1;
	EXPECT(!roce_rule_valid(&r));		/* a prefix, no family */
	r.splen = 0;
	r.zone = ROCE_RULE_ANY_ZONE + 1;
	EXPECT(!roce_rule_valid(&r));
	result(ok, "service rules: prefixes, masks and zones checked");
}

/* The answer the table must give: the first rule that matches. */
static int first_match(const struct roce_rule *r, unsigned int n, const u8 *s,
		       const u8 *d, u8 family, u64 sid, u32 zone)
{
	unsigned int i, b;

	for (i = 0; i < n; i++) {
		const u8 plen[2] = { r[i].splen, r[i].dplen };
		const u8 *pfx[2] = { r[i].saddr, r[i].daddr }, *addr[2] = { s, d };
		bool match = (sid & r[i].service_mask) == r[i].service_id &&
			     (r[i].zone == ROCE_RULE_ANY_ZONE || r[i].zone == zone) &&
			     (!r[i].family || r[i].family == family);

		for (b = 0; match && r[i].family && b < 2 * 128; b++) {
			unsigned int side = b / 128, bit = b % 128;

			if (bit < plen[side] &&
			    ((addr[side][bit / 8] ^ pfx[side][bit / 8]) &
			     (0x80 >> (bit % 8))))
				match = false;
		}
		if (match)
			return i;
	}
	return -1;
}

/* A random prefix of @family around 10.0.x.y or fd00::x. */
static void random_prefix(u8 *addr, u8 *plen, u8 family)
{
	static const u8 v4_lens[] = { 0, 8, 16, 23, 24, 30, 32 };
	static const u8 v6_lens[] = { 0, 64, 100, 127, 128 };
	u8 full[16] = {}, i;

	if (family == 4) {
		v4(full, 10, 0, rand() % 4, rand() % 4);
		*plen = v4_lens[rand() % sizeof(v4_lens)];
	} else {
		full[0] = 0xfd;
		full[12] = rand() % 4;
		full[15] = rand() % 4;
		*plen = v6_lens[rand() % sizeof(v6_lens)];
	}
	memset(addr, 0, 16);
	for (i = 0; i < *plen; i++)
		addr[i / 8] |= full[i / 8] & (0x80 >> (i % 8));
}

static void test_random(void)
{
	static const u64 masks[] = { 0, ~0ULL, PS_MASK, ~0xffULL };
	struct roce_rule r[64];
	struct roce_rule_table t;
	unsigned int round, n, i, q, wrong = 0;
	bool ok = true;

	srand(4791);
	for (round = 0; round < 200; round++) {
		n = rand() % 64;
		for (i = 0; i < n; i++) {
			memset(&r[i], 0, sizeof(r[i]));
			r[i].family = rand() % 3 ? (rand() % 2 ? 4 : 6) : 0;
			if (r[i].family) {
				random_prefix(r[i].saddr, &r[i].splen, r[i].family);
				random_prefix(r[i].daddr, &r[i].dplen, r[i].family);
			}
			r[i].service_mask = masks[rand() % 4];
			r[i].service_id = SID_TCP(4420 + rand() % 4) &
					  r[i].service_mask;
			r[i].zone = rand() % 4 ? ROCE_RULE_ANY_ZONE : rand() % 2;
			EXPECT(roce_rule_valid(&r[i]));
		}
		build(&t, r, n);
		for (q = 0; q < 200; q++) {
			u8 family = rand() % 2 ? 4 : 6, s[16], d[16], sl, dl;
			u64 sid = rand() % 8 ? SID_TCP(4420 + rand() % 5) :
					       SID_UDP(4420);
			u32 zone = rand() % 2;

			random_prefix(s, &sl, family);
			random_prefix(d, &dl, family);
			if (lookup(&t, s, d, family, sid, zone) !=
			    first_match(r, n, s, d, family, sid, zone))
				wrong++;
		}
		unbuild(&t);
	}
	EXPECT(wrong == 0);
	result(ok, "service rules: 200 random policies agree with a first-match scan (%u wrong)",
	       wrong);
}

void test_service_rules(void)
{
	test_first_match();
	test_valid();
	test_random();
}

// SPDX-License-Identifier: GPL-2.0
/*
 * rocect policy: the service policy, rules that decide from a REQ's
 * addresses, zone and Service ID whether its connection is tracked
 * (accept, maybe marking its data flows) or dropped. First match wins.
 */
#include <arpa/inet.h>
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rocect.h"

static const char *const policy_actions[] = { "accept", "drop", "reject" };

/* RDMA CM's port spaces: Service ID 0x00000000_01PP_pppp. */
static const struct {
	const char *name;
	uint8_t ps;
} port_spaces[] = {
	{ "tcp", 0x06 }, { "udp", 0x11 }, { "ib", 0x3f }, { "ipoib", 0x02 },
};

#define RDMA_CM_SID(ps, port)	(0x0000000001000000ULL | \
				 (uint64_t)(ps) << 16 | (port))

static int policy_help(struct rd *rd)
{
	fprintf(stderr,
		"Usage: rocect policy add [ index N ] MATCH { accept [ mark MARK ] | drop | reject }\n"
		"       rocect policy del { index N | MATCH }\n"
		"       rocect [-j [-p]] policy [ show ]\n"
		"       rocect policy flush\n"
		"where  MATCH := [ zone ZONE ] [ from PREFIX ] [ to PREFIX ] [ service SERVICE ]\n"
		"       SERVICE := { { tcp | udp | ib | ipoib }[:PORT] | SID[/MASK] }\n"
		"A REQ's first matching rule decides; none: config policy-default.\n");
	return 0;
}

/*
 * A 64-bit number: hex with 0x, else decimal (a leading zero is not
 * octal, as with rd_u32()); *@end after it. -1 if none is there.
 */
static int parse_u64(const char *s, uint64_t *v, char **end)
{
	bool hex = s[0] == '0' && (s[1] == 'x' || s[1] == 'X');
	const char *digits = hex ? s + 2 : s;

	if (!isxdigit((unsigned char)digits[0]) ||
	    (!hex && !isdigit((unsigned char)digits[0])))
		return -1;
	errno = 0;
	*v = strtoull(digits, end, hex ? 16 : 10);
	return errno ? -1 : 0;
}

/* "tcp:4420", "tcp" (the port space), or "0xSID[/0xMASK]". */
static int parse_service(const char *s, uint64_t *sid, uint64_t *mask)
{
	const char *colon = strchr(s, ':'), *slash;
	size_t len = colon ? (size_t)(colon - s) : strlen(s);
	unsigned int i;
	uint32_t port;
	char *end;

	for (i = 0; i < ARRAY_SIZE(port_spaces); i++) {
		if (strlen(port_spaces[i].name) != len ||
		    strncmp(s, port_spaces[i].name, len))
			continue;
		if (!colon) {
			*sid = RDMA_CM_SID(port_spaces[i].ps, 0);
			*mask = ~0xffffULL;
			return 0;
		}
		if (rd_u32(colon + 1, 0xffff, &port)) {
			pr_err("service: '%s' is not a port (0-65535)", colon + 1);
			return -1;
		}
		*sid = RDMA_CM_SID(port_spaces[i].ps, port);
		*mask = ~0ULL;
		return 0;
	}
	if (parse_u64(s, sid, &end) || (*end && *end != '/')) {
		pr_err("service: unknown port space or service ID '%s' (tcp, udp, ib, ipoib[:PORT] or SID[/MASK])",
		       s);
		return -1;
	}
	*mask = ~0ULL;
	slash = *end ? end + 1 : NULL;
	if (slash) {
		if (parse_u64(slash, mask, &end) || *end) {
			pr_err("service: '%s' is not a mask", slash);
			return -1;
		}
	}
	return 0;
}

/* "ADDR[/LEN]" into the attributes of one side. */
static int put_prefix(struct nlmsghdr *nlh, const char *what, const char *s,
		      uint16_t a4, uint16_t a6, uint16_t alen, uint8_t *family)
{
	char addr_s[INET6_ADDRSTRLEN + 1];
	const char *slash = strchr(s, '/');
	uint8_t addr[16], fam;
	uint32_t plen;

	snprintf(addr_s, sizeof(addr_s), "%.*s",
		 slash ? (int)(slash - s) : (int)strlen(s), s);
	if (rd_addr(addr_s, &fam, addr)) {
		pr_err("%s: '%s' is not an IPv4 or IPv6 prefix", what, s);
		return -1;
	}
	if (*family && *family != fam) {
		pr_err("%s: '%s' is not of the other prefix's family", what, s);
		return -1;
	}
	*family = fam;
	if (slash) {
		if (rd_u32(slash + 1, 255, &plen) ||
		    plen > (fam == 4 ? 32u : 128u)) {
			pr_err("%s: prefix length '%s' is longer than an IPv%u address",
			       what, slash + 1, fam);
			return -1;
		}
		mnl_attr_put_u8(nlh, alen, plen);
	}
	if (fam == 4)
		mnl_attr_put(nlh, a4, 4, addr);
	else
		mnl_attr_put(nlh, a6, 16, addr);
	return 0;
}

/* The words of a rule; @change: add (an action is needed) or del. */
static int rule_args(struct rd *rd, struct nlmsghdr *nlh, bool add)
{
	static const char *const keys[] = { "index", "zone", "from", "to",
					    "service", "mark" };
	bool have_action = false, have_index = false, have_match = false;
	unsigned int seen = 0, k;
	uint8_t family = 0;
	uint64_t sid, mask;
	const char *word, *val;
	uint32_t v;
	unsigned int i;

	while ((word = rd_next(rd))) {
		for (i = 0; i < ARRAY_SIZE(policy_actions); i++)
			if (!strcmp(word, policy_actions[i]))
				break;
		if (i < ARRAY_SIZE(policy_actions)) {
			if (!add || have_action) {
				pr_err("%s: %s", word, add ? "a second action" :
				       "'policy del' takes no action");
				return -1;
			}
			mnl_attr_put_u8(nlh, ROCECT_A_POLICY_ACTION, i);
			have_action = true;
			continue;
		}
		val = rd_next(rd);
		if (!val) {
			pr_err("'%s' needs a value", word);
			return -1;
		}
		for (k = 0; k < ARRAY_SIZE(keys); k++) {
			if (strcmp(word, keys[k]))
				continue;
			if (seen & 1u << k) {
				pr_err("'%s' given twice", word);
				return -1;
			}
			seen |= 1u << k;
		}
		if (!strcmp(word, "index")) {
			if (rd_u32(val, UINT32_MAX - 1, &v)) {
				pr_err("index: '%s' is not a number", val);
				return -1;
			}
			mnl_attr_put_u32(nlh, ROCECT_A_POLICY_INDEX, v);
			have_index = true;
		} else if (!strcmp(word, "zone")) {
			if (rd_u32(val, 0xffff, &v)) {
				pr_err("zone: '%s' is not a zone (0-65535)", val);
				return -1;
			}
			mnl_attr_put_u16(nlh, ROCECT_A_POLICY_ZONE, v);
			have_match = true;
		} else if (!strcmp(word, "from") || !strcmp(word, "to")) {
			bool from = word[0] == 'f';

			if (put_prefix(nlh, word, val,
				       from ? ROCECT_A_POLICY_SADDR4 : ROCECT_A_POLICY_DADDR4,
				       from ? ROCECT_A_POLICY_SADDR6 : ROCECT_A_POLICY_DADDR6,
				       from ? ROCECT_A_POLICY_SPREFIX : ROCECT_A_POLICY_DPREFIX,
				       &family))
				return -1;
			have_match = true;
		} else if (!strcmp(word, "service")) {
			if (parse_service(val, &sid, &mask))
				return -1;
			mnl_attr_put_u64(nlh, ROCECT_A_POLICY_SERVICE_ID, sid);
			mnl_attr_put_u64(nlh, ROCECT_A_POLICY_SERVICE_MASK, mask);
			have_match = true;
		} else if (!strcmp(word, "mark") && add) {
			if (rd_u32(val, UINT32_MAX, &v)) {
				pr_err("mark: '%s' is not a 32-bit number", val);
				return -1;
			}
			mnl_attr_put_u32(nlh, ROCECT_A_POLICY_MARK, v);
		} else {
			pr_err("unknown argument '%s'; try 'rocect policy help'", word);
			return -1;
		}
	}
	if (add && !have_action) {
		pr_err("a rule needs an action: accept, drop or reject");
		return -1;
	}
	if (!add && have_index == have_match) {
		pr_err("'policy del' takes an index or a rule's match");
		return -1;
	}
	return 0;
}

static int policy_change(struct rd *rd, uint8_t cmd, bool add)
{
	struct nlmsghdr *nlh = rd_msg(rd, cmd, 0);

	if (rule_args(rd, nlh, add))
		return 1;
	if (rd_talk(rd, nlh, NULL, NULL)) {
		rd_perror();
		return 1;
	}
	return 0;
}

static int policy_add(struct rd *rd)
{
	return policy_change(rd, ROCECT_CMD_POLICY_NEW, true);
}

static int policy_del(struct rd *rd)
{
	return policy_change(rd, ROCECT_CMD_POLICY_DEL, false);
}

static int policy_flush(struct rd *rd)
{
	if (!rd_no_arg(rd)) {
		pr_err("'policy flush' takes no arguments");
		return 1;
	}
	if (rd_talk(rd, rd_msg(rd, ROCECT_CMD_POLICY_FLUSH, 0), NULL, NULL)) {
		rd_perror();
		return 1;
	}
	return 0;
}

/* The table's columns; the JSON objects carry the same keys. */
static const struct rd_field policy_fields[] = {
	RD_FIELD("index", ROCECT_A_POLICY_INDEX, RD_U32, RD_COLUMN),
	RD_FIELD("zone", ROCECT_A_POLICY_ZONE, RD_U16, RD_COLUMN),
	RD_FIELD("from", 0, RD_U8, RD_COLUMN),
	RD_FIELD("to", 0, RD_U8, RD_COLUMN),
	RD_FIELD("service", 0, RD_U8, RD_COLUMN),
	RD_NAMES("action", ROCECT_A_POLICY_ACTION, policy_actions,
		 ROCECT_POLICY_ACTION_MAX + 1, RD_COLUMN),
	RD_FIELD("mark", ROCECT_A_POLICY_MARK, RD_U32, RD_COLUMN),
	RD_FIELD("hits", ROCECT_A_POLICY_HITS, RD_U64, RD_COLUMN),
	RD_FIELDS_END
};

/* "ADDR/LEN", or "any". */
static json_object *prefix_json(const struct nlattr *a4,
				const struct nlattr *a6,
				const struct nlattr *alen)
{
	json_object *addr = rd_addr_json(a4, a6);
	char s[INET6_ADDRSTRLEN + 8];

	if (!addr)
		return json_object_new_string("any");
	snprintf(s, sizeof(s), "%s/%u", json_object_get_string(addr),
		 alen ? mnl_attr_get_u8(alen) : (a4 ? 32 : 128));
	json_object_put(addr);
	return json_object_new_string(s);
}

/* As the rule was given: "tcp:4420", "tcp", "0xSID/0xMASK" or "any". */
static json_object *service_json(const struct nlattr *sid_a,
				 const struct nlattr *mask_a)
{
	uint64_t sid, mask;
	unsigned int i;
	char s[48];

	if (!sid_a || !mask_a)
		return json_object_new_string("any");
	sid = mnl_attr_get_u64(sid_a);
	mask = mnl_attr_get_u64(mask_a);
	snprintf(s, sizeof(s), "0x%llx/0x%llx", (unsigned long long)sid,
		 (unsigned long long)mask);
	for (i = 0; i < ARRAY_SIZE(port_spaces); i++) {
		if ((sid & ~0xffffULL) != RDMA_CM_SID(port_spaces[i].ps, 0))
			continue;
		if (mask == ~0ULL)
			snprintf(s, sizeof(s), "%s:%u", port_spaces[i].name,
				 (unsigned int)(sid & 0xffff));
		else if (mask == ~0xffffULL)
			snprintf(s, sizeof(s), "%s", port_spaces[i].name);
	}
	return json_object_new_string(s);
}

/**
 * policy_rule_json() - a rule, as policy show prints it
 * @nlh: a POLICY_GET reply or a rule's event
 *
 * Return: a new JSON object.
 */
json_object *policy_rule_json(const struct nlmsghdr *nlh)
{
	const struct nlattr *tb[ROCECT_A_POLICY_MAX + 1];
	json_object *o = json_object_new_object();
	const struct rd_field *f;

	rd_attrs(nlh, tb, ROCECT_A_POLICY_MAX);
	for (f = policy_fields; f->key; f++) {
		json_object *v = NULL;

		if (!strcmp(f->key, "from"))
			v = prefix_json(tb[ROCECT_A_POLICY_SADDR4],
					tb[ROCECT_A_POLICY_SADDR6],
					tb[ROCECT_A_POLICY_SPREFIX]);
		else if (!strcmp(f->key, "to"))
			v = prefix_json(tb[ROCECT_A_POLICY_DADDR4],
					tb[ROCECT_A_POLICY_DADDR6],
					tb[ROCECT_A_POLICY_DPREFIX]);
		else if (!strcmp(f->key, "service"))
			v = service_json(tb[ROCECT_A_POLICY_SERVICE_ID],
					 tb[ROCECT_A_POLICY_SERVICE_MASK]);
		else if (!strcmp(f->key, "zone") && !tb[f->attr])
			v = json_object_new_string("any");
		if (v)
			json_object_object_add(o, f->key, v);
		else
			rd_fields_json(o, tb, (const struct rd_field[]){ *f,
				       RD_FIELDS_END });
	}
	return o;
}

static struct nlmsghdr *policy_request(struct rd *rd, void *arg)
{
	return rd_msg(rd, ROCECT_CMD_POLICY_GET, NLM_F_DUMP);
}

static int policy_show(struct rd *rd)
{
	if (!rd_no_arg(rd)) {
		pr_err("'policy show' takes no arguments");
		return 1;
	}
	return rd_show_rows(rd, policy_request, NULL, policy_rule_json,
			    policy_fields);
}

/* A refused REQ's event: its addresses, service, the action and rule. */
static const struct rd_field refused_fields[] = {
	RD_FIELD("zone", ROCECT_A_POLICY_ZONE, RD_U16),
	RD_ADDRS("from", ROCECT_A_POLICY_SADDR4, ROCECT_A_POLICY_SADDR6),
	RD_ADDRS("to", ROCECT_A_POLICY_DADDR4, ROCECT_A_POLICY_DADDR6),
	RD_FIELD("service", ROCECT_A_POLICY_SERVICE_ID, RD_SERVICE),
	RD_NAMES("action", ROCECT_A_POLICY_ACTION, policy_actions,
		 ROCECT_POLICY_ACTION_MAX + 1),
	RD_FIELD("rule", ROCECT_A_POLICY_INDEX, RD_U32),
	RD_FIELDS_END
};

/**
 * policy_refused_json() - a REQ the policy refused, from its event
 * @nlh: the POLICY_REFUSED_NTF
 *
 * Return: a new JSON object; "rule" is "default" where policy-default
 * decided.
 */
json_object *policy_refused_json(const struct nlmsghdr *nlh)
{
	const struct nlattr *tb[ROCECT_A_POLICY_MAX + 1];
	json_object *o = json_object_new_object();

	rd_attrs(nlh, tb, ROCECT_A_POLICY_MAX);
	rd_fields_json(o, tb, refused_fields);
	if (!tb[ROCECT_A_POLICY_INDEX])
		json_object_object_add(o, "rule",
				       json_object_new_string("default"));
	return o;
}

/**
 * policy_rule_line() - a rule as the "policy add" line that makes it
 * @row: the rule, as policy show's JSON has it
 * @buf: where to write the line, without a newline
 * @len: its size
 *
 * Return: 0, or -1 if it does not fit.
 */
int policy_rule_line(json_object *row, char *buf, size_t len)
{
	static const char *const keys[] = { "zone", "from", "to", "service" };
	size_t used = snprintf(buf, len, "policy add");
	json_object *v;
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(keys) && used < len; i++) {
		if (!json_object_object_get_ex(row, keys[i], &v) ||
		    !strcmp(json_object_get_string(v), "any"))
			continue;
		used += snprintf(buf + used, len - used, " %s %s", keys[i],
				 json_object_get_string(v));
	}
	if (used < len && json_object_object_get_ex(row, "action", &v))
		used += snprintf(buf + used, len - used, " %s",
				 json_object_get_string(v));
	if (used < len && json_object_object_get_ex(row, "mark", &v))
		used += snprintf(buf + used, len - used, " mark %s",
				 json_object_get_string(v));
	return used < len ? 0 : -1;
}

/**
 * policy_dump() - every rule, as JSON objects, for "rocect save"
 * @rd: the invocation
 * @rows: filled with a new array of them
 *
 * Return: 0, or -1 with the error printed.
 */
int policy_dump(struct rd *rd, json_object **rows)
{
	return rd_collect_rows(rd, policy_request, NULL, policy_rule_json, rows);
}

/**
 * cmd_policy() - the "policy" object
 * @rd: the invocation, positioned after "policy"
 *
 * Return: the exit status.
 */
int cmd_policy(struct rd *rd)
{
	static const struct rd_cmd cmds[] = {
		{ "show", policy_show },
		{ "list", policy_show },
		{ "add", policy_add },
		{ "del", policy_del },
		{ "delete", policy_del },
		{ "flush", policy_flush },
		{ "help", policy_help },
		{ NULL, NULL },
	};

	return rd_exec_cmd(rd, "policy", cmds);
}

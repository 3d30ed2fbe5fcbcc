// SPDX-License-Identifier: GPL-2.0
/*
 * rocect qp: show, get, query, add, del and flush QP entries.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <net/if.h>
#include <stdio.h>
#include <string.h>

#include "rocect.h"

static const char *const origins[] = {
	[ROCECT_ORIGIN_LEARNED] = "learned",
	[ROCECT_ORIGIN_MANAGED] = "managed",
	[ROCECT_ORIGIN_INFERRED] = "inferred",
	[ROCECT_ORIGIN_RECOVERED] = "recovered",
};

const char *const qp_states[] = {
	[ROCECT_STATE_REQ] = "req",
	[ROCECT_STATE_REP] = "rep",
	[ROCECT_STATE_ESTABLISHED] = "established",
	[ROCECT_STATE_DISCONNECTING] = "disconnecting",
	[ROCECT_STATE_TIMEWAIT] = "timewait",
	[ROCECT_STATE_REJECTED] = "rejected",
	NULL
};

static int qp_help(struct rd *rd)
{
	fprintf(stderr,
		"Usage: rocect [-j [-p]] qp show [ zone Z ] [ src ADDR ] [ dst ADDR ]\n"
		"                          [ dqpn QPN ] [ sqpn QPN ] [ origin learned|managed|inferred|recovered ]\n"
		"                          [ state req|rep|established|disconnecting|timewait|rejected ]\n"
		"                          [ seen-within MS ]\n"
		"       rocect [-j [-p]] qp get src ADDR dst ADDR dqpn QPN [ zone Z ]\n"
		"       rocect [-j [-p]] qp query DST_ADDR DQPN [ src ADDR ] [ zone Z ]\n"
		"       rocect qp add src ADDR dst ADDR dqpn QPN sqpn QPN [ zone Z ] [ dev IFNAME ]\n"
		"       rocect qp replace src ADDR dst ADDR dqpn QPN sqpn QPN [ zone Z ] [ dev IFNAME ]\n"
		"       rocect qp del src ADDR dst ADDR dqpn QPN [ zone Z ]\n"
		"       rocect qp flush [ origin learned|managed|inferred|recovered ]\n"
		"       rocect qp cnp src ADDR dst ADDR dqpn QPN [ zone Z ]\n"
		"An entry says: packets from src to QP dqpn at dst come from QP sqpn\n"
		"(and come in on dev, if given; else where the first one does).\n"
		"replace adds, or changes a managed entry in place: its sender's next\n"
		"packets bind it afresh (interface, port, PSNs); its counters stay.\n"
		"QPNs are decimal or 0x hex, at most 0xffffff. seen-within shows only\n"
		"the entries with a packet (or made) in the last MS milliseconds.\n"
		"Examples:\n"
		"  rocect qp add src 10.0.1.1 dst 10.0.2.1 dqpn 0x2a sqpn 0x17\n"
		"  rocect qp query 10.0.2.1 0x2a\n"
		"  rocect -j qp show dst 10.0.2.1\n");
	return 0;
}

static int lookup(const char *word, const char *const *names, int n)
{
	int i;

	for (i = 0; i < n; i++)
		if (names[i] && !strcmp(word, names[i]))
			return i;
	return -1;
}

/*
 * A QP entry's attributes, in the JSON objects' key order; RD_COLUMN marks
 * the text table's columns (and what monitor prints of an event).
 */
const struct rd_field qp_fields[] = {
	RD_FIELD("zone", ROCECT_A_QP_ZONE, RD_U16, RD_COLUMN),
	RD_ADDRS("src", ROCECT_A_QP_SADDR4, ROCECT_A_QP_SADDR6, RD_COLUMN),
	RD_ADDRS("dst", ROCECT_A_QP_DADDR4, ROCECT_A_QP_DADDR6, RD_COLUMN),
	RD_FIELD("dqpn", ROCECT_A_QP_DQPN, RD_U32, RD_COLUMN),
	RD_FIELD("sqpn", ROCECT_A_QP_SQPN, RD_U32, RD_COLUMN),
	RD_NAMES("origin", ROCECT_A_QP_ORIGIN, origins, ARRAY_SIZE(origins),
		 RD_COLUMN),
	RD_NAMES("state", ROCECT_A_QP_STATE, qp_states, ROCECT_STATE_MAX + 1,
		 RD_COLUMN),
	RD_FIELD("packets", ROCECT_A_QP_PACKETS, RD_U64, RD_COLUMN),
	RD_FIELD("bytes", ROCECT_A_QP_BYTES, RD_U64, RD_COLUMN),
	RD_FIELD("ce", ROCECT_A_QP_CE64, RD_U64, RD_COLUMN),
	RD_FIELD("cnps", ROCECT_A_QP_CNPS64, RD_U64, RD_COLUMN),
	RD_FIELD("idle-ms", ROCECT_A_QP_IDLE_MSECS, RD_U64, RD_COLUMN),
	RD_FIELD("timeout-s", ROCECT_A_QP_TIMEOUT, RD_U32, RD_COLUMN),
	/* Learned entries: what the CM handshake said. */
	RD_FIELD("active", ROCECT_A_QP_ACTIVE, RD_BOOL),
	RD_FIELD("scomm-id", ROCECT_A_QP_SCOMM_ID, RD_U32),
	RD_FIELD("dcomm-id", ROCECT_A_QP_DCOMM_ID, RD_U32),
	RD_FIELD("service-id", ROCECT_A_QP_SERVICE_ID, RD_U64),
	RD_FIELD("spsn", ROCECT_A_QP_SPSN, RD_U32),
	RD_FIELD("qkey", ROCECT_A_QP_QKEY, RD_U32),
	/* Once bound: where the sender's packets come in, and from. */
	RD_FIELD("iif", ROCECT_A_QP_IIF, RD_U32),
	RD_FIELD("sport", ROCECT_A_QP_SPORT, RD_U16),
	/* Events only: their order. */
	RD_FIELD("seq", ROCECT_A_QP_EVENT_SEQ, RD_U64),
	/* When the kernel read the counters: what rates divide by. */
	RD_FIELD("snapshot-ns", ROCECT_A_QP_SNAPSHOT_NS, RD_U64),
	RD_FIELDS_END
};

/**
 * qp_to_json() - a QP entry message as a JSON object
 * @nlh: a reply, dump part or event carrying the "qp" attribute set
 *
 * Return: a new object; keys as in the text table's columns.
 */
json_object *qp_to_json(const struct nlmsghdr *nlh)
{
	const struct nlattr *tb[ROCECT_A_QP_MAX + 1];
	json_object *o = json_object_new_object();

	rd_attrs(nlh, tb, ROCECT_A_QP_MAX);
	rd_fields_json(o, tb, qp_fields);
	return o;
}

static void put_addr(struct nlmsghdr *nlh, int a4, int a6, uint8_t family,
		     const void *addr)
{
	if (family == 4)
		mnl_attr_put(nlh, a4, 4, addr);
	else
		mnl_attr_put(nlh, a6, 16, addr);
}

/* The words a qp command may take, each the bit 1 << its index. */
enum qp_key {
	K_ZONE, K_SRC, K_DST, K_DQPN, K_SQPN, K_ORIGIN, K_STATE, K_DEV, K_SEEN,
};

static const char *const qp_keys[] = {
	[K_ZONE] = "zone", [K_SRC] = "src", [K_DST] = "dst",
	[K_DQPN] = "dqpn", [K_SQPN] = "sqpn", [K_ORIGIN] = "origin",
	[K_STATE] = "state", [K_DEV] = "dev", [K_SEEN] = "seen-within",
};

#define KEY(k)		(1u << (k))
#define KEYS_ENTRY	(KEY(K_SRC) | KEY(K_DST) | KEY(K_DQPN))

/* One "key value" pair into its attribute; -1 after saying what is wrong. */
static int qp_arg(struct nlmsghdr *nlh, enum qp_key k, const char *val,
		  uint8_t *fam)
{
	uint8_t f, addr[16];
	uint32_t v;

	switch (k) {
	case K_SRC:
	case K_DST:
		if (rd_addr(val, &f, addr) || (*fam && f != *fam)) {
			pr_err(*fam && *fam != f ?
			       "'%s': source and destination families differ" :
			       "invalid address '%s'", val);
			return -1;
		}
		*fam = f;
		if (k == K_SRC)
			put_addr(nlh, ROCECT_A_QP_SADDR4, ROCECT_A_QP_SADDR6, f,
				 addr);
		else
			put_addr(nlh, ROCECT_A_QP_DADDR4, ROCECT_A_QP_DADDR6, f,
				 addr);
		return 0;
	case K_DQPN:
	case K_SQPN:
		if (rd_qpn(val, &v)) {
			pr_err("invalid QPN '%s' (0 to 0xffffff)", val);
			return -1;
		}
		mnl_attr_put_u32(nlh, k == K_DQPN ? ROCECT_A_QP_DQPN :
				 ROCECT_A_QP_SQPN, v);
		return 0;
	case K_ZONE:
	case K_ORIGIN:
	case K_STATE:
		/* As qp show prints them. */
		return rd_field_put(nlh, rd_field_find(qp_fields, qp_keys[k]),
				    val);
	case K_DEV:
		v = if_nametoindex(val);
		if (!v) {
			pr_err("no interface '%s'", val);
			return -1;
		}
		mnl_attr_put_u32(nlh, ROCECT_A_QP_IIF, v);
		return 0;
	case K_SEEN:
		if (rd_u32(val, ROCECT_SEEN_WITHIN_MAX, &v) || !v) {
			pr_err("invalid seen-within '%s' (1 to %u ms)", val,
			       ROCECT_SEEN_WITHIN_MAX);
			return -1;
		}
		mnl_attr_put_u32(nlh, ROCECT_A_QP_SEEN_WITHIN, v);
		return 0;
	}
	return -1;
}

/*
 * Parse "key value" pairs into attributes: @allowed is the set of keys a
 * command takes (KEY() bits), @need those it must have.
 */
static int qp_args(struct rd *rd, struct nlmsghdr *nlh, unsigned int need,
		   unsigned int allowed)
{
	unsigned int have = 0;
	const char *key, *val;
	uint8_t fam = 0;
	int k;

	while ((key = rd_next(rd))) {
		k = lookup(key, qp_keys, ARRAY_SIZE(qp_keys));
		if (k < 0 || !(allowed & KEY(k))) {
			pr_err("unknown or misplaced argument '%s'", key);
			return -1;
		}
		val = rd_next(rd);
		if (!val) {
			pr_err("'%s' needs a value", key);
			return -1;
		}
		if (qp_arg(nlh, k, val, &fam))
			return -1;
		have |= KEY(k);
	}
	for (k = 0; k < (int)ARRAY_SIZE(qp_keys); k++) {
		if (need & ~have & KEY(k)) {
			pr_err("missing '%s'", qp_keys[k]);
			return -1;
		}
	}
	return 0;
}

/* A get, query or dump request and the arguments it is built from. */
struct qp_request {
	uint8_t cmd;
	uint16_t flags;
	unsigned int need, allowed;
	char **argv;
	int argc;
};

static struct nlmsghdr *qp_build(struct rd *rd, void *arg)
{
	const struct qp_request *q = arg;
	struct nlmsghdr *nlh = rd_msg(rd, q->cmd, q->flags);

	rd->argv = q->argv;
	rd->argc = q->argc;
	return qp_args(rd, nlh, q->need, q->allowed) ? NULL : nlh;
}

/* Print the entries a get, query or dump returns, as they arrive. */
static int qp_show(struct rd *rd, uint8_t cmd, uint16_t flags,
		   unsigned int need, unsigned int allowed)
{
	struct qp_request q = {
		.cmd = cmd, .flags = flags, .need = need, .allowed = allowed,
		.argv = rd->argv, .argc = rd->argc,
	};

	return rd_show_rows(rd, qp_build, &q, qp_to_json, qp_fields);
}

static struct nlmsghdr *managed_build(struct rd *rd, void *arg)
{
	struct nlmsghdr *nlh = rd_msg(rd, ROCECT_CMD_QP_GET, NLM_F_DUMP);

	mnl_attr_put_u8(nlh, ROCECT_A_QP_ORIGIN, ROCECT_ORIGIN_MANAGED);
	return nlh;
}

/**
 * qp_dump_managed() - every managed entry of the namespace
 * @rd: the invocation
 * @rows: set to a new JSON array of the entries, as `qp show` gives them
 *
 * Return: 0, or 1 after saying what went wrong.
 */
int qp_dump_managed(struct rd *rd, json_object **rows)
{
	return rd_collect_rows(rd, managed_build, NULL, qp_to_json, rows);
}

static int qp_change_flag(struct rd *rd, uint8_t cmd, uint16_t flag,
			  unsigned int need, unsigned int allowed)
{
	struct nlmsghdr *nlh = rd_msg(rd, cmd, 0);

	if (flag)
		mnl_attr_put(nlh, flag, 0, NULL);

	if (qp_args(rd, nlh, need, allowed))
		return 1;
	if (rd_talk(rd, nlh, NULL, NULL)) {
		rd_perror();
		return 1;
	}
	return 0;
}

static int qp_change(struct rd *rd, uint8_t cmd, unsigned int need,
		     unsigned int allowed)
{
	return qp_change_flag(rd, cmd, 0, need, allowed);
}

/* "query DST DQPN ...": the two positional arguments become dst, dqpn. */
static int qp_query(struct rd *rd)
{
	char *argv[16];
	int i;

	if (rd->argc < 2 || rd->argc > 6) {
		pr_err("usage: rocect qp query DST_ADDR DQPN [ src ADDR ] [ zone Z ]");
		return 1;
	}
	argv[0] = "dst";
	argv[1] = rd->argv[0];
	argv[2] = "dqpn";
	argv[3] = rd->argv[1];
	for (i = 2; i < rd->argc; i++)
		argv[i + 2] = rd->argv[i];
	rd->argc += 2;
	rd->argv = argv;
	return qp_show(rd, ROCECT_CMD_QP_QUERY, 0, KEY(K_DST) | KEY(K_DQPN),
		       KEYS_ENTRY | KEY(K_ZONE));
}

/* The commands: their message, and the keys each needs and allows. */
static int qp_list(struct rd *rd)
{
	return qp_show(rd, ROCECT_CMD_QP_GET, NLM_F_DUMP, 0,
		       KEYS_ENTRY | KEY(K_ZONE) | KEY(K_SQPN) | KEY(K_ORIGIN) |
		       KEY(K_STATE) | KEY(K_SEEN));
}

static int qp_get(struct rd *rd)
{
	return qp_show(rd, ROCECT_CMD_QP_GET, 0, KEYS_ENTRY,
		       KEYS_ENTRY | KEY(K_ZONE));
}

static int qp_add(struct rd *rd)
{
	return qp_change(rd, ROCECT_CMD_QP_NEW, KEYS_ENTRY | KEY(K_SQPN),
			 KEYS_ENTRY | KEY(K_SQPN) | KEY(K_ZONE) | KEY(K_DEV));
}

/* As ip route replace: add, or change a managed entry in place. */
static int qp_replace(struct rd *rd)
{
	return qp_change_flag(rd, ROCECT_CMD_QP_NEW, ROCECT_A_QP_REPLACE,
			      KEYS_ENTRY | KEY(K_SQPN),
			      KEYS_ENTRY | KEY(K_SQPN) | KEY(K_ZONE) |
			      KEY(K_DEV));
}

static int qp_del(struct rd *rd)
{
	return qp_change(rd, ROCECT_CMD_QP_DEL, KEYS_ENTRY,
			 KEYS_ENTRY | KEY(K_ZONE));
}

static int qp_flush(struct rd *rd)
{
	return qp_change(rd, ROCECT_CMD_QP_FLUSH, 0, KEY(K_ORIGIN));
}

/* Send one CNP to the entry's source QP now. */
static int qp_cnp(struct rd *rd)
{
	return qp_change(rd, ROCECT_CMD_CNP_SEND, KEYS_ENTRY,
			 KEYS_ENTRY | KEY(K_ZONE));
}

/**
 * cmd_qp() - the "qp" object
 * @rd: the invocation, positioned after "qp"
 *
 * Return: the exit status.
 */
int cmd_qp(struct rd *rd)
{
	static const struct rd_cmd cmds[] = {
		{ "show", qp_list },
		{ "list", qp_list },
		{ "get", qp_get },
		{ "add", qp_add },
		{ "replace", qp_replace },
		{ "del", qp_del },
		{ "delete", qp_del },
		{ "flush", qp_flush },
		{ "cnp", qp_cnp },
		{ "query", qp_query },
		{ "help", qp_help },
		{ NULL, NULL },
	};

	return rd_exec_cmd(rd, "qp", cmds);
}

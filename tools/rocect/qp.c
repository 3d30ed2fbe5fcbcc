// SPDX-License-Identifier: GPL-2.0
/*
 * rocect qp: show, get, query, add, del and flush QP entries.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "rocect.h"

static const char *const origins[] = {
	[ROCECT_ORIGIN_LEARNED] = "learned",
	[ROCECT_ORIGIN_MANAGED] = "managed",
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

const char *const qp_columns[] = {
	"zone", "src", "dst", "dqpn", "sqpn", "origin", "state", "packets",
	"bytes", "ce", "cnps", "idle-ms", "timeout", NULL
};

static void qp_help(void)
{
	fprintf(stderr,
		"Usage: rocect [-j [-p]] qp show [ zone Z ] [ src ADDR ] [ dst ADDR ]\n"
		"                          [ dqpn QPN ] [ sqpn QPN ] [ origin learned|managed ]\n"
		"                          [ state req|rep|established|disconnecting|timewait|rejected ]\n"
		"       rocect [-j [-p]] qp get src ADDR dst ADDR dqpn QPN [ zone Z ]\n"
		"       rocect [-j [-p]] qp query DST_ADDR DQPN [ src ADDR ] [ zone Z ]\n"
		"       rocect qp add src ADDR dst ADDR dqpn QPN sqpn QPN [ zone Z ]\n"
		"       rocect qp del src ADDR dst ADDR dqpn QPN [ zone Z ]\n"
		"       rocect qp flush [ origin learned|managed ]\n"
		"       rocect qp cnp src ADDR dst ADDR dqpn QPN [ zone Z ]\n"
		"An entry says: packets from src to QP dqpn at dst come from QP sqpn.\n"
		"QPNs are decimal or 0x hex, at most 0xffffff.\n"
		"Examples:\n"
		"  rocect qp add src 10.0.1.1 dst 10.0.2.1 dqpn 0x2a sqpn 0x17\n"
		"  rocect qp query 10.0.2.1 0x2a\n"
		"  rocect -j qp show dst 10.0.2.1\n");
}

static int lookup(const char *word, const char *const *names, int n)
{
	int i;

	for (i = 0; i < n; i++)
		if (!strcmp(word, names[i]))
			return i;
	return -1;
}

static json_object *name_json(const struct nlattr *a, const char *const *names,
			      unsigned int n)
{
	unsigned int v;

	if (!a)
		return NULL;
	v = mnl_attr_get_u8(a);
	return v < n ? json_object_new_string(names[v]) : json_object_new_int(v);
}

static void add_u64(json_object *o, const char *key, const struct nlattr *a)
{
	if (a)
		json_object_object_add(o, key,
				       json_object_new_int64(mnl_attr_get_u64(a)));
}

static void add_u32(json_object *o, const char *key, const struct nlattr *a,
		    bool u16)
{
	uint32_t v;

	if (!a)
		return;
	v = u16 ? mnl_attr_get_u16(a) : mnl_attr_get_u32(a);
	json_object_object_add(o, key, json_object_new_int64(v));
}

/**
 * qp_to_json() - a QP entry message as a JSON object
 * @nlh: a reply, dump part or event carrying the "qp" attribute set
 *
 * Return: a new object; keys as in the text table's columns.
 */
json_object *qp_to_json(const struct nlmsghdr *nlh)
{
	const struct nlattr *tb[ROCECT_A_QP_MAX + 1];
	json_object *o = json_object_new_object(), *v;

	rd_attrs(nlh, tb, ROCECT_A_QP_MAX);
	add_u32(o, "zone", tb[ROCECT_A_QP_ZONE], true);
	v = rd_addr_json(tb[ROCECT_A_QP_SADDR4], tb[ROCECT_A_QP_SADDR6]);
	if (v)
		json_object_object_add(o, "src", v);
	v = rd_addr_json(tb[ROCECT_A_QP_DADDR4], tb[ROCECT_A_QP_DADDR6]);
	if (v)
		json_object_object_add(o, "dst", v);
	add_u32(o, "dqpn", tb[ROCECT_A_QP_DQPN], false);
	add_u32(o, "sqpn", tb[ROCECT_A_QP_SQPN], false);
	v = name_json(tb[ROCECT_A_QP_ORIGIN], origins, 2);
	if (v)
		json_object_object_add(o, "origin", v);
	v = name_json(tb[ROCECT_A_QP_STATE], qp_states, ROCECT_STATE_MAX + 1);
	if (v)
		json_object_object_add(o, "state", v);
	add_u64(o, "packets", tb[ROCECT_A_QP_PACKETS]);
	add_u64(o, "bytes", tb[ROCECT_A_QP_BYTES]);
	add_u64(o, "idle-ms", tb[ROCECT_A_QP_IDLE_MSECS]);
	add_u32(o, "timeout", tb[ROCECT_A_QP_TIMEOUT], false);
	/* Learned entries: what the CM handshake said. */
	if (tb[ROCECT_A_QP_ACTIVE]) {
		bool active = mnl_attr_get_u8(tb[ROCECT_A_QP_ACTIVE]);

		json_object_object_add(o, "active", json_object_new_boolean(active));
	}
	add_u32(o, "scomm-id", tb[ROCECT_A_QP_SCOMM_ID], false);
	add_u32(o, "dcomm-id", tb[ROCECT_A_QP_DCOMM_ID], false);
	add_u64(o, "service-id", tb[ROCECT_A_QP_SERVICE_ID]);
	add_u32(o, "spsn", tb[ROCECT_A_QP_SPSN], false);
	add_u32(o, "qkey", tb[ROCECT_A_QP_QKEY], false);
	add_u32(o, "ce", tb[ROCECT_A_QP_CE], false);
	add_u32(o, "cnps", tb[ROCECT_A_QP_CNPS], false);
	return o;
}

static int collect_cb(const struct nlmsghdr *nlh, void *data)
{
	json_object_array_add(data, qp_to_json(nlh));
	return MNL_CB_OK;
}

static void put_addr(struct nlmsghdr *nlh, int a4, int a6, uint8_t family,
		     const void *addr)
{
	if (family == 4)
		mnl_attr_put(nlh, a4, 4, addr);
	else
		mnl_attr_put(nlh, a6, 16, addr);
}

/*
 * Parse "key value" pairs into attributes. @need lists the keys that must
 * be present; @allowed those that may be.
 */
static int qp_args(struct rd *rd, struct nlmsghdr *nlh, const char *need,
		   const char *allowed)
{
	uint8_t fam = 0, f, addr[16];
	char have[64] = " ";
	const char *key, *val, *k;
	uint32_t v;
	int i;

	while ((key = rd_next(rd))) {
		char word[20];

		snprintf(word, sizeof(word), " %s ", key);
		if (!strstr(allowed, word)) {
			pr_err("unknown or misplaced argument '%s'", key);
			return -1;
		}
		val = rd_next(rd);
		if (!val) {
			pr_err("'%s' needs a value", key);
			return -1;
		}
		if (!strcmp(key, "src") || !strcmp(key, "dst")) {
			if (rd_addr(val, &f, addr) || (fam && f != fam)) {
				pr_err(fam && fam != f ?
				       "'%s': source and destination families differ" :
				       "invalid address '%s'", val);
				return -1;
			}
			fam = f;
			if (key[0] == 's')
				put_addr(nlh, ROCECT_A_QP_SADDR4, ROCECT_A_QP_SADDR6,
					 f, addr);
			else
				put_addr(nlh, ROCECT_A_QP_DADDR4, ROCECT_A_QP_DADDR6,
					 f, addr);
		} else if (!strcmp(key, "dqpn") || !strcmp(key, "sqpn")) {
			if (rd_qpn(val, &v)) {
				pr_err("invalid QPN '%s' (0 to 0xffffff)", val);
				return -1;
			}
			mnl_attr_put_u32(nlh, key[0] == 'd' ? ROCECT_A_QP_DQPN :
					 ROCECT_A_QP_SQPN, v);
		} else if (!strcmp(key, "zone")) {
			if (rd_u32(val, 0xffff, &v)) {
				pr_err("invalid zone '%s' (0 to 65535)", val);
				return -1;
			}
			mnl_attr_put_u16(nlh, ROCECT_A_QP_ZONE, v);
		} else if (!strcmp(key, "origin")) {
			i = lookup(val, origins, 2);
			if (i < 0) {
				pr_err("invalid origin '%s' (use learned or managed)", val);
				return -1;
			}
			mnl_attr_put_u8(nlh, ROCECT_A_QP_ORIGIN, i);
		} else if (!strcmp(key, "state")) {
			i = lookup(val, qp_states, ROCECT_STATE_MAX + 1);
			if (i < 0) {
				pr_err("invalid state '%s' (use req, rep, established, disconnecting, timewait or rejected)",
				       val);
				return -1;
			}
			mnl_attr_put_u8(nlh, ROCECT_A_QP_STATE, i);
		}
		strncat(have, key, sizeof(have) - strlen(have) - 2);
		strcat(have, " ");
	}
	for (k = need; *k; k += strcspn(k, " ")) {
		char word[20];
		size_t len;

		k += strspn(k, " ");
		len = strcspn(k, " ");
		if (!len)
			break;
		snprintf(word, sizeof(word), " %.*s ", (int)len, k);
		if (!strstr(have, word)) {
			pr_err("missing '%.*s'", (int)len, k);
			return -1;
		}
	}
	return 0;
}

static int qp_show(struct rd *rd, uint8_t cmd, uint16_t flags,
		   const char *need, const char *allowed)
{
	json_object *rows = json_object_new_array();
	struct nlmsghdr *nlh = rd_msg(rd, cmd, flags);
	char **argv = rd->argv;
	int argc = rd->argc, tries = 0, err;

	if (qp_args(rd, nlh, need, allowed)) {
		json_object_put(rows);
		return 1;
	}
	/* A dump the kernel flagged inconsistent is retried from scratch. */
	while ((err = rd_talk(rd, nlh, collect_cb, rows)) && errno == EAGAIN &&
	       (flags & NLM_F_DUMP) && ++tries < 5) {
		json_object_put(rows);
		rows = json_object_new_array();
		rd->argv = argv;
		rd->argc = argc;
		nlh = rd_msg(rd, cmd, flags);
		qp_args(rd, nlh, need, allowed);
	}
	if (err) {
		if (errno == EAGAIN)
			pr_err("the table kept changing during the dump; try again");
		else
			rd_perror();
		json_object_put(rows);
		return 1;
	}
	rd_print_table(rd, rows, qp_columns);
	json_object_put(rows);
	return 0;
}

static int qp_change(struct rd *rd, uint8_t cmd, const char *need,
		     const char *allowed)
{
	struct nlmsghdr *nlh = rd_msg(rd, cmd, 0);

	if (qp_args(rd, nlh, need, allowed))
		return 1;
	if (rd_talk(rd, nlh, NULL, NULL)) {
		rd_perror();
		return 1;
	}
	return 0;
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
	return qp_show(rd, ROCECT_CMD_QP_QUERY, 0, "dst dqpn",
		       " dst dqpn src zone ");
}

/**
 * cmd_qp() - the "qp" object
 * @rd: the invocation, positioned after "qp"
 *
 * Return: the exit status.
 */
int cmd_qp(struct rd *rd)
{
	if (rd_no_arg(rd) || rd_is(rd, "show") || rd_is(rd, "list"))
		return qp_show(rd, ROCECT_CMD_QP_GET, NLM_F_DUMP, "",
			       " zone src dst dqpn sqpn origin state ");
	if (rd_is(rd, "get"))
		return qp_show(rd, ROCECT_CMD_QP_GET, 0, "src dst dqpn",
			       " zone src dst dqpn ");
	if (rd_is(rd, "query"))
		return qp_query(rd);
	if (rd_is(rd, "add"))
		return qp_change(rd, ROCECT_CMD_QP_NEW, "src dst dqpn sqpn",
				 " zone src dst dqpn sqpn ");
	if (rd_is(rd, "del") || rd_is(rd, "delete"))
		return qp_change(rd, ROCECT_CMD_QP_DEL, "src dst dqpn",
				 " zone src dst dqpn ");
	if (rd_is(rd, "flush"))
		return qp_change(rd, ROCECT_CMD_QP_FLUSH, "", " origin ");
	/* Send one CNP to the entry's source QP now. */
	if (rd_is(rd, "cnp"))
		return qp_change(rd, ROCECT_CMD_CNP_SEND, "src dst dqpn",
				 " zone src dst dqpn ");
	if (rd_is(rd, "help")) {
		qp_help();
		return 0;
	}
	pr_err("unknown qp command '%s'; try 'rocect qp help'", rd_arg(rd));
	return 1;
}

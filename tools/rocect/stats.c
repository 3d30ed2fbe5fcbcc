// SPDX-License-Identifier: GPL-2.0
/*
 * rocect stats: the namespace's counters, and resetting them.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "rocect.h"
#include "wire.h"

static int stats_help(struct rd *rd)
{
	fprintf(stderr,
		"Usage: rocect [-j [-p]] stats [ show ]\n"
		"       rocect stats reset\n");
	return 0;
}

/* A nest whose attribute V + 1 counts value V, named by @name(V). */
static json_object *nest_json(const struct nlattr *nest,
			      const char *(*name)(int))
{
	json_object *o = json_object_new_object();
	const struct nlattr *a;

	if (!nest)
		return o;
	mnl_attr_for_each_nested(a, nest) {
		uint64_t v;

		if (mnl_attr_get_type(a) == 0 ||
		    mnl_attr_get_payload_len(a) != sizeof(v))
			continue;
		v = mnl_attr_get_u64(a);
		json_object_object_add(o, name(mnl_attr_get_type(a) - 1),
				       json_object_new_int64(v));
	}
	return o;
}

static const char *class_name(int v)
{
	return roce_class_name(v);
}

static const char *malformed_name(int v)
{
	return roce_malformed_name(v);
}

static const char *cm_name(int v)
{
	return roce_cm_kind_name(v);
}

/* Each counter: its attribute and its name (metrics.c names its metric). */
static const struct {
	int attr;
	const char *key;
} counters[] = {
	{ ROCECT_A_STATS_PACKETS, "packets" },
	{ ROCECT_A_STATS_ICRC_BAD, "icrc-bad" },
	{ ROCECT_A_STATS_TABLE_FULL, "table-full" },
	{ ROCECT_A_STATS_QP_CREATED, "qp-created" },
	{ ROCECT_A_STATS_QP_DESTROYED, "qp-destroyed" },
	{ ROCECT_A_STATS_QP_EXPIRED, "qp-expired" },
	{ ROCECT_A_STATS_UNKNOWN_QP_DROPPED, "unknown-qp-dropped" },
	{ ROCECT_A_STATS_CONN_CREATED, "conn-created" },
	{ ROCECT_A_STATS_CONN_DESTROYED, "conn-destroyed" },
	{ ROCECT_A_STATS_CONN_EXPIRED, "conn-expired" },
	{ ROCECT_A_STATS_CONN_FULL, "conn-full" },
	{ ROCECT_A_STATS_CM_UNMATCHED, "cm-unmatched" },
	{ ROCECT_A_STATS_CM_UNEXPECTED, "cm-unexpected" },
	{ ROCECT_A_STATS_QP_CONFLICT, "qp-conflict" },
	{ ROCECT_A_STATS_EXPECT_CREATED, "expect-created" },
	{ ROCECT_A_STATS_EXPECT_FAILED, "expect-failed" },
	{ ROCECT_A_STATS_CE, "ce" },
	{ ROCECT_A_STATS_CNP_SENT, "cnp-sent" },
	{ ROCECT_A_STATS_CNP_INTERVAL, "cnp-interval" },
	{ ROCECT_A_STATS_CNP_CAPPED, "cnp-capped" },
	{ ROCECT_A_STATS_CNP_NO_ROUTE, "cnp-no-route" },
	{ ROCECT_A_STATS_CNP_UNKNOWN_QP, "cnp-unknown-qp" },
	{ ROCECT_A_STATS_CONN_EVICTED, "conn-evicted" },
	{ ROCECT_A_STATS_CM_SPOOFED, "cm-spoofed" },
	{ ROCECT_A_STATS_GSO, "gso" },
	{ ROCECT_A_STATS_DROP_MALFORMED, "drop-malformed" },
	{ ROCECT_A_STATS_DROP_UNKNOWN_OPCODE, "drop-unknown-opcode" },
	{ ROCECT_A_STATS_DROP_ICRC, "drop-icrc" },
	{ ROCECT_A_STATS_DROP_SPOOFED, "drop-spoofed" },
	{ ROCECT_A_STATS_DROP_GSO, "drop-gso" },
	{ ROCECT_A_STATS_CNP_TX_DROPPED, "cnp-tx-dropped" },
	{ ROCECT_A_STATS_QP_INFERRED, "qp-inferred" },
	{ ROCECT_A_STATS_LEARN_AMBIGUOUS, "learn-ambiguous" },
	{ ROCECT_A_STATS_LEARN_EVICTED, "learn-evicted" },
	{ ROCECT_A_STATS_FLOW_ADOPTED, "flow-adopted" },
	{ ROCECT_A_STATS_QP_RECOVERED, "qp-recovered" },
	{ ROCECT_A_STATS_EXPECT_KEPT, "expect-kept" },
	{ ROCECT_A_STATS_CONN_SOURCE_FULL, "conn-source-full" },
	{ ROCECT_A_STATS_WRONG_IFACE, "wrong-iface" },
	{ ROCECT_A_STATS_WRONG_SPORT, "wrong-sport" },
	{ ROCECT_A_STATS_CNP_FORGED, "cnp-forged" },
	{ ROCECT_A_STATS_QP_SOURCE_FULL, "qp-source-full" },
	{ ROCECT_A_STATS_WRONG_PSN, "wrong-psn" },
	{ ROCECT_A_STATS_WRONG_QKEY, "wrong-qkey" },
	{ ROCECT_A_STATS_OFFLOAD_FLOWS, "offload-flows" },
	{ ROCECT_A_STATS_OFFLOAD_REVOKED, "offload-revoked" },
	{ ROCECT_A_STATS_POLICY_DEFAULT, "policy-default" },
	{ ROCECT_A_STATS_POLICY_DROPPED, "policy-dropped" },
	{ ROCECT_A_STATS_POLICY_REJECTED, "policy-rejected" },
	{ ROCECT_A_STATS_POLICY_REJ_UNSENT, "policy-rej-unsent" },
};

static int stats_cb(const struct nlmsghdr *nlh, void *data)
{
	const struct nlattr *tb[ROCECT_A_STATS_MAX + 1];
	json_object *o = data;
	unsigned int i;

	rd_attrs(nlh, tb, ROCECT_A_STATS_MAX);
	for (i = 0; i < ARRAY_SIZE(counters); i++) {
		const struct nlattr *a = tb[counters[i].attr];

		if (a)
			json_object_object_add(o, counters[i].key,
					       json_object_new_int64(mnl_attr_get_u64(a)));
	}
	if (tb[ROCECT_A_STATS_QP_COUNT]) {
		uint32_t n = mnl_attr_get_u32(tb[ROCECT_A_STATS_QP_COUNT]);

		json_object_object_add(o, "qp-count", json_object_new_int64(n));
	}
	if (tb[ROCECT_A_STATS_CONN_COUNT]) {
		uint32_t n = mnl_attr_get_u32(tb[ROCECT_A_STATS_CONN_COUNT]);

		json_object_object_add(o, "conn-count", json_object_new_int64(n));
	}
	if (tb[ROCECT_A_STATS_CONG_COUNT]) {
		uint32_t n = mnl_attr_get_u32(tb[ROCECT_A_STATS_CONG_COUNT]);

		json_object_object_add(o, "cong-count", json_object_new_int64(n));
	}
	json_object_object_add(o, "class",
			       nest_json(tb[ROCECT_A_STATS_CLASS], class_name));
	json_object_object_add(o, "malformed",
			       nest_json(tb[ROCECT_A_STATS_MALFORMED], malformed_name));
	json_object_object_add(o, "cm",
			       nest_json(tb[ROCECT_A_STATS_CM], cm_name));
	return MNL_CB_OK;
}

/**
 * stats_counter_key() - a counter's name, as stats shows it
 * @attr: its ROCECT_A_STATS_ attribute (a drop event's reason)
 *
 * Return: the name, or NULL for one this rocect does not know.
 */
const char *stats_counter_key(uint32_t attr)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(counters); i++)
		if (counters[i].attr == (int)attr)
			return counters[i].key;
	return NULL;
}

/**
 * stats_collect() - the namespace's counters
 * @rd: the invocation
 * @o: a JSON object that gets the keys of `rocect -j stats`
 *
 * Return: 0, or 1 after saying what went wrong.
 */
int stats_collect(struct rd *rd, json_object *o)
{
	return rd_get(rd, ROCECT_CMD_STATS_GET, stats_cb, o);
}

static int stats_show(struct rd *rd)
{
	if (!rd_no_arg(rd)) {
		pr_err("'stats show' takes no arguments");
		return 1;
	}
	return rd_show(rd, ROCECT_CMD_STATS_GET, stats_cb);
}

static int stats_reset(struct rd *rd)
{
	if (rd_talk(rd, rd_msg(rd, ROCECT_CMD_STATS_RESET, 0), NULL, NULL)) {
		rd_perror();
		return 1;
	}
	return 0;
}

/**
 * cmd_stats() - the "stats" object
 * @rd: the invocation, positioned after "stats"
 *
 * Return: the exit status.
 */
int cmd_stats(struct rd *rd)
{
	static const struct rd_cmd cmds[] = {
		{ "show", stats_show },
		{ "reset", stats_reset },
		{ "help", stats_help },
		{ NULL, NULL },
	};

	return rd_exec_cmd(rd, "stats", cmds);
}

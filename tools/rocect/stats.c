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

/* Each counter: its attribute, its name, what it counts (metrics' HELP). */
static const struct {
	int attr;
	const char *key;
	const char *help;
} counters[] = {
	{ ROCECT_A_STATS_PACKETS, "packets",
	  "Packets the helper inspected." },
	{ ROCECT_A_STATS_ICRC_BAD, "icrc-bad",
	  "CM MADs whose ICRC did not match." },
	{ ROCECT_A_STATS_TABLE_FULL, "table-full",
	  "QP entries refused for max-qps." },
	{ ROCECT_A_STATS_QP_CREATED, "qp-created",
	  "QP entries created." },
	{ ROCECT_A_STATS_QP_DESTROYED, "qp-destroyed",
	  "QP entries deleted, by any means." },
	{ ROCECT_A_STATS_QP_EXPIRED, "qp-expired",
	  "QP entries expired." },
	{ ROCECT_A_STATS_UNKNOWN_QP_DROPPED, "unknown-qp-dropped",
	  "Packets to unknown QPs dropped by unknown-qp drop." },
	{ ROCECT_A_STATS_CONN_CREATED, "conn-created",
	  "Connections tracked." },
	{ ROCECT_A_STATS_CONN_DESTROYED, "conn-destroyed",
	  "Connections forgotten." },
	{ ROCECT_A_STATS_CONN_EXPIRED, "conn-expired",
	  "Connections forgotten by timeout." },
	{ ROCECT_A_STATS_CONN_FULL, "conn-full",
	  "Connections refused for max-conns." },
	{ ROCECT_A_STATS_CM_UNMATCHED, "cm-unmatched",
	  "CM messages of no known connection." },
	{ ROCECT_A_STATS_CM_UNEXPECTED, "cm-unexpected",
	  "CM messages out of order." },
	{ ROCECT_A_STATS_QP_CONFLICT, "qp-conflict",
	  "Learned entries not linked: their key was taken." },
	{ ROCECT_A_STATS_EXPECT_CREATED, "expect-created",
	  "Conntrack expectations set up." },
	{ ROCECT_A_STATS_EXPECT_FAILED, "expect-failed",
	  "Conntrack expectations refused by conntrack." },
	{ ROCECT_A_STATS_CE, "ce",
	  "CE-marked data packets of tracked QPs." },
	{ ROCECT_A_STATS_CNP_SENT, "cnp-sent",
	  "CNPs sent." },
	{ ROCECT_A_STATS_CNP_INTERVAL, "cnp-interval",
	  "CNPs not sent: within cnp-interval-us of the last." },
	{ ROCECT_A_STATS_CNP_CAPPED, "cnp-capped",
	  "CNPs not sent: over cnp-max-rate." },
	{ ROCECT_A_STATS_CNP_NO_ROUTE, "cnp-no-route",
	  "CNPs not sent: no route to the sender." },
	{ ROCECT_A_STATS_CNP_UNKNOWN_QP, "cnp-unknown-qp",
	  "CE-marked packets of unknown QPs: no CNP." },
	{ ROCECT_A_STATS_CONN_EVICTED, "conn-evicted",
	  "Finished or half-open connections evicted for new ones." },
	{ ROCECT_A_STATS_CM_SPOOFED, "cm-spoofed",
	  "CM MADs ignored: they failed rp-check." },
	{ ROCECT_A_STATS_GSO, "gso",
	  "GRO super-packets seen." },
	{ ROCECT_A_STATS_DROP_MALFORMED, "drop-malformed",
	  "Malformed packets dropped." },
	{ ROCECT_A_STATS_DROP_UNKNOWN_OPCODE, "drop-unknown-opcode",
	  "Packets with reserved or vendor opcodes dropped." },
	{ ROCECT_A_STATS_DROP_ICRC, "drop-icrc",
	  "CM MADs with a bad ICRC dropped." },
	{ ROCECT_A_STATS_DROP_SPOOFED, "drop-spoofed",
	  "CM MADs that failed rp-check dropped." },
	{ ROCECT_A_STATS_DROP_GSO, "drop-gso",
	  "GRO super-packets dropped." },
	{ ROCECT_A_STATS_CNP_TX_DROPPED, "cnp-tx-dropped",
	  "CNPs the transmit path dropped." },
	{ ROCECT_A_STATS_QP_INFERRED, "qp-inferred",
	  "QP entries inferred from traffic (learn on)." },
	{ ROCECT_A_STATS_LEARN_AMBIGUOUS, "learn-ambiguous",
	  "Responses whose PSN agreed with requests to several QPs." },
	{ ROCECT_A_STATS_LEARN_EVICTED, "learn-evicted",
	  "Host pairs' learning records taken over." },
	{ ROCECT_A_STATS_FLOW_ADOPTED, "flow-adopted",
	  "Conntracks injected by conntrackd and adopted." },
	{ ROCECT_A_STATS_QP_RECOVERED, "qp-recovered",
	  "QP entries recovered from traffic after a failover." },
	{ ROCECT_A_STATS_EXPECT_KEPT, "expect-kept",
	  "Conntrack expectations not set up: one in place serves." },
	{ ROCECT_A_STATS_CONN_SOURCE_FULL, "conn-source-full",
	  "Connections refused: their source held its source-share." },
	{ ROCECT_A_STATS_WRONG_IFACE, "wrong-iface",
	  "Data of a known QP from another interface than its sender's." },
	{ ROCECT_A_STATS_WRONG_SPORT, "wrong-sport",
	  "Data of a known QP from another UDP source port or kind." },
	{ ROCECT_A_STATS_CNP_FORGED, "cnp-forged",
	  "CNPs not from the interface of the peer they name." },
	{ ROCECT_A_STATS_QP_SOURCE_FULL, "qp-source-full",
	  "QP entries not inferred: their source held its source-share." },
	{ ROCECT_A_STATS_WRONG_PSN, "wrong-psn",
	  "RC and UC data with a PSN outside its sender's window." },
	{ ROCECT_A_STATS_WRONG_QKEY, "wrong-qkey",
	  "UD data with another Q_Key than its QP takes." },
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
 * stats_counter_help() - what a counter of "rocect -j stats" counts
 * @key: its name
 *
 * Return: one sentence, or NULL for a name it does not know.
 */
const char *stats_counter_help(const char *key)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(counters); i++)
		if (!strcmp(counters[i].key, key))
			return counters[i].help;
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

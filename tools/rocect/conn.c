// SPDX-License-Identifier: GPL-2.0
/*
 * rocect conn: the CM connections the helper tracks, with both sides'
 * communication IDs, QPs and starting PSNs, the service and the state.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "rocect.h"

static int conn_help(struct rd *rd)
{
	fprintf(stderr,
		"Usage: rocect [-j [-p]] conn [ show ]\n"
		"Connections are learned from the RDMA CM handshake; each has the QP\n"
		"entries of both directions (rocect qp show origin learned).\n");
	return 0;
}

/*
 * A connection's attributes, in the JSON objects' key order; RD_COLUMN
 * marks the text table's columns.
 */
static const struct rd_field conn_fields[] = {
	RD_FIELD("zone", ROCECT_A_CONN_ZONE, RD_U16, RD_COLUMN),
	RD_ADDRS("active", ROCECT_A_CONN_AADDR4, ROCECT_A_CONN_AADDR6,
		 RD_COLUMN),
	RD_ADDRS("passive", ROCECT_A_CONN_PADDR4, ROCECT_A_CONN_PADDR6,
		 RD_COLUMN),
	RD_FIELD("service", ROCECT_A_CONN_SERVICE_ID, RD_SERVICE, RD_COLUMN),
	RD_FIELD("service-id", ROCECT_A_CONN_SERVICE_ID, RD_U64),
	RD_FIELD("acomm-id", ROCECT_A_CONN_ACOMM_ID, RD_U32, RD_COLUMN),
	RD_FIELD("pcomm-id", ROCECT_A_CONN_PCOMM_ID, RD_U32, RD_COLUMN),
	RD_FIELD("aqpn", ROCECT_A_CONN_AQPN, RD_U32, RD_COLUMN),
	RD_FIELD("pqpn", ROCECT_A_CONN_PQPN, RD_U32, RD_COLUMN),
	RD_FIELD("apsn", ROCECT_A_CONN_APSN, RD_U32),
	RD_FIELD("ppsn", ROCECT_A_CONN_PPSN, RD_U32),
	RD_NAMES("state", ROCECT_A_CONN_STATE, qp_states,
		 ROCECT_STATE_MAX + 1, RD_COLUMN),
	RD_FIELD("sidr", ROCECT_A_CONN_SIDR, RD_BOOL),
	RD_FIELD("qkey", ROCECT_A_CONN_QKEY, RD_U32),
	RD_FIELD("reject-reason", ROCECT_A_CONN_REJECT_REASON, RD_U16,
		 RD_COLUMN),
	RD_FIELD("cma-sport", ROCECT_A_CONN_CMA_SPORT, RD_U16),
	RD_FIELD("cma-match", ROCECT_A_CONN_CMA_MATCH, RD_BOOL),
	RD_FIELD("age-ms", ROCECT_A_CONN_AGE_MSECS, RD_U64, RD_COLUMN),
	RD_FIELD("idle-ms", ROCECT_A_CONN_IDLE_MSECS, RD_U64),
	RD_FIELD("timeout-s", ROCECT_A_CONN_TIMEOUT, RD_U32, RD_COLUMN),
	RD_FIELDS_END
};

static struct nlmsghdr *conn_request(struct rd *rd, void *arg)
{
	return rd_msg(rd, ROCECT_CMD_CONN_GET, NLM_F_DUMP);
}

static json_object *conn_to_json(const struct nlmsghdr *nlh)
{
	const struct nlattr *tb[ROCECT_A_CONN_MAX + 1];
	json_object *o = json_object_new_object();

	rd_attrs(nlh, tb, ROCECT_A_CONN_MAX);
	rd_fields_json(o, tb, conn_fields);
	return o;
}

static int conn_show(struct rd *rd)
{
	if (!rd_no_arg(rd)) {
		pr_err("'conn show' takes no arguments");
		return 1;
	}
	return rd_show_rows(rd, conn_request, NULL, conn_to_json,
			    conn_fields);
}

/**
 * cmd_conn() - the "conn" object
 * @rd: the invocation, positioned after "conn"
 *
 * Return: the exit status.
 */
int cmd_conn(struct rd *rd)
{
	static const struct rd_cmd cmds[] = {
		{ "show", conn_show },
		{ "list", conn_show },
		{ "help", conn_help },
		{ NULL, NULL },
	};

	return rd_exec_cmd(rd, "conn", cmds);
}

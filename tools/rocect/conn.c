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

static const char *const conn_columns[] = {
	"zone", "active", "passive", "service", "acomm-id", "pcomm-id", "aqpn",
	"pqpn", "state", "reject-reason", "age-ms", "timeout", NULL
};

static void conn_help(void)
{
	fprintf(stderr,
		"Usage: rocect [-j [-p]] conn [ show ]\n"
		"Connections are learned from the RDMA CM handshake; each has the QP\n"
		"entries of both directions (rocect qp show origin learned).\n");
}

static void put(json_object *o, const char *key, const struct nlattr *a,
		int bits)
{
	uint64_t v;

	if (!a)
		return;
	v = bits == 8 ? mnl_attr_get_u8(a) : bits == 16 ? mnl_attr_get_u16(a) :
	    bits == 32 ? mnl_attr_get_u32(a) : mnl_attr_get_u64(a);
	json_object_object_add(o, key, json_object_new_int64(v));
}

static void put_bool(json_object *o, const char *key, const struct nlattr *a)
{
	if (a)
		json_object_object_add(o, key,
				       json_object_new_boolean(mnl_attr_get_u8(a)));
}

/* "tcp:7471" for RDMA CM service IDs, the hex ID otherwise. */
static void put_service(json_object *o, uint64_t sid)
{
	static const struct {
		uint8_t ps;
		const char *name;
	} spaces[] = { { 0x02, "ipoib" }, { 0x06, "tcp" }, { 0x11, "udp" },
		       { 0x3f, "ib" } };
	char s[32];
	unsigned int i;

	snprintf(s, sizeof(s), "0x%llx", (unsigned long long)sid);
	if (sid >> 24 == 0x01)
		for (i = 0; i < ARRAY_SIZE(spaces); i++)
			if (((sid >> 16) & 0xff) == spaces[i].ps)
				snprintf(s, sizeof(s), "%s:%u", spaces[i].name,
					 (unsigned int)(sid & 0xffff));
	json_object_object_add(o, "service", json_object_new_string(s));
}

static int conn_cb(const struct nlmsghdr *nlh, void *data)
{
	const struct nlattr *tb[ROCECT_A_CONN_MAX + 1];
	json_object *o = json_object_new_object(), *v;
	unsigned int state;

	rd_attrs(nlh, tb, ROCECT_A_CONN_MAX);
	put(o, "zone", tb[ROCECT_A_CONN_ZONE], 16);
	v = rd_addr_json(tb[ROCECT_A_CONN_AADDR4], tb[ROCECT_A_CONN_AADDR6]);
	if (v)
		json_object_object_add(o, "active", v);
	v = rd_addr_json(tb[ROCECT_A_CONN_PADDR4], tb[ROCECT_A_CONN_PADDR6]);
	if (v)
		json_object_object_add(o, "passive", v);
	if (tb[ROCECT_A_CONN_SERVICE_ID]) {
		uint64_t sid = mnl_attr_get_u64(tb[ROCECT_A_CONN_SERVICE_ID]);

		put_service(o, sid);
		put(o, "service-id", tb[ROCECT_A_CONN_SERVICE_ID], 64);
	}
	put(o, "acomm-id", tb[ROCECT_A_CONN_ACOMM_ID], 32);
	put(o, "pcomm-id", tb[ROCECT_A_CONN_PCOMM_ID], 32);
	put(o, "aqpn", tb[ROCECT_A_CONN_AQPN], 32);
	put(o, "pqpn", tb[ROCECT_A_CONN_PQPN], 32);
	put(o, "apsn", tb[ROCECT_A_CONN_APSN], 32);
	put(o, "ppsn", tb[ROCECT_A_CONN_PPSN], 32);
	if (tb[ROCECT_A_CONN_STATE]) {
		state = mnl_attr_get_u8(tb[ROCECT_A_CONN_STATE]);
		json_object_object_add(o, "state", state <= ROCECT_STATE_MAX ?
				       json_object_new_string(qp_states[state]) :
				       json_object_new_int(state));
	}
	put_bool(o, "sidr", tb[ROCECT_A_CONN_SIDR]);
	put(o, "qkey", tb[ROCECT_A_CONN_QKEY], 32);
	put(o, "reject-reason", tb[ROCECT_A_CONN_REJECT_REASON], 16);
	put(o, "cma-sport", tb[ROCECT_A_CONN_CMA_SPORT], 16);
	put_bool(o, "cma-match", tb[ROCECT_A_CONN_CMA_MATCH]);
	put(o, "age-ms", tb[ROCECT_A_CONN_AGE_MSECS], 64);
	put(o, "idle-ms", tb[ROCECT_A_CONN_IDLE_MSECS], 64);
	put(o, "timeout", tb[ROCECT_A_CONN_TIMEOUT], 32);
	json_object_array_add(data, o);
	return MNL_CB_OK;
}

/**
 * cmd_conn() - the "conn" object
 * @rd: the invocation, positioned after "conn"
 *
 * Return: the exit status.
 */
int cmd_conn(struct rd *rd)
{
	json_object *rows;
	int ret = 0;

	if (rd_is(rd, "help")) {
		conn_help();
		return 0;
	}
	if (!rd_no_arg(rd) && !rd_is(rd, "show") && !rd_is(rd, "list")) {
		pr_err("unknown conn command '%s'; try 'rocect conn help'",
		       rd_arg(rd));
		return 1;
	}
	if (!rd_no_arg(rd)) {
		pr_err("'conn show' takes no arguments");
		return 1;
	}
	rows = json_object_new_array();
	if (rd_talk(rd, rd_msg(rd, ROCECT_CMD_CONN_GET, NLM_F_DUMP), conn_cb,
		    rows)) {
		rd_perror();
		ret = 1;
	} else {
		rd_print_table(rd, rows, conn_columns);
	}
	json_object_put(rows);
	return ret;
}

// SPDX-License-Identifier: GPL-2.0
/*
 * rocect monitor: print events as they happen: QP entries created,
 * changed, deleted; service policy rules added, deleted, flushed; REQs the
 * policy refused. Until interrupted or until COUNT events were printed;
 * with "timestamp", each with the local time it was received.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/time.h>
#include <time.h>

#include "rocect.h"

/* "2026-11-23T22:58:01.123456+0000", the time an event was received. */
static void timestamp(char *buf, size_t len)
{
	struct timeval tv;
	struct tm tm;
	char zone[8];

	gettimeofday(&tv, NULL);
	localtime_r(&tv.tv_sec, &tm);
	strftime(zone, sizeof(zone), "%z", &tm);
	snprintf(buf, len, "%04d-%02d-%02dT%02d:%02d:%02d.%06ld%s",
		 tm.tm_year + 1900, tm.tm_mon + 1, tm.tm_mday, tm.tm_hour,
		 tm.tm_min, tm.tm_sec, (long)tv.tv_usec, zone);
}

struct monitor {
	struct rd *rd;
	bool stamp;
};

static int event_cb(const struct nlmsghdr *nlh, void *data)
{
	const struct genlmsghdr *g = mnl_nlmsg_get_payload(nlh);
	struct monitor *m = data;
	struct rd *rd = m->rd;
	char when[96] = "";
	bool qp_event = false;
	json_object *o, *seq;
	const char *ev;

	switch (g->cmd) {
	case ROCECT_CMD_QP_CREATE_NTF:
		ev = "create";
		qp_event = true;
		break;
	case ROCECT_CMD_QP_CHANGE_NTF:
		ev = "change";
		qp_event = true;
		break;
	case ROCECT_CMD_QP_DELETE_NTF:
		ev = "delete";
		qp_event = true;
		break;
	case ROCECT_CMD_POLICY_ADD_NTF:
		ev = "policy-add";
		break;
	case ROCECT_CMD_POLICY_DEL_NTF:
		ev = "policy-del";
		break;
	case ROCECT_CMD_POLICY_FLUSH_NTF:
		ev = "policy-flush";
		break;
	case ROCECT_CMD_POLICY_REFUSED_NTF:
		ev = "refused";
		break;
	default:
		return MNL_CB_OK;	/* a newer kernel's event */
	}
	if (qp_event)
		o = qp_to_json(nlh);
	else if (g->cmd == ROCECT_CMD_POLICY_REFUSED_NTF)
		o = policy_refused_json(nlh);
	else if (g->cmd == ROCECT_CMD_POLICY_FLUSH_NTF)
		o = json_object_new_object();
	else
		o = policy_rule_json(nlh);
	if (m->stamp)
		timestamp(when, sizeof(when));
	if (rd->json) {
		json_object_object_add(o, "event", json_object_new_string(ev));
		if (m->stamp)
			json_object_object_add(o, "time",
					       json_object_new_string(when));
		rd_print_object(rd, o);
	} else {
		if (m->stamp)
			printf("%s ", when);
		printf("%-6s", ev);
		for (const struct rd_field *f = qp_fields; qp_event && f->key; f++) {
			json_object *v;

			if (f->column &&
			    json_object_object_get_ex(o, f->key, &v))
				printf(" %s %s", f->key,
				       json_object_get_string(v));
		}
		if (!qp_event) {
			json_object_object_foreach(o, key, val)
				printf(" %s %s", key, json_object_get_string(val));
		}
		if (json_object_object_get_ex(o, "seq", &seq))
			printf(" seq %s", json_object_get_string(seq));
		putchar('\n');
	}
	fflush(stdout);
	json_object_put(o);
	return MNL_CB_OK;
}

/**
 * cmd_monitor() - the "monitor" object:
 *	rocect monitor [ timestamp ] [ count N ]
 * @rd: the invocation, positioned after "monitor"
 *
 * Return: the exit status.
 */
int cmd_monitor(struct rd *rd)
{
	struct monitor m = { .rd = rd };
	uint32_t count = 0, seen = 0;
	int grp, n;

	if (rd_is(rd, "timestamp"))
		m.stamp = true;
	if (rd_is(rd, "count")) {
		if (rd_u32(rd_next(rd), UINT32_MAX, &count) || !count) {
			pr_err("monitor: count needs a positive number");
			return 1;
		}
	}
	if (!rd_no_arg(rd)) {
		fprintf(stderr, "Usage: rocect [-j] monitor [ timestamp ] [ count N ]\n");
		return rd_is(rd, "help") ? 0 : 1;
	}
	if (rd_need_family(rd)) {
		rd_perror();
		return 1;
	}
	grp = rd->mcgrp_events;
	if (mnl_socket_setsockopt(rd->nl, NETLINK_ADD_MEMBERSHIP, &grp,
				  sizeof(grp))) {
		pr_err("cannot join the events group: %s%s", strerror(errno),
		       errno == EPERM ? " (needs CAP_NET_ADMIN)" : "");
		return 1;
	}
	/* Tell a waiting script that events from now on will be seen. */
	fprintf(stderr, "rocect: monitoring QP events\n");
	while (!count || seen < count) {
		n = mnl_socket_recvfrom(rd->nl, rd->buf, MNL_SOCKET_BUFFER_SIZE);
		if (n < 0) {
			if (errno == ENOBUFS) {
				pr_err("events were lost (receive buffer overrun)");
				continue;
			}
			pr_err("%s", strerror(errno));
			return 1;
		}
		for (struct nlmsghdr *nlh = (struct nlmsghdr *)rd->buf;
		     mnl_nlmsg_ok(nlh, n) && (!count || seen < count);
		     nlh = mnl_nlmsg_next(nlh, &n), seen++)
			event_cb(nlh, &m);
	}
	return 0;
}

// SPDX-License-Identifier: GPL-2.0
/*
 * rocect monitor: print events as they happen: QP entries created,
 * changed, deleted; service policy rules added, deleted, flushed; REQs the
 * policy refused; with "drops", the packets the helper dropped (a group of
 * their own, rate limited by the module). Until interrupted or until
 * COUNT events were printed; with "timestamp", each with the local time it
 * was received.
 */
#include <errno.h>
#include <net/if.h>
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

/* A drop event's attributes; its reason is a counter's name. */
static const struct rd_field drop_fields[] = {
	RD_FIELD("zone", ROCECT_A_DROP_ZONE, RD_U16),
	RD_ADDRS("src", ROCECT_A_DROP_SADDR4, ROCECT_A_DROP_SADDR6),
	RD_ADDRS("dst", ROCECT_A_DROP_DADDR4, ROCECT_A_DROP_DADDR6),
	RD_FIELD("dqpn", ROCECT_A_DROP_DQPN, RD_U32),
	RD_FIELD("sport", ROCECT_A_DROP_SPORT, RD_U16),
	RD_FIELD("iif", ROCECT_A_DROP_IIF, RD_U32),
	RD_FIELD("suppressed", ROCECT_A_DROP_SUPPRESSED, RD_U64),
	RD_FIELDS_END
};

/* A DROP_NTF as JSON: the reason by its counter's name, the interface's. */
static json_object *drop_json(const struct nlmsghdr *nlh)
{
	const struct nlattr *tb[ROCECT_A_DROP_MAX + 1];
	json_object *o = json_object_new_object();
	char dev[IF_NAMESIZE];
	const char *why = NULL;
	uint32_t reason = 0;

	rd_attrs(nlh, tb, ROCECT_A_DROP_MAX);
	if (tb[ROCECT_A_DROP_REASON]) {
		reason = mnl_attr_get_u32(tb[ROCECT_A_DROP_REASON]);
		why = stats_counter_key(reason);
	}
	json_object_object_add(o, "reason", why ? json_object_new_string(why) :
			       json_object_new_int64(reason));
	rd_fields_json(o, tb, drop_fields);
	if (tb[ROCECT_A_DROP_IIF] &&
	    if_indextoname(mnl_attr_get_u32(tb[ROCECT_A_DROP_IIF]), dev))
		json_object_object_add(o, "dev", json_object_new_string(dev));
	return o;
}

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
	case ROCECT_CMD_DROP_NTF:
		ev = "drop";
		break;
	default:
		return MNL_CB_OK;	/* a newer kernel's event */
	}
	if (qp_event)
		o = qp_to_json(nlh);
	else if (g->cmd == ROCECT_CMD_POLICY_REFUSED_NTF)
		o = policy_refused_json(nlh);
	else if (g->cmd == ROCECT_CMD_DROP_NTF)
		o = drop_json(nlh);
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

/* Join a multicast group; 0, or -1 after saying why not. */
static int join_group(struct rd *rd, uint32_t grp, const char *name)
{
	if (!grp) {
		pr_err("monitor: the module has no %s group (an older one?)",
		       name);
		return -1;
	}
	if (mnl_socket_setsockopt(rd->nl, NETLINK_ADD_MEMBERSHIP, &grp,
				  sizeof(grp))) {
		pr_err("cannot join the %s group: %s%s", name, strerror(errno),
		       errno == EPERM ? " (needs CAP_NET_ADMIN)" : "");
		return -1;
	}
	return 0;
}

static int monitor_usage(struct rd *rd)
{
	fprintf(stderr,
		"Usage: rocect [-j] monitor [ events ] [ drops ] [ timestamp ] [ count N ]\n"
		"events (the default): QP entries created, changed and deleted, the\n"
		"service policy's changes and refused REQs; drops: the packets dropped,\n"
		"at most drop-events-max-rate a second, each with the count of those\n"
		"suppressed before it.\n");
	return rd_is(rd, "help") ? 0 : 1;
}

/**
 * cmd_monitor() - the "monitor" object:
 *	rocect monitor [ events ] [ drops ] [ timestamp ] [ count N ]
 * @rd: the invocation, positioned after "monitor"
 *
 * Return: the exit status.
 */
int cmd_monitor(struct rd *rd)
{
	struct monitor m = { .rd = rd };
	uint32_t count = 0, seen = 0;
	bool events = false, drops = false;
	const char *w;
	int n;

	while ((w = rd_arg(rd))) {
		if (!strcmp(w, "events") && !events) {
			events = true;
		} else if (!strcmp(w, "drops") && !drops) {
			drops = true;
		} else if (!strcmp(w, "timestamp") && !m.stamp) {
			m.stamp = true;
		} else if (!strcmp(w, "count") && !count) {
			rd_next(rd);
			if (rd_u32(rd_arg(rd), UINT32_MAX, &count) || !count) {
				pr_err("monitor: count needs a positive number");
				return 1;
			}
		} else {
			return monitor_usage(rd);
		}
		rd_next(rd);
	}
	if (rd_need_family(rd)) {
		rd_perror();
		return 1;
	}
	if (!drops)
		events = true;
	if ((events && join_group(rd, rd->mcgrp_events, "events")) ||
	    (drops && join_group(rd, rd->mcgrp_drops, "drops")))
		return 1;
	/* Tell a waiting script that events from now on will be seen. */
	fprintf(stderr, "rocect: monitoring %s\n",
		events && drops ? "QP events and drops" :
		drops ? "drops" : "QP events");
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

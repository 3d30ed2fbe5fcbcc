// SPDX-License-Identifier: GPL-2.0
/*
 * Generic netlink plumbing: open a socket, resolve the "rocect" family and
 * its multicast group, send a request and run replies through a callback,
 * reporting the kernel's extended ACK message on failure.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <linux/netlink.h>

#include "rocect.h"

/* The kernel's extended ACK message for the last failed request. */
static char extack_msg[256];

/* rd_talk() failed because rd_nl_open() found no family. */
static bool no_family;

/*
 * The last request sent (a copy: replies land where it was built) and the
 * attribute of it the kernel's extended ACK pointed at, with the range
 * its policy allows.
 */
static unsigned char last_req[1024];
static size_t last_req_len;
static struct rd_bad_attr bad_attr;

static int family_attr_cb(const struct nlattr *attr, void *data)
{
	const struct nlattr **tb = data;
	int type = mnl_attr_get_type(attr);

	if (mnl_attr_type_valid(attr, CTRL_ATTR_MAX) > 0)
		tb[type] = attr;
	return MNL_CB_OK;
}

static int family_cb(const struct nlmsghdr *nlh, void *data)
{
	const struct nlattr *tb[CTRL_ATTR_MAX + 1] = { NULL };
	const struct nlattr *grp, *g[CTRL_ATTR_MCAST_GRP_MAX + 1];
	struct rd *rd = data;

	mnl_attr_parse(nlh, sizeof(struct genlmsghdr), family_attr_cb, tb);
	if (!tb[CTRL_ATTR_FAMILY_ID])
		return MNL_CB_ERROR;
	rd->family = mnl_attr_get_u16(tb[CTRL_ATTR_FAMILY_ID]);
	if (!tb[CTRL_ATTR_MCAST_GROUPS])
		return MNL_CB_OK;
	mnl_attr_for_each_nested(grp, tb[CTRL_ATTR_MCAST_GROUPS]) {
		const char *name;
		uint32_t id;

		memset(g, 0, sizeof(g));
		mnl_attr_parse_nested(grp, family_attr_cb, g);
		if (!g[CTRL_ATTR_MCAST_GRP_NAME] || !g[CTRL_ATTR_MCAST_GRP_ID])
			continue;
		name = mnl_attr_get_str(g[CTRL_ATTR_MCAST_GRP_NAME]);
		id = mnl_attr_get_u32(g[CTRL_ATTR_MCAST_GRP_ID]);
		if (!strcmp(name, ROCECT_MCGRP_EVENTS))
			rd->mcgrp_events = id;
		else if (!strcmp(name, ROCECT_MCGRP_DROPS))
			rd->mcgrp_drops = id;
	}
	return MNL_CB_OK;
}

/**
 * rd_nl_open() - open the socket and find the rocect family
 * @rd: the invocation
 *
 * Asking for the family loads the module if it is installed (its
 * MODULE_ALIAS_GENL_FAMILY). If it is still missing, @rd->family stays 0
 * and the first rd_talk() fails: a command's own argument errors come
 * first.
 *
 * Return: 0, or -1 after printing why the socket could not be opened.
 */
int rd_nl_open(struct rd *rd)
{
	struct nlmsghdr *nlh;
	struct genlmsghdr *g;
	int one = 1;

	/* Zeroed: attribute padding goes out as it is. */
	rd->buf = calloc(1, MNL_SOCKET_BUFFER_SIZE);
	rd->nl = mnl_socket_open(NETLINK_GENERIC);
	if (!rd->buf || !rd->nl || mnl_socket_bind(rd->nl, 0, MNL_SOCKET_AUTOPID)) {
		pr_err("cannot open a generic netlink socket: %s", strerror(errno));
		return -1;
	}
	/* Ask for the kernel's error messages, and not our request back. */
	mnl_socket_setsockopt(rd->nl, NETLINK_EXT_ACK, &one, sizeof(one));
	mnl_socket_setsockopt(rd->nl, NETLINK_CAP_ACK, &one, sizeof(one));
	rd->seq = time(NULL);

	nlh = mnl_nlmsg_put_header(rd->buf);
	nlh->nlmsg_type = GENL_ID_CTRL;
	nlh->nlmsg_flags = NLM_F_REQUEST | NLM_F_ACK;
	nlh->nlmsg_seq = ++rd->seq;
	g = mnl_nlmsg_put_extra_header(nlh, sizeof(*g));
	g->cmd = CTRL_CMD_GETFAMILY;
	g->version = 1;
	mnl_attr_put_strz(nlh, CTRL_ATTR_FAMILY_NAME, ROCECT_FAMILY_NAME);
	if (rd_talk(rd, nlh, family_cb, rd) < 0) {
		if (errno == ENOENT)
			return 0;
		rd_perror();
		return -1;
	}
	return 0;
}

/**
 * rd_nl_close() - close the socket
 * @rd: the invocation
 */
void rd_nl_close(struct rd *rd)
{
	if (rd->nl)
		mnl_socket_close(rd->nl);
	free(rd->buf);
}

/**
 * rd_msg() - start a request of the rocect family
 * @rd: the invocation
 * @cmd: ROCECT_CMD_*
 * @flags: NLM_F_DUMP or 0; NLM_F_REQUEST and NLM_F_ACK are added
 *
 * Return: the message, to which attributes can be added.
 */
struct nlmsghdr *rd_msg(struct rd *rd, uint8_t cmd, uint16_t flags)
{
	struct nlmsghdr *nlh = mnl_nlmsg_put_header(rd->buf);
	struct genlmsghdr *g;

	nlh->nlmsg_type = rd->family;
	nlh->nlmsg_flags = NLM_F_REQUEST | NLM_F_ACK | flags;
	nlh->nlmsg_seq = ++rd->seq;
	g = mnl_nlmsg_put_extra_header(nlh, sizeof(*g));
	g->cmd = cmd;
	g->version = ROCECT_FAMILY_VERSION;
	return nlh;
}

struct talk {
	mnl_cb_t cb;
	void *data;
	bool interrupted;
};

static int data_cb(const struct nlmsghdr *nlh, void *data)
{
	struct talk *t = data;

	if (nlh->nlmsg_flags & NLM_F_DUMP_INTR)
		t->interrupted = true;
	return t->cb ? t->cb(nlh, t->data) : MNL_CB_OK;
}

/* The request's attribute at @off, as NLMSGERR_ATTR_OFFS names it. */
static void bad_attr_at(uint32_t off)
{
	const struct nlattr *a = (const struct nlattr *)(last_req + off);

	if (off < MNL_NLMSG_HDRLEN + sizeof(struct genlmsghdr) ||
	    off + sizeof(*a) > last_req_len)
		return;
	bad_attr.type = mnl_attr_get_type(a);
}

/* The range of the policy the attribute failed (NLMSGERR_ATTR_POLICY). */
static int policy_cb(const struct nlattr *attr, void *data)
{
	if (mnl_attr_validate(attr, MNL_TYPE_U64))
		return MNL_CB_OK;
	switch (mnl_attr_get_type(attr)) {
	case NL_POLICY_TYPE_ATTR_MIN_VALUE_U:
		bad_attr.min = mnl_attr_get_u64(attr);
		bad_attr.has_range |= 1;
		break;
	case NL_POLICY_TYPE_ATTR_MAX_VALUE_U:
		bad_attr.max = mnl_attr_get_u64(attr);
		bad_attr.has_range |= 2;
		break;
	}
	return MNL_CB_OK;
}

/* An error or ACK: keep the kernel's message and what it points at; stop. */
static int error_cb(const struct nlmsghdr *nlh, void *data)
{
	const struct nlmsgerr *err = mnl_nlmsg_get_payload(nlh);
	const struct nlattr *attr;
	unsigned int off;

	if (nlh->nlmsg_len < mnl_nlmsg_size(sizeof(*err))) {
		errno = EBADMSG;
		return MNL_CB_ERROR;
	}
	if (!err->error)
		return MNL_CB_STOP;
	if (nlh->nlmsg_flags & NLM_F_ACK_TLVS) {
		off = sizeof(*err);
		if (!(nlh->nlmsg_flags & NLM_F_CAPPED))
			off += err->msg.nlmsg_len - sizeof(err->msg);
		mnl_attr_for_each(attr, nlh, off) {
			switch (mnl_attr_get_type(attr)) {
			case NLMSGERR_ATTR_MSG:
				if (!mnl_attr_validate(attr, MNL_TYPE_NUL_STRING))
					snprintf(extack_msg, sizeof(extack_msg),
						 "%s", mnl_attr_get_str(attr));
				break;
			case NLMSGERR_ATTR_OFFS:
				if (!mnl_attr_validate(attr, MNL_TYPE_U32))
					bad_attr_at(mnl_attr_get_u32(attr));
				break;
			case NLMSGERR_ATTR_POLICY:
				mnl_attr_parse_nested(attr, policy_cb, NULL);
				break;
			}
		}
	}
	errno = -err->error;
	return MNL_CB_ERROR;
}

static int done_cb(const struct nlmsghdr *nlh, void *data)
{
	/* A dump's end carries its error, if any, like an NLMSG_ERROR. */
	const int *rc = mnl_nlmsg_get_payload(nlh);
	struct talk *t = data;

	if (nlh->nlmsg_len >= mnl_nlmsg_size(sizeof(*rc)) && *rc < 0) {
		errno = -*rc;
		return MNL_CB_ERROR;
	}
	/* A change after the last message is flagged on the end alone. */
	if (nlh->nlmsg_flags & NLM_F_DUMP_INTR)
		t->interrupted = true;
	return MNL_CB_STOP;
}

/**
 * rd_need_family() - fail if rd_nl_open() found no rocect family
 * @rd: the invocation
 *
 * Return: 0 if it did, else -1 with errno ENOENT; rd_perror() says the
 * module is missing.
 */
int rd_need_family(struct rd *rd)
{
	no_family = !rd->family;
	if (!no_family)
		return 0;
	errno = ENOENT;
	return -1;
}

/**
 * rd_talk() - send a request and process every reply
 * @rd: the invocation
 * @nlh: the request
 * @cb: called for each reply message, may be NULL
 * @data: for @cb
 *
 * Return: 0, or -1 with errno set; rd_perror() tells the user why. A dump
 * that the kernel flagged inconsistent fails with EAGAIN.
 */
int rd_talk(struct rd *rd, struct nlmsghdr *nlh, mnl_cb_t cb, void *data)
{
	static mnl_cb_t ctl[NLMSG_MIN_TYPE] = {
		[NLMSG_ERROR] = error_cb,
		[NLMSG_DONE] = done_cb,
	};
	unsigned int portid = mnl_socket_get_portid(rd->nl);
	struct talk t = { .cb = cb, .data = data };
	ssize_t n;
	int ret;

	extack_msg[0] = 0;
	memset(&bad_attr, 0, sizeof(bad_attr));
	if (nlh->nlmsg_type != GENL_ID_CTRL && rd_need_family(rd))
		return -1;
	last_req_len = nlh->nlmsg_len < sizeof(last_req) ? nlh->nlmsg_len :
							  sizeof(last_req);
	memcpy(last_req, nlh, last_req_len);
	if (mnl_socket_sendto(rd->nl, nlh, nlh->nlmsg_len) < 0)
		return -1;
	do {
		n = mnl_socket_recvfrom(rd->nl, rd->buf, MNL_SOCKET_BUFFER_SIZE);
		if (n < 0)
			return -1;
		ret = mnl_cb_run2(rd->buf, n, nlh->nlmsg_seq, portid, data_cb,
				  &t, ctl, NLMSG_MIN_TYPE);
	} while (ret > MNL_CB_STOP);
	if (ret < 0)
		return -1;
	if (t.interrupted) {
		errno = EAGAIN;
		return -1;
	}
	return 0;
}

struct attr_table {
	const struct nlattr **tb;
	int max;
};

static int attr_cb(const struct nlattr *attr, void *data)
{
	const struct attr_table *t = data;
	int type = mnl_attr_get_type(attr);

	/* Attributes of a newer kernel are skipped, not fatal. */
	if (type > 0 && type <= t->max)
		t->tb[type] = attr;
	return MNL_CB_OK;
}

/**
 * rd_attrs() - index a rocect message's attributes by type
 * @nlh: the message
 * @tb: array of @max + 1 entries
 * @max: highest attribute type known
 *
 * Return: 0.
 */
int rd_attrs(const struct nlmsghdr *nlh, const struct nlattr **tb, int max)
{
	struct attr_table t = { .tb = tb, .max = max };

	memset(tb, 0, (max + 1) * sizeof(*tb));
	return mnl_attr_parse(nlh, sizeof(struct genlmsghdr), attr_cb, &t) < 0;
}

/**
 * rd_last_bad_attr() - the attribute the last failed request was refused for
 *
 * Return: its type (0 if the kernel named none) and, if the kernel sent its
 * policy, the range it allows (&rd_bad_attr.has_range 3).
 */
const struct rd_bad_attr *rd_last_bad_attr(void)
{
	return &bad_attr;
}

/**
 * rd_perror() - report why the last rd_talk() failed
 *
 * The kernel's own message comes first, verbatim, then the errno text.
 */
void rd_perror(void)
{
	const char *hint = errno == EPERM ? " (needs CAP_NET_ADMIN)" : "";

	if (no_family)
		pr_err("the rocect netlink family is not available: load the module (modprobe nf_conntrack_roce)");
	else if (extack_msg[0])
		pr_err("%s: %s%s", extack_msg, strerror(errno), hint);
	else
		pr_err("%s%s", strerror(errno), hint);
}

struct dump_stream {
	json_object *(*to_json)(const struct nlmsghdr *nlh);
	struct rd_table *t;
	bool restart;
};

static int stream_cb(const struct nlmsghdr *nlh, void *data)
{
	struct dump_stream *s = data;

	if (s->restart)
		return MNL_CB_OK;
	/* Inconsistent before a row was printed: drop them all, send again. */
	if ((nlh->nlmsg_flags & NLM_F_DUMP_INTR) && !s->t->flushed) {
		rd_table_discard(s->t);
		s->restart = true;
		return MNL_CB_OK;
	}
	rd_table_add(s->t, s->to_json(nlh));
	return MNL_CB_OK;
}

/*
 * Send @nlh and print its replies as table rows, as they arrive.
 *
 * Return: 0; 1 if rows were printed but the kernel flagged the dump
 * inconsistent (the table changed meanwhile: rows may be missing or
 * shown twice), which a warning said; -1 with errno EAGAIN if it flagged
 * it before any row was printed (nothing was: send it again), or -1 with
 * errno set as rd_talk() sets it (nothing printed, nothing said).
 */
static int dump_table(struct rd *rd, struct nlmsghdr *nlh,
		      json_object *(*to_json)(const struct nlmsghdr *nlh),
		      const struct rd_field *fields)
{
	struct rd_table t;
	struct dump_stream s = { .t = &t, .to_json = to_json };
	int err;

	rd_table_init(&t, rd, fields);
	err = rd_talk(rd, nlh, stream_cb, &s);
	if (!t.flushed && (err || s.restart)) {
		rd_table_free(&t);
		if (s.restart)
			errno = EAGAIN;
		return -1;
	}
	err = err ? errno : 0;
	rd_table_end(&t);
	if (err == EAGAIN) {
		pr_err("the table changed during the dump: entries may be missing or shown twice");
		return 1;
	}
	if (err) {
		errno = err;
		rd_perror();
		return 1;
	}
	return 0;
}

/* What the rows of a dump go to: the table they are printed in, or @all. */
struct rows {
	json_object *(*to_json)(const struct nlmsghdr *nlh);
	const struct rd_field *fields;
	json_object *all;
};

static int show_once(struct rd *rd, struct nlmsghdr *nlh, struct rows *r)
{
	return dump_table(rd, nlh, r->to_json, r->fields);
}

static int collect_cb(const struct nlmsghdr *nlh, void *data)
{
	struct rows *r = data;

	json_object_array_add(r->all, r->to_json(nlh));
	return MNL_CB_OK;
}

/* As dump_table(), into a new r->all; no warning, every failure is -1. */
static int collect_once(struct rd *rd, struct nlmsghdr *nlh, struct rows *r)
{
	json_object_put(r->all);
	r->all = json_object_new_array();
	return rd_talk(rd, nlh, collect_cb, r);
}

/*
 * Build the request and hand it to @once until @once does not fail with
 * EAGAIN (the kernel flagged the dump inconsistent before anything was
 * printed), five times at most. Return: the exit status.
 */
static int dump_retrying(struct rd *rd,
			 struct nlmsghdr *(*build)(struct rd *rd, void *arg),
			 void *arg,
			 int (*once)(struct rd *rd, struct nlmsghdr *nlh,
				     struct rows *r),
			 struct rows *r)
{
	struct nlmsghdr *nlh;
	int tries = 0, ret;

	do {
		nlh = build(rd, arg);
		if (!nlh)
			return 1;
		ret = once(rd, nlh, r);
	} while (ret < 0 && errno == EAGAIN && ++tries < 5);
	if (ret < 0) {
		if (errno == EAGAIN)
			pr_err("the table kept changing during the dump; try again");
		else
			rd_perror();
		return 1;
	}
	return ret;
}

/**
 * rd_show_rows() - send a request and print its replies as table rows
 * @rd: the invocation
 * @build: makes the request (a dump, or one with a single reply) in
 *	@rd's buffer, again for each try; NULL after saying what is wrong
 * @arg: for @build
 * @to_json: makes a row of a reply
 * @fields: the rows' fields; those marked RD_COLUMN are the text columns
 *
 * The rows are printed as they arrive, with at most %RD_TABLE_HOLD of them
 * in memory (see rd_table_init()). A dump the kernel flags inconsistent
 * before its first row was printed is sent again, up to five times.
 *
 * Return: the exit status.
 */
int rd_show_rows(struct rd *rd,
		 struct nlmsghdr *(*build)(struct rd *rd, void *arg), void *arg,
		 json_object *(*to_json)(const struct nlmsghdr *nlh),
		 const struct rd_field *fields)
{
	struct rows r = { .to_json = to_json, .fields = fields };

	return dump_retrying(rd, build, arg, show_once, &r);
}

/**
 * rd_collect_rows() - send a request and gather its replies
 * @rd: the invocation
 * @build: makes the request, as for rd_show_rows()
 * @arg: for @build
 * @to_json: makes a row of a reply
 * @rows: set to a new JSON array of the rows, or NULL on failure
 *
 * A dump the kernel flags inconsistent is sent again, up to five times.
 *
 * Return: 0, or 1 after saying what went wrong.
 */
int rd_collect_rows(struct rd *rd,
		    struct nlmsghdr *(*build)(struct rd *rd, void *arg),
		    void *arg,
		    json_object *(*to_json)(const struct nlmsghdr *nlh),
		    json_object **rows)
{
	struct rows r = { .to_json = to_json };
	int ret = dump_retrying(rd, build, arg, collect_once, &r);

	if (ret) {
		json_object_put(r.all);
		r.all = NULL;
	}
	*rows = r.all;
	return ret;
}

/**
 * rd_get() - fetch one object (stats, config) into a JSON object
 * @rd: the invocation
 * @cmd: the ROCECT_CMD_*_GET command
 * @cb: turns the reply into keys of @o
 * @o: the object
 *
 * Return: 0, or 1 after saying what went wrong.
 */
int rd_get(struct rd *rd, uint8_t cmd, mnl_cb_t cb, json_object *o)
{
	if (rd_talk(rd, rd_msg(rd, cmd, 0), cb, o)) {
		rd_perror();
		return 1;
	}
	return 0;
}

/**
 * rd_show() - fetch one object (stats, config) and print it
 * @rd: the invocation
 * @cmd: the ROCECT_CMD_*_GET command
 * @cb: turns the reply into keys of the JSON object passed as data
 *
 * Return: the exit status.
 */
int rd_show(struct rd *rd, uint8_t cmd, mnl_cb_t cb)
{
	json_object *o = json_object_new_object();
	int ret = rd_get(rd, cmd, cb, o);

	if (!ret)
		rd_print_keys(rd, o);
	json_object_put(o);
	return ret;
}

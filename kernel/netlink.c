// SPDX-License-Identifier: GPL-2.0
/*
 * The handlers of the generic netlink family "rocect" (uapi/linux/rocect.h,
 * Documentation/netlink/specs/rocect.yaml; genl.c defines the family and
 * its policies): QP entries, statistics, configuration and events of the
 * caller's network namespace.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/jiffies.h>
#include <linux/netdevice.h>
#include <net/genetlink.h>
#include <uapi/linux/rocect.h>

#include "drop_report.h"
#include "genl.h"
#include "netlink.h"
#include "netns.h"
#include "pernet.h"
#include "qp_cong.h"
#include "rpcheck.h"
#include "walk.h"

/* The attribute of each setting, in settings.h order. */
static const u8 config_attrs[ROCECT_CFG_COUNT] = {
#define ROCECT_SETTING(name, attr, type, lo, hi, def)		\
	[ROCECT_CFG_##name] = ROCECT_A_CONFIG_##attr,
#include "settings.h"
#undef ROCECT_SETTING
};

/* The namespace a request is about: the requesting socket's. */
static struct rocect_net *info_rn(struct genl_info *info)
{
	return rocect_net(genl_info_net(info));
}

/* The attributes of a dump request: 6.6 moved them into a genl_info. */
static struct nlattr **dump_attrs(struct netlink_callback *cb)
{
#ifdef ROCECT_HAVE_GENL_INFO_DUMP
	return genl_dumpit_info(cb)->info.attrs;
#else
	return genl_dumpit_info(cb)->attrs;
#endif
}

/* Take an IPv4 or IPv6 address attribute; 0 if neither is present. */
static int get_addr(struct nlattr **tb, int a4, int a6,
		    union nf_inet_addr *addr, u8 *family,
		    struct netlink_ext_ack *extack)
{
	u8 fam;

	if (tb[a4] && tb[a6]) {
		NL_SET_ERR_MSG_ATTR(extack, tb[a6],
				    "give an IPv4 or an IPv6 address, not both");
		return -EINVAL;
	}
	if (!tb[a4] && !tb[a6])
		return 0;
	fam = tb[a4] ? 4 : 6;
	if (*family && *family != fam) {
		NL_SET_ERR_MSG_ATTR(extack, tb[a4] ?: tb[a6],
				    "source and destination families differ");
		return -EINVAL;
	}
	*family = fam;
	memset(addr, 0, sizeof(*addr));
	if (tb[a4])
		addr->ip = nla_get_be32(tb[a4]);
	else
		nla_memcpy(&addr->in6, tb[a6], sizeof(addr->in6));
	return 0;
}

/*
 * The entry attributes of a request: those its command's policy (genl.c)
 * lets through.
 */
static int parse_filter(struct nlattr **tb, struct rocect_qp_filter *f,
			struct netlink_ext_ack *extack)
{
	int err;

	memset(f, 0, sizeof(*f));
	err = get_addr(tb, ROCECT_A_QP_SADDR4, ROCECT_A_QP_SADDR6,
		       &f->key.saddr, &f->key.family, extack) ?:
	      get_addr(tb, ROCECT_A_QP_DADDR4, ROCECT_A_QP_DADDR6,
		       &f->key.daddr, &f->key.family, extack);
	if (err)
		return err;
	f->has_saddr = tb[ROCECT_A_QP_SADDR4] || tb[ROCECT_A_QP_SADDR6];
	f->has_daddr = tb[ROCECT_A_QP_DADDR4] || tb[ROCECT_A_QP_DADDR6];
	f->has_dqpn = tb[ROCECT_A_QP_DQPN];
	f->has_zone = tb[ROCECT_A_QP_ZONE];
	if (f->has_dqpn)
		f->key.dqpn = nla_get_u32(tb[ROCECT_A_QP_DQPN]);
	if (f->has_zone)
		f->key.zone = nla_get_u16(tb[ROCECT_A_QP_ZONE]);
	f->sqpn = tb[ROCECT_A_QP_SQPN] ? nla_get_u32(tb[ROCECT_A_QP_SQPN]) : -1;
	f->origin = tb[ROCECT_A_QP_ORIGIN] ?
		    nla_get_u8(tb[ROCECT_A_QP_ORIGIN]) : -1;
	f->state = tb[ROCECT_A_QP_STATE] ?
		   nla_get_u8(tb[ROCECT_A_QP_STATE]) : -1;
	/* In jiffies, at least one: "seen within" is never everything. */
	if (tb[ROCECT_A_QP_SEEN_WITHIN])
		f->seen_within =
			msecs_to_jiffies(nla_get_u32(tb[ROCECT_A_QP_SEEN_WITHIN])) ?: 1;
	return 0;
}

/* The whole key is required: both addresses and the destination QP. */
static int parse_key(struct genl_info *info, struct rocect_qp_filter *f)
{
	int err;

	err = parse_filter(info->attrs, f, info->extack);
	if (err)
		return err;
	if (!f->has_saddr) {
		NL_SET_ERR_MSG(info->extack, "missing source address");
		return -EINVAL;
	}
	if (!f->has_daddr) {
		NL_SET_ERR_MSG(info->extack, "missing destination address");
		return -EINVAL;
	}
	if (GENL_REQ_ATTR_CHECK(info, ROCECT_A_QP_DQPN))
		return -EINVAL;
	return 0;
}

static int put_addr(struct sk_buff *skb, int a4, int a6, u8 family,
		    const union nf_inet_addr *addr)
{
	if (family == 4)
		return nla_put_be32(skb, a4, addr->ip);
	return nla_put(skb, a6, sizeof(addr->in6), &addr->in6);
}

/* What a learned entry knows of its connection, from its sender's side. */
static int fill_qp_conn(struct sk_buff *skb, const struct rocect_qp *qp,
			const struct rocect_conn *conn)
{
	int s = qp->dir, d = !qp->dir;

	if (nla_put_u8(skb, ROCECT_A_QP_ACTIVE, s == 0) ||
	    nla_put_u32(skb, ROCECT_A_QP_SCOMM_ID, conn->comm_id[s]) ||
	    nla_put_u32(skb, ROCECT_A_QP_DCOMM_ID, conn->comm_id[d]) ||
	    nla_put_u64_64bit(skb, ROCECT_A_QP_SERVICE_ID, conn->service_id,
			      ROCECT_A_QP_PAD) ||
	    nla_put_u32(skb, ROCECT_A_QP_SPSN, conn->psn[d]))
		return -EMSGSIZE;
	if (conn->sidr && nla_put_u32(skb, ROCECT_A_QP_QKEY, conn->qkey))
		return -EMSGSIZE;
	return 0;
}

/* Where the entry's sender's packets come in and from, once bound. */
static int fill_qp_binding(struct sk_buff *skb, const struct rocect_qp *qp)
{
	int iif = READ_ONCE(qp->iif);
	u32 sport = READ_ONCE(qp->sport);
	u64 qkey = READ_ONCE(qp->qkey);

	if (iif != ROCECT_IIF_UNBOUND &&
	    nla_put_u32(skb, ROCECT_A_QP_IIF, iif))
		return -EMSGSIZE;
	if (sport & ROCECT_SPORT_RC &&
	    nla_put_u16(skb, ROCECT_A_QP_SPORT, (u16)sport))
		return -EMSGSIZE;
	/* A SIDR connection's entries show its service's (fill_qp_conn()). */
	if (sport & ROCECT_SPORT_UD && qkey & ROCECT_QKEY_KNOWN &&
	    !rocect_qp_conn(qp) && nla_put_u32(skb, ROCECT_A_QP_QKEY, (u32)qkey))
		return -EMSGSIZE;
	return 0;
}

/*
 * A per-QP counter: its low 32 bits in the attribute older tools read,
 * all 64 in the one appended for it.
 */
static int put_counter64(struct sk_buff *skb, int attr32, int attr64, u64 v)
{
	return nla_put_u32(skb, attr32, (u32)v) ||
	       nla_put_u64_64bit(skb, attr64, v, ROCECT_A_QP_PAD);
}

/* One entry's attributes, as replies, dumps and events carry them. */
static int fill_qp(struct sk_buff *skb, struct rocect_net *rn, const void *obj)
{
	const struct rocect_qp *qp = obj;
	const struct rocect_conn *conn = rocect_qp_conn(qp);
	const struct rocect_qp_key *k = &qp->key;
	u32 idle = (u32)jiffies - READ_ONCE(qp->last_seen);
	struct rocect_qp_cong_counts cong = rocect_qp_cong_read(rn, qp);
	u32 timeout = 0;

	if (conn) {
		timeout = rocect_conn_timeout(rn, conn);
		if (fill_qp_conn(skb, qp, conn))
			return -EMSGSIZE;
	} else if (rocect_qp_from_traffic(qp)) {
		timeout = rocect_qp_idle_left(rn, qp);
	}
	if (nla_put_u16(skb, ROCECT_A_QP_ZONE, k->zone) ||
	    put_addr(skb, ROCECT_A_QP_SADDR4, ROCECT_A_QP_SADDR6, k->family,
		     &k->saddr) ||
	    put_addr(skb, ROCECT_A_QP_DADDR4, ROCECT_A_QP_DADDR6, k->family,
		     &k->daddr) ||
	    nla_put_u32(skb, ROCECT_A_QP_DQPN, k->dqpn) ||
	    nla_put_u32(skb, ROCECT_A_QP_SQPN, qp->sqpn) ||
	    nla_put_u8(skb, ROCECT_A_QP_ORIGIN, qp->origin) ||
	    nla_put_u8(skb, ROCECT_A_QP_STATE, rocect_qp_state(qp)) ||
	    nla_put_u64_64bit(skb, ROCECT_A_QP_PACKETS,
			      atomic64_read(&qp->packets), ROCECT_A_QP_PAD) ||
	    nla_put_u64_64bit(skb, ROCECT_A_QP_BYTES,
			      atomic64_read(&qp->bytes), ROCECT_A_QP_PAD) ||
	    nla_put_u64_64bit(skb, ROCECT_A_QP_IDLE_MSECS,
			      jiffies_to_msecs(idle), ROCECT_A_QP_PAD) ||
	    nla_put_u32(skb, ROCECT_A_QP_TIMEOUT, timeout) ||
	    put_counter64(skb, ROCECT_A_QP_CE, ROCECT_A_QP_CE64, cong.ce) ||
	    put_counter64(skb, ROCECT_A_QP_CNPS, ROCECT_A_QP_CNPS64,
			  cong.cnps) ||
	    /* The counters' time: rates need it, not the reader's clock. */
	    nla_put_u64_64bit(skb, ROCECT_A_QP_SNAPSHOT_NS, ktime_get_ns(),
			      ROCECT_A_QP_PAD))
		return -EMSGSIZE;
	return fill_qp_binding(skb, qp);
}

/*
 * Reply to a request with one object's attributes, put by @fill: an entry
 * (under RCU, so @gfp is atomic), the statistics or the configuration.
 */
static int reply(struct genl_info *info, gfp_t gfp,
		 int (*fill)(struct sk_buff *, struct rocect_net *, const void *),
		 const void *obj)
{
	struct sk_buff *msg;
	void *hdr;

	msg = genlmsg_new(NLMSG_GOODSIZE, gfp);
	if (!msg)
		return -ENOMEM;
	hdr = genlmsg_put_reply(msg, info, &rocect_nl_family, 0,
				info->genlhdr->cmd);
	if (!hdr || fill(msg, info_rn(info), obj)) {
		nlmsg_free(msg);
		return -EMSGSIZE;
	}
	genlmsg_end(msg, hdr);
	return genlmsg_reply(msg, info);
}

/* Run @use on the entry a request's key names, under RCU. */
static int on_entry(struct genl_info *info, const struct rocect_qp_filter *f,
		    int (*use)(struct genl_info *, struct rocect_qp *))
{
	struct rocect_qp *qp;
	int err;

	rcu_read_lock();
	qp = rocect_qp_lookup(info_rn(info), &f->key);
	err = qp ? use(info, qp) : -ENOENT;
	rcu_read_unlock();
	if (!qp)
		NL_SET_ERR_MSG(info->extack, "no such QP entry");
	return err;
}

static int reply_entry(struct genl_info *info, struct rocect_qp *qp)
{
	return reply(info, GFP_ATOMIC, fill_qp, qp);
}

int rocect_nl_qp_get_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct rocect_qp_filter f;
	int err;

	err = parse_key(info, &f);
	if (err)
		return err;
	/* The dump's filters share qp-get's policy (6.1: one per command). */
	if (f.sqpn >= 0 || f.origin >= 0 || f.state >= 0 || f.seen_within) {
		NL_SET_ERR_MSG(info->extack,
			       "sqpn, origin, state and seen-within filter a dump only");
		return -EINVAL;
	}
	return on_entry(info, &f, reply_entry);
}

int rocect_nl_qp_query_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct rocect_net *rn = info_rn(info);
	struct rocect_qp *qp;
	struct rocect_qp_filter f;
	int err, matches = 1;

	err = parse_filter(info->attrs, &f, info->extack);
	if (err)
		return err;
	if (!f.has_daddr) {
		NL_SET_ERR_MSG(info->extack, "missing destination address");
		return -EINVAL;
	}
	if (GENL_REQ_ATTR_CHECK(info, ROCECT_A_QP_DQPN))
		return -EINVAL;
	f.has_zone = true;	/* zone 0 unless given */

	/* Without the source: a walk, which may let others run. */
	if (!f.has_saddr)
		rocect_qp_find_one(rn, &f, &f.key, &matches);
	rcu_read_lock();
	qp = matches ? rocect_qp_lookup(rn, &f.key) : NULL;
	if (!qp) {
		NL_SET_ERR_MSG(info->extack, "no QP entry for this destination");
		err = -ENOENT;
	} else if (matches > 1) {
		NL_SET_ERR_MSG(info->extack,
			       "several sources send to this QP: give the source address");
		err = -ENOTUNIQ;
	} else {
		err = reply(info, GFP_ATOMIC, fill_qp, qp);
	}
	rcu_read_unlock();
	return err;
}

/**
 * struct qp_dump_ctx - a QP dump across recvmsg() calls
 * @walk: its position in the QP table
 * @filter: which entries it shows
 */
struct qp_dump_ctx {
	struct rocect_walk walk;
	struct rocect_qp_filter filter;
};

/**
 * struct conn_dump_ctx - a connection dump across recvmsg() calls
 * @walk: its position in the connection table
 */
struct conn_dump_ctx {
	struct rocect_walk walk;
};

/*
 * Walk a table into dump messages, one object a message. @fill returns 1
 * for an object the dump skips, 0 when it added it, -EMSGSIZE when the
 * message is full: that object is then the first of the next message. A
 * change of the table between two messages, or a restart of the walk,
 * flags the dump NLM_F_DUMP_INTR: on the next message that is sent (a
 * skipped or cancelled one carries nothing), or on NLMSG_DONE, which
 * netlink checks against the last cb->seq.
 */
static int dump_walk(struct sk_buff *skb, struct netlink_callback *cb,
		     struct rocect_walk *w, u8 cmd,
		     int (*fill)(struct sk_buff *, struct rocect_net *, void *,
				 const void *),
		     const void *arg)
{
	struct rocect_net *rn = rocect_net(sock_net(skb->sk));
	unsigned int skipped = 0;
	void *obj, *hdr;
	int err;

	rocect_walk_start(w);
	while ((obj = rocect_walk_peek(w))) {
		hdr = genlmsg_put(skb, NETLINK_CB(cb->skb).portid,
				  cb->nlh->nlmsg_seq, &rocect_nl_family,
				  NLM_F_MULTI, cmd);
		if (!hdr)
			break;
		err = fill(skb, rn, obj, arg);
		if (err < 0) {
			genlmsg_cancel(skb, hdr);
			break;
		}
		if (err > 0) {
			genlmsg_cancel(skb, hdr);
		} else {
			cb->seq = rocect_walk_gen(w);
			genl_dump_check_consistent(cb, hdr);
			genlmsg_end(skb, hdr);
		}
		rocect_walk_next(w);
		/*
		 * A filter that skips most objects (seen-within) fills no
		 * message for long: let others run as other walks do.
		 */
		if (err > 0 && ++skipped % ROCECT_WALK_BATCH == 0)
			rocect_walk_pause(w);
	}
	cb->seq = rocect_walk_gen(w);
	rocect_walk_stop(w);
	return skb->len;
}

/* A dump's end; both contexts begin with their walk. */
int rocect_nl_dump_done(struct netlink_callback *cb)
{
	struct rocect_walk *w = (struct rocect_walk *)cb->args[0];

	BUILD_BUG_ON(offsetof(struct qp_dump_ctx, walk) != 0);
	BUILD_BUG_ON(offsetof(struct conn_dump_ctx, walk) != 0);
	if (w) {
		rocect_walk_exit(w);
		kfree(w);
	}
	return 0;
}

int rocect_nl_qp_get_start(struct netlink_callback *cb)
{
	struct rocect_net *rn = rocect_net(sock_net(cb->skb->sk));
	struct qp_dump_ctx *ctx;
	int err;

	ctx = kzalloc(sizeof(*ctx), GFP_KERNEL_ACCOUNT);
	if (!ctx)
		return -ENOMEM;
	err = parse_filter(dump_attrs(cb), &ctx->filter, cb->extack);
	if (err) {
		kfree(ctx);
		return err;
	}
	rocect_qp_walk_enter(rn, &ctx->walk);
	cb->args[0] = (long)ctx;
	return 0;
}

static int qp_dump_one(struct sk_buff *skb, struct rocect_net *rn, void *obj,
		       const void *filter)
{
	if (!rocect_qp_match(obj, filter))
		return 1;
	return fill_qp(skb, rn, obj);
}

int rocect_nl_qp_get_dumpit(struct sk_buff *skb, struct netlink_callback *cb)
{
	struct qp_dump_ctx *ctx = (struct qp_dump_ctx *)cb->args[0];

	return dump_walk(skb, cb, &ctx->walk, ROCECT_CMD_QP_GET, qp_dump_one,
			 &ctx->filter);
}

int rocect_nl_conn_get_start(struct netlink_callback *cb)
{
	struct rocect_net *rn = rocect_net(sock_net(cb->skb->sk));
	struct conn_dump_ctx *ctx;

	ctx = kzalloc(sizeof(*ctx), GFP_KERNEL_ACCOUNT);
	if (!ctx)
		return -ENOMEM;
	rocect_conn_walk_enter(rn, &ctx->walk);
	cb->args[0] = (long)ctx;
	return 0;
}

static int conn_dump_one(struct sk_buff *skb, struct rocect_net *rn,
			 void *obj, const void *unused)
{
	const struct rocect_conn *c = obj;
	const struct rocect_qp_key *k = &c->qp[0].key;
	unsigned long now = jiffies;
	u8 state = READ_ONCE(c->state);
	bool passive = state != ROCE_CS_REQ;

	if (nla_put_u16(skb, ROCECT_A_CONN_ZONE, k->zone) ||
	    put_addr(skb, ROCECT_A_CONN_AADDR4, ROCECT_A_CONN_AADDR6, k->family,
		     &k->saddr) ||
	    put_addr(skb, ROCECT_A_CONN_PADDR4, ROCECT_A_CONN_PADDR6, k->family,
		     &k->daddr) ||
	    nla_put_u32(skb, ROCECT_A_CONN_ACOMM_ID, c->comm_id[0]) ||
	    nla_put_u32(skb, ROCECT_A_CONN_PCOMM_ID, c->comm_id[1]) ||
	    nla_put_u64_64bit(skb, ROCECT_A_CONN_SERVICE_ID, c->service_id,
			      ROCECT_A_CONN_PAD) ||
	    nla_put_u8(skb, ROCECT_A_CONN_STATE, rocect_conn_uapi_state(state)) ||
	    nla_put_u8(skb, ROCECT_A_CONN_SIDR, c->sidr) ||
	    nla_put_u16(skb, ROCECT_A_CONN_CMA_SPORT, c->cma_sport) ||
	    nla_put_u8(skb, ROCECT_A_CONN_CMA_MATCH, c->cma_match) ||
	    nla_put_u64_64bit(skb, ROCECT_A_CONN_AGE_MSECS,
			      jiffies_to_msecs((u32)now - c->created),
			      ROCECT_A_CONN_PAD) ||
	    nla_put_u64_64bit(skb, ROCECT_A_CONN_IDLE_MSECS,
			      jiffies_to_msecs(now - rocect_conn_last_active(c)),
			      ROCECT_A_CONN_PAD) ||
	    nla_put_u32(skb, ROCECT_A_CONN_TIMEOUT,
			rocect_conn_timeout(rn, c)))
		return -EMSGSIZE;
	/* The active QP is known from the REQ, the passive one from REP. */
	if (!c->sidr && (nla_put_u32(skb, ROCECT_A_CONN_AQPN, c->qp[0].sqpn) ||
			 nla_put_u32(skb, ROCECT_A_CONN_APSN, c->psn[0])))
		return -EMSGSIZE;
	if (passive && state != ROCE_CS_REJECTED &&
	    (nla_put_u32(skb, ROCECT_A_CONN_PQPN, c->qp[0].key.dqpn) ||
	     (!c->sidr && nla_put_u32(skb, ROCECT_A_CONN_PPSN, c->psn[1]))))
		return -EMSGSIZE;
	if (c->sidr && passive &&
	    nla_put_u32(skb, ROCECT_A_CONN_QKEY, c->qkey))
		return -EMSGSIZE;
	if (state == ROCE_CS_REJECTED &&
	    nla_put_u16(skb, ROCECT_A_CONN_REJECT_REASON, c->reason))
		return -EMSGSIZE;
	return 0;
}

int rocect_nl_conn_get_dumpit(struct sk_buff *skb, struct netlink_callback *cb)
{
	struct conn_dump_ctx *ctx = (struct conn_dump_ctx *)cb->args[0];

	return dump_walk(skb, cb, &ctx->walk, ROCECT_CMD_CONN_GET,
			 conn_dump_one, NULL);
}

/*
 * Into *@iif where a new entry's sender's packets will arrive, as
 * rocect_arrival() sees it, if the request names an interface (else
 * %ROCECT_IIF_UNBOUND): 0 or loopback for this host, else a device of
 * the namespace that packets come in on: a VRF's enslaved interface, not
 * the VRF; a bridge's port for bridged packets, the bridge for those it
 * routes (as rocect_save writes what the entry was bound to). It may go
 * away later, as a bound one may.
 */
static int new_qp_iif(struct genl_info *info, int *iif)
{
	struct nlattr *a = info->attrs[ROCECT_A_QP_IIF];
	const struct net_device *dev;
	int err = 0;

	*iif = ROCECT_IIF_UNBOUND;
	if (!a)
		return 0;
	*iif = nla_get_u32(a);
	if (!*iif)
		return 0;
	rcu_read_lock();
	dev = dev_get_by_index_rcu(genl_info_net(info), *iif);
	if (!dev) {
		NL_SET_ERR_MSG_ATTR(info->extack, a, "no such interface");
		err = -ENODEV;
	} else if (netif_is_l3_master(dev)) {
		NL_SET_ERR_MSG_ATTR(info->extack, a,
				    "a VRF: name the interface its packets come in on");
		err = -EINVAL;
	} else {
		*iif = rocect_dev_arrival(dev);
	}
	rcu_read_unlock();
	return err;
}

int rocect_nl_qp_new_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct rocect_qp_filter f;
	int err, iif;

	err = parse_key(info, &f);
	if (err)
		return err;
	if (GENL_REQ_ATTR_CHECK(info, ROCECT_A_QP_SQPN))
		return -EINVAL;
	err = new_qp_iif(info, &iif);
	if (err)
		return err;
	return rocect_qp_add_managed(info_rn(info), &f.key, f.sqpn, iif,
				     nla_get_flag(info->attrs[ROCECT_A_QP_REPLACE]),
				     info->extack);
}

int rocect_nl_qp_del_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct rocect_qp_filter f;
	int err;

	err = parse_key(info, &f);
	if (err)
		return err;
	err = rocect_qp_del(info_rn(info), &f.key);
	if (err)
		NL_SET_ERR_MSG(info->extack, "no such QP entry");
	return err;
}

int rocect_nl_qp_flush_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct nlattr *origin = info->attrs[ROCECT_A_QP_ORIGIN];

	rocect_qp_flush(info_rn(info), origin ? nla_get_u8(origin) : -1);
	return 0;
}

/* Counters of value V go in a nest as attribute V + 1. */
static int put_counters(struct sk_buff *skb, int type, const u64 *ctr,
			unsigned int n, unsigned int first)
{
	struct nlattr *nest = nla_nest_start(skb, type);
	unsigned int i;

	if (!nest)
		return -EMSGSIZE;
	for (i = first; i < n; i++)
		if (nla_put_u64_64bit(skb, i + 1, ctr[i], 0))
			return -EMSGSIZE;
	nla_nest_end(skb, nest);
	return 0;
}

static int fill_stats(struct sk_buff *skb, struct rocect_net *rn,
		      const void *unused)
{
	struct rocect_stats s;
	const u64 *c = s.ctr;
	unsigned int i;

	rocect_stats_sum(rn, &s);
	if (nla_put_u64_64bit(skb, ROCECT_A_STATS_PACKETS, s.packets,
			      ROCECT_A_STATS_PAD) ||
	    put_counters(skb, ROCECT_A_STATS_CLASS, s.class, ROCE_CLASS_MAX, 0) ||
	    put_counters(skb, ROCECT_A_STATS_MALFORMED, s.malformed,
			 ROCE_MAL_MAX, 1) ||
	    put_counters(skb, ROCECT_A_STATS_CM, s.cm, ROCE_CM_KIND_MAX, 0) ||
	    nla_put_u32(skb, ROCECT_A_STATS_QP_COUNT, READ_ONCE(rn->qps.count)) ||
	    nla_put_u32(skb, ROCECT_A_STATS_CONG_COUNT,
			atomic_read(&rn->qps.cong.nelems)) ||
	    nla_put_u32(skb, ROCECT_A_STATS_CONN_COUNT,
			READ_ONCE(rn->conns.count)))
		return -EMSGSIZE;
	for (i = 0; i < ROCECT_CTR_MAX; i++)
		if (nla_put_u64_64bit(skb, rocect_stats_attrs[i], c[i],
				      ROCECT_A_STATS_PAD))
			return -EMSGSIZE;
	return 0;
}

static int fill_config(struct sk_buff *skb, struct rocect_net *rn,
		       const void *unused)
{
	unsigned int i;
	int err;

	for (i = 0; i < ROCECT_CFG_COUNT; i++) {
		u8 attr = config_attrs[i];
		u32 val = READ_ONCE(rn->config.val[i]);

		if (rocect_config_set_nl_policy[attr].type == NLA_U8)
			err = nla_put_u8(skb, attr, val);
		else
			err = nla_put_u32(skb, attr, val);
		if (err)
			return -EMSGSIZE;
	}
	return 0;
}

int rocect_nl_stats_get_doit(struct sk_buff *skb, struct genl_info *info)
{
	return reply(info, GFP_KERNEL, fill_stats, NULL);
}

int rocect_nl_stats_reset_doit(struct sk_buff *skb, struct genl_info *info)
{
	rocect_stats_reset(info_rn(info));
	return 0;
}

int rocect_nl_config_get_doit(struct sk_buff *skb, struct genl_info *info)
{
	return reply(info, GFP_KERNEL, fill_config, NULL);
}

/*
 * Only the initial namespace may raise a table's ceiling: another one's
 * limit in force is at most the initial one's (rocect_config_limit()).
 */
static bool above_host(struct rocect_net *rn, const struct nlattr *a,
		       enum rocect_setting i)
{
	return a && !net_eq(rn->net, &init_net) &&
	       nla_get_u32(a) > READ_ONCE(rocect_net(&init_net)->config.val[i]);
}

int rocect_nl_config_set_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct rocect_net *rn = info_rn(info);
	struct nlattr **tb = info->attrs;
	u32 val[ROCECT_CFG_COUNT], given = 0;
	unsigned int i;
	int err;

	if (above_host(rn, tb[ROCECT_A_CONFIG_MAX_QPS], ROCECT_CFG_max_qps) ||
	    above_host(rn, tb[ROCECT_A_CONFIG_MAX_CONNS], ROCECT_CFG_max_conns)) {
		NL_SET_ERR_MSG(info->extack,
			       "above the initial namespace's max-qps or max-conns");
		return -EPERM;
	}

	/* The policy has checked every range. */
	for (i = 0; i < ROCECT_CFG_COUNT; i++) {
		const struct nlattr *a = tb[config_attrs[i]];

		if (!a)
			continue;
		if (rocect_config_set_nl_policy[config_attrs[i]].type == NLA_U8)
			val[i] = nla_get_u8(a);
		else
			val[i] = nla_get_u32(a);
		given |= BIT(i);
	}
	if (!given) {
		NL_SET_ERR_MSG(info->extack, "nothing to set");
		return -EINVAL;
	}
	err = rocect_config_apply(rn, val, given);
	if (err)
		NL_SET_ERR_MSG(info->extack,
			       "no memory for learn's records or the guard's hooks");
	return err;
}

static int send_cnp(struct genl_info *info, struct rocect_qp *qp)
{
	int err = rocect_cnp_send(info_rn(info), qp);

	if (err == -ENOBUFS)
		NL_SET_ERR_MSG(info->extack, "the output path dropped the CNP");
	else if (err == -ENOENT)
		NL_SET_ERR_MSG(info->extack, "no such QP entry");
	else if (err == -ENOMEM)
		NL_SET_ERR_MSG(info->extack, "no memory for the entry's counters");
	else if (err)
		NL_SET_ERR_MSG(info->extack, "no route for the CNP");
	return err;
}

int rocect_nl_cnp_send_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct rocect_qp_filter f;
	int err;

	err = parse_key(info, &f);
	return err ?: on_entry(info, &f, send_cnp);
}

/*
 * Announce an entry's creation, change or deletion (netns.c calls this
 * after the namespace's lock is dropped, under RCU, maybe in softirq).
 * Costs nothing without listeners.
 */
static void qp_notify(struct rocect_net *rn, const struct rocect_qp *qp,
		      enum rocect_event what, u64 seq)
{
	static const u8 cmd[] = {
		[ROCECT_EV_CREATE] = ROCECT_CMD_QP_CREATE_NTF,
		[ROCECT_EV_CHANGE] = ROCECT_CMD_QP_CHANGE_NTF,
		[ROCECT_EV_DELETE] = ROCECT_CMD_QP_DELETE_NTF,
	};
	struct sk_buff *msg;
	void *hdr;

	if (!genl_has_listeners(&rocect_nl_family, rn->net, ROCECT_NLGRP_EVENTS))
		return;
	msg = genlmsg_new(NLMSG_DEFAULT_SIZE, GFP_ATOMIC);
	if (!msg)
		return;
	hdr = genlmsg_put(msg, 0, 0, &rocect_nl_family, 0, cmd[what]);
	if (!hdr || fill_qp(msg, rn, qp) ||
	    nla_put_u64_64bit(msg, ROCECT_A_QP_EVENT_SEQ, seq, ROCECT_A_QP_PAD)) {
		nlmsg_free(msg);
		return;
	}
	genlmsg_end(msg, hdr);
	genlmsg_multicast_netns(&rocect_nl_family, rn->net, msg, 0,
				ROCECT_NLGRP_EVENTS, GFP_ATOMIC);
}

static const struct rocect_event_sink qp_events = {
	.send = qp_notify,
};

/* Asking for the family loads the module, as "rocect stats" does. */
MODULE_ALIAS_GENL_FAMILY(ROCECT_FAMILY_NAME);

/* Each uapi member where its list (roce_*.h) puts it, or no build. */
static const u8 uapi_class_agrees[ROCE_CLASS_MAX] __maybe_unused = {
#define ROCE_CLASS(name, str)	\
	[ROCE_CLASS_##name] = BUILD_BUG_ON_ZERO((int)ROCECT_CLASS_##name != \
						(int)ROCE_CLASS_##name),
#include "roce_classes.h"
#undef ROCE_CLASS
};

static const u8 uapi_malformed_agrees[ROCE_MAL_MAX] __maybe_unused = {
#define ROCE_MAL(name, str)	\
	[ROCE_MAL_##name] = BUILD_BUG_ON_ZERO((int)ROCECT_MALFORMED_##name != \
					      (int)ROCE_MAL_##name),
#include "roce_malformed.h"
#undef ROCE_MAL
};

static const u8 uapi_cm_agrees[ROCE_CM_KIND_MAX] __maybe_unused = {
#define ROCE_CM_ATTR(name, str)	\
	[ROCE_CM_KIND_##name] = BUILD_BUG_ON_ZERO((int)ROCECT_CM_##name != \
						  (int)ROCE_CM_KIND_##name),
#include "roce_cm_attrs.h"
#undef ROCE_CM_ATTR
};

/**
 * rocect_nl_init() - register the "rocect" family
 *
 * Return: 0 or a negative errno.
 */
int rocect_nl_init(void)
{
	int err;

	/* The uapi numbers the counters like the wire library's enums. */
	BUILD_BUG_ON((int)ROCECT_CM_OTHER != (int)ROCE_CM_KIND_OTHER);
	BUILD_BUG_ON((int)__ROCECT_CLASS_MAX != (int)ROCE_CLASS_MAX);
	BUILD_BUG_ON((int)__ROCECT_MALFORMED_MAX != (int)ROCE_MAL_MAX);
	BUILD_BUG_ON((int)__ROCECT_CM_MAX != (int)ROCE_CM_KIND_MAX);
	err = genl_register_family(&rocect_nl_family);
	if (err)
		return err;
	rocect_events_register(&qp_events);
	rocect_drop_report_ready(true);
	return 0;
}

/**
 * rocect_nl_exit() - unregister the family
 */
void rocect_nl_exit(void)
{
	rocect_drop_report_ready(false);
	rocect_events_unregister();
	genl_unregister_family(&rocect_nl_family);
}

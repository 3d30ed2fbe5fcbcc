// SPDX-License-Identifier: GPL-2.0
/*
 * The service policy's netlink commands: POLICY_NEW, POLICY_DEL,
 * POLICY_GET (a dump) and POLICY_FLUSH, and its events on the "events"
 * group: each change of the rules, and each REQ the policy refused. A
 * rule's attributes are checked here, each error naming its attribute;
 * the rules are kept by service_policy.c.
 */
#include <net/genetlink.h>
#include <uapi/linux/rocect.h>

#include "genl.h"
#include "netns.h"
#include "service_policy.h"
#include "wire.h"

static struct rocect_net *info_rn(struct genl_info *info)
{
	return rocect_net(genl_info_net(info));
}

static int fill_rule(struct sk_buff *skb, u32 index, const struct roce_rule *r,
		     u64 hits);

/*
 * Tell the events group of a change: @cmd with the rule at @index (none
 * for a flush). Sent after the change, from the request's context.
 */
static void policy_notify(struct rocect_net *rn, u8 cmd, u32 index,
			  const struct roce_rule *r, u64 hits)
{
	struct sk_buff *msg;
	void *hdr;

	if (!genl_has_listeners(&rocect_nl_family, rn->net, ROCECT_NLGRP_EVENTS))
		return;
	msg = genlmsg_new(NLMSG_DEFAULT_SIZE, GFP_KERNEL);
	if (!msg)
		return;
	hdr = genlmsg_put(msg, 0, 0, &rocect_nl_family, 0, cmd);
	if (!hdr || (r && fill_rule(msg, index, r, hits))) {
		nlmsg_free(msg);
		return;
	}
	genlmsg_end(msg, hdr);
	genlmsg_multicast_netns(&rocect_nl_family, rn->net, msg, 0,
				ROCECT_NLGRP_EVENTS, GFP_KERNEL);
}

/**
 * rocect_policy_refused_notify() - tell the events group of a refused REQ
 * @rn: the namespace's state
 * @pkt: the REQ or SIDR_REQ
 * @zone: its conntrack's zone
 * @action: what the policy did (&enum rocect_policy_action)
 * @index: the deciding rule's place, or -1 for policy-default
 *
 * The REQ's addresses (as prefixes of their whole length), zone and
 * Service ID, the action and the rule: what an operator needs to see why
 * a client cannot connect. Nothing is built without a listener.
 *
 * Context: the helper callback (softirq): allocates atomically.
 */
void rocect_policy_refused_notify(struct rocect_net *rn,
				  const struct roce_pkt *pkt, u16 zone,
				  u8 action, int index)
{
	bool v4 = pkt->family == 4;
	struct sk_buff *msg;
	void *hdr;

	if (!genl_has_listeners(&rocect_nl_family, rn->net, ROCECT_NLGRP_EVENTS))
		return;
	msg = genlmsg_new(NLMSG_DEFAULT_SIZE, GFP_ATOMIC);
	if (!msg)
		return;
	hdr = genlmsg_put(msg, 0, 0, &rocect_nl_family, 0,
			  ROCECT_CMD_POLICY_REFUSED_NTF);
	if (!hdr ||
	    (index >= 0 && nla_put_u32(msg, ROCECT_A_POLICY_INDEX, index)) ||
	    nla_put_u16(msg, ROCECT_A_POLICY_ZONE, zone) ||
	    nla_put(msg, v4 ? ROCECT_A_POLICY_SADDR4 : ROCECT_A_POLICY_SADDR6,
		    v4 ? 4 : 16, roce_pkt_saddr(pkt)) ||
	    nla_put(msg, v4 ? ROCECT_A_POLICY_DADDR4 : ROCECT_A_POLICY_DADDR6,
		    v4 ? 4 : 16, roce_pkt_daddr(pkt)) ||
	    nla_put_u64_64bit(msg, ROCECT_A_POLICY_SERVICE_ID,
			      pkt->cm.service_id, ROCECT_A_POLICY_PAD) ||
	    nla_put_u8(msg, ROCECT_A_POLICY_ACTION, action)) {
		nlmsg_free(msg);
		return;
	}
	genlmsg_end(msg, hdr);
	genlmsg_multicast_netns(&rocect_nl_family, rn->net, msg, 0,
				ROCECT_NLGRP_EVENTS, GFP_ATOMIC);
}

/* A prefix: its address attribute (IPv4 or IPv6) and its length. */
static int get_prefix(struct nlattr **tb, int a4, int a6, int alen, u8 *addr,
		      u8 *plen, u8 *family, struct netlink_ext_ack *extack)
{
	u8 fam, max;

	if (tb[a4] && tb[a6]) {
		NL_SET_ERR_MSG_ATTR(extack, tb[a6],
				    "give an IPv4 or an IPv6 prefix, not both");
		return -EINVAL;
	}
	if (!tb[a4] && !tb[a6]) {
		if (tb[alen]) {
			NL_SET_ERR_MSG_ATTR(extack, tb[alen],
					    "a prefix length without its address");
			return -EINVAL;
		}
		return 0;
	}
	fam = tb[a4] ? 4 : 6;
	if (*family && *family != fam) {
		NL_SET_ERR_MSG_ATTR(extack, tb[a4] ?: tb[a6],
				    "source and destination prefixes of different families");
		return -EINVAL;
	}
	*family = fam;
	max = fam == 4 ? 32 : 128;
	memset(addr, 0, 16);
	nla_memcpy(addr, tb[a4] ?: tb[a6], fam == 4 ? 4 : 16);
	*plen = tb[alen] ? nla_get_u8(tb[alen]) : max;
	if (*plen > max) {
		NL_SET_ERR_MSG_ATTR(extack, tb[alen],
				    "prefix longer than its family's addresses");
		return -EINVAL;
	}
	return 0;
}

/* A rule's match (and, for POLICY_NEW, its action) from a request. */
static int parse_rule(struct genl_info *info, struct roce_rule *r)
{
	struct netlink_ext_ack *extack = info->extack;
	struct nlattr **tb = info->attrs;
	int err;

	memset(r, 0, sizeof(*r));
	r->zone = tb[ROCECT_A_POLICY_ZONE] ?
		  nla_get_u16(tb[ROCECT_A_POLICY_ZONE]) : ROCE_RULE_ANY_ZONE;
	err = get_prefix(tb, ROCECT_A_POLICY_SADDR4, ROCECT_A_POLICY_SADDR6,
			 ROCECT_A_POLICY_SPREFIX, r->saddr, &r->splen,
			 &r->family, extack);
	if (err)
		return err;
	err = get_prefix(tb, ROCECT_A_POLICY_DADDR4, ROCECT_A_POLICY_DADDR6,
			 ROCECT_A_POLICY_DPREFIX, r->daddr, &r->dplen,
			 &r->family, extack);
	if (err)
		return err;
	if (tb[ROCECT_A_POLICY_SERVICE_MASK] && !tb[ROCECT_A_POLICY_SERVICE_ID]) {
		NL_SET_ERR_MSG_ATTR(extack, tb[ROCECT_A_POLICY_SERVICE_MASK],
				    "a service mask without its service ID");
		return -EINVAL;
	}
	if (tb[ROCECT_A_POLICY_SERVICE_ID]) {
		r->service_id = nla_get_u64(tb[ROCECT_A_POLICY_SERVICE_ID]);
		r->service_mask = tb[ROCECT_A_POLICY_SERVICE_MASK] ?
			nla_get_u64(tb[ROCECT_A_POLICY_SERVICE_MASK]) : ~0ULL;
		if (r->service_id & ~r->service_mask) {
			NL_SET_ERR_MSG_ATTR(extack, tb[ROCECT_A_POLICY_SERVICE_ID],
					    "service ID has bits outside its mask");
			return -EINVAL;
		}
	}
	if (tb[ROCECT_A_POLICY_ACTION])
		r->action = nla_get_u8(tb[ROCECT_A_POLICY_ACTION]);
	if (tb[ROCECT_A_POLICY_MARK])
		r->mark = nla_get_u32(tb[ROCECT_A_POLICY_MARK]);
	if (r->mark && r->action != ROCECT_POLICY_ACCEPT) {
		NL_SET_ERR_MSG_ATTR(extack, tb[ROCECT_A_POLICY_MARK],
				    "only an accepting rule marks flows");
		return -EINVAL;
	}
	if (!roce_rule_valid(r)) {
		NL_SET_ERR_MSG(extack, "prefix address has bits past its length");
		return -EINVAL;
	}
	return 0;
}

int rocect_nl_policy_new_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct nlattr *index = info->attrs[ROCECT_A_POLICY_INDEX];
	struct rocect_net *rn = info_rn(info);
	struct roce_rule r;
	int at;

	if (GENL_REQ_ATTR_CHECK(info, ROCECT_A_POLICY_ACTION))
		return -EINVAL;
	at = parse_rule(info, &r);
	if (at)
		return at;
	at = rocect_policy_insert(rn, &r, index ? nla_get_u32(index) : U32_MAX,
				  info->extack);
	if (at < 0)
		return at;
	policy_notify(rn, ROCECT_CMD_POLICY_ADD_NTF, at, &r, 0);
	return 0;
}

int rocect_nl_policy_del_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct nlattr *index = info->attrs[ROCECT_A_POLICY_INDEX];
	struct rocect_net *rn = info_rn(info);
	struct roce_rule r;
	int err, at;
	u64 hits;

	if (index) {
		at = nla_get_u32(index);
		if (at < 0)
			at = INT_MAX;
	} else {
		err = parse_rule(info, &r);
		if (err)
			return err;
		at = rocect_policy_find(rn, &r);
	}
	err = at < 0 ? at : rocect_policy_delete(rn, at, &r, &hits);
	if (err == -ENOENT)
		NL_SET_ERR_MSG(info->extack, "no such rule");
	if (!err)
		policy_notify(rn, ROCECT_CMD_POLICY_DEL_NTF, at, &r, hits);
	return err;
}

int rocect_nl_policy_flush_doit(struct sk_buff *skb, struct genl_info *info)
{
	rocect_policy_flush(info_rn(info));
	policy_notify(info_rn(info), ROCECT_CMD_POLICY_FLUSH_NTF, 0, NULL, 0);
	return 0;
}

static int put_prefix(struct sk_buff *skb, int a4, int a6, int alen,
		      const u8 *addr, u8 plen, u8 family)
{
	if (!family)
		return 0;
	if (family == 4 ? nla_put(skb, a4, 4, addr) : nla_put(skb, a6, 16, addr))
		return -EMSGSIZE;
	return nla_put_u8(skb, alen, plen);
}

static int fill_rule(struct sk_buff *skb, u32 index, const struct roce_rule *r,
		     u64 hits)
{
	if (nla_put_u32(skb, ROCECT_A_POLICY_INDEX, index) ||
	    (r->zone != ROCE_RULE_ANY_ZONE &&
	     nla_put_u16(skb, ROCECT_A_POLICY_ZONE, r->zone)) ||
	    put_prefix(skb, ROCECT_A_POLICY_SADDR4, ROCECT_A_POLICY_SADDR6,
		       ROCECT_A_POLICY_SPREFIX, r->saddr, r->splen, r->family) ||
	    put_prefix(skb, ROCECT_A_POLICY_DADDR4, ROCECT_A_POLICY_DADDR6,
		       ROCECT_A_POLICY_DPREFIX, r->daddr, r->dplen, r->family) ||
	    (r->service_mask &&
	     (nla_put_u64_64bit(skb, ROCECT_A_POLICY_SERVICE_ID, r->service_id,
				ROCECT_A_POLICY_PAD) ||
	      nla_put_u64_64bit(skb, ROCECT_A_POLICY_SERVICE_MASK,
				r->service_mask, ROCECT_A_POLICY_PAD))) ||
	    nla_put_u8(skb, ROCECT_A_POLICY_ACTION, r->action) ||
	    (r->mark && nla_put_u32(skb, ROCECT_A_POLICY_MARK, r->mark)) ||
	    nla_put_u64_64bit(skb, ROCECT_A_POLICY_HITS, hits,
			      ROCECT_A_POLICY_PAD))
		return -EMSGSIZE;
	return 0;
}

/*
 * One message per rule, from cb->args[0]; a change of the rules between
 * two messages flags the dump NLM_F_DUMP_INTR.
 */
int rocect_nl_policy_get_dumpit(struct sk_buff *skb, struct netlink_callback *cb)
{
	struct rocect_net *rn = rocect_net(sock_net(skb->sk));
	struct roce_rule r;
	u32 index, gen = 0;
	void *hdr;
	u64 hits;

	for (index = cb->args[0];
	     rocect_policy_rule(rn, index, &r, &hits, &gen); index++) {
		hdr = genlmsg_put(skb, NETLINK_CB(cb->skb).portid,
				  cb->nlh->nlmsg_seq, &rocect_nl_family,
				  NLM_F_MULTI, ROCECT_CMD_POLICY_GET);
		if (!hdr)
			break;
		if (fill_rule(skb, index, &r, hits)) {
			genlmsg_cancel(skb, hdr);
			break;
		}
		cb->seq = gen;
		genl_dump_check_consistent(cb, hdr);
		genlmsg_end(skb, hdr);
	}
	/* The last call too: NLMSG_DONE is checked against it. */
	if (gen)
		cb->seq = gen;
	cb->args[0] = index;
	return skb->len;
}

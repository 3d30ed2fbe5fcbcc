// SPDX-License-Identifier: GPL-2.0
/*
 * Conntrack expectations that tie a connection's other flows to the CM
 * conntrack: the REP's flow, then both directions' data flows, become
 * RELATED to it and run the helper too.
 */
#include <net/netfilter/nf_conntrack.h>
#include <net/netfilter/nf_conntrack_helper.h>

#include "expect.h"
#include "netns.h"

const struct nf_conntrack_expect_policy
rocect_expect_policy[ROCECT_EXP_CLASS_MAX + 1] = {
	[ROCECT_EXP_REVERSE] = {
		.name		= "reverse",
		.max_expected	= 64,
		.timeout	= 300,
	},
	[ROCECT_EXP_FORWARD] = {
		.name		= "forward",
		.max_expected	= 64,
		.timeout	= 300,
	},
};

static bool live(const struct nf_conn *ct)
{
	return !nf_ct_is_dying(ct) && !nf_ct_is_expired(ct);
}

/*
 * The CM flow that carried the REQ is the master of a connection's flows.
 * A CM packet on a flow that is itself expected (the REP's) names it; once
 * that master has timed out, the flow at hand takes its place, since
 * expectations of a dying master are never matched.
 */
static struct nf_conn *expect_master(struct nf_conn *ct)
{
	return ct->master && live(ct->master) ? ct->master : ct;
}

/*
 * Make room for @exp of @master; false if an expectation already does its
 * job. A REQ must not turn the permanent expectation of an established
 * connection between the same hosts into a one-shot one: the next flow
 * would use it up and the flows after it would not be related. One of
 * another master is removed, as @exp would clash with it (-EBUSY): that
 * happens when the CM flow of a REP outlives the one of its REQ.
 */
static bool make_room(struct nf_conn *master, struct nf_conntrack_expect *exp)
{
	struct nf_conntrack_expect *old;
	bool keep = false;

	old = nf_ct_expect_find_get(nf_ct_net(master), nf_ct_zone(master),
				    &exp->tuple);
	if (!old)
		return true;
	if (!(exp->flags & NF_CT_EXPECT_PERMANENT) &&
	    (old->flags & NF_CT_EXPECT_PERMANENT) &&
	    old->class == exp->class && live(old->master))
		keep = true;
	else if (old->master != master)
		nf_ct_unexpect_related(old);
	nf_ct_expect_put(old);
	return !keep;
}

/**
 * rocect_expect() - expect UDP flows from @src to @dst, RoCE port, any
 *	source port, related to the connection's CM flow
 * @rn: the namespace's state, for counting
 * @ct: the conntrack of the CM packet that calls for it
 * @class: &enum rocect_expect_class
 * @src: sender of the expected flows
 * @dst: their receiver
 * @permanent: admit every such flow until the expectation times out, not
 *	only the first
 *
 * The expected conntracks get this helper: through exp->assign_helper
 * where the kernel has it (6.1.169 and later 6.1), else through exp->helper,
 * which nf_ct_expect_init() sets to the master's helper.
 *
 * Context: rcu_read_lock() held; not under &rocect_net.lock.
 */
void rocect_expect(struct rocect_net *rn, struct nf_conn *ct,
		   enum rocect_expect_class class, const union nf_inet_addr *src,
		   const union nf_inet_addr *dst, bool permanent)
{
	struct nf_conn *master = expect_master(ct);
	__be16 dport = master->tuplehash[IP_CT_DIR_ORIGINAL].tuple.dst.u.udp.port;
	struct nf_conntrack_expect *exp;
	int err;

	exp = nf_ct_expect_alloc(master);
	if (!exp) {
		rocect_stats_inc(rn, ROCECT_CTR_EXPECT_FAILED);
		return;
	}
	nf_ct_expect_init(exp, class, nf_ct_l3num(master), src, dst,
			  IPPROTO_UDP, NULL, &dport);
	if (permanent)
		exp->flags |= NF_CT_EXPECT_PERMANENT;
	if (!make_room(master, exp))
		goto out;
#ifdef ROCECT_HAVE_EXP_ASSIGN_HELPER
	rcu_assign_pointer(exp->assign_helper,
			   rcu_dereference(nfct_help(master)->helper));
#endif
	err = nf_ct_expect_related(exp, 0);
	rocect_stats_inc(rn, err ? ROCECT_CTR_EXPECT_FAILED :
				   ROCECT_CTR_EXPECT_CREATED);
out:
	nf_ct_expect_put(exp);
}

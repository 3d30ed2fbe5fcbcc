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

/**
 * rocect_expect() - expect UDP flows from @src to @dst, RoCE port, any
 *	source port, related to @master
 * @rn: the namespace's state, for counting
 * @master: the connection's CM conntrack
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
void rocect_expect(struct rocect_net *rn, struct nf_conn *master,
		   enum rocect_expect_class class, const union nf_inet_addr *src,
		   const union nf_inet_addr *dst, bool permanent)
{
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
#ifdef ROCECT_HAVE_EXP_ASSIGN_HELPER
	rcu_assign_pointer(exp->assign_helper,
			   rcu_dereference(nfct_help(master)->helper));
#endif
	err = nf_ct_expect_related(exp, 0);
	nf_ct_expect_put(exp);
	rocect_stats_inc(rn, err ? ROCECT_CTR_EXPECT_FAILED :
				   ROCECT_CTR_EXPECT_CREATED);
}

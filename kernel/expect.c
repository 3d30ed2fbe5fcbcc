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
#include "offload.h"

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
 * A packet on a flow that is itself expected (the REP's, data) names it;
 * once that master has timed out, the flow at hand takes its place, since
 * expectations of a dying master are never matched. A flow that another
 * helper expected is no master of ours: its expectation classes, limits
 * and private data are that helper's.
 */
static struct nf_conn *expect_master(struct nf_conn *ct)
{
	struct nf_conn *m = ct->master;
	const struct nf_conntrack_helper *helper;
	const struct nf_conn_help *help;

	if (!m || !live(m))
		return ct;
	help = nfct_help(m);
	helper = help ? rcu_dereference(help->helper) : NULL;
	return helper && helper->me == THIS_MODULE ? m : ct;
}

/*
 * The flows an expectation from @src to @dst admits, as nf_ct_expect_init()
 * would put them: UDP to @dport, any source port. Built on the stack, so
 * that an expectation already in place costs no allocation.
 */
static void expected_tuple(struct nf_conntrack_tuple *t,
			   const struct nf_conn *master,
			   const union nf_inet_addr *src,
			   const union nf_inet_addr *dst, __be16 dport)
{
	size_t len = nf_ct_l3num(master) == NFPROTO_IPV4 ?
		     sizeof(src->ip) : sizeof(src->ip6);

	memset(t, 0, sizeof(*t));
	t->src.l3num = nf_ct_l3num(master);
	memcpy(&t->src.u3, src, len);
	memcpy(&t->dst.u3, dst, len);
	t->dst.protonum = IPPROTO_UDP;
	t->dst.u.udp.port = dport;
}

/* Jiffies until @exp expires: a timer's, or a 32-bit stamp's (Debian 6.1). */
static long expect_left(const struct nf_conntrack_expect *exp)
{
#ifdef ROCECT_HAVE_EXP_TIMEOUT_STAMP
	return (s32)(READ_ONCE(exp->timeout) - nfct_time_stamp);
#else
	return (long)(READ_ONCE(exp->timeout.expires) - jiffies);
#endif
}

/*
 * Does @old, found for the flows a new expectation of @master would admit,
 * already do its job? A REQ must not turn the permanent expectation of an
 * established connection between the same hosts into a one-shot one: the
 * next flow would use it up and the flows after it would not be related.
 * One of the same master and class good for more than half its timeout
 * is kept too (a one-shot one only where a one-shot one is asked for),
 * unless @flags asks for a renewal: replacing it would cost the
 * expectation lock, a timer and an RCU free for nothing on every
 * handshake between two hosts (an MPI job's thousands). One made in the
 * other offload mode does not: its flows would keep (or lack) the helper.
 */
static bool does_the_job(const struct nf_conntrack_expect *old,
			 const struct nf_conn *master,
			 enum rocect_expect_class class, unsigned int flags)
{
	bool old_permanent = old->flags & NF_CT_EXPECT_PERMANENT;
	long half = rocect_expect_policy[class].timeout * HZ / 2;
	bool old_offload = old->expectfn == rocect_offload_child;

	if (old->class != class ||
	    old_offload != !!(flags & ROCECT_EXP_OFFLOAD) ||
	    (!old_permanent && (flags & ROCECT_EXP_PERMANENT)))
		return false;
	if (old_permanent && !(flags & ROCECT_EXP_PERMANENT) &&
	    live(old->master))
		return true;
	return !(flags & ROCECT_EXP_RENEW) && old->master == master &&
	       expect_left(old) > half;
}

/*
 * Make room for an expectation of @master for @tuple; false if one already
 * does its job. One of another master is removed, as the new one would
 * clash with it (-EBUSY): that happens when the CM flow of a REP outlives
 * the one of its REQ.
 */
static bool make_room(struct nf_conn *master,
		      const struct nf_conntrack_tuple *tuple,
		      enum rocect_expect_class class, unsigned int flags)
{
	struct nf_conntrack_expect *old;
	bool keep = false;

	old = nf_ct_expect_find_get(nf_ct_net(master), nf_ct_zone(master),
				    tuple);
	if (!old)
		return true;
	if (does_the_job(old, master, class, flags))
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
 * @flags: &enum rocect_expect_flags
 *
 * The expected conntracks get this helper: through exp->assign_helper
 * where the kernel has it (6.1.169 and later 6.1), else through exp->helper,
 * which nf_ct_expect_init() sets to the master's helper. In offload mode
 * neither: rocect_offload_child() gives it to the flows that need it.
 *
 * Context: rcu_read_lock() held; not under &rocect_net.lock.
 */
void rocect_expect(struct rocect_net *rn, struct nf_conn *ct,
		   enum rocect_expect_class class, const union nf_inet_addr *src,
		   const union nf_inet_addr *dst, unsigned int flags)
{
	struct nf_conn *master = expect_master(ct);
	__be16 dport = master->tuplehash[IP_CT_DIR_ORIGINAL].tuple.dst.u.udp.port;
	struct nf_conntrack_expect *exp;
	struct nf_conntrack_tuple tuple;
	int err;

	if (rocect_cfg(&rn->config, offload))
		flags |= ROCECT_EXP_OFFLOAD;
	expected_tuple(&tuple, master, src, dst, dport);
	if (!make_room(master, &tuple, class, flags)) {
		rocect_stats_inc(rn, ROCECT_CTR_EXPECT_KEPT);
		return;
	}
	exp = nf_ct_expect_alloc(master);
	if (!exp) {
		rocect_stats_inc(rn, ROCECT_CTR_EXPECT_FAILED);
		return;
	}
	nf_ct_expect_init(exp, class, nf_ct_l3num(master), src, dst,
			  IPPROTO_UDP, NULL, &dport);
	if (flags & ROCECT_EXP_PERMANENT)
		exp->flags |= NF_CT_EXPECT_PERMANENT;
	if (flags & ROCECT_EXP_OFFLOAD) {
		/* No helper: rocect_offload_child() decides flow by flow. */
		exp->expectfn = rocect_offload_child;
		RCU_INIT_POINTER(exp->helper, NULL);
	} else {
#ifdef ROCECT_HAVE_EXP_ASSIGN_HELPER
		rcu_assign_pointer(exp->assign_helper,
				   rcu_dereference(nfct_help(master)->helper));
#endif
	}
	err = nf_ct_expect_related(exp, 0);
	rocect_stats_inc(rn, err ? ROCECT_CTR_EXPECT_FAILED :
				   ROCECT_CTR_EXPECT_CREATED);
	nf_ct_expect_put(exp);
}

/* A keepalive's period: a quarter of @idle, between 1 s and 60 s. */
static u32 keepalive_period(u32 idle)
{
	return clamp_t(u32, idle / 4, HZ, 60 * HZ);
}

/*
 * Hold @master until @deadline (jiffies) if it would go earlier: written
 * as nf_ct_refresh() would, which needs no packet for it. A timeout that
 * ctnetlink fixed (IPS_FIXED_TIMEOUT) is the operator's.
 */
static void hold_master(struct nf_conn *master, u32 deadline)
{
	s32 left = deadline - nfct_time_stamp;

	if (left <= 0 || test_bit(IPS_FIXED_TIMEOUT_BIT, &master->status))
		return;
	if (!nf_ct_is_confirmed(master))
		WRITE_ONCE(master->timeout, left);	/* made absolute later */
	else if ((s32)(READ_ONCE(master->timeout) - deadline) < 0)
		WRITE_ONCE(master->timeout, deadline);
}

/**
 * rocect_expect_rehold() - put back the hold that conntrack's UDP tracker
 *	cut short
 * @rn: the namespace's state
 * @master: a master that a keepalive holds
 * @renewed: its last renewal, jiffies
 *
 * For rocect_expect_hold(), which says why.
 */
void rocect_expect_rehold(struct rocect_net *rn, struct nf_conn *master,
			  u32 renewed)
{
	u32 idle = rocect_cfg(&rn->config, idle_timeout) * HZ;

	hold_master(master, renewed + idle + keepalive_period(idle));
}

/* Hold @master until @deadline and expect its flows afresh. */
static void renew(struct rocect_net *rn, struct nf_conn *master, u32 deadline,
		  const union nf_inet_addr *active,
		  const union nf_inet_addr *passive, bool reverse)
{
	hold_master(master, deadline);
	if (reverse)
		rocect_expect(rn, master, ROCECT_EXP_REVERSE, passive, active,
			      ROCECT_EXP_PERMANENT | ROCECT_EXP_RENEW);
	rocect_expect(rn, master, ROCECT_EXP_FORWARD, active, passive,
		      ROCECT_EXP_PERMANENT | ROCECT_EXP_RENEW);
}

/**
 * rocect_expect_keepalive() - keep a live connection's flows related
 * @rn: the namespace's state
 * @ct: the conntrack of a packet of the established connection
 * @active: the side that sent REQ
 * @passive: the other side
 * @reverse: also expect flows towards @active (not for UD services)
 *
 * RDMA connections can be silent on the CM for hours, but their CM
 * conntrack is an unreplied UDP flow that dies after 30 s and takes the
 * expectations with it: new data flows (after a pause longer than their
 * own UDP timeout) would no longer be RELATED. So, at most once per
 * period, the master is held for the idle timeout and a period more, and
 * the permanent expectations are renewed on it (an expectation of the
 * same master and class replaces the old one atomically); between
 * renewals, a hold that a MAD cut short (rocect_expect_hold()) is put
 * back. When the connection goes idle for good, master and expectations
 * expire with its entries.
 *
 * Context: the helper callback; rcu_read_lock() held, not &rocect_net.lock.
 */
void rocect_expect_keepalive(struct rocect_net *rn, struct nf_conn *ct,
			     const union nf_inet_addr *active,
			     const union nf_inet_addr *passive, bool reverse)
{
	struct nf_conn *master = expect_master(ct);
	u32 idle = rocect_cfg(&rn->config, idle_timeout) * HZ;
	u32 period = keepalive_period(idle);
	u32 now = jiffies, last, *stamp;

	/* The helper's private area of the master holds the last renewal. */
	if (!nfct_help(master))
		return;
	stamp = &rocect_ct_priv(master)->renewed;
	last = READ_ONCE(*stamp);
	if (last && now - last < period) {
		hold_master(master, last + idle + period);
		return;
	}
	if (cmpxchg(stamp, last, now ?: 1) != last)
		return;		/* another CPU renews it */
	renew(rn, master, now + idle + period, active, passive, reverse);
}

/**
 * rocect_expect_renew() - rocect_expect_keepalive() now, whenever the last
 *	renewal was
 * @rn: the namespace's state
 * @ct: the conntrack of a data flow of the established connection
 * @active: the side that sent REQ
 * @passive: the other side
 * @reverse: also expect flows towards @active
 *
 * For a connection whose expectations were made under another offload
 * mode (rocect_offload_age()): its next flows must come through ones of
 * the mode in force.
 *
 * Context: as rocect_expect_keepalive().
 * Return: true if renewed; false if @ct has no live CM master of rocect's
 * to renew them on (they would hang off @ct itself).
 */
bool rocect_expect_renew(struct rocect_net *rn, struct nf_conn *ct,
			 const union nf_inet_addr *active,
			 const union nf_inet_addr *passive, bool reverse)
{
	struct nf_conn *master = expect_master(ct);
	u32 idle = rocect_cfg(&rn->config, idle_timeout) * HZ;
	u32 now = jiffies;

	if (master == ct || !nfct_help(master))
		return false;
	WRITE_ONCE(rocect_ct_priv(master)->renewed, now ?: 1);
	renew(rn, master, now + idle + keepalive_period(idle), active, passive,
	      reverse);
	return true;
}

/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _ROCECT_NETNS_H
#define _ROCECT_NETNS_H

#include <net/net_namespace.h>
#include <net/netns/generic.h>

#include <linux/spinlock.h>
#include <linux/workqueue.h>

#include "config.h"
#include "conn.h"
#include "cnp_policy.h"
#include "qp.h"
#include "stats.h"

/**
 * enum rocect_event - what happened to a QP entry
 * @ROCECT_EV_CREATE: it entered the table
 * @ROCECT_EV_CHANGE: its state changed
 * @ROCECT_EV_DELETE: it left the table
 */
enum rocect_event {
	ROCECT_EV_CREATE,
	ROCECT_EV_CHANGE,
	ROCECT_EV_DELETE,
};

/*
 * Events one hold of the lock causes at most: a REP that replaces the
 * finished connections holding both its keys deletes four entries and
 * creates two (their state changes ride on the creations).
 */
#define ROCECT_EVENTS_MAX	8

/**
 * struct rocect_events - QP events queued under &rocect_net.lock
 * @n: events queued
 * @what: &enum rocect_event of each
 * @seq: the namespace's sequence number of each, taken under the lock
 * @qp: the entry of each, read when the event is sent: the lock holder
 *	is inside rcu_read_lock(), so even a deleted entry is still there
 */
struct rocect_events {
	unsigned int n;
	u8 what[ROCECT_EVENTS_MAX];
	u64 seq[ROCECT_EVENTS_MAX];
	struct rocect_qp *qp[ROCECT_EVENTS_MAX];
};

/**
 * struct rocect_event_sink - where events go once the lock is dropped
 * @send: sends one with its sequence number; called under RCU, in the
 *	context of the lock's holder (softirq for the packet path)
 */
struct rocect_event_sink {
	void (*send)(struct rocect_net *rn, const struct rocect_qp *qp,
		     enum rocect_event what, u64 seq);
};

void rocect_events_register(const struct rocect_event_sink *sink);
void rocect_events_unregister(void);
void rocect_net_lock(struct rocect_net *rn, struct rocect_events *ev);
void rocect_net_unlock(struct rocect_net *rn, struct rocect_events *ev);
void rocect_event(struct rocect_net *rn, struct rocect_qp *qp,
		  enum rocect_event what);
void rocect_event_now(struct rocect_net *rn, struct rocect_qp *qp,
		      enum rocect_event what);

struct rocect_learn;
struct rocect_policy;

/**
 * struct rocect_net - all of rocect's state in one network namespace
 * @net: the namespace
 * @stats: per-CPU counters
 * @config: runtime configuration
 * @lock: serialises changes of @qps and @conns; lookups need only RCU.
 *	Taken with rocect_net_lock(), which sends the changes' events after
 *	it is dropped
 * @events: the current lock holder's queued events
 * @event_seq: the sequence number of the newest event: events are sent
 *	after the lock is dropped, maybe from two CPUs at once, so a
 *	listener orders them by it
 * @qps: the QP table
 * @conns: the tracked CM connections
 * @np: the CNP budget
 * @rej: the service policy's REJ budget
 * @drop_events: the drops group's budget of events (drop_report.c)
 * @drops_unreported: drops over that budget since the last event sent
 * @learn: learning's records, allocated when learn is first set on or
 *	unknown-qp first goes to drop (which recovers adopted flows' pairs)
 * @gc: the collector (gc.c), which ages both tables
 * @guard_hooks: the guard's netdev hooks (guard.c), under the RTNL
 * @policy: the service policy's rules (service_policy.c), or NULL
 * @policy_gen: their generation, for dumps
 */
struct rocect_net {
	struct net *net;
	struct rocect_stats __percpu *stats;
	struct rocect_config config;
	spinlock_t lock;	/* changes of qps and conns */
	struct rocect_events *events;
	atomic64_t event_seq;
	struct rocect_qp_table qps;
	struct rocect_conn_table conns;
	struct rocect_cnp_bucket np;
	struct rocect_cnp_bucket rej;
	struct rocect_cnp_bucket drop_events;
	/* Bumped by every CPU in a flood: not beside the buckets' locks. */
	atomic64_t drops_unreported ____cacheline_aligned_in_smp;
	struct rocect_learn *learn;
	struct delayed_work gc;
	struct list_head guard_hooks;
	struct rocect_policy __rcu *policy;
	u32 policy_gen;
};

extern unsigned int rocect_net_id;

/**
 * rocect_net() - rocect's state in a namespace
 * @net: the namespace
 *
 * Inline: the helper asks for it on every packet.
 *
 * Return: the state; valid while @net is alive.
 */
static inline struct rocect_net *rocect_net(const struct net *net)
{
	return net_generic(net, rocect_net_id);
}

/**
 * rocect_net_rcu() - rocect_net() for a caller inside an RCU read section
 * @net: the namespace
 *
 * net_generic() takes its own rcu_read_lock(): on a preemptible-RCU kernel
 * (Debian's, with PREEMPT_DYNAMIC) two calls a packet that the helper,
 * which netfilter runs under rcu_read_lock(), does not need.
 *
 * Context: rcu_read_lock() held.
 * Return: the namespace's state.
 */
static inline struct rocect_net *rocect_net_rcu(const struct net *net)
{
	return rcu_dereference(net->gen)->ptr[rocect_net_id];
}

#endif /* _ROCECT_NETNS_H */

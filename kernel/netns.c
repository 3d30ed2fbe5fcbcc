// SPDX-License-Identifier: GPL-2.0
/*
 * The handle on a namespace's state (rocect_net(); pernet.c makes and
 * destroys it), its lock and the QP events its holders cause: the tables
 * change under
 * &rocect_net.lock and queue their events; the unlock hands them to the
 * sink (netlink.c registers one) once the lock is dropped. So no sink runs
 * under the lock, and every event shows its entry as it is after the
 * change.
 */
#include <linux/rcupdate.h>
#include <net/netns/generic.h>

#include "netns.h"
#include "offload.h"
#include "qp_cong.h"

unsigned int rocect_net_id __read_mostly;
static const struct rocect_event_sink __rcu *event_sink;

/**
 * rocect_events_register() - send events from now on
 * @sink: where to
 */
void rocect_events_register(const struct rocect_event_sink *sink)
{
	rcu_assign_pointer(event_sink, sink);
}

/**
 * rocect_events_unregister() - stop sending events
 *
 * Context: process context; returns once no call to the sink is running.
 */
void rocect_events_unregister(void)
{
	RCU_INIT_POINTER(event_sink, NULL);
	synchronize_rcu();
}

/**
 * rocect_net_lock() - take the namespace's lock to change its tables
 * @rn: the namespace's state
 * @ev: where the events of this hold queue, until rocect_net_unlock()
 */
void rocect_net_lock(struct rocect_net *rn, struct rocect_events *ev)
	__acquires(RCU) __acquires(&rn->lock)
{
	ev->n = 0;
	/* Keeps entries deleted under the lock readable until sent. */
	rcu_read_lock();
	spin_lock_bh(&rn->lock);
	rn->events = ev;
}

/**
 * rocect_net_unlock() - drop the namespace's lock, then send its events
 * @rn: the namespace's state
 * @ev: the events the hold queued
 */
void rocect_net_unlock(struct rocect_net *rn, struct rocect_events *ev)
	__releases(&rn->lock) __releases(RCU)
{
	const struct rocect_event_sink *sink;
	unsigned int i;

	rn->events = NULL;
	spin_unlock_bh(&rn->lock);
	sink = rcu_dereference(event_sink);
	for (i = 0; sink && i < ev->n; i++)
		sink->send(rn, ev->qp[i], ev->what[i], ev->seq[i]);
	/* A delete event shows the counters of its entry's congestion. */
	for (i = 0; i < ev->n; i++)
		if (ev->what[i] == ROCECT_EV_DELETE)
			rocect_qp_cong_forget(rn, ev->qp[i]);
	if (rocect_cfg(&rn->config, offload))
		for (i = 0; i < ev->n; i++)
			rocect_offload_settle(rn, ev->qp[i], ev->what[i]);
	rcu_read_unlock();
}

/**
 * rocect_event_now() - send an entry's event from a lock-free change
 * @rn: the namespace's state
 * @qp: the entry, which the caller's RCU read section keeps readable
 * @what: &enum rocect_event
 *
 * For changes that the packet path makes without the lock (an entry's
 * binding to its sender, by cmpxchg): once per entry, so the lock it
 * takes to number the event after the entry's CREATE and before its
 * DELETE costs one acquisition per entry. An entry deleted meanwhile had
 * its delete event: this one is not sent.
 *
 * Context: under rcu_read_lock(), &rocect_net.lock not held.
 */
void rocect_event_now(struct rocect_net *rn, struct rocect_qp *qp,
		      enum rocect_event what)
{
	struct rocect_events ev;

	rocect_net_lock(rn, &ev);
	if (qp->linked)
		rocect_event(rn, qp, what);
	rocect_net_unlock(rn, &ev);
}

/**
 * rocect_event() - queue an entry's event until the lock is dropped
 * @rn: the namespace's state
 * @qp: the entry
 * @what: &enum rocect_event
 *
 * A change of an entry that already has an event queued adds none: that
 * one is sent after the change and shows it.
 *
 * Context: &rocect_net.lock held, taken by rocect_net_lock().
 */
void rocect_event(struct rocect_net *rn, struct rocect_qp *qp,
		  enum rocect_event what)
{
	struct rocect_events *ev = rn->events;
	unsigned int i;

	lockdep_assert_held(&rn->lock);
	if (WARN_ON_ONCE(!ev))
		return;
	if (what == ROCECT_EV_CHANGE)
		for (i = 0; i < ev->n; i++)
			if (ev->qp[i] == qp && ev->what[i] != ROCECT_EV_DELETE)
				return;
	/* More than one hold can cause: a bug, not an input. */
	if (WARN_ON_ONCE(ev->n == ROCECT_EVENTS_MAX)) {
		/* The event is lost; the congestion record must not be. */
		if (what == ROCECT_EV_DELETE)
			rocect_qp_cong_forget(rn, qp);
		return;
	}
	ev->qp[ev->n] = qp;
	ev->seq[ev->n] = atomic64_inc_return(&rn->event_seq);
	ev->what[ev->n++] = what;
}

/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _ROCECT_EVENTS_H
#define _ROCECT_EVENTS_H

#include <linux/types.h>

struct net;
struct rocect_net;
struct rocect_qp;

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
 * @qp: the entry of each, read when the event is sent: the lock holder
 *	is inside rcu_read_lock(), so even a deleted entry is still there
 */
struct rocect_events {
	unsigned int n;
	u8 what[ROCECT_EVENTS_MAX];
	struct rocect_qp *qp[ROCECT_EVENTS_MAX];
};

/**
 * struct rocect_event_sink - where events go once the lock is dropped
 * @send: sends one; called under RCU, in the context of the lock's holder
 *	(softirq for the packet path)
 */
struct rocect_event_sink {
	void (*send)(struct net *net, const struct rocect_qp *qp,
		     enum rocect_event what);
};

void rocect_events_register(const struct rocect_event_sink *sink);
void rocect_events_unregister(void);
void rocect_net_lock(struct rocect_net *rn, struct rocect_events *ev);
void rocect_net_unlock(struct rocect_net *rn, struct rocect_events *ev);
void rocect_event(struct rocect_net *rn, struct rocect_qp *qp,
		  enum rocect_event what);
void rocect_event_now(struct rocect_net *rn, const struct rocect_qp *qp,
		      enum rocect_event what);

#endif /* _ROCECT_EVENTS_H */

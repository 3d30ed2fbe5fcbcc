/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The IB CM connection state machine as a middlebox sees it. Pure: no
 * kernel-only API, shared with the userspace unit tests.
 */
#ifndef _ROCECT_CM_FSM_H
#define _ROCECT_CM_FSM_H

#include "wire.h"

/**
 * enum roce_cm_state - a tracked connection's state
 * @ROCE_CS_NONE: no connection (before REQ, or after it was forgotten)
 * @ROCE_CS_REQ: REQ seen (SIDR_REQ for UD service resolution)
 * @ROCE_CS_REP: REP seen, RTU not yet
 * @ROCE_CS_ESTABLISHED: RTU seen, or data to the passive side's QP (a lost
 *	RTU, as Linux's COMM_EST), or an accepting SIDR_REP
 * @ROCE_CS_DISCONNECTING: DREQ seen
 * @ROCE_CS_TIMEWAIT: DREP seen; the connection is gone after a while
 * @ROCE_CS_REJECTED: REJ seen, or a SIDR_REP refusing; gone after a while
 *
 * The values after NONE are those of the uapi's enum rocect_state plus one.
 */
enum roce_cm_state {
	ROCE_CS_NONE,
	ROCE_CS_REQ,
	ROCE_CS_REP,
	ROCE_CS_ESTABLISHED,
	ROCE_CS_DISCONNECTING,
	ROCE_CS_TIMEWAIT,
	ROCE_CS_REJECTED,
};

/**
 * enum roce_cm_event - what the tracker observed
 * @ROCE_CM_EV_REQ: REQ (from the active side)
 * @ROCE_CM_EV_MRA: MRA (either side)
 * @ROCE_CM_EV_REJ: REJ (either side)
 * @ROCE_CM_EV_REP: REP (from the passive side)
 * @ROCE_CM_EV_RTU: RTU (from the active side)
 * @ROCE_CM_EV_DREQ: DREQ (either side)
 * @ROCE_CM_EV_DREP: DREP (either side)
 * @ROCE_CM_EV_SIDR_REQ: SIDR_REQ
 * @ROCE_CM_EV_SIDR_REP_OK: SIDR_REP with status 0 (QPN valid)
 * @ROCE_CM_EV_SIDR_REP_FAIL: SIDR_REP with another status
 * @ROCE_CM_EV_DATA_TO_PASSIVE: a data packet to the passive side's QP
 * @ROCE_CM_EV_PATH: LAP or APR: counted, no state change
 */
enum roce_cm_event {
	ROCE_CM_EV_REQ,
	ROCE_CM_EV_MRA,
	ROCE_CM_EV_REJ,
	ROCE_CM_EV_REP,
	ROCE_CM_EV_RTU,
	ROCE_CM_EV_DREQ,
	ROCE_CM_EV_DREP,
	ROCE_CM_EV_SIDR_REQ,
	ROCE_CM_EV_SIDR_REP_OK,
	ROCE_CM_EV_SIDR_REP_FAIL,
	ROCE_CM_EV_DATA_TO_PASSIVE,
	ROCE_CM_EV_PATH,
};

/**
 * enum roce_cm_action - what the tracker must do besides changing state
 * @ROCE_CM_ACT_NONE: nothing (a duplicate or a message changing nothing)
 * @ROCE_CM_ACT_CREATE: create the connection from the REQ or SIDR_REQ
 * @ROCE_CM_ACT_REPLACE: forget the old connection, create a new one: the
 *	key came back after TIMEWAIT or a reject
 * @ROCE_CM_ACT_ACCEPT: learn the passive side (REP, accepting SIDR_REP):
 *	create the QP entries and the data expectations
 * @ROCE_CM_ACT_UPDATE: the state changed; announce it
 * @ROCE_CM_ACT_UNEXPECTED: the message does not fit the state; ignored
 *	and counted
 */
enum roce_cm_action {
	ROCE_CM_ACT_NONE,
	ROCE_CM_ACT_CREATE,
	ROCE_CM_ACT_REPLACE,
	ROCE_CM_ACT_ACCEPT,
	ROCE_CM_ACT_UPDATE,
	ROCE_CM_ACT_UNEXPECTED,
};

enum roce_cm_action roce_cm_step(enum roce_cm_state state,
				 enum roce_cm_event ev,
				 enum roce_cm_state *next);
bool roce_cm_event_of(const struct roce_cm *cm, enum roce_cm_event *ev);

#endif /* _ROCECT_CM_FSM_H */

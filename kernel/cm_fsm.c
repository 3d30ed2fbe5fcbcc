// SPDX-License-Identifier: GPL-2.0
/*
 * The IB CM state machine (IBTA vol. 1, 12.9) reduced to what an observer
 * on the path can know: it sees both sides' messages, may miss some, and
 * sees retransmissions. Duplicates change nothing; a lost RTU is made up
 * for by the first data packet to the passive side's QP.
 */
#include "cm_fsm.h"

/**
 * roce_cm_event_of() - the tracker event of a CM message
 * @cm: the parsed message
 * @ev: the event
 *
 * Return: false for attributes the tracker ignores (ClassPortInfo, ...).
 */
bool roce_cm_event_of(const struct roce_cm *cm, enum roce_cm_event *ev)
{
	switch (cm->attr_id) {
	case ROCE_CM_REQ:
		*ev = ROCE_CM_EV_REQ;
		return true;
	case ROCE_CM_MRA:
		*ev = ROCE_CM_EV_MRA;
		return true;
	case ROCE_CM_REJ:
		*ev = ROCE_CM_EV_REJ;
		return true;
	case ROCE_CM_REP:
		*ev = ROCE_CM_EV_REP;
		return true;
	case ROCE_CM_RTU:
		*ev = ROCE_CM_EV_RTU;
		return true;
	case ROCE_CM_DREQ:
		*ev = ROCE_CM_EV_DREQ;
		return true;
	case ROCE_CM_DREP:
		*ev = ROCE_CM_EV_DREP;
		return true;
	case ROCE_CM_SIDR_REQ:
		*ev = ROCE_CM_EV_SIDR_REQ;
		return true;
	case ROCE_CM_SIDR_REP:
		*ev = cm->sidr_status ? ROCE_CM_EV_SIDR_REP_FAIL :
					ROCE_CM_EV_SIDR_REP_OK;
		return true;
	case ROCE_CM_LAP:
	case ROCE_CM_APR:
		*ev = ROCE_CM_EV_PATH;
		return true;
	default:
		return false;
	}
}

static enum roce_cm_action go(enum roce_cm_state *next, enum roce_cm_state to,
			      enum roce_cm_action act)
{
	*next = to;
	return act;
}

/**
 * roce_cm_step() - one transition
 * @state: the connection's state (%ROCE_CS_NONE: no connection yet)
 * @ev: what was seen
 * @next: the state after it (unchanged for %ROCE_CM_ACT_NONE and
 *	%ROCE_CM_ACT_UNEXPECTED)
 *
 * Return: what to do.
 */
enum roce_cm_action roce_cm_step(enum roce_cm_state state,
				 enum roce_cm_event ev,
				 enum roce_cm_state *next)
{
	*next = state;

	/* A REQ for a key that is over and done starts afresh. */
	if (ev == ROCE_CM_EV_REQ || ev == ROCE_CM_EV_SIDR_REQ) {
		if (state == ROCE_CS_NONE)
			return go(next, ROCE_CS_REQ, ROCE_CM_ACT_CREATE);
		if (state == ROCE_CS_TIMEWAIT || state == ROCE_CS_REJECTED)
			return go(next, ROCE_CS_REQ, ROCE_CM_ACT_REPLACE);
		return ROCE_CM_ACT_NONE;	/* retransmitted or late */
	}
	if (state == ROCE_CS_NONE)
		return ROCE_CM_ACT_UNEXPECTED;	/* began before we looked */

	switch (ev) {
	case ROCE_CM_EV_MRA:
	case ROCE_CM_EV_PATH:
		return ROCE_CM_ACT_NONE;
	case ROCE_CM_EV_REJ:
		if (state == ROCE_CS_REQ || state == ROCE_CS_REP)
			return go(next, ROCE_CS_REJECTED, ROCE_CM_ACT_UPDATE);
		if (state == ROCE_CS_REJECTED)
			return ROCE_CM_ACT_NONE;
		return ROCE_CM_ACT_UNEXPECTED;
	case ROCE_CM_EV_REP:
		if (state == ROCE_CS_REQ)
			return go(next, ROCE_CS_REP, ROCE_CM_ACT_ACCEPT);
		if (state == ROCE_CS_REP || state == ROCE_CS_ESTABLISHED)
			return ROCE_CM_ACT_NONE;
		return ROCE_CM_ACT_UNEXPECTED;
	case ROCE_CM_EV_RTU:
	case ROCE_CM_EV_DATA_TO_PASSIVE:
		if (state == ROCE_CS_REP)
			return go(next, ROCE_CS_ESTABLISHED, ROCE_CM_ACT_UPDATE);
		if (state == ROCE_CS_ESTABLISHED || ev != ROCE_CM_EV_RTU)
			return ROCE_CM_ACT_NONE;
		return ROCE_CM_ACT_UNEXPECTED;
	case ROCE_CM_EV_DREQ:
		if (state == ROCE_CS_REP || state == ROCE_CS_ESTABLISHED)
			return go(next, ROCE_CS_DISCONNECTING,
				  ROCE_CM_ACT_UPDATE);
		if (state == ROCE_CS_DISCONNECTING || state == ROCE_CS_TIMEWAIT)
			return ROCE_CM_ACT_NONE;
		return ROCE_CM_ACT_UNEXPECTED;
	case ROCE_CM_EV_DREP:
		/* A DREP after a lost DREQ still ends the connection. */
		if (state == ROCE_CS_DISCONNECTING ||
		    state == ROCE_CS_ESTABLISHED || state == ROCE_CS_REP)
			return go(next, ROCE_CS_TIMEWAIT, ROCE_CM_ACT_UPDATE);
		if (state == ROCE_CS_TIMEWAIT)
			return ROCE_CM_ACT_NONE;
		return ROCE_CM_ACT_UNEXPECTED;
	case ROCE_CM_EV_SIDR_REP_OK:
		if (state == ROCE_CS_REQ)
			return go(next, ROCE_CS_ESTABLISHED, ROCE_CM_ACT_ACCEPT);
		if (state == ROCE_CS_ESTABLISHED)
			return ROCE_CM_ACT_NONE;
		return ROCE_CM_ACT_UNEXPECTED;
	case ROCE_CM_EV_SIDR_REP_FAIL:
		if (state == ROCE_CS_REQ)
			return go(next, ROCE_CS_REJECTED, ROCE_CM_ACT_UPDATE);
		if (state == ROCE_CS_REJECTED)
			return ROCE_CM_ACT_NONE;
		return ROCE_CM_ACT_UNEXPECTED;
	default:
		return ROCE_CM_ACT_UNEXPECTED;
	}
}

// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of the CM connection state machine (kernel/cm_fsm.c), and the
 * TAP helpers shared with wire_test.c.
 */
#include "cm_fsm.h"
#include "tap.h"

int passed, failed, ntest;

void result(bool ok, const char *fmt, ...)
{
	va_list ap;

	printf("%s %d - ", ok ? "ok" : "not ok", ++ntest);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
	if (ok)
		passed++;
	else
		failed++;
}

/* A state's name in the failure messages. */
static const char *roce_cm_state_name(enum roce_cm_state state)
{
	static const char * const names[] = {
		[ROCE_CS_NONE] = "none",
		[ROCE_CS_REQ] = "req",
		[ROCE_CS_REP] = "rep",
		[ROCE_CS_ESTABLISHED] = "established",
		[ROCE_CS_DISCONNECTING] = "disconnecting",
		[ROCE_CS_TIMEWAIT] = "timewait",
		[ROCE_CS_REJECTED] = "rejected",
	};

	return (unsigned int)state < ARRAY_SIZE(names) ? names[state] : "?";
}

struct step {
	enum roce_cm_state from;
	enum roce_cm_event ev;
	enum roce_cm_action act;
	enum roce_cm_state to;
};

/* Run a sequence of events from NONE, checking each action and state. */
static bool run(const char *name, const struct step *steps, int n)
{
	enum roce_cm_state state = ROCE_CS_NONE, next;
	enum roce_cm_action act;
	bool ok = true;
	int i;

	for (i = 0; i < n; i++) {
		if (steps[i].from != state) {
			printf("#   %s step %d: in %s, expected %s\n", name, i,
			       roce_cm_state_name(state),
			       roce_cm_state_name(steps[i].from));
			return false;
		}
		act = roce_cm_step(state, steps[i].ev, &next);
		if (act != steps[i].act || next != steps[i].to) {
			printf("#   %s step %d: action %d to %s, expected %d to %s\n",
			       name, i, act, roce_cm_state_name(next),
			       steps[i].act, roce_cm_state_name(steps[i].to));
			ok = false;
		}
		state = next;
	}
	return ok;
}

#define RUN(name, ...) do {						\
	const struct step s[] = { __VA_ARGS__ };			\
	const char *n = (name);						\
	result(run(n, s, ARRAY_SIZE(s)), "CM state machine: %s", n);	\
} while (0)

static void test_sequences(void)
{
	RUN("REQ, REP, RTU, DREQ, DREP",
	    { ROCE_CS_NONE, ROCE_CM_EV_REQ, ROCE_CM_ACT_CREATE, ROCE_CS_REQ },
	    { ROCE_CS_REQ, ROCE_CM_EV_REP, ROCE_CM_ACT_ACCEPT, ROCE_CS_REP },
	    { ROCE_CS_REP, ROCE_CM_EV_RTU, ROCE_CM_ACT_UPDATE,
	      ROCE_CS_ESTABLISHED },
	    { ROCE_CS_ESTABLISHED, ROCE_CM_EV_DREQ, ROCE_CM_ACT_UPDATE,
	      ROCE_CS_DISCONNECTING },
	    { ROCE_CS_DISCONNECTING, ROCE_CM_EV_DREP, ROCE_CM_ACT_UPDATE,
	      ROCE_CS_TIMEWAIT });
	RUN("every message twice: duplicates change nothing",
	    { ROCE_CS_NONE, ROCE_CM_EV_REQ, ROCE_CM_ACT_CREATE, ROCE_CS_REQ },
	    { ROCE_CS_REQ, ROCE_CM_EV_REQ, ROCE_CM_ACT_NONE, ROCE_CS_REQ },
	    { ROCE_CS_REQ, ROCE_CM_EV_REP, ROCE_CM_ACT_ACCEPT, ROCE_CS_REP },
	    { ROCE_CS_REP, ROCE_CM_EV_REP, ROCE_CM_ACT_NONE, ROCE_CS_REP },
	    { ROCE_CS_REP, ROCE_CM_EV_REQ, ROCE_CM_ACT_NONE, ROCE_CS_REP },
	    { ROCE_CS_REP, ROCE_CM_EV_RTU, ROCE_CM_ACT_UPDATE,
	      ROCE_CS_ESTABLISHED },
	    { ROCE_CS_ESTABLISHED, ROCE_CM_EV_RTU, ROCE_CM_ACT_NONE,
	      ROCE_CS_ESTABLISHED },
	    { ROCE_CS_ESTABLISHED, ROCE_CM_EV_REP, ROCE_CM_ACT_NONE,
	      ROCE_CS_ESTABLISHED },
	    { ROCE_CS_ESTABLISHED, ROCE_CM_EV_DREQ, ROCE_CM_ACT_UPDATE,
	      ROCE_CS_DISCONNECTING },
	    { ROCE_CS_DISCONNECTING, ROCE_CM_EV_DREQ, ROCE_CM_ACT_NONE,
	      ROCE_CS_DISCONNECTING },
	    { ROCE_CS_DISCONNECTING, ROCE_CM_EV_DREP, ROCE_CM_ACT_UPDATE,
	      ROCE_CS_TIMEWAIT },
	    { ROCE_CS_TIMEWAIT, ROCE_CM_EV_DREP, ROCE_CM_ACT_NONE,
	      ROCE_CS_TIMEWAIT },
	    { ROCE_CS_TIMEWAIT, ROCE_CM_EV_DREQ, ROCE_CM_ACT_NONE,
	      ROCE_CS_TIMEWAIT });
	RUN("MRA then REP",
	    { ROCE_CS_NONE, ROCE_CM_EV_REQ, ROCE_CM_ACT_CREATE, ROCE_CS_REQ },
	    { ROCE_CS_REQ, ROCE_CM_EV_MRA, ROCE_CM_ACT_NONE, ROCE_CS_REQ },
	    { ROCE_CS_REQ, ROCE_CM_EV_REP, ROCE_CM_ACT_ACCEPT, ROCE_CS_REP },
	    { ROCE_CS_REP, ROCE_CM_EV_MRA, ROCE_CM_ACT_NONE, ROCE_CS_REP });
	RUN("lost RTU: data to the passive QP establishes",
	    { ROCE_CS_NONE, ROCE_CM_EV_REQ, ROCE_CM_ACT_CREATE, ROCE_CS_REQ },
	    { ROCE_CS_REQ, ROCE_CM_EV_REP, ROCE_CM_ACT_ACCEPT, ROCE_CS_REP },
	    { ROCE_CS_REP, ROCE_CM_EV_DATA_TO_PASSIVE, ROCE_CM_ACT_UPDATE,
	      ROCE_CS_ESTABLISHED },
	    { ROCE_CS_ESTABLISHED, ROCE_CM_EV_DATA_TO_PASSIVE,
	      ROCE_CM_ACT_NONE, ROCE_CS_ESTABLISHED },
	    { ROCE_CS_ESTABLISHED, ROCE_CM_EV_RTU, ROCE_CM_ACT_NONE,
	      ROCE_CS_ESTABLISHED });
	RUN("REJ of a REQ, then the same key again",
	    { ROCE_CS_NONE, ROCE_CM_EV_REQ, ROCE_CM_ACT_CREATE, ROCE_CS_REQ },
	    { ROCE_CS_REQ, ROCE_CM_EV_REJ, ROCE_CM_ACT_UPDATE,
	      ROCE_CS_REJECTED },
	    { ROCE_CS_REJECTED, ROCE_CM_EV_REJ, ROCE_CM_ACT_NONE,
	      ROCE_CS_REJECTED },
	    { ROCE_CS_REJECTED, ROCE_CM_EV_REP, ROCE_CM_ACT_UNEXPECTED,
	      ROCE_CS_REJECTED },
	    { ROCE_CS_REJECTED, ROCE_CM_EV_REQ, ROCE_CM_ACT_REPLACE,
	      ROCE_CS_REQ });
	RUN("REJ of a REP (the active side refuses)",
	    { ROCE_CS_NONE, ROCE_CM_EV_REQ, ROCE_CM_ACT_CREATE, ROCE_CS_REQ },
	    { ROCE_CS_REQ, ROCE_CM_EV_REP, ROCE_CM_ACT_ACCEPT, ROCE_CS_REP },
	    { ROCE_CS_REP, ROCE_CM_EV_REJ, ROCE_CM_ACT_UPDATE,
	      ROCE_CS_REJECTED });
	RUN("DREP after a lost DREQ; REQ reusing the key after TIMEWAIT",
	    { ROCE_CS_NONE, ROCE_CM_EV_REQ, ROCE_CM_ACT_CREATE, ROCE_CS_REQ },
	    { ROCE_CS_REQ, ROCE_CM_EV_REP, ROCE_CM_ACT_ACCEPT, ROCE_CS_REP },
	    { ROCE_CS_REP, ROCE_CM_EV_RTU, ROCE_CM_ACT_UPDATE,
	      ROCE_CS_ESTABLISHED },
	    { ROCE_CS_ESTABLISHED, ROCE_CM_EV_DREP, ROCE_CM_ACT_UPDATE,
	      ROCE_CS_TIMEWAIT },
	    { ROCE_CS_TIMEWAIT, ROCE_CM_EV_REQ, ROCE_CM_ACT_REPLACE,
	      ROCE_CS_REQ });
	RUN("SIDR: request and accepting reply",
	    { ROCE_CS_NONE, ROCE_CM_EV_SIDR_REQ, ROCE_CM_ACT_CREATE,
	      ROCE_CS_REQ },
	    { ROCE_CS_REQ, ROCE_CM_EV_SIDR_REQ, ROCE_CM_ACT_NONE, ROCE_CS_REQ },
	    { ROCE_CS_REQ, ROCE_CM_EV_SIDR_REP_OK, ROCE_CM_ACT_ACCEPT,
	      ROCE_CS_ESTABLISHED },
	    { ROCE_CS_ESTABLISHED, ROCE_CM_EV_SIDR_REP_OK, ROCE_CM_ACT_NONE,
	      ROCE_CS_ESTABLISHED });
	RUN("SIDR: refusing reply",
	    { ROCE_CS_NONE, ROCE_CM_EV_SIDR_REQ, ROCE_CM_ACT_CREATE,
	      ROCE_CS_REQ },
	    { ROCE_CS_REQ, ROCE_CM_EV_SIDR_REP_FAIL, ROCE_CM_ACT_UPDATE,
	      ROCE_CS_REJECTED });
	RUN("messages of a connection never seen starting",
	    { ROCE_CS_NONE, ROCE_CM_EV_REP, ROCE_CM_ACT_UNEXPECTED,
	      ROCE_CS_NONE },
	    { ROCE_CS_NONE, ROCE_CM_EV_RTU, ROCE_CM_ACT_UNEXPECTED,
	      ROCE_CS_NONE },
	    { ROCE_CS_NONE, ROCE_CM_EV_DREQ, ROCE_CM_ACT_UNEXPECTED,
	      ROCE_CS_NONE },
	    { ROCE_CS_NONE, ROCE_CM_EV_PATH, ROCE_CM_ACT_UNEXPECTED,
	      ROCE_CS_NONE });
}

/* Every state and event: no action without a state change, and back. */
static void test_exhaustive(void)
{
	enum roce_cm_state st, next;
	enum roce_cm_event ev;
	enum roce_cm_action act;
	bool ok = true;

	for (st = ROCE_CS_NONE; st <= ROCE_CS_REJECTED; st++) {
		for (ev = ROCE_CM_EV_REQ; ev <= ROCE_CM_EV_PATH; ev++) {
			act = roce_cm_step(st, ev, &next);
			EXPECT(next <= ROCE_CS_REJECTED);
			if (act == ROCE_CM_ACT_NONE ||
			    act == ROCE_CM_ACT_UNEXPECTED)
				EXPECT(next == st);
			if (act == ROCE_CM_ACT_UPDATE)
				EXPECT(next != st);
			if (act == ROCE_CM_ACT_CREATE)
				EXPECT(st == ROCE_CS_NONE);
			/* Only a REQ brings a connection into being. */
			if (st == ROCE_CS_NONE)
				EXPECT(act == ROCE_CM_ACT_CREATE ||
				       act == ROCE_CM_ACT_UNEXPECTED);
		}
	}
	result(ok, "CM state machine: all %d states x %d events consistent",
	       ROCE_CS_REJECTED + 1, ROCE_CM_EV_PATH + 1);
}

static void test_events_of_messages(void)
{
	static const struct {
		u16 attr;
		u8 status;
		enum roce_cm_event ev;
	} map[] = {
		{ ROCE_CM_REQ, 0, ROCE_CM_EV_REQ },
		{ ROCE_CM_MRA, 0, ROCE_CM_EV_MRA },
		{ ROCE_CM_REJ, 0, ROCE_CM_EV_REJ },
		{ ROCE_CM_REP, 0, ROCE_CM_EV_REP },
		{ ROCE_CM_RTU, 0, ROCE_CM_EV_RTU },
		{ ROCE_CM_DREQ, 0, ROCE_CM_EV_DREQ },
		{ ROCE_CM_DREP, 0, ROCE_CM_EV_DREP },
		{ ROCE_CM_SIDR_REQ, 0, ROCE_CM_EV_SIDR_REQ },
		{ ROCE_CM_SIDR_REP, 0, ROCE_CM_EV_SIDR_REP_OK },
		{ ROCE_CM_SIDR_REP, 1, ROCE_CM_EV_SIDR_REP_FAIL },
		{ ROCE_CM_LAP, 0, ROCE_CM_EV_PATH },
		{ ROCE_CM_APR, 0, ROCE_CM_EV_PATH },
	};
	struct roce_cm cm = { 0 };
	enum roce_cm_event ev;
	bool ok = true;
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(map); i++) {
		cm.attr_id = map[i].attr;
		cm.sidr_status = map[i].status;
		EXPECT(roce_cm_event_of(&cm, &ev) && ev == map[i].ev);
	}
	cm.attr_id = 0x0001;	/* ClassPortInfo */
	EXPECT(!roce_cm_event_of(&cm, &ev));
	result(ok, "CM messages map to tracker events");
}

void test_cm_fsm(void)
{
	test_sequences();
	test_exhaustive();
	test_events_of_messages();
}

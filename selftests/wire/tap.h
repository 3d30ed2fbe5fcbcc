/* SPDX-License-Identifier: GPL-2.0 */
/*
 * TAP output for the userspace unit tests: one "ok N - ..." line a test,
 * closed by the caller with "1..N" and "N passed, N failed".
 */
#ifndef _ROCECT_TAP_H
#define _ROCECT_TAP_H

#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>

extern int passed, failed, ntest;

void result(bool ok, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* A failed expectation inside a test: say which, and fail the test. */
#define EXPECT(cond) do {						\
	if (!(cond)) {							\
		printf("#   %s:%d: expected %s\n", __FILE__, __LINE__,	\
		       #cond);						\
		ok = false;						\
	}								\
} while (0)

void test_cm_fsm(void);
void test_pair_infer(void);
void test_psn_window(void);
void test_service_rules(void);
void test_cm_reply(void);

#endif /* _ROCECT_TAP_H */

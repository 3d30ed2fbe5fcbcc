#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The kernel's own checkers after all the other tests (run last): any
# report of KASAN, lockdep, RCU checking, UBSAN, debug objects, list
# debugging, slub_debug or KFENCE in the kernel log, any WARNING or BUG,
# and, on a kernel with kmemleak (the debug kernel of
# scripts/debug-kernel.sh), any leak found by a scan, fails the test and is
# printed whole. Only the tests' time counts:
# run_kselftest.sh marks it in the log and clears kmemleak's boot reports.

source "$(dirname "$0")/lib.sh"

KMEMLEAK=/sys/kernel/debug/kmemleak
REPORTS="$KERNEL_REPORTS|KASAN:|possible circular locking|possible recursive locking|inconsistent lock state|suspicious RCU usage|sleeping function called from invalid context|ODEBUG:"

# The kernel log from the first report on, whole.
reports()
{
	kmsg_since_start all | awk -v re="$REPORTS" '$0 ~ re { on = 1 } on'
}

out=$(reports)
[ -z "$out" ]
log_test $? "kernel log: no KASAN, lockdep, RCU, UBSAN, debug-object report, WARNING or BUG"
[ -n "$out" ] && echo "$out" | head -n 200

if [ -w "$KMEMLEAK" ]; then
	# Objects freed after a grace period need time to go: wait, scan twice
	# (kmemleak reports an object only when two scans agree).
	sleep 5
	echo scan >"$KMEMLEAK"
	sleep 5
	echo scan >"$KMEMLEAK"
	leaks=$(cat "$KMEMLEAK")
	[ -z "$leaks" ]
	log_test $? "kmemleak: no unreferenced object after the tests"
	[ -n "$leaks" ] && echo "$leaks" | head -n 200
else
	echo "kmemleak not in this kernel: leak scan skipped"
fi
finish

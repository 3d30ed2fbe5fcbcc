#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Run the nf_conntrack_roce kselftests (inside a guest, as root) and report
# TAP in the format of the kernel's kselftest runner: one line per test
# program, its output indented as "# " diagnostics, exit 4 reported as SKIP.
#
#   run_kselftest.sh [-t "test.sh ..."]

DIR=$(cd "$(dirname "$0")" && pwd)
# The list is the Makefile's TEST_PROGS, as in the kernel's selftests.
TESTS=$(make -s --no-print-directory -C "$DIR" print-tests)
timeout=$(sed -n 's/^timeout=//p' "$DIR/settings")

# The debug kernel's guest (two CPUs, KASAN, lockdep) also runs the
# concurrency stress and the in-kernel packet fuzzer, which only its
# checkers make worth the time: before kernel_checks.sh, which reads them.
# Its checkers also make every test two to five times slower: qp_bind.sh
# took 806 s there alone, 1725 s with three guests on two CPUs, and once
# over 1800. Its timeout is three times the settings'.
timeout=${timeout:-600}
case $(uname -r) in
*-rocect-debug)
	TESTS=${TESTS/kernel_checks.sh/$(make -s --no-print-directory -C "$DIR" print-tests-debug) kernel_checks.sh}
	timeout=$((3 * timeout))
	;;
esac

while getopts "t:" opt; do
	case $opt in
	t) TESTS=$OPTARG ;;
	*) echo "usage: $0 [-t \"tests\"]" >&2; exit 2 ;;
	esac
done
[ -n "$TESTS" ] || { echo "Bail out! no tests: make print-tests failed"; exit 1; }

# On a kernel with kmemleak, forget what boot left: kernel_checks.sh, run
# last, reports only what the tests leaked.
[ -w /sys/kernel/debug/kmemleak ] && echo clear >/sys/kernel/debug/kmemleak

# What a test that timed out or failed left behind: its processes in the
# namespaces it made, the namespaces, rulesets (which hold the module) and
# the module itself. Gone before the next test, so that one failure is
# reported once, not again as the next test's "module loads".
cleanup_after()
{
	local init p

	init=$(readlink /proc/1/ns/net)
	for p in /proc/[0-9]*; do
		[ "$(readlink "$p/ns/net" 2>/dev/null)" = "$init" ] ||
			kill -KILL "${p#/proc/}" 2>/dev/null
	done
	ip -all netns delete 2>/dev/null
	nft flush ruleset 2>/dev/null
	rmmod nf_conntrack_roce 2>/dev/null
	if lsmod | grep -q '^nf_conntrack_roce '; then
		echo "# cleanup after $1: nf_conntrack_roce stays loaded"
	fi
}

echo "TAP version 13"
n=0
fail=0
for t in $TESTS; do
	n=$((n + 1))
	start=$(date +%s)
	echo "rocect-kselftest: start $t" >/dev/kmsg
	# TERM first (the test's trap cleans up), KILL a minute later.
	timeout --foreground -k 60 "$timeout" "$DIR/$t" 2>&1 | sed 's/^/# /'
	rc=${PIPESTATUS[0]}
	[ "$rc" -eq 0 ] || [ "$rc" -eq 4 ] || cleanup_after "$t"
	echo "# $t: exit $rc after $(($(date +%s) - start)) s"
	case $rc in
	0) echo "ok $n selftests: nf_conntrack_roce: $t" ;;
	4) echo "ok $n selftests: nf_conntrack_roce: $t # SKIP" ;;
	124|137) echo "not ok $n selftests: nf_conntrack_roce: $t # TIMEOUT ${timeout} seconds"
	     fail=1 ;;
	*) echo "not ok $n selftests: nf_conntrack_roce: $t # exit=$rc"
	   fail=1 ;;
	esac
done
echo "1..$n"
exit $fail

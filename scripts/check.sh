#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Everything `make check` runs, stage by stage. Each stage prints TAP; this
# script passes it through, counts the results of all stages and closes with
# one line "N passed, N failed". A stage that fails without reporting a
# failed test counts as one failure. Logs: $BUILD/check/<stage>.log.
#
#   check.sh [STAGE...]   (default: build lint cross unit oracles fuzz install
#                          deb vm kselftest e2e; "debug", the debug-kernel tier,
#                          runs only when named)
#
# The debug tier (stage "debug") starts with the first stage and runs beside
# the others: its kernel builds at low priority while they run, then its
# guests fill the time theirs spend waiting. Its TAP is printed when its
# turn comes. It runs every kselftest and the end to end, or with
# DEBUG_SUBSET=1 (make check-debug-subset) the kselftests of
# selftests/Makefile's TEST_PROGS_DEBUG_CHECK. It is not in the default
# stages: beside them its kernel took 55 minutes to build on 2 cores and
# its subset 30 more, past what CI allows make check.

set -u
TOP=$(cd "$(dirname "$0")/.." && pwd)
export BUILD=${BUILD:-$TOP/build}
FUZZ_SECONDS=${FUZZ_SECONDS:-60}
logdir=$BUILD/check
mkdir -p "$logdir"
passed=0
failed=0

build_all()
{
	local v n=0 rc=0

	for v in $("$TOP/scripts/kernels.sh"); do
		n=$((n + 1))
		if make -s -C "$TOP" module KVER="$v" >"$logdir/build-$v.log" 2>&1
		then
			echo "ok $n - nf_conntrack_roce.ko builds with -Werror for $v"
		else
			sed 's/^/# /' "$logdir/build-$v.log"
			echo "not ok $n - nf_conntrack_roce.ko builds for $v"
			rc=1
		fi
	done
	n=$((n + 1))
	if make -s -C "$TOP" tools >"$logdir/build-tools.log" 2>&1; then
		echo "ok $n - userspace programs build with -Werror"
	else
		sed 's/^/# /' "$logdir/build-tools.log"
		echo "not ok $n - userspace programs build"
		rc=1
	fi
	echo "1..$n"
	return $rc
}

# The debug tier: build (or find) the debug kernel, the module for it, then
# the kselftests and the Soft-RoCE end to end in its guests, where KASAN,
# lockdep, RCU checking, UBSAN and kmemleak watch (kernel_checks.sh reads
# their reports; a WARNING panics the guest).
debug_tier()
{
	local v start rc=0

	start=$(date +%s)
	# Low priority: the other stages run meanwhile.
	v=$(nice -n 10 "$TOP/scripts/debug-kernel.sh" \
		2>>"$logdir/debug-kernel.log") || {
		sed 's/^/# /' "$logdir/debug-kernel.log"
		echo "not ok 1 - debug kernel built"
		return 1
	}
	sed 's/^/# /' "$logdir/debug-kernel.log"
	echo "# debug kernel $v ready after $(($(date +%s) - start)) s"
	if ! make -s -C "$TOP" module KVER="$v" >"$logdir/build-$v.log" 2>&1; then
		sed 's/^/# /' "$logdir/build-$v.log"
		echo "not ok 1 - nf_conntrack_roce.ko builds with -Werror for $v"
		return 1
	fi
	if [ -n "$debug_subset" ]; then
		# In three guests, the list dealt round, each ending with
		# kernel_checks.sh: one guest for all ran past its hour and
		# cut the last programs short. Three points of the
		# keepalive's period; the stock kernels run all seven.
		local t list="" i=0 groups=("" "" "")

		for t in $(make -s -C "$TOP/selftests" print-tests-debug-check); do
			[ "$t" = kernel_checks.sh ] && continue
			groups[i % 3]+="$t "
			i=$((i + 1))
		done
		for i in 0 1 2; do
			list+="${list:+,}${groups[i]}kernel_checks.sh"
		done
		VM_TIMEOUT=5400 VM_ENV="QUIET_SHARED_PHASES=0,6,12" \
			"$TOP/tools/vm/run_vm_tests.sh" -t "$list" "$v" || rc=1
		echo "# debug tier done after $(($(date +%s) - start)) s"
		return $rc
	fi
	# The quiet connection's mechanism in 2 minutes instead of 10: the
	# stock kernels run the full length.
	VM_TIMEOUT=3600 VM_ENV="QUIET_GAP=50 QUIET_TOTAL=100" \
		"$TOP/tools/vm/run_vm_tests.sh" "$v" || rc=1
	E2E_PORT=17400 "$TOP/tools/vm/run_rxe_e2e.sh" "$v" || rc=1
	echo "# debug tier done after $(($(date +%s) - start)) s"
	return $rc
}

# The debug tier's result, once it ended in the background.
debug_result()
{
	cat "$logdir/debug-tier.log"
	return "$debug_rc"
}

# stage NAME COMMAND...: run one stage, print and count its TAP.
stage()
{
	local name=$1 log=$logdir/$1.log start rc ok nok

	shift
	echo "# ==== $name: $*"
	start=$(date +%s)
	"$@" 2>&1 | tee "$log"
	rc=${PIPESTATUS[0]}
	ok=$(grep -c '^ok ' "$log")
	nok=$(grep -c '^not ok ' "$log")
	if [ "$rc" -ne 0 ] && [ "$nok" -eq 0 ]; then
		echo "not ok - stage $name exited with $rc"
		nok=1
	fi
	passed=$((passed + ok))
	failed=$((failed + nok))
	echo "# ==== $name: $ok passed, $nok failed in $(($(date +%s) - start)) s"
}

stages=("$@")
debug_subset=${DEBUG_SUBSET:-}
[ "${#stages[@]}" -gt 0 ] ||
	stages=(build lint cross unit oracles fuzz install deb vm kselftest e2e)
begin=$(date +%s)
# The debug kernel takes long to build: start the tier now, so that its
# build and then its guests overlap the other stages (whose guests often
# just wait).
debug_bg=
if [[ " ${stages[*]} " == *" debug "* ]]; then
	: >"$logdir/debug-kernel.log"
	debug_tier >"$logdir/debug-tier.log" 2>&1 &
	debug_bg=$!
fi
for s in "${stages[@]}"; do
	case $s in
	build) stage build build_all ;;
	lint) stage lint "$TOP/scripts/lint.sh" ;;
	cross) stage cross "$TOP/scripts/cross-arm64.sh" ;;
	unit) stage unit "$BUILD/bin/wire_test" ;;
	oracles) stage oracles "$TOP/selftests/wire/run_oracles.sh" ;;
	fuzz) stage fuzz make -s -C "$TOP" fuzz FUZZ_SECONDS="$FUZZ_SECONDS" ;;
	install) stage install "$TOP/selftests/install_test.sh" ;;
	deb) stage deb "$TOP/selftests/deb_test.sh" ;;
	vm) stage vm "$TOP/tools/vm/selftest.sh" ;;
	kselftest) stage kselftest "$TOP/tools/vm/run_vm_tests.sh" ;;
	e2e) stage e2e "$TOP/tools/vm/run_rxe_e2e.sh" ;;
	debug)
		debug_rc=0
		wait "$debug_bg" || debug_rc=$?
		stage debug debug_result
		;;
	*) echo "check.sh: unknown stage '$s'" >&2; exit 2 ;;
	esac
done
echo "# make check took $(($(date +%s) - begin)) s"
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]

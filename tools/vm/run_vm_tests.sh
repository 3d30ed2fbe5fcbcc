#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Boot QEMU guests for each kernel given (default: every installed kernel),
# all at once, run the kselftests in them and print their TAP results with
# the kernel in each test's name. Exits non-zero if any test or guest failed.
#
#   run_vm_tests.sh [-t "test.sh ..."] [KVER...]
#
# Without -t each kernel gets two guests: one runs the tests that mostly
# wait (selftests/Makefile's TEST_PROGS_WAITING: minutes of silence past
# the timeouts), the other the rest of TEST_PROGS; both end with
# kernel_checks.sh. Emulated guests make CPU time what a run costs: the
# waiting guest uses little of it, and its silences no longer hold up the
# other tests. The debug kernel's waiting guest also runs TEST_PROGS_DEBUG
# (run_kselftest.sh adds them in a guest that runs every test). With -t the
# list given runs, in one guest per kernel, or one per comma-separated part.

TOP=$(cd "$(dirname "$0")/../.." && pwd)
BUILD=${BUILD:-$TOP/build}
RUN_VM="$TOP/tools/vm/run-vm"
# A guest runs its kselftests in turn: about 28 minutes on a loaded
# 2-core machine, where 30 once cut the last two short.
VM_TIMEOUT=${VM_TIMEOUT:-3600}
# VM_ENV: more KEY=VALUE words for the tests' environment.
envs=()
for kv in ${VM_ENV:-}; do
	envs+=(-e "$kv")
done

tests() { make -s --no-print-directory -C "$TOP/selftests" "print-$1"; }
only=
if [ "${1:-}" = "-t" ]; then
	only=$2
	shift 2
fi
kvers=("$@")
[ "${#kvers[@]}" -gt 0 ] || mapfile -t kvers < <("$TOP/scripts/kernels.sh")

logdir=$BUILD/vmtest
mkdir -p "$logdir"
# The guests' lists: lists[KVER] holds them, separated by commas.
declare -A lists
if [ -z "$only" ]; then
	waiting=$(tests tests-waiting)
	debug=$(tests tests-debug)
	rest=
	for t in $(tests tests); do
		[[ " $waiting kernel_checks.sh " == *" $t "* ]] || rest+="$t "
	done
fi
for v in "${kvers[@]}"; do
	if [ -n "$only" ]; then
		lists[$v]=$only
	elif [[ $v == *-rocect-debug ]]; then
		lists[$v]="${rest}kernel_checks.sh,$waiting $debug kernel_checks.sh"
	else
		lists[$v]="${rest}kernel_checks.sh,$waiting kernel_checks.sh"
	fi
done

# Guest g (from 0) of kernel v logs to $v.log (the first) or $v.g.log.
log_of() { [ "$2" -eq 0 ] && echo "$logdir/$1.log" || echo "$logdir/$1.$2.log"; }
pids=()
for v in "${kvers[@]}"; do
	IFS=, read -ra guests <<<"${lists[$v]}"
	for g in "${!guests[@]}"; do
		"$RUN_VM" -k "$v" -t "$VM_TIMEOUT" -m 1024 -e BUILD="$BUILD" \
			"${envs[@]}" -M "$BUILD/kmod/$v/nf_conntrack_roce.ko" \
			-- "$TOP/selftests/run_kselftest.sh" -t "${guests[$g]}" \
			>"$(log_of "$v" "$g")" 2>&1 &
		pids+=($!)
	done
done

n=0
fail=0
i=0
for v in "${kvers[@]}"; do
	IFS=, read -ra guests <<<"${lists[$v]}"
	for g in "${!guests[@]}"; do
		wait "${pids[$i]}"
		rc=$?
		i=$((i + 1))
		# The second guest's tests carry its number: kernel_checks.sh
		# runs in both.
		tag=$v
		[ "$g" -eq 0 ] || tag="$v, guest $((g + 1))"
		echo "# ---- kernel $v, guest $((g + 1)): ${guests[$g]} (exit $rc) ----"
		seen=0
		while IFS= read -r line; do
			case $line in
			"ok "* | "not ok "*)
				n=$((n + 1))
				seen=$((seen + 1))
				status=${line%% [0-9]*}
				rest=${line#* [0-9]* }
				echo "$status $n - [$tag] $rest"
				;;
			*) echo "# $line" ;;
			esac
		done < <(grep -v -e '^TAP version' -e '^1\.\.' \
			"$(log_of "$v" "$g")")
		if [ "$rc" -ne 0 ]; then
			fail=1
			if [ "$seen" -eq 0 ]; then
				n=$((n + 1))
				echo "not ok $n - [$tag] guest ran the kselftests (exit $rc)"
			fi
		fi
	done
done
echo "1..$n"
exit $fail

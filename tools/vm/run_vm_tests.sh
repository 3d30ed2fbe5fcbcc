#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Boot one QEMU guest per kernel given (default: every installed kernel),
# all at once, run the kselftests in each and print their TAP results with
# the kernel in each test's name. Exits non-zero if any test or guest failed.
#
#   run_vm_tests.sh [-t "test.sh ..."] [KVER...]

TOP=$(cd "$(dirname "$0")/../.." && pwd)
BUILD=${BUILD:-$TOP/build}
RUN_VM="$TOP/tools/vm/run-vm"
# A guest runs every kselftest in turn: about 28 minutes on a loaded
# 2-core machine, where 30 once cut the last two short.
VM_TIMEOUT=${VM_TIMEOUT:-3600}
# VM_ENV: more KEY=VALUE words for the tests' environment.
envs=()
for kv in ${VM_ENV:-}; do
	envs+=(-e "$kv")
done
tests=()

if [ "${1:-}" = "-t" ]; then
	tests=(-t "$2")
	shift 2
fi
kvers=("$@")
[ "${#kvers[@]}" -gt 0 ] || mapfile -t kvers < <("$TOP/scripts/kernels.sh")

logdir=$BUILD/vmtest
mkdir -p "$logdir"
pids=()
for v in "${kvers[@]}"; do
	"$RUN_VM" -k "$v" -t "$VM_TIMEOUT" -m 1024 -e BUILD="$BUILD" "${envs[@]}" \
		-M "$BUILD/kmod/$v/nf_conntrack_roce.ko" \
		-- "$TOP/selftests/run_kselftest.sh" "${tests[@]}" \
		>"$logdir/$v.log" 2>&1 &
	pids+=($!)
done

n=0
fail=0
for i in "${!kvers[@]}"; do
	v=${kvers[$i]}
	wait "${pids[$i]}"
	rc=$?
	echo "# ---- kernel $v (guest exit $rc) ----"
	seen=0
	while IFS= read -r line; do
		case $line in
		"ok "* | "not ok "*)
			n=$((n + 1))
			seen=$((seen + 1))
			status=${line%% [0-9]*}
			rest=${line#* [0-9]* }
			echo "$status $n - [$v] $rest"
			;;
		*) echo "# $line" ;;
		esac
	done < <(grep -v -e '^TAP version' -e '^1\.\.' "$logdir/$v.log")
	if [ "$rc" -ne 0 ]; then
		fail=1
		if [ "$seen" -eq 0 ]; then
			n=$((n + 1))
			echo "not ok $n - [$v] guest ran the kselftests (exit $rc)"
		fi
	fi
done
echo "1..$n"
exit $fail

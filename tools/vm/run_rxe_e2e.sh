#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Run rxe_e2e.sh (three guests, real Soft-RoCE traffic) on each kernel
# given (default: every installed kernel), one kernel after the other, and
# print its checks as TAP with the kernel in each name. Logs, captures and
# guest consoles: $BUILD/e2e/<kernel>/.
#
#   run_rxe_e2e.sh [KVER...]

TOP=$(cd "$(dirname "$0")/../.." && pwd)
BUILD=${BUILD:-$TOP/build}
kvers=("$@")
[ "${#kvers[@]}" -gt 0 ] || mapfile -t kvers < <("$TOP/scripts/kernels.sh")

n=0
fail=0
# E2E_PORT: first of the localhost ports for the guests' links (two per
# kernel), so that two runs can go side by side.
port=${E2E_PORT:-17300}
for v in "${kvers[@]}"; do
	out=$BUILD/e2e/$v
	log=$BUILD/e2e/$v.log
	mkdir -p "$BUILD/e2e"
	start=$SECONDS
	# The whole run's limit and each step's. A run takes about 1400 s on
	# a loaded 2-core machine. KASAN and lockdep make the debug kernel's
	# guests much slower: three took over 240 s to boot beside other
	# guests.
	limit=2400 step=240
	if [[ $v == *-rocect-debug ]]; then
		limit=3600 step=900
	fi
	FLEET_TIMEOUT=$step timeout -k 30 "$limit" "$TOP/selftests/rxe_e2e.sh" \
		-k "$v" -p "$port" -o "$out" >"$log" 2>&1
	rc=$?
	echo "# ---- kernel $v: rxe_e2e.sh exit $rc in $((SECONDS - start)) s ----"
	seen=0
	while IFS= read -r line; do
		case $line in
		"TEST: "*)
			n=$((n + 1))
			seen=$((seen + 1))
			name=$(sed -E 's/^TEST: (.*[^ ]) +\[ ?(OK|FAIL) ?\]$/\1/' <<<"$line")
			if [[ $line == *"[ OK ]" ]]; then
				echo "ok $n - [$v] $name"
			else
				echo "not ok $n - [$v] $name"
			fi
			;;
		*) echo "# $line" ;;
		esac
	done <"$log"
	if [ "$rc" -ne 0 ]; then
		fail=1
		if [ "$seen" -eq 0 ] || [ "$rc" -ge 124 ]; then
			n=$((n + 1))
			echo "not ok $n - [$v] rxe_e2e.sh ran to the end (exit $rc)"
		fi
	fi
	port=$((port + 2))
done
echo "1..$n"
exit $fail

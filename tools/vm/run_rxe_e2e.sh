#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Run rxe_e2e.sh (three guests, real Soft-RoCE traffic) on each kernel
# given (default: every installed kernel), all kernels at once, and print
# each one's checks as TAP with the kernel in each name, kernel after
# kernel. Logs, captures and guest consoles: $BUILD/e2e/<kernel>/.
#
#   run_rxe_e2e.sh [KVER...]
#
# At once, because one run's three guests leave much of two cores idle:
# they mostly wait on each other and on RDMA's timers. On 2 cores the two
# kernels' runs took 26 to 30 minutes together, against about 20 each one
# after the other.

TOP=$(cd "$(dirname "$0")/../.." && pwd)
BUILD=${BUILD:-$TOP/build}
kvers=("$@")
[ "${#kvers[@]}" -gt 0 ] || mapfile -t kvers < <("$TOP/scripts/kernels.sh")

# run KVER PORT: one kernel's run; its exit status and time go to
# $BUILD/e2e/KVER.rc.
run()
{
	local v=$1 port=$2 limit=2700 step=240 start=$SECONDS rc

	# The whole run's limit and each step's. A run takes 1400 to 1800 s on
	# a loaded 2-core machine. KASAN and lockdep make the debug kernel's
	# guests much slower: three took over 240 s to boot beside other
	# guests.
	if [[ $v == *-rocect-debug ]]; then
		limit=3600 step=900
	fi
	FLEET_TIMEOUT=$step timeout -k 30 "$limit" "$TOP/selftests/rxe_e2e.sh" \
		-k "$v" -p "$port" -o "$BUILD/e2e/$v" >"$BUILD/e2e/$v.log" 2>&1
	rc=$?
	echo "$rc $((SECONDS - start))" >"$BUILD/e2e/$v.rc"
}

mkdir -p "$BUILD/e2e"
# E2E_PORT: first of the localhost ports for the guests' links (two per
# kernel), so that two runs can go side by side.
port=${E2E_PORT:-17300}
pids=()
for v in "${kvers[@]}"; do
	rm -f "$BUILD/e2e/$v.rc"
	run "$v" "$port" &
	pids+=($!)
	port=$((port + 2))
done
wait "${pids[@]}"

n=0
fail=0
for v in "${kvers[@]}"; do
	log=$BUILD/e2e/$v.log
	read -r rc secs <"$BUILD/e2e/$v.rc" 2>/dev/null || { rc=125 secs=?; }
	echo "# ---- kernel $v: rxe_e2e.sh exit $rc in $secs s ----"
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
done
echo "1..$n"
exit $fail

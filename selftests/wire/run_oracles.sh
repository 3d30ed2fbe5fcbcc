#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Independent-oracle tests of the RoCEv2 wire library (kernel/wire.c,
# icrc.c, cnp_layout.c), run in userspace:
#   icrc_oracle.py  random packets: BTH/DETH parsing and the ICRC against
#                   scapy (IPv4) and a Python ICRC from the spec (IPv6)
#   tshark_cm.py    CM MADs of every kind against Wireshark's dissector
# Builds $BUILD/bin/roce-wiredump (BUILD defaults to the tree's build/) when
# it is missing or older than its sources, then prints one TAP stream with
# the two scripts' checks numbered in sequence. Extra arguments go to both
# scripts (e.g. --seed N). Exit status 1 if any check failed.

set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
top=$(cd "$here/../.." && pwd)
BUILD=${BUILD:-$top/build}
export BUILD
python=/usr/bin/python3	# Debian's, which has python3-scapy
wiredump=$BUILD/bin/roce-wiredump
srcs=("$top"/kernel/wire.c "$top"/kernel/icrc.c "$top"/kernel/cnp_layout.c
      "$here"/wiredump.c)
deps=("${srcs[@]}" "$top"/kernel/wire.h "$top"/kernel/wire_platform.h)

stale=0
[ -x "$wiredump" ] || stale=1
for f in "${deps[@]}"; do
	[ "$f" -nt "$wiredump" ] && stale=1
done
if [ $stale = 1 ]; then
	mkdir -p "$BUILD/bin"
	gcc -O2 -g -Wall -Wextra -Werror -I"$top/kernel" "${srcs[@]}" -lz \
		-o "$wiredump"
fi

# Renumber each script's TAP into one stream: drop their plans, print ours.
n=0
failed=0
for test in icrc_oracle.py tshark_cm.py; do
	echo "# $test"
	test_failed=0
	set +e
	out=$("$python" "$here/$test" --wiredump "$wiredump" "$@")
	rc=$?
	set -e
	while IFS= read -r line; do
		case $line in
		"ok "*|"not ok "*)
			n=$((n + 1))
			status=${line%% [0-9]*}
			echo "$status $n ${line#"$status" [0-9]* }"
			[ "$status" = ok ] || test_failed=1
			;;
		1..0*SKIP*)
			echo "# $test: skipped:${line#*SKIP}"
			;;
		1..*)
			;;
		*)
			echo "$line"
			;;
		esac
	done <<<"$out"
	if [ $rc != 0 ] && [ $test_failed = 0 ]; then
		n=$((n + 1))
		echo "not ok $n - $test exited with status $rc"
		test_failed=1
	fi
	[ $test_failed = 0 ] || failed=1
done
echo "1..$n"
exit $failed

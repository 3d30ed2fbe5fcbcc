#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Fuzz the RoCEv2 parser for $1 seconds (default 60) from the seed corpus.
# TAP output; a crash, leak or sanitizer report fails and leaves the
# reproducer in $BUILD/fuzz/.

set -u
secs=${1:-60}
BUILD=${BUILD:-$(cd "$(dirname "$0")/../.." && pwd)/build}
dir=$BUILD/fuzz
mkdir -p "$dir/corpus" "$dir/seeds"
rm -f "$dir"/crash-* "$dir"/leak-* "$dir"/timeout-*

"$BUILD/bin/make_seeds" "$dir/seeds" || exit 1
log=$dir/fuzz.log
"$BUILD/bin/fuzz_parse" -max_total_time="$secs" -max_len=2048 \
	-artifact_prefix="$dir/" -print_final_stats=1 \
	"$dir/corpus" "$dir/seeds" >"$log" 2>&1
rc=$?
runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log")
if [ "$rc" -eq 0 ]; then
	echo "ok 1 - fuzz_parse: ${runs:-?} inputs in ${secs} s, no crash"
	echo "1..1"
	exit 0
fi
tail -n 40 "$log" | sed 's/^/# /'
echo "not ok 1 - fuzz_parse crashed (exit $rc): see $dir"
echo "1..1"
exit 1

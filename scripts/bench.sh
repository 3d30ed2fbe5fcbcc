#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# `make bench`: instructions per call of the wire library (callgrind), its
# speed on the host, then, one kernel after the other (two TCG guests at
# once would skew each other), the forwarding benchmark in a guest. Prints
# the table; writes $BUILD/bench/bench.json.
#
#   bench.sh [KVER...]   (BENCH_SECONDS, BENCH_RUNS: per measurement;
#                         BENCH_STAGES: see tools/bench/guest.sh, and
#                         "instructions" alone runs only the first part;
#                         BENCH_ICOUNT: the guests' clock, 2^N ns per
#                         guest instruction, 0 unless set; set to nothing,
#                         the wall clock)

set -eu
TOP=$(cd "$(dirname "$0")/.." && pwd)
BUILD=${BUILD:-$TOP/build}
out=$BUILD/bench
mkdir -p "$out"
kvers=("$@")
[ "${#kvers[@]}" -gt 0 ] || mapfile -t kvers < <("$TOP/scripts/kernels.sh")

# Under icount a guest's time is its instruction count: what it measures
# does not move with the host's load (a noisy host moved the wall clock's
# ratios by up to 2x within a round).
export BENCH_ICOUNT=${BENCH_ICOUNT-0}
"$TOP/tools/bench/instructions.py" "$BUILD/bin/wire_instr" "$out/instructions.json"
if [ "${BENCH_STAGES:-}" = instructions ]; then
	python3 "$TOP/tools/bench/report.py" "$out/bench.json" "$out/instructions.json"
	echo "bench: JSON in $out/bench.json" >&2
	exit 0
fi
"$BUILD/bin/wire_bench" 9 >"$out/wire.json"
args=()
for v in "${kvers[@]}"; do
	echo "bench: kernel $v (a few minutes under TCG)..." >&2
	# Measured as users run it: without the tests' memory-safety net.
	"$TOP/tools/vm/run-vm" -k "$v" -t 7200 -m 2048 -o "$out" -e BUILD="$BUILD" \
		--no-safety-net \
		${BENCH_ICOUNT:+--icount "$BENCH_ICOUNT"} \
		-e BENCH_SECONDS="${BENCH_SECONDS:-3}" -e BENCH_RUNS="${BENCH_RUNS:-5}" \
		-e BENCH_STAGES="${BENCH_STAGES:+${BENCH_STAGES//instructions/}}" \
		-M "$BUILD/kmod/$v/nf_conntrack_roce.ko" \
		-- "$TOP/tools/bench/guest.sh" >"$out/guest-$v.jsonl"
	args+=("$v=$out/guest-$v.jsonl")
done
BENCH_COMMIT=$(git -C "$TOP" describe --always --dirty 2>/dev/null) \
	python3 "$TOP/tools/bench/report.py" "$out/bench.json" "$out/instructions.json" \
	"$out/wire.json" "${args[@]}"
echo "bench: JSON in $out/bench.json" >&2

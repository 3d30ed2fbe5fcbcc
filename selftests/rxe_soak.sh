#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The end to end's heaviest traffic, over and over: does the helper corrupt
# memory? (make demo once crashed host B in rxe's requester, a double fault
# in the slab allocator.) Three guests as in rxe_e2e.sh, under the stock
# kernels' memory-safety net (run-vm): R forwards with the helper, B tracks
# its own traffic with it too (unless --no-helper: then rxe's own bugs show
# alone). Each round runs ucmatose (3 connections, 10000 messages each),
# ib_send_bw -R and ib_write_bw -R between A and B; after it every guest
# must be up, with no report in its kernel log.
#
#   rxe_soak.sh [-k KVER] [-n ROUNDS] [-p PORT] [-o DIR] [--no-helper]
#
# --napi-tx boots A and B with virtio-net's TX NAPI (its default) instead
# of without it (FLEET_RXE_KARGS in fleet.sh).
#
# --freeze-read repeats instead what the end to end's "learn: read" step
# does: ib_read_bw runs without RDMA CM, both ends are frozen (SIGSTOP)
# while they are looked at, then A's end and B's end are ended.
#
# Not part of make check (an hour for a few rounds): an investigation tool.

SELFTESTS_DIR=$(cd "$(dirname "$0")" && pwd)
source "$SELFTESTS_DIR/lib.sh"
source "$TOP/tools/vm/fleet.sh"
source "$SELFTESTS_DIR/rxe_fleet.sh"
kver=$("$TOP/scripts/kernels.sh" | tail -n1)
rounds=3
port=17500
out=$BUILD/soak
helper_b=1
scenario=traffic
while [ $# -gt 0 ]; do
	case $1 in
	-k) kver=$2; shift 2 ;;
	-n) rounds=$2; shift 2 ;;
	-p) port=$2; shift 2 ;;
	-o) out=$2; shift 2 ;;
	--no-helper) helper_b=0; shift ;;
	--freeze-read) scenario=freeze_read; shift ;;
	--napi-tx) FLEET_RXE_KARGS=; shift ;;
	*) echo "usage: $0 [-k KVER] [-n ROUNDS] [-p PORT] [-o DIR] [--no-helper]" \
		"[--freeze-read] [--napi-tx]" >&2
	   exit 2 ;;
	esac
done
ko=$BUILD/kmod/$kver/nf_conntrack_roce.ko
[ -f "$ko" ] || { echo "SKIP: $ko not built"; exit $ksft_skip; }
B4=10.0.2.1
FLEET_TIMEOUT=${FLEET_TIMEOUT:-600}
T0=$SECONDS

trap fleet_stop EXIT
fleet_on_death()
{
	echo "Bail out! guest ${1^^} died after $((SECONDS - T0)) s:" >&2
	sed 's/^/    /' "$out/$1.dead" >&2
	kill -s USR1 $$
}
died()
{
	log_test 1 "A, R and B stay up ($(fleet_dead | tr 'a-z\n' 'A-Z ')died)"
	finish
}
trap died USR1

boot()
{
	rxe_fleet_boot rxe_soak "$out" "$kver" "$port" "$ko" &&
		R "nft -f <(nft_roce_ruleset) &&
		   sysctl -qw net.netfilter.nf_conntrack_udp_timeout=120" || return 1
	[ "$helper_b" -eq 0 ] || B "nft -f <(nft_roce_ruleset)"
}

# pair COMM SERVER CLIENT: B serves, A runs the client to its end.
pair()
{
	B "$2 >/dev/null 2>&1 & wait_listen $1" &&
		A "$3 >/dev/null 2>&1"
	local rc=$?
	B "stop $1"
	return $rc
}

clean_logs() { A dmesg_clean && R dmesg_clean && B dmesg_clean; }

# freeze_read: as rxe_e2e.sh's infer_pairs for ib_read_bw.
freeze_read()
{
	local gid rc

	R "\$ROCECT config set learn on" >/dev/null
	gid=$(A "gid_index 10.0.1.1")
	B "ib_read_bw -d rxe0 -x $gid -D 120 >/tmp/read.out 2>&1 &
	   wait_tcp_listen 18515" &&
		A "ib_read_bw -d rxe0 -x $gid -D 120 $B4 >/tmp/read.out 2>&1 &
		   wait_qps ib_read_bw RC 1" && sleep 3
	rc=$?
	A "freeze ib_read_bw"
	B "freeze ib_read_bw"
	sleep 2
	A "stop ib_read_bw"
	B "stop ib_read_bw"
	return $rc
}

traffic()
{
	local i=$1

	check "round $i: ucmatose, 3 connections of 10000 messages" \
		pair ucmatose "ucmatose -c 3 -C 10000" "ucmatose -s $B4 -c 3 -C 10000"
	check "round $i: ib_send_bw -R" \
		pair ib_send_bw "ib_send_bw -R -d rxe0 -n 1000" \
		"ib_send_bw -R -d rxe0 -n 1000 $B4"
	check "round $i: ib_write_bw -R" \
		pair ib_write_bw "ib_write_bw -R -d rxe0 -n 1000" \
		"ib_write_bw -R -d rxe0 -n 1000 $B4"
}

check "three guests up on $kver, helper on R$([ "$helper_b" -eq 1 ] && echo ' and B')" boot
[ "$ret" -eq 0 ] || finish
for i in $(seq "$rounds"); do
	case $scenario in
	traffic) traffic "$i" ;;
	freeze_read) check "round $i: ib_read_bw frozen, then ended" freeze_read ;;
	esac
	check "round $i: A, R and B up, no report in their logs ($((SECONDS - T0)) s)" \
		clean_logs
done
[ "$helper_b" -eq 0 ] || [ "$scenario" != traffic ] ||
	check "B's helper tracked the connections" \
		test "$(B "\$ROCECT -j stats" | jq '.conn_created')" -gt 0
finish

#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Concurrency stress, for the debug kernel's 2-vCPU guest (KASAN, lockdep,
# RCU checking): for STRESS_SECONDS (60), at the same time
#
#   - a and b send CE-marked data to 64 connections' QPs (CNPs on),
#   - a and b set up and tear down those connections (CM churn),
#   - dumps of entries, connections and counters run in a loop,
#   - the configuration changes (policy, limits, CNP interval),
#   - managed entries are added, deleted and flushed,
#   - namespaces with the helper are created, used and deleted,
#
# then the module is unloaded while a and b still send. The test asserts
# that everything kept working and unloads cleanly; kernel_checks.sh, run
# last, reads what the kernel's checkers saw.
#
#   a (10.0.1.1) -- r (helper, cnp on) -- b (10.0.2.1)

source "$(dirname "$0")/lib.sh"

STRESS_SECONDS=${STRESS_SECONDS:-60}
CONNS=64

jobs_pids=()
cleanup_extra()
{
	[ "${#jobs_pids[@]}" -gt 0 ] && kill "${jobs_pids[@]}" 2>/dev/null
	wait 2>/dev/null
}
ksft_start

craft_packets()
{
	pkts=$(mktemp -d)
	craft "$pkts" "
A, B = '10.0.1.1', '10.0.2.1'
ab, ba, cm_a, cm_b, cm_a2, cm_b2 = [], [], [], [], [], []
for i in range($CONNS):
    qa, qb = 0x100 + i, 0x200 + i
    ex = roce_pkt.cm_exchange(A, B, comm_ids=(0x1000 + i, 0x2000 + i), qpns=(qa, qb))
    cm = lambda s, d, attr, **f: roce_pkt.cm_packet(4, s, d, attr, **f)
    cm_a += [ex['req']]
    cm_b += [ex['rep']]
    cm_a2 += [ex['rtu'], cm(A, B, 'dreq', local_comm_id=0x1000 + i,
                            remote_comm_id=0x2000 + i, qpn=qb)]
    cm_b2 += [cm(B, A, 'drep', local_comm_id=0x2000 + i, remote_comm_id=0x1000 + i)]
    ab.append(roce_pkt.data_packet(4, A, B, 0x04, qb, i, payload_len=64,
              ip_args={'sport': 0xd000 + i, 'tos': 3}))
    ba.append(roce_pkt.data_packet(4, B, A, 0x04, qa, i, payload_len=64,
              ip_args={'sport': 0xd000 + i, 'tos': 3}))
save('ab', *ab)
save('ba', *ba)
save('req', *cm_a)
save('rep', *cm_b)
save('rtu-dreq', *cm_a2)
save('drep', *cm_b2)
" 2>/dev/null
}

until_deadline() { [ "$(date +%s)" -lt "$deadline" ]; }

# Each job loops until the deadline; failures inside are the point of the
# checks after it, not of the job.
job()
{
	(while until_deadline; do "$@" >/dev/null 2>&1; done) &
	jobs_pids+=($!)
}

netns_churn()
{
	local ns

	setup_ns x || return
	ns=$x
	ip netns exec "$ns" nft -f <(nft_roce_ruleset) &&
		ip netns exec "$ns" "$ROCE_SEND" -c 20 "$pkts/req" &
	ip netns exec "$ns" "$ROCECT" qp add src 10.0.0.1 dst 10.0.0.2 dqpn 1 sqpn 2
	ip netns del "$ns"
	wait
}

config_churn()
{
	on "$r" config set unknown-qp drop max-conns 32 cnp-interval-us 1
	on "$r" config set unknown-qp accept max-conns 32768 cnp-interval-us 50
}

managed_churn()
{
	local i

	for i in 1 2 3 4 5 6 7 8; do
		on "$r" qp add src 10.0.9.$i dst 10.0.2.1 dqpn $i sqpn $i
	done
	on "$r" qp del src 10.0.9.1 dst 10.0.2.1 dqpn 1
	on "$r" qp flush origin managed
}

dumps()
{
	on "$r" -j qp show && on "$r" -j conn && on "$r" -j stats
}

cm_churn()
{
	send "$a" req && send "$b" rep && send "$a" rtu-dreq && send "$b" drep
}

check "module installed for modprobe" install_module
check "packets crafted with scapy" craft_packets
check "topology up" setup_router_topology
check "helper on r" ip netns exec "$r" nft -f <(nft_roce_ruleset)
check "CNPs on, short TIMEWAIT" on "$r" config set cnp on timewait-timeout 1
check "the connections set up once" cm_churn
echo "    $(nproc) CPUs, ${STRESS_SECONDS} s"

deadline=$(($(date +%s) + STRESS_SECONDS))
job ip netns exec "$a" "$ROCE_SEND" -c 10 "$pkts/ab"
job ip netns exec "$b" "$ROCE_SEND" -c 10 "$pkts/ba"
job cm_churn
job dumps
job config_churn
job managed_churn
job netns_churn
wait "${jobs_pids[@]}"
jobs_pids=()

check "rocect still answers" on "$r" -j stats
check "data was seen" test "$(on "$r" -j stats | jq '.class.rc')" -gt 0
check "CNPs were sent" test "$(on "$r" -j stats | jq '.cnp_sent')" -gt 0
check "connections came and went" \
	test "$(on "$r" -j stats | jq '.conn_destroyed')" -gt 0
check "entries and connections agree after the churn" sh -c \
	"[ \$(ip netns exec $r $ROCECT -j qp show origin learned | jq length) -le \
	   \$((2 * \$(ip netns exec $r $ROCECT -j conn | jq length))) ]"

# Unload under traffic: the rulesets hold the module, so drop them first,
# with a and b still sending.
deadline=$(($(date +%s) + 30))
job ip netns exec "$a" "$ROCE_SEND" -c 10 "$pkts/ab"
job ip netns exec "$b" "$ROCE_SEND" -c 10 "$pkts/ba"
job cm_churn
sleep 2
check "rulesets off r under traffic" ip netns exec "$r" nft flush ruleset
check "module unloads under traffic" busywait 20000 rmmod $MODULE
kill "${jobs_pids[@]}" 2>/dev/null
wait 2>/dev/null
jobs_pids=()
check "no kernel warnings" dmesg_clean
finish

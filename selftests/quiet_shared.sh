#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Several connections share one CM flow, and each may go quiet. RDMA CM
# sends every MAD between two hosts from QP1 to QP1 on one UDP flow, so the
# second connection's REQ or another one's DREQ passes conntrack's UDP
# tracker on the master of every connection already established, which
# used to cut it back to the UDP timeout: a pause in the data longer than
# that, and the expectations were gone with the master, the next data NEW
# and dropped by the policy.
#
# r runs a stateful firewall (only CM MADs to QP1 may start a flow). With
# the UDP timeout at 5 s and idle-timeout 40 s (the keepalive renews every
# 10 s), each phase sends data on every connection, waits PHASE seconds
# (0 to 12: every point of the keepalive's period), sends CM MADs (a new
# connection's handshake, at last a DREQ), stays silent past the UDP
# timeout, then sends data again on every connection in both directions:
# all of it must arrive, RELATED to the handshake.
#
#   a (10.0.1.1) -- r (helper, stateful forward policy) -- b (10.0.2.1)

source "$(dirname "$0")/lib.sh"

UDP_TIMEOUT=5
SILENCE=$((UDP_TIMEOUT + 3))
# QUIET_SHARED_PHASES (commas): fewer on the debug kernel, in make check.
PHASES=${QUIET_SHARED_PHASES:-0,2,4,6,8,10,12}
PHASES=${PHASES//,/ }
CONNS=8
BURST=3

ksft_start conntrack

craft_packets()
{
	pkts=$(mktemp -d)
	craft "$pkts" "
A, B = '10.0.1.1', '10.0.2.1'
cm = lambda s, d, attr, **f: roce_pkt.cm_packet(4, s, d, attr, **f)
for i in range(1, $CONNS + 1):
    cid, qps = (0x1000 + i, 0x2000 + i), (0x100 + i, 0x200 + i)
    ex = roce_pkt.cm_exchange(A, B, comm_ids=cid, qpns=qps)
    for k in ('req', 'rep', 'rtu'):
        save('c%d-%s' % (i, k), ex[k])
    save('c%d-dreq' % i, cm(A, B, 'dreq', local_comm_id=cid[0],
                              remote_comm_id=cid[1], qpn=qps[1]))
    save('c%d-drep' % i, cm(B, A, 'drep', local_comm_id=cid[1],
                              remote_comm_id=cid[0]))
    # One UDP source port per QP, as a NIC keeps it.
    save('c%d-ab' % i, *[roce_pkt.data_packet(4, A, B, 0x04, qps[1], n,
         payload_len=64, ip_args={'sport': 0xd000 + i})
         for n in range($BURST)])
    save('c%d-ba' % i, *[roce_pkt.data_packet(4, B, A, 0x04, qps[0], n,
         payload_len=64, ip_args={'sport': 0xd000 + i})
         for n in range($BURST)])
" 2>/dev/null
}

# What the endpoints received of the data (not the MADs).
received() { rx "$1"; }
counters_on_endpoints()
{
	count_input "$a" "udp dport 4791 @th,104,24 != 1 counter" &&
		count_input "$b" "udp dport 4791 @th,104,24 != 1 counter"
}

# data_round WHEN: a burst each way on every live connection, all of it
# forwarded and RELATED.
live=()
data_round()
{
	local when=$1 rel atob btoa i

	rel=$(related_count)
	atob=$(received "$b")
	btoa=$(received "$a")
	for i in "${live[@]}"; do
		send "$a" "c$i-ab" && send "$b" "c$i-ba" || return 1
	done
	check "$when: ${#live[@]} connections' data a -> b forwarded" \
		is "$(($(received "$b") - atob))" $((BURST * ${#live[@]}))
	check "$when: ... and b -> a" \
		is "$(($(received "$a") - btoa))" $((BURST * ${#live[@]}))
	check "$when: ... all RELATED to the handshakes" \
		is "$(($(related_count) - rel))" $((2 * BURST * ${#live[@]}))
}

handshake() { send "$a" "c$1-req" && send "$b" "c$1-rep" && send "$a" "c$1-rtu"; }
established_c1()
{
	on "$r" -j qp show | jq '[.[] | select(.state == "established" and
		(.dqpn == 257 or .dqpn == 513))] | length'
}

check "packets crafted with scapy" craft_packets
check "topology up" setup_router_topology
check "module loads" load_module
check "helper on r" ip netns exec "$r" nft -f <(nft_roce_ruleset)
check "stateful forward policy on r" stateful_firewall
check "a and b count what they receive" counters_on_endpoints
check "UDP timeout ${UDP_TIMEOUT} s" ip netns exec "$r" \
	sysctl -qw net.netfilter.nf_conntrack_udp_timeout=$UDP_TIMEOUT
check "idle-timeout 40 s: keepalive every 10 s" on "$r" config set idle-timeout 40

check "c1 handshake" handshake 1
live=(1)
data_round "c1 established"
next=2
for phase in $PHASES; do
	data_round "phase ${phase}s: before"
	sleep "$phase"
	check "phase ${phase}s: c$next handshake on the same CM flow" \
		handshake "$next"
	live+=("$next")
	sleep "$SILENCE"
	data_round "phase ${phase}s: ${SILENCE} s after c$next's handshake"
	next=$((next + 1))
done

# A DREQ of one connection is a MAD on the flow of all the others.
disconnect() { send "$a" "c$1-dreq" && send "$b" "c$1-drep"; }
check "c1 disconnects (DREQ, DREP)" disconnect 1
live=("${live[@]:1}")
sleep "$SILENCE"
data_round "${SILENCE} s after c1's DREQ"

# (The others' entries may have expired meanwhile on a slow guest: the
# data above passed as RELATED, which is what this test is about.)
check "c1's entries no longer established" is "$(established_c1)" 0
check "r dropped nothing" is "$(nft_packets "$r" fw forward dropped)" 0
check "no expectation failed" is "$(on "$r" -j stats | jq '.expect_failed')" 0

ip netns exec "$r" nft flush ruleset
check "module unloads" busywait 10000 rmmod $MODULE
check "no kernel warnings" dmesg_clean
finish

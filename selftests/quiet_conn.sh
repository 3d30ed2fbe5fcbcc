#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# A connection that is quiet on the CM keeps its state. RDMA connections say
# nothing on QP1 for hours after the handshake, while their CM conntrack is
# an unreplied UDP flow that conntrack forgets after 30 s, expectations and
# all. Here r runs a stateful firewall (only CM MADs to QP1 may start a flow,
# everything else must be ESTABLISHED or RELATED), a and b set up one
# connection, then send a short burst of data every QUIET_GAP seconds (100)
# for QUIET_TOTAL seconds (600): each gap is longer than the UDP timeout, so
# every burst starts new conntracks, which must still be RELATED to the
# handshake, and the QP entries must stay for the whole time.
#
#   a (10.0.1.1) -- r (helper, stateful forward policy) -- b (10.0.2.1)

source "$(dirname "$0")/lib.sh"

QUIET_GAP=${QUIET_GAP:-100}
QUIET_TOTAL=${QUIET_TOTAL:-600}
BURST=5

ksft_start conntrack

craft_packets()
{
	pkts=$(mktemp -d)
	craft "$pkts" "
A, B = '10.0.1.1', '10.0.2.1'
ex = roce_pkt.cm_exchange(A, B, comm_ids=(0x1001, 0x2001), qpns=(0x17, 0x2a))
for k in ('req', 'rep', 'rtu'):
    save(k, ex[k])
# A NIC keeps one UDP source port per QP pair, so each burst reuses it.
save('ab', *[roce_pkt.data_packet(4, A, B, 0x04, 0x2a, n, payload_len=64,
                                  ip_args={'sport': 0xd017}) for n in range($BURST)])
save('ba', *[roce_pkt.data_packet(4, B, A, 0x04, 0x17, n, payload_len=64,
                                  ip_args={'sport': 0xd017}) for n in range($BURST)])
" 2>/dev/null
}

received() { rx "$1"; }
counters_on_endpoints() { count_roce_input "$a" "$b"; }
handshake() { send "$a" req && send "$b" rep && send "$a" rtu; }
entries() { on "$r" -j qp show | jq -r '[.[] | "\(.sqpn) \(.state)"] | sort | join(",")'; }
# The CM conntrack (REQ and RTU). A dump also evicts expired conntracks,
# which conntrack's own collector may otherwise leave for a minute.
cm_conntrack()
{
	ip netns exec "$r" conntrack -L -p udp -s 10.0.1.1 -d 10.0.2.1 \
		--sport 49152 --dport 4791 2>/dev/null | grep -c helper=roce
}
permanent_expectations()
{
	ip netns exec "$r" conntrack -L expect 2>/dev/null | grep -c PERMANENT
}

check "module installed for modprobe" install_module
check "packets crafted with scapy" craft_packets
check "topology up" setup_router_topology
check "helper on r" ip netns exec "$r" nft -f <(nft_roce_ruleset)
check "stateful forward policy on r" stateful_firewall
check "a and b count what they receive" counters_on_endpoints
check "default timeouts: idle 300 s, UDP 30 s" is \
	"$(on "$r" -j config | jq '.idle_timeout') $(ip netns exec "$r" sysctl -n net.netfilter.nf_conntrack_udp_timeout)" \
	"300 30"

check "handshake REQ, REP, RTU" handshake
check "established" is "$(entries)" "23 established,42 established"

start=$(date +%s)
burst=0
while :; do
	t=$(($(date +%s) - start))
	rel=$(related_count)
	atob=$(received "$b")
	btoa=$(received "$a")
	send "$a" ab
	send "$b" ba
	check "t=${t}s: $BURST packets a -> b forwarded" is "$(($(received "$b") - atob))" $BURST
	check "t=${t}s: $BURST packets b -> a forwarded" is "$(($(received "$a") - btoa))" $BURST
	check "t=${t}s: both flows RELATED to the handshake" \
		is "$(($(related_count) - rel))" $((2 * BURST))
	burst=$((burst + 1))
	[ "$t" -ge "$QUIET_TOTAL" ] && break
	if [ "$burst" -eq 1 ]; then
		# Past the UDP timeout of the CM flow, where state used to go.
		sleep 45
		check "t=45s: entries still there" is "$(entries)" "23 established,42 established"
		check "t=45s: the CM conntrack lives on, past its UDP timeout" \
			is "$(cm_conntrack)" 1
		check "t=45s: both permanent expectations still there" \
			is "$(permanent_expectations)" 2
		sleep $((QUIET_GAP - 45))
	else
		sleep "$QUIET_GAP"
	fi
done

check "after ${QUIET_TOTAL}s: entries still established" is "$(entries)" \
	"23 established,42 established"
check "... with every packet counted" is \
	"$(on "$r" -j qp show | jq '[.[].packets] | add')" $((2 * BURST * burst))
check "... r dropped nothing" is "$(nft_packets "$r" fw forward dropped)" 0
check "... no expectation failed" is "$(on "$r" -j stats | jq '.expect_failed')" 0

# The keepalive must not outlive the connection: once it is idle for good
# the entries go, and with them the CM conntrack's reason to live.
check "idle-timeout 3 s" on "$r" config set idle-timeout 3
check "an idle connection still expires" busywait 15000 sh -c \
	"[ \"\$(ip netns exec $r $ROCECT -j qp show | jq length)\" -eq 0 ]"

ip netns exec "$r" nft flush ruleset
check "module unloads" busywait 10000 rmmod $MODULE
check "no kernel warnings" dmesg_clean
finish

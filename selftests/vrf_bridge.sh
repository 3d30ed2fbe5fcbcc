#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The reverse-path check and CNPs on a VRF router and on a bridge.
#
# VRF: r's interfaces are enslaved to VRF "blue" (table 10); the main table
# has no route to a or b. MADs must be checked in blue's table against the
# enslaved interface they came in on (the VRF puts its own device in
# skb_iif), and CNPs routed in blue:
#
#   a (10.0.1.1, fd00:1::1) -- r [blue: veth0 veth1 veth2] -- b (10.0.2.1, fd00:2::1)
#                                          `-- m (10.0.9.1), forges b's REP
#
# Bridge: s bridges a2, b2 and m2 on one link (br0, 10.0.3.254/24), the
# helper attached in the bridge family (nf_conntrack_bridge). Routing knows
# br0, not the port a host sits behind: a MAD is checked against br0, as
# rpfilter sees bridged packets under br_netfilter, which tells on-link
# sources from others; without a route to the hosts every MAD fails.
#
#   a2 (10.0.3.1) -- p0 [s: br0 10.0.3.254] p1 -- b2 (10.0.3.2)
#                                 p2 -- m2 (10.0.3.3)

source "$(dirname "$0")/lib.sh"

ksft_start
# A kernel built without them cannot run this test (stock kernels have both).
checktool ip link add rcprobe-vrf type vrf table 4242
ip link del rcprobe-vrf
checktool ip link add rcprobe-br type bridge
ip link del rcprobe-br
modprobe -q nf_conntrack_bridge ||
	{ echo "SKIP: no nf_conntrack_bridge"; exit $ksft_skip; }

craft_packets()
{
	pkts=$(mktemp -d)
	craft "$pkts" "
def exchange(name, a, b, ids, qps):
    ex = roce_pkt.cm_exchange(a, b, comm_ids=ids, qpns=qps)
    for k in ('req', 'rep', 'rtu'):
        save(name + '-' + k, ex[k])
    fam = roce_pkt.family_of(a)
    save(name + '-data', roce_pkt.data_packet(fam, a, b, 0x04, qps[1], 1,
         payload_len=64, ip_args={'sport': 0xd000 + qps[0]}))
    save(name + '-ce', roce_pkt.data_packet(fam, a, b, 0x04, qps[1], 2,
         payload_len=64, ip_args={'sport': 0xd000 + qps[0], 'tos': 3}))
exchange('v4', '10.0.1.1', '10.0.2.1', (0x1001, 0x2001), (0x17, 0x2a))
exchange('v6', 'fd00:1::1', 'fd00:2::1', (0x1002, 0x2002), (0x18, 0x2b))
exchange('f4', '10.0.1.1', '10.0.2.1', (0x1003, 0x2003), (0x19, 0x2c))
exchange('br4', '10.0.3.1', '10.0.3.2', (0x1004, 0x2004), (0x1a, 0x2d))
exchange('br6', 'fd00:3::1', 'fd00:3::2', (0x1005, 0x2005), (0x1b, 0x2e))
# A REQ in the name of a host that is not on the bridge's link.
exchange('off', '10.0.7.7', '10.0.3.1', (0x1006, 0x2006), (0x1c, 0x2f))
exchange('nb4', '10.0.3.1', '10.0.3.2', (0x1007, 0x2007), (0x1d, 0x30))
" 2>/dev/null
}

# counters NS: RoCE packets in (all, and CNPs: opcode 0x81) by NS.
counters()
{
	count_input "$1" 'udp dport 4791 @th,64,8 0x81 counter comment "cnp"' \
		'udp dport 4791 counter comment "all"'
}
got() { nft_packets "$1" cnt in "$2"; }
conn_state()
{
	on "$1" -j conn | jq -r --argjson c "$2" '.[] | select(.acomm_id == $c) | .state'
}

vrf_setup()
{
	local dev

	setup_router_topology && setup_ns m || return 1
	ip link add veth2 netns "$m" type veth peer name veth2 netns "$r"
	ip -n "$m" addr add 10.0.9.1/24 dev veth2
	ip -n "$m" link set veth2 up
	ip -n "$m" route add default via 10.0.9.254
	ip -n "$r" link add blue type vrf table 10 || return 1
	ip -n "$r" link set blue up
	for dev in veth0 veth1 veth2; do
		ip -n "$r" link set "$dev" master blue up || return 1
	done
	# Enslaving flushes IPv6 addresses; put back what went.
	ip -n "$r" addr add 10.0.9.254/24 dev veth2
	ip -n "$r" addr replace fd00:1::fe/64 dev veth0 nodad
	ip -n "$r" addr replace fd00:2::fe/64 dev veth1 nodad
	ip netns exec "$r" sysctl -qw net.ipv4.conf.all.rp_filter=0
	ip netns exec "$r" nft -f <(nft_roce_ruleset) || return 1
	counters "$a" && counters "$b"
}

# The main table has no route to a: what the old lookup used.
main_table_blind()
{
	! ip -n "$r" route get 10.0.1.1 >/dev/null 2>&1 &&
		ip -n "$r" route get 10.0.1.1 vrf blue | grep -q veth0
}

handshake() { send "$a" "$1-req" && send "$b" "$1-rep" && send "$a" "$1-rtu"; }

# tracked_both WHERE NS TAG4 ID4 TAG6 ID6: a's IPv4 and IPv6 handshakes
# with b are established on NS, no MAD called spoofed, and their data
# reaches b in drop mode.
tracked_both()
{
	local where=$1 ns=$2 at

	check "$where IPv4: REQ, REP, RTU" handshake "$3"
	check "... established" is "$(conn_state "$ns" "$4")" established
	check "$where IPv6: REQ, REP, RTU" handshake "$5"
	check "... established" is "$(conn_state "$ns" "$6")" established
	check "... no MAD called spoofed" is "$(stat_json "$ns" cm-spoofed)" 0
	at=$(got "$b" all)
	check "$where: data a -> b in drop mode" send "$a" "$3-data" "$5-data"
	check "... b got both" is "$(got "$b" all)" $((at + 2))
}

check "packets crafted with scapy" craft_packets
check "module loads" load_module
check "VRF: r's veths in VRF blue (table 10), helper on r" vrf_setup
check "... the main table has no route to a, blue's has" main_table_blind
check "... drop mode, CNPs on" on "$r" config set unknown-qp drop cnp on

tracked_both VRF "$r" v4 $((0x1001)) v6 $((0x1002))
check "VRF: CE-marked data a -> b, both families" send "$a" v4-ce v6-ce
check "... r sent two CNPs, none lacked a route" is \
	"$(stat_json "$r" cnp-sent) $(stat_json "$r" cnp-no-route)" "2 0"
check "... a got them" busywait 5000 test "$(got "$a" cnp)" -eq 2
check "f4: REQ from a" send "$a" f4-req
at_a=$(got "$a" all)
check "M forges b's REP through veth2" send "$m" f4-rep
check "... spoofed, dropped, a did not get it" is \
	"$(stat_json "$r" cm-spoofed) $(stat_json "$r" drop-spoofed) $(got "$a" all)" \
	"1 1 $at_a"
check "... f4 still waits for its REP" is "$(conn_state "$r" $((0x1003)))" req
ip netns exec "$r" nft flush ruleset
cleanup_all_ns

bridge_setup()
{
	local i=0 h

	setup_ns a2 b2 m2 s || return 1
	ip -n "$s" link add br0 type bridge || return 1
	for h in "$a2" "$b2" "$m2"; do
		ip link add p$i netns "$s" type veth peer name veth0 netns "$h"
		ip -n "$s" link set p$i master br0 up
		ip -n "$h" addr add 10.0.3.$((i + 1))/24 dev veth0
		ip -n "$h" addr add fd00:3::$((i + 1))/64 dev veth0 nodad
		ip -n "$h" link set veth0 up
		i=$((i + 1))
	done
	ip -n "$s" addr add 10.0.3.254/24 dev br0
	ip -n "$s" addr add fd00:3::fe/64 dev br0 nodad
	ip -n "$s" link set br0 up
	ip netns exec "$s" nft -f - <<-EOT || return 1
		table bridge rocect {
		    ct helper roce {
		        type "roce" protocol udp
		        l3proto inet
		    }
		    chain pre {
		        type filter hook prerouting priority filter;
		        udp dport 4791 ct helper set "roce"
		    }
		}
	EOT
	counters "$a2" && counters "$b2"
}

check "bridge: s bridges a2, b2, m2; helper in the bridge family" bridge_setup
check "... drop mode" on "$s" config set unknown-qp drop
a=$a2 b=$b2
tracked_both bridge "$s" br4 $((0x1004)) br6 $((0x1005))
at_a2=$(got "$a2" all)
check "m2 sends a REQ to a2 in the name of 10.0.7.7, off br0's link" \
	send "$m2" off-req
check "... spoofed, dropped, a2 did not get it" is \
	"$(stat_json "$s" cm-spoofed) $(stat_json "$s" drop-spoofed) $(got "$a2" all)" \
	"1 1 $at_a2"
check "br0's addresses removed: routing knows no host" \
	ip -n "$s" addr flush dev br0
check "nb4: REQ from a2" send "$a2" nb4-req
check "... spoofed, not tracked" is \
	"$(stat_json "$s" cm-spoofed) $(conn_state "$s" $((0x1007)))" "2 "
check "rp-check off" on "$s" config set rp-check off
check "nb4: REQ from a2 again" send "$a2" nb4-req
check "... believed" is \
	"$(stat_json "$s" cm-spoofed) $(conn_state "$s" $((0x1007)))" "2 req"
ip netns exec "$s" nft flush ruleset
check "module unloads" busywait 10000 rmmod $MODULE
check "no kernel warnings" dmesg_clean
finish

#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# A RoCE CM exchange (REQ, REP, RTU), crafted with scapy, forwarded by a
# router that attaches helper "roce" with nft: conntrack on the router shows
# helper=roce, the helper's counters see each CM message, a MAD with a bad
# ICRC and a truncated packet are counted, and the end hosts' namespaces
# (no helper there) count nothing. IPv4 and IPv6. With the unknown-qp drop
# policy the router drops data to a QP without an entry, and passes and
# counts it once a managed entry exists.
#
#   a (10.0.1.1, fd00:1::1) -- r (forwarding, helper) -- b (10.0.2.1, fd00:2::1)
#   (setup_router_topology in lib.sh)

source "$(dirname "$0")/lib.sh"

ksft_start conntrack

setup_topology()
{
	setup_router_topology && ip netns exec "$r" nft -f <(nft_roce_ruleset)
}

# All packets of the test, crafted once: scapy is slow to start in a guest.
craft_packets()
{
	pkts=$(mktemp -d)
	craft "$pkts" "
for fam, a, b in ((4, '10.0.1.1', '10.0.2.1'), (6, 'fd00:1::1', 'fd00:2::1')):
    ex = roce_pkt.cm_exchange(a, b, qpns=(0x17, 0x2a))
    for kind in ('req', 'rep', 'rtu'):
        save('v%d-%s' % (fam, kind), ex[kind])
# A REQ with its Q_Key (byte 100) flipped: well formed, wrong ICRC.
req = bytearray(bytes(roce_pkt.cm_exchange('10.0.1.1', '10.0.2.1')['req']))
req[100] ^= 0xff
save('bad-icrc', IP(bytes(req)))
# Data to a QP the handshake did not set up (it set up 0x17 and 0x2a).
save('data', roce_pkt.data_packet(4, '10.0.1.1', '10.0.2.1', opcode=0x04,
                                  dqpn=0x99, psn=1, payload_len=64))
save('short', IP(src='10.0.1.1', dst='10.0.2.1') /
      UDP(sport=49152, dport=4791) / Raw(b'\\x64' * 10))
"
}

# run_exchange FAMILY: REQ a->b, REP b->a, RTU a->b.
run_exchange()
{
	send "$a" "v$1-req" && send "$b" "v$1-rep" && send "$a" "v$1-rtu"
}

# helper_conntracks FAMILY: conntracks on r with helper=roce to port 4791.
helper_conntracks()
{
	ip netns exec "$r" conntrack -L -f "$1" -p udp --dport 4791 2>/dev/null |
		grep -c 'helper=roce'
}

check "module installed for modprobe" install_module
check "packets crafted with scapy" craft_packets
check "topology up" setup_topology
check "a reaches b through r" \
	busywait 10000 ip netns exec "$a" ping -c1 -W1 10.0.2.1 >/dev/null
check "a reaches b over IPv6" \
	busywait 10000 ip netns exec "$a" ping -6 -c1 -W1 fd00:2::1 >/dev/null
check "module autoloaded by the ruleset" module_loaded

# Test that an IPv4 exchange is tracked with the helper, both directions.
check "IPv4 REQ/REP/RTU sent" run_exchange 4
check "IPv4 cm.req counted" expect_stat "$r" cm.req 1
check "IPv4 cm.rep counted" expect_stat "$r" cm.rep 1
check "IPv4 cm.rtu counted" expect_stat "$r" cm.rtu 1
check "IPv4 class.cm is 3" expect_stat "$r" class.cm 3
check "no ICRC failures" expect_stat "$r" icrc-bad 0
[ "$(helper_conntracks ipv4)" -eq 2 ]
log_test $? "conntrack -L: both IPv4 directions have helper=roce"

# Test the same over IPv6.
check "IPv6 REQ/REP/RTU sent" run_exchange 6
check "IPv6 class.cm is 6 in all" expect_stat "$r" class.cm 6
[ "$(helper_conntracks ipv6)" -eq 2 ]
log_test $? "conntrack -L: both IPv6 directions have helper=roce"

# Test that a corrupted MAD is counted and a short packet is malformed.
check "REQ with a corrupted Q_Key sent" send "$a" bad-icrc
check "icrc-bad counted" expect_stat "$r" icrc-bad 1
check "a 10-byte RoCE payload sent" send "$a" short
check "a 10-byte RoCE payload is malformed (bth-truncated)" \
	expect_stat "$r" malformed.bth-truncated 1

# Test the QP firewall: unknown-qp drop on r, then a managed entry.
# b_seen: RoCE packets that reached b, counted by nft in b.
b_seen()
{
	nft_packets "$b" cnt in
}
count_roce_input "$b"
check "unknown-qp drop on r" ip netns exec "$r" "$ROCECT" config set unknown-qp drop
seen=$(b_seen)
check "data packet to QP 0x99 sent" send "$a" data
check "... dropped on r: unknown-qp-dropped 1" expect_stat "$r" unknown-qp-dropped 1
check "... never reached b" test "$(b_seen)" -eq "$seen"
check "managed entry for A -> B QP 0x99 on r" ip netns exec "$r" "$ROCECT" qp add \
	src 10.0.1.1 dst 10.0.2.1 dqpn 0x99 sqpn 0x17
check "data packet sent again" send "$a" data
check "... reached b" busywait 5000 test "$(b_seen)" -eq $((seen + 1))
check "... no new drop" expect_stat "$r" unknown-qp-dropped 1
entry=$(ip netns exec "$r" "$ROCECT" -j qp get src 10.0.1.1 dst 10.0.2.1 dqpn 0x99)
len=$(($(tr -d '\n' <"$pkts/data" | wc -c) / 2))
check "... counted on the entry: 1 packet of $len bytes" \
	test "$(jq -c '.[0] | [.packets, .bytes]' <<<"$entry")" = "[1,$len]"
check "CM still passes under the drop policy" send "$a" v4-rtu
check "... counted as CM" expect_stat "$r" class.cm 8

# Test that the counters are per namespace: nothing in a or b.
check "no helper traffic counted in a" expect_stat "$a" packets 0
check "no helper traffic counted in b" expect_stat "$b" packets 0

cleanup_all_ns
check "module unloads after the namespaces are gone" \
	busywait 10000 rmmod $MODULE
check "no kernel warnings" dmesg_clean
finish

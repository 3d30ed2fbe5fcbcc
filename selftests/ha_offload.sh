#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Failover with offload on: ha_failover.sh's two firewalls (ha_lib.sh), each
# with offload on and router-flowtable.nft. An RDMA CM connection over each
# family is set up through r1, its data flows come from the ports the QP
# numbers give, so r1 admits them without the helper and its flowtable
# takes them ([OFFLOAD]); conntrackd copies them and the connection's
# expectations to r2. After a and b move their routes to r2 and r2's
# conntrackd commits, the data keeps flowing with no packet lost and r2's
# flowtable takes the flows too. What this costs (admin guide, High
# availability): the flows r2 adopted this way are plain conntracks there
# (r2 knows no entry and its helper sees none of their packets), so another
# QP on them passes, as on r1; a new flow of the connection is RELATED
# through the carried expectations and, on 6.12, goes to r2's helper,
# which knows no entry for it and drops it (on 6.1 it passes: see below).

source "$(dirname "$0")/lib.sh"

ksft_start conntrackd conntrack
source "$(dirname "$0")/ha_lib.sh"

AQP=0x31
BQP=0x52
AQP6=0x131
BQP6=0x152
HA_QPS=($AQP $BQP $AQP6 $BQP6 0x99)
# Rounds 0 and 1 go through r1, 2 to 4 through r2.
ROUNDS=5

craft_packets()
{
	pkts=$(mktemp -d)
	chmod 755 "$pkts"
	craft "$pkts" "
A, B, A6, B6 = '$A', '$B', '$A6', '$B6'
dp = roce_pkt.data_packet
def pkt(s, d, op, dqpn, psn, sport, n=0):
    return dp(roce_pkt.family_of(s), s, d, op, dqpn, psn, payload_len=n,
              ip_args={'sport': sport})
ex = roce_pkt.cm_exchange(A, B, comm_ids=(0x1001, 0x2001),
                          qpns=($AQP, $BQP), psns=(0x200000, 0x100000))
ex6 = roce_pkt.cm_exchange(A6, B6, comm_ids=(0x1002, 0x2002),
                           qpns=($AQP6, $BQP6), psns=(0x400000, 0x300000))
for k in ('req', 'rep', 'rtu'):
    save(k, ex[k], ex6[k])
# Both ends of a pair use the same port (the QP numbers' product).
P = roce_pkt.udp_sport(0, $AQP, $BQP)
P6 = roce_pkt.udp_sport(0, $AQP6, $BQP6)
for n in range($ROUNDS):
    save('req%d' % n, pkt(A, B, 0x04, $BQP, 0x100000 + n, P, 64),
         pkt(A6, B6, 0x04, $BQP6, 0x300000 + n, P6, 64))
    save('ack%d' % n, pkt(B, A, 0x11, $AQP, 0x100000 + n, P),
         pkt(B6, A6, 0x11, $AQP6, 0x300000 + n, P6))
save('other-qp', pkt(A, B, 0x04, 0x99, 0x100100, P, 64))
save('new-flow', pkt(A, B, 0x04, $BQP, 0x100101, 0xd777, 64))
with open(sys.argv[1] + '/ports', 'w') as f:
    f.write('P=%d P6=%d\\n' % (P, P6))
" 2>/dev/null
}

# offload_ruleset NS: examples/router-flowtable.nft for a firewall of the
# topology ("inside" is to_a, "outside" to_b).
offload_ruleset()
{
	sed 's/"inside"/"to_a"/; s/"outside"/"to_b"/' "$TOP/examples/router-flowtable.nft"
}
HA_RULESET=offload_ruleset

round() { send "$a" "req$1" && send "$b" "ack$1"; }
delivered() { echo "$(got "$b" $BQP) $(got "$a" $AQP) $(got "$b" $BQP6) $(got "$a" $AQP6)"; }

check "packets crafted with scapy" craft_packets
source "$pkts/ports"
check "ctnetlink" modprobe nf_conntrack_netlink
check "module loaded" load_module
check "topology: r1 and r2 with router-flowtable.nft, conntrackd on both" setup
check "offload on, on both" eval 'on "$r1" config set offload on && on "$r2" config set offload on'

check "RDMA CM handshakes a -> b through r1, IPv4 and IPv6" \
	eval 'send "$a" req && send "$b" rep && send "$a" rtu'
for n in 0 1; do
	check "round $n through r1: a's SEND, b's ACK" round $n
done
check "... all reached" is "$(delivered)" "2 2 2 2"
check "... r1 admitted the four data flows without the helper" \
	is "$(stat_json "$r1" offload-flows) $(helped "$r1" ipv4 "$P") $(helped "$r1" ipv6 "$P6")" "4 0 0"
check "... its flowtable holds them" \
	is "$(offloaded "$r1" ipv4 "$P") $(offloaded "$r1" ipv6 "$P6")" "2 2"
# The REQs' flows (the masters) and the four data flows.
check "r2's conntrackd holds r1's RoCE conntracks" \
	busywait 20000 eval '[ "$(cached ct)" -ge 6 ]'
check "... and r1's expectations" busywait 20000 eval '[ "$(cached expect)" -ge 4 ]'

# The failover, as in ha_failover.sh.
ip -n "$a" route replace $B via 10.0.12.254
ip -n "$b" route replace 10.0.1.0/24 via 10.0.22.254
ip -n "$a" route replace $B6 via fd00:12::fe
ip -n "$b" route replace fd00:1::/64 via fd00:22::fe
check "failover: r2's conntrackd commits" \
	ip netns exec "$r2" conntrackd -C "$tmp/conntrackd2.conf" -c
check "... r2's kernel has the data flows, without the helper" busywait 10000 eval \
	'[ "$(ip netns exec "$r2" conntrack -L -p udp --dport 4791 2>/dev/null |
	     grep -v helper= | grep -c -E "sport=($P|$P6) ")" -ge 4 ]'
check "... and the connections' expectations" is "$(for f in ipv4 ipv6; do
	ip netns exec "$r2" conntrack -L expect -f $f 2>/dev/null; done | grep -c 'dport=4791')" 4
for n in 2 3 4; do
	check "round $n through r2" round $n
done
check "... no packet lost" is "$(delivered)" "5 5 5 5"
check "... r2's flowtable holds the flows" \
	is "$(offloaded "$r2" ipv4 "$P") $(offloaded "$r2" ipv6 "$P6")" "2 2"
check "... r2 dropped nothing, and knows no entry" \
	is "$(stat_json "$r2" unknown-qp-dropped) $(on "$r2" -j qp show | jq length)" "0 0"
check "another QP on an adopted offloaded flow passes (documented)" \
	eval 'send "$a" other-qp && is "$(got "$b" 0x99)" 1'
check "a new flow of a to b's QP, from another port" send "$a" new-flow
# RELATED through a carried expectation. 6.1.192's ctnetlink gives such
# expectations' flows no helper, and conntrackd does not carry their
# expectfn: the flow passes uninspected there (admin guide, High
# availability). 6.12's copies the master's helper into the flow.
case $(uname -r) in
6.1.*)	check "... passes r2 uninspected on 6.1 (documented)" \
		is "$(got "$b" $BQP) $(stat_json "$r2" unknown-qp-dropped)" "6 0" ;;
*)	check "... goes to r2's helper, which knows no entry: dropped" \
		is "$(got "$b" $BQP) $(stat_json "$r2" unknown-qp-dropped)" "5 1" ;;
esac

cleanup_extra
check "both conntrackd stopped" busywait 10000 eval '! pgrep -f "$tmp/conntrackd"'
cleanup_all_ns
check "module unloads" busywait 10000 rmmod $MODULE
check "no kernel warnings" dmesg_clean
finish

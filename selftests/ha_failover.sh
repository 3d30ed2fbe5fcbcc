#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Failover between two firewalls that conntrackd keeps in step:
#
#        +-- r1 (helper, unknown-qp drop, conntrackd) --+
#   a ---+              | sync link 10.0.9.0/24          +--- b
#        +-- r2 (helper, unknown-qp drop, conntrackd) --+
#
# a is 10.0.1.1 and fd00:1::1, b 10.0.2.1 and fd00:2::1 (on their
# loopbacks), each with a link to both firewalls; their routes to each
# other go through r1 first. An RDMA CM connection over each family is set
# up through r1 and carries data for longer than the UDP timeout (10 s
# here); conntrackd (examples/conntrackd-roce.conf) copies r1's conntracks
# and expectations into r2's external cache. Then a and b move their
# routes to r2 mid-connection and r2's conntrackd commits its cache, as
# keepalived's notify script would. r2 has never seen the handshakes, yet
# under unknown-qp drop the connections keep flowing, CNPs included, with
# no packet lost and nothing done to rocect, and r2
# recovers the QP pairs from the flows conntrackd carried over. What the
# flows were not admitted for stays dropped: a packet in the reply
# direction of an adopted flow, another QP on an adopted flow, a new flow
# to a QP r2 does not know, a flow that r1 admitted for a managed entry
# only r1 has (no handshake relates it); a new flow to a recovered QP from
# another port of a is dropped by check-sport and passes with it off. The
# test prints the failover's
# figures: packets lost, time until r2 had the pair.

source "$(dirname "$0")/lib.sh"

ksft_start conntrackd conntrack
source "$(dirname "$0")/ha_lib.sh"

# a's and b's QPs, and the UDP source ports their data flows use.
AQP=0x31
BQP=0x52
# The same over IPv6.
AQP6=0x131
BQP6=0x152
APORT=0xd031
BPORT=0xd052
# Rounds 0 and 1 go through r1, 2 to 5 through r2, 6 at the end.
ROUNDS=7
# The QPs whose packets a and b count.
HA_QPS=($AQP $BQP 0x77 0x99 $AQP6 $BQP6)

craft_packets()
{
	pkts=$(mktemp -d)
	chmod 755 "$pkts"
	craft "$pkts" "
A, B = '$A', '$B'
dp = roce_pkt.data_packet
A6, B6 = '$A6', '$B6'
def pkt(s, d, op, dqpn, psn, sport, n=0):
    return dp(roce_pkt.family_of(s), s, d, op, dqpn, psn, payload_len=n,
              ip_args={'sport': sport})
ex = roce_pkt.cm_exchange(A, B, comm_ids=(0x1001, 0x2001),
                          qpns=($AQP, $BQP), psns=(0x200000, 0x100000))
ex6 = roce_pkt.cm_exchange(A6, B6, comm_ids=(0x1002, 0x2002),
                           qpns=($AQP6, $BQP6), psns=(0x400000, 0x300000))
for k in ('req', 'rep', 'rtu'):
    save(k, ex[k], ex6[k])
# Round n: a SEND of a's QP to b's, b's ACK back, over IPv4 and IPv6.
for n in range($ROUNDS):
    save('req%d' % n, pkt(A, B, 0x04, $BQP, 0x100000 + n, $APORT, 64),
         pkt(A6, B6, 0x04, $BQP6, 0x300000 + n, $APORT, 64))
    save('ack%d' % n, pkt(B, A, 0x11, $AQP, 0x100000 + n, $BPORT),
         pkt(B6, A6, 0x11, $AQP6, 0x300000 + n, $BPORT))
# On a's adopted flow, to another QP of b.
save('other-qp', pkt(A, B, 0x04, 0x99, 0x100100, $APORT, 64))
# From a new source port of a, to b's QP.
save('new-flow', pkt(A, B, 0x04, $BQP, 0x100101, 0xd777, 64))
# From a's second address, without a handshake, to a QP r1 has an entry of.
save('managed', pkt('$A2', B, 0x04, 0x77, 1, 0xd888, 64))
# From b in the reply direction of a's data flow (to its UDP source port).
reply = pkt(B, A, 0x11, $AQP, 0x100000, 4791)
reply[UDP].dport = $APORT
save('reply-dir', reply)
# A CNP from b to a's QP, on b's data flow.
save('cnp', roce_pkt.cnp_packet(4, B, A, $AQP, ip_args={'sport': $BPORT}))
" 2>/dev/null
}

# pair ORIGIN: the entries of the two QP pairs, IPv4 and IPv6.
pair() {
	printf '%s\n' "$A $B $((BQP)) $((AQP)) $1" "$B $A $((AQP)) $((BQP)) $1" \
		"$A6 $B6 $((BQP6)) $((AQP6)) $1" "$B6 $A6 $((AQP6)) $((BQP6)) $1" |
		sort
}
round() { send "$a" "req$1" && send "$b" "ack$1"; }

check "packets crafted with scapy" craft_packets
check "ctnetlink" modprobe nf_conntrack_netlink
check "module loaded" load_module
check "topology: r1 and r2 with the helper, conntrackd on both" setup

# Test the connection through r1.
handshake() { send "$a" req && send "$b" rep && send "$a" rtu; }
check "RDMA CM handshakes a -> b through r1, IPv4 and IPv6" handshake
check "... r1 learned the pairs" is "$(entries "$r1" | tr '\n' ';')" \
	"$(pair learned | tr '\n' ';')"
for n in 0 1; do
	check "round $n through r1: a's SEND, b's ACK" round $n
done
check "... both reached" is "$(got "$b" $BQP) $(got "$a" $AQP)" "2 2"
check "... over IPv6 too" is "$(got "$b" $BQP6) $(got "$a" $AQP6)" "2 2"
check "a managed entry on r1 only, for a's second address" on "$r1" qp add \
	src $A2 dst $B dqpn 0x77 sqpn 0x78
check "... its packet passes r1" send "$a" managed
check "... b received it" is "$(got "$b" 0x77)" 1
# The REQs' flows (the masters), both data flows of each family, the
# managed entry's flow.
check "r2's conntrackd holds r1's RoCE conntracks" \
	busywait 20000 eval '[ "$(cached ct)" -ge 7 ]'
check "... and r1's expectations" busywait 20000 eval \
	'[ "$(cached expect)" -ge 4 ]'

# Test a connection that outlives r1's UDP timeout (10 s here) before the
# failover: its copies for r2 must not have expired meanwhile.
keepalive() {
	local t

	for t in 1 2 3 4 5 6; do
		send "$a" req1 && send "$b" ack1 && send "$a" managed || return 1
		sleep 2.5
	done
}
check "15 s of traffic through r1, past the UDP timeout" keepalive
check "... r2's conntrackd still holds the connections' flows" \
	test "$(cached ct)" -ge 7
check "... r2's kernel none of them" is "$(roce_cts "$r2")" 0
check "r2 has no entries" is "$(entries "$r2")" ""

# Test the failover: routes to r2, and on r2 what keepalived's notify
# script does for conntrackd (primary-backup.sh): commit its external cache
# to the kernel. Nothing of rocect's.
b_before=$(got "$b" $BQP)
a_before=$(got "$a" $AQP)
b6_before=$(got "$b" $BQP6)
a6_before=$(got "$a" $AQP6)
ip -n "$a" route replace $B via 10.0.12.254
ip -n "$b" route replace 10.0.1.0/24 via 10.0.22.254
ip -n "$a" route replace $B6 via fd00:12::fe
ip -n "$b" route replace fd00:1::/64 via fd00:22::fe
start=$(date +%s%3N)
check "failover: r2's conntrackd commits" \
	ip netns exec "$r2" conntrackd -C "$tmp/conntrackd2.conf" -c
check "... r2's kernel has the flows, helper roce" \
	busywait 10000 eval '[ "$(roce_cts "$r2")" -ge 7 ]'
ip netns exec "$r2" conntrack -L -p udp --dport 4791 2>/dev/null | sed 's/^/    r2: /'
check "a packet from b in the reply direction of a's data flow" \
	send "$b" reply-dir
check "... dropped: it binds nothing" is "$(stat_json "$r2" unknown-qp-dropped)" 1
recovered_after=
recovered_round=
for n in 2 3 4 5; do
	check "round $n through r2" round $n
	if [ -z "$recovered_after" ] &&
	   [ "$(entries "$r2" | tr '\n' ';')" = "$(pair recovered | tr '\n' ';')" ]; then
		recovered_after=$(($(date +%s%3N) - start))
		recovered_round=$n
	fi
	[ $n = 2 ] && check "... a CNP from b to a's QP, on b's adopted flow" \
		send "$b" cnp
done
lost=$((8 - $(got "$b" $BQP) + b_before - $(got "$a" $AQP) + a_before))
lost6=$((8 - $(got "$b" $BQP6) + b6_before - $(got "$a" $AQP6) + a6_before))
check "... every packet after the failover went through r2" is "$lost" 0
check "... over IPv6 too" is "$lost6" 0
check "... the CNP too" is "$(got "$a" cnp)" 1
check "... r2 adopted the four data flows" is "$(stat_json "$r2" flow-adopted)" 4
check "... and dropped nothing more" is "$(stat_json "$r2" unknown-qp-dropped)" 1
check "r2 recovered the QP pairs, both directions" \
	is "$(entries "$r2" | tr '\n' ';')" "$(pair recovered | tr '\n' ';')"
check "... at the third response through r2" is "$recovered_round" 4
check "... counted: qp-recovered 4" is "$(stat_json "$r2" qp-recovered)" 4
on "$r2" qp show | sed 's/^/    r2# /'
echo "    failover: 2 x 8 packets through r2, $lost + $lost6 lost; r2 had the" \
	"pairs after its round $recovered_round," \
	"${recovered_after:-never} ms after the switch"
check "a new flow of a to b's recovered QP, from another port" send "$a" new-flow
check "... dropped: the entry is bound to a's port (wrong-sport)" \
	is "$(got "$b" $BQP) $(stat_json "$r2" wrong-sport)" "$((b_before + 4)) 1"
check "check-sport off on r2" on "$r2" config set check-sport off
check "... the new flow passes on the recovered entry" send "$a" new-flow
check "... b received it" is "$(got "$b" $BQP)" $((b_before + 5))
check "check-sport on" on "$r2" config set check-sport on

# Test what adoption does not admit.
check "a's adopted flow to another QP of b" send "$a" other-qp
check "... dropped, counted" is "$(got "$b" 0x99) $(stat_json "$r2" unknown-qp-dropped)" "0 2"
managed=$(got "$b" 0x77)
check "the managed entry's flow, which r1 admitted without a handshake" \
	send "$a" managed
check "... is not adopted: dropped, counted" \
	is "$(($(got "$b" 0x77) - managed)) $(stat_json "$r2" unknown-qp-dropped)" "0 3"
check "r2 forgets the recovered pair (qp flush)" \
	on "$r2" qp flush origin recovered
check "a new flow to b's QP" send "$a" new-flow
check "... dropped, counted" is "$(stat_json "$r2" unknown-qp-dropped)" 4
check "... but the adopted flows still pass" round 6
check "... both directions" is \
	"$(($(got "$b" $BQP) - b_before)) $(($(got "$a" $AQP) - a_before))" "6 5"
check "... over IPv6 too" is \
	"$(($(got "$b" $BQP6) - b6_before)) $(($(got "$a" $AQP6) - a6_before))" "5 5"
check "... dropped nothing more" is "$(stat_json "$r2" unknown-qp-dropped)" 4

cleanup_extra
check "both conntrackd stopped" busywait 10000 eval '! pgrep -f "$tmp/conntrackd"'
cleanup_all_ns
check "module unloads" busywait 10000 rmmod $MODULE
check "no kernel warnings" dmesg_clean
finish

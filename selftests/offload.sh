#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Offload on, examples/router-flowtable.nft on r: the data flow of an RC or UC pair that alone explains its
# addresses and UDP source port is admitted without the helper, and r's
# software flowtable takes it over ([OFFLOAD], the forward chain's
# counter stays flat); flows nothing explains, or more than one pair
# does, keep the helper and are inspected as before. Revocation: a
# second pair on the same port, a DREQ, qp del and a change of settings
# each kill the offloaded flow, whose next packet is inspected again (an
# injection to an unknown QP on its tuple is dropped again). rmmod with
# offloaded flows and live expectations of the offload expectfn is clean.
# Entries of a flow the flowtable holds do not age out. The flows of a
# connection made before offload was turned on are moved onto it.
#
#   a (10.0.1.1, fd00:1::1) -- r (helper, drop mode, flowtable) -- b (10.0.2.1, fd00:2::1)

source "$(dirname "$0")/lib.sh"

ksft_start

# Pairs: c1 QPs 0x11 <-> 0x12 (port 0xc132), c2 0x12 <-> 0x11 (the same
# port, another pair), c4 0x31 <-> 0x32, c6 (IPv6) 0x21 <-> 0x22.
craft_packets()
{
	pkts=$(mktemp -d)
	craft "$pkts" "
A, B, A6, B6 = '10.0.1.1', '10.0.2.1', 'fd00:1::1', 'fd00:2::1'
def data(name, src, dst, dqpn, sport, n=1, psn=1):
    save(name, *[roce_pkt.data_packet(roce_pkt.family_of(src), src, dst, 0x04,
         dqpn, psn + i, payload_len=64, ip_args=dict(sport=sport)) for i in range(n)])
for name, a, b, qps, ids in (('c1', A, B, (0x11, 0x12), (0x1001, 0x2001)),
                             ('c2', A, B, (0x12, 0x11), (0x1002, 0x2002)),
                             ('c4', A, B, (0x31, 0x32), (0x1004, 0x2004)),
                             ('c5', A, B, (0x41, 0x42), (0x1005, 0x2005)),
                             ('c7', A, B, (0x51, 0x52), (0x1007, 0x2007)),
                             ('c0', A, B, (0x61, 0x62), (0x1000, 0x2000)),
                             ('c6', A6, B6, (0x21, 0x22), (0x1006, 0x2006))):
    ex = roce_pkt.cm_exchange(a, b, comm_ids=ids, qpns=qps)
    for k in ('req', 'rep', 'rtu'):
        save(name + '-' + k, ex[k])
    save(name + '-dreq', roce_pkt.cm_packet(roce_pkt.family_of(a), a, b, 'dreq',
         local_comm_id=ids[0], remote_comm_id=ids[1], qpn=qps[1]))
P1 = roce_pkt.udp_sport(0, 0x11, 0x12)
P4 = roce_pkt.udp_sport(0, 0x31, 0x32)
P5 = roce_pkt.udp_sport(0, 0x41, 0x42)
P6 = roce_pkt.udp_sport(0, 0x21, 0x22)
P7 = roce_pkt.udp_sport(0, 0x51, 0x52)
P0 = roce_pkt.udp_sport(0, 0x61, 0x62)
data('ab0', A, B, 0x62, P0, 10)
data('ba0', B, A, 0x61, P0, 10)
data('ab0-tick', A, B, 0x62, P0, 5, psn=11)
data('ab0-more', A, B, 0x62, P0, 10, psn=16)
data('ba0-more', B, A, 0x61, P0, 10, psn=11)
data('ab1', A, B, 0x12, P1, 20)
data('ab1-x', A, B, 0x99, P1, 5)
data('ab1-port', A, B, 0x12, 0xd000, 5)
data('ab4', A, B, 0x32, P4, 20)
data('ab4-x', A, B, 0x99, P4, 5)
data('ab5', A, B, 0x42, P5, 20)
data('ab5-x', A, B, 0x99, P5, 5)
data('ab7', A, B, 0x52, P7, 20)
data('ab6', A6, B6, 0x22, P6, 20)
data('ab6-x', A6, B6, 0x99, P6, 5)
with open(sys.argv[1] + '/ports', 'w') as f:
    f.write('P0=%d P1=%d P4=%d P5=%d P6=%d P7=%d\\n' % (P0, P1, P4, P5, P6, P7))
" 2>/dev/null
}

# forwarded: packets of port $P1's flow that r's forward hook saw.
forwarded() { nft_packets "$r" watch_p1 forward; }

# examples/router-flowtable.nft with this topology's interface names, and
# a counter of c1's flow in the forward hook.
ruleset()
{
	sed 's/"inside"/"veth0"/; s/"outside"/"veth1"/' "$TOP/examples/router-flowtable.nft"
	cat <<-EOT
	table inet watch_p1 {
	    chain forward {
	        type filter hook forward priority filter;
	        udp sport $P1 udp dport 4791 counter
	    }
	}
	EOT
}

check "module installed for modprobe" install_module
check "packets crafted with scapy" craft_packets
# The pairs' ports, as the devices compute them (roce_pkt.udp_sport()).
source "$pkts/ports"
check "c1's port is 0xc132 (the unit tests' vector)" is "$P1" 49458
check "topology: a, r, b" eval 'setup_router_topology && count_roce_input "$a" "$b"'
check "examples/router-flowtable.nft on r" ip netns exec "$r" nft -f <(ruleset)
# The flowtable lets a UDP flow go after 30 s without packets: on a slow
# (debug) guest the aging checks' pauses come near that.
ip netns exec "$r" sysctl -qw net.netfilter.nf_flowtable_udp_timeout=300 2>/dev/null
check "offload off by default" is "$(on "$r" -j config | jq -r .offload)" off
# c0, made before offload is on: its live master's permanent
# expectations, made without offload, must not serve c1's flows.
check "IPv4 handshake c0 (offload off)" xchg "$a" c0-req "$b" c0-rep "$a" c0-rtu
check "c0's data both ways: the helper on its two flows" \
	is "$(sent "$a" ab0 b wrong-psn) $(sent "$b" ba0 a wrong-psn) $(helped "$r" ipv4 "$P0")" \
	"10 0 10 0 2"
check "unknown-qp drop, offload on" on "$r" config set unknown-qp drop offload on idle-timeout 3600
# ... they are older than offload: the keepalive's pass, once a second,
# indexes the connection, and the collector moves its flows onto offload.
nap 1.5
check "c0's data a second later: all passes" \
	is "$(sent "$a" ab0-tick b wrong-psn)" "5 0"
check "... c0's flows, older than offload, killed within 10 s" \
	busywait 10000 eval '[ "$(helped "$r" ipv4 "$P0")" = 0 ]'
check "... its next data both ways: all passes, as new offloaded flows" \
	is "$(sent "$a" ab0-more b wrong-psn offload-flows) $(sent "$b" ba0-more a wrong-psn offload-flows)" \
	"10 0 1 10 0 1"
check "... both flows in the flowtable, neither with the helper" \
	is "$(offloaded "$r" ipv4 "$P0") $(helped "$r" ipv4 "$P0")" "2 0"

check "IPv4 handshake c1 (QPs 0x11, 0x12)" xchg "$a" c1-req "$b" c1-rep "$a" c1-rtu
check "c1's data, 20 packets: all reach b" is "$(sent "$a" ab1 b offload-flows wrong-sport)" "20 1 0"
check "... its flow is offloaded, without the helper" \
	is "$(offloaded "$r" ipv4 "$P1") $(helped "$r" ipv4 "$P1")" "1 0"
check "... r's forward hook saw 2 of its packets, not 20" is "$(forwarded)" 2
check "... the entry is bound to the port the pair's QPs give" \
	is "$(on "$r" -j qp show dqpn 0x12 | jq '.[0].sport')" "$P1"
check "on: an unknown QP on the offloaded flow passes (documented)" \
	is "$(sent "$a" ab1-x b unknown-qp-dropped)" "5 0"
check "a's data to c1's QP from another port: inspected, dropped" \
	is "$(sent "$a" ab1-port b wrong-sport offload-flows)" "0 5 0"

# A second pair on the same port: the flow is no longer explained.
check "IPv4 handshake c2 (QPs 0x12, 0x11: the same port)" \
	xchg "$a" c2-req "$b" c2-rep "$a" c2-rtu
check "... revoked c1's offloaded flow" is "$(stat_json "$r" offload-revoked)" 1
check "... the next packets are inspected: the unknown QP dropped" \
	is "$(sent "$a" ab1-x b unknown-qp-dropped offload-flows)" "0 5 0"
check "... c1's own data still passes, with the helper, not offloaded" \
	is "$(sent "$a" ab1 b unknown-qp-dropped) $(offloaded "$r" ipv4 "$P1") $(helped "$r" ipv4 "$P1")" "20 0 0 1"

# qp del of an offloaded pair's entry.
check "IPv4 handshake c4" xchg "$a" c4-req "$b" c4-rep "$a" c4-rtu
check "c4's data offloaded" \
	is "$(sent "$a" ab4 b offload-flows) $(offloaded "$r" ipv4 "$P4")" "20 1 1"
check "qp del of c4's entry" on "$r" qp del src 10.0.1.1 dst 10.0.2.1 dqpn 0x32
check "... revoked the flow" is "$(offloaded "$r" ipv4 "$P4") $(stat_json "$r" offload-revoked)" "0 2"
check "... the next packets are inspected and dropped" \
	is "$(sent "$a" ab4 b unknown-qp-dropped)" "0 20"

# IPv6, revoked by a DREQ.
check "IPv6 handshake c6" xchg "$a" c6-req "$b" c6-rep "$a" c6-rtu
check "c6's data offloaded" \
	is "$(sent "$a" ab6 b offload-flows) $(offloaded "$r" ipv6 "$P6")" "20 1 1"
check "on: an unknown QP on it passes" is "$(sent "$a" ab6-x b unknown-qp-dropped)" "5 0"
check "DREQ a -> b" send "$a" c6-dreq
check "... revoked the flow" is "$(offloaded "$r" ipv6 "$P6") $(stat_json "$r" offload-revoked)" "0 3"
check "... the unknown QP is dropped again" \
	is "$(sent "$a" ab6-x b unknown-qp-dropped)" "0 5"

# A change of settings revokes every offloaded flow.
check "IPv4 handshake c5" xchg "$a" c5-req "$b" c5-rep "$a" c5-rtu
check "c5's data offloaded" \
	is "$(sent "$a" ab5 b offload-flows) $(offloaded "$r" ipv4 "$P5")" "20 1 1"
check "offload off" on "$r" config set offload off
check "... revoked it: the unknown QP is dropped" \
	is "$(offloaded "$r" ipv4 "$P5") $(sent "$a" ab5-x b unknown-qp-dropped)" "0 0 5"

# Aging: the helper sees no packet of an offloaded flow, yet its entries
# stay while the flowtable holds it (idle-timeout 5 s, 12 s of silence).
# The data follows the handshake at once: on the debug kernel, a snapshot
# of the counters between them took long enough for the idle entries to go.
check "offload on, idle-timeout 5" on "$r" config set offload on idle-timeout 5
snap
check "IPv4 handshake c7, its data at once" \
	eval 'xchg "$a" c7-req "$b" c7-rep "$a" c7-rtu "$a" ab7 && fence b'
check "... all reached b (REQ, RTU, 20 data), the flow offloaded" \
	is "$(got b) $(grew offload-flows) $(offloaded "$r" ipv4 "$P7")" "22 1 1"
sleep 12
check "12 s later: c7's entries are there, its flow still offloaded" \
	is "$(on "$r" -j qp show src 10.0.1.1 dst 10.0.2.1 dqpn 0x52 | jq length) $(offloaded "$r" ipv4 "$P7")" "1 1"
check "... and c5's, never offloaded again, are gone" \
	is "$(on "$r" -j qp show src 10.0.1.1 dst 10.0.2.1 dqpn 0x42 | jq length)" 0

# Unload with an offloaded flow and live expectations that name the
# offload expectfn (the helper's unregistration does not remove them).
check "ruleset removed" ip netns exec "$r" nft delete table inet rocect
check "rmmod with them live" unload_module
check "no expectation is left behind" is \
	"$(ip netns exec "$r" conntrack -L expect 2>/dev/null | grep -c 'dport=4791')" 0
check "kernel log clean" dmesg_clean

cleanup_all_ns
finish

#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# CM connection tracking, on a router (helper on r) and on an endpoint
# (helper on b), with CM exchanges crafted by scapy:
#
#   a (10.0.1.1, .2; fd00:1::1) -- r (forwarding) -- b (10.0.2.1; fd00:2::1)
#
# REQ/REP/RTU gives entries in both directions with the right QPNs (they
# differ on each side); conntrack expectations make the REP's and the data
# flows RELATED with the helper; REJ, MRA then REP, DREQ/DREP -> TIMEWAIT
# -> gone, a lost RTU completed by data, duplicates, two clients with the
# same comm ID and QPN; the same exchange in two zones and in two network
# namespaces; IPv6; SIDR; the unknown-qp firewall with learned entries; bad
# ICRC and malformed MADs create nothing; max-conns; idle expiry; namespace
# deletion and module unload with live entries.

source "$(dirname "$0")/lib.sh"

ksft_start conntrack

# Every packet of the test, crafted in one interpreter (scapy starts slowly).
craft_packets()
{
	pkts=$(mktemp -d)
	craft "$pkts" "
A, A2, B, A6, B6 = '10.0.1.1', '10.0.1.2', '10.0.2.1', 'fd00:1::1', 'fd00:2::1'

def conn(name, a, b, cid, qps, psns=(0x111111, 0x222222)):
    ex = roce_pkt.cm_exchange(a, b, comm_ids=cid, qpns=qps, psns=psns)
    fam = roce_pkt.family_of(a)
    for k in ('req', 'rep', 'rtu'):
        save(name + '-' + k, ex[k])
    cm = lambda s, d, attr, **f: roce_pkt.cm_packet(fam, s, d, attr, **f)
    save(name + '-mra', cm(b, a, 'mra', local_comm_id=cid[1],
                          remote_comm_id=cid[0], msg_target=0))
    save(name + '-rej', cm(b, a, 'rej', local_comm_id=cid[1],
                          remote_comm_id=cid[0], reject_reason=28))
    save(name + '-dreq', cm(a, b, 'dreq', local_comm_id=cid[0],
                           remote_comm_id=cid[1], qpn=qps[1]))
    save(name + '-drep', cm(b, a, 'drep', local_comm_id=cid[1],
                           remote_comm_id=cid[0]))
    # Data on a flow of its own (a NIC picks another UDP source port), at
    # each side's starting PSN: a's is the REP's, b's the REQ's.
    save(name + '-data', roce_pkt.data_packet(fam, a, b, 0x04, qps[1], psns[1],
                         payload_len=256, ip_args={'sport': 0xd000 + qps[0]}))
    save(name + '-rdata', roce_pkt.data_packet(fam, b, a, 0x04, qps[0], psns[0],
                          payload_len=256, ip_args={'sport': 0xd000 + qps[1]}))
    save(name + '-stray', roce_pkt.data_packet(fam, a, b, 0x04, 0x999, 1,
                          payload_len=64, ip_args={'sport': 0xd000 + qps[0]}))

conn('c1', A, B, (0x1001, 0x2001), (0x17, 0x2a))
conn('c2', A, B, (0x1002, 0x2002), (0x18, 0x2b))
conn('c3', A, B, (0x1003, 0x2003), (0x19, 0x2c))
conn('c4', A, B, (0x1004, 0x2004), (0x1a, 0x2d))
conn('c5', A, B, (0x1005, 0x2005), (0x1b, 0x2e))
conn('c6', A, B, (0x5000, 0x6000), (0x30, 0x40))
conn('c7', A2, B, (0x5000, 0x6001), (0x30, 0x41))
conn('c8', A6, B6, (0x1008, 0x2008), (0x1c, 0x2f))
conn('c9', A, B, (0x1009, 0x2009), (0x1d, 0x31))
conn('c10', A, B, (0x100c, 0x200c), (0x20, 0x33))
for n in (2, 3):
    save('c1-rdata%d' % n, roce_pkt.data_packet(4, B, A, 0x04, 0x17, 0x111111 + n,
         payload_len=64, ip_args={'sport': 0xd100 + n}))
req = bytearray(bytes(roce_pkt.cm_exchange(A, B, comm_ids=(0x100a, 0x200a),
                qpns=(0x1e, 0x32))['req']))
req[100] ^= 0xff
save('bad-icrc', IP(bytes(req)))
mad = roce_pkt.cm_packet(4, A, B, 'req', local_comm_id=0x100b, qpn=0x1f)
raw = bytearray(bytes(mad))
raw[48 + 2] = 9                            # CM class version 9
save('bad-version', IP(bytes(raw)))
sidr = roce_pkt.cm_packet(4, A, B, 'sidr_req', local_comm_id=0x77,
                          service_id=roce_pkt.rdma_cm_service_id(7174, 0x11))
save('s1-req', sidr)
save('s1-rep', roce_pkt.cm_packet(4, B, A, 'sidr_rep', local_comm_id=0x77,
                                  qpn=0x55, qkey=0x1234,
                                  service_id=roce_pkt.rdma_cm_service_id(7174, 0x11)))
save('s1-data', roce_pkt.data_packet(4, A, B, 0x64, 0x55, 1, payload_len=64,
                                     deth_qkey=0x1234, deth_sqpn=0x66,
                                     ip_args={'sport': 0xe000}))
" 2>/dev/null
}

# conn_state NS ACOMM_ID: the state of a zone-0 connection ("" if none).
conn_state()
{
	on "$1" -j conn |
		jq -r --argjson c "$2" '.[] | select(.acomm_id == $c and .zone == 0) | .state'
}
# entry NS SRC DST DQPN: sqpn and state of a QP entry ("" if none).
entry()
{
	on "$1" -j qp show src "$2" dst "$3" dqpn "$4" | jq -r '.[] | "\(.sqpn) \(.state)"'
}
# Predicates for busywait, which runs its command again each time.
conn_gone() { [ -z "$(conn_state "$1" "$2")" ]; }
entry_gone() { [ -z "$(entry "$@")" ]; }
conns_are() { [ "$(on "$1" -j conn | jq length)" -eq "$2" ]; }

check "module installed for modprobe" install_module
check "packets crafted with scapy" craft_packets
check "topology up" setup_router_topology
check "helper on r" ip netns exec "$r" nft -f <(nft_roce_ruleset)
check "timeouts for the test: idle 600 s, TIMEWAIT 8 s" \
	on "$r" config set idle-timeout 600 timewait-timeout 8

# Test the handshake, step by step: c1 is A's QP 0x17 <-> B's QP 0x2a.
check "REQ sent" send "$a" c1-req
check "REQ: connection in state req" is "$(conn_state "$r" 4097)" req
check "REQ: no QP entry yet" is "$(on "$r" -j qp show | jq length)" 0
check "REQ: expectation b -> a listed by conntrack" \
	busywait 3000 sh -c "ip netns exec $r conntrack -L expect 2>/dev/null | grep -q 'src=10.0.2.1 dst=10.0.1.1'"
check "REP sent" send "$b" c1-rep
check "REP: a -> b entry (dqpn 0x2a) has sqpn 0x17" \
	is "$(entry "$r" 10.0.1.1 10.0.2.1 0x2a)" "23 rep"
check "REP: b -> a entry (dqpn 0x17) has sqpn 0x2a" \
	is "$(entry "$r" 10.0.2.1 10.0.1.1 0x17)" "42 rep"
check "REP: its flow is RELATED to the REQ's" test "$(related_count)" -ge 1
check "RTU sent" send "$a" c1-rtu
check "RTU: established" is "$(conn_state "$r" 4097)" established
json=$(on "$r" -j conn)
check "conn shows both QPNs, PSNs and the service" is \
	"$(jq -r '.[] | select(.acomm_id == 4097) | "\(.aqpn) \(.pqpn) \(.apsn) \(.ppsn) \(.pcomm_id) \(.service)"' <<<"$json")" \
	"23 42 1118481 2236962 8193 tcp:18515"
check "RDMA CM private data matches the addresses" is \
	"$(jq '.[] | select(.acomm_id == 4097) | .cma_match' <<<"$json")" true
check "query: who sends to QP 0x2a at b? QP 0x17" \
	is "$(on "$r" -j qp query 10.0.2.1 0x2a | jq '.[0].sqpn')" 23
rel=$(related_count)
check "data a -> b on a new flow" send "$a" c1-data
check "... counted on the entry" \
	is "$(on "$r" -j qp get src 10.0.1.1 dst 10.0.2.1 dqpn 0x2a | jq '.[0].packets')" 1
check "... its flow is RELATED (forward expectation)" test "$(related_count)" -gt "$rel"
check "data b -> a on a new flow" send "$b" c1-rdata
check "... its flow is RELATED too" test "$(related_count)" -gt $((rel + 1))
check "... and has the helper (conntrack -L)" sh -c \
	"ip netns exec $r conntrack -L -p udp --sport $((0xd02a)) 2>/dev/null | grep -q helper=roce"

# Connections between the same hosts share the expectations: another REQ
# must not turn c1's permanent b -> a expectation into a one-shot one.
check "another REQ a -> b (c10) while c1 is established" send "$a" c10-req
rel=$(related_count)
check "c1: the next new flow b -> a is RELATED" send "$b" c1-rdata2
check "... and so is the one after it" send "$b" c1-rdata3
check "... both counted as RELATED" test "$(related_count)" -eq $((rel + 2))
check "the b -> a expectation is still permanent" sh -c \
	"ip netns exec $r conntrack -L expect 2>/dev/null |
	 grep -q 'src=10.0.2.1 dst=10.0.1.1 .*PERMANENT'"
check "c10 refused" send "$b" c10-rej

# Test that conntrack agrees: a helper flow for every learned direction.
agree()
{
	local src dst n=0

	while read -r src dst; do
		ip netns exec "$r" conntrack -L -p udp -s "$src" -d "$dst" \
			--dport 4791 2>/dev/null | grep -q helper=roce || return 1
		n=$((n + 1))
	done < <(on "$r" -j qp show origin learned | jq -r '.[] | "\(.src) \(.dst)"')
	[ "$n" -eq 2 ]
}
check "conntrack -L has a helper flow for each learned entry" agree
check "conntrack -L expect: forward and reverse of the connection" sh -c \
	"ip netns exec $r conntrack -L expect 2>/dev/null | grep -c 'dport=4791' | grep -qx '[2-9]'"

# Test duplicates: all of c1 again changes nothing.
created=$(on "$r" -j stats | jq '.conn_created')
check "c1 retransmitted (REQ, REP, RTU)" send "$a" c1-req c1-rtu
check "... and the REP" send "$b" c1-rep
check "... no new connection" is "$(on "$r" -j stats | jq '.conn_created')" "$created"
check "... still established" is "$(conn_state "$r" 4097)" established

# Test REJ: c2 is refused with reason 28.
check "c2 REQ, REJ" xchg "$a" c2-req "$b" c2-rej
check "REJ: state rejected" is "$(conn_state "$r" 4098)" rejected
check "REJ: reason 28" is \
	"$(on "$r" -j conn | jq '.[] | select(.acomm_id == 4098) | .reject_reason')" 28
check "REJ: no entries for c2" is "$(entry "$r" 10.0.1.1 10.0.2.1 0x2b)" ""
check "REJ: forgotten after TIMEWAIT" busywait 30000 conn_gone "$r" 4098

# Test MRA then REP (c3).
check "c3 REQ, MRA" xchg "$a" c3-req "$b" c3-mra
check "MRA: still req" is "$(conn_state "$r" 4099)" req
check "c3 REP" send "$b" c3-rep
check "REP after MRA: rep with entries" is "$(entry "$r" 10.0.1.1 10.0.2.1 0x2c)" "25 rep"

# Test a lost RTU (c4): data to the passive side's QP establishes. Its
# REQ and REP find c1's permanent expectations fresh and keep them.
exp_created=$(stat_json "$r" expect-created)
exp_kept=$(stat_json "$r" expect-kept)
check "c4 REQ, REP, no RTU" xchg "$a" c4-req "$b" c4-rep
check "... no expectation set up anew" is "$(stat_json "$r" expect-created)" "$exp_created"
check "... three kept (REQ's reverse, REP's reverse and forward)" \
	is "$(stat_json "$r" expect-kept)" $((exp_kept + 3))
check "c4 data to b's QP" send "$a" c4-data
check "lost RTU: established by data" is "$(conn_state "$r" 4100)" established

# Test DREQ/DREP (c5): disconnecting, TIMEWAIT, gone; with the events of
# each step, sent after the change (REP: two creations in state rep).
events=$(mktemp)
on "$r" -j monitor >"$events" 2>"$events.err" &
bg=$!
check "monitor on r" busywait 20000 grep -q monitoring "$events.err"
check "c5 handshake" xchg "$a" c5-req "$b" c5-rep "$a" c5-rtu
check "c5 DREQ" send "$a" c5-dreq
check "DREQ: disconnecting" is "$(conn_state "$r" 4101)" disconnecting
check "c5 DREP" send "$b" c5-drep
check "DREP: timewait" is "$(entry "$r" 10.0.1.1 10.0.2.1 0x2e)" "27 timewait"
check "TIMEWAIT over: connection and entries gone" \
	busywait 30000 entry_gone "$r" 10.0.1.1 10.0.2.1 0x2e
check "... the reverse entry too" is "$(entry "$r" 10.0.2.1 10.0.1.1 0x1b)" ""
# c5's events: its QPs 0x2e and 0x1b are no other connection's.
c5_events() { jq -s -r 'map(select(.dqpn == 46 or .dqpn == 27) |
	"\(.event) \(.dqpn) \(.state)") | join(", ")' "$events"; }
c5_deleted() { c5_events | grep -q "delete 27"; }
check "monitor saw c5's deletions" busywait 30000 c5_deleted
check "c5's events: one per entry and step, with the state after it" is \
	"$(c5_events)" "create 46 rep, create 27 rep, change 46 established, change 27 established, change 46 disconnecting, change 27 disconnecting, change 46 timewait, change 27 timewait, delete 46 timewait, delete 27 timewait"
kill "$bg" 2>/dev/null
bg=
rm -f "$events" "$events.err"

# Test two clients with the same comm ID and QPN from different addresses.
check "c6 (10.0.1.1) and c7 (10.0.1.2): comm ID 0x5000, QP 0x30" \
	xchg "$a" c6-req "$a" c7-req "$b" c6-rep "$b" c7-rep
check "two connections" is "$(on "$r" -j conn | jq '[.[] | select(.acomm_id == 20480)] | length')" 2
check "b's QP 0x40 talks to 10.0.1.1" is "$(on "$r" -j qp query 10.0.1.1 0x30 | jq '.[0].sqpn')" 64
check "b's QP 0x41 talks to 10.0.1.2" is "$(on "$r" -j qp query 10.0.1.2 0x30 | jq '.[0].sqpn')" 65

# Test zones: the same exchange as c1 in zone 7 is another connection.
zone7()
{
	ip netns exec "$r" nft -f - <<-EOT
		table inet zones {
		    chain raw {
		        type filter hook prerouting priority raw;
		        udp dport 4791 ct zone set 7
		    }
		}
	EOT
}
check "r puts RoCE in zone 7" zone7
check "c1 again, now in zone 7" xchg "$a" c1-req "$b" c1-rep "$a" c1-rtu
check "two connections with c1's key: zones 0 and 7" is \
	"$(on "$r" -j conn | jq -c '[.[] | select(.acomm_id == 4097) | .zone] | sort')" "[0,7]"
check "zone 7 query" is "$(on "$r" -j qp query 10.0.2.1 0x2a zone 7 | jq '.[0].sqpn')" 23
check "zone 0 entry untouched" is \
	"$(on "$r" -j qp get src 10.0.1.1 dst 10.0.2.1 dqpn 0x2a | jq '.[0].packets')" 1
check "zones off" ip netns exec "$r" nft delete table inet zones

# Test IPv6 (c8).
check "c8 IPv6 handshake" xchg "$a" c8-req "$b" c8-rep "$a" c8-rtu
check "IPv6 a -> b entry" is "$(entry "$r" fd00:1::1 fd00:2::1 0x2f)" "28 established"
check "IPv6 b -> a entry" is "$(entry "$r" fd00:2::1 fd00:1::1 0x1c)" "47 established"

# Test SIDR (UD): the reply gives a -> b, a's first packet b -> a.
check "SIDR_REQ, SIDR_REP" xchg "$a" s1-req "$b" s1-rep
check "SIDR: a -> b entry to QP 0x55" is "$(on "$r" -j qp show dst 10.0.2.1 dqpn 0x55 | jq -r '.[0] | "\(.state) \(.qkey)"')" "established 4660"
check "UD data from a's QP 0x66" send "$a" s1-data
check "SIDR: b -> a entry to QP 0x66 learned from the DETH" \
	is "$(entry "$r" 10.0.2.1 10.0.1.1 0x66)" "85 established"

# Test the firewall with learned entries.
check "unknown-qp drop" on "$r" config set unknown-qp drop
check "c1 data (known QP) still passes" send "$a" c1-data
check "... counted" is "$(on "$r" -j qp get src 10.0.1.1 dst 10.0.2.1 dqpn 0x2a | jq '.[0].packets')" 2
check "data to an unknown QP of b" send "$a" c1-stray
check "... dropped" is "$(on "$r" -j stats | jq '.unknown_qp_dropped')" 1
check "accept again" on "$r" config set unknown-qp accept

# Test that bad MADs create nothing.
n=$(on "$r" -j stats | jq '.conn_created')
check "REQ with a bad ICRC and one with a bad class version" send "$a" bad-icrc bad-version
check "... counted" is "$(on "$r" -j stats | jq -c '[.icrc_bad, .malformed.mad_version]')" "[1,1]"
check "... no connection" is "$(on "$r" -j stats | jq '.conn_created')" "$n"

# Test max-conns: when full, the oldest half-open connection (c3: REP, no
# RTU) makes room for a new one; an established one never does.
count=$(on "$r" -j stats | jq '.conn_count')
check "max-conns = current count" on "$r" config set max-conns "$count"
check "c9 REQ when full" send "$a" c9-req
check "... admitted: c9 in req" is "$(conn_state "$r" 4105)" req
check "... the oldest half-open connection (c3) evicted" is "$(conn_state "$r" 4099)" ""
check "... counted" is "$(on "$r" -j stats | jq -c '[.conn_evicted, .conn_full]')" "[1,0]"
check "... the count holds" is "$(on "$r" -j stats | jq '.conn_count')" "$count"
check "c1 still established" is "$(conn_state "$r" 4097)" established
on "$r" config set max-conns 32768

# Test idle expiry (half-open connections have a timeout of their own).
check "idle-timeout 2 s" on "$r" config set idle-timeout 2 half-open-timeout 2
check "idle connections expire" busywait 30000 conns_are "$r" 0
check "... counted" test "$(on "$r" -j stats | jq '.conn_expired')" -ge 5
check "... and their entries" is "$(on "$r" -j qp show | jq length)" 0
check "idle-timeout back to 600 s" on "$r" config set idle-timeout 600

# Test the endpoint case: the helper on b as well as on r. The same
# traffic is then tracked in two namespaces, each in its own tables.
check "helper on b too" ip netns exec "$b" nft -f <(nft_roce_ruleset)
check "c1 again through r" xchg "$a" c1-req "$b" c1-rep "$a" c1-rtu
check "b tracks it: established" is "$(conn_state "$b" 4097)" established
check "b: entry of its own QP 0x2a" is "$(entry "$b" 10.0.1.1 10.0.2.1 0x2a)" "23 established"
check "b: entry of a's QP 0x17" is "$(entry "$b" 10.0.2.1 10.0.1.1 0x17)" "42 established"
check "r tracks the same connection on its own" is "$(conn_state "$r" 4097)" established
check "b's tables are b's: one connection" is "$(on "$b" -j conn | jq length)" 1

# Test teardown with live entries: b's namespace, then the module while r
# still tracks connections.
check "c8 REQ again: a live connection in r" send "$a" c8-req
check "... there" test "$(on "$r" -j conn | jq length)" -ge 1
check "live connections in b too" test "$(on "$b" -j conn | jq length)" -ge 1
ip netns del "$b"
check "namespace with live entries deleted cleanly" dmesg_clean
unhook()
{
	ip netns exec "$r" nft delete table inet rocect &&
		ip netns exec "$r" nft delete table inet watch
}
check "rulesets off r (they hold the module)" unhook
check "module unloads with live entries in r" busywait 10000 rmmod $MODULE
cleanup_all_ns
check "no kernel warnings" dmesg_clean
finish

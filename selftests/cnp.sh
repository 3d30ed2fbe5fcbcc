#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# CNP generation. r tracks the connections and marks a -> b RoCE traffic CE
# (nft "ecn set ce"); a captures what comes back:
#
#   a (10.0.1.1, fd00:1::1) -- r (helper, CE marking) -- b (10.0.2.1, fd00:2::1)
#
# CNPs decoded by scapy (cnp_check.py) have a valid ICRC, BECN, the sender's
# QP (a's RC QPs, or the DETH source QP for UD), b's address as source and
# the configured DSCP/ECN; IPv4 and IPv6. Disabled: none. Unknown QP: none,
# counted. One per QP per interval, at a known packet rate for a known time;
# the global cap holds under a flood; CE cleared on request (b gets ECT(0));
# one sent on demand; and the endpoint case (helper on b) sends them too.

source "$(dirname "$0")/lib.sh"

ksft_start tcpdump

craft_packets()
{
	pkts=$(mktemp -d)
	chmod 755 "$pkts"
	craft "$pkts" "
A, B, A6, B6 = '10.0.1.1', '10.0.2.1', 'fd00:1::1', 'fd00:2::1'
for name, a, b, qps in (('c1', A, B, (0x17, 0x2a)), ('c8', A6, B6, (0x1c, 0x2f))):
    ex = roce_pkt.cm_exchange(a, b, comm_ids=(0x1001, 0x2001), qpns=qps)
    for k in ('req', 'rep', 'rtu'):
        save(name + '-' + k, ex[k])
    save(name + '-data', roce_pkt.data_packet(roce_pkt.family_of(a), a, b, 0x04,
         qps[1], 1, payload_len=256, ip_args={'sport': 0xd000 + qps[0], 'tos': 2}))
sid = roce_pkt.rdma_cm_service_id(7174, 0x11)
save('s1-req', roce_pkt.cm_packet(4, A, B, 'sidr_req', local_comm_id=0x77, service_id=sid))
save('s1-rep', roce_pkt.cm_packet(4, B, A, 'sidr_rep', local_comm_id=0x77, qpn=0x55,
                                  qkey=0x1234, service_id=sid))
save('ud', roce_pkt.data_packet(4, A, B, 0x64, 0x55, 1, payload_len=64, deth_qkey=0x1234,
                                deth_sqpn=0x66, ip_args={'sport': 0xe000, 'tos': 2}))
save('stray', roce_pkt.data_packet(4, A, B, 0x04, 0x999, 1, payload_len=64,
                                   ip_args={'sport': 0xd999, 'tos': 2}))
" 2>/dev/null
}

# burst NS NAME COUNT USEC: one packet COUNT times, USEC apart; prints seconds.
burst()
{
	local t0 t1

	t0=$(date +%s%N)
	ip netns exec "$1" "$ROCE_SEND" -c "$3" -i "$4" "$pkts/$2" 2>/dev/null
	t1=$(date +%s%N)
	echo "scale=3; ($t1 - $t0) / 1000000000" | bc
}
# CNPs that reached a (opcode 0x81 in the BTH), counted by nft in a.
cnps_at_a() { nft_packets "$a" cnt in; }
a_has() { [ "$(cnps_at_a)" -eq "$1" ]; }
# RoCE data reaching b with ECN CE / ECT(0).
b_ecn() { nft_packets "$b" ecncount in "$1"; }

setup()
{
	setup_router_topology || return 1
	ip netns exec "$r" nft -f <(nft_roce_ruleset) || return 1
	ip netns exec "$r" nft -f - <<-EOT || return 1
		table inet cemark {
		    chain forward {
		        type filter hook forward priority filter - 10;
		        iifname "veth0" udp dport 4791 ip ecn set ce
		        iifname "veth0" udp dport 4791 ip6 ecn set ce
		    }
		}
	EOT
	count_input "$a" "udp dport 4791 @th,64,8 0x81 counter" || return 1
	ip netns exec "$b" nft -f - <<-EOT
		table inet ecncount {
		    chain in {
		        type filter hook prerouting priority filter;
		        udp dport 4791 ip ecn ce counter comment "ce"
		        udp dport 4791 ip ecn ect0 counter comment "ect0"
		    }
		}
	EOT
}

check "module installed for modprobe" install_module
check "packets crafted with scapy" craft_packets
check "topology: helper and CE marking on r" setup
ip netns exec "$a" tcpdump -i veth0 -U -w "$pkts/a.pcap" udp dst port 4791 \
	2>"$pkts/tcpdump.err" &
cap=$!
bg=$cap
check "capture on a" busywait 20000 grep -q listening "$pkts/tcpdump.err"
check "c1 (IPv4), c8 (IPv6) and SIDR requests" send "$a" c1-req c8-req s1-req
check "... replies from b" send "$b" c1-rep c8-rep s1-rep
check "... RTUs" send "$a" c1-rtu c8-rtu
check "... c1 established" is "$(on "$r" -j conn | jq -r '[.[] | select(.aqpn == 23)][0].state')" established

# Test that CNPs are off by default.
check "default: cnp off" is "$(on "$r" -j config | jq -r .cnp)" off
check "3 CE-marked packets a -> b" send "$a" c1-data c1-data c1-data
check "... CE counted on the entry" is \
	"$(on "$r" -j qp get src 10.0.1.1 dst 10.0.2.1 dqpn 0x2a | jq '.[0].ce')" 3
check "... no CNP" is "$(stat_json "$r" cnp-sent)" 0

# Test one CNP per QP per interval (1 s here).
check "cnp on, interval 1 s" on "$r" config set cnp on cnp-interval-us 1000000
# One sender process, back to back: three processes may start more than a
# second apart in a slow guest (seen on the debug kernel).
check "3 CE packets at once" \
	ip netns exec "$a" "$ROCE_SEND" -c 3 -i 0 "$pkts/c1-data"
check "... one CNP" is "$(stat_json "$r" cnp-sent)" 1
check "... two held back by the interval" is "$(stat_json "$r" cnp-interval)" 2
check "... it reached a" busywait 5000 a_has 1

# Test IPv6, UD (DETH source QP) and an unknown QP.
check "CE IPv6 packet" send "$a" c8-data
check "CE UD packet from a's QP 0x66" send "$a" ud
check "... two more CNPs" is "$(stat_json "$r" cnp-sent)" 3
check "CE packet to QP 0x999, which no handshake set up" send "$a" stray
check "... no CNP, counted" is "$(stat_json "$r" cnp-unknown-qp)-$(stat_json "$r" cnp-sent)" 1-3

# Test the interval at a known rate: 200 ms interval, a packet every 50 ms.
sleep 1.1	# the last c1 CNP is over 1 s old: the next is due at once
check "interval 200 ms" on "$r" config set cnp-interval-us 200000
before=$(stat_json "$r" cnp-sent)
secs=$(burst "$a" c1-data 30 50000)
sent=$(($(stat_json "$r" cnp-sent) - before))
hi=$(echo "$secs / 0.2 + 2" | bc)
echo "    30 CE packets in $secs s: $sent CNPs (at most $hi)"
# No lower bound from the sender's clock: an emulated router may take the
# packets in clumps (seen: 8 CNPs for 2.4 s). Two or more: the interval
# lets CNPs through again within the burst.
check "CNPs: more than one, at most one per interval" test "$sent" -ge 2 -a "$sent" -le "$hi"
check "... and at least 2 held back per CNP" test "$(stat_json "$r" cnp-interval)" -ge $((2 + 2 * sent))
# The interval must not hold back more than it should: whatever the guest's
# speed, a CE packet sent 0.3 s after the last one is due a CNP.
sleep 0.3
before=$(stat_json "$r" cnp-sent)
check "... one more 0.3 s later" send "$a" c1-data
check "... gets its CNP" is "$(stat_json "$r" cnp-sent)" $((before + 1))

# Test the global cap under a flood: 10 CNPs/s whatever the interval.
check "interval 1 us, cap 10/s" on "$r" config set cnp-interval-us 1 cnp-max-rate 10
before=$(stat_json "$r" cnp-sent)
secs=$(burst "$a" c1-data 300 0)
sent=$(($(stat_json "$r" cnp-sent) - before))
cap_hi=$(echo "10 * $secs + 2" | bc | cut -d. -f1)
echo "    300 CE packets in $secs s: $sent CNPs (at most $cap_hi)"
check "the cap holds" test "$sent" -le "$cap_hi"
check "... flood counted as capped" test "$(stat_json "$r" cnp-capped)" -ge $((300 - cap_hi))

# Test clearing CE: b gets ECT(0) for packets that made a CNP.
check "cap 100000/s, clear CE" on "$r" config set cnp-max-rate 100000 cnp-clear-ce on
ce=$(b_ecn '"ce"')
ect=$(b_ecn '"ect0"')
check "5 CE packets" send "$a" c1-data c1-data c1-data c1-data c1-data
check "... b saw them as ECT(0)" busywait 5000 test "$(b_ecn '"ect0"')" -eq $((ect + 5))
check "... and none as CE" is "$(b_ecn '"ce"')" "$ce"

# Test a CNP on demand.
sent=$(stat_json "$r" cnp-sent)
check "rocect qp cnp for a -> b QP 0x2a" on "$r" qp cnp src 10.0.1.1 dst 10.0.2.1 dqpn 0x2a
check "... sent" is "$(stat_json "$r" cnp-sent)" $((sent + 1))
check "... counted on the entry" test \
	"$(on "$r" -j qp get src 10.0.1.1 dst 10.0.2.1 dqpn 0x2a | jq '.[0].cnps')" -ge 1

# Test what reached a against what r sent, and decode every CNP.
check "every CNP r sent reached a" busywait 5000 a_has "$(stat_json "$r" cnp-sent)"
kill "$cap"
wait "$cap" 2>/dev/null
cap=
"$PYTHON" "$SELFTESTS_DIR/wire/cnp_check.py" "$pkts/a.pcap" >"$pkts/cnps.json" 2>/dev/null
log_test $? "capture decoded by scapy"
n=$(jq -s length "$pkts/cnps.json")
check "captured $n CNPs, as many as r sent" is "$n" "$(stat_json "$r" cnp-sent)"
check "all: ICRC valid, BECN, opcode 0x81, b's address as source" is \
	"$(jq -s '[.[] | select(.icrc_ok and .becn == 1 and .opcode == 129 and
	   (.src == "10.0.2.1" or .src == "fd00:2::1"))] | length' "$pkts/cnps.json")" "$n"
check "all: DSCP 48, ECT(0), TTL 64, UDP checksum valid" is \
	"$(jq -s '[.[] | select(.dscp == 48 and .ecn == 2 and .ttl == 64 and .udp_csum_ok)] | length' "$pkts/cnps.json")" "$n"
check "IPv4 RC: to a's QP 0x17, UDP source port copied" test \
	"$(jq -s '[.[] | select(.family == 4 and .dqpn == 23 and .sport == 53271)] | length' "$pkts/cnps.json")" -ge 1
check "IPv6 RC: to a's QP 0x1c" is \
	"$(jq -s '[.[] | select(.family == 6 and .dqpn == 28 and .dst == "fd00:1::1")] | length' "$pkts/cnps.json")" 1
check "UD: to the DETH source QP 0x66" is \
	"$(jq -s '[.[] | select(.dqpn == 102)] | length' "$pkts/cnps.json")" 1
check "on demand: to QP 0x17 with UDP source port 0" test \
	"$(jq -s '[.[] | select(.dqpn == 23 and .sport == 0)] | length' "$pkts/cnps.json")" -ge 1

# Test that an entry's congestion goes with it (its record is apart from
# it): the delete event still shows the CE count, a new entry of the same
# key starts from none, and no record outlives the entries (cong-count).
ce=$(on "$r" -j qp get src 10.0.1.1 dst 10.0.2.1 dqpn 0x2a | jq '.[0].ce')
records=$(stat_json "$r" cong-count)
check "congestion records: at least c1's a -> b ($records)" test "$records" -ge 1
check "c1's entry a -> b saw CE ($ce packets)" test "$ce" -gt 300
on "$r" -j monitor count 2 >"$pkts/events" 2>"$pkts/mon.err" &
mon=$!
bg=$mon
check "monitor on r" busywait 20000 grep -q monitoring "$pkts/mon.err"
check "c1 deleted" on "$r" qp del src 10.0.1.1 dst 10.0.2.1 dqpn 0x2a
check "... monitor saw both entries go" \
	busywait 20000 sh -c "! kill -0 $mon 2>/dev/null"
bg=
check "... a -> b's delete event with its CE count" is \
	"$(jq -s '[.[] | select(.event == "delete" and .dqpn == 42)][0].ce' "$pkts/events")" "$ce"
check "... its record gone with it" test "$(stat_json "$r" cong-count)" -lt "$records"
check "managed entry of the same key" \
	on "$r" qp add src 10.0.1.1 dst 10.0.2.1 dqpn 0x2a sqpn 0x17
check "... no CE on it" is \
	"$(on "$r" -j qp get src 10.0.1.1 dst 10.0.2.1 dqpn 0x2a | jq '.[0].ce')" 0
sleep 0.1	# the interval is 1 us: the CNP is due
before=$(stat_json "$r" cnp-sent)
check "CE packet to it" send "$a" c1-data
check "... counted on it, and a CNP" is \
	"$(on "$r" -j qp get src 10.0.1.1 dst 10.0.2.1 dqpn 0x2a | jq '.[0].ce')-$(stat_json "$r" cnp-sent)" \
	"1-$((before + 1))"
check "every entry flushed: no congestion record left" eval \
	'on "$r" qp flush && is "$(stat_json "$r" qp-count) $(stat_json "$r" cong-count)" "0 0"'

# Test the endpoint case: the helper on b sends CNPs for what it receives.
# r's existing conntracks keep the helper, and with it r's CNPs and CE
# clearing: turn those off so that b alone reacts.
endpoint()
{
	on "$r" config set cnp off &&
		ip netns exec "$r" nft delete table inet rocect &&
		ip netns exec "$b" nft -f <(nft_roce_ruleset) &&
		on "$b" config set cnp on cnp-interval-us 1
}
check "helper on b instead of r, cnp on" endpoint
check "c1 handshake, tracked by b" send "$a" c1-req
check "... b's reply" send "$b" c1-rep
check "... RTU" send "$a" c1-rtu
at_a=$(cnps_at_a)
check "CE packet to b" send "$a" c1-data
check "... b sent a CNP" is "$(stat_json "$b" cnp-sent)" 1
check "... it reached a" busywait 5000 a_has $((at_a + 1))

cleanup_all_ns
check "module unloads" busywait 10000 rmmod $MODULE
check "no kernel warnings" dmesg_clean
finish

#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The service policy (rocect policy), on a router with crafted CM:
#
#   a (10.0.1.1, .2; fd00:1::1) -- r (helper, unknown-qp drop) -- b (10.0.2.1; fd00:2::1)
#
# Rules decide a REQ by its prefixes and Service ID, first match wins:
# accept tracks it (a mark goes on its data flows, seen by conntrack and
# by an nft rule), drop keeps it from b and tracks nothing, so its data is
# dropped too; reject answers the client in the server's name with a REJ
# (SIDR_REP), decoded by scapy, at most reject-max-rate a second; no rule:
# config policy-default. IPv4 and IPv6, a port space's mask, SIDR, hit
# counters, delete and flush, bad rules refused with an error naming what
# is wrong.

source "$(dirname "$0")/lib.sh"

ksft_start conntrack tcpdump

craft_packets()
{
	pkts=$(mktemp -d)
	craft "$pkts" "
A, A2, B, A6, B6 = '10.0.1.1', '10.0.1.2', '10.0.2.1', 'fd00:1::1', 'fd00:2::1'

def conn(name, a, b, port, cid, qps):
    ex = roce_pkt.cm_exchange(a, b, port=port, comm_ids=cid, qpns=qps)
    fam = roce_pkt.family_of(a)
    for k in ('req', 'rep', 'rtu'):
        save(name + '-' + k, ex[k])
    # Two data packets on a flow of their own, at the REP's starting PSN.
    save(name + '-data', *[roce_pkt.data_packet(fam, a, b, 0x04, qps[1], i,
         payload_len=64, ip_args={'sport': 0xd000 + qps[0]}) for i in (0, 1)])

conn('p1', A, B, 4420, (0x101, 0x201), (0x11, 0x21))
conn('p2', A, B, 9999, (0x102, 0x202), (0x12, 0x22))
conn('p3', A2, B, 7174, (0x103, 0x203), (0x13, 0x23))
conn('p4', A, B, 7174, (0x104, 0x204), (0x14, 0x24))
conn('p5', A6, B6, 4420, (0x105, 0x205), (0x15, 0x25))
conn('p6', A6, B6, 7174, (0x106, 0x206), (0x16, 0x26))
conn('p7', A6, B6, 5555, (0x107, 0x207), (0x17, 0x27))
save('s1-req', roce_pkt.cm_packet(4, A, B, 'sidr_req', local_comm_id=0x77,
     service_id=roce_pkt.rdma_cm_service_id(7174, roce_pkt.PS_UDP)))
conn('p8', A, B, 3260, (0x108, 0x208), (0x18, 0x28))
conn('p9', A6, B6, 3260, (0x109, 0x209), (0x19, 0x29))
save('s2-req', roce_pkt.cm_packet(6, A6, B6, 'sidr_req', local_comm_id=0x78,
     tid=0x55, service_id=roce_pkt.rdma_cm_service_id(3260, roce_pkt.PS_UDP)))
save('p4x-req', roce_pkt.cm_exchange(A, B, port=3260, comm_ids=(0x104, 0x204),
     qpns=(0x14, 0x24))['req'])
p10 = roce_pkt.cm_exchange(A, B, port=3260, comm_ids=(0x10a, 0x20a), qpns=(0x1a, 0x2a))['req']
save('p10-req3', p10, p10, p10)
" 2>/dev/null
}

conn_state() { on "$r" -j conn | jq -r --argjson c "$1" '.[] | select(.acomm_id == $c) | .state'; }
# rule_hits INDEX: the hits of the rule at INDEX.
rule_hits() { on "$r" -j policy show | jq --argjson i "$1" '.[] | select(.index == $i) | .hits'; }
# flow_mark SPORT: the mark of r's conntrack of the data flow from SPORT.
flow_mark()
{
	ip netns exec "$r" conntrack -L -p udp --sport "$1" --dport 4791 2>/dev/null |
		sed -n 's/.* mark=\([0-9]*\).*/\1/p'
}
# refused WORDS...: "rocect policy WORDS" fails; prints its error.
refused()
{
	local err

	err=$(on "$r" policy "$@" 2>&1) && { echo "accepted: $*"; return 1; }
	echo "$err"
}

check "module installed for modprobe" install_module
check "packets crafted with scapy" craft_packets
check "topology up" setup_router_topology
check "helper on r" ip netns exec "$r" nft -f <(nft_roce_ruleset)
check "RoCE counted where it arrives at a and b" count_roce_input "$a" "$b"
check "r: unknown-qp drop" on "$r" config set unknown-qp drop
check "r counts marked RoCE it forwards (nft ct mark)" ip netns exec "$r" nft -f - <<-EOT
	table inet marks {
	    chain forward {
	        type filter hook forward priority filter;
	        udp dport 4791 ct mark 0x42 counter
	    }
	}
EOT
check "an empty policy shows no rules" is "$(on "$r" -j policy show)" "[]"
ip netns exec "$r" "$ROCECT" -j monitor >"$pkts/events" 2>"$pkts/monitor.err" &
mon=$!
bg=$mon
check "r's events monitored" busywait 20000 grep -q monitoring "$pkts/monitor.err"

# The rules, in order: A2 may open nothing; NVMe-oF (tcp 4420) to b's
# subnet is marked 0x42; rping's port (tcp 7174) from anywhere; NVMe-oF
# from a's IPv6 subnet is marked 0x66; no UDP port space service.
check "rule 0: from 10.0.1.2 drop" on "$r" policy add from 10.0.1.2 drop
check "rule 1: to 10.0.2.0/24 service tcp:4420 accept mark 0x42" \
	on "$r" policy add to 10.0.2.0/24 service tcp:4420 accept mark 0x42
check "rule 2: service tcp:7174 accept" on "$r" policy add service tcp:7174 accept
check "rule 3: from fd00:1::/64 service tcp:4420 accept mark 0x66" \
	on "$r" policy add from fd00:1::/64 service tcp:4420 accept mark 0x66
check "rule 2 again, at index 2: refused as a duplicate" \
	is "$(refused add index 2 service tcp:7174 drop)" \
	"rocect: a rule of the same match exists: File exists"
check "rule 4 inserted before rule 3: service udp drop" \
	on "$r" policy add index 3 service udp drop
check "policy-default drop" on "$r" config set policy-default drop
check "config shows it" is "$(on "$r" -j config | jq -r .policy_default)" drop
check "policy show: the rules in order" is \
	"$(on "$r" -j policy show | jq -r '.[] | "\(.index) \(.from) \(.to) \(.service) \(.action) \(.mark // 0)"' | paste -sd ';')" \
	"0 10.0.1.2/32 0.0.0.0/0 any drop 0;1 0.0.0.0/0 10.0.2.0/24 tcp:4420 accept 66;2 any any tcp:7174 accept 0;3 any any udp drop 0;4 fd00:1::/64 ::/0 tcp:4420 accept 102"
check "... and as a table" sh -c "$ROCECT -n $r policy show | grep -Eq '^1 +any +0\.0\.0\.0/0 +10\.0\.2\.0/24 +tcp:4420 +accept +66 +0 *\$'"

# Test accept with a mark (IPv4): p1 is tracked, its data flow marked.
snap
check "p1 (tcp:4420) REQ, REP, RTU" xchg "$a" p1-req "$b" p1-rep "$a" p1-rtu
check "... established on r" is "$(conn_state 257)" established
check "... rule 1 decided it" is "$(rule_hits 1)" 1
check "p1 data (two packets on a new flow)" eval 'send "$a" p1-data && fence b'
check "... both reached b" is "$(got b)" 4
check "... the flow's conntrack has mark 0x42" is "$(flow_mark $((0xd011)))" 66
check "... which nft matches (from the flow's second packet)" \
	test "$(nft_packets "$r" marks forward)" -ge 1

# Test the default: p2 (tcp:9999) matches no rule and is dropped.
snap
check "p2 (tcp:9999) REQ" eval 'send "$a" p2-req && fence b'
check "... never reached b; counted as default and dropped" \
	is "$(got b) $(grew policy-default policy-dropped)" "0 1 1"
check "... no connection on r" is "$(conn_state 258)" ""
check "p2 data: dropped as of no QP" \
	is "$(sent "$a" p2-data b unknown-qp-dropped)" "0 2"

# Test first match: p3 from 10.0.1.2 to rping's port is dropped by rule 0.
snap
check "p3 (10.0.1.2, tcp:7174) REQ" eval 'send "$a" p3-req && fence b'
check "... dropped by rule 0, not accepted by rule 2" \
	is "$(got b) $(grew policy-dropped policy-default) $(rule_hits 0) $(rule_hits 2)" "0 1 0 1 0"
check "p4 (10.0.1.1, tcp:7174) REQ, REP, RTU" xchg "$a" p4-req "$b" p4-rep "$a" p4-rtu
check "... accepted by rule 2, established" is "$(rule_hits 2) $(conn_state 260)" "1 established"
check "... its data flow has no mark" eval 'send "$a" p4-data && fence b'
check "... (conntrack mark 0)" is "$(flow_mark $((0xd014)))" 0

# Test IPv6: the IPv4 prefix of rule 1 does not match, rule 4 does.
check "p5 (fd00:1::1, tcp:4420) REQ, REP, RTU" xchg "$a" p5-req "$b" p5-rep "$a" p5-rtu
check "... rule 4 decided it, established" is "$(rule_hits 4) $(conn_state 261)" "1 established"
check "p5 data" send "$a" p5-data
check "... its flow has mark 0x66" busywait 3000 sh -c "[ \"\$(ip netns exec $r conntrack -L -f ipv6 -p udp --sport $((0xd015)) 2>/dev/null | sed -n 's/.* mark=\([0-9]*\).*/\1/p')\" = 102 ]"
check "p6 (IPv6, tcp:7174): rule 2, a rule of no family" \
	eval 'xchg "$a" p6-req "$b" p6-rep "$a" p6-rtu && [ "$(rule_hits 2)" = 2 ]'
snap
check "p7 (IPv6, tcp:5555): dropped by default" eval 'send "$a" p7-req && fence b'
check "... counted" is "$(grew policy-default policy-dropped) $(conn_state 263)" "1 1 "

# Test a port space's mask: a SIDR_REQ for udp:7174 meets rule 3.
snap
check "SIDR_REQ udp:7174" eval 'send "$a" s1-req && fence b'
check "... dropped by rule 3 (service udp)" \
	is "$(got b) $(grew policy-dropped policy-default) $(rule_hits 3)" "0 1 0 1"

# Test reject: iSER (tcp:3260) and a UD service on udp:3260 are refused in
# b's name; a captures what comes back.
# rej_json: the replies a captured, decoded once (scapy starts slowly).
rej_json() { cat "$pkts/rej.json"; }
ip netns exec "$a" tcpdump -i veth0 -U -w "$pkts/a.pcap" udp dst port 4791 \
	2>"$pkts/tcpdump.err" &
cap=$!
bg="$mon $cap"
check "capture on a" busywait 20000 grep -q listening "$pkts/tcpdump.err"
check "rule: index 0 service tcp:3260 reject" on "$r" policy add index 0 service tcp:3260 reject
check "rule: index 0 service udp:3260 reject" on "$r" policy add index 0 service udp:3260 reject
snap
check "p8 (tcp:3260) REQ" eval 'send "$a" p8-req && fence b'
check "... never reached b; dropped and answered" \
	is "$(got b) $(grew policy-dropped policy-rejected policy-rej-unsent)" "0 1 1 0"
check "... a got the REJ" busywait 5000 rx_above "$a" "$at_a"
check "p9 (IPv6, tcp:3260) REQ and SIDR_REQ udp:3260" send "$a" p9-req s2-req
check "... both answered" busywait 5000 sh -c "[ \$($ROCECT -n $r -j stats | jq .policy_rejected) -eq 3 ]"
check "... no connection on r" is "$(conn_state 264)$(conn_state 265)" ""
check "... a got them" busywait 5000 rx_above "$a" $((at_a + 2))
kill "$cap"
wait "$cap" 2>/dev/null
cap=
bg=$mon
"$PYTHON" "$SELFTESTS_DIR/wire/cm_reply_check.py" "$pkts/a.pcap" >"$pkts/rej.json" 2>/dev/null
log_test $? "capture decoded by scapy"
check "... three replies" is "$(rej_json | wc -l)" 3
check "the REJ of p8: from b to a, to the REQ's comm ID, reason 8 (invalid service ID)" is \
	"$(rej_json | jq -r 'select(.family == 4) | "\(.src) \(.dst) \(.sport) \(.dport) \(.attr) \(.local_comm_id) \(.remote_comm_id) \(.msg_target) \(.reason) \(.tid)"')" \
	"10.0.2.1 10.0.1.1 49152 4791 rej 0 264 0 8 4294967297"
check "... a UD SEND_ONLY from QP1 to QP1, GSI Q_Key, CM class 2, Send, ICRC right" is \
	"$(rej_json | jq -r 'select(.family == 4) | "\(.opcode) \(.pkey) \(.dqpn) \(.sqpn) \(.qkey) \(.class) \(.class_version) \(.method) \(.len) \(.icrc_ok)"')" \
	"100 65535 1 1 2147549184 7 2 3 308 true"
check "the REJ of p9 (IPv6): its fields, ICRC and UDP checksum right" is \
	"$(rej_json | jq -r 'select(.attr == "rej" and .family == 6) | "\(.src) \(.remote_comm_id) \(.reason) \(.icrc_ok) \(.udp_csum_ok)"')" \
	"fd00:2::1 265 8 true true"
check "the SIDR_REP: request ID, status 1 (not supported), the service, no QPN" is \
	"$(rej_json | jq -r 'select(.attr == "sidr_rep") | "\(.src) \(.request_id) \(.status) \(.service_id) \(.qpn) \(.tid) \(.icrc_ok) \(.udp_csum_ok)"')" \
	"fd00:2::1 120 1 $((0x1110cbc)) 0 85 true true"
# p4 is established (tcp:7174); a REQ under its comm ID for tcp:3260 is
# no retransmission of it, and the policy decides it.
snap
check "p4's comm ID asking for tcp:3260" eval 'send "$a" p4x-req && fence b'
check "... refused: never reached b, dropped and answered" \
	is "$(got b) $(grew policy-dropped policy-rejected)" "0 1 1"
check "... p4 still established" is "$(conn_state 260)" established
check "reject-max-rate 1" on "$r" config set reject-max-rate 1
snap
check "three REQs at once (tcp:3260): all dropped" eval 'send "$a" p10-req3 && fence b'
g=$(grew policy-dropped policy-rejected policy-rej-unsent)
check "... one answered at most, the others counted unsent ($g)" \
	eval '[ "$g" = "3 1 2" ] || [ "$g" = "3 0 3" ]'
check "the reject rules deleted" eval 'on "$r" policy del service tcp:3260 && on "$r" policy del service udp:3260'

# Test bad rules: each error names what is wrong.
check "a prefix longer than its family" is "$(refused add from 10.0.0.0/33 accept)" \
	"rocect: from: prefix length '33' is longer than an IPv4 address"
check "an unknown port space" is "$(refused add service sctp:1 accept)" \
	"rocect: service: unknown port space or service ID 'sctp:1' (tcp, udp, ib, ipoib[:PORT] or SID[/MASK])"
check "bits past the prefix (kernel)" sh -c "$ROCECT -n $r policy add from 10.0.0.1/8 accept 2>&1 | grep -q 'bits past its length'"
check "a mark on a dropping rule (kernel)" sh -c "$ROCECT -n $r policy add service tcp:1 drop mark 1 2>&1 | grep -q 'only an accepting rule marks'"
check "prefixes of two families (kernel)" sh -c "$ROCECT -n $r policy add from 10.0.0.0/8 to fd00::/8 accept 2>&1 | grep -q 'family'"
check "a service ID with bits outside its mask (kernel)" sh -c "$ROCECT -n $r policy add service 0x1060001/0xffffffffffff0000 accept 2>&1 | grep -q 'outside its mask'"
check "an index past the end (kernel)" sh -c "$ROCECT -n $r policy add index 9 service tcp:1 accept 2>&1 | grep -q 'past the end'"
check "no action" is "$(refused add service tcp:1)" "rocect: a rule needs an action: accept, drop or reject"
check "del of no such rule" sh -c "$ROCECT -n $r policy del service tcp:2 2>&1 | grep -q 'no such rule'"
check "still five rules" is "$(on "$r" -j policy show | jq length)" 5

# Test delete (by match, by index) and flush; a new rule applies to new
# REQs: p2's retransmitted REQ is accepted once the default is accept.
check "del by match: the udp rule" on "$r" policy del service udp
check "del by index: rule 0" on "$r" policy del index 0
check "three left, renumbered" is \
	"$(on "$r" -j policy show | jq -r '[.[] | "\(.index):\(.service)"] | join(" ")')" \
	"0:tcp:4420 1:tcp:7174 2:tcp:4420"
rules() { on "$r" -j policy show | jq -c 'map(del(.hits))'; }
kept=$(rules)
check "save writes the rules as policy lines, in order" is \
	"$(on "$r" save | grep '^policy' | paste -sd ';')" \
	"policy flush;policy add from 0.0.0.0/0 to 10.0.2.0/24 service tcp:4420 accept mark 66;policy add service tcp:7174 accept;policy add from fd00:1::/64 to ::/0 service tcp:4420 accept mark 102"
check "... to a file" eval 'on "$r" save >"$pkts/saved"'
hits=$(rule_hits 1)
check "restore of the same rules changes nothing (hits kept)" \
	eval 'on "$r" restore "$pkts/saved" && [ "$(rules)" = "$kept" ] && [ "$(rule_hits 1)" = "$hits" ]'
check "restore after a rule is deleted and one added: the file's rules" \
	eval 'on "$r" policy del index 1 && on "$r" policy add service ib drop &&
	      on "$r" restore "$pkts/saved" && [ "$(rules)" = "$kept" ]'
check "the saved file replayed with -b: the same rules" \
	eval 'on "$r" -b "$pkts/saved" && [ "$(rules)" = "$kept" ]'
check "flush" on "$r" policy flush
check "... none left" is "$(on "$r" -j policy show | jq length)" 0
check "policy-default accept" on "$r" config set policy-default accept
snap
check "p2's REQ again" eval 'send "$a" p2-req && fence b'
check "... now reaches b and is tracked" is "$(got b) $(conn_state 258)" "1 req"

# Test the events: each change of the rules, each refused REQ.
kill "$mon"
wait "$mon" 2>/dev/null
bg=
ev() { jq -c "select($1) | $2" "$pkts/events"; }
check "events: the first rule's policy-add" is \
	"$(ev '.event == "policy-add"' '[.index, .from, .action]' | head -n1)" '[0,"10.0.1.2/32","drop"]'
check "events: p2 refused by default (drop)" is \
	"$(ev '.event == "refused" and .service == "tcp:9999"' '[.from, .to, .action, .rule]' | head -n1)" \
	'["10.0.1.1","10.0.2.1","drop","default"]'
check "events: p3 refused by rule 0" is \
	"$(ev '.event == "refused" and .from == "10.0.1.2"' '[.service, .rule]')" '["tcp:7174",0]'
check "events: p8 rejected by rule 1, p9 (IPv6) too, the SIDR_REQ by rule 0" is \
	"$(ev '.event == "refused" and .action == "reject"' '"\(.from) \(.service) \(.rule)"' | head -n3 | paste -sd ';')" \
	'"10.0.1.1 tcp:3260 1";"fd00:1::1 tcp:3260 1";"fd00:1::1 udp:3260 0"'
check "events: the udp rule's policy-del, with its final hits" is \
	"$(ev '.event == "policy-del" and .service == "udp"' '[.index, .hits]')" '[3,1]'
check "events: policy-flush" test "$(ev '.event == "policy-flush"' '.' | wc -l)" -ge 1
check "events: no refused event for an accepted REQ" is \
	"$(ev '.event == "refused" and (.service == "tcp:4420" or .service == "tcp:7174" and .from == "10.0.1.1")' '.' | wc -l)" 0

check "rmmod with rules loaded" eval 'on "$r" policy add service tcp:1 drop &&
	ip netns exec "$r" nft delete table inet rocect && unload_module'
check "kernel log clean" dmesg_clean

cleanup_all_ns
finish

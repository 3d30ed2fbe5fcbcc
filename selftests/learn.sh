#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# learn on: QP entries for traffic that never used RDMA CM, on the router:
#
#   a (10.0.1.1, fd00:1::1) -- r (helper, learn) -- b (10.0.2.1, fd00:2::1)
#
# Four RC pairs between the same two hosts (SEND, WRITE with PSNs wrapping
# at 0xffffff, READ, and one over IPv6) send requests from a and responses
# from b, interleaved, in reverse order, with an ACK lost and one repeated:
# r infers exactly those pairs, both directions, and nothing with learn
# off. A forged ACK and responses that agree with two QPs make no pair; a
# UD packet's entry comes from its DETH, but a UD packet cannot replace an
# inferred pair's entry, while a CM handshake does. Inferred entries take
# at most half of max-qps, and one sender at most source-share of that
# half: a flood of UD QPs from a leaves b's to infer. CNPs go to an inferred pair's QP, not for m's
# CE-marked packet in a's name from another interface; the
# unknown-qp drop policy does not admit inferred entries until `qp add`
# promotes one; idle inferred entries expire.

source "$(dirname "$0")/lib.sh"

ksft_start

A=10.0.1.1
B=10.0.2.1
A6=fd00:1::1
B6=fd00:2::1

craft_packets()
{
	pkts=$(mktemp -d)
	chmod 755 "$pkts"
	craft "$pkts" "
A, B, A6, B6 = '$A', '$B', '$A6', '$B6'
dp = roce_pkt.data_packet
fam = roce_pkt.family_of
def pkt(s, d, op, dqpn, psn, n=0, tos=0):
    return dp(fam(s), s, d, op, dqpn, psn & 0xffffff, payload_len=n,
              ip_args={'sport': 0xc000 + dqpn, 'tos': tos})
# (a, b, a's QP, b's QP, first PSN of a's requests, kind)
pairs = ((A, B, 0x101, 0x201, 0x100000, 'send'),
         (A, B, 0x102, 0x202, 0xfffffd, 'write'),
         (A, B, 0x103, 0x203, 0x700000, 'read'),
         (A6, B6, 0x104, 0x204, 0x300000, 'send'))
for rnd in range(4):
    reqs, resps = [], []
    for a, b, aqp, bqp, start, kind in pairs:
        if kind == 'read':
            # One READ of four packets a round: responses at PSN p to p+3.
            p = start + rnd * 4
            reqs.append(pkt(a, b, 0x0c, bqp, p))
            resps.append([pkt(b, a, op, aqp, p + i, 64)
                          for i, op in enumerate((0x0d, 0x0e, 0x0e, 0x0f))])
            continue
        op = 0x04 if kind == 'send' else 0x0a
        p = start + rnd * 2
        reqs += [pkt(a, b, op, bqp, p, 64), pkt(a, b, op, bqp, p + 1, 64)]
        # One coalesced ACK for both; the SEND pair's is lost in round 1
        # and repeated in round 2.
        acks = [pkt(b, a, 0x11, aqp, p + 1)]
        if aqp == 0x101 and rnd == 1:
            acks = []
        if aqp == 0x101 and rnd == 2:
            acks *= 2
        resps.append(acks)
    save('req%d' % rnd, *reqs)
    save('resp%d' % rnd, *[p for r in reversed(resps) for p in r])
# A request to 0x301, then forged ACKs to a QP 0x666 of a, same PSN.
save('forge-req', pkt(A, B, 0x04, 0x301, 0x123456, 64))
save('forge-ack', *[pkt(B, A, 0x11, 0x666, 0x123456)] * 5)
# Two QPs whose PSNs are close: responses agree with both.
save('close-req', *[pkt(A, B, 0x04, q, p, 64) for q, p in
                    ((0x501, 100), (0x501, 101), (0x502, 99), (0x502, 100))])
save('close-ack', *[pkt(B, A, 0x11, 0x601, p) for p in (100, 100, 100)])
save('ud', dp(4, A, B, 0x64, 0x401, 1, payload_len=64, deth_sqpn=0x402,
              ip_args={'sport': 0xe000}))
# A UD packet claiming the WRITE pair's QP 0x202; another UD QP.
save('ud-lie', dp(4, A, B, 0x64, 0x202, 1, payload_len=64, deth_sqpn=0x999,
                  ip_args={'sport': 0xe001}))
save('ud2', dp(4, A, B, 0x64, 0x411, 1, payload_len=64, deth_sqpn=0x412,
               ip_args={'sport': 0xe002}))
# A flood of UD QPs from a (one source QP 0x777), and one UD QP of b.
save('udflood', *[dp(4, A, B, 0x64, 0x700 + i, 1, payload_len=64,
                     deth_sqpn=0x777, ip_args={'sport': 0xe100 + i})
                  for i in range(16)])
save('udb', dp(4, B, A, 0x64, 0x7ff, 1, payload_len=64, deth_sqpn=0x778,
               ip_args={'sport': 0xe200}))
# An RDMA CM handshake of the IPv6 pair's QPs.
ex = roce_pkt.cm_exchange(A6, B6, comm_ids=(0x1001, 0x2001), qpns=(0x104, 0x204))
for k in ('req', 'rep', 'rtu'):
    save('cm-' + k, ex[k])
save('p1-ce', pkt(A, B, 0x04, 0x201, 0x100100, 64, tos=3))
save('p1-data', pkt(A, B, 0x04, 0x201, 0x100101, 64))
" 2>/dev/null
}

setup()
{
	setup_router_topology && setup_attacker || return 1
	ip netns exec "$r" nft -f <(nft_roce_ruleset) || return 1
	# CNPs to a's QP 0x101; p1's data reaching b.
	count_input "$a" "udp dport 4791 @th,64,8 0x81 @th,104,24 0x101 counter" &&
		count_input "$b" "udp dport 4791 @th,104,24 0x201 counter"
}

# The inferred entries on r, one "src dst dqpn sqpn" line each, sorted.
inferred() {
	on "$r" -j qp show origin inferred |
		jq -r '.[] | "\(.src) \(.dst) \(.dqpn) \(.sqpn)"' | sort
}
count() { on "$r" -j qp show "$@" | jq length; }
# round N: a's requests, then b's responses.
round() { send "$a" "req$1" && send "$b" "resp$1"; }

expected_pairs()
{
	local a b aq bq

	while read -r a b aq bq; do
		echo "$a $b $((bq)) $((aq))"
		echo "$b $a $((aq)) $((bq))"
	done <<-EOT | sort
		$A $B 0x101 0x201
		$A $B 0x102 0x202
		$A $B 0x103 0x203
		$A6 $B6 0x104 0x204
	EOT
}

check "module installed for modprobe" install_module
check "packets crafted with scapy" craft_packets
check "topology: helper on r" setup

# Test that nothing is inferred by default.
check "default: learn off" is "$(on "$r" -j config | jq -r .learn)" off
check "a round of requests and responses" round 0
check "... no entry" is "$(count)" 0

# Test four interleaved pairs: SEND, WRITE across the PSN wrap, READ, IPv6.
check "learn on" on "$r" config set learn on
for n in 0 1 2 3; do
	check "round $n: requests from a, responses from b (reordered)" round $n
done
check "r inferred the four pairs, both directions" \
	is "$(inferred | tr '\n' ';')" "$(expected_pairs | tr '\n' ';')"
check "... counted: qp-inferred 8" is "$(stat_json "$r" qp-inferred)" 8
on "$r" qp show origin inferred | sed 's/^/    /'
# The WRITE pair was inferred in round 2: round 3's two requests and one
# ACK were counted on its entries.
check "... they expire after idle-timeout (300 s)" \
	test "$(on "$r" -j qp show dqpn 0x202 | jq '.[0].timeout_s')" -ge 290
check "... counted from then on: 2 requests, 1 ACK" is \
	"$(on "$r" -j qp show dqpn 0x202 | jq -r '.[0] | "\(.state) \(.packets)"') $(on "$r" -j qp show dqpn 0x102 | jq '.[0].packets')" \
	"established 2 1"

# Test that forged and ambiguous responses make no pair.
check "a request to 0x301" send "$a" forge-req
check "... five forged ACKs to a's QP 0x666 with its PSN" send "$b" forge-ack
check "... no entry for either QP" \
	is "$(count dqpn 0x301)$(count dqpn 0x666)" 00
check "requests to 0x501 and 0x502 with close PSNs" send "$a" close-req
check "... ACKs to 0x601 agreeing with both" send "$b" close-ack
check "... no entry, counted as ambiguous" \
	is "$(count dqpn 0x601)-$(stat_json "$r" learn-ambiguous)" 0-3

# Test UD: the DETH names the source.
check "UD packet to 0x401 from a's QP 0x402" send "$a" ud
check "... entry from the DETH" is \
	"$(on "$r" -j qp get src $A dst $B dqpn 0x401 | jq -r '.[0] | "\(.sqpn) \(.origin)"')" \
	"1026 inferred"

# Test what may replace an inferred entry: a UD packet may not, a
# handshake may.
check "a UD packet claiming QP 0x202 comes from 0x999" send "$a" ud-lie
check "... the inferred pair's entry stands" is \
	"$(on "$r" -j qp get src $A dst $B dqpn 0x202 | jq '.[0].sqpn')" 258
handshake() { send "$a" cm-req && send "$b" cm-rep && send "$a" cm-rtu; }
check "an RDMA CM handshake of the IPv6 pair's QPs" handshake
check "... its entries are learned now" is \
	"$(on "$r" -j qp show dqpn 0x204 | jq -r '.[0].origin')" learned

# Test that inferred entries take at most half of max-qps (now 7 of them).
full=$(stat_json "$r" table-full)
check "max-qps 14" on "$r" config set max-qps 14
check "a UD packet to 0x411" send "$a" ud2
check "... no entry, counted as table-full" \
	is "$(count dqpn 0x411)-$(($(stat_json "$r" table-full) - full))" 0-1
check "max-qps back to 65536" on "$r" config set max-qps 65536

# Test that one sender holds at most source-share of the inferred half:
# max-qps 100 and source-share 20, 10 inferred entries for a's address.
held_by() { on "$r" -j qp show origin inferred | jq "[.[] | select(.src == \"$1\")] | length"; }
a_had=$(held_by $A)
refused=$(stat_json "$r" qp-source-full)
check "max-qps 100, source-share 20" on "$r" config set max-qps 100 source-share 20
check "16 UD packets from a, each to another QP" send "$a" udflood
check "... a holds 10 inferred entries, $((a_had + 16 - 10)) refused" is \
	"$(held_by $A) $(($(stat_json "$r" qp-source-full) - refused))" "10 $((a_had + 16 - 10))"
check "a UD packet from b" send "$b" udb
check "... inferred for b" is "$(count dqpn 0x7ff)" 1
forget_flood() {
	on "$r" -j qp show origin inferred |
		jq -r '.[] | select(.sqpn == 1911 or .sqpn == 1912) |
		       "qp del src \(.src) dst \(.dst) dqpn \(.dqpn)"' |
		on "$r" -b -
}
check "the flood's entries deleted; max-qps, source-share as before" \
	eval 'forget_flood && on "$r" config set max-qps 65536 source-share 25'

# Test that CNPs reach an inferred pair's QP.
check "cnp on" on "$r" config set cnp on
check "a CE-marked packet a -> b QP 0x201" send "$a" p1-ce
check "... a CNP reached a's QP 0x101" \
	busywait 5000 eval '[ "$(nft_packets "$a" cnt in)" = 1 ]'
check "the same packet from m, on another interface of r" send "$m" p1-ce
check "... not a's (wrong-iface)" busywait 5000 eval '[ "$(stat_json "$r" wrong-iface)" = 1 ]'
sleep 1
check "... no CNP for it" is "$(nft_packets "$a" cnt in)" 1

# Test strict mode: inferred entries do not open it; a promoted one does.
b_before=$(nft_packets "$b" cnt in)
dropped=$(stat_json "$r" unknown-qp-dropped)
check "unknown-qp drop" on "$r" config set unknown-qp drop
check "3 packets of the inferred pair" send "$a" p1-data p1-data p1-data
check "... dropped and counted" is \
	"$(($(nft_packets "$b" cnt in) - b_before)) $(($(stat_json "$r" unknown-qp-dropped) - dropped))" "0 3"
promote() {
	on "$r" -j qp show origin inferred dqpn 0x201 |
		jq -r '.[] | "qp add src \(.src) dst \(.dst) dqpn \(.dqpn) sqpn \(.sqpn)"' |
		on "$r" -b -
}
check "promote: qp add of the inferred entry's key, from its JSON" promote
check "... now managed" is \
	"$(on "$r" -j qp get src $A dst $B dqpn 0x201 | jq -r '.[0].origin')" managed
check "... 3 packets pass" send "$a" p1-data p1-data p1-data
check "... b received them" is "$(($(nft_packets "$b" cnt in) - b_before))" 3

# Test expiry: idle inferred entries go, the managed one stays.
expired=$(stat_json "$r" qp-expired)
check "idle-timeout 2 s" on "$r" config set idle-timeout 2 unknown-qp accept
check "... inferred entries expire" busywait 20000 \
	eval '[ "$(count origin inferred)$(count origin learned)" = 00 ]'
# Six inferred, and the two of the handshake's connection, idle as well.
check "... counted as expired" is "$(($(stat_json "$r" qp-expired) - expired))" 8
check "... the managed entry stays" is "$(count origin managed)" 1

cleanup_all_ns
check "module unloads" busywait 10000 rmmod $MODULE
check "no kernel warnings" dmesg_clean
finish

#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The QP binding cannot be turned against the real sender: an attacker on
# the sender's own link, who spoofs its addresses and computes its UDP
# source port, sends what a blind attacker can:
#
#   a (10.0.1.1, fd00:1::1) -- r (helper, drop mode) -- b (10.0.2.1, fd00:2::1)
#
# - before the first data, one packet per QP direction from another port
#   with a PSN 2^23 away: it fails the window and binds nothing, and the
#   real sender's packets then all pass; one from another port with a PSN
#   inside the window passes but binds no port (it is not in sequence),
#   and the real sender's packets pass too;
# - after real data, 400 uniformly random PSNs per QP direction with the
#   real port: about 1 in 2048 passes (the test allows 10 of 2400), and
#   the real sender's next packets then all pass;
# - an attacker who knew the window and landed 30 packets just inside it
#   in turn: the peer's acknowledgements keep the real sender in;
# - one direction seen (a managed entry): the blind rate, printed;
# - an RDMA READ of 2 GiB (2^21 packets at the REQ's 1024-byte MTU, twice
#   the old window): the requester's next request 2^21 on passes, one
#   5000 beyond it does not, and the READ asked again from its middle
#   (responses lost after r) passes.
# Nothing that fails binds or moves: the entry's packet count grows only
# by what passed.

source "$(dirname "$0")/lib.sh"

ksft_start

NCONN=3
GUESSES=400

craft_packets()
{
	pkts=$(mktemp -d)
	craft "$pkts" "
import random
A, B = '10.0.1.1', '10.0.2.1'
rng = random.Random(4791)
kinds = {}
def p(src, dst, op, dqpn, psn, sport, n=64, ext=None):
    # scapy builds each kind once; the PSNs are patched in (with_psn).
    kind = (src, dst, op, dqpn, sport, n, ext)
    if kind not in kinds:
        kinds[kind] = bytes(roce_pkt.data_packet(4, src, dst, op, dqpn, 0,
                            payload_len=n, ext=ext, ip_args={'sport': sport}))
    return roce_pkt.with_psn(kinds[kind], psn)
for i in range($NCONN + 2):
    qa, qb = 0x100 + i, 0x200 + i
    sa, sb = 0x400000 + 0x10000 * i, 0xc00000 + 0x10000 * i
    pa, pb = 0xd000 + qa, 0xd000 + qb
    ex = roce_pkt.cm_exchange(A, B, comm_ids=(0x3000 + i, 0x4000 + i),
                              qpns=(qa, qb), psns=(sb, sa))
    save('c%d-cm' % i, ex['req'])
    save('c%d-rep' % i, ex['rep'])
    save('c%d-rtu' % i, ex['rtu'])
    # Poison: another port, 2^23 away; another port, inside the window.
    save('c%d-poison-a' % i, p(A, B, 0x04, qb, sa + 0x800000, 0xe123))
    save('c%d-poison-b' % i, p(B, A, 0x04, qa, sb + 0x800000, 0xe123))
    save('c%d-near-a' % i, p(A, B, 0x04, qb, sa + 1000, 0xe124))
    # Real data: 10 SENDs each way, each acknowledged by the peer.
    for k, base in ((1, 0), (2, 10), (3, 20)):
        save('c%d-a%d' % (i, k), *[p(A, B, 0x04, qb, sa + base + j, pa) for j in range(10)])
        save('c%d-b%d' % (i, k), *[p(B, A, 0x04, qa, sb + base + j, pb) for j in range(10)])
        save('c%d-acka%d' % (i, k), p(B, A, 0x11, qa, sa + base + 9, pb, n=0))
        save('c%d-ackb%d' % (i, k), p(A, B, 0x11, qb, sb + base + 9, pa, n=0))
    # Blind guesses with the real port.
    save('c%d-guess-a' % i, *[p(A, B, 0x04, qb, rng.randrange(1 << 24), pa)
                             for _ in range($GUESSES)])
    save('c%d-guess-b' % i, *[p(B, A, 0x04, qa, rng.randrange(1 << 24), pb)
                             for _ in range($GUESSES)])
    # Landing just inside the window ahead, 30 times in turn.
    save('c%d-walk-a' % i, *[p(A, B, 0x04, qb, sa + 20 + 4095 * k, pa)
                            for k in range(1, 31)])
# c$NCONN: a READ of 2 GiB at sa, three of its responses, the next SEND
# 2^21 on and one 5000 beyond that.
i = $NCONN
qa, qb, sa, sb = 0x100 + i, 0x200 + i, 0x400000 + 0x10000 * i, 0xc00000 + 0x10000 * i
reth = bytes(12) + (0x80000000).to_bytes(4, 'big')
save('read', p(A, B, 0x0c, qb, sa, 0xd000 + qa, n=0, ext=reth))
save('read-resp', p(B, A, 0x0d, qa, sa, 0xd000 + qb, n=1024),
     *[p(B, A, 0x0e, qa, sa + j, 0xd000 + qb, n=1024) for j in (1, 2)])
save('read-next', p(A, B, 0x04, qb, sa + (1 << 21), 0xd000 + qa))
reth = bytes(12) + (0x80000000 - 3 * 1024).to_bytes(4, 'big')
save('read-again', p(A, B, 0x0c, qb, sa + 3, 0xd000 + qa, n=0, ext=reth))
save('read-far', p(A, B, 0x04, qb, sa + (1 << 21) + 5000, 0xd000 + qa))
# A managed entry a -> b's QP 0x300, seen one way only.
save('mg-first', *[p(A, B, 0x04, 0x300, 0x100000 + j, 0xd300) for j in range(10)])
save('mg-guess', *[p(A, B, 0x04, 0x300, rng.randrange(1 << 24), 0xd300)
                   for _ in range($GUESSES)])
save('mg-next', *[p(A, B, 0x04, 0x300, 0x10000a + j, 0xd300) for j in range(10)])
" 2>/dev/null
}

# each KIND: send c<i>-KIND from a (kinds ending in a or acka) or b, for
# every connection, and print what arrived in all.
each()
{
	local i from to total=0 n

	for ((i = 0; i < NCONN; i++)); do
		case $1 in
		acka*) from=$b to=a ;;
		ackb*|*a|*a[0-9]) from=$a to=b ;;
		*) from=$b to=a ;;
		esac
		n=$(sent "$from" "c$i-$1" "$to")
		total=$((total + ${n%% *}))
	done
	echo "$total"
}
# sport DQPN: the UDP source port r's entry to b's QP DQPN is bound to.
sport() { on "$r" -j qp show dst 10.0.2.1 dqpn "$1" | jq -r '.[0].sport'; }

check "module installed for modprobe" install_module
check "packets crafted with scapy" craft_packets
check "topology a, r, b" eval 'setup_router_topology && count_roce_input "$a" "$b"'
check "helper on r" ip netns exec "$r" nft -f <(nft_roce_ruleset)
check "psn-window defaults to 4096" is "$(on "$r" -j config | jq '.psn_window')" 4096
check "unknown-qp drop" on "$r" config set unknown-qp drop idle-timeout 3600
check "$((NCONN + 2)) handshakes a -> b" eval \
	'for i in $(seq 0 $((NCONN + 1))); do
	     xchg "$a" "c$i-cm" "$b" "c$i-rep" "$a" "c$i-rtu" || exit 1
	 done'

# Before the first data: a poisoned packet per QP direction binds nothing.
check "poison: another port, PSN 2^23 away, each way: none pass" \
	is "$(each poison-a) $(each poison-b)" "0 0"
check "... counted wrong-psn" is "$(on "$r" -j stats | jq '.wrong_psn')" $((2 * NCONN))
check "... no port bound" is "$(sport 0x200) $(sport 0x201)" "null null"
check "c0: poison inside the window, another port: passes, binds no port" \
	is "$(sent "$a" c0-near-a b wrong-psn) $(sport 0x200)" "1 0 null"
check "the real senders' first 10 packets each way all pass" \
	is "$(each a1) $(each b1)" "$((10 * NCONN)) $((10 * NCONN))"
check "... and bound the real port (c0's once its sender is in sequence)" \
	is "$(sport 0x200) $(sport 0x201) $(sport 0x202)" "null 53505 53506"
check "the peers' ACKs pass" is "$(each acka1) $(each ackb1)" "$NCONN $NCONN"

# Blind guesses with the real port, after real data.
snap
for ((i = 0; i < NCONN; i++)); do
	send "$a" "c$i-guess-a"
	send "$b" "c$i-guess-b"
done
fence a
fence b
passed=$(($(got a) + $(got b)))
dropped=$(grew wrong-psn)
echo "# blind guesses, both directions seen: $passed of $((2 * NCONN * GUESSES)) passed, $dropped counted wrong-psn"
check "blind guesses: at most 10 of $((2 * NCONN * GUESSES)) pass" test "$passed" -le 10
check "... every other one counted wrong-psn" \
	test "$((passed + dropped))" -eq $((2 * NCONN * GUESSES))
check "the real senders' next 10 packets each way all pass" \
	is "$(each a2) $(each b2)" "$((10 * NCONN)) $((10 * NCONN))"
check "... and their ACKs" is "$(each acka2) $(each ackb2)" "$NCONN $NCONN"

# Landing inside the window 30 times in turn moves next, not the floor.
check "30 packets each just inside the window ahead: all pass" is "$(each walk-a)" $((30 * NCONN))
check "the real senders' next packets still all pass" \
	is "$(each a3) $(each b3)" "$((10 * NCONN)) $((10 * NCONN))"

# A READ of 2^21 packets: the next request 2^21 on.
check "a's READ of 2 GiB, 3 of b's responses: pass" \
	is "$(sent "$a" read b wrong-psn) $(sent "$b" read-resp a wrong-psn)" "1 0 3 0"
check "... a's next SEND 2^21 PSNs on passes" is "$(sent "$a" read-next b wrong-psn)" "1 0"
check "... one 5000 beyond it does not" is "$(sent "$a" read-far b wrong-psn)" "0 1"
check "... the READ asked again from its 4th packet (responses lost after r): passes" \
	is "$(sent "$a" read-again b wrong-psn)" "1 0"

# One direction seen: a managed entry, no peer to acknowledge.
check "managed a -> b's QP 0x300" on "$r" qp add src 10.0.1.1 dst 10.0.2.1 dqpn 0x300 sqpn 0x301
check "... its sender's first 10 packets pass" is "$(sent "$a" mg-first b wrong-psn)" "10 0"
mg=$(sent "$a" mg-guess b wrong-psn)
echo "# blind guesses, one direction seen: ${mg%% *} of $GUESSES passed"
check "... blind guesses: at most 10 of $GUESSES pass" test "${mg%% *}" -le 10
check "... its sender's next packets pass" is "$(sent "$a" mg-next b wrong-psn)" "10 0"
check "... the entry counted only what passed" \
	is "$(on "$r" -j qp show dst 10.0.2.1 dqpn 0x300 | jq '.[0].packets')" $((20 + ${mg%% *}))

check "rulesets off r (they hold the module)" ip netns exec "$r" nft flush ruleset
check "module unloads" busywait 10000 rmmod $MODULE
check "no kernel warnings" dmesg_clean
finish

#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Only a QP's sender reaches it: each QP direction is bound to the
# interface its sender's packets come in on, to the UDP source port of
# its data and to a PSN window; a CNP must come in where the peer it names
# sends from. M has a
# link of its own to r (rp_filter off) and sends in a's and b's names:
#
#   a (10.0.1.1, fd00:1::1) -- r (helper, drop mode) -- b (10.0.2.1, fd00:2::1)
#                               |
#                               m (10.0.3.1, fd00:3::1)
#
# Drop mode: M's data in a's name, a's data from another port or of
# another kind (UD to an RC QP) and M's CNPs in b's name reach nobody and
# are counted by reason, while a's and b's own packets pass; a forged
# CE-marked packet earns a no CNP; a managed entry binds to its first
# packet that passes rp-check, and its unbound reverse entry takes only
# CNPs rp-check believes; where routing moves a's address behind M's link,
# routing vouches for M (rp-check on); M's UD packet cannot bind a SIDR
# reply, nor can one with another Q_Key, and UD data must carry its QP's
# Q_Key (the SIDR_REP's, or the first packet's). RC data and responses pass within
# the PSN window (across the 24-bit wrap, retransmitted, a READ's
# responses, one direction only) and not outside it; a sender silent for
# 10 s starts a new window. A managed entry added with dev is bound to
# it before its first packet; qp replace unbinds a managed entry in place
# (port, Q_Key) for its sender's next packets to bind, and refuses a
# learned one. A monitor sees an entry bind, once; save
# keeps the binding and a restore binds at once. Accept mode counts and
# passes.
# Each check-* setting turned off lets its packets through.

source "$(dirname "$0")/lib.sh"

ksft_start

craft_packets()
{
	pkts=$(mktemp -d)
	craft "$pkts" "
A, B, A6, B6 = '10.0.1.1', '10.0.2.1', 'fd00:1::1', 'fd00:2::1'
def data(name, src, dst, dqpn, sport, **ip):
    save(name, roce_pkt.data_packet(roce_pkt.family_of(src), src, dst, 0x04,
         dqpn, 1, payload_len=64, ip_args=dict(sport=sport, **ip)))
for name, a, b, qps in (('c1', A, B, (0x17, 0x2a)), ('c6', A6, B6, (0x1c, 0x2f))):
    ex = roce_pkt.cm_exchange(a, b, comm_ids=(0x1001, 0x2001), qpns=qps)
    for k in ('req', 'rep', 'rtu'):
        save(name + '-' + k, ex[k])
data('ab', A, B, 0x2a, 0xd017)
data('ab-port', A, B, 0x2a, 0xd099)
data('ab-ce', A, B, 0x2a, 0xd017, tos=3)
data('ba', B, A, 0x17, 0xd02a)
data('ab6', A6, B6, 0x2f, 0xd01c)
data('mg', A, B, 0x55, 0xd056)
data('mg-port', A, B, 0x55, 0xd099)
data('mg2', A, B, 0x57, 0xd058)
data('mg-dev', A, B, 0x72, 0xd073)
save('ud-rc', roce_pkt.data_packet(4, A, B, 0x64, 0x2a, 1, payload_len=64,
     deth_sqpn=0x99, ip_args={'sport': 0xd017, 'tos': 3}))
save('cnp-mg', roce_pkt.cnp_packet(4, B, A, 0x56, ip_args={'sport': 0xcafe}))
save('cnp-ba', roce_pkt.cnp_packet(4, B, A, 0x17, ip_args={'sport': 0xcafe}))
sid = roce_pkt.rdma_cm_service_id(7174, 0x11)
save('s1-req', roce_pkt.cm_packet(4, A, B, 'sidr_req', local_comm_id=0x77, service_id=sid))
save('s1-rep', roce_pkt.cm_packet(4, B, A, 'sidr_rep', local_comm_id=0x77, qpn=0x5a,
                                  qkey=0x1234, service_id=sid))
for name, qkey in (('ud', 0x1234), ('ud-qkey', 0x9999)):
    save(name, roce_pkt.data_packet(4, A, B, 0x64, 0x5a, 1, payload_len=64,
         deth_qkey=qkey, deth_sqpn=0x66, ip_args={'sport': 0xe000}))
# b's replies to a's client QP 0x66 (Q_Key of a's QP, then another); UD
# to a managed entry (QP 0x70), first with 0x4321, then 0x9999.
for name, src, dst, dqpn, sqpn, qkey in (
        ('ud-ba', B, A, 0x66, 0x5a, 0x4321), ('ud-ba-qkey', B, A, 0x66, 0x5a, 0x9999),
        ('ud-mg', A, B, 0x70, 0x71, 0x4321), ('ud-mg-qkey', A, B, 0x70, 0x71, 0x9999)):
    save(name, roce_pkt.data_packet(4, src, dst, 0x64, dqpn, 1, payload_len=64,
         deth_qkey=qkey, deth_sqpn=sqpn, ip_args={'sport': 0xe001}))
# c2: starting PSNs just below the 24-bit wrap: b's requests from the
# REQ's, 0xfffff8, a's from the REP's, 0xfffff0.
ex = roce_pkt.cm_exchange(A, B, comm_ids=(0x1002, 0x2002), qpns=(0x18, 0x2b),
                          psns=(0xfffff8, 0xfffff0))
for k in ('req', 'rep', 'rtu'):
    save('c2-' + k, ex[k])
def p(src, dst, op, dqpn, psn, sport, n=0):
    return roce_pkt.data_packet(4, src, dst, op, dqpn, psn & 0xffffff,
                                payload_len=n, ip_args={'sport': sport})
# a's SENDs across the wrap, b's coalesced ACK, a retransmission back.
save('c2-ud', roce_pkt.data_packet(4, A, B, 0x64, 0x2b, 0xfffff0, payload_len=64,
     deth_sqpn=0x18, ip_args={'sport': 0xd018}))
save('c2-wrap', *[p(A, B, 0x04, 0x2b, 0xfffff0 + i, 0xd018, 64) for i in range(32)])
save('c2-ack', p(B, A, 0x11, 0x18, 0x00000f, 0xd02b))
save('c2-retx', *[p(A, B, 0x04, 0x2b, 0xfffff8 + i, 0xd018, 64) for i in range(4)])
# A READ of 64 packets at 0x10, b's responses, a's next request at 0x50.
save('c2-read', roce_pkt.data_packet(4, A, B, 0x0c, 0x2b, 0x10,
     ext=bytes(12) + (64 * 1024).to_bytes(4, 'big'), ip_args={'sport': 0xd018}))
save('c2-rresp', *[p(B, A, 0x0d if i == 0 else 0x0f if i == 63 else 0x0e, 0x18,
                     0x10 + i, 0xd02b, 256) for i in range(64)])
save('c2-next', p(A, B, 0x04, 0x2b, 0x50, 0xd018, 64))
save('c2-b', p(B, A, 0x04, 0x18, 0xfffff8, 0xd02b, 64))
# a's port, a's link, PSNs 2^23 and 0x250000 away; an ACK 2^23 away.
save('c2-far', p(A, B, 0x04, 0x2b, 0x800050, 0xd018, 64))
save('c2-far2', p(A, B, 0x04, 0x2b, 0x250050, 0xd018, 64))
save('c2-far-ack', p(B, A, 0x11, 0x18, 0x800050, 0xd02b))
save('c2-150', p(A, B, 0x04, 0x2b, 0x51 + 150, 0xd018, 64))
save('c2-50', p(A, B, 0x04, 0x2b, 0x51 + 50, 0xd018, 64))
# A managed entry whose other direction r never sees.
# Each at once (a slow guest must not let 10 s pass between them): the
# first starts the window, the next five fall outside; after silence, one
# 2^23 away starts a new window, and the old PSN then falls outside.
save('mg3-both', p(A, B, 0x04, 0x59, 0x300000, 0xd05a, 64),
     *[p(A, B, 0x04, 0x59, 0xb00000, 0xd05a, 64)] * 5)
save('mg3-resync', p(A, B, 0x04, 0x59, 0xb00000, 0xd05a, 64),
     p(A, B, 0x04, 0x59, 0x300000, 0xd05a, 64))
" 2>/dev/null
}

# burst NS NAME COUNT: one packet COUNT times, at once.
burst() { ip netns exec "$1" "$ROCE_SEND" -c "$3" "$pkts/$2" 2>/dev/null; }
# entry SRC DST DQPN FIELD...: those fields of r's QP entry, joined by spaces.
entry()
{
	local f="" k

	for k in "${@:4}"; do
		f+=".${k//-/_},"
	done
	on "$r" -j qp show src "$1" dst "$2" dqpn "$3" |
		jq -r ".[] | [${f%,}] | map(tostring) | join(\" \")"
}
ifindex() { ip -n "$r" -j link show "$1" | jq '.[0].ifindex'; }
mode() { on "$r" config set unknown-qp "$1"; }
# burst_sent NS NAME COUNT TO COUNTER...: burst, fence TO, then print
# what TO got and how much each counter grew.
burst_sent()
{
	snap
	burst "$1" "$2" "$3" || echo "    sending $2 from $1 failed"
	fence "$4"
	echo "$(got "$4") $(grew "${@:5}")"
}

check "module installed for modprobe" install_module
check "packets crafted with scapy" craft_packets
check "topology: a, r, b and m; rp_filter off on r" \
	eval 'setup_router_topology && setup_attacker && count_roce_input "$a" "$b"'
check "helper on r" ip netns exec "$r" nft -f <(nft_roce_ruleset)
check "checks on by default" is \
	"$(on "$r" -j config | jq -c '[.check_iface, .check_sport, .check_cnp, .check_psn, .psn_window, .check_qkey]')" \
	'["on","on","on","on",4096,"on"]'
# Learned entries must outlive a slow guest's run.
check "unknown-qp drop, cnp on" on "$r" config set unknown-qp drop cnp on idle-timeout 3600
check "IPv4 handshake a -> b" xchg "$a" c1-req "$b" c1-rep "$a" c1-rtu
check "IPv6 handshake a -> b" xchg "$a" c6-req "$b" c6-rep "$a" c6-rtu

# Learned entries are bound by the MADs: the REQ came in on veth0, the REP
# on veth1; the source ports wait for the first data packet.
if0=$(ifindex veth0) if1=$(ifindex veth1)
check "a -> b's QP bound to veth0 by the REQ" is "$(entry 10.0.1.1 10.0.2.1 0x2a iif)" "$if0"
check "b -> a's QP bound to veth1 by the REP" is "$(entry 10.0.2.1 10.0.1.1 0x17 iif)" "$if1"
check "a's data, 10 packets: all reach b" is "$(burst_sent "$a" ab 10 b wrong-iface wrong-sport)" "10 0 0"
check "... pinned its source port 0xd017" is "$(entry 10.0.1.1 10.0.2.1 0x2a sport)" 53271
check "b's data, 10 packets: all reach a" is "$(burst_sent "$b" ba 10 a wrong-iface)" "10 0"

# The attacks: 0 delivered, each counted by its reason.
check "m's data in a's name, 150 packets: none reach b" \
	is "$(burst_sent "$m" ab 150 b wrong-iface wrong-sport)" "0 150 0"
check "a's data from another port, 150 packets: none reach b" \
	is "$(burst_sent "$a" ab-port 150 b wrong-iface wrong-sport)" "0 0 150"
check "m's CNPs in b's name to a's QP, 160: none reach a" \
	is "$(burst_sent "$m" cnp-ba 160 a cnp-forged)" "0 160"
check "b's own CNP reaches a" is "$(burst_sent "$b" cnp-ba 1 a cnp-forged)" "1 0"
check "m's CE-marked data in a's name: no CNP to a" \
	is "$(burst_sent "$m" ab-ce 20 a wrong-iface cnp-sent ce)" "0 20 0 0"
check "a's own CE-marked data: one CNP to a" \
	is "$(burst_sent "$a" ab-ce 1 a wrong-iface cnp-sent)" "1 0 1"
check "m's IPv6 data in a's name, 50 packets: none reach b" \
	is "$(burst_sent "$m" ab6 50 b wrong-iface)" "0 50"
check "a's IPv6 data: reaches b" is "$(burst_sent "$a" ab6 5 b wrong-iface)" "5 0"
check "a's UD packet (CE) to b's RC QP, from a's port: dropped, no CNP" \
	is "$(burst_sent "$a" ud-rc 5 b wrong-sport cnp-sent)" "0 5 0"
check "a's data still reaches b" is "$(burst_sent "$a" ab 10 b wrong-iface)" "10 0"
check "the entry counted a's 21 packets only" is "$(entry 10.0.1.1 10.0.2.1 0x2a packets)" 21

# Accept mode counts the impostors but lets them pass.
check "unknown-qp accept" mode accept
check "accept: m's data in a's name passes, counted" \
	is "$(burst_sent "$m" ab 20 b wrong-iface)" "20 20"
check "... not counted on the entry" is "$(entry 10.0.1.1 10.0.2.1 0x2a packets)" 21
check "unknown-qp drop" mode drop

# Each setting turns its check off, nothing else does.
check "check-iface off" on "$r" config set check-iface off
check "... m's data in a's name passes" is "$(burst_sent "$m" ab 5 b wrong-iface)" "5 0"
check "... a's data from another port still dropped" \
	is "$(burst_sent "$a" ab-port 5 b wrong-sport)" "0 5"
check "check-iface on, check-sport off" on "$r" config set check-iface on check-sport off
check "... a's data from another port passes" is "$(burst_sent "$a" ab-port 5 b wrong-sport)" "5 0"
check "... m's data in a's name dropped" is "$(burst_sent "$m" ab 5 b wrong-iface)" "0 5"
check "check-sport on, check-cnp off" on "$r" config set check-sport on check-cnp off
check "... m's CNP in b's name passes" is "$(burst_sent "$m" cnp-ba 5 a cnp-forged)" "5 0"
check "check-cnp on" on "$r" config set check-cnp on
check "... m's CNP dropped again" is "$(burst_sent "$m" cnp-ba 5 a cnp-forged)" "0 5"

# The PSN window: c2's REQ and REP start it just below the wrap.
check "c2 handshake: a starts at PSN 0xfffff0, b at 0xfffff8" \
	xchg "$a" c2-req "$b" c2-rep "$a" c2-rtu
check "a UD packet first to c2's RC entry: dropped, does not make it UD" \
	is "$(burst_sent "$a" c2-ud 1 b wrong-sport)" "0 1"
check "a's 32 SENDs across the 24-bit wrap: all reach b" \
	is "$(burst_sent "$a" c2-wrap 1 b wrong-psn)" "32 0"
check "b's coalesced ACK of them reaches a" is "$(burst_sent "$b" c2-ack 1 a wrong-psn)" "1 0"
check "a's retransmission back to 0xfffff8 reaches b" \
	is "$(burst_sent "$a" c2-retx 1 b wrong-psn)" "4 0"
check "a's READ of 64 packets, b's 64 responses, a's next SEND 64 on" \
	is "$(burst_sent "$a" c2-read 1 b wrong-psn) $(burst_sent "$b" c2-rresp 1 a wrong-psn) $(burst_sent "$a" c2-next 1 b wrong-psn)" \
	"1 0 64 0 1 0"
check "b's own SEND from its starting PSN reaches a" is "$(burst_sent "$b" c2-b 1 a wrong-psn)" "1 0"
check "a's link and port, PSN 2^23 away, 50 packets: none reach b" \
	is "$(burst_sent "$a" c2-far 50 b wrong-psn wrong-iface wrong-sport)" "0 50 0 0"
check "... PSN 0x250000 away (beyond 2^20), 50: none reach b" \
	is "$(burst_sent "$a" c2-far2 50 b wrong-psn)" "0 50"
check "b's link and port, an ACK 2^23 away, 20: none reach a" \
	is "$(burst_sent "$b" c2-far-ack 20 a wrong-psn)" "0 20"
check "a's own next SEND still reaches b" is "$(burst_sent "$a" c2-next 1 b wrong-psn)" "1 0"
check "psn-window 100: 150 ahead dropped, 50 ahead passes" \
	eval 'on "$r" config set psn-window 100 &&
	      is "$(burst_sent "$a" c2-150 1 b wrong-psn) $(burst_sent "$a" c2-50 1 b wrong-psn)" "0 1 1 0"'
check "accept mode: 2^23 away passes, counted" \
	eval 'mode accept && is "$(burst_sent "$a" c2-far 10 b wrong-psn)" "10 10" && mode drop'
check "check-psn off: 2^23 away passes" \
	eval 'on "$r" config set check-psn off && is "$(burst_sent "$a" c2-far 5 b wrong-psn)" "5 0"'
check "check-psn on, psn-window 8388608: 0x250000 away passes" \
	eval 'on "$r" config set check-psn on psn-window 8388608 &&
	      is "$(burst_sent "$a" c2-far2 5 b wrong-psn)" "5 0"'
check "psn-window 1048576" on "$r" config set psn-window 1048576
check "a managed entry r sees one direction of: the first packet starts it, 5 more 2^23 away dropped" \
	eval 'on "$r" qp add src 10.0.1.1 dst 10.0.2.1 dqpn 0x59 sqpn 0x5a &&
	      is "$(burst_sent "$a" mg3-both 1 b wrong-psn)" "1 5"'
sleep 11
check "... after 11 s of silence it starts a new window" \
	is "$(burst_sent "$a" mg3-resync 1 b wrong-psn)" "1 1"

# A managed entry has no MAD: its first packet binds it.
check "managed a -> b's QP 0x55" on "$r" qp add src 10.0.1.1 dst 10.0.2.1 dqpn 0x55 sqpn 0x56
check "... unbound" is "$(entry 10.0.1.1 10.0.2.1 0x55 iif sport)" "null null"
check "... a's first packets pass" is "$(burst_sent "$a" mg 3 b wrong-iface)" "3 0"
check "... bound to veth0 and port 0xd056" is "$(entry 10.0.1.1 10.0.2.1 0x55 iif sport)" "$if0 53334"
check "... m's packets in a's name dropped" is "$(burst_sent "$m" mg 20 b wrong-iface)" "0 20"
# a's QP moves to another source port (a QP reset): qp replace unbinds
# the entry in place, with a change event and its counters kept.
check "... a's data from another port dropped" is "$(burst_sent "$a" mg-port 3 b wrong-sport)" "0 3"
on "$r" -j monitor count 1 >"$pkts/replace.ev" 2>"$pkts/replace.err" &
bg=$!
check "qp replace: the entry unbound in place, its 3 packets kept" eval \
	'busywait 20000 grep -q monitoring "$pkts/replace.err" &&
	 on "$r" qp replace src 10.0.1.1 dst 10.0.2.1 dqpn 0x55 sqpn 0x56 &&
	 is "$(entry 10.0.1.1 10.0.2.1 0x55 origin iif sport packets)" "managed null null 3"'
busywait 20000 sh -c "! kill -0 $bg 2>/dev/null"
check "... a change event for it" \
	is "$(jq -r '"\(.event) \(.dqpn) \(.iif)"' "$pkts/replace.ev")" "change 85 null"
bg=
check "... a's data from the new port passes and binds it" \
	is "$(burst_sent "$a" mg-port 3 b wrong-sport) $(entry 10.0.1.1 10.0.2.1 0x55 iif sport)" "3 0 $if0 53401"
check "... the old port is the one dropped now" is "$(burst_sent "$a" mg 2 b wrong-sport)" "0 2"
check "... a learned entry is not replaced (EBUSY), and stays" eval \
	'out=$(on "$r" qp replace src 10.0.1.1 dst 10.0.2.1 dqpn 0x2a sqpn 0x99 2>&1);
	 [ $? -ne 0 ] && grep -q "CM connection: not replaced" <<<"$out" &&
	 is "$(entry 10.0.1.1 10.0.2.1 0x2a origin sqpn)" "learned 23"'
check "... qp replace of no entry adds one" eval \
	'on "$r" qp replace src 10.0.1.1 dst 10.0.2.1 dqpn 0x5b sqpn 0x5c &&
	 is "$(entry 10.0.1.1 10.0.2.1 0x5b origin sqpn)" "managed 92" &&
	 on "$r" qp del src 10.0.1.1 dst 10.0.2.1 dqpn 0x5b'
check "managed a -> b's QP 0x57 and b -> a's QP 0x56, unbound" eval \
	'on "$r" qp add src 10.0.1.1 dst 10.0.2.1 dqpn 0x57 sqpn 0x56 &&
	 on "$r" qp add src 10.0.2.1 dst 10.0.1.1 dqpn 0x56 sqpn 0x57'
check "... m's packet first: dropped (rp-check), binds nothing" \
	is "$(burst_sent "$m" mg2 1 b wrong-iface) $(entry 10.0.1.1 10.0.2.1 0x57 iif)" "0 1 null"
check "... a's packet then binds it" \
	is "$(burst_sent "$a" mg2 1 b wrong-iface) $(entry 10.0.1.1 10.0.2.1 0x57 iif)" "1 0 $if0"
check "... m's CNP in b's name, to the unbound b -> a entry: dropped" \
	is "$(burst_sent "$m" cnp-mg 10 a cnp-forged)" "0 10"
check "... b's own CNP passes" is "$(burst_sent "$b" cnp-mg 1 a cnp-forged)" "1 0"

# Routing moves a's address behind m's link (a failover, ECMP): packets
# from there are believed where the route back agrees, as rpfilter would;
# with rp-check off only the bound interface counts.
check "r routes 10.0.1.1 via veth2" ip -n "$r" route add 10.0.1.1/32 dev veth2
check "... m's data in a's name passes now (routing vouches)" \
	is "$(burst_sent "$m" ab 5 b wrong-iface)" "5 0"
check "... not with rp-check off" eval \
	'on "$r" config set rp-check off && is "$(burst_sent "$m" ab 5 b wrong-iface)" "0 5"'
check "rp-check on, route removed" eval \
	'on "$r" config set rp-check on && ip -n "$r" route del 10.0.1.1/32 dev veth2'
check "... m's data dropped again" is "$(burst_sent "$m" ab 5 b wrong-iface)" "0 5"

# UD: a SIDR reply direction is linked by the client's first packet with
# the service's Q_Key, from where the client's SIDR_REQ came.
check "SIDR_REQ from a, SIDR_REP from b (Q_Key 0x1234)" xchg "$a" s1-req "$b" s1-rep
check "m's UD packet in a's name: dropped" is "$(burst_sent "$m" ud 1 b wrong-iface)" "0 1"
check "... links no reply entry" is "$(entry 10.0.2.1 10.0.1.1 0x66 sqpn)" ""
check "a's UD packet with Q_Key 0x9999: links no reply entry" \
	eval 'send "$a" ud-qkey && is "$(entry 10.0.2.1 10.0.1.1 0x66 sqpn)" ""'
check "a's UD packet with the Q_Key: the reply entry" \
	eval 'send "$a" ud && busywait 5000 test -n "$(entry 10.0.2.1 10.0.1.1 0x66 sqpn)"'
check "... from b's QP 0x5a, bound to veth1" is "$(entry 10.0.2.1 10.0.1.1 0x66 sqpn iif)" "90 $if1"
# UD data carries the Q_Key its QP takes: the SIDR_REP's to b's service,
# the first packet's to a managed one, for good.
check "a's UD packets with the service's Q_Key pass" is "$(burst_sent "$a" ud 5 b wrong-qkey)" "5 0"
check "a's UD packets with Q_Key 0x9999: dropped" is "$(burst_sent "$a" ud-qkey 5 b wrong-qkey)" "0 5"
check "b's replies to a's client QP pass (no MAD names its Q_Key)" \
	is "$(burst_sent "$b" ud-ba 3 a wrong-qkey) $(burst_sent "$b" ud-ba-qkey 3 a wrong-qkey)" "3 0 3 0"
check "managed UD entry 0x70 added" on "$r" qp add src 10.0.1.1 dst 10.0.2.1 dqpn 0x70 sqpn 0x71
check "... its first UD packet passes and pins Q_Key 0x4321" eval \
	'is "$(burst_sent "$a" ud-mg 2 b wrong-qkey)" "2 0" &&
	 is "$(entry 10.0.1.1 10.0.2.1 0x70 qkey)" "17185"'
check "... another Q_Key: dropped" is "$(burst_sent "$a" ud-mg-qkey 4 b wrong-qkey)" "0 4"
check "... qp replace forgets the Q_Key: the new one binds, the old is dropped" eval \
	'on "$r" qp replace src 10.0.1.1 dst 10.0.2.1 dqpn 0x70 sqpn 0x71 &&
	 is "$(entry 10.0.1.1 10.0.2.1 0x70 qkey)" "null" &&
	 is "$(burst_sent "$a" ud-mg-qkey 2 b wrong-qkey) $(burst_sent "$a" ud-mg 2 b wrong-qkey)" "2 0 0 2" &&
	 on "$r" qp replace src 10.0.1.1 dst 10.0.2.1 dqpn 0x70 sqpn 0x71 &&
	 is "$(burst_sent "$a" ud-mg 2 b wrong-qkey)" "2 0"'
check "... accept mode: passes, counted" eval \
	'mode accept && is "$(burst_sent "$a" ud-mg-qkey 4 b wrong-qkey)" "4 4" && mode drop'
check "check-qkey off: passes" eval \
	'on "$r" config set check-qkey off &&
	 is "$(burst_sent "$a" ud-mg-qkey 4 b wrong-qkey)" "4 0" &&
	 on "$r" config set check-qkey on'

# qp add ... dev: bound from the start, where routing cannot tell.
check "qp add ... dev veth0: the managed entry is bound to it" eval \
	'on "$r" qp add src 10.0.1.1 dst 10.0.2.1 dqpn 0x72 sqpn 0x73 dev veth0 &&
	 is "$(entry 10.0.1.1 10.0.2.1 0x72 iif)" "$if0"'
check "... rp-check off: m's first packets in a's name dropped" eval \
	'on "$r" config set rp-check off && is "$(burst_sent "$m" mg-dev 3 b wrong-iface)" "0 3"'
check "... a's pass" is "$(burst_sent "$a" mg-dev 3 b wrong-iface)" "3 0"
check "... rp-check on" on "$r" config set rp-check on
check "qp add ... dev with no such interface: refused, nothing added" eval \
	'! on "$r" qp add src 10.0.1.1 dst 10.0.2.1 dqpn 0x74 sqpn 0x75 dev nosuch0 2>/dev/null &&
	 is "$(entry 10.0.1.1 10.0.2.1 0x74 sqpn)" ""'
check "qp add ... dev lo: this host's packets (iif 0)" eval \
	'on "$r" qp add src 10.0.1.1 dst 10.0.2.1 dqpn 0x74 sqpn 0x75 dev lo &&
	 is "$(entry 10.0.1.1 10.0.2.1 0x74 iif)" "0"'

# A monitor sees an entry bind, once: a change event with its interface
# and port, then nothing until the entry goes.
check "managed a -> b's QP 0x55 again, unbound" eval \
	'on "$r" qp del src 10.0.1.1 dst 10.0.2.1 dqpn 0x55 &&
	 on "$r" qp add src 10.0.1.1 dst 10.0.2.1 dqpn 0x55 sqpn 0x56'
on "$r" -j monitor count 2 >"$pkts/events" 2>"$pkts/mon.err" &
mon=$!
bg=$mon
check "monitor started" busywait 20000 grep -q monitoring "$pkts/mon.err"
check "... a's first 3 packets pass" is "$(burst_sent "$a" mg 3 b wrong-iface)" "3 0"
on "$r" qp del src 10.0.1.1 dst 10.0.2.1 dqpn 0x55
check "... monitor got its 2 events" busywait 20000 sh -c "! kill -0 $mon 2>/dev/null"
check "... the binding, once, then the delete" is \
	"$(jq -s -r 'map("\(.event) \(.dqpn) \(.iif) \(.sport)") | join(",")' "$pkts/events")" \
	"change 85 $if0 53334,delete 85 $if0 53334"
check "... numbered in order (seq)" \
	jq -se 'length == 2 and .[0].seq > 0 and .[1].seq > .[0].seq' "$pkts/events"

# rocect save keeps a managed entry's binding; a restore binds it at once.
check "managed a -> b's QP 0x55 bound by a's packet" eval \
	'on "$r" qp add src 10.0.1.1 dst 10.0.2.1 dqpn 0x55 sqpn 0x56 &&
	 is "$(burst_sent "$a" mg 1 b wrong-iface)" "1 0"'
on "$r" save >"$pkts/saved"
check "save writes dev for bound entries, none for unbound" eval \
	'grep -qx "qp add src 10.0.1.1 dst 10.0.2.1 dqpn 85 sqpn 86 dev veth0" "$pkts/saved" &&
	 grep -qx "qp add src 10.0.1.1 dst 10.0.2.1 dqpn 116 sqpn 117 dev lo" "$pkts/saved" &&
	 grep -qx "qp add src 10.0.2.1 dst 10.0.1.1 dqpn 86 sqpn 87" "$pkts/saved"'
check "flush, then restore: bound before any packet" eval \
	'on "$r" qp flush origin managed && on "$r" restore "$pkts/saved" &&
	 is "$(entry 10.0.1.1 10.0.2.1 0x55 iif) $(entry 10.0.1.1 10.0.2.1 0x74 iif)" "$if0 0" &&
	 is "$(entry 10.0.2.1 10.0.1.1 0x56 iif)" "null"'
check "... m's packets in a's name dropped, rp-check off" eval \
	'on "$r" config set rp-check off && is "$(burst_sent "$m" mg 3 b wrong-iface)" "0 3" &&
	 on "$r" config set rp-check on'

check "rulesets off r (they hold the module)" ip netns exec "$r" nft flush ruleset
check "module unloads" busywait 10000 rmmod $MODULE
check "no kernel warnings" dmesg_clean
finish

#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Drops you can find: each packet the helper drops reaches rocect monitor
# drops as an event naming its reason (the counter that counted it), zone,
# addresses, destination QP, source port and interface: data to a QP
# without an entry (IPv4, IPv6, zone 5), a CNP to one, a malformed packet
# (its addresses from its own IP header), a reserved opcode, a REQ with a
# bad ICRC, data in a tracked sender's name from another link. Accept mode
# drops nothing and reports nothing. A flood is rate limited by
# drop-events-max-rate: the events sent and the drops they say were
# suppressed add up to the packets dropped. The log line, with a netfilter
# logger set up as the admin guide says, carries the QP.
#
#   a (10.0.1.1, 10.0.1.2, fd00:1::1) -- r (helper, drop mode) -- b (10.0.2.1, fd00:2::1)
#                                         |
#                                         m (10.0.3.1)

source "$(dirname "$0")/lib.sh"

ksft_start setpriv

craft_packets()
{
	pkts=$(mktemp -d)
	craft "$pkts" "
import struct
A, B, A6, B6 = '10.0.1.1', '10.0.2.1', 'fd00:1::1', 'fd00:2::1'
BTH = roce_pkt.BTH
def data(src, dst, dqpn, sport):
    return roce_pkt.data_packet(roce_pkt.family_of(src), src, dst, 0x04, dqpn, 1,
                                payload_len=64, ip_args={'sport': sport})
ex = roce_pkt.cm_exchange(A, B, comm_ids=(0x1001, 0x2001), qpns=(0x17, 0x2a))
for k in ('req', 'rep', 'rtu'):
    save('c1-' + k, ex[k])
save('ab', data(A, B, 0x2a, 0xd017))
save('stray', data(A, B, 0x999, 0xd999))
save('stray6', data(A6, B6, 0x998, 0xd998))
save('stray-z5', data('10.0.1.2', B, 0x997, 0xd997))
raw = bytearray(bytes(data(A, B, 0x999, 0xd999)) + bytes(16))
raw[2:4], raw[10:12] = struct.pack('>H', len(raw)), bytes(2)
s = sum(struct.unpack('>10H', bytes(raw[:20])))
s = (s & 0xffff) + (s >> 16)
raw[10:12] = struct.pack('>H', ~(s + (s >> 16)) & 0xffff)
save('udplen', bytes(raw))
save('op1f', roce_pkt.roce_packet(4, A, B, BTH(opcode=0x1f, pkey=0xffff, dqpn=0x999,
     psn=1), bytes(64), sport=0xd999))
bad = bytearray(bytes(roce_pkt.cm_exchange(A, B, comm_ids=(0x100a, 0x200a))['req']))
bad[-1] ^= 0xff
save('bad-icrc', bytes(bad))
save('cnp-stray', roce_pkt.cnp_packet(4, A, B, 0x999, ip_args={'sport': 0xd999}))
" 2>/dev/null
}

# burst NS NAME COUNT: one packet COUNT times, at once.
burst() { ip netns exec "$1" "$ROCE_SEND" -c "$3" "$pkts/$2" 2>/dev/null; }

# drops: the drop events received so far.
drops() { grep -c '"event":"drop"' "$pkts/drops"; }
drops_above() { [ "$(drops)" -gt "$1" ]; }
# dropped NS NAME: send NAME from NS; print the event it caused as
# "reason zone src dst dqpn sport dev suppressed" (- where absent).
dropped()
{
	local n

	n=$(drops)
	send "$1" "$2" || echo "    sending $2 failed"
	busywait 20000 drops_above "$n" || { echo "    no drop event"; return; }
	grep '"event":"drop"' "$pkts/drops" | tail -n 1 |
		jq -r '[.reason, .zone, .src, .dst, .dqpn, .sport, .dev, .suppressed] |
			map(. // "-" | tostring) | join(" ")'
}

# A netfilter logger in r, as the admin guide sets one up; a namespace
# other than init_net needs nf_log_all_netns.
logger()
{
	modprobe nf_log_syslog &&
		sysctl -qw net.netfilter.nf_log_all_netns=1 &&
		ip netns exec "$r" sysctl -qw net.netfilter.nf_log.2=nf_log_ipv4
}

check "module installed for modprobe" install_module
check "packets crafted with scapy" craft_packets
check "topology: a, r, b and m" eval 'setup_router_topology && setup_attacker'
check "helper on r, 10.0.1.2 in zone 5" ip netns exec "$r" nft -f - <<-EOT
	$(nft_roce_ruleset)
	table inet zones {
	    chain raw {
	        type filter hook prerouting priority raw;
	        ip saddr 10.0.1.2 udp dport 4791 ct zone set 5
	    }
	}
EOT
check "unknown-qp drop" on "$r" config set unknown-qp drop
check "drop-events-max-rate: 100 by default" \
	is "$(on "$r" -j config | jq .drop_events_max_rate)" 100
check "c1's handshake a -> b" xchg "$a" c1-req "$b" c1-rep "$a" c1-rtu
check "a's data to c1's QP" send "$a" ab

ip netns exec "$r" "$ROCECT" -j monitor drops >"$pkts/drops" 2>"$pkts/mon.err" &
mon=$!
check "monitor drops on r" busywait 20000 grep -q "monitoring drops" "$pkts/mon.err"
check "a's data to b's QP 0x999, no entry" \
	is "$(dropped "$a" stray)" "unknown-qp-dropped 0 10.0.1.1 10.0.2.1 2457 55705 veth0 0"
check "... over IPv6" \
	is "$(dropped "$a" stray6)" "unknown-qp-dropped 0 fd00:1::1 fd00:2::1 2456 55704 veth0 0"
check "... from 10.0.1.2, in zone 5" \
	is "$(dropped "$a" stray-z5)" "unknown-qp-dropped 5 10.0.1.2 10.0.2.1 2455 55703 veth0 0"
check "a CNP to b's QP 0x999" \
	is "$(dropped "$a" cnp-stray)" "unknown-qp-dropped 0 10.0.1.1 10.0.2.1 2457 55705 veth0 0"
check "data 16 bytes past its UDP length: malformed, addresses from its IP header" \
	is "$(dropped "$a" udplen)" "drop-malformed 0 10.0.1.1 10.0.2.1 - - veth0 0"
check "a reserved opcode" \
	is "$(dropped "$a" op1f)" "drop-unknown-opcode 0 10.0.1.1 10.0.2.1 2457 55705 veth0 0"
check "a REQ with a bad ICRC" \
	is "$(dropped "$a" bad-icrc)" "drop-icrc 0 10.0.1.1 10.0.2.1 1 49152 veth0 0"
check "m's data in a's name to c1's QP" \
	is "$(dropped "$m" ab)" "wrong-iface 0 10.0.1.1 10.0.2.1 42 53271 veth2 0"
check "a's own data passes: no event" \
	eval 'n=$(drops); send "$a" ab && nap 2 && is "$(drops)" "$n"'

check "unknown-qp accept" on "$r" config set unknown-qp accept
check "... the same strays pass: no event" \
	eval 'n=$(drops); send "$a" stray udplen op1f && send "$m" ab && nap 2 && is "$(drops)" "$n"'
check "unknown-qp drop" on "$r" config set unknown-qp drop

# A flood: 10 events a second at most; the last event, a second after the
# flood, carries the count of what was suppressed before it.
check "drop-events-max-rate 10" on "$r" config set drop-events-max-rate 10
nap 1.5		# a full bucket
n0=$(drops)
check "500 strays at once" burst "$a" stray 500
nap 1.5
n1=$(drops)
check "one more a second later" send "$a" stray
check "... its event came" busywait 20000 drops_above "$n1"
flood=$(grep '"event":"drop"' "$pkts/drops" | tail -n +"$((n0 + 1))")
events=$(wc -l <<<"$flood")
echo "    $events events for 501 drops"
check "... far fewer events than drops" test "$events" -le 60
check "... events and suppressed add up to the 501 drops" \
	is "$((events + $(jq -s 'map(.suppressed) | add' <<<"$flood")))" 501
check "... the last one says it suppressed some" \
	test "$(tail -n 1 <<<"$flood" | jq .suppressed)" -gt 0
check "drop-events-max-rate 0 refused" eval '! on "$r" config set drop-events-max-rate 0 2>/dev/null'
check "drop-events-max-rate 100001 refused" \
	eval '! on "$r" config set drop-events-max-rate 100001 2>/dev/null'
kill "$mon" 2>/dev/null
wait "$mon" 2>/dev/null

# The log: through the netfilter logger, with the QP.
check "logger bound in r" logger
nap 5		# a fresh net_ratelimit window
echo "drop_events.sh: drop log test" >/dev/kmsg
check "a stray to b's QP 0x999" send "$a" stray
line=$(dmesg | sed -n '/drop_events.sh: drop log test/,$p' | grep 'nf_ct_roce: dropping packet: ' | head -n 1)
echo "    $line"
check "... logged with its reason, QP, addresses and interface" eval \
	'[[ $line == *"no QP entry, QP 0x000999, zone 0, in veth0"*"SRC=10.0.1.1 DST=10.0.2.1"* ]]'
out=$(ip netns exec "$r" timeout 20 setpriv --reuid=65534 --regid=65534 \
	--clear-groups "$ROCECT" monitor drops count 1 2>&1)
check "an unprivileged user cannot join drops" \
	grep -q "cannot join the drops group: Operation not permitted" <<<"$out"

check "rulesets off r (they hold the module)" ip netns exec "$r" nft flush ruleset
check "module unloads" busywait 10000 rmmod $MODULE
check "no kernel warnings" dmesg_clean
finish

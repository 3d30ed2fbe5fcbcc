#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The helper under attack, on a router without rp_filter. M, the attacker,
# has a link of its own to r and sends what it likes from raw sockets:
#
#   a (10.0.1.1) -- r (helper, rp_filter off) -- b (10.0.2.1)
#                    |
#                    m (10.0.3.1, fd00:3::1)
#
# QP1 payloads longer than one MAD (in page fragments, IP fragments or
# linear) are malformed mad-len and create nothing; a flood of unanswered
# REQs evicts the oldest half-open connections, never an established one,
# and so does a flood of REQs refused by REJs (finished ones go first),
# and half-open-timeout expires them; a host whose REQs are answered holds
# at most its source-share of max-conns, then makes room from its own
# half-open connections or is refused, never others; rp-check ignores M's forged REP and
# REQ (and believes them when off); the unknown-qp drop policy fails closed
# (malformed, reserved opcodes, bad ICRC, spoofed CM MADs, CNPs to unknown
# QPs, GSO super-packets) and rate limits its log; a REP does not take the
# entries of a live connection; once both comm IDs are known DREQ and RTU
# must carry both; the per-QP CNP interval holds when CNPs cannot be sent.
# The links a-r-b have MTU 9000, so that a 1700-byte MAD is not fragmented.

source "$(dirname "$0")/lib.sh"

cleanup_extra()
{
	[ -n "${all_netns:-}" ] &&
		sysctl -qw net.netfilter.nf_log_all_netns="$all_netns"
}
ksft_start

# Every packet of the test, crafted in one interpreter (scapy starts slowly).
craft_packets()
{
	pkts=$(mktemp -d)
	craft "$pkts" "
import struct
A, B = '10.0.1.1', '10.0.2.1'
out, BTH = sys.argv[1], roce_pkt.BTH

def conn(name, cid, qps):
    ex = roce_pkt.cm_exchange(A, B, comm_ids=cid, qpns=qps)
    for k in ('req', 'rep', 'rtu'):
        save(name + '-' + k, ex[k])
    save(name + '-data', roce_pkt.data_packet(4, A, B, 0x04, qps[1], 1,
         payload_len=256, ip_args={'sport': 0xd000 + qps[0]}))
def cm(name, src, dst, attr, **fields):
    save(name, roce_pkt.cm_packet(4, src, dst, attr, **fields))
def data(src, dqpn, **ip):
    return roce_pkt.data_packet(4, src, B, 0x04, dqpn, 1, payload_len=64,
                                ip_args=dict(sport=0xd000 + dqpn, **ip))
def icrc4(raw):         # the IPv4 ICRC again, after an edit
    return bytes(raw[:-4]) + struct.pack('<I', roce_pkt.icrc_ipv4(raw))
def iplen(raw):         # IPv4 total length and checksum again, after an edit
    r = bytearray(raw)
    r[2:4], r[10:12] = struct.pack('>H', len(r)), bytes(2)
    s = sum(struct.unpack('>10H', bytes(r[:20])))
    s = (s & 0xffff) + (s >> 16)
    r[10:12] = struct.pack('>H', ~(s + (s >> 16)) & 0xffff)
    return bytes(r)

conn('c1', (0x1001, 0x2001), (0x17, 0x2a))
conn('c2', (0x1002, 0x2002), (0x18, 0x2b))
conn('c3', (0x1003, 0x2003), (0x19, 0x2c))
conn('c4', (0x1004, 0x2004), (0x1a, 0x2d))
conn('c5', (0x1005, 0x2005), (0x1b, 0x2e))
conn('c9', (0x1009, 0x2009), (0x1d, 0x31))
conn('L', (0x7001, 0x8001), (0x70, 0x80))
ex = roce_pkt.cm_exchange(A, B, comm_ids=(0x1101, 0x2101), qpns=(0x17, 0x2a))
save('c1x-req', ex['req'])
save('c1x-rep', ex['rep'])
for name, rid in (('c4-dreq0', 0), ('c4-dreqx', 0x2999), ('c4-dreq', 0x2004)):
    cm(name, A, B, 'dreq', local_comm_id=0x1004, remote_comm_id=rid, qpn=0x2d)
cm('c5-rtux', A, B, 'rtu', local_comm_id=0x1005, remote_comm_id=0x2999)
# 400 REQs: comm IDs 0x10000.., QPNs 0x1000.. (CM data at byte 72).
req = bytearray(bytes(roce_pkt.cm_exchange(A, B, comm_ids=(0, 0), qpns=(0, 0))['req']))
flood = []
for i in range(400):
    req[72:76] = struct.pack('>I', 0x10000 + i)
    req[104:107] = (0x1000 + i).to_bytes(3, 'big')
    flood.append(icrc4(req))
save('flood', *flood)
# 400 REQs, each refused at once by its own sender (a REJ from a).
rej = bytearray(bytes(roce_pkt.cm_packet(4, A, B, 'rej', local_comm_id=0,
                                          remote_comm_id=0, reject_reason=28)))
rejflood = []
for i in range(400):
    req[72:76] = rej[72:76] = struct.pack('>I', 0x20000 + i)
    req[104:107] = (0x3000 + i).to_bytes(3, 'big')
    rejflood += [icrc4(req), icrc4(rej)]
save('rejflood', *rejflood)
conn('L2', (0x7002, 0x8002), (0x71, 0x81))
# Handshakes 0 to 11 from A, comm IDs 0x9000.., for the per-source share:
# 0 to 7 whole, 8 alone, 8 to 11 REQs only; one from a's other address.
sh = [roce_pkt.cm_exchange(A, B, comm_ids=(0x9000 + i, 0xa000 + i),
                           qpns=(0x900 + i, 0xa00 + i)) for i in range(12)]
for k in ('req', 'rep', 'rtu'):
    save('sh8-' + k, *[ex[k] for ex in sh[:8]])
save('sh9-req', sh[8]['req'])
save('sh12-req', *[ex['req'] for ex in sh[8:]])
ex = roce_pkt.cm_exchange('10.0.1.2', B, comm_ids=(0x9100, 0xa100), qpns=(0x9ff, 0xaff))
for k in ('req', 'rep', 'rtu'):
    save('o-' + k, ex[k])
# UDP payloads: BTH, DETH, a REQ MAD and N more bytes.
mad = bytes(roce_pkt.cm_packet(4, A, B, 'req', local_comm_id=0x3001, qpn=0x60,
            service_id=roce_pkt.rdma_cm_service_id(18515)))[28:-4]
for n in (1400, 60000):
    open('%s/oob%d.bin' % (out, n), 'wb').write(mad + bytes(n))
save('oob-linear', IP(src=A, dst=B, flags='DF') /
     UDP(sport=0xc0b0, dport=4791, chksum=0) / Raw(mad + bytes(1400)))
# What strict mode cannot vouch for.
save('stray', data(A, 0x999))
save('udplen', iplen(bytes(data(A, 0x999)) + bytes(16)))
for op in (0x1f, 0xe0):
    save('op%02x' % op, roce_pkt.roce_packet(4, A, B, BTH(opcode=op, pkey=0xffff,
         dqpn=0x999, psn=1), bytes(64), sport=0xd999))
bad = bytearray(bytes(roce_pkt.cm_exchange(A, B, comm_ids=(0x100a, 0x200a))['req']))
bad[-1] ^= 0xff
save('bad-icrc', bytes(bad))
save('cnp-stray', roce_pkt.cnp_packet(4, A, B, 0x999, ip_args={'sport': 0xd999}))
save('cnp-c1', roce_pkt.cnp_packet(4, B, A, 0x17, ip_args={'sport': 0xd02a}))
save('ce-noroute', data('10.9.9.9', 0x77, tos=3))
# GSO: 4 segments of 272 bytes, to c1's QP 0x2a, then three to QP 0x999.
seg = lambda q: bytes(roce_pkt.data_packet(4, A, B, 0x04, q, 1, payload_len=256))[28:]
open(out + '/gso.bin', 'wb').write(seg(0x2a) + 3 * seg(0x999))
" 2>/dev/null
}

# udp_tx NS sendfile|gso NAME [SEG]: $pkts/NAME.bin as one UDP datagram to
# b's port 4791 from a socket in NS: sendfile() on a corked socket (page
# fragments), or one send() that UDP GSO cuts into SEG-byte segments.
UDP_TX='
import os, socket, sys
mode, path, seg = sys.argv[1], sys.argv[2], int(sys.argv[3])
s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
s.connect(("10.0.2.1", 4791))
with open(path, "rb") as f:
    size = os.fstat(f.fileno()).st_size
    if mode == "gso":
        s.setsockopt(socket.SOL_UDP, 103, seg)        # UDP_SEGMENT
        s.send(f.read())
    else:
        s.setsockopt(socket.IPPROTO_UDP, 1, 1)        # UDP_CORK
        off = 0
        while off < size:
            off += os.sendfile(s.fileno(), f.fileno(), off, size - off)
        s.setsockopt(socket.IPPROTO_UDP, 1, 0)
'
udp_tx() { ip netns exec "$1" "$PYTHON" -c "$UDP_TX" "$2" "$pkts/$3.bin" "${4:-0}"; }

# setup: setup_router_topology and setup_attacker, MTU 9000 between a, r
# and b, and an input counter of RoCE packets in a and b.
setup()
{
	local ns

	setup_router_topology && setup_attacker || return 1
	for ns in "$a veth0" "$r veth0" "$r veth1" "$b veth0"; do
		ip -n "${ns% *}" link set "${ns#* }" mtu 9000 || return 1
	done
	count_roce_input "$a" "$b"
}

# burst NS NAME COUNT: one packet COUNT times, at once.
burst() { ip netns exec "$1" "$ROCE_SEND" -c "$3" "$pkts/$2" 2>/dev/null; }
# conn_state ACOMM_ID: the state of r's connection ("" if none).
conn_state()
{
	on "$r" -j conn | jq -r --argjson c "$1" '.[] | select(.acomm_id == $c) | .state'
}
# entry SRC DST DQPN: sqpn, state and comm IDs of r's QP entry.
entry()
{
	on "$r" -j qp show src "$1" dst "$2" dqpn "$3" |
		jq -r '.[] | "\(.sqpn) \(.state) \(.scomm_id) \(.dcomm_id)"'
}
conns_are() { [ "$(on "$r" -j conn | jq length)" -eq "$1" ]; }
ctr() { on "$r" -j stats | jq ".${1//-/_}"; }
mode() { on "$r" config set unknown-qp "$1"; }

check "module installed for modprobe" install_module
check "packets crafted with scapy" craft_packets
check "topology: a, r, b and the attacker m; rp_filter off on r" setup
check "... rp_filter is 0 for all, default and every veth of r" is \
	"$(ip netns exec "$r" sysctl -n net.ipv4.conf.{all,default,veth0,veth1,veth2}.rp_filter | xargs)" "0 0 0 0 0"
check "helper on r" ip netns exec "$r" nft -f <(nft_roce_ruleset)
check "config: half-open-timeout 75 and rp-check on by default" is \
	"$(on "$r" -j config | jq -c '[.half_open_timeout, .rp_check]')" '[75,"on"]'
# Long: the debug kernel beside other guests took over 10 minutes from c1's
# handshake to its last check.
check "idle-timeout 3600 s" on "$r" config set idle-timeout 3600

# Test QP1 payloads longer than one MAD: a REQ MAD and 1400 (or 60000)
# bytes more. The helper classed them CM and ran the ICRC over bytes past
# its 384-byte copy. Sent from a UDP socket in page fragments, IP
# fragmented (reassembled by conntrack on r) and as one linear packet.
oob() { udp_tx "$a" sendfile oob1400 && udp_tx "$a" sendfile oob60000 && send "$a" oob-linear; }
snap
check "REQ MAD + 1400 B (page frags), + 60000 B (IP frags), linear" oob
check "... malformed mad-len; no ICRC checked, no connection" is \
	"$(grew malformed.mad-len icrc-bad conn-created)" "3 0 0"
fence b
check "... unknown-qp accept: b got them" is "$(got b)" 3
check "unknown-qp drop" mode drop
snap
check "the three again" oob
check "... dropped as malformed" is "$(grew malformed.mad-len drop-malformed conn-created)" "3 3 0"
fence b
check "... b got none" is "$(got b)" 0
check "... no kernel warnings" dmesg_clean

# Test a flood of unanswered REQs: max-conns 200, 400 REQs, then a real
# handshake L. The oldest half-open connections make room for new ones;
# an established one is never evicted, and a table full of them refuses.
check "max-conns 200, source-share 100: the table's own eviction" \
	on "$r" config set max-conns 200 source-share 100
snap
check "400 REQs nobody answers" send "$a" flood
check "L: REQ, REP, RTU" xchg "$a" L-req "$b" L-rep "$a" L-rtu
check "... established" is "$(conn_state $((0x7001)))" established
check "... 201 evicted, none refused, 200 tracked" is \
	"$(grew conn-evicted conn-full) $(ctr conn-count)" "201 0 200"
snap
check "L data, still in drop mode" send "$a" L-data
fence b
check "... passes" is "$(got b)" 1
check "half-open-timeout 2 s" on "$r" config set half-open-timeout 2
check "... the flood expires, L stays" busywait 15000 conns_are 1
check "... L established" is "$(conn_state $((0x7001)))" established
check "max-conns 1: full of established connections" on "$r" config set max-conns 1
snap
check "REQ c9" send "$a" c9-req
check "... refused, nothing evicted" is "$(grew conn-full conn-evicted) $(ctr conn-count)" "1 0 1"
check "... L still established" is "$(conn_state $((0x7001)))" established

# Test a flood of refused REQs: 400 REQs, each followed by its sender's
# REJ, fill a table of 200 with finished connections, which must make
# room before half-open ones, and never an established one.
check "max-conns 200; refused ones stay 600 s, half-open ones 75 s" \
	on "$r" config set max-conns 200 timewait-timeout 600 half-open-timeout 75
snap
check "400 REQs, each refused by a REJ" send "$a" rejflood
# The last REJs may still be on their way (a debug kernel is slow: one
# was not there 10 s after the flood with three guests on two CPUs).
rejected() { on "$r" -j conn | jq '[.[] | select(.state == "rejected")] | length'; }
busywait 60000 eval '[ "$(rejected)" = 199 ]'
check "... L and 199 refused ones tracked, 201 evicted, none refused" is \
	"$(rejected) $(grew conn-evicted conn-full)" "199 201 0"
check "L2: REQ, REP, RTU" xchg "$a" L2-req "$b" L2-rep "$a" L2-rtu
check "... established" is "$(conn_state $((0x7002)))" established
check "... L still established" is "$(conn_state $((0x7001)))" established
check "... a refused one made room" is "$(grew conn-evicted conn-full)" "202 0"
snap
check "L2 data, in drop mode" send "$a" L2-data
fence b
check "... passes" is "$(got b)" 1
check "max-conns 32768, timewait-timeout 10 s" \
	on "$r" config set max-conns 32768 timewait-timeout 10
check "... the refused ones expire: L and L2 left" busywait 60000 conns_are 2

# Test the per-source share: one host whose peer answers its REQs must
# not fill the table with established connections, which are never
# evicted. max-conns 40, source-share 25: 10 connections a host.
held_by() # ADDRESS STATE: how many of r's connections ADDRESS opened
{
	on "$r" -j conn | jq --arg a "$1" --arg s "$2" \
		'[.[] | select(.active == $a and .state == $s)] | length'
}
check "max-conns 40, source-share 25" \
	on "$r" config set max-conns 40 source-share 25
check "8 handshakes from 10.0.1.1" xchg "$a" sh8-req "$b" sh8-rep "$a" sh8-rtu
check "... it holds 10 established (with L, L2)" is \
	"$(held_by 10.0.1.1 established)" 10
snap
check "its 9th REQ" send "$a" sh9-req
check "... refused at its share, nothing evicted" is \
	"$(grew conn-source-full conn-full conn-evicted) $(conn_state $((0x9008)))" \
	"1 0 0 "
check "10.0.1.2: REQ, REP, RTU" xchg "$a" o-req "$b" o-rep "$a" o-rtu
check "... established: the rest of the table is others'" is \
	"$(conn_state $((0x9100)))" established
check "source-share 30: 12 a host" on "$r" config set source-share 30
snap
check "REQs 9 to 12 from 10.0.1.1, unanswered" send "$a" sh12-req
check "... 11 and 12 took the place of its oldest half-open, 9 and 10" is \
	"$(conn_state $((0x9008)))/$(conn_state $((0x9009)))/$(conn_state $((0x900a)))/$(conn_state $((0x900b)))" \
	"//req/req"
check "... 2 evicted, none refused, its 10 established kept" is \
	"$(grew conn-evicted conn-source-full) $(held_by 10.0.1.1 established)" \
	"2 0 10"
check "max-conns 32768, source-share 25" \
	on "$r" config set max-conns 32768 source-share 25

# Test spoofed CM MADs, in drop mode: M forges b's REP (source 10.0.2.1)
# to a's REQ, which would open the policy for data to b's QP 0x2a. r has
# no rp_filter; rp-check sees that 10.0.2.1 routes out of veth1, not veth2.
check "c1 REQ from a (QP 0x17)" send "$a" c1-req
snap
check "M forges b's REP (QP 0x2a)" send "$m" c1-rep
check "... spoofed, dropped" is "$(grew cm-spoofed drop-spoofed)" "1 1"
fence a
check "... a did not get it" is "$(got a)" 0
check "RTU from a" send "$a" c1-rtu
check "... c1 not established" is "$(conn_state 4097)" req
snap
check "150 data packets a -> b QP 0x2a" burst "$a" c1-data 150
fence b
check "... b got none" is "$(got b)" 0
check "... dropped: no QP entry" is "$(grew unknown-qp-dropped)" 150
snap
check "M forges a's REQ (c2)" send "$m" c2-req
check "... spoofed, dropped, no connection" is \
	"$(grew cm-spoofed drop-spoofed conn-created)" "1 1 0"
fence b
check "... b did not get it" is "$(got b)" 0
check "the real REP from b, RTU from a" xchg "$b" c1-rep "$a" c1-rtu
check "... c1 established" is "$(conn_state 4097)" established
snap
check "150 data packets a -> b QP 0x2a" burst "$a" c1-data 150
fence b
check "... b got all" is "$(got b)" 150
check "rp-check off" on "$r" config set rp-check off
check "c3 REQ from a" send "$a" c3-req
snap
check "M forges b's REP" send "$m" c3-rep
check "... believed: c3 in state rep" is "$(conn_state 4099)" rep
check "... not counted as spoofed" is "$(grew cm-spoofed drop-spoofed)" "0 0"
fence a
check "... it reached a" is "$(got a)" 1
check "rp-check on" on "$r" config set rp-check on

# Test that drop mode fails closed on what it cannot vouch for.
snap
check "data with 16 bytes after its UDP length" send "$a" udplen
check "reserved opcodes 0x1f and 0xe0" send "$a" op1f ope0
check "REQ with a bad ICRC" send "$a" bad-icrc
check "CNP to b's QP 0x999, which has no entry" send "$a" cnp-stray
check "... dropped and counted by reason" is \
	"$(grew malformed.udp-len drop-malformed class.unknown-opcode drop-unknown-opcode icrc-bad drop-icrc unknown-qp-dropped)" \
	"1 1 2 2 1 1 1"
fence b
check "... b got none" is "$(got b)" 0
check "CNP from b to a's QP 0x17 (c1)" send "$b" cnp-c1
fence a
check "... passes" is "$(got a)" 1
check "unknown-qp accept" mode accept
snap
check "all of them again" send "$a" udplen op1f ope0 bad-icrc cnp-stray
fence b
check "... b got the five" is "$(got b)" 5
check "... none dropped" is \
	"$(grew drop-malformed drop-unknown-opcode drop-icrc unknown-qp-dropped)" "0 0 0 0"

# Test that a REP does not take a live connection's entries: a REQ and a
# REP with c1's QPNs (0x17, 0x2a) and new comm IDs, as a host on a's or
# b's link could forge them. Before, c1 lost its entries.
snap
# A connection silent for half-open-timeout may be replaced (its host may
# have crashed): c1 must have spoken lately, which on a slow debug guest
# the checks since its data need not leave it.
check "c1 data, so that c1 is live" send "$a" c1-data
check "REQ from a: QP 0x17 again, comm ID 0x1101" send "$a" c1x-req
check "REP from b: QP 0x2a again, comm ID 0x2101" send "$b" c1x-rep
check "... conflict counted for both entries" is "$(grew qp-conflict)" 2
check "... c1 still established" is "$(conn_state 4097)" established
check "... a -> b QP 0x2a: still c1's (sqpn, state, comm IDs)" \
	is "$(entry 10.0.1.1 10.0.2.1 0x2a)" "23 established 4097 8193"
check "... b -> a QP 0x17: still c1's" \
	is "$(entry 10.0.2.1 10.0.1.1 0x17)" "42 established 8193 4097"

# Test comm IDs: once both are known, DREQ and RTU must carry both. A DREQ
# with a's comm ID and remote comm ID 0 used to end the connection.
check "c4 REQ, REP, RTU" xchg "$a" c4-req "$b" c4-rep "$a" c4-rtu
snap
check "DREQ from a: remote comm ID 0, then a wrong one" send "$a" c4-dreq0 c4-dreqx
check "... both unmatched, c4 still established" is \
	"$(grew cm-unmatched) $(conn_state 4100)" "2 established"
check "the right DREQ" send "$a" c4-dreq
check "... c4 disconnecting" is "$(conn_state 4100)" disconnecting
check "c5 REQ, REP" xchg "$a" c5-req "$b" c5-rep
snap
check "RTU with a wrong remote comm ID" send "$a" c5-rtux
check "... unmatched, c5 stays in rep" is "$(grew cm-unmatched) $(conn_state 4101)" "1 rep"

# Test the CNP interval when sending fails: CE-marked data from 10.9.9.9,
# to which r has no route, to b's QP 0x77 of a managed entry. One attempt
# per interval; before, every packet cost a route lookup. rp-check off:
# the managed entry's first packet binds it only if routing agrees, and
# routing knows no 10.9.9.9.
check "cnp on, interval 1 s, rp-check off" \
	on "$r" config set cnp on cnp-interval-us 1000000 rp-check off
check "managed entry 10.9.9.9 -> b QP 0x77" \
	on "$r" qp add src 10.9.9.9 dst 10.0.2.1 dqpn 0x77 sqpn 0x78
snap
check "10 CE packets from 10.9.9.9 at once" burst "$a" ce-noroute 10
check "... one attempt: no route; nine held back" is \
	"$(grew cnp-no-route cnp-interval cnp-sent)" "1 9 0"
check "cnp off, rp-check on" on "$r" config set cnp off rp-check on

# Test that drop mode's log is rate limited (net_ratelimit: 10 per 5 s). A
# logger in a namespace other than init_net needs nf_log_all_netns.
logger()
{
	modprobe nf_log_syslog &&
		all_netns=$(sysctl -n net.netfilter.nf_log_all_netns) &&
		sysctl -qw net.netfilter.nf_log_all_netns=1 &&
		ip netns exec "$r" sysctl -qw net.netfilter.nf_log.2=nf_log_ipv4
}
# log_lines: the helper's drop lines since the marker.
log_lines() { dmesg | sed -n '/hostile.sh: drop log test/,$p' | grep 'nf_ct_roce: dropping packet: '; }
check "logger bound in r" logger
check "unknown-qp drop" mode drop
sleep 5		# a fresh net_ratelimit window
echo "hostile.sh: drop log test" >/dev/kmsg
snap
check "200 packets to b's QP 0x999" burst "$a" stray 200
check "... dropped" is "$(grew unknown-qp-dropped)" 200
n=$(log_lines | wc -l)
echo "    $n lines, the first: $(log_lines | head -1)"
check "... logged, but at most 20 lines" test "$n" -ge 1 -a "$n" -le 20

# Test GSO: one send() that UDP GSO cuts into 4 segments, to c1's QP 0x2a,
# then to QP 0x999. veth passes the GSO skb on whole, so r's helper sees
# only the first BTH of the super-packet: drop mode cannot vouch for it.
check "unknown-qp accept" mode accept
snap
check "GSO from a: 4 segments, the first to a known QP" udp_tx "$a" gso gso 272
fence b
n=$(got b)
echo "    b received $n packet(s)"
check "... r saw one super-packet" is "$(grew gso drop-gso)" "1 0"
check "... accept: it reached b" test "$n" -ge 1
check "unknown-qp drop" mode drop
snap
check "the same GSO send" udp_tx "$a" gso gso 272
check "... dropped" is "$(grew gso drop-gso)" "1 1"
fence b
check "... b got none of the segments" is "$(got b)" 0

check "rulesets off r (they hold the module)" ip netns exec "$r" nft flush ruleset
check "module unloads" busywait 10000 rmmod $MODULE
check "no kernel warnings" dmesg_clean
finish

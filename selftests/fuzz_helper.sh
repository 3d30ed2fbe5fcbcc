#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The packet fuzzer, in the kernel: what libFuzzer found interesting for the
# parser in userspace ($BUILD/fuzz: the seeds and the corpus of `make
# fuzz`), mutated, goes through the router's real helper from raw sockets,
# in both policies, over IPv4 and IPv6 (with extension headers); and so do
# the shapes only a kernel produces: MADs with payloads in page fragments
# (sendfile), IP fragments reassembled by conntrack, and GRO super-packets
# (rx-udp-gro-forwarding on r's veth). The helper must count every packet
# and nothing may break: on the debug kernel, kernel_checks.sh then reads
# what KASAN, UBSAN and lockdep saw.
#
#   a (10.0.1.1, fd00:1::1) -- r (helper) -- b (10.0.2.1, fd00:2::1)

source "$(dirname "$0")/lib.sh"

FUZZ_PACKETS=${FUZZ_PACKETS:-3000}

ksft_start

# Mutations of every corpus input, wrapped in IP/UDP from a to b's RoCE
# port (the UDP length sometimes lies), one hex line each.
craft_packets()
{
	pkts=$(mktemp -d)
	chmod 755 "$pkts"
	PYTHONPATH=$SELFTESTS_DIR/wire "$PYTHON" - "$pkts" "$BUILD/fuzz" \
		"$FUZZ_PACKETS" <<-'EOF'
	import os, random, struct, sys
	import roce_pkt
	from scapy.layers.inet import IP, UDP
	from scapy.layers.inet6 import IPv6, IPv6ExtHdrHopByHop, IPv6ExtHdrDestOpt
	from scapy.packet import Raw

	out, fuzzdir, total = sys.argv[1], sys.argv[2], int(sys.argv[3])
	rng = random.Random(4791)
	inputs = []
	for sub in ('seeds', 'corpus'):
	    d = os.path.join(fuzzdir, sub)
	    if os.path.isdir(d):
	        for f in sorted(os.listdir(d)):
	            inputs.append(open(os.path.join(d, f), 'rb').read())
	A, B, A6, B6 = '10.0.1.1', '10.0.2.1', 'fd00:1::1', 'fd00:2::1'
	ex = roce_pkt.cm_exchange(A, B)
	inputs += [bytes(ex[k]) for k in ex]
	inputs.append(bytes(roce_pkt.data_packet(4, A, B, 0x0a, 0x2a, 1, payload_len=64)))

	def roce_payload(raw):
	    # What follows the UDP header if the input is an IP/UDP packet.
	    if raw and raw[0] >> 4 == 4 and len(raw) > 28:
	        return raw[(raw[0] & 15) * 4 + 8:]
	    if raw and raw[0] >> 4 == 6 and len(raw) > 48:
	        return raw[48:]
	    return raw

	def mutate(p):
	    p = bytearray(p)
	    for _ in range(rng.randint(0, 4)):
	        op = rng.randrange(4)
	        if op == 0 and p:
	            i = rng.randrange(len(p))
	            p[i] ^= 1 << rng.randrange(8)
	        elif op == 1 and p:
	            del p[rng.randrange(len(p)):]
	        elif op == 2:
	            p += bytes(rng.randrange(256) for _ in range(rng.randrange(1, 64)))
	        elif op == 3 and len(p) > 12:
	            p[rng.randrange(12)] = rng.randrange(256)   # the BTH
	    return bytes(p)

	v4, v6 = [], []
	for n in range(total):
	    body = mutate(roce_payload(rng.choice(inputs)))
	    ulen = 8 + len(body)
	    if rng.randrange(8) == 0:
	        ulen = rng.randrange(0, 0x10000)          # a lying UDP length
	    udp = struct.pack('>HHHH', 0xc000 + n % 64, 4791, ulen & 0xffff, 0) + body
	    if n % 4:
	        v4.append(bytes(IP(src=A, dst=B, proto=17) / Raw(udp)))
	    else:
	        ext = rng.choice([IPv6ExtHdrHopByHop(), IPv6ExtHdrDestOpt(),
	                          IPv6ExtHdrHopByHop() / IPv6ExtHdrDestOpt()])
	        v6.append(bytes(IPv6(src=A6, dst=B6) / ext / UDP(sport=0xc000, dport=4791) / Raw(body)))
	# Raw sockets send at most the MTU; larger shapes come as fragments.
	v4 = [p for p in v4 if len(p) <= 1500]
	v6 = [p for p in v6 if len(p) <= 1500]
	with open(out + '/v4', 'w') as f:
	    f.writelines(p.hex() + '\n' for p in v4)
	with open(out + '/v6', 'w') as f:
	    f.writelines(p.hex() + '\n' for p in v6)
	# A MAD with 1400 extra bytes, for page fragments; and a MAD as such.
	mad = roce_payload(bytes(ex['req']))
	open(out + '/paged', 'wb').write(mad[:-4] + bytes(1400) + mad[-4:])
	print(len(inputs), 'inputs,', len(v4), 'IPv4 and', len(v6), 'IPv6 packets')
	EOF
}

# Payloads from a UDP socket in a: page fragments (UDP_CORK and sendfile),
# then datagrams larger than the MTU (IP fragments), over IPv4 and IPv6.
kernel_shapes()
{
	ip netns exec "$a" "$PYTHON" - "$pkts/paged" <<-'EOF'
	import os, socket, sys
	f = os.open(sys.argv[1], os.O_RDONLY)
	size = os.fstat(f).st_size
	def tolerant(call, *args):
	    try:
	        call(*args)
	    except ConnectionRefusedError:      # b's ICMP port unreachable
	        pass
	for fam, dst in ((socket.AF_INET, '10.0.2.1'), (socket.AF_INET6, 'fd00:2::1')):
	    s = socket.socket(fam, socket.SOCK_DGRAM)
	    s.connect((dst, 4791))
	    for _ in range(20):
	        s.setsockopt(socket.IPPROTO_UDP, 1, 1)          # UDP_CORK
	        tolerant(os.sendfile, s.fileno(), f, 0, size)
	        s.setsockopt(socket.IPPROTO_UDP, 1, 0)
	    for n in (1600, 3000, 9000, 60000):                   # fragments
	        tolerant(s.send, bytes([0x04, 0, 0xff, 0xff, 0, 0, 0, 0x2a]) + bytes(n))
	    s.close()
	EOF
}

# Super-packets: UDP GSO from a (veth hands them to r whole), and
# same-flow datagrams back to back for GRO on r's veth0.
gro_burst()
{
	ip netns exec "$a" "$PYTHON" - <<-'EOF'
	import socket
	s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
	s.bind(('10.0.1.1', 0xd0d0))
	seg = bytes([0x0a, 0, 0xff, 0xff, 0, 0, 0, 0x2a]) + bytes(1000)
	s.setsockopt(socket.SOL_UDP, 103, len(seg))         # UDP_SEGMENT
	for _ in range(50):
	    s.sendto(seg * 4, ('10.0.2.1', 4791))
	s.setsockopt(socket.SOL_UDP, 103, 0)
	for _ in range(500):
	    s.sendto(seg, ('10.0.2.1', 4791))
	EOF
}

round()
{
	send "$a" v4 v6 && kernel_shapes && gro_burst
}

check "module installed for modprobe" install_module
check "packets crafted from the fuzzer's corpus" craft_packets
check "topology up, MTU 1500" setup_router_topology
check "helper on r" ip netns exec "$r" nft -f <(nft_roce_ruleset)
check "CNPs on, so that CE paths run too" on "$r" config set cnp on
if ip netns exec "$r" ethtool -K veth0 gro on rx-udp-gro-forwarding on \
	>/dev/null 2>&1; then
	echo "    GRO and UDP GRO forwarding on r's veth0"
else
	echo "    no ethtool or no UDP GRO forwarding: GRO not exercised"
fi

before=$(on "$r" -j stats | jq .packets)
check "round 1 (accept): fuzzed, paged, fragmented and GRO packets sent" round
check "... the helper inspected them" \
	test "$(on "$r" -j stats | jq .packets)" -gt "$before"
echo "    $(on "$r" -j stats | jq -c '{packets, malformed: .class.malformed, gso, icrc_bad}')"
check "unknown-qp drop" on "$r" config set unknown-qp drop
check "round 2 (drop): the same again" round
check "... drops counted by reason" \
	test "$(on "$r" -j stats | jq '.drop_malformed')" -gt 0
check "rocect still answers" on "$r" -j qp show

ip netns exec "$r" nft flush ruleset
check "module unloads" busywait 10000 rmmod $MODULE
check "no kernel warnings" dmesg_clean
finish

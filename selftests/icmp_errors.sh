#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# ICMP errors about RoCE packets pass the helper, even in drop mode. A
# RoCE flow whose packets use UDP source port 4791 both ways is one
# conntrack with both directions; an ICMP error about a packet of its
# reply direction (here: a tells b that b's packet was too big, as path
# MTU discovery needs) is RELATED to it in the original direction, and
# conntrack calls the flow's helper with the ICMP packet. It is no RoCE:
# it must pass, not be dropped as a malformed packet ("not-udp").
#
#   a (10.0.1.1, fd00:1::1) -- r (helper, unknown-qp drop) -- b (10.0.2.1, fd00:2::1)

source "$(dirname "$0")/lib.sh"

ksft_start

craft_packets()
{
	pkts=$(mktemp -d)
	craft "$pkts" "
from scapy.layers.inet import ICMP
from scapy.layers.inet6 import IPv6, ICMPv6PacketTooBig
for fam, A, B in ((4, '10.0.1.1', '10.0.2.1'), (6, 'fd00:1::1', 'fd00:2::1')):
    ex = roce_pkt.cm_exchange(A, B, comm_ids=(0x3001, 0x4001),
                              qpns=(0x31, 0x41))
    for k in ('req', 'rep', 'rtu'):
        save('%s%d' % (k, fam), ex[k])
    ab = roce_pkt.data_packet(fam, A, B, 0x04, 0x41, 1, payload_len=64,
                              ip_args={'sport': 4791})
    ba = roce_pkt.data_packet(fam, B, A, 0x04, 0x31, 1, payload_len=1200,
                              ip_args={'sport': 4791})
    save('ab%d' % fam, ab)
    save('ba%d' % fam, ba)
    # a's answer to b's packet: too big for the next hop.
    if fam == 4:
        err = IP(src=A, dst=B) / ICMP(type=3, code=4, nexthopmtu=1000) / \\
            bytes(ba)[:28]
    else:
        err = IPv6(src=A, dst=B) / ICMPv6PacketTooBig(mtu=1280) / \\
            bytes(ba)[:48]
    save('err%d' % fam, err)
" 2>/dev/null
}

# What b receives: the errors sent here (a's own port unreachables about
# b's packets, which a has no RDMA stack for, pass too, uncounted).
count_icmp()
{
	ip netns exec "$b" nft -f - <<-EOT
		table inet rx {
		    chain in {
		        type filter hook prerouting priority filter;
		        icmp type destination-unreachable icmp code frag-needed counter
		        icmpv6 type packet-too-big counter
		    }
		}
	EOT
}
icmp_in() { nft_packets "$b" rx in "$1"; }

check "packets crafted with scapy" craft_packets
check "topology up" setup_router_topology
check "module loads" load_module
check "helper on r" ip netns exec "$r" nft -f <(nft_roce_ruleset)
check "unknown-qp drop on r" on "$r" config set unknown-qp drop
check "b counts ICMP errors" count_icmp

for fam in 4 6; do
	check "IPv$fam: handshake" eval \
		'send "$a" req$fam && send "$b" rep$fam && send "$a" rtu$fam'
	check "IPv$fam: data both ways from port 4791" eval \
		'send "$a" ab$fam && send "$b" ba$fam'
	check "IPv$fam: ICMP error about b's packet" send "$a" "err$fam"
done
check "b got the IPv4 ICMP error" is "$(icmp_in frag-needed)" 1
check "b got the ICMPv6 error" is "$(icmp_in packet-too-big)" 1
check "r's helper saw them (malformed.not-udp)" test \
	"$(on "$r" -j stats | jq '.malformed.not_udp')" -ge 2
check "r dropped nothing as malformed" expect_stat "$r" drop-malformed 0
check "r dropped no data" expect_stat "$r" unknown-qp-dropped 0

ip netns exec "$r" nft flush ruleset
check "module unloads" busywait 10000 rmmod $MODULE
check "no kernel warnings" dmesg_clean
finish

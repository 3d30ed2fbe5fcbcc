#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Where CNPs go, beyond the plain case of cnp.sh:
#
#   - to an IPv6 link-local sender: fe80::/64 exists on every link, so the
#     CNP must leave through the interface the CE-marked packet came in on
#     (r has two links with link-local addresses);
#   - to the RoCE port the flow uses: with the module's ports=4791,4792
#     and helper roce-4792 on a flow to port 4792, the CNP goes to 4792;
#   - nowhere, when r's own output path drops it (a rule here, a full
#     transmit queue on a busy link): counted as cnp-tx-dropped, not sent.
#
#   a (fe80::a, 10.0.1.1) -- r (helper, endpoint for fe80::fe) -- b

source "$(dirname "$0")/lib.sh"

ksft_start

# A RoCE RC SEND-only packet's UDP payload to QP 0x2a (BTH, 16 bytes, ICRC
# left zero: data ICRCs are not checked), CE-marked, from a UDP socket in
# a, so that the link-local destination gets its scope.
send_ce()
{
	ip netns exec "$a" "$PYTHON" - "$@" <<-'EOF'
	import socket, sys
	dst, port = sys.argv[1], int(sys.argv[2])
	bth = bytes([0x04, 0, 0xff, 0xff, 0, 0, 0, 0x2a, 0, 0, 0, 1])
	fam = socket.AF_INET6 if ':' in dst else socket.AF_INET
	s = socket.socket(fam, socket.SOCK_DGRAM)
	if fam == socket.AF_INET6:
	    s.setsockopt(socket.IPPROTO_IPV6, socket.IPV6_TCLASS, 3)
	    addr = (dst, port, 0, socket.if_nametoindex('veth0'))
	else:
	    s.setsockopt(socket.IPPROTO_IP, socket.IP_TOS, 3)
	    addr = (dst, port)
	s.bind(('', 0xd017))
	s.sendto(bth + bytes(16) + bytes(4), addr)
	EOF
}

# CNPs a receives: BTH opcode 0x81 right after the UDP header, per port.
count_cnps()
{
	ip netns exec "$a" nft -f - <<-EOT
		table inet cnps {
		    chain in {
		        type filter hook input priority filter;
		        udp dport 4791 @th,64,8 0x81 counter comment "4791"
		        udp dport 4792 @th,64,8 0x81 counter comment "4792"
		    }
		}
	EOT
}
cnps_to() { nft_packets "$a" cnps in "\"$1\""; }
cnps_are() { [ "$(cnps_to "$1")" = "$2" ]; }
cnps_sent() { [ "$(on "$r" -j stats | jq '.cnp_sent')" = "$1" ]; }

helper_4792()
{
	ip netns exec "$r" nft -f - <<-EOT
		table inet roce4792 {
		    ct helper roce4792 {
		        type "roce-4792" protocol udp
		        l3proto inet
		    }
		    chain pre {
		        type filter hook prerouting priority filter;
		        udp dport 4792 ct helper set "roce4792"
		    }
		}
	EOT
}

link_local()
{
	ip -n "$a" addr add fe80::a/64 dev veth0 nodad &&
		ip -n "$r" addr add fe80::fe/64 dev veth0 nodad &&
		ip -n "$r" addr add fe80::fe/64 dev veth1 nodad
}

check "module loaded with ports=4791,4792" load_module ports=4791,4792
check "topology up" setup_router_topology
check "fe80::fe on both of r's links, fe80::a on a's" link_local
check "helper roce on r (4791)" ip netns exec "$r" nft -f <(nft_roce_ruleset)
check "helper roce-4792 on r" helper_4792
check "a counts the CNPs it receives" count_cnps
check "cnp on" on "$r" config set cnp on
check "entries for a's QP 0x17 -> QP 0x2a" sh -c "
	ip netns exec $r $ROCECT qp add src fe80::a dst fe80::fe dqpn 0x2a sqpn 0x17 &&
	ip netns exec $r $ROCECT qp add src 10.0.1.1 dst 10.0.2.1 dqpn 0x2a sqpn 0x17"

check "CE packet from fe80::a to r's fe80::fe" send_ce fe80::fe 4791
check "... r sent a CNP" busywait 5000 cnps_sent 1
check "... back through veth0: a received it" busywait 5000 cnps_are 4791 1
check "... no route failure" is "$(on "$r" -j stats | jq '.cnp_no_route')" 0

check "CE packet a -> b on port 4792 (helper roce-4792)" send_ce 10.0.2.1 4792
check "... a received a CNP on port 4792" busywait 5000 cnps_are 4792 1
check "... and none on port 4791 for it" is "$(cnps_to 4791)" 1

qp_cnps() { on "$r" -j qp show src 10.0.1.1 | jq '.[0].cnps'; }
check "r's output path drops CNPs" ip netns exec "$r" nft -f - <<-EOT
	table inet nocnp {
	    chain out {
	        type filter hook output priority filter;
	        udp dport 4791 @th,64,8 0x81 drop
	    }
	}
EOT
sent=$(stat_json "$r" cnp-sent) before=$(qp_cnps)
check "CE packet a -> b: its CNP dropped on the way out" \
	send_ce 10.0.2.1 4791
check "... counted as cnp-tx-dropped" busywait 5000 \
	eval '[ "$(stat_json "$r" cnp-tx-dropped)" = 1 ]'
check "... not as sent" is "$(stat_json "$r" cnp-sent)/$(qp_cnps)" "$sent/$before"
check "... a received nothing more on port 4791" is "$(cnps_to 4791)" 1

ip netns exec "$r" nft flush ruleset
check "module unloads" busywait 10000 rmmod $MODULE
check "no kernel warnings" dmesg_clean
finish

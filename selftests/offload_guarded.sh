#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Offload guarded, examples/router-flowtable.nft on r: the data flow of an
# RC or UC pair that alone explains it goes without the helper and r's
# flowtable takes it over, as with offload on; rocect's netdev ingress
# hook (the guard), ahead of the flowtable, still gives each of its
# packets the helper's checks. So what offload on lets through on an
# offloaded flow is dropped here: an unknown QP, a spoof from a third
# host's interface, a far PSN from the sender's own link, a first IP
# fragment; CE-marked packets earn their sender a CNP; the entry counts
# every packet. A DREQ revokes the flow as before; offload on after
# guarded takes the hooks off (the spoof passes again). A flow older than
# offload is moved onto it once guarded, and its packets counted once.
#
#   a (10.0.1.1, fd00:1::1) -- r (helper, drop mode, flowtable) -- b (10.0.2.1, fd00:2::1)
#                              r -- m (10.0.3.1: the third host)

source "$(dirname "$0")/lib.sh"

ksft_start

# Pairs: c1 QPs 0x11 <-> 0x12, c4 0x31 <-> 0x32, c6 (IPv6) 0x21 <-> 0x22,
# c8 0x81 <-> 0x82.
craft_packets()
{
	pkts=$(mktemp -d)
	craft "$pkts" "
from scapy.layers.inet import fragment
A, B, A6, B6 = '10.0.1.1', '10.0.2.1', 'fd00:1::1', 'fd00:2::1'
V = '10.0.10.1'
def data(name, src, dst, dqpn, sport, n=1, psn=1, tos=0):
    save(name, *[roce_pkt.data_packet(roce_pkt.family_of(src), src, dst, 0x04,
         dqpn, psn + i, payload_len=64, ip_args=dict(sport=sport, tos=tos))
         for i in range(n)])
for name, a, b, qps, ids in (('c1', A, B, (0x11, 0x12), (0x1001, 0x2001)),
                             ('c4', A, B, (0x31, 0x32), (0x1004, 0x2004)),
                             ('c6', A6, B6, (0x21, 0x22), (0x1006, 0x2006)),
                             ('c8', A, B, (0x81, 0x82), (0x1008, 0x2008)),
                             ('c9', V, B, (0x71, 0x72), (0x1009, 0x2009))):
    ex = roce_pkt.cm_exchange(a, b, comm_ids=ids, qpns=qps)
    for k in ('req', 'rep', 'rtu'):
        save(name + '-' + k, ex[k])
    save(name + '-dreq', roce_pkt.cm_packet(roce_pkt.family_of(a), a, b, 'dreq',
         local_comm_id=ids[0], remote_comm_id=ids[1], qpn=qps[1]))
P1 = roce_pkt.udp_sport(0, 0x11, 0x12)
P4 = roce_pkt.udp_sport(0, 0x31, 0x32)
P6 = roce_pkt.udp_sport(0, 0x21, 0x22)
P8 = roce_pkt.udp_sport(0, 0x81, 0x82)
P9 = roce_pkt.udp_sport(0, 0x71, 0x72)
data('ab8', A, B, 0x82, P8, 10)
data('ab8-tick', A, B, 0x82, P8, 5, psn=11)
data('ab8-more', A, B, 0x82, P8, 10, psn=16)
data('ab8-far', A, B, 0x82, P8, 5, psn=0x400000)
data('vb9', V, B, 0x72, P9, 20)
data('vb9-more', V, B, 0x72, P9, 10, psn=21)
data('ab1', A, B, 0x12, P1, 20)
data('ab1-more', A, B, 0x12, P1, 10, psn=21)
data('ab1-x', A, B, 0x99, P1, 5)
data('ab1-far', A, B, 0x12, P1, 5, psn=0x400000)
data('ab1-ce', A, B, 0x12, P1, 1, psn=31, tos=3)
big = roce_pkt.data_packet(4, A, B, 0x04, 0x99, 40, payload_len=512,
                           ip_args=dict(sport=P1))
save('ab1-frag', *fragment(IP(bytes(big)), fragsize=256))
save('ab1-mad', roce_pkt.cm_packet(4, A, B, 'dreq', local_comm_id=0x1001,
     remote_comm_id=0x2001, qpn=0x12, sport=P1))
data('ab4', A, B, 0x32, P4, 20)
data('ab4-x', A, B, 0x99, P4, 5)
data('ab6', A6, B6, 0x22, P6, 20)
data('ab6-x', A6, B6, 0x99, P6, 5)
with open(sys.argv[1] + '/ports', 'w') as f:
    f.write('P1=%d P4=%d P6=%d P8=%d P9=%d\\n' % (P1, P4, P6, P8, P9))
" 2>/dev/null
}

# forwarded: packets of port $P1's flow that r's forward hook saw.
forwarded() { nft_packets "$r" watch_p1 forward; }

# examples/router-flowtable.nft with this topology's interface names
# (m's veth2 too, and VLAN 10's), and a counter of c1's flow in the
# forward hook.
ruleset()
{
	local inside='"veth0"'

	[ -z "$vlans" ] || inside='"veth0", "veth0.10"'
	sed "/devices/ { s/\"inside\"/$inside/; s/\"outside\"/\"veth1\", \"veth2\"/ }
	     s/\"inside\"/{ $inside }/" "$TOP/examples/router-flowtable.nft"
	cat <<-EOT
	table inet watch_p1 {
	    chain forward {
	        type filter hook forward priority filter;
	        udp sport $P1 udp dport 4791 counter
	    }
	}
	EOT
}

# hooks_listed: can nft list the kernel's hooks (nfnetlink_hook)? Debian's
# 6.1 has no such module: there the hooks are seen by what they do only.
hooks_listed() { [ -n "$(ip netns exec "$r" nft list hooks 2>/dev/null)" ]; }

# hooks_are N: r's devices with an ingress hook of rocect's are N, where
# nft can tell.
hooks_are()
{
	hooks_listed || return 0
	is "$(guard_hooks)" "$1"
}

# guard_hooks: how many of r's devices have an ingress hook of rocect's.
guard_hooks()
{
	local dev n=0

	for dev in $(ip -n "$r" -o link show | awk -F': ' '{ sub(/@.*/, "", $2); print $2 }'); do
		ip netns exec "$r" nft list hooks netdev device "$dev" 2>/dev/null |
			grep -q nf_conntrack_roce && n=$((n + 1))
	done
	echo "$n"
}

# vlan10: VLAN 10 between a (10.0.10.1) and r (10.0.10.254), on veth0.
vlan10()
{
	ip -n "$a" link add link veth0 name veth0.10 type vlan id 10 &&
	ip -n "$r" link add link veth0 name veth0.10 type vlan id 10 &&
	ip -n "$a" addr add 10.0.10.1/24 dev veth0.10 &&
	ip -n "$r" addr add 10.0.10.254/24 dev veth0.10 &&
	ip -n "$a" link set veth0.10 up && ip -n "$r" link set veth0.10 up &&
	ip netns exec "$r" sysctl -qw net.ipv4.conf.veth0/10.rp_filter=0
}
# qp_packets DQPN: the packets r counted to c1's entry of that QP.
qp_packets() { on "$r" -j qp show src 10.0.1.1 dst 10.0.2.1 dqpn "$1" | jq '.[0].packets'; }

check "module installed for modprobe" install_module
check "packets crafted with scapy" craft_packets
source "$pkts/ports"
check "topology: a, r, b and the third host m" \
	eval 'setup_router_topology && setup_attacker && count_roce_input "$a" "$b"'
# The debug kernel has no 8021q (nor dummy): there the VLAN checks, and
# the device made later, are left out.
vlans=1 devs=4
if modprobe -q 8021q 2>/dev/null || [ -d /proc/net/vlan ]; then
	check "VLAN 10 between a and r" vlan10
	devs=5
else
	vlans=
	echo "# no 8021q in this kernel: the VLAN checks are left out"
fi
# m's spoofs in a's name are routed back out of veth1 to b: the flowtable
# serves veth2 too, so that only the guard can stop them.
check "examples/router-flowtable.nft on r" ip netns exec "$r" nft -f <(ruleset)
ip netns exec "$r" sysctl -qw net.netfilter.nf_flowtable_udp_timeout=300 2>/dev/null
send_from_m() { ip netns exec "$m" "$ROCE_SEND" "$pkts/$1" 2>/dev/null; }

# Offload on first: what the guard is for.
check "unknown-qp drop, offload on" on "$r" config set unknown-qp drop offload on idle-timeout 3600
check "... no guard hook" hooks_are 0
check "IPv4 handshake c1 (QPs 0x11, 0x12)" xchg "$a" c1-req "$b" c1-rep "$a" c1-rtu
check "c1's data, 20 packets: all reach b, offloaded" \
	is "$(sent "$a" ab1 b offload-flows) $(offloaded "$r" ipv4 "$P1")" "20 1 1"
check "on: an unknown QP on the offloaded flow passes" \
	is "$(sent "$a" ab1-x b unknown-qp-dropped)" "5 0"

on_mode_count=$(qp_packets 0x12)
hooks_listed || echo "# nft cannot list hooks here (no nfnetlink_hook): hook counts not checked"
check "offload guarded, CNPs on" on "$r" config set offload guarded cnp on
check "... shown as guarded" is "$(on "$r" -j config | jq -r .offload)" guarded
check "... a guard hook on each of r's $devs devices" hooks_are "$devs"
check "... revoked the flow offload on let go" is "$(offloaded "$r" ipv4 "$P1")" 0
check "c1's data: all 10 reach b, offloaded again, without the helper" \
	is "$(sent "$a" ab1-more b offload-flows wrong-psn) $(offloaded "$r" ipv4 "$P1") $(helped "$r" ipv4 "$P1")" \
	"10 1 0 1 0"
check "... r's forward hook saw 2 of its packets in each mode, 4 of 35" \
	is "$(forwarded)" 4
check "... the entry counted all 10 (the guard saw those the flowtable forwarded)" \
	is "$(($(qp_packets 0x12) - on_mode_count))" 10
check "guarded: an unknown QP on the offloaded flow is dropped" \
	is "$(sent "$a" ab1-x b unknown-qp-dropped) $(offloaded "$r" ipv4 "$P1")" "0 5 1"
check "guarded: a's QP from m (another interface) is dropped" \
	is "$(snap; send_from_m ab1-more; fence b; echo "$(got b) $(grew wrong-iface)")" "0 10"
check "guarded: a far PSN from a's own link is dropped" \
	is "$(sent "$a" ab1-far b wrong-psn)" "0 5"
check "guarded: a first IP fragment on the flow is dropped" \
	is "$(sent "$a" ab1-frag b drop-malformed)" "0 1"
check "guarded: a MAD (c1's DREQ) on the flow is dropped, c1 stays" \
	is "$(sent "$a" ab1-mad b drop-spoofed) $(on "$r" -j conn show | jq -r '.[] | select(.aqpn == 17) | .state')" \
	"0 1 established"
check "guarded: a CE-marked packet passes and earns a a CNP" \
	is "$(snap; send "$a" ab1-ce; fence b; fence a; echo "$(got b) $(got a) $(grew ce cnp-sent)")" \
	"1 1 1 1"
check "... the flow stayed offloaded, its entry counted 11 since guarded" \
	is "$(offloaded "$r" ipv4 "$P1") $(($(qp_packets 0x12) - on_mode_count))" "1 11"

# IPv6, and revocation by a DREQ.
check "IPv6 handshake c6" xchg "$a" c6-req "$b" c6-rep "$a" c6-rtu
check "c6's data offloaded" \
	is "$(sent "$a" ab6 b offload-flows) $(offloaded "$r" ipv6 "$P6")" "20 1 1"
check "guarded: an unknown QP on it is dropped" \
	is "$(sent "$a" ab6-x b unknown-qp-dropped)" "0 5"
check "DREQ a -> b" send "$a" c6-dreq
check "... revoked the flow" is "$(offloaded "$r" ipv6 "$P6")" 0
check "... the unknown QP is still dropped" \
	is "$(sent "$a" ab6-x b unknown-qp-dropped)" "0 5"

# qp del of an offloaded pair's entry: the guard no longer admits it.
check "IPv4 handshake c4" xchg "$a" c4-req "$b" c4-rep "$a" c4-rtu
check "c4's data offloaded" \
	is "$(sent "$a" ab4 b offload-flows) $(offloaded "$r" ipv4 "$P4")" "20 1 1"
check "qp del of c4's entry" on "$r" qp del src 10.0.1.1 dst 10.0.2.1 dqpn 0x32
check "... the next packets are dropped" \
	is "$(sent "$a" ab4 b unknown-qp-dropped) $(offloaded "$r" ipv4 "$P4")" "0 20 0"

if [ -n "$vlans" ]; then
	# VLAN 10's frames come in tagged on veth0, where the flowtable can take
	# them; the guard checks them there, once, as from veth0.10, which the
	# entry is bound to.
	check "a's IPv4 default route on VLAN 10" \
		ip -n "$a" route replace default via 10.0.10.254
	check "IPv4 handshake c9 over the VLAN" xchg "$a" c9-req "$b" c9-rep "$a" c9-rtu
	check "c9's data: all 20 reach b, offloaded, none refused" \
		is "$(sent "$a" vb9 b offload-flows wrong-iface) $(offloaded "$r" ipv4 "$P9")" "20 1 0 1"
	check "... its entry counted each packet once" \
		is "$(on "$r" -j qp show src 10.0.10.1 dst 10.0.2.1 dqpn 0x72 | jq '.[0].packets')" 20
	check "a's default route back on veth0, untagged" \
		ip -n "$a" route replace default via 10.0.1.254
	check "guarded: c9's sender untagged (another interface) is dropped" \
		is "$(sent "$a" vb9-more b wrong-iface)" "0 10"
fi

# Back to offload on: the hooks go, and the spoof passes again.
check "offload on" on "$r" config set offload on
check "... the guard hooks are gone" hooks_are 0
check "c1's data offloaded again" \
	is "$(sent "$a" ab1-more b offload-flows) $(offloaded "$r" ipv4 "$P1")" "10 1 1"
check "on: a's QP from m passes (documented)" \
	is "$(snap; send_from_m ab1-more; fence b; got b)" 10

# A device made while guarded gets its hook; rmmod with hooks on.
check "offload guarded again" on "$r" config set offload guarded
if modprobe -q dummy 2>/dev/null; then
	check "a dummy device made on r gets a hook" \
		eval 'ip -n "$r" link add dummy9 type dummy && hooks_are $((devs + 1))'
	check "... and loses it when deleted" \
		eval 'ip -n "$r" link del dummy9 && hooks_are $devs'
fi

# A connection made while offload was off keeps the helper on its flow
# until, once guarded, its next packets have the connection indexed and
# the collector moves the flow onto the flowtable: then the guard alone
# checks and counts its packets.
check "offload off" on "$r" config set offload off
check "IPv4 handshake c8 (QPs 0x81, 0x82)" xchg "$a" c8-req "$b" c8-rep "$a" c8-rtu
check "c8's data: all 10 reach b, with the helper" \
	is "$(sent "$a" ab8 b wrong-psn) $(helped "$r" ipv4 "$P8")" "10 0 1"
check "offload guarded" on "$r" config set offload guarded
# The keepalive's pass, once a second, indexes the connection.
nap 1.5
check "c8's data a second later: all 5 reach b" \
	is "$(sent "$a" ab8-tick b wrong-psn)" "5 0"
check "... c8's flow, older than offload, killed within 10 s" \
	busywait 10000 eval '[ "$(helped "$r" ipv4 "$P8")" = 0 ]'
c8_count=$(qp_packets 0x82)
check "c8's next data: all 10 reach b, offloaded, without the helper" \
	is "$(sent "$a" ab8-more b wrong-psn offload-flows) $(offloaded "$r" ipv4 "$P8") $(helped "$r" ipv4 "$P8")" \
	"10 0 1 1 0"
check "... its entry counted each packet once" \
	is "$(($(qp_packets 0x82) - c8_count))" 10
check "guarded: a far PSN on c8's flow is dropped" \
	is "$(sent "$a" ab8-far b wrong-psn)" "0 5"

check "ruleset removed" ip netns exec "$r" nft delete table inet rocect
check "rmmod with the guard on" unload_module
check "kernel log clean" dmesg_clean

cleanup_all_ns
finish

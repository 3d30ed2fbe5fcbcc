#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Offload on with tc act_ct instead of nft's flowtable
# (examples/router-act-ct.tc on r, the helper attached to new flows by
# router-flowtable.nft without its flowtable): the data flow of an RC or
# UC pair that alone explains it enters act_ct's flowtable ([OFFLOAD]);
# a flow from another port, and an IPv6 pair's once a second pair shares
# its port, keep the helper and are inspected. qp del and a DREQ revoke
# an offloaded flow: its next packets are inspected again, an unknown QP
# on its tuple dropped again.
#
#   a (10.0.1.1, fd00:1::1) -- r (helper, drop mode, act_ct) -- b (10.0.2.1, fd00:2::1)

source "$(dirname "$0")/lib.sh"

ksft_start
checktool modprobe act_ct
checktool modprobe cls_flower

# Pairs: t1 QPs 0x11 <-> 0x12, t2 0x31 <-> 0x32, t6 (IPv6) 0x21 <-> 0x22.
craft_packets()
{
	pkts=$(mktemp -d)
	craft "$pkts" "
A, B, A6, B6 = '10.0.1.1', '10.0.2.1', 'fd00:1::1', 'fd00:2::1'
def data(name, src, dst, dqpn, sport, n=1):
    save(name, *[roce_pkt.data_packet(roce_pkt.family_of(src), src, dst, 0x04,
         dqpn, 1 + i, payload_len=64, ip_args=dict(sport=sport)) for i in range(n)])
for name, a, b, qps, ids in (('t1', A, B, (0x11, 0x12), (0x1001, 0x2001)),
                             ('t2', A, B, (0x31, 0x32), (0x1002, 0x2002)),
                             ('t6', A6, B6, (0x21, 0x22), (0x1006, 0x2006))):
    ex = roce_pkt.cm_exchange(a, b, comm_ids=ids, qpns=qps)
    for k in ('req', 'rep', 'rtu'):
        save(name + '-' + k, ex[k])
    save(name + '-dreq', roce_pkt.cm_packet(roce_pkt.family_of(a), a, b, 'dreq',
         local_comm_id=ids[0], remote_comm_id=ids[1], qpn=qps[1]))
P1 = roce_pkt.udp_sport(0, 0x11, 0x12)
P2 = roce_pkt.udp_sport(0, 0x31, 0x32)
P6 = roce_pkt.udp_sport(0, 0x21, 0x22)
data('ab1', A, B, 0x12, P1, 20)
data('ab1-x', A, B, 0x99, P1, 5)
data('ab1-port', A, B, 0x12, 0xd000, 5)
data('ab2', A, B, 0x32, P2, 20)
data('ab2-x', A, B, 0x99, P2, 5)
data('ab6', A6, B6, 0x22, P6, 20)
data('ab6-x', A6, B6, 0x99, P6, 5)
with open(sys.argv[1] + '/ports', 'w') as f:
    f.write('P1=%d P2=%d P6=%d\\n' % (P1, P2, P6))
" 2>/dev/null
}

# ruleset: router-flowtable.nft's rules without its flowtable, with this
# topology's interface names.
ruleset()
{
	sed '/flowtable ft {/,/^\t}/d; /flow add/d; s/"inside"/"veth0"/; s/"outside"/"veth1"/' \
		"$TOP/examples/router-flowtable.nft"
}

# act_ct: examples/router-act-ct.tc on r's interfaces.
act_ct()
{
	sed 's/ inside / veth0 /; s/ outside / veth1 /' "$TOP/examples/router-act-ct.tc" |
		ip netns exec "$r" tc -batch -
}

check "module installed for modprobe" install_module
check "packets crafted with scapy" craft_packets
source "$pkts/ports"
check "topology: a, r, b" eval 'setup_router_topology && count_roce_input "$a" "$b"'
check "router-flowtable.nft without its flowtable on r" \
	eval 'ruleset | ip netns exec "$r" nft -f - && ! ip netns exec "$r" nft list flowtables | grep -q flowtable'
check "examples/router-act-ct.tc on r" act_ct
check "... act_ct on both interfaces, both families" \
	is "$(for d in veth0 veth1; do ip netns exec "$r" tc filter show dev $d ingress; done | grep -c 'action order 1: ct zone 0 pipe')" 4
check "unknown-qp drop, offload on" on "$r" config set unknown-qp drop offload on idle-timeout 3600

check "IPv4 handshake t1 (QPs 0x11, 0x12)" xchg "$a" t1-req "$b" t1-rep "$a" t1-rtu
check "t1's data, 20 packets: all reach b" is "$(sent "$a" ab1 b offload-flows)" "20 1"
check "... its flow is in act_ct's flowtable, without the helper" \
	is "$(offloaded "$r" ipv4 "$P1") $(helped "$r" ipv4 "$P1")" "1 0"
check "on: an unknown QP on the offloaded flow passes (documented)" \
	is "$(sent "$a" ab1-x b unknown-qp-dropped)" "5 0"
check "a's data to t1's QP from another port: inspected, dropped" \
	is "$(sent "$a" ab1-port b wrong-sport offload-flows)" "0 5 0"
check "qp del of t1's entry" on "$r" qp del src 10.0.1.1 dst 10.0.2.1 dqpn 0x12
check "... revoked the flow" is "$(offloaded "$r" ipv4 "$P1") $(stat_json "$r" offload-revoked)" "0 1"
check "... the next packets are inspected and dropped" \
	is "$(sent "$a" ab1 b unknown-qp-dropped)" "0 20"

check "IPv4 handshake t2, its data offloaded" eval \
	'xchg "$a" t2-req "$b" t2-rep "$a" t2-rtu &&
	 is "$(sent "$a" ab2 b offload-flows) $(offloaded "$r" ipv4 "$P2")" "20 1 1"'
check "DREQ a -> b revokes it" eval \
	'send "$a" t2-dreq && is "$(offloaded "$r" ipv4 "$P2") $(stat_json "$r" offload-revoked)" "0 2"'
check "... the unknown QP is dropped again" is "$(sent "$a" ab2-x b unknown-qp-dropped)" "0 5"

check "IPv6 handshake t6" xchg "$a" t6-req "$b" t6-rep "$a" t6-rtu
check "t6's data offloaded by act_ct" \
	is "$(sent "$a" ab6 b offload-flows) $(offloaded "$r" ipv6 "$P6") $(helped "$r" ipv6 "$P6")" "20 1 1 0"
check "offload off revokes it: the unknown QP is dropped" eval \
	'on "$r" config set offload off &&
	 is "$(offloaded "$r" ipv6 "$P6") $(sent "$a" ab6-x b unknown-qp-dropped)" "0 0 5"'

check "tc and nft rules removed" eval \
	'ip netns exec "$r" tc qdisc del dev veth0 clsact &&
	 ip netns exec "$r" tc qdisc del dev veth1 clsact &&
	 ip netns exec "$r" nft delete table inet rocect'
check "rmmod" unload_module
check "kernel log clean" dmesg_clean

cleanup_all_ns
finish

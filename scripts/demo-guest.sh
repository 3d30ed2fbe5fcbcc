#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The guest half of `make demo`: host A, router R and host B in network
# namespaces; R attaches helper "roce" with nft; A and B run an RDMA CM
# handshake (crafted with scapy). Writes R's capture to $ROCECT_OUTDIR.

source "$(dirname "$0")/../selftests/lib.sh"

say() { printf '\n== %s\n' "$*"; }
# on_r COMMAND...: show COMMAND as typed on R, then run it in R's namespace.
on_r() { printf "R# %s\n" "${*/#$ROCECT/rocect}"; ip netns exec "$r" "$@"; }

set -e
install_module
pkts=$(mktemp -d)
craft "$pkts" "
ex = roce_pkt.cm_exchange('10.0.1.1', '10.0.2.1', qpns=(0x17, 0x2a),
                          port=7471)
for kind in ('req', 'rep', 'rtu'):
    save(kind, ex[kind])
# RDMA SENDs on a flow of their own, to B's QP and to a QP nobody set up.
save('data', roce_pkt.data_packet(4, '10.0.1.1', '10.0.2.1', opcode=0x04,
                                  dqpn=0x2a, psn=1, payload_len=1024,
                                  ip_args={'sport': 0xd017}))
save('stray', roce_pkt.data_packet(4, '10.0.1.1', '10.0.2.1', opcode=0x04,
                                   dqpn=0x99, psn=1, payload_len=1024,
                                   ip_args={'sport': 0xd099}))
" 2>/dev/null

setup_router_topology

say "Host A (10.0.1.1) -- router R -- host B (10.0.2.1), on kernel $(uname -r)"
say "On R, this nft ruleset attaches conntrack helper \"roce\" to RoCEv2 (UDP 4791):"
nft_roce_ruleset >"$pkts/rules.nft"
cat "$pkts/rules.nft"
on_r nft -f "$pkts/rules.nft"
say "nft loaded nf_conntrack_roce on demand:"
grep -E '^nf_conntrack_roce ' /proc/modules | cut -d' ' -f1-3

ip netns exec "$r" tcpdump -nq -i veth0 -w "$ROCECT_OUTDIR/router.pcap" \
	udp port 4791 2>/dev/null &
capture=$!
sleep 2
say "A sends a CM REQ (its QP 0x17), B answers REP (its QP 0x2a), A sends RTU"
ip netns exec "$a" "$ROCE_SEND" "$pkts/req" 2>/dev/null
ip netns exec "$b" "$ROCE_SEND" "$pkts/rep" 2>/dev/null
ip netns exec "$a" "$ROCE_SEND" "$pkts/rtu" 2>/dev/null
sleep 1
kill "$capture"
wait "$capture" 2>/dev/null || true

say "R followed the handshake: one connection, established"
on_r "$ROCECT" conn show
say "and learned which QP talks to which, in both directions"
on_r "$ROCECT" qp show
say "conntrack: both CM flows carry the helper; the data flows are expected"
on_r conntrack -L -p udp 2>/dev/null
on_r conntrack -L expect 2>/dev/null

say "A sends a 1 KiB RDMA SEND to B's QP 0x2a, on a new UDP flow (its own port)"
ip netns exec "$a" "$ROCE_SEND" "$pkts/data" 2>/dev/null
echo "RELATED RoCE packets through R so far (the REP, then this SEND):"
echo "packets $(related_count)"
on_r conntrack -L -p udp --sport $((0xd017)) 2>/dev/null

say "R becomes a QP-level firewall: RoCE data to unknown QPs is dropped"
on_r "$ROCECT" config set unknown-qp drop
echo "(A sends a SEND to QP 0x99, which no handshake set up)"
ip netns exec "$a" "$ROCE_SEND" "$pkts/stray" 2>/dev/null
on_r "$ROCECT" stats | grep -E '^(unknown-qp-dropped|conn-created|expect-created) '
say "Data packets carry only the destination QP; R knows the source:"
on_r "$ROCECT" qp query 10.0.2.1 0x2a
say "QPs set up without RDMA CM (ibv_rc_pingpong style) are let in by hand:"
on_r "$ROCECT" qp add src 10.0.1.1 dst 10.0.2.1 dqpn 0x99 sqpn 0x18
ip netns exec "$a" "$ROCE_SEND" "$pkts/stray" 2>/dev/null
on_r "$ROCECT" qp show dst 10.0.2.1

say "Congestion: R marks A -> B RoCE traffic CE and, as a DCQCN notification point,"
echo "sends a CNP back to the sender's QP (at most one per QP per 50 us)."
ip netns exec "$r" nft -f - <<-EOT
	table inet cemark {
	    chain forward {
	        type filter hook forward priority filter - 10;
	        iifname "veth0" udp dport 4791 ip ecn set ce
	    }
	}
EOT
ip netns exec "$a" nft -f - <<-EOT
	table inet cnp {
	    chain in {
	        type filter hook prerouting priority filter;
	        udp dport 4791 @th,64,8 0x81 counter
	    }
	}
EOT
on_r "$ROCECT" config set cnp on
echo "(A sends 3 SENDs to B's QP 0x2a, 1 ms apart)"
ip netns exec "$a" "$ROCE_SEND" -c 3 -i 1000 "$pkts/data" 2>/dev/null
on_r "$ROCECT" qp show src 10.0.1.1 dqpn 0x2a
on_r "$ROCECT" stats | grep -E '^(ce|cnp-sent|cnp-interval) '
echo "CNPs (BTH opcode 0x81) that reached A:"
echo "packets $(nft_packets "$a" cnp in)"
rm -rf "$pkts"
cleanup_all_ns

#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The guest half of `make bench`: a router r forwards RoCE from a to b
# (selftests/lib.sh topology); roce_blast in a sends as fast as it can for
# SECONDS; b counts what arrives. One JSON line per measurement on stdout:
#   {"variant": ..., "run": N, "pps": ..., ...}
# Variants: no conntrack on r; conntrack without the helper; the helper with
# 1k, 100k and 1M QP entries; the unknown-qp drop policy; CNP generation
# with every packet CE-marked. Also the kernel memory of 1M entries.

source "$(dirname "$0")/../../selftests/lib.sh"

SECONDS_EACH=${BENCH_SECONDS:-3}
RUNS=${BENCH_RUNS:-3}
BLAST=$BUILD/bin/roce_blast
R() { ip netns exec "$r" "$ROCECT" "$@"; }
received() { nft_packets "$b" cnt in; }

# measure VARIANT QPNS [ce]: RUNS runs, one JSON line each.
measure()
{
	local variant=$1 qpns=$2 ce=${3:-} run before out sent secs got cnp0 cnp1
	local seen0 seen1

	for run in $(seq "$RUNS"); do
		before=$(received)
		cnp0=$(R -j stats 2>/dev/null | jq '."cnp-sent" // 0')
		seen0=$(R -j stats 2>/dev/null | jq '.packets // 0')
		out=$(ip netns exec "$a" "$BLAST" 10.0.1.1 10.0.2.1 \
			"$SECONDS_EACH" "$qpns" 0x100 64 $ce)
		sleep 0.5
		got=$(($(received) - before))
		cnp1=$(R -j stats 2>/dev/null | jq '."cnp-sent" // 0')
		seen1=$(R -j stats 2>/dev/null | jq '.packets // 0')
		sent=$(jq .sent <<<"$out")
		secs=$(jq .seconds <<<"$out")
		echo "{\"variant\": \"$variant\", \"run\": $run, \"qps\": $qpns," \
		     "\"sent\": $sent, \"received\": $got, \"seconds\": $secs," \
		     "\"pps\": $(echo "$got / $secs" | bc), \"cnps\": $((cnp1 - cnp0)),"  \
		     "\"inspected\": $((seen1 - seen0))}"
	done
}

# populate N: N managed entries a -> b, QPNs 0x100 .. spread like roce_blast's.
populate()
{
	local n=$1

	R qp flush
	awk -v n="$n" 'BEGIN { for (i = 0; i < n; i++)
		printf "qp add src 10.0.1.1 dst 10.0.2.1 dqpn %d sqpn 1\n", 256 + i }' \
		>/tmp/batch
	R -b /tmp/batch
}

mem_free_kb() { awk '/^MemFree:/ { print $2 }' /proc/meminfo; }

set -e
install_module >/dev/null
setup_router_topology
# No conntrack in r at first: the topology's watch table would load it.
ip netns exec "$r" nft delete table inet watch
ip netns exec "$b" nft -f - <<-EOT
	table inet cnt {
	    chain in {
	        type filter hook prerouting priority filter;
	        udp dport 4791 counter
	    }
	}
EOT
ip netns exec "$a" ping -c1 -W5 10.0.2.1 >/dev/null
set +e

measure no-conntrack 1000

ip netns exec "$r" nft -f - <<-EOT
	table inet ctonly {
	    chain forward {
	        type filter hook forward priority filter;
	        ct state new,established counter
	    }
	}
EOT
measure conntrack 1000
ip netns exec "$r" nft delete table inet ctonly

ip netns exec "$r" nft -f <(nft_roce_ruleset)
# The flow's conntrack from the last variant has no helper: start afresh.
ip netns exec "$r" conntrack -F 2>/dev/null
R config set max-qps 2000000 >/dev/null
populate 1000
measure helper-1k 1000
R config set unknown-qp drop
measure strict 1000
R config set unknown-qp accept
R config set cnp on cnp-interval-us 1 cnp-max-rate 10000000
measure cnp 1000 ce
R config set cnp off

populate 100000
measure helper-100k 100000

R qp flush
sync
echo 1 >/proc/sys/vm/drop_caches
free0=$(mem_free_kb)
t0=$(date +%s)
populate 1000000
t1=$(date +%s)
free1=$(mem_free_kb)
objs=$(awk '$1 == "rocect_managed_qp" { print $2 " " $4 }' /proc/slabinfo)
echo "{\"variant\": \"memory-1M\", \"entries\": $(R -j stats | jq '."qp-count"')," \
     "\"memfree_delta_kb\": $((free0 - free1)), \"slab_objs\": ${objs% *}," \
     "\"slab_objsize\": ${objs#* }, \"add_seconds\": $((t1 - t0))}"
measure helper-1M 1000000
R qp flush

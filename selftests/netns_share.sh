#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The network namespaces other than the initial one share the initial
# namespace's max-qps and max-conns: entries made in softirq are paid for by
# no task's memory cgroup, so however many namespaces root in a user
# namespace makes, together they hold no more than the host allows.
#
#        +-- b1 (10.0.1.2)
#   a ---+-- b2 (10.0.2.2)     the helper on each b, as on an endpoint
#        +-- b3 (10.0.3.2)
#
# Managed entries (netlink) and connections (CM REQs through the helper)
# fill the shared limit; the initial namespace keeps its own; a namespace
# makes room from its own connections, never from another's; a deleted
# namespace gives its places back.

source "$(dirname "$0")/lib.sh"

ksft_start
check "module loads" load_module
R=$ROCECT

setup_ns a b1 b2 b3
for i in 1 2 3; do
	b=b$i
	ip link add "veth$i" netns "$a" type veth peer name veth0 netns "${!b}"
	ip -n "$a" addr add "10.0.$i.1/24" dev "veth$i"
	ip -n "$a" link set "veth$i" up
	ip -n "${!b}" addr add "10.0.$i.2/24" dev veth0
	ip -n "${!b}" link set veth0 up
	nft_roce_ruleset | ip netns exec "${!b}" nft -f -
	# One sender here: let it hold all of the namespace's connections.
	on "${!b}" config set source-share 100
done

pkts=$(mktemp -d)
craft "$pkts" "
for i in (1, 2, 3):
    for k in range(4):
        ex = roce_pkt.cm_exchange('10.0.%d.1' % i, '10.0.%d.2' % i,
                                  comm_ids=(0x1000 + 16 * i + k, 0x2000 + 16 * i + k),
                                  qpns=(0x100 + 16 * i + k, 0x200 + 16 * i + k))
        save('req-%d-%d' % (i, k), ex['req'])
"
reqs() { send "$a" req-"$1"-0 req-"$1"-1 req-"$1"-2 req-"$1"-3; }
conns() { on "$1" -j conn show | jq length; }
qps() { on "$1" -j qp show origin managed | jq length; }

# Test managed entries: 6 of the initial namespace's max-qps, 3 asked for
# in each of three namespaces.
check "initial namespace: max-qps 6" $R config set max-qps 6
for i in 1 2 3; do
	b=b$i
	for q in 1 2 3; do
		on "${!b}" qp add src 10.9.$i.1 dst 10.9.$i.2 dqpn "$q" sqpn "$q" \
			2>"$pkts/err-$i-$q"
	done
done
check "b1 and b2 hold 3 entries each, b3 none" \
	is "$(qps "$b1") $(qps "$b2") $(qps "$b3")" "3 3 0"
check "... b3 told why" grep -q "all namespaces are full" "$pkts/err-3-1"
check "... and counted" is "$(stat_json "$b3" table-full)" 3
check "the initial namespace keeps its own max-qps" \
	$R qp add src 10.9.0.1 dst 10.9.0.2 dqpn 1 sqpn 1
check "an entry deleted in b1 is a place for b3" eval \
	"on $b1 qp del src 10.9.1.1 dst 10.9.1.2 dqpn 1 &&
	 on $b3 qp add src 10.9.3.1 dst 10.9.3.2 dqpn 1 sqpn 1"
check "... and only one" eval "! on $b3 qp add src 10.9.3.1 dst 10.9.3.2 \
	dqpn 2 sqpn 2 2>/dev/null"
$R qp flush
for b in "$b1" "$b2" "$b3"; do
	on "$b" qp flush
done
check "initial namespace: max-qps 65536 again" $R config set max-qps 65536

# Test connections, made in softirq from CM REQs: 5 of the initial
# namespace's max-conns, 4 REQs to each namespace in turn.
check "initial namespace: max-conns 5" $R config set max-conns 5
check "REQs to b1, b2, b3" eval "reqs 1 && reqs 2 && reqs 3"
check "b1 holds 4 connections, b2 1, b3 none: 5 in all" \
	is "$(conns "$b1") $(conns "$b2") $(conns "$b3")" "4 1 0"
check "b2 made room from its own half-open connections" \
	is "$(stat_json "$b2" conn-evicted) $(stat_json "$b2" conn-full)" "3 0"
check "b3 had none of its own to evict: refused, counted" \
	is "$(stat_json "$b3" conn-evicted) $(stat_json "$b3" conn-full)" "0 4"
check "b1 lost nothing to the others" is "$(stat_json "$b1" conn-evicted)" 0
ip netns del "$b1"
# A namespace is freed by a worker after its last user is gone.
b3_filled() { reqs 3 && [ "$(conns "$b3")" = 4 ]; }
check "b1 deleted: its 4 places are free for b3" busywait 60000 b3_filled
check "... b2 keeps its one" is "$(conns "$b2")" 1
check "initial namespace: max-conns 32768 again" $R config set max-conns 32768
check "no leak, no warning" dmesg_clean
for b in "$b2" "$b3"; do
	ip netns exec "$b" nft flush ruleset
done
check "module unloads with the namespaces' connections live" \
	busywait 30000 unload_module
check "... cleanly" dmesg_clean
finish

#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The files in examples/ that `make install` ships, loaded as an operator
# would load them, so that none can rot:
# - router.nft on a router between a (inside) and b (outside): a CM
#   exchange from a passes, with the REP and the data flows "related"; a new
#   RoCE flow from outside is dropped by the ruleset;
# - endpoint.nft on a host: it loads and attaches the helper;
# - rocect.iptables with iptables-restore and ip6tables-restore;
# - modprobe-rocect.conf: the module loads with its options, and they hold;
# - modules-load-rocect.conf: every module it names exists;
# - rocect.service: its ExecStartPre and ExecStart load the module and
#   restore (this tree's rocect, a scratch /etc/rocect), again on restart,
#   and its ExecReload makes the table the edited file's; it saves nothing;
# - rocect-metrics.service writes a textfile node_exporter can read.
#
# - conntrack -E expect reports the helper's expectations.
#
#   a (10.0.1.1) -- r (forwarding, router.nft) -- b (10.0.2.1)

source "$(dirname "$0")/lib.sh"

EXAMPLES=$TOP/examples

ksft_start conntrack

# router.nft with its interface names for this topology.
load_router_example()
{
	sed 's/"inside"/"veth0"/' "$EXAMPLES/router.nft" |
		ip netns exec "$r" nft -f -
}

craft_packets()
{
	pkts=$(mktemp -d)
	craft "$pkts" "
ex = roce_pkt.cm_exchange('10.0.1.1', '10.0.2.1', qpns=(0x17, 0x2a))
for kind in ('req', 'rep', 'rtu'):
    save(kind, ex[kind])
# b's data to a's QP 0x17 once connected: an expected (related) flow
save('data-b', roce_pkt.data_packet(4, '10.0.2.1', '10.0.1.1', opcode=0x04,
                                    dqpn=0x17, psn=1, payload_len=64))
# A REQ opened from outside: a new flow from b's side
ex2 = roce_pkt.cm_exchange('10.0.2.1', '10.0.1.2', qpns=(0x31, 0x32))
save('req-outside', ex2['req'])
"
}

# a_seen: RoCE packets that reached a, counted by nft in a.
a_seen()
{
	nft_packets "$a" cnt in
}

check "module installed for modprobe" install_module
check "packets crafted with scapy" craft_packets
check "topology up" setup_router_topology
check "router.nft loads on r" load_router_example
check "a counts the RoCE packets it gets" count_roce_input "$a"
check "a reaches b through r" \
	busywait 10000 ip netns exec "$a" ping -c1 -W1 10.0.2.1 >/dev/null

handshake()
{
	send "$a" req && send "$b" rep && send "$a" rtu
}
# conntrack-tools sees the helper's expectations as they are made.
ip netns exec "$r" conntrack -E expect >"$pkts/expect-events" 2>&1 &
bg=$!
sleep 2	# conntrack -E prints nothing once it listens
check "REQ from inside, REP, RTU sent" handshake
roce_expect_events()
{
	grep -q 'NEW.*dport=4791.*helper=roce' "$pkts/expect-events" ||
		{ sed 's/^/    /' "$pkts/expect-events"; return 1; }
}
check "conntrack -E expect: NEW expectations of helper roce" \
	busywait 5000 roce_expect_events
kill "$bg" 2>/dev/null
wait "$bg" 2>/dev/null
bg=
check "... the helper saw all three" expect_stat "$r" class.cm 3
check "... the REP reached a" busywait 5000 test "$(a_seen)" -eq 1
check "b's data to a's QP sent" send "$b" data-b
check "... reached a" busywait 5000 test "$(a_seen)" -eq 2
check "... REP and data forwarded as related" test "$(related_count)" -eq 2
check "a REQ opened from outside sent" send "$b" req-outside
check "... dropped by router.nft's drop rule" \
	test "$(nft_packets "$r" rocect forward drop)" -eq 1
check "... never reached a" test "$(a_seen)" -eq 2
ip netns exec "$r" nft list table inet rocect >"$pkts/router.once"
check "router.nft loaded again: the same ruleset, no rule twice" eval \
	'load_router_example &&
	 diff <(grep -v packets "$pkts/router.once") \
	      <(ip netns exec "$r" nft list table inet rocect | grep -v packets)'
cleanup_all_ns

setup_ns h
check "endpoint.nft loads on a host" ip netns exec "$h" nft -f "$EXAMPLES/endpoint.nft"
check "... attaches the helper in both chains" test "$(ip netns exec "$h" \
	nft list table inet rocect | grep -c 'ct helper set "roce"')" -eq 2
check "... loaded again: still once in each" eval \
	'ip netns exec "$h" nft -f "$EXAMPLES/endpoint.nft" &&
	 test "$(ip netns exec "$h" nft list table inet rocect |
		grep -c "ct helper set \"roce\"")" -eq 2'
check "rocect.iptables loads with iptables-restore" \
	ip netns exec "$h" iptables-restore --noflush "$EXAMPLES/rocect.iptables"
check "... and with ip6tables-restore" \
	ip netns exec "$h" ip6tables-restore --noflush "$EXAMPLES/rocect.iptables"
check "... CT --helper roce in raw PREROUTING and OUTPUT" test "$(ip netns exec "$h" \
	iptables -t raw -S | grep -c -- '-j CT --helper roce')" -eq 2
cleanup_all_ns
check "module unloads" busywait 10000 unload_module

# modprobe-rocect.conf: its options, as modprobe would pass them.
opts=$(awk '$1 == "options" && $2 == "'$MODULE'" { $1 = $2 = ""; print }' \
	"$EXAMPLES/modprobe-rocect.conf")
check "modprobe-rocect.conf has options" test -n "$opts"
# shellcheck disable=SC2086 # one word per option
check "module loads with them" load_module $opts
params_hold()
{
	local kv

	for kv in $opts; do
		is "$(cat "/sys/module/$MODULE/parameters/${kv%%=*}")" "${kv#*=}" ||
			return 1
	done
}
check "... each option holds in /sys/module" params_hold
check "module unloads" unload_module
# unit_cmd KEY [NETNS]: the command line of KEY in rocect.service, or in
# rocect@NETNS.service, for this tree
unit_cmd()
{
	local unit=rocect.service

	[ -z "${2:-}" ] || unit=rocect@.service
	sed -n "s/^$1=//p" "$EXAMPLES/$unit" |
		sed "s|/usr/local/sbin/rocect|$ROCECT|g; s|/etc/rocect|$etc|g; s|%i|${2:-}|g"
}
etc=$(mktemp -d)
check "module loads" load_module
check "a setting and a managed entry" sh -c "$ROCECT config set idle-timeout 99 cnp-clear-ce on &&
	$ROCECT qp add src 10.0.1.1 dst 10.0.2.1 dqpn 0x17 sqpn 0x2a"
check "saved as the unit's comment says" sh -c "$ROCECT save >$etc/saved"
"$ROCECT" -j config show >"$etc/config.before"
check "rocect.service saves nothing at stop" sh -c "test -z \"$(unit_cmd ExecStop)\""
check "module unloads" unload_module
check "rocect.service's ExecStartPre loads the module" sh -c "$(unit_cmd ExecStartPre)"
check "rocect.service's ExecStart restores" sh -c "$(unit_cmd ExecStart)"
check "... the setting is back, with all the others" eval \
	'test "$("$ROCECT" -j config show | jq .idle_timeout)" -eq 99 &&
	 cmp -s "$etc/config.before" <("$ROCECT" -j config show)'
check "... the entry is back" \
	test "$("$ROCECT" -j qp query 10.0.2.1 0x17 | jq '.[0].sqpn')" -eq 42
check "restart: ExecStart again succeeds, one entry" eval \
	'sh -c "$(unit_cmd ExecStart)" && test "$("$ROCECT" -j qp show | jq length)" -eq 1'
check "reload after an edit: the table is the file's" eval \
	'sed -i "s/dqpn 23 sqpn 42/dqpn 24 sqpn 43/" "$etc/saved" &&
	 sh -c "$(unit_cmd ExecReload)" &&
	 test "$("$ROCECT" -j qp show | jq -c "map([.dqpn, .sqpn])")" = "[[24,43]]"'
# rocect@NETNS.service: the same in a named namespace (ip netns), whose
# entries the initial namespace does not see.
tenant=rocect-ex-$$
ip netns add "$tenant"
check "rocect@.service: a named namespace's entry saved" sh -c "
	ip netns exec $tenant $ROCECT qp add src 10.9.0.1 dst 10.9.0.2 dqpn 0x51 sqpn 0x52 &&
	ip netns exec $tenant $ROCECT save >$etc/$tenant.saved &&
	$ROCECT -n $tenant qp del src 10.9.0.1 dst 10.9.0.2 dqpn 0x51"
check "rocect@.service's ExecStart restores it there" sh -c "$(unit_cmd ExecStart "$tenant")"
check "... twice (restart), one entry, not in the initial namespace" eval \
	'sh -c "$(unit_cmd ExecStart "$tenant")" &&
	 test "$("$ROCECT" -n "$tenant" -j qp show | jq -c "map([.dqpn, .sqpn])")" = "[[81,82]]" &&
	 test "$("$ROCECT" -j qp show | jq -c "map(.dqpn)")" = "[24]"'
ip netns del "$tenant"
textfile=$(mktemp -d)
check "rocect-metrics.service writes node_exporter's textfile" sh -c "$(
	sed -n 's/^ExecStart=//p' "$EXAMPLES/rocect-metrics.service" |
	sed "s|/usr/local/sbin/rocect|$ROCECT|g; s|/var/lib/prometheus/node-exporter|$textfile|g")"
check "... with the entry and no leftover" eval \
	'grep -qx "rocect_qp_entries 1" "$textfile/rocect.prom" && test ! -e "$textfile/rocect.prom.new"'
check "... parsed by prometheus_client" "$PYTHON" -c "
import sys
from prometheus_client.parser import text_string_to_metric_families as parse
assert len(list(parse(open('$textfile/rocect.prom').read()))) > 40"
rm -rf "$textfile"
check "module unloads" unload_module

check "modules-load-rocect.conf names modules that exist" \
	sh -c "grep -v '^#' '$EXAMPLES/modules-load-rocect.conf' | grep . |
		xargs -n1 modinfo -n >/dev/null"
check "no kernel warnings" dmesg_clean
finish

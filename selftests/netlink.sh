#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The rocect netlink family's contract: malformed messages are refused with
# the right errno and change nothing; each network namespace has its own
# entries, configuration and counters; changes need CAP_NET_ADMIN over the
# namespace (an unprivileged user, even in a user namespace of its own,
# cannot change the initial namespace), reads do not; and rocect monitor
# receives create and delete events; managed entries are charged to the
# memory cgroup of the task that adds them, and a user namespace's root
# cannot raise its tables' limits above the initial namespace's.

source "$(dirname "$0")/lib.sh"

ksft_start setpriv
tmp=$(mktemp -d)
chmod 755 "$tmp"
check "module loads" load_module
R=$ROCECT

# Test that malformed messages are refused and change nothing.
"$BUILD/bin/netlink_malformed" | sed 's/^/    /'
log_test "${PIPESTATUS[0]}" "malformed netlink messages refused (netlink_malformed)"

# Test namespace isolation.
setup_ns ns1 ns2
check "add in ns1" ip netns exec "$ns1" $R qp add src 10.0.0.1 dst 10.0.0.2 dqpn 1 sqpn 2
check "ns1 sees its entry" \
	test "$(ip netns exec "$ns1" $R -j qp show | jq length)" -eq 1
check "ns2 sees none" test "$(ip netns exec "$ns2" $R -j qp show | jq length)" -eq 0
check "initial namespace sees none" test "$($R -j qp show | jq length)" -eq 0
check "config set in ns1" ip netns exec "$ns1" $R config set max-qps 7
check "ns2 keeps the default" \
	test "$(ip netns exec "$ns2" $R -j config | jq '.max_qps')" -eq 65536
check "counters are per namespace" \
	test "$(ip netns exec "$ns2" $R -j stats | jq '.qp_created')" -eq 0
ip netns del "$ns1"
check "entries die with their namespace (no leak, no warning)" dmesg_clean

# Test permissions: counters and settings are free to read; entries,
# connections and events (PSNs, comm IDs: enough to aim an injection) and
# every change need CAP_NET_ADMIN, as ctnetlink's reads do.
nobody() { setpriv --reuid=65534 --regid=65534 --clear-groups "$@"; }
check "an unprivileged user can read the counters" nobody $R stats
check "... and the settings" nobody $R config
for what in "qp show" "qp query 10.0.0.2 1" "conn" "monitor count 1"; do
	# shellcheck disable=SC2086
	out=$(timeout 20 setpriv --reuid=65534 --regid=65534 --clear-groups \
		$R $what 2>&1)
	[ $? -ne 0 ] && grep -q "Operation not permitted" <<<"$out"
	log_test $? "an unprivileged user cannot read entries: $what"
done
out=$(nobody $R qp add src 10.0.0.1 dst 10.0.0.2 dqpn 1 sqpn 2 2>&1)
[ $? -ne 0 ] && grep -q "Operation not permitted" <<<"$out"
log_test $? "an unprivileged user cannot add"
out=$(nobody $R config set max-qps 9 2>&1)
[ $? -ne 0 ] && grep -q "Operation not permitted" <<<"$out"
log_test $? "an unprivileged user cannot configure"
# Inside a user namespace the tree's owner is unmapped: a checkout that
# only its owner may enter (mode 0700) would hide the binary; a copy runs.
RU=$(mktemp /tmp/rocect-userns.XXXXXX)
cp "$R" "$RU" && chmod 755 "$RU"
if nobody unshare -Ur true 2>/dev/null; then
	out=$(nobody unshare -Ur $RU qp add src 10.0.0.1 dst 10.0.0.2 dqpn 1 sqpn 2 2>&1)
	[ $? -ne 0 ] && grep -q "Operation not permitted" <<<"$out"
	log_test $? "root of a user namespace cannot change the initial netns"
	check "... but can change a network namespace it owns" \
		nobody unshare -Urn sh -c \
		"$RU qp add src 10.0.0.1 dst 10.0.0.2 dqpn 1 sqpn 2 && $RU qp show | grep -q 10.0.0.2"
	# The memory its tables pin is the host's: no higher ceiling than
	# the initial namespace's (65536 entries, 32768 connections).
	out=$(nobody unshare -Urn $RU config set max-qps 16777216 2>&1)
	[ $? -ne 0 ] && grep -q "above the initial namespace's" <<<"$out"
	log_test $? "... but not raise max-qps above the initial namespace's"
	out=$(nobody unshare -Urn $RU config set max-conns 8388608 2>&1)
	[ $? -ne 0 ] && grep -q "above the initial namespace's" <<<"$out"
	log_test $? "... nor max-conns"
	check "... lowering them is its own business" nobody unshare -Urn \
		$RU config set max-qps 100 max-conns 10
else
	echo "    unprivileged user namespaces disabled: skipped those checks"
fi
rm -f "$RU"
check "the initial namespace is still empty" test "$($R -j qp show | jq length)" -eq 0

# Test events: monitor sees a create and a delete, with counters.
$R -j monitor count 2 >"$tmp/events" 2>"$tmp/mon.err" &
mon=$!
bg=$mon
check "monitor started" busywait 20000 grep -q monitoring "$tmp/mon.err"
$R qp add src 10.9.0.1 dst 10.9.0.2 dqpn 0x33 sqpn 0x44
$R qp del src 10.9.0.1 dst 10.9.0.2 dqpn 0x33
check "monitor exits after 2 events" busywait 20000 sh -c "! kill -0 $mon 2>/dev/null"
mon=
check "create event with the entry" test \
	"$(jq -s -r '.[0] | "\(.event) \(.dqpn) \(.sqpn)"' "$tmp/events")" = "create 51 68"
check "delete event with its counters" test \
	"$(jq -s -r '.[1] | "\(.event) \(.packets) \(.origin)"' "$tmp/events")" = "delete 0 managed"

# Test timestamps: text and JSON, each event with the time it came.
$R monitor timestamp count 1 >"$tmp/stamped" 2>"$tmp/mon.err" &
mon=$!
bg=$mon
check "monitor timestamp started" busywait 20000 grep -q monitoring "$tmp/mon.err"
$R qp add src 10.9.0.1 dst 10.9.0.2 dqpn 0x33 sqpn 0x44
check "... exits after 1 event" busywait 20000 sh -c "! kill -0 $mon 2>/dev/null"
check "... the line starts with an ISO 8601 time" grep -Eq \
	'^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}\.[0-9]{6}[+-][0-9]{4} create ' \
	"$tmp/stamped"
$R -j monitor timestamp count 1 >"$tmp/stamped.json" 2>"$tmp/mon.err" &
mon=$!
bg=$mon
check "monitor -j timestamp started" busywait 20000 grep -q monitoring "$tmp/mon.err"
$R qp del src 10.9.0.1 dst 10.9.0.2 dqpn 0x33
check "... exits after 1 event" busywait 20000 sh -c "! kill -0 $mon 2>/dev/null"
mon=
check "... with a time key in the same form" test "$(jq -r '.time |
	test("^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9:]{8}\\.[0-9]{6}[+-][0-9]{4}$")' \
	"$tmp/stamped.json")" = true

# Test memory accounting: managed entries are charged to the memory cgroup
# of the task that adds them (their cache is SLAB_ACCOUNT).
cg=$tmp/cgroup
slab_of() { awk '$1 == "slab" { print $2 }' "$cg/rocect/memory.stat"; }
memcg_setup()
{
	mkdir -p "$cg" && mount -t cgroup2 none "$cg" &&
		echo +memory >"$cg/cgroup.subtree_control" &&
		mkdir "$cg/rocect"
}
cleanup_extra() { rmdir "$cg/rocect" 2>/dev/null; umount "$cg" 2>/dev/null; }
if memcg_setup 2>/dev/null; then
	setup_ns ns3
	awk 'BEGIN { for (i = 0; i < 20000; i++)
		printf "qp add src 10.%d.%d.1 dst 10.200.0.1 dqpn %d sqpn 1\n",
			i / 256 % 256, i % 256, i + 1 }' >"$tmp/batch"
	before=$(slab_of)
	check "20000 entries added from a memory cgroup" sh -c \
		"echo \$\$ >$cg/rocect/cgroup.procs && exec ip netns exec $ns3 $R -b $tmp/batch"
	grown=$(($(slab_of) - before))
	# An entry takes over 100 bytes: well over 1 MB in all.
	check "... its slab memory grew by $grown bytes (> 1 MB)" \
		test "$grown" -gt 1000000
	ip netns del "$ns3"
else
	echo "    no cgroup2 memory controller: skipped the accounting check"
fi

check "module unloads" rmmod $MODULE
check "no kernel warnings" dmesg_clean
finish

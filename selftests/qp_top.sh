#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# rocect top and the dump it stands on: qp show seen-within lists only
# the entries with a packet (or made) lately, whatever their family or
# zone, and none of the idle ones around them; rocect top -b -j reports
# each busy entry's packets exactly (its rates times its intervals add up
# to what r forwarded), busiest first, and per connection adds up both
# directions; on a terminal (script(1)) it draws its header and rows,
# sorts by a column's key and quits with q.
#
#   a (10.0.1.1, 10.0.1.2, fd00:1::1) -- r (helper) -- b (10.0.2.1, fd00:2::1)
#
# r tracks 10.0.1.2's RoCE in zone 5; its entries are managed ones.

source "$(dirname "$0")/lib.sh"

ksft_start

craft_packets()
{
	pkts=$(mktemp -d)
	craft "$pkts" "
def data(name, src, dst, dqpn, sport):
    save(name, roce_pkt.data_packet(roce_pkt.family_of(src), src, dst, 0x04,
         dqpn, 1, payload_len=64, ip_args=dict(sport=sport)))
data('ab', '10.0.1.1', '10.0.2.1', 0x2a, 0xd017)
data('ba', '10.0.2.1', '10.0.1.1', 0x17, 0xd02a)
data('ab6', 'fd00:1::1', 'fd00:2::1', 0x2f, 0xd01c)
data('z5', '10.0.1.2', '10.0.2.1', 0x3a, 0xd03b)
" 2>/dev/null
}

# burst NS NAME COUNT: one packet COUNT times, at once.
burst() { ip netns exec "$1" "$ROCE_SEND" -c "$3" "$pkts/$2" 2>/dev/null; }

# The entries: 300 idle ones around the test's four busy ones (two of
# them a connection's two directions) and an idle one of each kind.
entries()
{
	local i

	for ((i = 0; i < 300; i++)); do
		echo "qp add src 10.0.1.1 dst 10.0.2.1 dqpn $((0x1000 + i)) sqpn $((0x2000 + i))"
	done
	cat <<-EOT
	qp add src 10.0.1.1 dst 10.0.2.1 dqpn 0x2a sqpn 0x17
	qp add src 10.0.2.1 dst 10.0.1.1 dqpn 0x17 sqpn 0x2a
	qp add src fd00:1::1 dst fd00:2::1 dqpn 0x2f sqpn 0x1c
	qp add src 10.0.1.2 dst 10.0.2.1 dqpn 0x3a sqpn 0x3b zone 5
	qp add src fd00:1::1 dst fd00:2::1 dqpn 0x30 sqpn 0x1d
	qp add src 10.0.1.2 dst 10.0.2.1 dqpn 0x3c sqpn 0x3d zone 5
	EOT
}

# seen [KEY VALUE...]: the entries seen within 10 s (a slow guest's
# checks take seconds), as "zone/src/dst/dqpn".
seen()
{
	on "$r" -j qp show seen-within 10000 "$@" |
		jq -r '[.[] | "\(.zone)/\(.src)/\(.dst)/\(.dqpn)"] | sort | join(" ")'
}

# old_enough: every entry is more than 10 s old.
old_enough() { [ -z "$(seen)" ]; }

# top_sends ARGS...: run rocect -j top -b -d 1 ARGS on r; once it printed
# its first refresh, send a's and b's packets; once a refresh began after
# the last of them, stop it. Prints the refreshes after the first, one
# JSON object a line: every packet sent is in one of them, however slow
# the guest (a debug kernel's sends outlast a few refreshes).
top_sends()
{
	local out n pid top

	out=$(mktemp)
	# Seen now, so in top's first refresh: the base of their rates.
	burst "$a" ab 1 && burst "$b" ba 1 && burst "$a" ab6 1 && burst "$a" z5 1
	on "$r" -j top -b -d 1 "$@" >"$out" &
	top=$!
	busywait 60000 test -s "$out" || { echo "    no first refresh"; return 1; }
	# At once, so that both directions of the pair are busy together.
	local -a senders
	burst "$a" ab 200 & senders+=($!)
	burst "$b" ba 100 & senders+=($!)
	burst "$a" ab6 50 & senders+=($!)
	burst "$a" z5 20 & senders+=($!)
	for pid in "${senders[@]}"; do
		wait "$pid" || echo "    sending failed"
	done
	n=$(wc -l <"$out")
	busywait 60000 lines_above "$out" "$((n + 1))" ||
		echo "    no refresh after the sends"
	kill "$top"
	wait "$top" 2>/dev/null
	# Whole lines only: a refresh cut short by the kill is not one.
	sed -n "2,$(wc -l <"$out")p" "$out"
	rm -f "$out"
}

# lines_above FILE N: FILE has more than N whole lines.
lines_above() { [ "$(wc -l <"$1")" -gt "$2" ]; }

# packets JSON SELECT: an entry's packets over the refreshes in JSON
# (rate times interval, each a whole number), for the rows SELECT picks.
packets()
{
	jq -rs "[.[] | .interval_s as \$dt | .$2[] | select($3) |
		.packets_per_s * \$dt] | add | round" <<<"$1"
}

check "module installed for modprobe" install_module
check "packets crafted with scapy" craft_packets
check "topology: a, r, b" setup_router_topology
check "helper on r, 10.0.1.2 in zone 5" ip netns exec "$r" nft -f - <<-EOT
	$(nft_roce_ruleset)
	table inet zones {
	    chain raw {
	        type filter hook prerouting priority raw;
	        ip saddr 10.0.1.2 udp dport 4791 ct zone set 5
	    }
	}
EOT
check "306 managed entries" on "$r" -b <(entries)
check "... 10 s later, none seen within 10 s" busywait 60000 old_enough
check "a's data to 4 entries (IPv4, IPv6, zone 5), b's to one" \
	eval 'burst "$a" ab 3 && burst "$b" ba 2 && burst "$a" ab6 1 && burst "$a" z5 1'
check "seen-within: exactly those 4, none of the 302 idle" is "$(seen)" \
	"0/10.0.1.1/10.0.2.1/42 0/10.0.2.1/10.0.1.1/23 0/fd00:1::1/fd00:2::1/47 5/10.0.1.2/10.0.2.1/58"
check "... with zone 5: its one" is "$(seen zone 5)" "5/10.0.1.2/10.0.2.1/58"
check "... with dst fd00:2::1: the IPv6 one" is "$(seen dst fd00:2::1)" "0/fd00:1::1/fd00:2::1/47"
check "... all 306 still there" is "$(on "$r" -j qp show | jq length)" 306

# monotonic_ns: CLOCK_MONOTONIC now, in nanoseconds.
monotonic_ns() { "$PYTHON" -c 'import time; print(time.monotonic_ns())'; }

# snapshots_within: every entry of a dump says when the kernel read its
# counters (snapshot_ns, CLOCK_MONOTONIC): after the dump was asked for,
# before it ended, in the order the dump read them.
snapshots_within()
{
	local t0 t1 dump

	t0=$(monotonic_ns)
	dump=$(on "$r" -j qp show)
	t1=$(monotonic_ns)
	jq -e --argjson t0 "$t0" --argjson t1 "$t1" '[.[].snapshot_ns] |
		length == 306 and . == sort and .[0] >= $t0 and
		.[-1] <= $t1' <<<"$dump" >/dev/null
}
check "... each read at its snapshot_ns, during the dump" snapshots_within
check "seen-within 0 refused" eval '! on "$r" qp show seen-within 0 2>/dev/null'
check "seen-within beyond a day refused" \
	eval '! on "$r" qp show seen-within 86400001 2>/dev/null'

tops=$(top_sends)
check "top -b -j: refreshes after the first, through the sends" \
	test "$(wc -l <<<"$tops")" -ge 2
check "... a -> b's entry: its 200 packets" is "$(packets "$tops" qps '.dqpn == 42')" 200
check "... b -> a's entry: its 100" is "$(packets "$tops" qps '.dqpn == 23')" 100
check "... the IPv6 entry: its 50" is "$(packets "$tops" qps '.dqpn == 47')" 50
check "... zone 5's entry: its 20" is "$(packets "$tops" qps '.zone == 5 and .dqpn == 58')" 20
check "... the idle entries: none listed" \
	is "$(jq -s '[.[].qps[] | select(.dqpn >= 4096 or .dqpn == 48 or .dqpn == 60)] | length' <<<"$tops")" 0
check "... each refresh busiest first" \
	is "$(jq -s '(map(.qps | length) | add > 0) and ([.[] | [.qps[].packets_per_s] | . == (sort | reverse)] | all)' <<<"$tops")" true
check "... totals: 306 QPs, r's packets, no drops" \
	is "$(jq -sc '[.[0].totals.qp_count, ([.[] | .totals.packets_per_s * .interval_s] | add | round) >= 370, ([.[].totals.drops_per_s | length] | add)]' <<<"$tops")" \
	"[306,true,0]"

tops=$(top_sends conn zone 0 sort dqpn)
check "top conn: a <-> b's connection, both directions: 300 packets" \
	is "$(packets "$tops" conns '.zone == 0 and (.dqpn == 42 or .dqpn == 23)')" 300
check "... in one row when both were busy" \
	is "$(jq -s '[.[].conns[] | select(.directions == 2)] | length > 0' <<<"$tops")" true
check "... zone 0 only" is "$(jq -s '[.[].conns[] | select(.zone != 0)] | length' <<<"$tops")" 0
check "... sorted by dqpn" \
	is "$(jq -s '(map(.conns | length) | add > 0) and ([.[] | [.conns[].dqpn] | . == (sort | reverse)] | all)' <<<"$tops")" true

# An entry that goes idle drops out of top's dumps and is remembered:
# when it wakes, its packets count from where it stopped, no more.
top_wakes()
{
	local out

	out=$(mktemp)
	burst "$a" ab 1
	on "$r" -j top -b -n 8 -d 1 >"$out" &
	busywait 60000 test -s "$out" || { echo "    no first refresh"; return 1; }
	nap 4.5
	burst "$a" ab 30 || echo "    sending failed"
	wait $! || echo "    rocect top failed"
	cat "$out"
	rm -f "$out"
}
tops=$(top_wakes)
check "top -d 1: a -> b's entry idle for a few refreshes ..." \
	is "$(jq -s '[.[] | [.qps[] | select(.dqpn == 42)] | length] | index(0) != null' <<<"$tops")" true
check "... then 30 packets: counted 30 from its remembered counters" \
	is "$(packets "$tops" qps '.dqpn == 42')" 30

# A terminal: script(1) gives top a pty; once it drew, D sorts by dst,
# then q quits.
screen()
{
	(busywait 60000 grep -q "rocect top - " "$scr"; nap 2; printf D; nap 2
	 printf q; nap 5) | timeout 90 script -qfec "$ROCECT -n $r top -d 0.5" /dev/null
}
scr=$(mktemp)
screen >"$scr"
check "screen: q quits, status 0" is "$?" 0
out=$(tr -d '\r' <"$scr")
check "... header and columns" eval 'grep -q "rocect top - " <<<"$out" && grep -q "ZONE  SRC" <<<"$out"'
check "... totals: 306 QPs" grep -q "QPs 306, " <<<"$out"
check "... sorted by packets first (the word sort takes for the column)" \
	grep -qE "sorted by packets($|"$'\e'")" <<<"$out"
check "... D sorted by dst" grep -q "sorted by dst" <<<"$out"
check "... back to the main screen" grep -q $'\e\[?1049l' "$scr"
rm -f "$scr"
check "-j without -b refused" eval '! on "$r" -j top 2>/dev/null'
check "top without a terminal refused" eval '! on "$r" top </dev/null 2>/dev/null'

check "rulesets off r (they hold the module)" ip netns exec "$r" nft flush ruleset
check "module unloads" busywait 10000 rmmod $MODULE
check "no kernel warnings" dmesg_clean
finish

#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Real RDMA traffic end to end: three QEMU guests, two of them running
# Soft-RoCE (rdma_rxe) and rdma-core's tools, the third a router with the
# conntrack helper; the guests share nothing but their links.
#
#   A (10.0.1.1, fd00:1::1) -- R (nf_conntrack_roce) -- B (10.0.2.1, fd00:2::1)
#
# B tracks its own traffic too (the endpoint case). For rping over IPv4 and
# IPv6, three ucmatose connections, perftest's ib_send_bw -R and udaddy (UD,
# through SIDR) the QP pairs that R and B track must be exactly those that
# `rdma res show qp` reports on A and B, with the UDP flows related in
# conntrack, TIMEWAIT after the disconnect, per-QP packet counters equal to
# a tcpdump count on R, and gone after expiry. A refused connection (REJ)
# leaves no QP entries. R's service policy admits rping's service, marking
# its flows, and rejects ucmatose's in B's name (then drops it). R marks A's traffic CE: the CNPs R sends are
# captured on A and checked (ICRC, BECN, A's QPN) against R's counters.
# While ib_write_bw -R runs so marked, rocect top on R lists its entries
# first, at the packet rates a capture on R counts for them (within 10%),
# A's with every packet CE-marked and CNPs sent.
# With learn on, R infers the QP pairs of ibv_rc_pingpong, ib_send_bw,
# ib_write_bw, ib_read_bw (without -R) and ibv_ud_pingpong, which exchange
# QPNs over TCP: exactly those of `rdma res`, with CNPs to A's QP. Under
# R's strict policy RDMA CM traffic still flows, ibv_rc_pingpong fails
# (nothing is inferred), and works once `rocect qp add` installs managed
# entries for its QPs. With R dropping 1% of what it forwards (netem),
# rping, ucmatose and perftest's send, write and read with and without -R
# complete, and no packet falls outside its PSN window. With a flowtable on
# R, the data flows of ucmatose (offload on), rping, ib_write_bw -R and
# ib_read_bw -R (offload guarded) leave the helper for the flowtable and
# the programs complete; guarded, rocect's guard still inspects every
# packet, and the lossy network's run goes through it.
#
#   rxe_e2e.sh [-k KVER] [-p PORT] [-o DIR] [-s SCENARIOS] [--demo]
#
# Prints one "TEST: ... [ OK ]" line per check (lib.sh); --demo also shows
# the tables the checks read. -s runs only the scenarios named (e.g.
# "strict loss": functions below, between the guests' setup and the
# teardown's checks), to work on one of them. PORT and PORT+1 (default 17300) on 127.0.0.1
# carry the two links.

SELFTESTS_DIR=$(cd "$(dirname "$0")" && pwd)
source "$SELFTESTS_DIR/lib.sh"
source "$TOP/tools/vm/fleet.sh"
source "$SELFTESTS_DIR/rxe_fleet.sh"

kver=$("$TOP/scripts/kernels.sh" | tail -n1)
port=17300
out=$BUILD/e2e
demo=0
only=
while [ $# -gt 0 ]; do
	case $1 in
	-k) kver=$2; shift 2 ;;
	-p) port=$2; shift 2 ;;
	-o) out=$2; shift 2 ;;
	-s) only=$2; shift 2 ;;
	--demo) demo=1; shift ;;
	*) echo "usage: $0 [-k KVER] [-p PORT] [-o DIR] [-s SCENARIOS] [--demo]" >&2
	   exit 2 ;;
	esac
done
ko=$BUILD/kmod/$kver/nf_conntrack_roce.ko
[ -f "$ko" ] || { echo "SKIP: $ko not built"; exit $ksft_skip; }
for tool in jq tshark; do
	checktool "$tool" --version
done

A4=10.0.1.1 B4=10.0.2.1 A6=fd00:1::1 B6=fd00:2::1
FLEET_TIMEOUT=${FLEET_TIMEOUT:-240}
T0=$SECONDS

say() { printf '\n== %s\n' "$*"; }
quiet() { "$@" >/dev/null; }
# show GUEST COMMAND...: run COMMAND in GUEST; in --demo mode, print it as
# typed there, with its output.
show()
{
	local who=$1

	shift
	if [ "$demo" -eq 0 ]; then
		"$who" "$*" >/dev/null
		return
	fi
	printf '%s# %s\n' "$who" "${*//\$ROCECT/rocect}"
	"$who" "$*" | sed 's/^/  /'
	return "${PIPESTATUS[0]}"
}

cleanup()
{
	fleet_stop
	[ "$demo" -eq 1 ] || return 0
	echo
	echo "Guest consoles and captures: $out"
}
trap cleanup EXIT

# A guest that died takes every later check with it: stop the run at once
# (from a subshell too: $$ is this script), saying which guest and why.
fleet_on_death()
{
	local g=${1^^}

	# On stderr: this may run in a command substitution.
	{
		echo "Bail out! guest $g died:"
		sed 's/^/    /' "$out/$1.dead"
	} >&2
	kill -s USR1 $$
}
died()
{
	log_test 1 "guests A, R and B stay up ($(fleet_dead | tr 'a-z\n' 'A-Z ')died)"
	echo "Stopped after $((SECONDS - T0)) s: $nsuccess checks passed, $nfail failed"
	exit 1
}
trap died USR1

# ---- what the tables say ---------------------------------------------

# rdma_pairs NAME JSON SRC DST: "src dst dqpn sqpn" per RC QP in RTS of an
# `rdma res show qp` JSON taken on the host with address SRC.
rdma_pairs()
{
	jq -r --arg s "$3" --arg d "$4" '.[] |
		select(.type == "RC" and .state == "RTS" and .rqpn != null) |
		"\($s) \($d) \(.rqpn) \(.lqpn)"' "$out/$1.$2.json"
}

# tracked_pairs FILE SRC DST: "src dst dqpn sqpn" per established learned
# entry between SRC and DST (both directions) in a `rocect -j qp show`.
tracked_pairs()
{
	jq -r --arg a "$2" --arg b "$3" '.[] |
		select(.origin == "learned" and .state == "established" and
		       ((.src == $a and .dst == $b) or (.src == $b and .dst == $a))) |
		"\(.src) \(.dst) \(.dqpn) \(.sqpn)"' "$1"
}

# same_lines WHAT GOT WANT: two multisets of lines are equal (printed if not).
same_lines()
{
	local got want

	got=$(sort <<<"$2")
	want=$(sort <<<"$3")
	[ -n "$want" ] && [ "$got" = "$want" ] && return 0
	printf '    %s differs:\n    got:\n%s\n    want:\n%s\n' "$1" \
		"$(sed 's/^/      /' <<<"$got")" "$(sed 's/^/      /' <<<"$want")"
	return 1
}

# pcap_roce NAME: "time src dst destqp sport" per RoCE packet but CNPs of
# $out/NAME.pcap, as tshark decodes it (its own dissector, not rocect's).
pcap_roce()
{
	tshark -r "$out/$1.pcap" -Y 'infiniband.bth.opcode != 129' -T fields \
		-e frame.time_epoch -e ip.src -e ipv6.src -e ip.dst -e ipv6.dst \
		-e infiniband.bth.destqp -e udp.srcport 2>/dev/null |
		awk 'function hex(s, n, i) {
			n = 0
			for (i = 3; i <= length(s); i++)
				n = n * 16 + index("0123456789abcdef",
						   substr(tolower(s), i, 1)) - 1
			return n
		}
		{ print $1, $2, $3, hex($4), $5 }'
}

# pcap_flows NAME: pcap_roce without the time: "src dst destqp sport".
pcap_flows() { pcap_roce "$1" | cut -d' ' -f2-; }

# counters_match NAME PAIRS: each of the phase's entries (PAIRS: "src dst
# dqpn sqpn" lines) counted as many packets as tshark finds in what R
# received during the phase.
counters_match()
{
	local got want

	# A QP frozen before it sent anything has no packet in the capture.
	want=$(awk 'NR == FNR { if ($3 != 1) n[$1 " " $2 " " $3]++; next }
		    { k = $1 " " $2 " " $3; print k, n[k] + 0; delete n[k] }
		    END { for (k in n) print k, n[k] }' \
		<(pcap_flows "$1") <(echo "$2"))
	got=$(jq -r '.[] | "\(.src) \(.dst) \(.dqpn) \(.packets)"' \
		"$out/$1.r-end.json" | grep -F -f <(cut -d' ' -f1-3 <<<"$2" |
						  sed 's/$/ /'))
	same_lines "packets per QP (R's entries vs tcpdump on R)" "$got" "$want"
}

# conntrack_agrees NAME SRC DST: for every QP that sent data (its UDP
# source port from the capture) conntrack on R has a flow with helper roce,
# created by an expectation (R's nft set "related" saw it); and the
# connection's permanent expectations are there, both directions.
conntrack_agrees()
{
	local ct=$out/$1.conntrack exp=$out/$1.expect src dst qpn sport rc=0
	local related

	related=$(jq -r '.nftables[] | select(.set) | .set.elem[]? |
		.elem.val // . | .concat | join(" ")' "$out/$1.related")
	while read -r src dst qpn sport; do
		if ! grep -q "src=$src dst=$dst sport=$sport dport=4791 .*helper=roce" \
			"$ct"; then
			echo "    no conntrack $src:$sport -> $dst:4791 (QP $qpn) with helper roce"
			rc=1
		fi
		grep -qxF "$src $dst $sport" <<<"$related" && continue
		echo "    $src:$sport -> $dst:4791 (QP $qpn) is not an expected flow"
		rc=1
	done < <(pcap_flows "$1" | awk '$3 != 1' | sort -u)
	for src in "$2 dst=$3" "$3 dst=$2"; do
		grep -q "src=$src .*PERMANENT .*helper=roce" "$exp" && continue
		echo "    no permanent expectation src=$src"
		rc=1
	done
	return $rc
}

# r_state_of NAME STATE: all of NAME's pairs are in STATE on R now.
r_state_of()
{
	local want=$1 state=$2 got

	got=$(R "$ROCECT -j qp show" | jq -r --arg st "$state" '.[] |
		select(.state == $st) | "\(.src) \(.dst) \(.dqpn) \(.sqpn)"')
	grep -qvxF -f <(echo "$got") <<<"$want" && return 1
	return 0
}

# ---- the scenario ------------------------------------------------------

boot()
{
	say "Booting three guests on kernel $kver: host A, router R, host B"
	rxe_fleet_boot rxe_e2e "$out" "$kver" "$port" "$ko"
}

setup()
{
	boot
	log_test $? "three guests up, rxe0 on A and B, R forwarding"
	[ "$ret" -eq 0 ] || exit "$ret"
	check "A reaches B through R (IPv4, IPv6)" \
		quiet A "busybox ping -c 1 -w 30 $B4 && busybox ping -c 1 -w 30 $B6"

	# R: the helper on forwarded RoCE traffic. ibv_rc_pingpong sends with
	# hop limit 1 (it assumes one subnet): raise it so R can route it.
	say "R attaches helper \"roce\" with nft; B does the same for its own traffic"
	R "nft -f <(nft_roce_ruleset) &&
	   nft -f - <<-EOT &&
		table ip hoplimit {
		    chain pre {
		        type filter hook prerouting priority mangle; policy accept;
		        udp dport 4791 ip ttl 1 ip ttl set 64
		    }
		}
	EOT
	   nft -f - <<-EOT &&
		table inet related {
		    set flows4 {
		        type ipv4_addr . ipv4_addr . inet_service; flags dynamic;
		    }
		    set flows6 {
		        type ipv6_addr . ipv6_addr . inet_service; flags dynamic;
		    }
		    chain forward {
		        type filter hook forward priority filter; policy accept;
		        ct status expected udp dport 4791 \\
		            add @flows4 { ip saddr . ip daddr . udp sport }
		        ct status expected udp dport 4791 \\
		            add @flows6 { ip6 saddr . ip6 daddr . udp sport }
		    }
		}
	EOT
	   \$ROCECT config set timewait-timeout 30 &&
	   sysctl -qw net.netfilter.nf_conntrack_udp_timeout=120"
	log_test $? "R: nft ruleset loaded the helper"
	B "nft -f <(nft_roce_ruleset) &&
	   \$ROCECT config set timewait-timeout 30"
	log_test $? "B: nft ruleset loaded the helper (endpoint)"
	# B opens and closes three QPs, so that A's and B's QPNs differ.
	B 'for p in 1 2 3; do ibv_rc_pingpong -d rxe0 -p 1860$p >/dev/null 2>&1 & done
	   sleep 2; stop ibv_rc_pingpong'
}

# connected NAME COMM SRC DST NQPS SERVER CLIENT [MARK]: B runs SERVER, A
# runs CLIENT, both programs COMM, until NQPS RC QPs are connected; then
# the checks (and function $during, if set), then A's and B's programs are
# stopped. With MARK, each side freezes as soon as it prints MARK.
connected()
{
	local name=$1 comm=$2 src=$3 dst=$4 n=$5 server=$6 client=$7 mark=${8:-}
	local want

	say "$name: $client"
	if [ -n "$mark" ]; then
		server="stdbuf -oL $server 2>&1 | freeze_on '$mark' $comm"
		client="stdbuf -oL $client 2>&1 | freeze_on '$mark' $comm"
	fi
	# What R receives, both links: what the helper sees. (Packets R sends
	# can still be dropped by its qdisc, and are then sent again.)
	R "capture $name any 'udp port 4791' -Q in"
	B "$server >/dev/null 2>&1 & wait_listen $comm"
	# The client is stopped once connected (its peer then waits for it),
	# so that the connections stay as they are while they are looked at.
	A "$client >/dev/null 2>&1 & wait_qps $comm RC $n && freeze $comm" &&
		B "wait_qps $comm RC $n && freeze $comm"
	log_test $? "$name: $n connection(s) up"
	# R's conntracks first: with the programs stopped, each data flow (an
	# unreplied UDP conntrack) has R's UDP timeout left (120 s, not 30:
	# guests under the memory-safety net or the debug kernel, beside
	# others, took longer than 30 s to get here).
	R "conntrack -L -p udp 2>/dev/null" >"$out/$name.conntrack"
	R "conntrack -L expect; conntrack -L expect -f ipv6" \
		>"$out/$name.expect" 2>/dev/null
	R "nft -j list set inet related flows4; nft -j list set inet related flows6" \
		>"$out/$name.related"
	R "\$ROCECT -j qp show" >"$out/$name.r.json"
	A "qps $comm" >"$out/$name.a.json"
	B "qps $comm" >"$out/$name.b.json"
	B "\$ROCECT -j qp show" >"$out/$name.b-tracked.json"
	show R "\$ROCECT qp show state established"
	show A "rdma res show qp | grep $comm"
	show B "rdma res show qp | grep $comm"

	want=$( (rdma_pairs "$name" a "$src" "$dst"
		 rdma_pairs "$name" b "$dst" "$src"))
	check "$name: A's and B's QPNs differ" \
		quiet jq -e 'all(.[]; .lqpn != .rqpn)' "$out/$name.a.json"
	check "$name: R tracks exactly the QP pairs of rdma res on A and B" \
		same_lines "QP pairs" \
		"$(tracked_pairs "$out/$name.r.json" "$src" "$dst")" "$want"
	check "$name: B (endpoint) tracks the same pairs" \
		same_lines "QP pairs" \
		"$(tracked_pairs "$out/$name.b-tracked.json" "$src" "$dst")" \
		"$want"
	echo "$want" >"$out/$name.pairs"
	[ -z "${during:-}" ] || "$during"

	A "stop $comm"
	sleep 1
	B "stop $comm"
	check "$name: TIMEWAIT on R after the disconnect" \
		busywait 30000 r_state_of "$want" timewait
	R "\$ROCECT -j qp show" >"$out/$name.r-end.json"
	R "stop_captures $out"
	log_test $? "$name: R's capture is complete"
	check "$name: per-QP packet counters on R equal tcpdump's count" \
		counters_match "$name" "$want"
	check "$name: conntrack on R: data flows related, with helper roce" \
		conntrack_agrees "$name" "$src" "$dst"
}

# The source QPN of a data flow, as an operator asks for it.
query()
{
	local dqpn sqpn got

	read -r _ _ dqpn sqpn < <(rdma_pairs rping4 a "$A4" "$B4")
	say "Which QP sends the packets that A sends to QP $dqpn on B?"
	show R "\$ROCECT qp query $B4 $dqpn src $A4"
	got=$(R "\$ROCECT -j qp query $B4 $dqpn src $A4" | jq '.[0].sqpn')
	check "query: R names A's QPN $sqpn as the source of QP $dqpn's flow" \
		is "$got" "$sqpn"
}

rejected()
{
	local conns

	say "rej: a client asks for a port nobody listens on; B's CM sends a REJ"
	A "rping -c -a $B4 -p 9999 -C 1" >"$out/rej.client" 2>&1
	check "rej: the client is refused" \
		grep -q REJECTED "$out/rej.client"
	conns=$(R "\$ROCECT -j conn show")
	check "rej: R marks the connection rejected (reason 8, invalid service ID)" \
		quiet jq -e 'any(.[]; .service == "tcp:9999" and
				       .state == "rejected" and
				       .reject_reason == 8)' <<<"$conns"
	check "rej: and keeps no QP entry for its QP" \
		quiet jq -e --argjson q "$(jq '[.[] | select(.service == "tcp:9999") |
					     .aqpn] | first' <<<"$conns")" \
			'$q != null and all(.[]; (.src == "10.0.1.1" and .sqpn == $q) or
					       (.dst == "10.0.1.1" and .dqpn == $q) | not)' \
			<(R "\$ROCECT -j qp show")
}

# policy: R's service policy lets rping's service (tcp:7174) through to B
# with a mark on its flows and rejects every other: ucmatose's REQ
# (tcp:7471) is answered in B's name with a REJ, and A's rdma_cm reports
# it at once; with drop instead, ucmatose waits on its REQ's retries.
policy()
{
	local n0 ms rc

	say "policy: R admits rping's service to B, marks its flows, refuses the rest"
	R "\$ROCECT policy add to $B4 service tcp:7174 accept mark 0x7174 &&
	   \$ROCECT policy add to $B4 reject"
	log_test $? "policy: two rules on R: accept tcp:7174 with a mark, reject"
	B "rping -s -a $B4 -C 20 >/dev/null 2>&1 & wait_listen rping"
	check "policy: rping (tcp:7174) completes through R" \
		A "rping -c -a $B4 -C 20 >/dev/null"
	B "stop rping"
	check "policy: rping's data flows carry the rule's mark on R" \
		test "$(R "conntrack -L -p udp --dport 4791 --mark $((0x7174)) 2>/dev/null" |
			grep -c "mark=$((0x7174))")" -ge 2
	B "ucmatose -c 1 -C 10 >/dev/null 2>&1 & wait_listen ucmatose"
	n0=$(R "\$ROCECT -j stats" | jq .policy_rejected)
	read -r ms rc < <(A "s=\${EPOCHREALTIME/./}
		timeout 60 ucmatose -s $B4 -c 1 -C 10 >/tmp/ucm.reject 2>&1
		rc=\$?
		echo \$(( (\${EPOCHREALTIME/./} - s) / 1000 )) \$rc")
	A "cat /tmp/ucm.reject" >"$out/policy.reject"
	echo "    reject: ucmatose failed after $ms ms (exit $rc)"
	check "policy reject: ucmatose (tcp:7471) fails, refused by a REJ" \
		eval '[ "$rc" != 0 ] && [ "$rc" != 124 ] &&
		      grep -q REJECTED "$out/policy.reject"'
	check "policy reject: R sent that REJ in B's name" \
		test "$(R "\$ROCECT -j stats" | jq .policy_rejected)" -gt "$n0"
	R "\$ROCECT policy del to $B4 && \$ROCECT policy add to $B4 drop"
	log_test $? "policy: the last rule drops instead"
	n0=$(R "\$ROCECT -j stats" | jq .policy_dropped)
	read -r ms rc < <(A "s=\${EPOCHREALTIME/./}
		timeout 15 ucmatose -s $B4 -c 1 -C 10 >/tmp/ucm.drop 2>&1
		rc=\$?
		echo \$(( (\${EPOCHREALTIME/./} - s) / 1000 )) \$rc")
	A "cat /tmp/ucm.drop" >"$out/policy.drop"
	echo "    drop: ucmatose still waiting after $ms ms (exit $rc)"
	check "policy drop: ucmatose gets no answer in 15 s (its CM retries the REQ)" \
		eval '[ "$rc" = 124 ] && ! grep -q REJECTED "$out/policy.drop"'
	check "policy drop: R dropped its REQs" \
		test "$(R "\$ROCECT -j stats" | jq .policy_dropped)" -gt "$n0"
	B "stop ucmatose"
	R "\$ROCECT policy flush"
	log_test $? "policy: flushed"
	# A's two refused clients took QP numbers B never did: B takes two
	# too, so that their QPNs stay apart (connected() checks they differ).
	B 'for p in 1 2; do ibv_rc_pingpong -d rxe0 -p 1862$p >/dev/null 2>&1 & done
	   sleep 2; stop ibv_rc_pingpong'
}

# ce_mark_on: R marks A's RoCE packets CE as it forwards them (ahead of
# the helper, which sees the mark) and sends CNPs for them.
ce_mark_on()
{
	R "nft -f - <<-EOT &&
		table ip cemark {
		    chain forward {
		        type filter hook forward priority filter; policy accept;
		        ip saddr $A4 udp dport 4791 ip ecn set ce
		    }
		}
	EOT
	   \$ROCECT config set cnp on"
}

# ce_mark_off: R forwards A's packets as they come, and sends no CNP.
ce_mark_off()
{
	R "nft delete table ip cemark; \$ROCECT config set cnp off"
}

# cnps: R marks A -> B RoCE packets CE; the CNPs it sends reach A.
cnps()
{
	local a_qpns per_qp

	say "cnp: R marks A's RoCE packets CE and sends CNPs (cnp on)"
	ce_mark_on
	A "capture cnp.a eth0 'udp port 4791 and src $B4'"
	connected bw ib_send_bw "$A4" "$B4" 2 "ib_send_bw -R -d rxe0 -n 1000" \
		"ib_send_bw -R -d rxe0 -n 1000 $B4"
	A "stop_captures $out"
	log_test $? "cnp: A's capture is complete"
	ce_mark_off
	"$PYTHON" "$SELFTESTS_DIR/wire/cnp_check.py" "$out/cnp.a.pcap" \
		>"$out/cnp.a.json" 2>/dev/null
	a_qpns=$(jq -c '[.[].lqpn]' "$out/bw.a.json")
	check "cnp: CNPs reached A" quiet jq -se 'length > 0' "$out/cnp.a.json"
	check "cnp: each with a valid ICRC and BECN, to one of A's QPs $a_qpns" \
		quiet jq -se --argjson q "$a_qpns" 'all(.[]; .icrc_ok and .becn == 1 and
			.opcode == 129 and (.dqpn as $d | $q | index($d)))' \
		"$out/cnp.a.json"
	per_qp=$(jq -r '.[] | select(.cnps > 0) | "\(.sqpn) \(.cnps)"' \
		"$out/bw.r-end.json")
	check "cnp: per-QP CNP counters on R equal the CNPs A captured" \
		same_lines "CNPs per QP" "$per_qp" \
		"$(jq -r '.dqpn' "$out/cnp.a.json" | sort | uniq -c |
		   awk '{ print $2, $1 }')" ||
		R "\$ROCECT stats | grep '^cnp'" | sed 's/^/    R: /'
	[ "$demo" -eq 0 ] || printf 'R sent %s CNPs; A captured %s.\n' \
		"$(jq '[.[].cnps] | add' "$out/bw.r-end.json")" \
		"$(jq -s length "$out/cnp.a.json")"
}

# top_windows JSONL: "from to dst dqpn rate" per row of each refresh but
# the first in a `rocect -j top -b` output: the row's packets per second
# between the previous refresh's time and its own. Not the rows without a
# rate: entries top sees for the first time (idle before it started).
top_windows()
{
	jq -rs 'range(1; length) as $i | .[$i - 1].time as $from | .[$i] |
		.time as $to | .qps[] | select(.packets_per_s != null) |
		"\($from) \($to) \(.dst) \(.dqpn) \(.packets_per_s)"' "$1"
}

# rates_agree NAME WINDOWS: each window's rate (top_windows) is within 10%
# (or 2 packets) of the packets of its destination QP that R received in
# that time, counted in $out/NAME.pcap by tshark (pcap_roce).
rates_agree()
{
	local bad

	bad=$(awk 'NR == FNR { w[FNR] = $0; nw = FNR; next }
		{ t[NR - nw] = $1; k[NR - nw] = $3 " " $4; np = NR - nw }
		END {
			for (i = 1; i <= nw; i++) {
				split(w[i], f, " ")
				n = 0
				for (j = 1; j <= np; j++)
					if (t[j] > f[1] && t[j] <= f[2] &&
					    k[j] == f[3] " " f[4])
						n++
				want = n / (f[2] - f[1])
				d = f[5] - want
				if (d < 0)
					d = -d
				if (d > want / 10 && d * (f[2] - f[1]) > 2)
					printf "    %s QP %s: top %.1f/s, captured %.1f/s\n",
					       f[3], f[4], f[5], want
			}
			if (!nw)
				print "    no refresh with rates"
		}' <(echo "$2") <(pcap_roce "$1"))
	[ -z "$bad" ] && return 0
	echo "$bad"
	return 1
}

# busiest_first JSONL PAIRS: in each refresh of a `rocect -j top -b`, the
# first rows are entries of PAIRS ("src dst dqpn sqpn"), as many as PAIRS
# has; and in 3 refreshes at least, the first of them has packets flowing
# (a guest stalled by its host may send nothing for a second).
busiest_first()
{
	local n

	n=$(wc -l <<<"$2")
	jq -r --argjson n "$n" '"\(.qps[0].packets_per_s > 0)", (.qps[:$n][] |
		"\(.src) \(.dst) \(.dqpn) \(.sqpn)")' "$1" |
		awk 'NR == FNR { want[$0] = 1; next }
		     $0 == "true" || $0 == "false" { r++; busy += $0 == "true"
						     next }
		     !($0 in want) { print "    refresh " r ": " $0 " listed first" }
		     END { if (busy < 3)
				print "    " busy " of " r " refreshes busy" }' \
			<(echo "$2") - | grep . && return 1
	return 0
}

# top_view: what an operator sees on R while ib_write_bw -R runs through
# it with A's packets marked CE: rocect top lists the test's entries first,
# at the rates a capture on R counts for them, the busiest (A's data) with
# every packet CE-marked and CNPs sent. perftest runs until stopped (its
# time is no bound on a slow host's steps); its CM disconnects as it
# exits.
top_view()
{
	local pairs

	say "top: rocect top on R while ib_write_bw -R runs, A's packets marked CE"
	ce_mark_on
	R "capture top any 'udp port 4791' -Q in -s 128"
	B "ib_write_bw -R -d rxe0 -D 900 >/dev/null 2>&1 & wait_listen ib_write_bw"
	A "ib_write_bw -R -d rxe0 -D 900 $B4 >/dev/null 2>&1 &
	   wait_qps ib_write_bw RC 2"
	log_test $? "top: ib_write_bw -R connected (2 QPs)"
	A "qps ib_write_bw" >"$out/top.a.json"
	B "qps ib_write_bw" >"$out/top.b.json"
	pairs=$( (rdma_pairs top a "$A4" "$B4"; rdma_pairs top b "$B4" "$A4"))
	check "top: R sees its data" busywait 60000 quiet R \
		"\$ROCECT -j qp show src $A4 seen-within 1000 |
		 jq -e 'any(.[]; .packets > 100)'"
	# The screen as an operator reads it, at the same time.
	R "\$ROCECT top -b -n 2 -d 1 >/tmp/top.screen &
	   \$ROCECT -j top -b -n 6 -d 1; wait" >"$out/top.jsonl"
	R "cat /tmp/top.screen" >"$out/top.screen"
	R "stop_captures $out"
	log_test $? "top: R's capture is complete"
	A "stop ib_write_bw"
	sleep 1
	B "stop ib_write_bw"
	check "top: TIMEWAIT on R after the disconnect" \
		busywait 30000 r_state_of "$pairs" timewait
	ce_mark_off
	# The last refresh of the screen, for the --demo reader.
	[ "$demo" -eq 0 ] || awk '/^rocect top - / { s = "" } { s = s $0 "\n" }
				  END { printf "%s", s }' "$out/top.screen"
	check "top: the test's entries first in each refresh, busy in 3 or more" \
		busiest_first "$out/top.jsonl" "$pairs"
	check "top: their packets per second agree with tcpdump's on R (10%)" \
		rates_agree top "$(top_windows "$out/top.jsonl" |
				   grep -F -f <(awk '{ print " " $2 " " $3 " " }' \
						<<<"$pairs"))"
	check "top: the busiest: A's, every packet CE-marked, CNPs sent" \
		quiet jq -se --arg a "$A4" '[.[] | .qps[0] |
			select(.packets_per_s > 0)] | length >= 3 and all(.[];
			.src == $a and .ce_percent >= 99 and .cnps_per_s > 0)' \
		"$out/top.jsonl"
}

# ud: udaddy resolves B's UD QPs with SIDR and sends datagrams.
ud()
{
	local b_qpns a_qpns conns

	say "ud: udaddy -s $B4 -c 2 (UD QPs, resolved through SIDR)"
	# B waits for more datagrams than A sends, so its QPs stay; A's are
	# listed as soon as they exist (A finishes quickly on 6.12).
	B "udaddy -c 2 -C 16000 >/dev/null 2>&1 & wait_listen udaddy"
	A "udaddy -s $B4 -c 2 -C 8000 >/dev/null 2>&1 & wait_qps udaddy UD 2 &&
	   qps udaddy" >"$out/ud.a.json"
	log_test $? "ud: two UD QPs on A"
	B "wait_qps udaddy UD 2"
	log_test $? "ud: two UD QPs on B"
	b_qpns=$(B "qps udaddy" | jq -c '[.[] | select(.type == "UD") | .lqpn] | sort')
	a_qpns=$(jq -c '[.[] | select(.type == "UD") | .lqpn] | sort' "$out/ud.a.json")
	busywait 30000 R "\$ROCECT -j qp show | jq -e --argjson q '$b_qpns' \
		'[.[] | select(.src == \"$A4\" and .packets > 0 and
			       (.dqpn as \$d | \$q | index(\$d)))] | length == 2'" \
		>/dev/null
	conns=$(R "\$ROCECT -j conn show")
	show R "\$ROCECT conn show"
	check "ud: R's SIDR connections name B's UD QPs $b_qpns" \
		is "$(jq -c '[.[] | select(.sidr and .state == "established") |
			     .pqpn] | sort' <<<"$conns")" "$b_qpns"
	check "ud: R's entries to them carry A's UD QPs $a_qpns as sources" \
		is "$(R "\$ROCECT -j qp show src $A4" | jq -c --argjson q "$b_qpns" \
			'[.[] | select(.dqpn as $d | $q | index($d)) | .sqpn] |
			 sort')" "$a_qpns"
	A "stop udaddy"
	B "stop udaddy"
}

# start_pair NAME COMM TYPE SERVER CLIENT: B runs SERVER, A CLIENT, until
# A's QP of TYPE is up. perftest has been seen to die within seconds now
# and then (ib_write_bw, 1 run in 3 on a loaded machine, output lost in
# its buffer; a segfault in librdmacm in a soak): say so, with what the
# programs and A's kernel left, stop both and forget what R inferred from
# them, so that the caller may start them once more.
start_pair()
{
	local name=$1 comm=$2 type=$3 server=$4 client=$5

	B "$server >/tmp/$name.out 2>&1 & wait_tcp_listen 18515"
	# A's QP sends; B's may only respond (perftest leaves it in RTR).
	A "$client >/tmp/$name.out 2>&1 & wait_qps $comm $type 1" && return 0
	echo "    $comm: A's QP not up; A ran: $(A "pgrep -x $comm || echo nothing")"
	A "cat /tmp/$name.out; dmesg | tail -n 3" | sed 's/^/    A: /'
	B "cat /tmp/$name.out" | sed 's/^/    B: /'
	A "stop $comm"
	B "stop $comm"
	R "\$ROCECT qp flush origin inferred >/dev/null"
	return 1
}

# infer_pairs NAME COMM TYPE SERVER CLIENT: B runs SERVER and A CLIENT,
# which exchange QPNs over TCP, not RDMA CM. Once their QPs of TYPE are up
# and R has inferred entries, both are frozen: R's inferred entries must be
# exactly the QP pairs rdma res reports on A and B.
infer_pairs()
{
	local name=$1 comm=$2 type=$3 server=$4 client=$5 want

	say "learn: $client (QPNs exchanged over TCP)"
	start_pair "$name" "$comm" "$type" "$server" "$client" ||
		start_pair "$name" "$comm" "$type" "$server" "$client"
	log_test $? "learn: $name: A's QP up" ||
		{ A "cat /tmp/$name.out"; B "cat /tmp/$name.out"; }
	check "learn: $name: R inferred entries" busywait 60000 \
		quiet R "\$ROCECT -j qp show origin inferred | jq -e 'length >= 2'"
	A "freeze $comm"
	B "freeze $comm"
	A "qps $comm" >"$out/$name.a.json"
	B "qps $comm" >"$out/$name.b.json"
	R "\$ROCECT -j qp show origin inferred" >"$out/$name.r.json"
	show R "\$ROCECT qp show origin inferred"
	if [ "$type" = UD ]; then
		want=$(jq -r --arg a "$A4" --arg b "$B4" --slurpfile q "$out/$name.b.json" \
			'.[] | select(.type == "UD") | .lqpn as $qa |
			 $q[0][] | select(.type == "UD") |
			 "\($a) \($b) \(.lqpn) \($qa)", "\($b) \($a) \($qa) \(.lqpn)"' \
			"$out/$name.a.json")
	else
		want=$(for h in a b; do
			jq -r --arg s "$([ $h = a ] && echo "$A4" || echo "$B4")" \
				--arg d "$([ $h = a ] && echo "$B4" || echo "$A4")" \
				'.[] | select(.type == "RC" and .rqpn != null and
					      (.state == "RTS" or .state == "RTR")) |
				 "\($s) \($d) \(.rqpn) \(.lqpn)"' "$out/$name.$h.json"
		done)
	fi
	check "learn: $name: R's inferred entries are the QP pairs of rdma res" \
		same_lines "QP pairs" "$(jq -r '.[] |
			"\(.src) \(.dst) \(.dqpn) \(.sqpn)"' "$out/$name.r.json")" \
		"$want"
	echo "$want" >"$out/$name.pairs"
	[ -z "${during:-}" ] || "$during"
	A "stop $comm"
	B "stop $comm"
	R "\$ROCECT qp flush origin inferred >/dev/null"
}

# infer_cnps: while ib_write_bw runs, R marks A's packets CE: the CNPs it
# sends for the inferred pair reach A's QP.
infer_cnps()
{
	local a_qpn

	A "stop_captures $out"
	ce_mark_off
	"$PYTHON" "$SELFTESTS_DIR/wire/cnp_check.py" "$out/learn-cnp.a.pcap" \
		>"$out/learn-cnp.a.json" 2>/dev/null
	a_qpn=$(jq '[.[] | select(.type == "RC") | .lqpn][0]' "$out/write.a.json")
	check "learn: CNPs for the inferred pair reached A's QP $a_qpn, ICRC valid" \
		quiet jq -se --argjson q "$a_qpn" 'length > 0 and all(.[];
			.icrc_ok and .becn == 1 and .dqpn == $q)' \
		"$out/learn-cnp.a.json"
}

# learn: QP pairs of programs that never use RDMA CM (learn on).
learn()
{
	local gid

	gid=$(A "gid_index $A4")
	show R "\$ROCECT config set learn on"
	infer_pairs pingpong ibv_rc_pingpong RC \
		"ibv_rc_pingpong -d rxe0 -g $gid -n 1000000" \
		"ibv_rc_pingpong -d rxe0 -g $gid -n 1000000 $B4"
	infer_pairs send ib_send_bw RC "ib_send_bw -d rxe0 -x $gid -D 120" \
		"ib_send_bw -d rxe0 -x $gid -D 120 $B4"
	ce_mark_on
	A "capture learn-cnp.a eth0 'udp port 4791 and src $B4'"
	during=infer_cnps infer_pairs write ib_write_bw RC \
		"ib_write_bw -d rxe0 -x $gid -D 120" \
		"ib_write_bw -d rxe0 -x $gid -D 120 $B4"
	infer_pairs read ib_read_bw RC "ib_read_bw -d rxe0 -x $gid -D 120" \
		"ib_read_bw -d rxe0 -x $gid -D 120 $B4"
	infer_pairs udpp ibv_ud_pingpong UD \
		"ibv_ud_pingpong -d rxe0 -g $gid -s 512 -n 1000000" \
		"ibv_ud_pingpong -d rxe0 -g $gid -s 512 -n 1000000 $B4"
}

# strict: unknown QPs are dropped on R. RDMA CM traffic is learned and
# flows; ibv_rc_pingpong needs managed entries.
strict()
{
	local gid qa qb dropped

	gid=$(A "gid_index $A4")
	pingpong()
	{
		B "stdbuf -oL ibv_rc_pingpong -d rxe0 -g $gid -n 50 \
			>/tmp/pp.server 2>&1 & wait_tcp_listen 18515"
		A "stdbuf -oL timeout ${1:-60} ibv_rc_pingpong -d rxe0 -g $gid \
			-n 50 $B4 >/tmp/pp.client 2>&1; rc=\$?; cat /tmp/pp.client
			exit \$rc"
	}
	say "strict: ibv_rc_pingpong exchanges QPNs over TCP, no RDMA CM"
	pingpong >"$out/pp1.out"
	check "strict: ibv_rc_pingpong works through R (policy accept)" \
		grep -q 'iters in' "$out/pp1.out"
	B "stop ibv_rc_pingpong"

	say "strict: R drops RoCE packets to QPs it does not know"
	# The pair just inferred (learn is on) is no entry in drop mode; it
	# goes, so that what follows shows nothing new is inferred.
	R "\$ROCECT qp flush origin inferred >/dev/null"
	show R "\$ROCECT config set unknown-qp drop"
	B "rping -s -a $B4 -C 20 >/dev/null 2>&1 & wait_listen rping"
	check "strict: rping still works (learned from the CM)" \
		A "rping -c -a $B4 -C 20 >/dev/null"
	B "ucmatose -c 2 -C 20 >/dev/null 2>&1 & wait_listen ucmatose"
	check "strict: ucmatose still works" \
		A "ucmatose -s $B4 -c 2 -C 20 >/dev/null"
	dropped=$(R "\$ROCECT -j stats" | jq '.unknown_qp_dropped')
	pingpong 20 >"$out/pp2.out"
	check "strict: ibv_rc_pingpong fails" \
		bash -c "! grep -q 'iters in' $out/pp2.out"
	check "strict: R counted its dropped packets" \
		test "$(R "\$ROCECT -j stats" | jq '.unknown_qp_dropped')" \
		-gt "$dropped"
	check "strict: with learn on, R inferred nothing of it" \
		is "$(R "\$ROCECT -j qp show origin inferred" | jq length)" 0
	B "stop ibv_rc_pingpong"

	say "strict: the operator installs managed entries for its QPs"
	# Hold the QPN exchange (TCP) until the entries are in, so that no
	# RDMA packet is sent before.
	R "nft -f - <<-EOT
		table ip gate {
		    chain forward {
		        type filter hook forward priority filter; policy accept;
		        tcp dport 18515 drop
		    }
		}
	EOT"
	B "stdbuf -oL ibv_rc_pingpong -d rxe0 -g $gid -n 50 >/tmp/pp.server 2>&1 &"
	A "stdbuf -oL ibv_rc_pingpong -d rxe0 -g $gid -n 50 $B4 \
		>/tmp/pp.client 2>&1 &"
	qa=$(A "pp_qpn /tmp/pp.client")
	qb=$(B "pp_qpn /tmp/pp.server")
	show R "\$ROCECT qp add src $A4 dst $B4 dqpn $qb sqpn $qa" &&
		show R "\$ROCECT qp add src $B4 dst $A4 dqpn $qa sqpn $qb" &&
		R "nft delete table ip gate"
	log_test $? "strict: managed entries for QPs $qa (A) and $qb (B) added"
	A "while pgrep -x ibv_rc_pingpong >/dev/null; do nap 0.5; done
	   cat /tmp/pp.client" >"$out/pp3.out"
	check "strict: with them, ibv_rc_pingpong works" \
		grep -q 'iters in' "$out/pp3.out"
	show R "\$ROCECT qp show origin managed"
	check "strict: R counted its packets on the managed entries" \
		quiet R "\$ROCECT -j qp show origin managed | jq -e 'length == 2 and
			all(.[]; .packets > 0)'"
	B "stop ibv_rc_pingpong"
}

# roce_in: the RoCE packets that came in on R's links, counted by a netdev
# ingress chain ahead of everything but rocect's guard (offload_counter).
roce_in()
{
	R "nft list table netdev roce_in" | grep -o 'packets [0-9]*' |
		awk '{ n += $2 } END { print n + 0 }'
}

# offload_counter: that chain, one per link.
offload_counter()
{
	local d rules="add table netdev roce_in;"

	for d in eth0 eth1; do
		rules+=" add chain netdev roce_in $d { type filter hook"
		rules+=" ingress device $d priority -500; };"
		rules+=" add rule netdev roce_in $d udp dport 4791 counter;"
	done
	R "nft '$rules'"
}

# inspected_share FROM_IN FROM_PACKETS: the share (in %) of the RoCE
# packets that came in on R since roce_in said FROM_IN that rocect
# inspected (its packets counter, which said FROM_PACKETS).
inspected_share()
{
	local got seen

	got=$(($(R "\$ROCECT -j stats" | jq .packets) - $2))
	seen=$(($(roce_in) - $1))
	echo "    rocect inspected $got of $seen packets" >&2
	echo $((seen > 0 ? got * 100 / seen : 0))
}

# offload: R in strict mode with a flowtable (examples/router-flowtable.nft):
# the data flows of the connections it tracks leave the helper, as one
# pair explains each (the port rxe derives from the QP numbers is the one
# R computes), and the flowtable takes them over. With offload on,
# ucmatose completes, and most of its packets pass unseen by rocect. With
# offload guarded, rping, ib_write_bw -R and ib_read_bw -R complete and
# rocect's guard sees every packet of their offloaded flows. R stays
# guarded for the lossy network (loss), which puts the helper back.
offload()
{
	local flows revoked in0 pk0 p

	say "offload: R hands the data flows of its connections to a flowtable"
	R "nft delete table inet rocect &&
	   sed 's/\"inside\"/\"eth0\"/; s/\"outside\"/\"eth1\"/' \
		$TOP/examples/router-flowtable.nft | nft -f - &&
	   \$ROCECT config set offload on"
	log_test $? "offload: router-flowtable.nft on R, offload on"
	offload_counter
	log_test $? "offload: a counter of the RoCE packets R takes in"
	flows=$(R "\$ROCECT -j stats" | jq .offload_flows)
	in0=$(roce_in)
	pk0=$(R "\$ROCECT -j stats" | jq .packets)
	B "ucmatose -c 2 -C 500 >/dev/null 2>&1 & wait_listen ucmatose"
	check "offload: ucmatose completes (2 connections)" \
		A "ucmatose -s $B4 -c 2 -C 500 >/dev/null"
	check "offload: R admitted their data flows without the helper" \
		test "$(R "\$ROCECT -j stats" | jq .offload_flows)" -ge $((flows + 4))
	check "offload on: rocect saw under half of ucmatose's packets" \
		test "$(inspected_share "$in0" "$pk0")" -lt 50

	show R "\$ROCECT config set offload guarded"
	log_test $? "offload: offload guarded"
	flows=$(R "\$ROCECT -j stats" | jq .offload_flows)
	revoked=$(R "\$ROCECT -j stats" | jq .offload_revoked)
	in0=$(roce_in)
	pk0=$(R "\$ROCECT -j stats" | jq .packets)
	# rping in the background on A: R's flowtable is looked at while the
	# data flows (its DREQ revokes them at the end).
	B "rping -s -a $B4 -C 1000 >/dev/null 2>&1 & wait_listen rping"
	A "rm -f /tmp/rping.rc; (rping -c -a $B4 -C 1000 >/dev/null 2>&1
	   echo \$? >/tmp/rping.rc) >/dev/null 2>&1 &"
	check "guarded: rping's data flows in R's flowtable ([OFFLOAD])" \
		busywait 120000 eval 'R "conntrack -L -p udp --dport 4791 2>/dev/null" |
			grep -q OFFLOAD'
	R "conntrack -L -p udp --dport 4791 2>/dev/null" >"$out/offload.conntrack"
	check "guarded: rping completes 1000 exchanges through R" \
		A "while [ ! -s /tmp/rping.rc ]; do nap 0.5; done
		   exit \$(cat /tmp/rping.rc)"
	B "stop rping"
	check "guarded: R admitted its data flows without the helper" \
		test "$(R "\$ROCECT -j stats" | jq .offload_flows)" -ge $((flows + 2))
	check "guarded: its DREQ revoked them" \
		test "$(R "\$ROCECT -j stats" | jq .offload_revoked)" -gt "$revoked"
	for p in ib_write_bw ib_read_bw; do
		flows=$(R "\$ROCECT -j stats" | jq .offload_flows)
		check "guarded: $p -R, 300 messages" \
			perftest_pair "$p" "-R -d rxe0 -s 16384 -n 300"
		check "guarded: $p's data flows went without the helper" \
			test "$(R "\$ROCECT -j stats" | jq .offload_flows)" -ge $((flows + 2))
	done
	check "guarded: rocect inspected every RoCE packet R took in" \
		test "$(inspected_share "$in0" "$pk0")" -ge 99
	R "nft delete table netdev roce_in"
}

# offload_off: R back to the helper's ruleset.
offload_off()
{
	R "\$ROCECT config set offload off && nft delete table inet rocect &&
	   nft -f <(nft_roce_ruleset)"
	log_test $? "offload: R back to the helper's ruleset, offload off"
}

# expiry: the learned entries of the connections above age out.
expiry()
{
	local old

	old=$(cat "$out"/{rping4,rping6,ucm,bw}.pairs)
	check "expiry: no entry of the closed connections is left on R" \
		busywait 120000 eval '! R "\$ROCECT -j qp show" |
			jq -r ".[] | \"\(.src) \(.dst) \(.dqpn) \(.sqpn)\"" |
			grep -qxF -f <(echo "$old")'
}

# helper_drops: the packets R's helper refused so far, by any reason
helper_drops()
{
	R "\$ROCECT -j stats" | jq '[to_entries[] | select(.key |
		test("^(wrong_[a-z]+|unknown_qp_dropped|cnp_forged)$")) | .value] | add'
}

# lossy_pair NAME WAIT SERVER CLIENT: B starts SERVER and runs WAIT until
# it listens, A runs CLIENT to B to the end (200 s: below the fleet's step
# limit, so its status comes back), then B stops NAME. A run that fails
# while R's helper refused nothing failed for another reason (netem's
# losses: rxe gives up after 7 retries of one packet; a CM message lost
# at teardown; perftest's clock calibration in a stalled guest: "Can't
# produce a report"): it runs once more. One the helper refused a packet
# in fails.
lossy_pair()
{
	local rc try drops

	for try in 1 2; do
		B "$3 >/tmp/loss.server 2>&1 & $2" || return 1
		drops=$(helper_drops)
		A "timeout 200 $4 >/tmp/loss.client 2>&1"
		rc=$?
		B "stop $1"
		[ "$rc" -eq 0 ] && return 0
		echo "    A: exit $rc"
		A "tail -n 3 /tmp/loss.client" | sed 's/^/    A: /'
		# A dead path (a stalled guest queue) or a program's failure?
		A "ping -c 3 -W 2 $B4 | tail -n 2" | sed 's/^/    A: /'
		[ "$(helper_drops)" = "$drops" ] || break
		[ "$try" -eq 1 ] &&
			echo "    the helper refused none of its packets: once more"
	done
	return "$rc"
}

# perftest_pair COMM ARGS: lossy_pair for perftest's COMM with ARGS on
# both sides; with -R it connects through RDMA CM, without over TCP.
perftest_pair()
{
	local wait="wait_tcp_listen 18515"

	[[ $2 == *-R* ]] && wait="wait_listen $1"
	lossy_pair "$1" "$wait" "$1 $2" "$1 $2 $B4"
}

# loss: R drops 1% of the packets it forwards, each way (netem): the
# requesters retransmit after NAKs and timeouts, and none of their packets
# falls outside its PSN window. Drop mode for programs that use RDMA CM,
# then accept mode with learn on for perftest without it.
loss()
{
	local gid p dropped

	gid=$(A "gid_index $A4")
	say "loss: R drops 1% of what it forwards, each way"
	if ! R 'for d in eth0 eth1; do
		tc qdisc replace dev $d root netem loss 1% limit 20000 || exit 1
	   done' 2>/dev/null; then
		echo "# loss: no netem on $kver: skipped"
		offload_off
		return 0
	fi
	show R "\$ROCECT config set unknown-qp drop"
	check "loss: rping, 200 pings (drop mode)" \
		lossy_pair rping "wait_listen rping" \
			"rping -s -a $B4 -C 200" "rping -c -a $B4 -C 200"
	check "loss: ucmatose, 2 connections of 500 messages (drop mode)" \
		lossy_pair ucmatose "wait_listen ucmatose" \
			"ucmatose -c 2 -C 500" "ucmatose -s $B4 -c 2 -C 500"
	# 16 KiB messages (16 packets each at the links' MTU). With 64 KiB
	# ones a run took from 40 s to over 200 s: each loss that only the
	# requester's timer repairs costs a whole ACK timeout.
	for p in ib_send_bw ib_write_bw ib_read_bw; do
		check "loss: $p -R, 300 messages (drop mode)" \
			perftest_pair "$p" "-R -d rxe0 -s 16384 -n 300"
	done
	show R "\$ROCECT config set unknown-qp accept"
	for p in ib_send_bw ib_write_bw ib_read_bw; do
		check "loss: $p, 300 messages (accept mode, learn on)" \
			perftest_pair "$p" "-d rxe0 -x $gid -s 16384 -n 300"
	done
	dropped=$(R 'for d in eth0 eth1; do tc -s qdisc show dev $d; done' |
		sed -n 's/.*(dropped \([0-9]*\),.*/\1/p' | awk '{ n += $1 } END { print n + 0 }')
	check "loss: R's netem dropped packets ($dropped)" test "${dropped:-0}" -gt 0
	R 'for d in eth0 eth1; do tc qdisc replace dev $d root pfifo limit 20000; done'
	show R "\$ROCECT stats | grep -E '^(wrong-[a-z]+|unknown-qp-dropped) '"
	check "loss: R counted no packet outside its PSN window" \
		is "$(R "\$ROCECT -j stats" | jq '.wrong_psn')" 0
	offload_off
}

# links_on_failure: after a scenario that failed a check, every guest's
# link counters, queues and neighbours: packets lost on the way fail
# checks far from where they went.
seen_fail=0
links_on_failure()
{
	local g

	[ "$nfail" -gt "$seen_fail" ] || return 0
	seen_fail=$nfail
	say "Checks failed: the links of A, R and B"
	for g in A R B; do
		echo "-- $g"
		"$g" links 2>&1 | sed 's/^/    /'
	done
}

teardown()
{
	check "R: every expectation asked for was set up" \
		is "$(R "\$ROCECT -j stats" | jq '.expect_failed')" 0
	# Real traffic never fails the binding to its sender's interface,
	# port, PSN window or Q_Key, nor do the CNPs of R (its own) and of rxe.
	check "R and B: no packet of real traffic failed a binding check" \
		is "$(for g in R B; do "$g" "\$ROCECT -j stats" |
			jq -c '[.wrong_iface, .wrong_sport, .cnp_forged, .wrong_psn, .wrong_qkey]'; done |
			xargs)" "[0,0,0,0,0] [0,0,0,0,0]"
	check "R: module unloads" R "nft flush ruleset && rmmod nf_conntrack_roce"
	check "B: module unloads" B "nft flush ruleset && rmmod nf_conntrack_roce"
	check "no kernel warning on A, R or B" \
		eval 'A dmesg_clean && R dmesg_clean && B dmesg_clean'
	# Not a check: QEMU's stalls, each of which cost a ring of packets.
	echo "# link-watchdog's transmit ring resets: A $(ring_resets A)," \
		"R $(ring_resets R), B $(ring_resets B)"
}

# ring_resets GUEST: how many transmit rings tools/vm/link-watchdog reset.
ring_resets()
{
	"$1" "kmsg_since_start | grep -c 'link-watchdog: .* transmit ring reset'"
}

# summary: what R counted over the whole run (--demo only).
summary()
{
	[ "$demo" -eq 1 ] || return 0
	say "All told, R's counters: CM messages seen, connections and QP entries" \
	    "learned, packets dropped for unknown QPs, CNPs sent"
	show R "\$ROCECT stats | grep -E '^(cm\.[a-z-]+|conn-created|qp-created|unknown-qp-dropped|cnp-sent) [1-9]'"
}

# story TEXT: a plain-words heading for the --demo reader.
story() { [ "$demo" -eq 0 ] || printf '\n#### %s\n' "$*"; }

setup
if [ -n "$only" ]; then
	for scenario in $only; do
		"$scenario"
		links_on_failure
	done
	teardown
	say "Done on $kver in $((SECONDS - T0)) s: $nsuccess checks passed, $nfail failed"
	exit $ret
fi
story "A connects to B with rping over IPv4: RDMA CM sends REQ, REP and RTU" \
	"on QP1; R learns which QP talks to which and relates the data flows"
during=query connected rping4 rping "$A4" "$B4" 1 "rping -s -a $B4 -C 0" \
	"rping -c -a $B4 -C 0"
links_on_failure
story "The same over IPv6"
connected rping6 rping "$A6" "$B6" 1 "rping -s -a $B6 -C 0" \
	"rping -c -a $B6 -C 0"
links_on_failure
story "Three connections at once, with ucmatose"
connected ucm ucmatose "$A4" "$B4" 3 "ucmatose -c 3 -C 10000" \
	"ucmatose -s $B4 -c 3 -C 10000" "initiating data transfers"
links_on_failure
story "A connection B refuses"
rejected
links_on_failure
story "A firewall's policy: which service A may open on B"
policy
links_on_failure
story "Congestion: R marks A's packets CE and answers with CNPs, as a DCQCN" \
	"notification point in the network would"
cnps
links_on_failure
story "What an operator sees: rocect top on R, its busiest QPs first, with" \
	"their rates, CE marks and CNPs, while ib_write_bw runs"
top_view
links_on_failure
story "Unreliable datagrams: udaddy finds B's UD QPs through SIDR"
ud
links_on_failure
story "Programs that never use RDMA CM (NCCL, MPI and perftest work like" \
	"this): with learn on, R infers their QP pairs from the PSNs"
learn
links_on_failure
story "Strict policy: only QPs R knows may talk"
strict
links_on_failure
story "Offload: the data flows of connections R tracks go through a" \
	"flowtable, past the helper"
offload
links_on_failure
expiry
story "A lossy network: R drops 1% of the packets; retransmissions stay" \
	"within each sender's PSN window"
loss
links_on_failure
summary
teardown
say "Done on $kver in $((SECONDS - T0)) s: $nsuccess checks passed, $nfail failed"
exit $ret

#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# ha_lib.sh - the two-firewall topology of ha_failover.sh and ha_offload.sh,
# sourced by them after lib.sh:
#
#        +-- r1 (helper, unknown-qp drop, conntrackd) --+
#   a ---+              | sync link 10.0.9.0/24          +--- b
#        +-- r2 (helper, unknown-qp drop, conntrackd) --+
#
# a is $A, $A2 and $A6, b $B and $B6 (below; on their loopbacks), each with
# a link to both firewalls; their routes to each other go through r1 first.
# setup() loads "$HA_RULESET NS" (nft_roce_ruleset unless set) on r1 and
# r2 and counts, on a and b, the packets to each QP of HA_QPS and CNPs.

A=10.0.1.1
A2=10.0.1.2
B=10.0.2.1
A6=fd00:1::1
B6=fd00:2::1

# v6 ADDR: the IPv6 twin of an IPv4 link address: 10.0.11.254 is
# fd00:11::fe.
v6() { local o=(${1//./ }); printf 'fd00:%s::%x' "${o[2]}" "${o[3]}"; }

# link NS1 IF1 ADDR1 NS2 IF2 ADDR2: a veth pair with a /24 on each end, and
# their IPv6 twins in a /64.
link()
{
	ip link add "$2" netns "$1" type veth peer name "$5" netns "$4" &&
		ip -n "$1" addr add "$3/24" dev "$2" &&
		ip -n "$4" addr add "$6/24" dev "$5" &&
		ip -n "$1" addr add "$(v6 "$3")/64" dev "$2" nodad &&
		ip -n "$4" addr add "$(v6 "$6")/64" dev "$5" nodad &&
		ip -n "$1" link set dev "$2" up &&
		ip -n "$4" link set dev "$5" up
}

# conntrackd_conf N: r<N>'s conntrackd configuration: the example the
# admin guide shows (r1's), with the sync link's addresses swapped on r2
# and its files in $tmp.
conntrackd_conf()
{
	local conf=$TOP/examples/conntrackd-roce.conf

	if [ "$1" = 2 ]; then
		sed -e '/sync link/s/10\.0\.9\.1/10.0.9.X/' \
		    -e '/sync link/s/10\.0\.9\.2/10.0.9.1/' \
		    -e '/sync link/s/10\.0\.9\.X/10.0.9.2/' "$conf"
	else
		cat "$conf"
	fi | sed -e "s|LogFile on|LogFile $tmp/conntrackd$1.log|" \
		 -e "s|LockFile .*|LockFile $tmp/conntrackd$1.lock|" \
		 -e "s|Path /var/run/conntrackd.ctl|Path $tmp/conntrackd$1.ctl|"
}

setup()
{
	local n r q rules

	tmp=$(mktemp -d)
	setup_ns a r1 r2 b || return 1
	link "$a" to_r1 10.0.11.1 "$r1" to_a 10.0.11.254 || return 1
	link "$a" to_r2 10.0.12.1 "$r2" to_a 10.0.12.254 || return 1
	link "$b" to_r1 10.0.21.1 "$r1" to_b 10.0.21.254 || return 1
	link "$b" to_r2 10.0.22.1 "$r2" to_b 10.0.22.254 || return 1
	link "$r1" sync0 10.0.9.1 "$r2" sync0 10.0.9.2 || return 1
	ip -n "$a" addr add $A/32 dev lo
	ip -n "$a" addr add $A2/32 dev lo
	ip -n "$b" addr add $B/32 dev lo
	ip -n "$a" addr add $A6/128 dev lo
	ip -n "$b" addr add $B6/128 dev lo
	ip -n "$a" route add $B via 10.0.11.254
	ip -n "$b" route add 10.0.1.0/24 via 10.0.21.254
	ip -n "$a" route add $B6 via fd00:11::fe
	ip -n "$b" route add fd00:1::/64 via fd00:21::fe
	for n in 1 2; do
		r=r$n
		r=${!r}
		ip -n "$r" route add 10.0.1.0/24 via 10.0.1$n.1
		ip -n "$r" route add 10.0.2.0/24 via 10.0.2$n.1
		ip -n "$r" route add fd00:1::/64 via fd00:1$n::1
		ip -n "$r" route add fd00:2::/64 via fd00:2$n::1
		ip netns exec "$r" sysctl -qw net.ipv4.ip_forward=1
		ip netns exec "$r" sysctl -qw net.ipv6.conf.all.forwarding=1
		# r1's flows live 10 s unrefreshed; r2's outlive the test's
		# pauses on a slow (debug) kernel.
		ip netns exec "$r" sysctl -qw \
			net.netfilter.nf_conntrack_udp_timeout=$((n == 1 ? 10 : 300))
		ip netns exec "$r" nft -f <("${HA_RULESET:-nft_roce_ruleset}" "$r") ||
			return 1
		on "$r" config set unknown-qp drop || return 1
		conntrackd_conf $n >"$tmp/conntrackd$n.conf"
		ip netns exec "$r" conntrackd -d -C "$tmp/conntrackd$n.conf" ||
			return 1
	done
	# a and b count what reaches them, and consume it as an RNIC would.
	rules=('udp dport 4791 @th,64,8 0x81 counter drop comment "cnp"')
	for q in "${HA_QPS[@]}"; do
		rules+=("udp dport 4791 @th,104,24 $q counter drop comment \"$q\"")
	done
	for n in a b; do
		count_input "${!n}" "${rules[@]}" || return 1
	done
}

cleanup_extra()
{
	local n

	for n in 1 2; do
		[ -S "$tmp/conntrackd$n.ctl" ] &&
			conntrackd -C "$tmp/conntrackd$n.conf" -k 2>/dev/null
	done
}

# got NS QP: packets to QP (or "cnp": CNPs) that reached NS.
got() { nft_packets "$1" cnt in "comment \"$2\""; }
# The entries of NS, one "src dst dqpn sqpn origin" line each, sorted.
entries()
{
	on "$1" -j qp show |
		jq -r '.[] | "\(.src) \(.dst) \(.dqpn) \(.sqpn) \(.origin)"' | sort
}
# cached ct|expect [N]: RoCE conntracks or expectations in r<N>'s (r2's)
# conntrackd's external cache.
cached() {
	local r=r${2:-2}

	ip netns exec "${!r}" conntrackd -C "$tmp/conntrackd${2:-2}.conf" -e "$1" |
		grep -c 'dport=4791'
}
# Conntracks of the RoCE flows in NS that carry helper roce.
roce_cts() {
	ip netns exec "$1" conntrack -L -p udp --dport 4791 2>/dev/null |
		grep -c 'helper=roce'
}

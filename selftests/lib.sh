#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Shared helpers of the nf_conntrack_roce kselftests, in the style of the
# kernel's tools/testing/selftests/net/lib.sh. Tests run as root inside a
# QEMU guest (see tools/vm/run_vm_tests.sh); they may load and unload the module.

# kselftest exit codes
ksft_pass=0
ksft_fail=1
ksft_skip=4

# Builtins where a program would do: a guest under emulation takes about
# 0.1 s to start one, and the end to end sources this file for every
# command it runs in a guest.
SELFTESTS_DIR=.
[[ ${BASH_SOURCE[0]} != */* ]] || SELFTESTS_DIR=${BASH_SOURCE[0]%/*}
SELFTESTS_DIR=$(cd "$SELFTESTS_DIR" && pwd)
TOP=${SELFTESTS_DIR%/*}
read -r KERNEL_RELEASE </proc/sys/kernel/osrelease
BUILD=${BUILD:-$TOP/build}
ROCECT_KO=${ROCECT_KO:-$BUILD/kmod/$KERNEL_RELEASE/nf_conntrack_roce.ko}
PYTHON=${PYTHON:-/usr/bin/python3}
ROCE_PKT="$PYTHON $SELFTESTS_DIR/wire/roce_pkt.py"
ROCE_SEND=$BUILD/bin/roce_send
ROCECT=$BUILD/bin/rocect
MODULE=nf_conntrack_roce

ret=$ksft_pass
nsuccess=0
nfail=0
NS_LIST=()

# ksft_start TOOL...: how every test starts: skip unless nft, jq, scapy,
# the built module and CLI and each TOOL are there; start with the module
# unloaded; on exit run the test's cleanup_extra (if it defines one), kill
# the background processes in $bg, then remove $pkts, $tmp, the namespaces
# and the module.
ksft_start()
{
	local t

	for t in nft jq "$@"; do
		checktool "$t" --version
	done
	# Found, not imported: scapy takes seconds to start in a guest.
	checktool "$PYTHON" -c 'import importlib.util, sys
sys.exit(importlib.util.find_spec("scapy.contrib.roce") is None)'
	[ -f "$ROCECT_KO" ] || { echo "SKIP: $ROCECT_KO not built"; exit $ksft_skip; }
	[ -x "$ROCECT" ] || { echo "SKIP: $ROCECT not built"; exit $ksft_skip; }
	trap ksft_cleanup EXIT
	# The runner's timeout sends TERM: clean up on the way out too.
	trap 'exit 124' TERM
	unload_module
}

ksft_cleanup()
{
	local p

	declare -F cleanup_extra >/dev/null && cleanup_extra
	for p in ${bg:-}; do
		kill "$p" 2>/dev/null
	done
	rm -rf "${pkts:-}" "${tmp:-}"
	cleanup_all_ns
	unload_module
}

# log_test RC DESCRIPTION: one result line; a non-zero RC fails the test.
log_test()
{
	local rc=$1 msg=$2

	if [ "$rc" -eq 0 ]; then
		nsuccess=$((nsuccess + 1))
		printf "TEST: %-60s  [ OK ]\n" "$msg"
	else
		nfail=$((nfail + 1))
		ret=$ksft_fail
		printf "TEST: %-60s  [FAIL]\n" "$msg"
	fi
}

# check WHAT COMMAND...: run COMMAND, log its status as test WHAT.
check()
{
	local msg=$1

	shift
	"$@"
	log_test $? "$msg"
}

# checktool COMMAND...: skip the whole test if COMMAND fails.
checktool()
{
	if ! "$@" >/dev/null 2>&1; then
		echo "SKIP: cannot run '$*'"
		exit $ksft_skip
	fi
}

# setup_ns NAME...: create namespaces with unique names, lo up; each NAME
# becomes a variable holding the real namespace name.
setup_ns()
{
	local name ns

	for name in "$@"; do
		ns="$name-$(mktemp -u XXXXXX)"
		ip netns add "$ns" || return 1
		ip -n "$ns" link set lo up
		NS_LIST+=("$ns")
		eval "$name=$ns"
	done
}

cleanup_all_ns()
{
	local ns

	for ns in "${NS_LIST[@]}"; do
		ip netns del "$ns" 2>/dev/null
	done
	NS_LIST=()
}

# Waits read from a pipe nobody writes to: under emulation each process a
# poll starts costs the guest's single CPU, which the test needs.
exec {NAP_FD}<> <(:)

# nap SECONDS: sleep without starting a process.
nap()
{
	read -r -t "$1" -u "$NAP_FD"
	return 0
}

# busywait TIMEOUT_MS COMMAND...: retry COMMAND until it succeeds.
busywait()
{
	local timeout=$1 start

	shift
	start=${EPOCHREALTIME//[!0-9]/}
	until "$@"; do
		((${EPOCHREALTIME//[!0-9]/} - start > timeout * 1000)) && return 1
		nap 0.1
	done
}

module_loaded()
{
	[ -d /sys/module/$MODULE ]
}

# insmod does not resolve dependencies: load nf_conntrack first.
load_module()
{
	modprobe nf_conntrack && insmod "$ROCECT_KO" "$@"
}

unload_module()
{
	! module_loaded || rmmod $MODULE
}

# craft DIR PYTHON-CODE: run PYTHON-CODE with roce_pkt imported and a
# function save(name, *packets) that writes packets as hex lines to DIR/name,
# for roce_send. One interpreter for all packets: scapy starts slowly.
# Fence's packets (fence-ab, fence-ba) are crafted into DIR too.
craft()
{
	PYTHONPATH=$SELFTESTS_DIR/wire "$PYTHON" -c "
import sys, roce_pkt
from scapy.layers.inet import IP, UDP
from scapy.layers.inet6 import IPv6
from scapy.packet import Raw
def save(name, *pkts):
    with open(sys.argv[1] + '/' + name, 'w') as f:
        f.writelines(bytes(p).hex() + '\\n' for p in pkts)
$2
for name, src, dst in (('fence-ab', '10.0.1.1', '10.0.2.1'),
                       ('fence-ba', '10.0.2.1', '10.0.1.1')):
    save(name, roce_pkt.fence_packet(src, dst))" "$1"
}

# send NS NAME...: replay packets crafted into $pkts (see craft) from
# namespace NS, in order, through roce_send.
send()
{
	local ns=$1 f

	shift
	for f in "$@"; do
		ip netns exec "$ns" "$ROCE_SEND" "$pkts/$f" 2>/dev/null || return 1
	done
}

# on NS ARGS...: rocect in namespace NS (its own -n: one program fewer
# than ip netns exec).
on()
{
	local ns=$1

	shift
	"$ROCECT" -n "$ns" "$@"
}

# is GOT WANT: the two are equal; else say what was got.
is()
{
	[ "$1" = "$2" ] || { echo "    got '$1', expected '$2'"; return 1; }
}

# nft_packets NS TABLE CHAIN [PATTERN]: the packets of the counter in an
# inet chain of NS (of the rule matching PATTERN, if given).
nft_packets()
{
	local line

	while IFS= read -r line; do
		[[ $line == *"${4:-counter}"* && $line =~ packets\ ([0-9]+) ]] &&
			echo "${BASH_REMATCH[1]}"
	done < <(ip netns exec "$1" nft list chain inet "$2" "$3")
	return 0
}

# Make the module known to modprobe, so nft can autoload it. run-vm -M
# installs it with a depmod run on the host; depmod in a TCG guest takes
# over a minute, so it runs here only when the installed copy differs.
install_module()
{
	local dir=/lib/modules/$KERNEL_RELEASE/extra

	if cmp -s "$ROCECT_KO" "$dir/$MODULE.ko" &&
	   modinfo -n $MODULE >/dev/null 2>&1; then
		return 0
	fi
	mkdir -p "$dir" && cp "$ROCECT_KO" "$dir/" && depmod -a
}

# stat_get NS NAME: a counter of `rocect stats` in NS ("class.cm", ...).
stat_get()
{
	"$ROCECT" -n "$1" stats | awk -v k="$2" '$1 == k { print $2 }'
}

# stat_json NS NAME: a counter or gauge of `rocect -j stats` in NS, by its
# name in the text output (JSON keys take underscores for dashes).
stat_json() { on "$1" -j stats | jq ".${2//-/_}"; }

# expect_stat NS NAME VALUE
expect_stat()
{
	local got

	got=$(stat_get "$1" "$2")
	if [ "$got" != "$3" ]; then
		echo "    $2 is '$got', expected $3"
		return 1
	fi
}

# The nft ruleset that attaches helper "roce" to RoCEv2 traffic, for both
# forwarded (prerouting) and locally generated (output) packets.
nft_roce_ruleset()
{
	cat <<-EOT
	table inet rocect {
	    ct helper roce {
	        type "roce" protocol udp
	        l3proto inet
	    }
	    chain pre {
	        type filter hook prerouting priority filter; policy accept;
	        udp dport 4791 ct helper set "roce"
	    }
	    chain out {
	        type filter hook output priority filter; policy accept;
	        udp dport 4791 ct helper set "roce"
	    }
	}
	EOT
}

# setup_router_topology: namespaces a, r and b (their names in $a, $r, $b):
#
#   a (10.0.1.1, 10.0.1.2, fd00:1::1) -- r (forwarding) -- b (10.0.2.1, fd00:2::1)
#
# r forwards IPv4 and IPv6 and counts the RELATED RoCE packets it forwards
# (related_count), to show conntrack expectations at work.
setup_router_topology()
{
	setup_ns a r b || return 1
	ip link add veth0 netns "$a" type veth peer name veth0 netns "$r"
	ip link add veth1 netns "$r" type veth peer name veth0 netns "$b"
	ip -n "$a" addr add 10.0.1.1/24 dev veth0
	ip -n "$a" addr add 10.0.1.2/24 dev veth0
	ip -n "$a" addr add fd00:1::1/64 dev veth0 nodad
	ip -n "$r" addr add 10.0.1.254/24 dev veth0
	ip -n "$r" addr add fd00:1::fe/64 dev veth0 nodad
	ip -n "$r" addr add 10.0.2.254/24 dev veth1
	ip -n "$r" addr add fd00:2::fe/64 dev veth1 nodad
	ip -n "$b" addr add 10.0.2.1/24 dev veth0
	ip -n "$b" addr add fd00:2::1/64 dev veth0 nodad
	for ns in "$a" "$r" "$b"; do
		ip -n "$ns" link set veth0 up
	done
	ip -n "$r" link set veth1 up
	ip -n "$a" route add default via 10.0.1.254
	ip -n "$a" -6 route add default via fd00:1::fe
	ip -n "$b" route add default via 10.0.2.254
	ip -n "$b" -6 route add default via fd00:2::fe
	ip netns exec "$r" sysctl -qw net.ipv4.ip_forward=1
	ip netns exec "$r" sysctl -qw net.ipv6.conf.all.forwarding=1
	ip netns exec "$r" nft -f - <<-EOT
		table inet watch {
		    chain forward {
		        type filter hook forward priority filter;
		        udp dport 4791 ct state related counter
		    }
		}
	EOT
}

# setup_attacker: namespace m (its name in $m) on a link of its own to r
# of setup_router_topology (r's veth2, 10.0.3.254 and fd00:3::fe; m
# 10.0.3.1 and fd00:3::1, routed through r), with rp_filter off on r: the
# helper alone stands between what m sends in others' names and a and b.
setup_attacker()
{
	local dev

	setup_ns m || return 1
	ip link add veth2 netns "$r" type veth peer name veth0 netns "$m"
	ip -n "$r" addr add 10.0.3.254/24 dev veth2
	ip -n "$r" addr add fd00:3::fe/64 dev veth2 nodad
	ip -n "$m" addr add 10.0.3.1/24 dev veth0
	ip -n "$m" addr add fd00:3::1/64 dev veth0 nodad
	ip -n "$r" link set veth2 up
	ip -n "$m" link set veth0 up
	ip -n "$m" route add default via 10.0.3.254
	ip -n "$m" -6 route add default via fd00:3::fe
	for dev in all default veth0 veth1 veth2; do
		ip netns exec "$r" sysctl -qw "net.ipv4.conf.$dev.rp_filter=0" ||
			return 1
	done
}

# count_input NS [RULE]...: count what reaches NS, one counter per nft
# RULE (default: all of RoCE) in table inet cnt, chain in (prerouting),
# which rx, got-like helpers and nft_packets read.
count_input()
{
	local ns=$1 rules

	shift
	[ $# -gt 0 ] || set -- "udp dport 4791 counter"
	printf -v rules '%s\n' "$@"
	ip netns exec "$ns" nft -f - <<-EOT
		table inet cnt {
		    chain in {
		        type filter hook prerouting priority filter;
		$rules
		    }
		}
	EOT
}

# count_roce_input NS...: count_input for each NS, all of RoCE.
count_roce_input()
{
	local ns

	for ns; do
		count_input "$ns" || return 1
	done
}

# offloaded NS FAMILY SPORT: how many of NS's conntracks of RoCE data flows
# from SPORT are in a flowtable (nft's or act_ct's).
offloaded()
{
	ip netns exec "$1" conntrack -L -f "$2" -p udp --sport "$3" --dport 4791 \
		2>/dev/null | grep -c OFFLOAD
}

# helped NS FAMILY SPORT: how many of them have the helper.
helped()
{
	ip netns exec "$1" conntrack -L -f "$2" -p udp --sport "$3" --dport 4791 \
		2>/dev/null | grep -c 'helper=roce'
}

# xchg NS NAME [NS NAME]...: replay packets, each from its namespace.
xchg()
{
	while [ $# -ge 2 ]; do
		send "$1" "$2" || return 1
		shift 2
	done
}

# rx NS: RoCE packets that reached NS (a or b).
rx() { nft_packets "$1" cnt in; }
rx_above() { [ "$(rx "$1")" -gt "$2" ]; }

# snap: remember r's counters and what a and b received; then
# grew COUNTER...: how much each counter ("malformed.mad-len" for a nest)
# grew since, and got a|b: what a (b) received since.
snap()
{
	base=$(on "$r" -j stats)
	at_a=$(rx "$a")
	at_b=$(rx "$b")
}
grew()
{
	local f="" k

	for k; do
		k=".${k//-/_}"
		f+="((\$b$k // 0) - (\$a$k // 0) | tostring),"
	done
	jq -nr --argjson a "$base" --argjson b "$(on "$r" -j stats)" "[${f%,}] | join(\" \")"
}
got() { local at=at_$1; echo $(($(rx "${!1}") - ${!at})); }

# fence a|b: a MAD that every policy passes (crafted by craft as fence-ba
# and fence-ab), sent to a (b) after the packets under test and waited for:
# what r let through has arrived then. It is not counted by got.
fence()
{
	local from=$b name=fence-ba n

	[ "$1" = b ] && from=$a name=fence-ab
	n=$(rx "${!1}")
	send "$from" "$name" && busywait 5000 rx_above "${!1}" "$n" ||
		echo "    the fence to $1 did not arrive"
	eval "at_$1=\$((at_$1 + 1))"
}

# sent NS NAME TO COUNTER...: send NAME from NS, fence TO, then print
# what TO got and how much each counter grew.
sent()
{
	snap
	send "$1" "$2" || echo "    sending $2 from $1 failed"
	fence "$3"
	echo "$(got "$3") $(grew "${@:4}")"
}

# stateful_firewall: r forwards RoCE only as a stateful firewall would:
# ESTABLISHED, RELATED (to a tracked handshake) or a CM MAD (BTH
# destination QP 1) opening a flow; it counts what it drops (table inet
# fw, chain forward, comment "dropped").
stateful_firewall()
{
	ip netns exec "$r" nft -f - <<-EOT
		table inet fw {
		    chain forward {
		        type filter hook forward priority filter; policy drop;
		        ct state established,related accept
		        udp dport 4791 @th,104,24 1 accept
		        counter comment "dropped"
		    }
		}
	EOT
}

# related_count: RELATED RoCE packets r has forwarded.
related_count()
{
	nft_packets "$r" watch forward
}

# The kernel log since this test began (run_kselftest.sh marks the start
# of each test in it, rxe_e2e.sh its own), or all of it for a test run by
# hand; with "all", since the first test began. Boot is not the tests'
# business.
kmsg_since_start()
{
	dmesg | awk -v all="${1:-}" '
		/rocect-kselftest: start / { if (!all || !seen) n = 0; seen = 1; next }
		{ line[n++] = $0 }
		END { for (i = 0; i < n; i++) print line[i] }'
}

# Kernel messages that mean a test broke the kernel: also the reports of
# the stock kernels' memory-safety net (slub_debug, KFENCE; run-vm).
KERNEL_REPORTS='WARNING:|BUG:|BUG [^ ]+ \(|UBSAN:|Oops|RIP:|Call Trace|kmemleak: .*suspected memory leak|general protection|Poison overwritten|Redzone overwritten|Freepointer corrupt|Object padding overwritten|corruption'
# A program's crash, which the kernel logs as "traps: PROG[PID] general
# protection fault ip:... in LIB" (perftest's ib_read_bw in librdmacm once,
# after a failed connect under loss), is not the kernel's.
USER_TRAP='traps: [^ ]+\[[0-9]+\] general protection fault ip:'
dmesg_clean()
{
	! kmsg_since_start | grep -E -v "$USER_TRAP" |
		grep -E -B 4 -A 30 "$KERNEL_REPORTS"
}

# Print the summary and exit with the kselftest code.
finish()
{
	echo "Tests passed: $nsuccess, failed: $nfail"
	exit $ret
}

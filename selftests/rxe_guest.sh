#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Guest-side helpers of rxe_e2e.sh, sourced before each command it runs
# in guests A, R and B (tools/vm/fleet.sh).
#
#   A (10.0.1.1, fd00:1::1) -- R (.254 / ::fe on both) -- B (10.0.2.1, fd00:2::1)
#
# A and B run Soft-RoCE (rdma_rxe) on eth0; R forwards between eth0 and eth1.

# lib.sh: $ROCECT, busywait, dmesg_clean, nft_roce_ruleset.
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
export PATH=$PATH:/usr/sbin:/sbin

# host_setup N: this guest is the host of subnet N, with rxe0 on eth0.
host_setup()
{
	local n=$1

	ip link set eth0 up &&
	ip addr add "10.0.$n.1/24" dev eth0 &&
	ip addr add "fd00:$n::1/64" dev eth0 nodad &&
	ip route add default via "10.0.$n.254" &&
	ip -6 route add default via "fd00:$n::fe" &&
	modprobe rdma_rxe &&
	rdma link add rxe0 type rxe netdev eth0
}

# router_setup: forward between subnet 1 (eth0) and subnet 2 (eth1).
router_setup()
{
	local i

	# One FIFO per link, long enough for a slow guest's backlog: the
	# default fq_codel lets B's ACKs overtake R's queued CNPs (A then
	# finishes, and stops capturing, before they arrive) and drops from
	# the fattest flow after the enqueue said yes. In a FIFO the CNPs R
	# counts as sent are those A receives, in order. (A kernel without
	# NET_SCHED, the debug one, has only pfifo_fast: FIFOs by priority.)
	for i in 0 1; do
		ip link set "eth$i" up || return 1
		if tc qdisc show dev "eth$i" | grep -q fq_codel; then
			tc qdisc replace dev "eth$i" root pfifo limit 20000 ||
				return 1
		fi
		ip addr add "10.0.$((i + 1)).254/24" dev "eth$i" &&
		ip addr add "fd00:$((i + 1))::fe/64" dev "eth$i" nodad || return 1
	done
	sysctl -qw net.ipv4.ip_forward=1 net.ipv6.conf.all.forwarding=1
}

# qps COMM: this host's QPs opened by program COMM, as rdma res JSON.
qps()
{
	rdma -j res show qp | jq -c --arg c "$1" '[.[] | select(.comm == $c)]'
}

# count_qps COMM TYPE: COMM's QPs of TYPE (RC, UD) that are ready to send,
# RC ones connected to a remote QP.
count_qps()
{
	qps "$1" | jq --arg t "$2" \
		'[.[] | select(.type == $t and .state == "RTS" and
			       (.type != "RC" or .rqpn != null))] | length'
}

has_qps() { [ "$(count_qps "$1" "$2")" -ge "$3" ]; }

# wait_qps COMM TYPE N: until COMM has N such QPs (60 s at most).
wait_qps()
{
	busywait 60000 has_qps "$@" && return 0
	echo "$1 has $(count_qps "$1" "$2") $2 QPs in RTS, not $3" >&2
	return 1
}

has_sent() { [ "$(qps "$1" | jq '[.[] | select(.sq_psn > 0)] | length')" -ge "$2" ]; }

# wait_sent COMM N: until N of COMM's QPs have sent a packet (60 s at most).
wait_sent()
{
	busywait 60000 has_sent "$@"
}

listens()
{
	rdma -j res show cm_id |
		jq -e --arg c "$1" 'any(.[]; .comm == $c and .state == "LISTEN")' \
		>/dev/null
}

# wait_listen COMM: until an RDMA CM ID of program COMM listens (60 s).
wait_listen()
{
	busywait 60000 listens "$1" && return 0
	echo "no RDMA CM listener of $1" >&2
	return 1
}

# wait_tcp_listen PORT: until a TCP socket listens on PORT (60 s): a
# client started before its server would be refused.
wait_tcp_listen()
{
	busywait 60000 eval "ss -Hltn 'sport = :$1' | grep -q ." && return 0
	echo "nothing listens on TCP port $1" >&2
	return 1
}

# links: what a test that lost packets needs to know (counters, queues,
# neighbours, one block per interface; blocked tasks and the kernel log).
links()
{
	local dev

	for dev in $(ls /sys/class/net | grep '^eth'); do
		ip -s -s link show dev "$dev"
		tc -s qdisc show dev "$dev"
		ethtool -S "$dev" | grep -v ': 0$'
	done
	ip neigh show
	grep virtio /proc/interrupts
	nstat -az | grep -Ei 'drop|discard|overflow|prune' | grep -v ' 0 '
	# A stalled queue shows as blocked tasks, softnet squeezes or a
	# driver's TX timeout in the kernel log.
	ps -eo stat,pid,comm,wchan:32 | grep '^D'
	cat /proc/net/softnet_stat
	dmesg | tail -n 20
}

# gid_index ADDR: index of the RoCE v2 GID of IPv4 ADDR on rxe0 port 1.
gid_index()
{
	local dir=/sys/class/infiniband/rxe0/ports/1 f i want

	want=$(printf '0000:0000:0000:0000:0000:ffff:%02x%02x:%02x%02x' \
		${1//./ })
	for f in "$dir"/gids/*; do
		i=${f##*/}
		[ "$(cat "$f")" = "$want" ] &&
		[ "$(cat "$dir/gid_attrs/types/$i" 2>/dev/null)" = "RoCE v2" ] &&
		echo "$i" && return 0
	done
	return 1
}

# pp_qpn FILE: the local QPN that ibv_rc_pingpong printed into FILE (it
# prints it before it exchanges QPNs over TCP); waits up to 60 s.
pp_qpn()
{
	busywait 60000 grep -q 'local address:' "$1" &&
		sed -n 's/.*local address:.*QPN \(0x[0-9a-f]*\),.*/\1/p' "$1"
}

# has_pcap_header FILE: tcpdump writes the 24-byte header once it captures.
has_pcap_header() { [ "$(stat -c %s "$1" 2>/dev/null || echo 0)" -ge 24 ]; }

# capture NAME IFACE FILTER [OPTION...]: tcpdump IFACE into /tmp/NAME.pcap
# in the background (a tmpfs: writing over 9p would make it drop packets);
# returns once it captures.
capture()
{
	local name=$1 iface=$2 filter=$3

	shift 3
	tcpdump -U -B 65536 -ni "$iface" "$@" -w "/tmp/$name.pcap" "$filter" \
		>/dev/null 2>"/tmp/$name.tcpdump" &
	busywait 60000 has_pcap_header "/tmp/$name.pcap"
}

# stop_captures DIR: end every capture and move the files to DIR; fails if
# the kernel dropped packets before tcpdump saw them.
stop_captures()
{
	local f

	pkill -INT -x tcpdump
	while pgrep -x tcpdump >/dev/null; do nap 0.2; done
	for f in /tmp/*.pcap; do
		[ -e "$f" ] && mv "$f" "${f%.pcap}.tcpdump" "$1/"
	done
	! grep -h '[1-9][0-9]* packets dropped by kernel' "$1"/*.tcpdump
}

# freeze PROGRAM: stop PROGRAM's processes, so that its connections stay
# as they are while they are looked at.
freeze()
{
	pkill -STOP -x "$1"
}

# freeze_on PATTERN PROGRAM: read PROGRAM's output; at the first line with
# PATTERN, freeze PROGRAM, then go on reading. For programs that finish
# their work quickly once it starts (ucmatose on 6.12 does 10000 messages
# in well under a second), so that they cannot disconnect before the
# connections have been looked at.
freeze_on()
{
	local line

	while IFS= read -r line; do
		case $line in
		*"$1"*) freeze "$2"; break ;;
		esac
	done
	cat >/dev/null
}

# stop PROGRAM: end PROGRAM (as a signal would end it for a user) and wait.
stop()
{
	pkill -x "$1" || return 0
	pkill -CONT -x "$1"
	busywait 30000 eval "! pgrep -x $1 >/dev/null" || pkill -9 -x "$1"
}

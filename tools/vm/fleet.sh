#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# fleet.sh - drive several run-vm guests from one host script.  Source it:
#
#	source tools/vm/fleet.sh
#	fleet_init DIR
#	vm_boot a -k 6.1.0-56-amd64 -n listen:17001
#	vm_boot b -k 6.1.0-56-amd64 -n connect:17001
#	vm_up a b
#	vm_exec a ip link set eth0 up
#	fleet_stop
#
# Each guest runs tools/vm/agent on DIR, which is exported writable to
# every guest at the same path; "vm_exec NAME CMD..." drops CMD there as a
# command file and waits for its status.

FLEET_TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
FLEET_DIR=
FLEET_TIMEOUT=${FLEET_TIMEOUT:-300}
declare -A FLEET_PID

# fleet_init DIR: an empty mailbox directory for the guests.
fleet_init()
{
	FLEET_DIR=$1
	rm -rf "$FLEET_DIR"
	mkdir -p "$FLEET_DIR"
}

# Kernel arguments for the guests that run Soft-RoCE. rxe holds a
# reference on its QP for every packet it sends until the packet is freed,
# and destroying the QP waits for them: 50 s, then a WARNING (guest B's
# death on 6.1 in CI, a panic with panic_on_warn) and the QP freed under
# them (a later crash without it). virtio-net with TX NAPI frees sent
# packets only when it next cleans its ring, on an idle guest maybe much
# later; without TX NAPI it releases each packet as it queues it.
FLEET_RXE_KARGS=${FLEET_RXE_KARGS-virtio_net.napi_tx=0}

# vm_boot NAME RUN-VM-OPTIONS...: boot guest NAME in the background; its
# console goes to DIR/NAME.console.
vm_boot()
{
	local name=$1

	shift
	"$FLEET_TOP/tools/vm/run-vm" -t "${FLEET_VM_TIMEOUT:-3600}" \
		-o "$FLEET_DIR" "$@" -- \
		"$FLEET_TOP/tools/vm/agent" "$FLEET_DIR" "$name" \
		>"$FLEET_DIR/$name.console" 2>&1 &
	FLEET_PID[$name]=$!
	echo 0 >"$FLEET_DIR/$name.seq"
}

# next_seq NAME: the number of guest NAME's next command.  The counter is
# a file, so that subshells ($(...), pipelines) take numbers too.
next_seq()
{
	local n lock

	exec {lock}>>"$FLEET_DIR/$1.seq.lock"
	flock "$lock"
	read -r n <"$FLEET_DIR/$1.seq"
	echo $((n + 1)) >"$FLEET_DIR/$1.seq"
	exec {lock}>&-
	echo "$n"
}

# vm_alive NAME: is guest NAME's run-vm still running?
vm_alive()
{
	kill -0 "${FLEET_PID[$1]}" 2>/dev/null
}

# The kernel's last words in a console: a panic, an oops, a BUG or a
# sanitizer's report, with the lines after it.
FLEET_DEATH='Kernel panic|PANIC|BUG|Oops|general protection|KASAN|KFENCE|WARNING:|Poison overwritten|Redzone overwritten|corruption'

vm_died()
{
	local why

	if vm_alive "$1"; then
		echo "fleet: guest $1 did not answer in time; its console:" >&2
		tail -n 20 "$FLEET_DIR/$1.console" >&2
		return
	fi
	why=$(grep -E -m 1 -A 12 "$FLEET_DEATH" "$FLEET_DIR/$1.console")
	[ -n "$why" ] || why=$(tail -n 20 "$FLEET_DIR/$1.console")
	echo "fleet: guest $1 is gone; its console:" >&2
	echo "$why" >&2
	# Nothing the run does after this can pass: tell the script once
	# (fleet_on_death, if it defines one), from whatever subshell.
	if [ ! -e "$FLEET_DIR/$1.dead" ]; then
		echo "$why" >"$FLEET_DIR/$1.dead"
		declare -F fleet_on_death >/dev/null && fleet_on_death "$1"
	fi
}

# fleet_dead: the guests that died, one a line; fails if none did.
fleet_dead()
{
	local f found=1

	for f in "$FLEET_DIR"/*.dead; do
		[ -e "$f" ] || continue
		basename "$f" .dead
		found=0
	done
	return $found
}

# vm_up NAME...: wait until every named guest's agent runs.
vm_up()
{
	local name deadline=$((SECONDS + FLEET_TIMEOUT))

	for name in "$@"; do
		while [ ! -e "$FLEET_DIR/$name.up" ]; do
			if ! vm_alive "$name" || ((SECONDS > deadline)); then
				vm_died "$name"
				return 1
			fi
			sleep 0.2
		done
	done
}

# vm_exec NAME CMD...: run CMD (joined by spaces, shell syntax) in guest NAME,
# in the caller's directory; print its output, return its status.  The
# timeout, $FLEET_TIMEOUT seconds, returns 124.
vm_exec()
{
	local name=$1 n base deadline rc

	shift
	n=$(next_seq "$name")
	base=$FLEET_DIR/$name.$n
	printf 'cd %q || exit 125\n%s\n' "$PWD" "$*" >"$base.cmd.tmp"
	mv "$base.cmd.tmp" "$base.cmd"
	deadline=$((SECONDS + FLEET_TIMEOUT))
	while [ ! -e "$base.rc" ]; do
		if ! vm_alive "$name"; then
			vm_died "$name"
			return 125
		fi
		if ((SECONDS > deadline)); then
			echo "fleet: '$*' on $name timed out" >&2
			return 124
		fi
		sleep 0.1
	done
	cat "$base.out"
	read -r rc <"$base.rc"
	return "$rc"
}

# fleet_stop: end every agent, wait for the guests to power off.
fleet_stop()
{
	local name deadline=$((SECONDS + 60))

	[ -n "$FLEET_DIR" ] || return 0
	: >"$FLEET_DIR/stop"
	for name in "${!FLEET_PID[@]}"; do
		while vm_alive "$name" && ((SECONDS < deadline)); do
			sleep 0.2
		done
		kill "${FLEET_PID[$name]}" 2>/dev/null
		wait "${FLEET_PID[$name]}" 2>/dev/null
	done
	FLEET_PID=()
}

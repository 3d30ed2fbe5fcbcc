#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# rxe_fleet.sh - the host side of the Soft-RoCE tests (rxe_e2e.sh,
# rxe_soak.sh): host A and host B behind router R, each a guest driven
# through tools/vm/fleet.sh, with rxe_guest.sh loaded for every command.
# Source it after lib.sh and fleet.sh.
#
#	A4 10.0.1.1 -- R (helper roce, forwarding) -- B4 10.0.2.1

GUEST="source $SELFTESTS_DIR/rxe_guest.sh"

# A/R/B COMMAND...: shell COMMAND in that guest, with rxe_guest.sh loaded.
A() { vm_exec a "$GUEST; $*"; }
R() { vm_exec r "$GUEST; $*"; }
B() { vm_exec b "$GUEST; $*"; }

# rxe_fleet_boot TEST DIR KVER PORT KO: boot A, R and B on kernel KVER,
# their mailboxes in DIR, linked over PORT (A-R) and PORT+1 (R-B) on
# 127.0.0.1, module KO on R and B; then rxe0 on A and B, R forwarding.
# Their kernel logs start at a line naming TEST (dmesg_clean): boot is
# not the test's business (the debug kernel prints a trace at 30 s).
rxe_fleet_boot()
{
	local test=$1 dir=$2 kver=$3 port=$4 ko=$5

	fleet_init "$dir"
	# One CPU each for the hosts: on the debug kernel, where guests get
	# two, the router alone keeps both (six emulated CPUs on a 2-core
	# machine crawl).
	vm_boot a -k "$kver" --smp 1 -n "listen:$port" \
		-a "$FLEET_RXE_KARGS"
	vm_boot r -k "$kver" -n "connect:$port" -n "listen:$((port + 1))" \
		-M "$ko"
	vm_boot b -k "$kver" --smp 1 -n "connect:$((port + 1))" -M "$ko" \
		-a "$FLEET_RXE_KARGS"
	vm_up a r b || return 1
	# QEMU sometimes stops consuming a transmit ring for good
	# (tools/vm/link-watchdog): reset such a ring instead of losing the link.
	local g
	for g in A R B; do
		"$g" "setsid $TOP/tools/vm/link-watchdog </dev/null >/dev/null 2>&1 &" ||
			return 1
	done
	A "echo 'rocect-kselftest: start $test' >/dev/kmsg" &&
		R "echo 'rocect-kselftest: start $test' >/dev/kmsg" &&
		B "echo 'rocect-kselftest: start $test' >/dev/kmsg" &&
		A host_setup 1 && B host_setup 2 && R router_setup
}

#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# `make demo`: boot kernel $1 in a QEMU guest and show nf_conntrack_roce
# tracking an RDMA CM handshake through a router, then decode the router's
# capture with tshark on the host.

set -eu
TOP=$(cd "$(dirname "$0")/.." && pwd)
BUILD=${BUILD:-$TOP/build}
kver=${1:-$("$TOP/scripts/kernels.sh" | tail -n1)}
out=$BUILD/demo
rm -rf "$out"
mkdir -p "$out"

echo "Booting Debian kernel $kver in QEMU (software emulation: about a minute)..."
"$TOP/tools/vm/run-vm" -k "$kver" -t 900 -o "$out" -e BUILD="$BUILD" \
	-M "$BUILD/kmod/$kver/nf_conntrack_roce.ko" \
	-- "$TOP/scripts/demo-guest.sh"

printf '\n== The same packets as tshark decodes them (capture on R):\n'
tshark -r "$out/router.pcap" -o 'udp.try_heuristic_first:TRUE' \
	-T fields -E separator=' ' \
	-e ip.src -e ip.dst -e infiniband.mad.attributeid \
	-e infiniband.cm.req.localqpn -e infiniband.cm.rep.localqpn \
	2>/dev/null |
	awk '{
		kind = $3
		if ($3 == "0x0010") kind = "REQ"
		if ($3 == "0x0013") kind = "REP"
		if ($3 == "0x0014") kind = "RTU"
		qpn = $4 $5
		print "  " $1 " -> " $2 "  CM " kind (qpn != "" ? "  local QPN " qpn : "")
	}'
printf '\nNext: real Soft-RoCE traffic end to end, and benchmarks (README.md).\n'

#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# `make demo`: real RDMA traffic through a router that tracks it. Three
# QEMU guests on kernel $1: hosts A and B run Soft-RoCE (rdma_rxe) and
# rdma-core's tools, router R between them runs nf_conntrack_roce. This is
# selftests/rxe_e2e.sh in its --demo mode: the story, the tables it checks,
# and a check mark for each thing it verifies.

set -eu
TOP=$(cd "$(dirname "$0")/.." && pwd)
BUILD=${BUILD:-$TOP/build}
export BUILD
kver=${1:-$("$TOP/scripts/kernels.sh" | tail -n1)}

cat <<EOT
Booting three QEMU guests on Debian kernel $kver (software emulation, about
four minutes in all on two cores):

  host A (10.0.1.1, fd00:1::1) -- router R -- host B (10.0.2.1, fd00:2::1)
  Soft-RoCE + rdma-core         helper roce      Soft-RoCE + rdma-core

The RDMA stacks are the kernel's own (IB CM, rdma_rxe); the traffic comes
from rping, ucmatose, udaddy, ib_send_bw and ibv_rc_pingpong.
EOT
exec "$TOP/selftests/rxe_e2e.sh" --demo -k "$kver" -p 17400 -o "$BUILD/demo"

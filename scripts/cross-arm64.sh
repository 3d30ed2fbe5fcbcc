#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The module for arm64, the Arm cores of a DPU: cross-built with -Werror
# against Debian's 6.1 source (linux-source-6.1) configured for arm64
# (defconfig and the options the module uses) and prepared with
# modules_prepare, then checked with sparse. Built, not run: there is no
# arm64 guest here, and without a whole kernel build modpost cannot
# resolve the kernel's symbols (it warns; that is expected). TAP on stdout.
#
#   cross-arm64.sh        (BUILD: where the prepared tree is kept)

set -u
# Kbuild's own output ("CHECK file") is counted below: not silenced by a
# calling make -s.
unset MAKEFLAGS MFLAGS MAKELEVEL
TOP=$(cd "$(dirname "$0")/.." && pwd)
BUILD=${BUILD:-$TOP/build}
dir=$BUILD/cross-arm64
src=$dir/linux-source-6.1
mod=$dir/mod
kmake=(make -C "$src" ARCH=arm64 CROSS_COMPILE=aarch64-linux-gnu-)
source "$TOP/scripts/tap.sh"

# The tree, prepared once per source tarball (its name and time stamp).
prepare()
{
	local tarball stamp

	tarball=$(ls /usr/src/linux-source-6.1.tar.* 2>/dev/null | head -n1)
	[ -n "$tarball" ] || { echo "# no /usr/src/linux-source-6.1.tar.*"; return 1; }
	command -v aarch64-linux-gnu-gcc >/dev/null ||
		{ echo "# no aarch64-linux-gnu-gcc (make deps)"; return 1; }
	stamp="$tarball $(stat -c %Y "$tarball")"
	[ "$(cat "$src/.rocect-prepared" 2>/dev/null)" = "$stamp" ] && return 0
	rm -rf "$dir" && mkdir -p "$dir" &&
		tar -C "$dir" -xf "$tarball" &&
		"${kmake[@]}" -s defconfig &&
		"$src/scripts/config" --file "$src/.config" \
			-m NF_CONNTRACK -e NF_CONNTRACK_ZONES -m IPV6 \
			-e NET_L3_MASTER_DEV -m NET_VRF -m BRIDGE &&
		"${kmake[@]}" -s olddefconfig &&
		"${kmake[@]}" -s -j"$(nproc)" modules_prepare &&
		echo "$stamp" >"$src/.rocect-prepared"
}

out=$(prepare 2>&1)
tap $? "arm64 tree: Debian linux-source-6.1, defconfig with netfilter, modules_prepare"
[ "$fail" -eq 0 ] || { echo "$out" | tail -n 20 | sed 's/^/# /'; echo "1..$n"; exit 1; }

mkdir -p "$mod"
cp -rsf "$TOP/Kbuild" "$TOP/VERSION" "$TOP/kernel" "$TOP/uapi" "$mod/"
version=$("$TOP/scripts/version.sh")
out=$("${kmake[@]}" M="$mod" ROCECT_WERROR=y ROCECT_VERSION="$version" \
	modules 2>&1)
tap $? "nf_conntrack_roce.ko cross-builds for arm64 with -Werror"
[ "$fail" -eq 0 ] || echo "$out" | grep -v 'modpost: ".*" .* undefined' |
	tail -n 30 | sed 's/^/# /'

file -b "$mod/nf_conntrack_roce.ko" 2>/dev/null | grep -q 'ARM aarch64'
tap $? "... an AArch64 object"

# C=2 checks every file. arm64's cmpxchg() casts its arguments to every
# size, so sparse warns in that header for any constant above 0xff that
# the code compares and exchanges (flags such as ROCECT_FLOW_ADOPTED): a
# false positive of the arch header, filtered; any other warning counts.
out=$("${kmake[@]}" M="$mod" C=2 ROCECT_WERROR=y ROCECT_VERSION="$version" \
	modules 2>&1)
rc=$?
checked=$(grep -c '^ *CHECK ' <<<"$out")
warn=$(grep -E '(warning|error):' <<<"$out" |
	grep -v '^\./arch/arm64/include/asm/cmpxchg\.h:.*cast truncates bits from constant value')
[ "$rc" -eq 0 ] && [ -z "$warn" ] && [ "$checked" -gt 0 ]
tap $? "sparse on arm64: $checked files checked, no warnings in ours"
[ -n "$warn" ] && echo "$warn" | sed 's/^/# /'
echo "1..$n"
exit $fail

#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Print the installed kernels that have both an image and headers, oldest
# first: the kernels rocect can be built for and booted in a guest. The
# debug kernel of scripts/debug-kernel.sh (-rocect-debug) is left out,
# unless --debug asks for it alone.
for d in /lib/modules/*/; do
	v=$(basename "$d")
	[ -e "$d/build/Makefile" ] && [ -e "/boot/vmlinuz-$v" ] || continue
	case $v in
	*-rocect-debug) [ "${1:-}" = --debug ] && echo "$v" ;;
	*) [ "${1:-}" = --debug ] || echo "$v" ;;
	esac
done | sort -V

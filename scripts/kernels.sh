#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Print the installed kernels that have both an image and headers, oldest
# first: the kernels rocect can be built for and booted in a guest.
for d in /lib/modules/*/; do
	v=$(basename "$d")
	[ -e "$d/build/Makefile" ] && [ -e "/boot/vmlinuz-$v" ] && echo "$v"
done | sort -V

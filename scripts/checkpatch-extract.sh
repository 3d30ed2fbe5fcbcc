#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Extract checkpatch.pl and the data files it reads from Debian's linux-source
# tarball into $ROCECT_CHECKPATCH_DIR (default /var/cache/rocect/checkpatch),
# once.

set -euo pipefail

dest=${ROCECT_CHECKPATCH_DIR:-/var/cache/rocect/checkpatch}
[ -x "$dest/scripts/checkpatch.pl" ] && exit 0

tarball=$(ls /usr/src/linux-source-*.tar.xz 2>/dev/null | sort -V | tail -n1)
if [ -z "$tarball" ]; then
	echo "checkpatch-extract: no /usr/src/linux-source-*.tar.xz (install linux-source)" >&2
	exit 1
fi
top=$(basename "$tarball" .tar.xz)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
tar -C "$tmp" -xJf "$tarball" \
	"$top/scripts/checkpatch.pl" \
	"$top/scripts/spelling.txt" \
	"$top/scripts/const_structs.checkpatch"
mkdir -p "$(dirname "$dest")"
rm -rf "$dest"
mv "$tmp/$top" "$dest"
echo "checkpatch-extract: checkpatch.pl from $(basename "$tarball") in $dest" >&2

#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Build the Debian packages rocect and rocect-dkms from a copy of this tree
# (the files git knows of, as they are in the work tree) in $BUILD/deb, and
# check them with lintian. The Debian version is the tree's version
# (scripts/version.sh) with "+" for "-": 0.4-12-gc54840f becomes
# 0.4+12+gc54840f, which sorts after its parent commit's.
# Prints the paths of the .deb files.
#
#   deb.sh

set -euo pipefail
TOP=$(cd "$(dirname "$0")/.." && pwd)
BUILD=${BUILD:-$TOP/build}
version=$("$TOP/scripts/version.sh" | tr - +)
out=$BUILD/deb
src=$out/rocect-$version

rm -rf "$out"
mkdir -p "$src"
git -C "$TOP" ls-files -z --cached --others --exclude-standard |
	(cd "$TOP" && xargs -0 cp --parents -t "$src" 2>/dev/null || true)
echo "$version" >"$src/VERSION"
# The newest changelog entry carries the version built.
sed -i "1s/^rocect ([^)]*)/rocect ($version)/" "$src/debian/changelog"
(cd "$src" && dpkg-buildpackage -us -uc -b) >"$out/build.log" 2>&1 || {
	tail -n 40 "$out/build.log" >&2
	exit 1
}
lintian --fail-on warning,error --suppress-tags initial-upload-closes-no-bugs \
	"$out"/rocect_"$version"_*.changes >&2
ls "$out"/*.deb

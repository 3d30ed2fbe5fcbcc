#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Build and install a debug kernel for the guests: Debian's own kernel
# source (linux-source-6.1), allnoconfig plus tools/vm/debug.config (KASAN,
# lockdep, RCU checking, kmemleak, UBSAN, debug objects). The image goes to
# /boot/vmlinuz-VER and the modules to /lib/modules/VER, with "build"
# pointing at the tree, so that run-vm boots it and Kbuild builds against
# it like any installed kernel. VER ends in -rocect-debug.
#
# The build is cached by a hash of the source package version and the
# fragment's options (comments aside): a second run on the same machine only checks
# that the kernel is installed. A tree built from the same source version
# under another hash is taken over, so that a changed fragment rebuilds
# only what it changes. Prints the kernel release on stdout.
#
#   debug-kernel.sh [--print]    (--print: the release if built, else fail)

set -euo pipefail
TOP=$(cd "$(dirname "$0")/.." && pwd)
CACHE=${ROCECT_DEBUG_CACHE:-/var/cache/rocect/debug-kernel}
FRAGMENT=$TOP/tools/vm/debug.config
TARBALL=$(ls /usr/src/linux-source-6.1.tar.* 2>/dev/null | head -n1)

log() { echo "debug-kernel: $*" >&2; }
die() { log "$*"; exit 1; }

[ -n "$TARBALL" ] || die "no /usr/src/linux-source-6.1.tar.* (make deps)"
version=$(dpkg-query -W -f='${Version}' linux-source-6.1)
key=$( { echo "$version"; grep '^CONFIG_' "$FRAGMENT"; } | sha256sum | cut -c1-16)
dir=$CACHE/$key
src=$dir/src

installed()
{
	local v

	[ -f "$dir/release" ] && [ -f "$src/Makefile" ] || return 1
	v=$(cat "$dir/release")
	[ -f "/boot/vmlinuz-$v" ] && [ -f "/lib/modules/$v/modules.dep" ] ||
		return 1
	# The tree may have moved (a cache taken over): point at it again.
	[ "$(readlink "/lib/modules/$v/build")" = "$src" ] ||
		ln -sfn "$src" "/lib/modules/$v/build"
	echo "$v"
}

if [ "${1:-}" = "--print" ]; then
	installed
	exit
fi
# One build at a time: a second caller waits for the first and finds its
# kernel.
mkdir -p "$CACHE"
exec 9>"$CACHE/.lock"
flock 9
if installed; then
	exit 0
fi

# Every option of the fragment must come out as asked: a typo or a missing
# dependency would otherwise silently drop a checker.
check_config()
{
	local line opt want got bad=0

	while IFS= read -r line; do
		case $line in CONFIG_*=*) ;; *) continue ;; esac
		opt=${line%%=*}
		want=${line#*=}
		got=$(sed -n "s/^$opt=//p" "$src/.config")
		[ "$want" = n ] && [ -z "$got" ] && continue
		if [ "$got" != "$want" ]; then
			log "$opt: wanted $want, got ${got:-unset}"
			bad=1
		fi
	done <"$FRAGMENT"
	return $bad
}

start=$(date +%s)
mkdir -p "$dir"
rm -f "$dir/release"
old=$(grep -lx -- "$version" "$CACHE"/*/version 2>/dev/null |
	grep -vx -- "$dir/version" | head -n1 || true)
if [ -f "$src/Makefile" ] &&
   [ "$(cat "$dir/version" 2>/dev/null)" = "$version" ]; then
	log "resuming the interrupted build in $src"
elif [ -n "$old" ] && [ -d "$(dirname "$old")/src" ]; then
	log "taking over the tree of $(dirname "$old") (same source version)"
	rm -rf "$src"
	mv "$(dirname "$old")/src" "$src"
	rm -rf "$(dirname "$old")"
else
	rm -rf "$src"
	mkdir -p "$src"
	log "unpacking $(basename "$TARBALL") ($version)"
	tar -xf "$TARBALL" -C "$src" --strip-components=1
fi
echo "$version" >"$dir/version"
log "configuring: allnoconfig + $(basename "$FRAGMENT")"
make -s -C "$src" allnoconfig >/dev/null
"$src/scripts/kconfig/merge_config.sh" -m -O "$src" "$src/.config" \
	"$FRAGMENT" >/dev/null
make -s -C "$src" olddefconfig >/dev/null
check_config || die "the configuration lacks options of $FRAGMENT"
log "building with $(nproc) jobs (takes a while on few cores)"
make -s -C "$src" -j"$(nproc)" bzImage modules >"$dir/build.log" 2>&1 ||
	{ tail -n 40 "$dir/build.log" >&2; die "build failed: $dir/build.log"; }
release=$(make -s -C "$src" kernelrelease)
cp "$src/arch/x86/boot/bzImage" "/boot/vmlinuz-$release"
make -s -C "$src" modules_install INSTALL_MOD_PATH=/ >/dev/null
ln -sfn "$src" "/lib/modules/$release/build"
depmod -a "$release"
echo "$release" >"$dir/release"
log "built and installed $release in $(($(date +%s) - start)) s"
echo "$release"

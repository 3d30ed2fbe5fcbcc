#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Install everything rocect's build, tests and demo need, from Debian's
# packages only. Idempotent: a second run installs nothing and exits quickly.
#
# The 6.12 kernel comes from bookworm-backports. The backports entry reuses the
# URI of the Debian archive the machine is already configured with, so no host
# name is written here.

set -euo pipefail

PKGS=(
	build-essential make gcc clang llvm sparse pkg-config bc bison flex
	libelf-dev libssl-dev dwarves kmod xz-utils
	libmnl-dev zlib1g-dev libjson-c-dev
	qemu-system-x86 busybox-static cpio
	nftables conntrack conntrackd iproute2 iptables iputils-ping tcpdump tshark
	python3 python3-scapy python3-yaml python3-prometheus-client
	rdma-core ibverbs-utils rdmacm-utils perftest linux-perf valgrind
	linux-source gcc-aarch64-linux-gnu file
	procps kmod psmisc util-linux jq ethtool dkms
	debhelper dh-dkms lintian fakeroot dpkg-dev systemd
)

SUDO=
[ "$(id -u)" -eq 0 ] || SUDO=sudo
export DEBIAN_FRONTEND=noninteractive

log() { echo "deps: $*" >&2; }

# The URI of the configured Debian main archive (deb822 or one-line format).
debian_uri()
{
	local f
	for f in /etc/apt/sources.list.d/*.sources; do
		[ -e "$f" ] || continue
		awk '
			/^URIs:/ { uri = $2 }
			/^Suites:/ { for (i = 2; i <= NF; i++) if ($i == "bookworm") s = 1 }
			/^$/ { if (s && uri) { print uri; exit } uri = ""; s = 0 }
			END { if (s && uri) print uri }
		' "$f" | head -n1
	done
	if [ -e /etc/apt/sources.list ]; then
		awk '$1 == "deb" && $3 == "bookworm" { print $2; exit }' /etc/apt/sources.list
	fi
}

enable_backports()
{
	local list=/etc/apt/sources.list.d/rocect-backports.sources uri
	if grep -rqs 'bookworm-backports' /etc/apt/sources.list /etc/apt/sources.list.d/; then
		return 1
	fi
	uri=$(debian_uri | head -n1)
	if [ -z "$uri" ]; then
		log "cannot find the Debian archive URI to reuse for bookworm-backports"
		exit 1
	fi
	log "enabling bookworm-backports from $uri"
	$SUDO tee "$list" >/dev/null <<-EOT
		Types: deb
		URIs: $uri
		Suites: bookworm-backports
		Components: main
		Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
	EOT
	return 0
}

missing_pkgs()
{
	local p
	for p in "${PKGS[@]}"; do
		dpkg-query -W -f='${Status}\n' "$p" 2>/dev/null |
			grep -q '^install ok installed' || echo "$p"
	done
}

# Is a kernel image with usable headers of this version prefix installed?
have_kernel()
{
	local d
	for d in /lib/modules/*/; do
		[ -e "$d/build/include/generated/utsrelease.h" ] || continue
		ls /boot/vmlinuz-"$(basename "$d")" >/dev/null 2>&1 || continue
		grep -q "\"$1" "$d/build/include/generated/utsrelease.h" && return 0
	done
	return 1
}

updated=0
apt_update()
{
	[ "$updated" -eq 1 ] && return
	$SUDO apt-get update -q >/dev/null
	updated=1
}

if enable_backports; then
	apt_update
fi

mapfile -t missing < <(missing_pkgs)
if [ "${#missing[@]}" -gt 0 ]; then
	log "installing: ${missing[*]}"
	apt_update
	$SUDO apt-get install -y -q --no-install-recommends "${missing[@]}" >/dev/null
fi

# Both kernels are installed by their versioned package names, so that neither
# is an automatic dependency that a later upgrade or autoremove takes away.
kernel_pkgs()
{
	apt-cache depends "$@" linux-image-amd64 linux-headers-amd64 |
		awk '$1 == "Depends:" { print $2 }'
}

if ! have_kernel '6\.1\.' || ! have_kernel '6\.12\.'; then
	apt_update
	mapfile -t kpkgs < <(kernel_pkgs; kernel_pkgs -t bookworm-backports)
	log "installing kernels and headers: ${kpkgs[*]}"
	$SUDO apt-get install -y -q --no-install-recommends "${kpkgs[@]}" >/dev/null
fi

# checkpatch.pl and its data files ship inside the linux-source tarball.
"$(dirname "$0")/checkpatch-extract.sh"

log "all dependencies present"

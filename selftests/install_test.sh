#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# `make install` and `make dkms-install` as an operator runs them, staged so
# that the host is not touched: install into a DESTDIR and uninstall again;
# DKMS with its trees in a scratch directory, for every installed kernel
# (add, build, install; modinfo gives the version; the build had no
# -Werror), then removed. TAP on stdout.
#
#   install_test.sh      (run from `make check`; needs root for nothing)

set -u
TOP=$(cd "$(dirname "$0")/.." && pwd)
BUILD=${BUILD:-$TOP/build}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
source "$TOP/scripts/tap.sh"
mapfile -t kvers < <("$TOP/scripts/kernels.sh")
version=$("$TOP/scripts/version.sh")

mk()
{
	make -s -C "$TOP" BUILD="$BUILD" "$@" >"$tmp/make.log" 2>&1 ||
		{ sed 's/^/# /' "$tmp/make.log"; return 1; }
}

# make install into a DESTDIR, for the newest kernel
kver=${kvers[-1]}
dest=$tmp/dest
mk install DESTDIR="$dest" PREFIX=/usr/local KVER="$kver"
tap $? "make install DESTDIR=... KVER=$kver"
want="lib/modules/$kver/updates/nf_conntrack_roce.ko
usr/local/sbin/rocect
usr/local/share/doc/rocect/LICENSE
usr/local/share/doc/rocect/README.md
usr/local/share/doc/rocect/admin-guide.rst
usr/local/share/doc/rocect/examples/endpoint.nft
usr/local/share/doc/rocect/examples/modprobe-rocect.conf
usr/local/share/doc/rocect/examples/modules-load-rocect.conf
usr/local/share/doc/rocect/examples/rocect.iptables
usr/local/share/doc/rocect/examples/rocect.service
usr/local/share/doc/rocect/examples/rocect-metrics.service
usr/local/share/doc/rocect/examples/rocect-metrics.timer
usr/local/share/doc/rocect/examples/rocect-metrics@.service
usr/local/share/doc/rocect/examples/rocect-metrics@.timer
usr/local/share/doc/rocect/examples/router.nft
usr/local/share/doc/rocect/examples/router-flowtable.nft
usr/local/share/doc/rocect/examples/router-act-ct.tc
usr/local/share/ynl/specs/rocect.yaml
usr/local/lib/systemd/system/rocect.service
usr/local/lib/systemd/system/rocect@.service
usr/local/share/doc/rocect/examples/rocect@.service
usr/local/share/man/man8/rocect.8
usr/local/share/bash-completion/completions/rocect"
missing=$(for f in $want; do [ -f "$dest/$f" ] || echo "$f"; done)
[ -z "$missing" ]
tap $? "module, rocect, man page, units, examples, docs and YNL spec installed${missing:+ (missing: $missing)}"
grep -q '^ExecStart=/usr/local/sbin/rocect restore ' \
	"$dest/usr/local/lib/systemd/system/rocect.service"
tap $? "the installed unit runs rocect where PREFIX put it"
got=$(modinfo -F version "$dest/lib/modules/$kver/updates/nf_conntrack_roce.ko")
[ "$got" = "$version" ]
tap $? "installed module's version is $version (got '$got')"
got=$("$dest/usr/local/sbin/rocect" -V | head -n1)
[ "$got" = "rocect $version" ]
tap $? "installed rocect -V says rocect $version (got '$got')"

# The installed bash completion offers what rocect's own help lists.
# complete WORD...: what completing the last word offers, sorted
complete_words()
{
	bash -c 'source "$1"; shift; COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1))
		_rocect; printf "%s\n" "${COMPREPLY[@]}" | sort | tr "\n" " "' \
		_ "$dest/usr/local/share/bash-completion/completions/rocect" "$@"
}
R=$dest/usr/local/sbin/rocect
want=$("$R" config help 2>&1 | grep -oE \
	'[a-z][a-z-]+ (N|SECONDS|US|PER_SECOND|\{|[0-9]+-[0-9]+)' | cut -d' ' -f1 |
	sort | tr '\n' ' ')
got=$(complete_words rocect config set "")
[ -n "$want" ] && [ "$got" = "$want" ]
tap $? "completion: config set offers the settings of 'rocect config help'"
want="$("$R" qp help 2>&1 | grep -oE 'qp [a-z]+' | cut -d' ' -f2 | sort -u |
	tr '\n' ' ')help "
got=$(complete_words rocect -j qp "" | tr ' ' '\n' | grep . | sort -u | tr '\n' ' ')
want=$(tr ' ' '\n' <<<"$want" | grep . | sort -u | tr '\n' ' ')
[ "$got" = "$want" ]
tap $? "completion: qp offers the commands of 'rocect qp help' (got '$got')"
want=$("$R" qp help 2>&1 | grep -oE 'origin [a-z|]+' | head -n1 | cut -d' ' -f2 |
	tr '|' '\n' | sort | tr '\n' ' ')
got=$(complete_words rocect qp show origin "")
[ "$got" = "$want" ]
tap $? "completion: origin offers the origins of 'rocect qp help' (got '$got')"
for s in check-iface check-sport check-cnp check-psn check-qkey rp-check learn; do
	got=$(complete_words rocect config set "$s" "")
	[ "$got" = "off on " ] || break
done
tap $? "completion: each on/off setting offers on and off (got '$got' after $s)"

mk uninstall DESTDIR="$dest" PREFIX=/usr/local KVER="$kver"
left=$(find "$dest" -type f)
[ -z "$left" ]
tap $? "make uninstall removes every installed file${left:+ (left: $left)}"

# DKMS, with every tree in the scratch directory
trees="--dkmstree $tmp/dkms --sourcetree $tmp/src --installtree $tmp/modules"
mkdir -p "$tmp/dkms" "$tmp/src"
for v in "${kvers[@]}"; do
	mkdir -p "$tmp/modules/$v"
done
mk dkms-install DKMS_SRCTREE="$tmp/src" DKMS_FLAGS="$trees"
tap $? "make dkms-install: dkms add, build and install for ${kvers[*]}"
for v in "${kvers[@]}"; do
	ko=$(find "$tmp/modules/$v" -name "nf_conntrack_roce.ko*" 2>/dev/null | head -n1)
	got=$([ -n "$ko" ] && modinfo -F version "$ko")
	[ "$got" = "$version" ]
	tap $? "DKMS module for $v installed, version $version (got '$got')"
done
# dkms cleans its build area: build the copy it built from once more, as
# its MAKE line does, to see the compiler's flags.
cp -r "$tmp/src/rocect-$version" "$tmp/again"
make -C "/lib/modules/$kver/build" M="$tmp/again" V=1 modules >"$tmp/again.log" 2>&1 &&
	grep -q 'DROCECT_VERSION=.*'"$version" "$tmp/again.log" &&
	! grep -E -q -- '-Werror( |$)' "$tmp/again.log"
tap $? "the DKMS sources build as dkms.conf says, with the version, without -Werror"
# shellcheck disable=SC2086 # one word per option
status=$(dkms $trees status rocect 2>/dev/null)
[ "$(grep -c ': installed' <<<"$status")" -eq "${#kvers[@]}" ]
tap $? "dkms status: installed for each kernel"
mk dkms-uninstall DKMS_SRCTREE="$tmp/src" DKMS_FLAGS="$trees"
left=$(find "$tmp/modules" -name '*.ko*'; ls "$tmp/src")
[ -z "$left" ]
tap $? "make dkms-uninstall removes the modules and the sources"
echo "1..$n"
exit $fail

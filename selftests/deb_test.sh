#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The Debian packages as an operator uses them, on this machine: `make deb`
# builds rocect and rocect-dkms and lintian passes them; `dpkg -i` installs
# both and DKMS builds the module for every installed kernel; in a guest of
# each kernel the installed module loads and the installed rocect talks to
# it; the installed units are valid; the package of the previous release
# upgrades to this one with the saved configuration and the enabled unit
# kept; `dpkg --purge` leaves nothing behind.
# Skipped where a rocect package is installed already (an operator's own:
# this test would remove it). Needs root (dpkg). TAP on stdout.
#
#   deb_test.sh      (run from `make check`)

set -u
TOP=$(cd "$(dirname "$0")/.." && pwd)
export BUILD=${BUILD:-$TOP/build}
source "$TOP/scripts/tap.sh"
mapfile -t kvers < <("$TOP/scripts/kernels.sh")
pkgs=(rocect rocect-dkms)
log=$BUILD/deb-test
rm -rf "$log"
mkdir -p "$log"

installed() { dpkg-query -W -f='${Status}\n' "$1" 2>/dev/null | grep -q ' installed$'; }
for p in "${pkgs[@]}"; do
	if dpkg-query -W "$p" >/dev/null 2>&1; then
		echo "1..0 # SKIP package $p is installed on this machine"
		exit 0
	fi
done
[ "$(id -u)" -eq 0 ] || { echo "1..0 # SKIP needs root (dpkg -i)"; exit 0; }
purge() { dpkg --purge "${pkgs[@]}" >"$log/purge.log" 2>&1; }
trap purge EXIT

debs=$("$TOP/scripts/deb.sh" 2>"$log/deb.log")
tap $? "make deb: rocect and rocect-dkms built, lintian passes" ||
	sed 's/^/# /' "$log/deb.log"
version=$("$TOP/scripts/version.sh" | tr - +)
# apt must see the next commit's package as an upgrade.
if parent=$("$TOP/scripts/version.sh" HEAD~1 2>/dev/null | tr - +) &&
	head=$("$TOP/scripts/version.sh" HEAD | tr - +) && [ -n "$parent" ]; then
	dpkg --compare-versions "$parent" lt "$head" &&
		dpkg --compare-versions "$head" le "$version"
	tap $? "package versions sort with the history: $parent < $head <= $version"
fi
mapfile -t debs < <(grep -v dbgsym <<<"$debs")

# The upgrade an operator of the previous release makes: its last package
# (the commit before VERSION last changed, built from a worktree), with
# /etc/rocect/saved as its rocect save wrote it (QPNs in hex) and
# rocect.service enabled; the new packages go over it, and the guests
# below restore the old file with the new rocect. The tool's package only:
# the module's comes with the new one.
saved=/etc/rocect/saved
old_saved="config set max-qps 4000 idle-timeout 77 unknown-qp drop
qp add src 10.0.1.1 dst 10.0.2.1 dqpn 0x000017 sqpn 0x00002a
qp add zone 7 src fd00:1::1 dst fd00:2::1 dqpn 0xabcdef sqpn 0x000002"
upgrade=
prev=$(git -C "$TOP" log -1 --format=%H -- VERSION 2>/dev/null)
if [ -e "$saved" ]; then
	echo "# upgrade: skipped, $saved exists on this machine"
elif [ -z "$prev" ] || ! git -C "$TOP" rev-parse -q --verify "$prev~1" >/dev/null; then
	echo "# upgrade: skipped, no history before VERSION's last change"
else
	rm -rf "$log/old"
	git -C "$TOP" worktree add -q --detach "$log/old" "$prev~1" &&
		old_deb=$(BUILD=$log/old-build "$log/old/scripts/deb.sh" \
			  2>"$log/old-deb.log" | grep '/rocect_[^/]*\.deb$')
	git -C "$TOP" worktree remove --force "$log/old" 2>/dev/null
	git -C "$TOP" worktree prune
	old_version=$(dpkg-deb -f "$old_deb" Version 2>/dev/null)
	[ -n "$old_version" ] && dpkg -i "$old_deb" >"$log/old-install.log" 2>&1 &&
		mkdir -p /etc/rocect && echo "$old_saved" >"$saved" &&
		systemctl enable rocect.service >"$log/enable.log" 2>&1
	tap $? "the previous release's rocect $old_version installed, a configuration saved, rocect.service enabled" ||
		cat "$log/old-deb.log" "$log/old-install.log" 2>/dev/null | tail -n 20 | sed 's/^/# /'
	upgrade=1
	trap 'systemctl disable rocect.service >/dev/null 2>&1; purge; rm -rf /etc/rocect' EXIT
fi

dpkg -i "${debs[@]}" >"$log/install.log" 2>&1
tap $? "dpkg -i ${debs[*]##*/}" || tail -n 30 "$log/install.log" | sed 's/^/# /'
if [ -n "$upgrade" ]; then
	[ "$(dpkg-query -W -f='${Version}' rocect)" = "$version" ] &&
		[ "$(cat "$saved")" = "$old_saved" ] &&
		[ "$(systemctl is-enabled rocect.service 2>&1)" = enabled ]
	tap $? "upgraded to $version: the saved configuration and rocect.service's enablement kept"
fi
files=$(dpkg -L "${pkgs[@]}" 2>/dev/null | sort -u)

for v in "${kvers[@]}"; do
	dkms status "rocect/$version" -k "$v" 2>/dev/null | grep -q ': installed'
	tap $? "DKMS built and installed the module for $v"
done

# A guest of each kernel loads what DKMS installed (run-vm without -M: the
# guest sees this machine's /lib/modules) and drives it with /usr/sbin/rocect.
cat >"$log/guest.sh" <<-EOT
	set -e
	modprobe nf_conntrack_roce
	modinfo -n nf_conntrack_roce
	cat /sys/module/nf_conntrack_roce/version
	/usr/sbin/rocect -V | head -n1
	/usr/sbin/rocect qp add src 10.0.1.1 dst 10.0.2.1 dqpn 0x17 sqpn 0x2a
	/usr/sbin/rocect -j qp show | jq -r '.[0].origin'
	/usr/sbin/rocect metrics | grep '^rocect_qp_entries '
	if [ -n "$upgrade" ]; then
		/usr/sbin/rocect restore $saved
		/usr/sbin/rocect -j qp show | jq -M -c 'map([.zone, .dqpn, .sqpn]) | sort'
		/usr/sbin/rocect -j config | jq -M -c '[.max_qps, .idle_timeout, .unknown_qp]'
	fi
	modprobe -r nf_conntrack_roce
	echo guest-done
EOT
for v in "${kvers[@]}"; do
	"$TOP/tools/vm/run-vm" -k "$v" -t 600 -m 1024 -- bash "$log/guest.sh" \
		>"$log/guest-$v.log" 2>&1
	want="/lib/modules/$v/updates/dkms/nf_conntrack_roce.ko
$version
rocect $version
managed
rocect_qp_entries 1"
	[ -z "$upgrade" ] || want+='
[[0,23,42],[7,11259375,2]]
[4000,77,"drop"]'
	want+="
guest-done"
	got=$(grep -a -E '^(/lib/modules|[0-9]|rocect|managed|guest-done|\[)' \
		"$log/guest-$v.log" | sed 's/\.ko\.xz$/.ko/')
	[ "$got" = "$want" ]
	tap $? "$v: the packaged module loads and the packaged rocect drives it${upgrade:+, restores the saved file of the previous release}" ||
		sed 's/^/# /' "$log/guest-$v.log" | tail -n 20
done

for u in rocect.service rocect@.service; do
	systemd-analyze verify "/usr/lib/systemd/system/$u" >"$log/verify.log" 2>&1 &&
		grep -q '^ExecStart=/usr/sbin/rocect ' "/usr/lib/systemd/system/$u"
	tap $? "$u installed, runs /usr/sbin/rocect, systemd-analyze verify passes" ||
		sed 's/^/# /' "$log/verify.log"
done

# The examples name the paths the package installed, not /usr/local's.
ex=/usr/share/doc/rocect/examples
for f in rocect-metrics.service rocect.service router.nft; do
	zcat -f "$ex/$f"* 2>/dev/null
done >"$log/examples.txt"
! grep -q /usr/local "$log/examples.txt" &&
	grep -q "/usr/sbin/rocect metrics" "$log/examples.txt" &&
	grep -q "nft -f $ex/router.nft" "$log/examples.txt"
tap $? "the packaged examples name /usr/sbin/rocect and $ex" ||
	grep -n /usr/local "$log/examples.txt" | sed 's/^/# /'

purge
tap $? "dpkg --purge ${pkgs[*]}" || sed 's/^/# /' "$log/purge.log"
left=$(for f in $files; do [ -e "$f" ] && [ ! -d "$f" ] && echo "$f"; done
	ls -d /usr/src/rocect-* /var/lib/dkms/rocect 2>/dev/null
	find /lib/modules -name 'nf_conntrack_roce.ko*' -path '*/dkms/*' 2>/dev/null)
[ -z "$left" ]
tap $? "nothing left after the purge${left:+: $left}"
echo "1..$n"
exit $fail

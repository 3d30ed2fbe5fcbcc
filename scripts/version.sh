#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# The version of this tree, for MODULE_VERSION, `rocect -V` and the Debian
# packages: `git describe` of the newest v* tag; without one, VERSION, the
# commits since VERSION last changed and the commit (0.4-12-gabc1234, as
# git describe writes it), so that each commit's version sorts after its
# parent's (dpkg, apt) and a new VERSION starts again from 0; outside git
# (a DKMS source copy), VERSION alone, which `make dkms-install` writes
# with the full version.
#
#   version.sh [REV]   (default: the work tree, -dirty if it differs)
top=$(cd "$(dirname "$0")/.." && pwd)
rev=${1:-}
base=$(cat "$top/VERSION")
if [ -d "$top/.git" ] || [ -f "$top/.git" ]; then
	if [ -z "$rev" ]; then
		d=$(git -C "$top" describe --tags --match 'v[0-9]*' --dirty 2>/dev/null)
	else
		d=$(git -C "$top" describe --tags --match 'v[0-9]*' "$rev" 2>/dev/null)
	fi
	if [ -n "$d" ]; then
		echo "${d#v}"
		exit 0
	fi
	at=${rev:-HEAD}
	if h=$(git -C "$top" rev-parse --short "$at" 2>/dev/null); then
		[ -n "$rev" ] && base=$(git -C "$top" show "$rev:VERSION")
		since=$(git -C "$top" log -1 --format=%H "$at" -- VERSION)
		n=$(git -C "$top" rev-list --count ${since:+"$since"..}"$at")
		dirty=
		[ -z "$rev" ] && ! git -C "$top" diff --quiet HEAD 2>/dev/null &&
			dirty=-dirty
		echo "$base-$n-g$h$dirty"
		exit 0
	fi
fi
echo "$base"

#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# The version of this tree, for MODULE_VERSION and `rocect -V`: `git
# describe` of the newest v* tag; without one, VERSION and the commit;
# outside git (a DKMS source copy), VERSION alone, which `make dkms-install`
# writes with the full version.
top=$(cd "$(dirname "$0")/.." && pwd)
base=$(cat "$top/VERSION")
if [ -d "$top/.git" ] || [ -f "$top/.git" ]; then
	if d=$(git -C "$top" describe --tags --match 'v[0-9]*' --dirty 2>/dev/null); then
		echo "${d#v}"
		exit 0
	fi
	if h=$(git -C "$top" describe --always --dirty 2>/dev/null); then
		echo "$base-g$h"
		exit 0
	fi
fi
echo "$base"

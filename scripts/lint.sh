#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Style and static checks, as TAP: checkpatch.pl --strict (from Debian's
# linux-source tarball) on every C file and header, and sparse on the module
# for each kernel given as an argument (default: every installed kernel),
# and scripts/spec_check.py: the uapi header, the CLI and the docs against
# the netlink spec.

set -u
TOP=$(cd "$(dirname "$0")/.." && pwd)
BUILD=${BUILD:-$TOP/build}
CHECKPATCH=${CHECKPATCH:-/var/cache/rocect/checkpatch/scripts/checkpatch.pl}
source "$TOP/scripts/tap.sh"

cd "$TOP" || exit 1
[ -x "$CHECKPATCH" ] || "$TOP/scripts/checkpatch-extract.sh" || exit 1

# Kernel code and uapi: no exceptions. Userspace C: the libFuzzer entry
# point's name is fixed by libFuzzer, and the kernel's attribute macros
# (__printf) do not exist there.
mapfile -t kfiles < <(git ls-files -co --exclude-standard \
	'kernel/*.[ch]' 'uapi/*.h')
mapfile -t ufiles < <(git ls-files -co --exclude-standard \
	'tools/*.[ch]' 'selftests/*.[ch]')
out=$("$CHECKPATCH" --strict --no-tree --terse --show-types -f \
	"${kfiles[@]}" 2>&1 | grep -v '^total: 0 errors, 0 warnings, 0 checks')
[ -z "$out" ]
tap $? "checkpatch --strict: ${#kfiles[@]} kernel and uapi files clean"
[ -n "$out" ] && echo "$out" | sed 's/^/# /'

if [ "${#ufiles[@]}" -gt 0 ]; then
	out=$("$CHECKPATCH" --strict --no-tree --terse --show-types \
		--ignore CAMELCASE,PREFER_DEFINED_ATTRIBUTE_MACRO \
		-f "${ufiles[@]}" 2>&1 |
		grep -v '^total: 0 errors, 0 warnings, 0 checks')
	[ -z "$out" ]
	tap $? "checkpatch --strict: ${#ufiles[@]} userspace C files clean"
	[ -n "$out" ] && echo "$out" | sed 's/^/# /'
fi

# The uapi header, the CLI's names and the docs against the netlink spec.
out=$("$TOP/scripts/spec_check.py" "$TOP" 2>&1)
tap $? "uapi header, CLI, rocect.8 and admin guide agree with the netlink spec"
[ -n "$out" ] && echo "$out" | sed 's/^/# /'

kvers=("$@")
[ "${#kvers[@]}" -gt 0 ] || mapfile -t kvers < <("$TOP/scripts/kernels.sh")
for v in "${kvers[@]}"; do
	dir=$BUILD/kmod/$v
	mkdir -p "$dir"
	cp -rsf "$TOP/Kbuild" "$TOP/VERSION" "$TOP/kernel" "$TOP/uapi" "$dir/"
	# C=2 checks every file, built or not; sparse reports on stderr.
	out=$(make -C "/lib/modules/$v/build" M="$dir" C=2 ROCECT_WERROR=y \
		ROCECT_VERSION="$("$TOP/scripts/version.sh")" modules 2>&1)
	rc=$?
	checked=$(grep -c '^ *CHECK ' <<<"$out")
	warn=$(grep -E '(warning|error):' <<<"$out")
	[ "$rc" -eq 0 ] && [ -z "$warn" ] && [ "$checked" -gt 0 ]
	tap $? "sparse on $v: $checked files checked, no warnings"
	[ -n "$warn" ] && echo "$warn" | sed 's/^/# /'
done
echo "1..$n"
exit $fail

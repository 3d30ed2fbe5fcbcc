#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The guest jobs below are meant to expand inside the guest.
# shellcheck disable=SC2016
#
# selftest.sh - test run-vm itself on every installed kernel.
#
# Usage: tools/vm/selftest.sh [KERNEL...]   (default: run-vm --list-kernels)
#
# Prints "ok N - ..." / "not ok N - ..." lines and a summary; exits
# non-zero if anything failed.  Set PORT to move the ping test's port.

set -uo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd -P)
run_vm=$here/run-vm
n=0
passed=0
failed=0

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# check DESC CMD...: one TAP line for the outcome of CMD.
check()
{
	local desc=$1

	shift
	n=$((n + 1))
	if "$@"; then
		echo "ok $n - $desc"
		passed=$((passed + 1))
	else
		echo "not ok $n - $desc"
		failed=$((failed + 1))
	fi
}

file_is()
{
	[[ -f $1 && $(cat "$1") == "$2" ]]
}

# The guest's side of the basic test, run in one boot: reports go to
# $ROCECT_OUTDIR, the printed line must be the only thing on stdout.
basic_job='
uname -r >"$ROCECT_OUTDIR/uname"
printf "<%s>\n" "$@" >"$ROCECT_OUTDIR/args"
modprobe nf_conntrack && grep -q "^nf_conntrack " /proc/modules &&
	echo ok >"$ROCECT_OUTDIR/modprobe"
d=/lib/modules/$(uname -r)/extra
mkdir -p "$d" && : >"$d/run-vm-selftest" && echo ok >"$ROCECT_OUTDIR/libmodules"
modinfo -n dummy >"$ROCECT_OUTDIR/dummy" && modprobe dummy &&
	grep -q "^dummy " /proc/modules && echo ok >"$ROCECT_OUTDIR/dummy-loaded"
echo "$RVM_TEST" >"$ROCECT_OUTDIR/env"
cat /proc/sys/kernel/panic_on_warn >"$ROCECT_OUTDIR/panic_on_warn"
grep -c panic_on_warn /proc/cmdline >"$ROCECT_OUTDIR/cmdline_pow"
echo "hello from the guest"
exit 7
'

# A stock module, uncompressed, to try --module with.
dummy_module()
{
	local f

	f=$(find "/lib/modules/$1/kernel/drivers/net" -name 'dummy.ko*' | head -n 1)
	case $f in
	*.xz)	xz -dc "$f" ;;
	*.zst)	zstd -qdc "$f" ;;
	*)	cat "$f" ;;
	esac >"$2"
}

test_basic()
{
	local k=$1 out=$tmp/$1/basic rc=0 start

	dummy_module "$k" "$tmp/dummy.ko"
	start=$SECONDS
	"$run_vm" -k "$k" -t 300 -o "$out" -e "RVM_TEST=x y'z" \
		-M "$tmp/dummy.ko" -- \
		sh -c "$basic_job" job 'a b' "it's" '"dq"' '$HOME' '' \
		>"$tmp/$k.stdout" 2>"$tmp/$k.stderr" || rc=$?
	echo "# $k: basic boot took $((SECONDS - start)) s"

	check "$k: exit status 7 passed back" test "$rc" -eq 7
	check "$k: guest uname -r is $k" file_is "$out/uname" "$k"
	check "$k: arguments with spaces and quotes survive" file_is \
		"$out/args" $'<a b>\n<it\'s>\n<"dq">\n<$HOME>\n<>'
	check "$k: --env value survives" file_is "$out/env" "x y'z"
	check "$k: panic_on_warn armed after boot, not on the command line" \
		eval 'file_is "$out/panic_on_warn" 1 && file_is "$out/cmdline_pow" 0'
	check "$k: stdout is just the command's output" file_is \
		"$tmp/$k.stdout" "hello from the guest"
	check "$k: modprobe nf_conntrack works" file_is "$out/modprobe" ok
	check "$k: /lib/modules is writable" file_is "$out/libmodules" ok
	check "$k: --module lands in extra/" file_is "$out/dummy" \
		"/lib/modules/$k/extra/dummy.ko"
	check "$k: --module loads with modprobe" file_is "$out/dummy-loaded" ok
	check "$k: no run-vm-selftest leaked to the host" \
		test ! -e "/lib/modules/$k/extra/run-vm-selftest"
}

test_timeout()
{
	local k=$1 rc=0 start

	start=$SECONDS
	"$run_vm" -k "$k" -t 20 -- sleep 1000 >/dev/null 2>"$tmp/$k.tmo" ||
		rc=$?
	echo "# $k: timeout run took $((SECONDS - start)) s"
	check "$k: --timeout 20 exits 124" test "$rc" -eq 124
	check "$k: --timeout says so" \
		grep -q "guest timed out after 20 s" "$tmp/$k.tmo"
}

# One side of the link test: address eth0, ping the peer until it
# answers, then stay up until the peer has succeeded too (both sides
# share the out directory on the host).
ping_job='
me=$1 peer=$2
ip addr add 192.168.77.$me/24 dev eth0 && ip link set eth0 up || exit 2
cat /sys/class/net/eth0/address >"$ROCECT_OUTDIR/mac$me"
ping=ping
command -v ping >/dev/null || ping="busybox ping"
end=$(($(date +%s) + 90))
until $ping -c 3 -W 2 192.168.77.$peer >/dev/null; do
	[ "$(date +%s)" -lt "$end" ] || exit 1
done
: >"$ROCECT_OUTDIR/done$me"
while [ ! -e "$ROCECT_OUTDIR/done$peer" ]; do
	[ "$(date +%s)" -lt "$end" ] || exit 0
	sleep 1
done
'

test_link()
{
	local k=$1 port=${PORT:-17390} out=$tmp/link lrc=0 crc=0 pid start

	start=$SECONDS
	"$run_vm" -k "$k" -t 300 -o "$out" -n "listen:$port" -- \
		sh -c "$ping_job" job 1 2 >"$tmp/listen.log" 2>&1 &
	pid=$!
	"$run_vm" -k "$k" -t 300 -o "$out" -n "connect:$port" -- \
		sh -c "$ping_job" job 2 1 >"$tmp/connect.log" 2>&1 || crc=$?
	wait "$pid" || lrc=$?
	echo "# $k: link test took $((SECONDS - start)) s"

	check "$k: listen side pings its peer" test "$lrc" -eq 0
	check "$k: connect side pings its peer" test "$crc" -eq 0
	check "$k: the two ends have distinct MACs" \
		test -s "$out/mac1" -a -s "$out/mac2" -a \
		"$(cat "$out/mac1" 2>/dev/null)" != "$(cat "$out/mac2" 2>/dev/null)"
	if ((lrc || crc)); then
		sed 's/^/# listen: /' "$tmp/listen.log"
		sed 's/^/# connect: /' "$tmp/connect.log"
	fi
}

main()
{
	local kernels k start=$SECONDS

	if [[ $# -gt 0 ]]; then
		kernels=("$@")
	else
		mapfile -t kernels < <("$run_vm" --list-kernels)
	fi
	check "run-vm --list-kernels finds a kernel" test "${#kernels[@]}" -gt 0
	for k in "${kernels[@]}"; do
		test_basic "$k"
		test_timeout "$k"
	done
	# Once, on the newest kernel.
	[[ ${#kernels[@]} -gt 0 ]] && test_link "${kernels[-1]}"

	echo "# total $((SECONDS - start)) s"
	echo "$passed passed, $failed failed"
	((failed == 0))
}

main "$@"

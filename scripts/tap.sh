# SPDX-License-Identifier: GPL-2.0
#
# TAP for the host-side checks (sourced): `tap RC DESCRIPTION` prints the
# next "ok N - ..." or "not ok N - ..." line and remembers a failure in
# $fail, and returns RC (so that `tap $? ... || show_log` works); the
# script ends with `echo "1..$n"; exit $fail`.

n=0
fail=0

tap()
{
	n=$((n + 1))
	if [ "$1" -eq 0 ]; then
		echo "ok $n - $2"
	else
		echo "not ok $n - $2"
		fail=1
	fi
	return "$1"
}

#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# nf_conntrack_roce loads, registers its netlink family, refuses
# bad module parameters, accepts extra ports, and unloads without a trace;
# without it, rocect reports argument errors first, then the missing module.

source "$(dirname "$0")/lib.sh"

blacklist=/etc/modprobe.d/rocect-selftest-blacklist.conf
cleanup_extra()
{
	nft delete table inet rocect_ports 2>/dev/null
	rm -f "$blacklist"
}
ksft_start

# Test that the module loads and shows its counters in each namespace.
check "module loads" load_module
check "module is live" grep -qx live /sys/module/$MODULE/initstate
check "rocect stats reads the counters" \
	grep -q '^class.cm 0$' <("$ROCECT" stats)
check "module unloads" rmmod $MODULE
# Asking for the family would load the installed module (its alias):
# blacklisted, modprobe ignores the alias.
echo "blacklist $MODULE" >"$blacklist"
out=$("$ROCECT" stats 2>&1)
[ $? -ne 0 ] && ! module_loaded && grep -q 'netlink family is not available' <<<"$out"
log_test $? "rocect family gone after unload; rocect says to load the module"
out=$("$ROCECT" qp add src 10.0.0.1 dst 10.0.0.2 dqpn 1 2>&1)
[ $? -ne 0 ] && grep -q "missing 'sqpn'" <<<"$out" && ! grep -q 'not available' <<<"$out"
log_test $? "without the module an argument error is reported as such"
out=$("$ROCECT" monitor count 1 2>&1)
[ $? -ne 0 ] && grep -q 'netlink family is not available' <<<"$out"
log_test $? "... and monitor says the module is missing"
err=$(mktemp)
out=$("$ROCECT" metrics 2>"$err")
[ $? -eq 0 ] && [ "$(grep -v '^#' <<<"$out")" = "rocect_up 0" ] &&
	grep -q 'netlink family is not available' "$err"
log_test $? "... and metrics says rocect_up 0, with the reason on stderr"
out=$("$ROCECT" -n no-such-ns metrics 2>"$err")
[ $? -eq 0 ] && [ "$(grep -v '^#' <<<"$out")" = 'rocect_up{netns="no-such-ns"} 0' ] &&
	grep -q "cannot open network namespace 'no-such-ns'" "$err"
log_test $? "... as for a namespace that does not exist"
out=$("$ROCECT" -n no-such-ns qp show 2>&1)
[ $? -ne 0 ] && grep -q "cannot open network namespace" <<<"$out"
log_test $? "... where any other command fails"
rm -f "$err"
rm -f "$blacklist"

# Test that a bad parameter is refused with EINVAL, not loaded.
out=$(load_module ports=0 2>&1)
rc=$?
[ $rc -ne 0 ] && ! module_loaded && grep -q 'Invalid' <<<"$out"
log_test $? "ports=0 refused with EINVAL"
out=$(load_module ports=1,2,3,4,5,6,7,8,9 2>&1)
[ $? -ne 0 ] && ! module_loaded
log_test $? "more than 8 ports refused"

# Test that extra ports get helpers named roce-<port> nft can use.
check "ports=4791,5000 loads" load_module ports=4791,5000
nft -f - <<-EOT
	table inet rocect_ports {
		ct helper r1 { type "roce" protocol udp; }
		ct helper r2 { type "roce-5000" protocol udp; }
	}
EOT
log_test $? "nft accepts helpers roce and roce-5000"
nft delete table inet rocect_ports
check "unloads after use" rmmod $MODULE

check "modinfo has the nfct-helper alias" \
	grep -q 'alias:.*nfct-helper-roce' <(modinfo "$ROCECT_KO")
check "no kernel warnings" dmesg_clean
finish

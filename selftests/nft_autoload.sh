#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# An nft ruleset naming ct helper "roce" autoloads nf_conntrack_roce through
# its nfct-helper-roce alias, in the initial and in a new network namespace;
# rocect autoloads it through its netlink family's alias.

source "$(dirname "$0")/lib.sh"

cleanup_extra()
{
	nft delete table inet rocect 2>/dev/null
}
ksft_start modprobe

check "module installed for modprobe" install_module
check "module not loaded before the ruleset" sh -c "! test -d /sys/module/$MODULE"
check "ruleset with ct helper roce loads" nft -f <(nft_roce_ruleset)
check "nft autoloaded the module" module_loaded
check "ruleset lists the helper" \
	grep -q 'type "roce" protocol udp' <(nft list ruleset)
check "module held while the ruleset uses it" sh -c "! rmmod $MODULE 2>/dev/null"
nft delete table inet rocect
check "module unloads once the ruleset is gone" rmmod $MODULE
check "rocect stats autoloads it (its netlink family's alias)" eval \
	'"$ROCECT" stats >/dev/null && module_loaded && rmmod $MODULE'

setup_ns ns1
check "autoload from a new namespace" \
	ip netns exec "$ns1" nft -f <(nft_roce_ruleset)
check "module loaded again" module_loaded
ip netns exec "$ns1" nft delete table inet rocect
cleanup_all_ns
check "module unloads after the namespace is gone" \
	busywait 10000 rmmod $MODULE
check "no kernel warnings" dmesg_clean
finish

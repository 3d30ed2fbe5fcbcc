#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The systemd units of examples/ under a real systemd, as an operator uses
# them: systemd runs as PID 1 of its own PID and mount namespaces (as in a
# container), the units call this tree's rocect, /etc/rocect/saved holds a
# setting and a managed entry.
# - rocect.service starts with the module unloaded: modprobe, then restore;
# - restart with the entries present succeeds (rocect -b failed there)
#   and deletes an entry the file does not name;
# - reload after an edit makes the table the file's;
# - stop leaves the table and the file alone;
# - without the file the unit is skipped (condition), not failed;
# - rocect@NETNS.service restores a named namespace's file there;
# - rocect-metrics.service and rocect-metrics@NETNS.service write
#   node_exporter's textfiles, rocect_up 0 for a namespace that is gone;
#   their timers start.

source "$(dirname "$0")/lib.sh"

ksft_start unshare nsenter
[ -x /lib/systemd/systemd ] || { echo "SKIP: no systemd"; exit $ksft_skip; }
# systemd needs cgroup2 (the debug kernel, built from allnoconfig, has none).
grep -qw cgroup2 /proc/filesystems ||
	{ echo "SKIP: no cgroup2 in this kernel"; exit $ksft_skip; }

etc=/etc/rocect
sd_pid=
# in_sd CMD...: CMD in systemd's namespaces (systemctl finds it there).
in_sd() { nsenter -t "$sd_pid" -m -p "$@"; }
sd() { in_sd systemctl --no-pager "$@"; }

cleanup_extra()
{
	[ -z "$sd_pid" ] || kill -9 "$sd_pid" 2>/dev/null
	ip netns del rocect-units 2>/dev/null
	rm -rf "$etc" /etc/systemd/system/rocect.service \
		/etc/systemd/system/rocect@.service \
		/etc/systemd/system/rocect-metrics.service \
		/etc/systemd/system/rocect-metrics@.service \
		/etc/systemd/system/rocect-metrics.timer \
		/etc/systemd/system/rocect-metrics@.timer
	rm -f "$textfiles"/rocect.prom "$textfiles"/rocect-*.prom
	[ -z "$made_textfiles" ] || rmdir "$textfiles"
}

# The units as installed, calling this tree's rocect.
textfiles=/var/lib/prometheus/node-exporter
made_textfiles=
[ -d "$textfiles" ] || { mkdir -p "$textfiles" && made_textfiles=1; }
for u in rocect.service rocect@.service rocect-metrics.service \
	 rocect-metrics@.service rocect-metrics.timer rocect-metrics@.timer; do
	sed "s|/usr/local/sbin/rocect|$ROCECT|g" "$TOP/examples/$u" \
		>"/etc/systemd/system/$u"
done
mkdir -p "$etc"

# The named namespace first: systemd's mount namespace is a copy of this
# one, so later mounts (ip netns add binds /run/netns/NAME) would not reach
# it.
ip netns add rocect-units
mountpoint -q /sys/fs/cgroup || mount -t cgroup2 none /sys/fs/cgroup
unshare --pid --fork --mount --propagation private env container=rocect-test \
	/lib/systemd/systemd --system --unit=basic.target --log-target=kmsg \
	--show-status=no >/dev/null 2>&1 &
bg=$!
sd_up()
{
	sd_pid=$(pgrep -f '^/lib/systemd/systemd --system' | head -n1)
	[ -n "$sd_pid" ] || return 1
	case $(sd is-system-running 2>/dev/null) in
	running | degraded) return 0 ;;
	esac
	return 1
}
check "systemd up as PID 1 of its namespaces" busywait 240000 sd_up

entries() { "$ROCECT" -j qp show | jq -c 'map([.dqpn, .sqpn]) | sort'; }
active() { is "$(sd is-active "$1")" "$2"; }

# The saved file: made with the module loaded, which is then unloaded.
check "module loads" load_module
check "a setting and a managed entry, saved" sh -c "
	$ROCECT config set idle-timeout 99 &&
	$ROCECT qp add src 10.0.1.1 dst 10.0.2.1 dqpn 0x17 sqpn 0x2a &&
	$ROCECT save >$etc/saved"
check "module unloads" unload_module

check "systemctl start rocect" sd start rocect.service
check "... active, module loaded, setting and entry back" eval \
	'active rocect.service active && module_loaded &&
	 is "$("$ROCECT" -j config show | jq .idle_timeout)" 99 &&
	 is "$(entries)" "[[23,42]]"'
"$ROCECT" qp add src 10.0.1.1 dst 10.0.2.1 dqpn 0x19 sqpn 0x2c
check "systemctl restart with the entries present" sd restart rocect.service
check "... active; the entry the file does not name is gone" eval \
	'active rocect.service active && is "$(entries)" "[[23,42]]"'
sed -i 's/dqpn 23 sqpn 42/dqpn 24 sqpn 43/' "$etc/saved"
echo "qp add src 10.0.1.1 dst 10.0.2.1 dqpn 0x1a sqpn 0x2d" >>"$etc/saved"
check "systemctl reload after an edit" sd reload rocect.service
check "... the table is the file's" is "$(entries)" "[[24,43],[26,45]]"
tmp=$(mktemp -d)
cp "$etc/saved" "$tmp/saved"
check "systemctl stop" sd stop rocect.service
check "... inactive; entries and file left alone" eval \
	'active rocect.service inactive && is "$(entries)" "[[24,43],[26,45]]" &&
	 cmp -s "$etc/saved" "$tmp/saved"'
rm "$etc/saved"
check "without /etc/rocect/saved: start skips it" eval \
	'sd start rocect.service && active rocect.service inactive &&
	 sd show -p ConditionResult rocect.service | grep -qx ConditionResult=no'

# The template, in the named namespace.
ip netns exec rocect-units "$ROCECT" qp add src 10.9.0.1 dst 10.9.0.2 \
	dqpn 0x51 sqpn 0x52
ip netns exec rocect-units "$ROCECT" save >"$etc/rocect-units.saved"
ip netns exec rocect-units "$ROCECT" qp flush
check "systemctl start rocect@rocect-units" sd start rocect@rocect-units.service
check "... its entry restored there, not in the initial namespace" eval \
	'is "$("$ROCECT" -n rocect-units -j qp show | jq -c "map(.dqpn)")" "[81]" &&
	 is "$(entries)" "[[24,43],[26,45]]"'
check "systemctl restart rocect@rocect-units" sd restart rocect@rocect-units.service
check "... one entry still" \
	is "$("$ROCECT" -n rocect-units -j qp show | jq length)" 1
check "systemctl stop rocect@rocect-units" sd stop rocect@rocect-units.service

# The metrics units: the initial namespace's file, a named namespace's, and
# one for a namespace that does not exist (up 0, the unit succeeds).
check "systemctl start rocect-metrics" sd start rocect-metrics.service
check "... rocect.prom: up, the entries" eval \
	'grep -qx "rocect_up 1" "$textfiles/rocect.prom" &&
	 grep -qx "rocect_qp_entries 2" "$textfiles/rocect.prom"'
check "systemctl start rocect-metrics@rocect-units" \
	sd start rocect-metrics@rocect-units.service
check "... rocect-rocect-units.prom: up, its entry, labelled" eval \
	'grep -qx "rocect_up{netns=\"rocect-units\"} 1" "$textfiles/rocect-rocect-units.prom" &&
	 grep -qx "rocect_qp_entries{netns=\"rocect-units\"} 1" "$textfiles/rocect-rocect-units.prom"'
check "systemctl start rocect-metrics@rocect-gone (no such namespace)" \
	sd start rocect-metrics@rocect-gone.service
check "... rocect-rocect-gone.prom says it is down" \
	is "$(cat "$textfiles/rocect-rocect-gone.prom")" \
	"$(printf '# HELP rocect_up 1 if the module answered, else 0\n# TYPE rocect_up gauge\nrocect_up{netns="rocect-gone"} 0')"
check "the timers start" eval \
	'sd start rocect-metrics.timer rocect-metrics@rocect-units.timer &&
	 active rocect-metrics.timer active && active rocect-metrics@rocect-units.timer active'

kill -9 "$sd_pid"
sd_pid=
ip netns del rocect-units
check "module unloads" busywait 10000 unload_module
check "no kernel warnings" dmesg_clean
exit $ret

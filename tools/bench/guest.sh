#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The guest half of `make bench`: a router r forwards RoCE from a to b
# (selftests/lib.sh topology); roce_blast in a sends as fast as it can for
# SECONDS; b counts what arrives and drops it (as an RDMA NIC consumes it:
# no ICMP port unreachable for every packet). One JSON line per
# measurement on stdout: {"variant": ..., "round": N, "pps": ..., ...}.
#
# Variants are measured in rounds, one run of each per round, so that the
# emulator's drift over minutes hits all of them alike; report.py pairs
# each run with its round's baseline. Stages:
#   1k      no-conntrack, conntrack (no helper), helper, strict (unknown-qp
#           drop), cnp (every packet CE, a CNP for each): 1000 QP entries;
#           unknown: learn off, packets to 1000 QPs without entries
#           learn-unknown: learn on, the same packets
#   cm      CM handshakes (REQ, REP, RTU) through the helper against the
#           same packets as new UDP flows through plain conntrack
#   offload one RC pair set up by a CM handshake, its data on one 5-tuple
#           from the port its QPs give: conntrack (no helper), helper
#           (offload off), offload (offload on, examples/
#           router-flowtable.nft on r) and offload-guarded (offload
#           guarded, the same ruleset); each offload run checks that the
#           flow was [OFFLOAD] and that r's forward hook saw almost none
#           of it, and a guarded run that the guard inspected it all and
#           refused none. Its rounds are numbered from 101.
#   cnp-interval  sustained CE to 4 QPs: CNPs per QP against the interval
#   profile where the CPU time goes (perf) without and with the helper
#   100k, 1M      helper against conntrack, with that many entries
#   memory  kernel memory of 1M entries; rocect qp show's peak RSS over them;
#           one refresh of rocect top with 1000 of them busy, against a
#           whole qp show
# BENCH_STAGES picks some of them (in this order).

source "$(dirname "$0")/../../selftests/lib.sh"

SECONDS_EACH=${BENCH_SECONDS:-3}
RUNS=${BENCH_RUNS:-5}
CM_COUNT=${BENCH_CM_COUNT:-20000}
STAGES=${BENCH_STAGES:-1k cm offload cnp-interval profile 100k memory 1M}
PROFILE_DIR=${ROCECT_OUTDIR:-/tmp}
CNP_INTERVAL_US=10000
BLAST=$BUILD/bin/roce_blast
CM_BLAST=$BUILD/bin/cm_blast
R() { ip netns exec "$r" "$ROCECT" "$@"; }
received() { nft_packets "$b" cnt in; }
rstat() { R -j stats | jq ".${1//-/_} // 0"; }

# softnet_drops: packets each CPU's input backlog has dropped so far.
softnet_drops()
{
	local line

	while read -r -a line; do
		printf '%d ' "0x${line[1]}"
	done </proc/net/softnet_stat
}

# drops_since BEFORE: per-CPU backlog drops since softnet_drops said BEFORE,
# as a JSON array: packets lost before r could look at them.
drops_since()
{
	local before=($1) now=($(softnet_drops)) i out=

	for i in "${!now[@]}"; do
		out+="${out:+,}$((now[i] - before[i]))"
	done
	echo "[$out]"
}

# r_plain: r forwards with no ruleset and no conntrack entries.
r_plain()
{
	ip netns exec "$r" nft delete table inet ctonly 2>/dev/null
	ip netns exec "$r" nft delete table inet rocect 2>/dev/null
	ip netns exec "$r" conntrack -F 2>/dev/null
	R config set unknown-qp accept cnp off learn off offload off >/dev/null
}

# r_conntrack: conntrack without the helper (an nft ct state rule).
r_conntrack()
{
	r_plain
	ip netns exec "$r" nft -f - <<-EOT
		table inet ctonly {
		    chain forward {
		        type filter hook forward priority filter;
		        ct state new,established counter
		    }
		}
	EOT
}

# r_helper [SETTING VALUE...]: the helper, with these settings.
r_helper()
{
	r_plain
	ip netns exec "$r" nft -f <(nft_roce_ruleset)
	[ $# -eq 0 ] || R config set "$@" >/dev/null
}

# blast VARIANT ROUND QPNS [ce]: one run of roce_blast, one JSON line; its
# QPNs start at BLAST_BASE (0x100, where populate puts the entries).
blast()
{
	local variant=$1 round=$2 qpns=$3 ce=${4:+-e} before out got stats0
	local drops0

	before=$(received)
	stats0=$(R -j stats)
	drops0=$(softnet_drops)
	out=$(ip netns exec "$a" "$BLAST" $ce -s "${BLAST_SPORT:-0xd000}" \
		-i veth0 -g "$RMAC" \
		10.0.1.1 10.0.2.1 "$SECONDS_EACH" "$qpns" "${BLAST_BASE:-0x100}" 64)
	sleep 0.5
	got=$(($(received) - before))
	# The helper's counters, before and after: what it inspected and sent.
	jq -cM --arg v "$variant" --argjson round "$round" --argjson qps "$qpns" \
	   --argjson got "$got" --argjson s0 "$stats0" --argjson s1 "$(R -j stats)" \
	   --argjson drops "$(drops_since "$drops0")" \
	   'def delta(k): (k | gsub("-"; "_")) as $k | ($s1[$k] // 0) - ($s0[$k] // 0);
	    {variant: $v, round: $round, qps: $qps, sent, received: $got,
	     seconds, pps: ($got / .seconds), slice_pps, cnps: delta("cnp-sent"),
	     inspected: delta("packets"), backlog_drops: $drops,
	     refused: (delta("wrong-iface") + delta("wrong-sport") +
		       delta("wrong-psn") + delta("unknown-qp-dropped"))}' \
	   <<<"$out"
}

# write_batch N: rocect commands for N managed entries a -> b, QPNs 0x100
# on, as roce_blast spreads its packets over them.
write_batch()
{
	awk -v n="$1" 'BEGIN { for (i = 0; i < n; i++)
		printf "qp add src 10.0.1.1 dst 10.0.2.1 dqpn %d sqpn 1\n", 256 + i }' \
		>/tmp/batch
}

# populate N: the table holds those N entries and no others.
populate()
{
	R qp flush >/dev/null
	write_batch "$1"
	R -b /tmp/batch
}

# stage_1k: every data-path variant once per round, 1000 entries.
stage_1k()
{
	local round

	populate 1000
	for round in $(seq "$RUNS"); do
		r_plain
		blast no-conntrack "$round" 1000
		r_conntrack
		blast conntrack "$round" 1000
		r_helper
		blast helper-1k "$round" 1000
		# The same packets to QPs without an entry, learn off: what
		# learning adds is learn-unknown's cost over this one's.
		BLAST_BASE=0x10000 blast unknown "$round" 1000
		# learn on, every packet to a QP without an entry: each one
		# goes through learning (a request: its host pair's slot).
		r_helper learn on
		BLAST_BASE=0x10000 blast learn-unknown "$round" 1000
		r_helper unknown-qp drop
		blast strict "$round" 1000
		# CNPs last: what they leave behind (in a, in r's queues)
		# falls on no variant but the closing baseline.
		r_helper cnp on cnp-interval-us 1 cnp-max-rate 10000000
		blast cnp "$round" 1000 ce
		# The baseline again: the round's variants are divided by the
		# mean of the two, which brackets them (the emulator drifts).
		r_conntrack
		blast conntrack-end "$round" 1000
	done
}

# stage_table NAME N: helper against conntrack with the N entries that
# are in the table; the baseline brackets the helper's run, as in 1k.
stage_table()
{
	local name=$1 n=$2 round

	for round in $(seq "$RUNS"); do
		r_conntrack
		blast "conntrack-$name" "$round" "$n"
		r_helper
		blast "helper-$name" "$round" "$n"
		r_conntrack
		blast "conntrack-$name-end" "$round" "$n"
	done
}

# cm_run VARIANT ROUND MODE: COUNT handshakes, or their packets as new
# flows; counts what r tracked of them.
cm_run()
{
	local variant=$1 round=$2 mode=$3 out tracked stats0

	R qp flush >/dev/null
	ip netns exec "$r" conntrack -F 2>/dev/null
	stats0=$(R -j stats)
	out=$(ip netns exec "$a" "$CM_BLAST" "$mode" 10.0.1.1 10.0.2.1 "$b" \
		"$CM_COUNT" $((round * CM_COUNT)))
	sleep 0.5
	if [ "$mode" = flows ]; then
		# New conntracks: one per packet.
		tracked=$(ip netns exec "$r" conntrack -C)
	else
		# Both directions of each established connection have an entry.
		tracked=$(($(R -j qp show state established | jq length) / 2))
	fi
	jq -cM --arg v "$variant" --argjson round "$round" \
	   --argjson tracked "$tracked" \
	   --argjson failed "$(rstat expect-failed)" \
	   --argjson s0 "$stats0" --argjson s1 "$(R -j stats)" \
	   'def delta(k): (k | gsub("-"; "_")) as $k | ($s1[$k] // 0) - ($s0[$k] // 0);
	    {variant: $v, round: $round, handshakes, packets, sent, seconds,
	     tracked: $tracked, rate: ($tracked / .seconds),
	     expect_failed: $failed, expect_created: delta("expect-created"),
	     expect_kept: delta("expect-kept")}' <<<"$out"
}

# policy_rules N: a service policy of N rules on r, each accepting one
# RDMA CM port to b's subnet; the last, the handshakes' (tcp:18515).
policy_rules()
{
	local f p

	f=$(mktemp)
	for p in $(seq $((18515 - $1 + 1)) 18515); do
		echo "policy add to 10.0.2.0/24 service tcp:$p accept"
	done >"$f"
	R -b "$f"
	rm -f "$f"
}

stage_cm()
{
	local round

	for round in $(seq "$RUNS"); do
		r_conntrack
		cm_run cm-conntrack "$round" flows
		r_helper
		cm_run cm-helper "$round" handshake
		# The same handshakes, each REQ decided by a 1000-rule policy.
		policy_rules 1000
		cm_run cm-policy "$round" handshake
		R policy flush
	done
	R qp flush >/dev/null
}

# offload_handshake: r forgets its connections and conntracks, then a and
# b set up the pair of the offload stage (crafted into $OFFLOAD_PKTS).
offload_handshake()
{
	local ns f

	R qp flush >/dev/null
	ip netns exec "$r" conntrack -F 2>/dev/null
	for f in a:req b:rep a:rtu; do
		ns=${f%%:*}
		ip netns exec "${!ns}" "$ROCE_SEND" "$OFFLOAD_PKTS/${f#*:}" ||
			return 1
	done
}

# r_offload MODE: examples/router-flowtable.nft on r, offload MODE (on or
# guarded), and a counter of RoCE in r's forward hook, which offloaded
# packets skip.
r_offload()
{
	r_plain
	sed 's/"inside"/"veth0"/; s/"outside"/"veth1"/' \
		"$TOP/examples/router-flowtable.nft" | ip netns exec "$r" nft -f -
	ip netns exec "$r" nft -f - <<-EOT
		table inet ctonly {
		    chain forward {
		        type filter hook forward priority filter - 1;
		        udp dport 4791 counter
		    }
		}
	EOT
	R config set offload "$1" >/dev/null
}

# offload_checked VARIANT ROUND: an offload run, with whether its flow was
# in the flowtable and how many of its packets r's forward hook saw.
offload_checked()
{
	local run listed forwarded

	run=$(BLAST_SPORT=$OFFLOAD_SPORT blast "$1" "$2" 1)
	listed=$(ip netns exec "$r" conntrack -L -p udp --sport "$OFFLOAD_SPORT" \
		--dport 4791 2>/dev/null | grep -c OFFLOAD)
	forwarded=$(nft_packets "$r" ctonly forward)
	jq -cM --argjson listed "$listed" --argjson fwd "${forwarded:-0}" \
		'. + {offloaded: ($listed > 0), forwarded: $fwd}' <<<"$run"
}

# offload_craft: the offload stages' handshake into $OFFLOAD_PKTS, and
# the port its pair sends from into $OFFLOAD_SPORT.
offload_craft()
{
	OFFLOAD_PKTS=$(mktemp -d)
	craft "$OFFLOAD_PKTS" "
ex = roce_pkt.cm_exchange('10.0.1.1', '10.0.2.1', qpns=(0x11, 0x100))
for k in ('req', 'rep', 'rtu'):
    save(k, ex[k])
with open(sys.argv[1] + '/sport', 'w') as f:
    f.write('%d\\n' % roce_pkt.udp_sport(0, 0x11, 0x100))
" 2>/dev/null || { echo "bench: offload packets not crafted" >&2; return 1; }
	OFFLOAD_SPORT=$(cat "$OFFLOAD_PKTS/sport")
}

# stage_offload: what the flowtable gains a tracked connection's data.
# a's QP 0x11 and b's QP 0x100 (roce_blast's QPN_BASE) send from the port
# roce_pkt.udp_sport() gives them, as RDMA devices do.
stage_offload()
{
	local round

	offload_craft || return
	for round in $(seq 101 $((100 + RUNS))); do
		r_conntrack
		BLAST_SPORT=$OFFLOAD_SPORT blast conntrack "$round" 1
		r_helper
		offload_handshake &&
			BLAST_SPORT=$OFFLOAD_SPORT blast helper "$round" 1
		r_offload on
		offload_handshake && offload_checked offload "$round"
		r_offload guarded
		offload_handshake && offload_checked offload-guarded "$round"
		r_conntrack
		BLAST_SPORT=$OFFLOAD_SPORT blast conntrack-end "$round" 1
	done
	R config set offload off >/dev/null
	R qp flush >/dev/null
	rm -rf "$OFFLOAD_PKTS"
}

# stage_cnp_interval: CE on every packet to 4 QPs for SECONDS: each QP
# may have one CNP per interval, and under sustained CE it should have
# nearly that many.
stage_cnp_interval()
{
	local out

	populate 4
	r_helper cnp on cnp-interval-us "$CNP_INTERVAL_US" cnp-max-rate 10000000
	out=$(ip netns exec "$a" "$BLAST" -e -i veth0 -g "$RMAC" \
		10.0.1.1 10.0.2.1 "$SECONDS_EACH" 4)
	R -j qp show | jq -cM --argjson interval "$CNP_INTERVAL_US" \
		--argjson secs "$(jq .seconds <<<"$out")" \
		'{variant: "cnp-interval", interval_us: $interval, seconds: $secs,
		  cnps: [.[].cnps], packets: [.[].packets]}'
}

# profile VARIANT [COMMAND...]: where the guest's CPU time goes in one run
# of VARIANT (perf, software clock: TCG has no PMU), sent by COMMAND in a
# (roce_blast to 1000 QPs from BLAST_BASE by default). One JSON line with
# the share of samples under each data-path function, callees included;
# the top of the flat profile (self time) goes to $PROFILE_DIR.
profile()
{
	local variant=$1 data=/tmp/perf.data
	shift
	[ $# -gt 0 ] || set -- "$BLAST" -i veth0 -g "$RMAC" \
		10.0.1.1 10.0.2.1 "$SECONDS_EACH" 1000 "${BLAST_BASE:-0x100}"

	perf record -q -a -g -e cpu-clock -F 1999 -o "$data" -- \
		ip netns exec "$a" "$@" >/dev/null 2>&1 || return
	perf report -q -i "$data" --no-children --sort sym --stdio -g none \
		2>/dev/null | head -40 >"$PROFILE_DIR/profile-$(uname -r)-$variant.txt"
	perf report -q -i "$data" --children --sort sym --stdio \
		-g caller,0.5,callee,function,percent --percent-limit 2 \
		2>/dev/null | head -2000 \
		>"$PROFILE_DIR/profile-$(uname -r)-$variant-graph.txt"
	perf report -q -i "$data" --children --sort sym --stdio -g none \
		2>/dev/null | awk -v v="$variant" '
		BEGIN { want["roce_help"]; want["roce_parse"]; want["rocect_qp_lookup"]
			want["nf_conntrack_in"]; want["nf_confirm"]; want["ipv4_confirm"]
			want["nft_do_chain"]; want["ip_forward"]; want["packet_sendmsg"]
			want["rocect_learn_packet"]; want["roce_icrc_verify"]
			want["rocect_cm_packet"]; want["nf_ct_expect_related_report"] }
		$4 in want { sub("%", "", $1); out = out sep "\"" $4 "\": " $1; sep = ", " }
		END { printf "{\"variant\": \"profile-%s\", \"children_pct\": {%s}}\n", v, out }'
	rm -f "$data"
}

stage_profile()
{
	command -v perf >/dev/null || { echo "bench: no perf, no profile" >&2; return; }
	populate 1000
	r_conntrack
	profile conntrack
	r_helper
	profile helper-1k
	r_helper unknown-qp drop
	profile strict
	r_helper learn on
	BLAST_BASE=0x10000 profile learn-unknown
	R qp flush >/dev/null
	r_helper
	profile cm-helper "$CM_BLAST" handshake 10.0.1.1 10.0.2.1 "$b" \
		"$CM_COUNT" 0
	R qp flush >/dev/null
	r_conntrack
	profile cm-conntrack "$CM_BLAST" flows 10.0.1.1 10.0.2.1 "$b" \
		"$CM_COUNT" "$CM_COUNT"
}

meminfo_kb() { awk -v k="$1:" '$1 == k { print $2 }' /proc/meminfo; }

# slab_usage: the entries' slab cache as "SLABS PAGES_PER_SLAB OBJECTS
# OBJSIZE", from sysfs: at 128 bytes SLUB merges the cache with another of
# that size (/proc/slabinfo then has no line of its own), so its growth is
# what the entries take.
slab_usage()
{
	local d=/sys/kernel/slab/rocect_managed_qp

	echo "$(cut -d' ' -f1 "$d/slabs") $((1 << $(cat "$d/order")))" \
	     "$(cut -d' ' -f1 "$d/objects") $(cat "$d/object_size")"
}

# stage_memory: the kernel memory that 1M entries take, by slab accounting
# (the growth of the entries' cache, whole slabs) plus the growth of
# vmalloc (the rhashtable's bucket array), with MemFree as a cross-check.
stage_memory()
{
	local free0 free1 vm0 vm1 t0 t1 s0 s1 slab

	# The batch file (47 MB in tmpfs) is written before the first reading.
	R qp flush >/dev/null
	write_batch 1000000
	sleep 1		# the emptied table shrinks in a worker
	sync
	echo 1 >/proc/sys/vm/drop_caches
	free0=$(meminfo_kb MemFree)
	vm0=$(meminfo_kb VmallocUsed)
	s0=($(slab_usage))
	t0=$(date +%s)
	R -b /tmp/batch
	t1=$(date +%s)
	free1=$(meminfo_kb MemFree)
	vm1=$(meminfo_kb VmallocUsed)
	s1=($(slab_usage))
	slab="\"slab_objs\": $((s1[2] - s0[2])), \"slab_objsize\": ${s1[3]},"
	slab+=" \"slab_bytes\": $(((s1[0] - s0[0]) * s1[1] * $(getconf PAGESIZE)))"
	echo "{\"variant\": \"memory-1M\", \"entries\": $(rstat qp-count)," \
	     "\"memfree_delta_kb\": $((free0 - free1))," \
	     "\"vmalloc_delta_kb\": $((vm1 - vm0)), $slab," \
	     "\"add_seconds\": $((t1 - t0))}"
	stage_cli
}

# peak_rss_kb CMD...: run CMD, its output thrown away; its peak RSS in KB
# (-1 if it failed).
peak_rss_kb()
{
	/usr/bin/python3 -c 'import resource, subprocess, sys
ok = subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL).returncode == 0
print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss if ok else -1)' "$@"
}

# stage_cli: `rocect qp show` in text and JSON over the 1M entries the
# memory stage added: the CLI streams, so its memory stays flat.
stage_cli()
{
	local t0 t1 t2 text json

	t0=$(date +%s)
	text=$(peak_rss_kb ip netns exec "$r" "$ROCECT" qp show)
	t1=$(date +%s)
	json=$(peak_rss_kb ip netns exec "$r" "$ROCECT" -j qp show)
	t2=$(date +%s)
	echo "{\"variant\": \"cli-1M\", \"entries\": $(rstat qp-count)," \
	     "\"text_rss_kb\": $text, \"text_seconds\": $((t1 - t0))," \
	     "\"json_rss_kb\": $json, \"json_seconds\": $((t2 - t1))}"
	stage_top
}

# now_us: the guest's clock in microseconds.
now_us() { echo "${EPOCHREALTIME//[!0-9]/}"; }

# stage_top: 1000 of the 1M entries busy (a second of roce_blast through
# the helper), then what one refresh of rocect top asks the kernel for
# (qp show seen-within) and a whole rocect top -b -n 1 (a first refresh,
# 0.1 s, a second), against the whole table's qp show, all in JSON.
stage_top()
{
	local t0 t1 t2 t3 t4 active

	r_helper
	ip netns exec "$a" "$BLAST" -i veth0 -g "$RMAC" 10.0.1.1 10.0.2.1 1 \
		1000 0x100 64 >/dev/null
	t0=$(now_us)
	active=$(R -j qp show seen-within 10000 | jq length)
	t1=$(now_us)
	R -j top -b -n 1 -d 0.1 >/dev/null
	t2=$(now_us)
	R -j qp show >/dev/null
	t3=$(now_us)
	echo "{\"variant\": \"top-1M\", \"entries\": $(rstat qp-count)," \
	     "\"active\": $active, \"refresh_us\": $((t1 - t0))," \
	     "\"top_us\": $((t2 - t1 - 100000)), \"full_us\": $((t3 - t2))}"
}

# mac_of NS DEV: the link address of DEV in NS.
mac_of() { ip -n "$1" -j link show dev "$2" | jq -er '.[0].address'; }

# pin_neigh NS IP DEV MAC: NS's neighbour entry for IP on DEV made
# permanent with MAC. Left to ARP, r's entry for b goes stale after 15-45 s
# and stays in DELAY for the seconds until a probe confirms it: every
# packet forwarded meanwhile takes the slow path (neigh_resolve_output),
# about 90 instructions more, which moved whatever variant ran then by 1%
# (the rounds' one-step outliers under icount).
pin_neigh()
{
	ip -n "$1" neigh replace "$2" lladdr "$4" dev "$3" nud permanent
}

set -e
install_module >/dev/null
modprobe "$MODULE"
setup_router_topology
# No conntrack in r at first: the topology's watch table would load it.
ip netns exec "$r" nft delete table inet watch
# a and b count and drop RoCE (CM replies go to a).
for ns in "$a" "$b"; do
	ip netns exec "$ns" nft -f - <<-EOT
		table inet cnt {
		    chain in {
		        type filter hook prerouting priority filter;
		        udp dport 4791 counter drop
		    }
		}
	EOT
done
sysctl -qw net.netfilter.nf_conntrack_max=262144 2>/dev/null || true
# The sender hands its packets to a's veth0 through a packet socket, past
# a's IP stack: on the guest's one CPU, r's forwarding is then most of the
# time a packet takes (a second vCPU for the sender was tried: the sender
# stayed the slower side, and TCG with two vCPUs on two host cores was far
# noisier).
RMAC=$(mac_of "$r" veth0)
ip netns exec "$a" ping -c1 -W5 10.0.2.1 >/dev/null
# Every hop's neighbour entry stays put (see pin_neigh).
pin_neigh "$r" 10.0.2.1 veth1 "$(mac_of "$b" veth0)"
pin_neigh "$r" 10.0.1.1 veth0 "$(mac_of "$a" veth0)"
pin_neigh "$a" 10.0.1.254 veth0 "$RMAC"
pin_neigh "$b" 10.0.2.254 veth0 "$(mac_of "$r" veth1)"
# r's limits are capped by the initial namespace's: raise both.
"$ROCECT" config set max-qps 2000000 max-conns 1000000 >/dev/null
R config set max-qps 2000000 max-conns 1000000 >/dev/null
set +e

for stage in $STAGES; do
	case $stage in
	1k)		stage_1k ;;
	cm)		stage_cm ;;
	offload)	stage_offload ;;
	cnp-interval)	stage_cnp_interval ;;
	100k)		populate 100000
			stage_table 100k 100000 ;;
	memory)		stage_memory ;;
	profile)	stage_profile ;;
	1M)		# The memory stage leaves the 1M entries in place.
			[ "$(rstat qp-count)" = 1000000 ] || populate 1000000
			stage_table 1M 1000000 ;;
	*)		echo "bench: unknown stage $stage" >&2 ;;
	esac
done
r_plain
R qp flush >/dev/null

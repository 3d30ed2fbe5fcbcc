#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The rocect CLI against the real module: every qp command round-trips
# (add -> show -> get -> query -> del) over IPv4 and IPv6 and in zones,
# JSON output parses with jq, numbers take decimal and 0x hex, errors are
# clear and exit non-zero, configuration and counters work, a batch of
# 30000 managed entries dumps completely and consistently, and metrics
# (parsed by prometheus_client) matches stats and, with top N, qp show.

source "$(dirname "$0")/lib.sh"

ksft_start
tmp=$(mktemp -d)

# fails WHAT PATTERN COMMAND...: COMMAND exits non-zero and says PATTERN.
fails()
{
	local msg=$1 pattern=$2 out

	shift 2
	out=$("$@" 2>&1)
	if [ $? -ne 0 ] && grep -q -- "$pattern" <<<"$out"; then
		log_test 0 "$msg"
	else
		echo "    output: $out"
		log_test 1 "$msg"
	fi
}

# (Without the module: module_load.sh; rocect would load it here.)
check "module loads" load_module

R=$ROCECT
# Test that add -> show -> get -> query -> del round-trips.
check "add IPv4 entry (hex QPNs)" \
	$R qp add src 10.0.1.1 dst 10.0.2.1 dqpn 0x2a sqpn 0x17
check "add reverse direction in zone 3 (decimal QPNs)" \
	$R qp add src 10.0.2.1 dst 10.0.1.1 dqpn 23 sqpn 42 zone 3
check "add IPv6 entry" $R qp add src fd00:1::1 dst fd00:2::1 dqpn 0x100 sqpn 0x200
check "show lists 3 entries" test "$($R -j qp show | jq length)" -eq 3
json=$($R -j qp get src 10.0.1.1 dst 10.0.2.1 dqpn 42)
[ "$(jq -r '.[0] | "\(.src) \(.dst) \(.dqpn) \(.sqpn) \(.origin) \(.state) \(.zone)"' <<<"$json")" = \
	"10.0.1.1 10.0.2.1 42 23 managed established 0" ]
log_test $? "get returns the entry with its fields (JSON)"
check "query: source QPN of (10.0.2.1, 0x2a) is 0x17" \
	test "$($R -j qp query 10.0.2.1 0x2a | jq '.[0].sqpn')" = 23
check "query with source and zone" \
	test "$($R -j qp query 10.0.1.1 23 src 10.0.2.1 zone 3 | jq '.[0].sqpn')" = 42
check "query IPv6" test "$($R -j qp query fd00:2::1 256 | jq '.[0].sqpn')" = 512
fails "query of an unknown QP fails with the kernel's reason" \
	"no QP entry for this destination" $R qp query 10.0.2.1 0x2b
check "show filters by zone" test "$($R -j qp show zone 3 | jq length)" -eq 1
check "show filters by destination" \
	test "$($R -j qp show dst 10.0.2.1 | jq '.[0].dqpn')" = 42
check "show filters by origin" \
	test "$($R -j qp show origin learned | jq length)" -eq 0
check "pretty JSON is the same data" \
	test "$($R -j -p qp show | jq -c 'map(.dqpn) | sort')" = "[23,42,256]"
$R qp show >"$tmp/text"
head -n1 "$tmp/text" | grep -q '^ZONE  SRC ' && [ "$(wc -l <"$tmp/text")" -eq 4 ]
log_test $? "text table: header and one aligned line per entry"
check "del removes the entry" $R qp del src 10.0.1.1 dst 10.0.2.1 dqpn 42
fails "del of a missing entry fails" "no such QP entry" \
	$R qp del src 10.0.1.1 dst 10.0.2.1 dqpn 42
fails "duplicate add fails" "QP entry exists" \
	$R qp add src 10.0.2.1 dst 10.0.1.1 dqpn 23 sqpn 42 zone 3

# Test that bad input is refused before or by the kernel, clearly.
fails "unknown object" "unknown object 'qpx'" $R qpx show
fails "unknown command" "unknown qp command 'frob'" $R qp frob
fails "bad address" "invalid address '10.0.0.300'" \
	$R qp add src 10.0.0.300 dst 10.0.2.1 dqpn 1 sqpn 2
fails "mixed families" "families differ" \
	$R qp add src 10.0.0.1 dst fd00::1 dqpn 1 sqpn 2
fails "QPN beyond 24 bits" "invalid QPN" \
	$R qp add src 10.0.0.1 dst 10.0.0.2 dqpn 0x1000000 sqpn 2
fails "missing sqpn" "missing 'sqpn'" $R qp add src 10.0.0.1 dst 10.0.0.2 dqpn 1
check "leading zero is decimal, not octal" \
	$R qp add src 10.0.0.1 dst 10.0.0.2 dqpn 010 sqpn 2
check "... so dqpn 010 is 10" test "$($R -j qp show src 10.0.0.1 | jq '.[0].dqpn')" = 10

# Test configuration and counters.
check "config set" $R config set max-qps 4 idle-timeout 60 unknown-qp drop
check "config shows the new values" test \
	"$($R -j config | jq -c '[.max_qps, .idle_timeout, .unknown_qp]')" = '[4,60,"drop"]'
fails "config out of range: the setting and its range from the kernel's policy" \
	"max-qps: out of range (1 to 16777216)" $R config set idle-timeout 61 max-qps 0
fails "... a one-byte setting too" "cnp-dscp: out of range (0 to 63)" \
	$R config set cnp-dscp 64
check "... nothing changed" test "$($R -j config | jq -c '[.max_qps, .idle_timeout, .cnp_dscp]')" = "[4,60,48]"
fails "config unknown key" "unknown setting 'colour'" $R config set colour blue
# The CLI says each numeric setting's range as the module's own list has
# it: the module takes both ends, the CLI refuses just beyond them.
$R save >"$tmp/before-ranges"
bad=
for s in max-qps max-conns idle-timeout timewait-timeout half-open-timeout \
	source-share psn-window cnp-interval-us cnp-max-rate cnp-dscp cnp-ecn \
	cnp-priority cnp-ttl; do
	msg=$($R config set "$s" x 2>&1)
	read -r lo hi < <(sed -n "s/.*(\([0-9]*\) to \([0-9]*\))$/\1 \2/p" <<<"$msg")
	if [ -z "$hi" ] || ! $R config set "$s" "$lo" || ! $R config set "$s" "$hi" ||
	   { [ "$lo" -gt 0 ] && ! $R config set "$s" $((lo - 1)) 2>&1 |
		grep -q "^rocect: $s: out of range ($lo to $hi)$"; } ||
	   { [ "$hi" -lt 4294967295 ] && ! $R config set "$s" $((hi + 1)) 2>&1 |
		grep -q "^rocect: $s: out of range ($lo to $hi)$"; }; then
		bad+=" $s ($msg)"
	fi
done
check "each setting's range in the CLI is the module's (both ends taken, beyond refused)" \
	eval '[ -z "$bad" ] || { echo "    wrong:$bad"; false; }'
check "... settings as before" $R restore "$tmp/before-ranges"
maxqps() { jq '.max_qps'; }
check "options as iproute2's: -json, -js" eval \
	'test "$($R -json config | maxqps) $($R -js config | maxqps)" = "4 4"'
check "-p alone: indented JSON" eval \
	'test "$($R -p config | maxqps)" = 4 && test "$($R -pretty config | wc -l)" -gt 3'
check "fill the table to max-qps" \
	$R qp add src 10.0.0.5 dst 10.0.0.6 dqpn 1 sqpn 2
fails "add beyond max-qps fails" "QP table is full" \
	$R qp add src 10.0.0.7 dst 10.0.0.8 dqpn 1 sqpn 2
check "table-full counted" test "$($R -j stats | jq '.table_full')" -eq 1
check "qp-count is 4" test "$($R -j stats | jq '.qp_count')" -eq 4
check "stats reset" $R stats reset
check "counters are zero after reset" \
	test "$($R -j stats | jq '[.table_full, .qp_created] | add')" -eq 0
check "flush managed" $R qp flush origin managed
check "table empty after flush" test "$($R -j qp show | jq length)" -eq 0

# A batch of BATCH entries: all created, dumped once each, over many
# netlink messages. The bench stage measures a million (performance.rst).
BATCH=30000
check "raise max-qps" $R config set max-qps 200000
$R stats reset
awk 'BEGIN { for (i = 0; i < '"$BATCH"'; i++)
	printf "qp add src 10.%d.%d.1 dst 10.200.0.1 dqpn %d sqpn %d\n",
		i / 256 % 256, i % 256, i % 16777216, (i * 7) % 16777216 }' \
	>"$tmp/batch"
check "batch of $BATCH adds" $R -b "$tmp/batch"
$R -j qp show >"$tmp/dump"
log_test $? "dump of $BATCH entries"
check "dump has $BATCH entries" test "$(jq length "$tmp/dump")" -eq $BATCH
check "each entry once (unique keys)" test \
	"$(jq '[.[] | "\(.src) \(.dqpn)"] | unique | length' "$tmp/dump")" -eq $BATCH
check "dump agrees with the batch (sqpn = 7 * dqpn)" test \
	"$(jq '[.[] | select(.sqpn != (.dqpn * 7) % 16777216)] | length' "$tmp/dump")" -eq 0
check "-p: the same, indented" eval \
	'$R -p qp show | jq -e "length == $BATCH and (.[0] | has(\"sqpn\"))" >/dev/null &&
	 $R -p qp show | head -n 3 | grep -qx "  {"'
check "text: a header and $BATCH rows of 13 cells" eval \
	'$R qp show | awk "NF != 13 { bad++ } END { exit !(NR == $((BATCH + 1)) && !bad) }"'
# peak_rss_kb CMD...: CMD's peak resident memory, its output thrown away
peak_rss_kb()
{
	"$PYTHON" -c 'import resource, subprocess, sys
subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL, check=True)
print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)' "$@"
}
# Streamed, not collected first: 100000 rows took 288 MB (JSON) and
# 341 MB (text) when the whole table was built before printing, about
# 90 MB for this batch.
for mode in "" -j; do
	rss=$(peak_rss_kb $R $mode qp show)
	check "qp show $mode streams: peak RSS ${rss:-?} KB, under 32 MB" \
		test "${rss:-999999}" -lt 32768
done
check "flush all" $R qp flush
counts=$($R -j stats | jq -r '"\(.qp_created),\(.qp_destroyed),\(.qp_count)"')
check "stats: $BATCH created and destroyed, none left ($counts)" \
	test "$counts" = "$BATCH,$BATCH,0"

# metrics: Prometheus' own parser reads every counter and gauge, with the
# values rocect -j stats and config give; -n labels each sample.
$R qp add src 10.0.4.1 dst 10.0.4.2 dqpn 1 sqpn 2
promcheck()
{
	"$PYTHON" - "$@" <<-'EOT'
	import json, sys
	from prometheus_client.parser import text_string_to_metric_families as parse
	text, stats, cfg, netns = open(sys.argv[1]).read(), *map(json.load, map(open, sys.argv[2:4])), sys.argv[4]
	fams = {f.name: f for f in parse(text)}
	def value(name, **labels):
	    if netns:
	        labels["netns"] = netns
	    got = [s.value for s in fams[name].samples if s.labels == labels]
	    assert len(got) == 1, (name, labels, fams[name].samples)
	    return got[0]
	# The names of 0.4: each counter of stats (JSON key) as metric{label}.
	D, F, Q, R, C, N = ("rocect_dropped_packets", "rocect_failed_check_packets",
	    "rocect_qp_entries_refused", "rocect_connections_refused",
	    "rocect_cm_mads_ignored", "rocect_cnps_not_sent")
	new = {"packets": ("rocect_inspected_packets", {}),
	    "ce": ("rocect_ce_marked_packets", {}), "gso": ("rocect_gso_packets", {}),
	    "unknown_qp_dropped": (D, {"reason": "unknown-qp"}),
	    "drop_malformed": (D, {"reason": "malformed"}),
	    "drop_unknown_opcode": (D, {"reason": "unknown-opcode"}),
	    "drop_icrc": (D, {"reason": "icrc"}), "drop_spoofed": (D, {"reason": "spoofed"}),
	    "drop_gso": (D, {"reason": "gso"}),
	    "policy_dropped": (D, {"reason": "policy"}),
	    "policy_default": ("rocect_policy_default_requests", {}),
	    "policy_rejected": ("rocect_policy_rejects_sent", {}),
	    "policy_rej_unsent": ("rocect_policy_rejects_not_sent", {}),
	    "wrong_iface": (F, {"check": "iface"}), "wrong_sport": (F, {"check": "sport"}),
	    "wrong_psn": (F, {"check": "psn"}), "wrong_qkey": (F, {"check": "qkey"}),
	    "cnp_forged": (F, {"check": "cnp"}),
	    "icrc_bad": (C, {"reason": "icrc"}), "cm_spoofed": (C, {"reason": "spoofed"}),
	    "cm_unmatched": (C, {"reason": "unmatched"}),
	    "cm_unexpected": (C, {"reason": "unexpected"}),
	    "qp_created": ("rocect_qp_entries_created", {}),
	    "qp_destroyed": ("rocect_qp_entries_destroyed", {}),
	    "qp_expired": ("rocect_qp_entries_expired", {}),
	    "qp_inferred": ("rocect_qp_entries_inferred", {}),
	    "qp_recovered": ("rocect_qp_entries_recovered", {}),
	    "table_full": (Q, {"reason": "max-qps"}),
	    "qp_source_full": (Q, {"reason": "source-share"}),
	    "qp_conflict": (Q, {"reason": "conflict"}),
	    "conn_created": ("rocect_connections_created", {}),
	    "conn_destroyed": ("rocect_connections_destroyed", {}),
	    "conn_expired": ("rocect_connections_expired", {}),
	    "conn_evicted": ("rocect_connections_evicted", {}),
	    "conn_full": (R, {"reason": "max-conns"}),
	    "conn_source_full": (R, {"reason": "source-share"}),
	    "flow_adopted": ("rocect_adopted_flows", {}),
	    "expect_created": ("rocect_expectations_created", {}),
	    "expect_failed": ("rocect_expectations_failed", {}),
	    "expect_kept": ("rocect_expectations_kept", {}),
	    "offload_flows": ("rocect_offload_flows", {}),
	    "offload_revoked": ("rocect_offload_revoked", {}),
	    "cnp_sent": ("rocect_cnps_sent", {}),
	    "cnp_interval": (N, {"reason": "interval"}), "cnp_capped": (N, {"reason": "max-rate"}),
	    "cnp_no_route": (N, {"reason": "no-route"}),
	    "cnp_unknown_qp": (N, {"reason": "unknown-qp"}),
	    "cnp_tx_dropped": ("rocect_cnps_tx_dropped", {}),
	    "learn_ambiguous": ("rocect_learn_ambiguous_responses", {}),
	    "learn_evicted": ("rocect_learn_records_evicted", {})}
	n = 0
	for k, v in stats.items():
	    assert "-" not in k, ("a JSON key with a dash", k)
	    if isinstance(v, dict):
	        metric, label = {"class": ("rocect_class_packets", "class"),
	                         "malformed": ("rocect_malformed_packets", "reason"),
	                         "cm": ("rocect_cm_mads", "attribute")}[k]
	        assert fams[metric].type == "counter", metric
	        for lk, lv in v.items():
	            # a JSON key takes underscores where the label value has dashes
	            assert value(metric, **{label: lk.replace("_", "-")}) == lv, (metric, lk); n += 1
	    elif k in ("qp_count", "conn_count", "cong_count"):
	        g = {"qp_count": "rocect_qp_entries", "conn_count": "rocect_conn_entries",
	             "cong_count": "rocect_congestion_records"}[k]
	        assert fams[g].type == "gauge" and value(g) == v, (g, v); n += 1
	    else:
	        m, labels = new[k]
	        assert fams[m].type == "counter" and value(m, **labels) == v, (m, labels, v)
	        assert "see rocect(8)" not in fams[m].documentation, ("no help", m)
	        old = "rocect_" + k
	        assert fams[old].type == "counter" and value(old) == v, (old, v)
	        assert fams[old].documentation.startswith("Deprecated") and \
	            m in fams[old].documentation, (old, fams[old].documentation); n += 2
	for m in set(m for m, _ in new.values()):
	    want = sum(1 for k, (mm, _) in new.items() if mm == m and k in stats)
	    assert len(fams[m].samples) == want, (m, fams[m].samples)
	assert value("rocect_max_qps") == cfg["max_qps"] and value("rocect_max_conns") == cfg["max_conns"]
	assert value("rocect_qp_entries") == 1 and value("rocect_qp_entries_created") > 0
	assert fams["rocect_up"].type == "gauge" and value("rocect_up") == 1
	print("    %d samples checked" % n)
	EOT
}
check "metrics: parsed by prometheus_client, equal to stats and config" eval \
	'$R metrics >"$tmp/prom" && $R -j stats >"$tmp/st.json" && $R -j config >"$tmp/cfg.json" &&
	 promcheck "$tmp/prom" "$tmp/st.json" "$tmp/cfg.json" ""'
setup_ns prom
check "metrics -n NAME: every sample labelled netns=NAME" eval \
	'$R -n "$prom" qp add src 10.0.4.1 dst 10.0.4.2 dqpn 1 sqpn 2 &&
	 $R -n "$prom" metrics >"$tmp/prom" && $R -n "$prom" -j stats >"$tmp/st.json" &&
	 $R -n "$prom" -j config >"$tmp/cfg.json" &&
	 promcheck "$tmp/prom" "$tmp/st.json" "$tmp/cfg.json" "$prom"'
cleanup_all_ns
fails "metrics: an unknown argument refused" "unknown argument 'now'" $R metrics now

# metrics top N: per-QP series for the N entries seen lately with the most
# of a counter, busiest first, labelled and counted as qp show shows them.
#
#   a (10.0.1.1, 10.0.1.2, fd00:1::1) -- r (helper, the entries) -- b
#
# r's entries: 30 packets (IPv4), 20 CE-marked ones (IPv6, CNPs on), 10
# large ones (zone 5), and one idle.
top_setup()
{
	pkts=$(mktemp -d)
	craft "$pkts" "
def data(name, src, dst, dqpn, size, tos=0):
    save(name, roce_pkt.data_packet(roce_pkt.family_of(src), src, dst, 0x04,
         dqpn, 1, payload_len=size, ip_args=dict(sport=0xd000 + dqpn, tos=tos)))
data('p30', '10.0.1.1', '10.0.2.1', 0x2a, 64)
data('ce20', 'fd00:1::1', 'fd00:2::1', 0x2f, 64, tos=3)
data('big10', '10.0.1.2', '10.0.2.1', 0x3a, 1024)
" 2>/dev/null || return 1
	setup_router_topology || return 1
	ip netns exec "$r" nft -f - <<-EOT || return 1
	$(nft_roce_ruleset)
	table inet zones {
	    chain raw {
	        type filter hook prerouting priority raw;
	        ip saddr 10.0.1.2 udp dport 4791 ct zone set 5
	    }
	}
	EOT
	on "$r" config set cnp on && on "$r" -b - <<-EOT
	qp add src 10.0.1.1 dst 10.0.2.1 dqpn 0x2a sqpn 0x17
	qp add src fd00:1::1 dst fd00:2::1 dqpn 0x2f sqpn 0x1c
	qp add src 10.0.1.2 dst 10.0.2.1 dqpn 0x3a sqpn 0x3b zone 5
	qp add src 10.0.1.1 dst 10.0.2.1 dqpn 0x30 sqpn 0x18
	EOT
}
top_send()
{
	ip netns exec "$a" "$ROCE_SEND" -c 30 "$pkts/p30" &&
		ip netns exec "$a" "$ROCE_SEND" -c 20 "$pkts/ce20" &&
		ip netns exec "$a" "$ROCE_SEND" -c 10 "$pkts/big10"
}
# topcheck PROM QPS_JSON NETNS "DQPN...": PROM's per-QP series are those
# of the entries DQPN... in that order (none: no per-QP metric at all),
# each labelled and valued as qp show's JSON has the entry.
topcheck()
{
	"$PYTHON" - "$@" <<-'EOT'
	import json, sys
	from prometheus_client.parser import text_string_to_metric_families as parse
	text, qps, netns = open(sys.argv[1]).read(), json.load(open(sys.argv[2])), sys.argv[3]
	want = [int(x) for x in sys.argv[4].split()]
	fams = {f.name: f for f in parse(text)}
	entry = {(str(q["zone"]), q["src"], q["dst"], str(q["dqpn"])): q for q in qps}
	n = 0
	for m, k in (("rocect_qp_packets", "packets"), ("rocect_qp_bytes", "bytes"),
	             ("rocect_qp_ce_marked_packets", "ce"), ("rocect_qp_cnps_sent", "cnps")):
	    if not want:
	        assert m not in fams, ("per-QP metric with no entry", m)
	        continue
	    f = fams[m]
	    assert f.type == "counter" and f.documentation, (m, f.type)
	    got = []
	    for s in f.samples:
	        assert s.name == m + "_total", s
	        l = dict(s.labels)
	        assert l.pop("netns") == netns, s.labels
	        assert sorted(l) == sorted(["zone", "src", "dst", "dqpn", "sqpn", "origin"]), l
	        q = entry[(l["zone"], l["src"], l["dst"], l["dqpn"])]
	        assert l["sqpn"] == str(q["sqpn"]) and l["origin"] == q["origin"], (l, q)
	        assert s.value == q[k], (m, l, s.value, q[k])
	        got.append(int(l["dqpn"])); n += 1
	    assert got == want, (m, got, want)
	print("    %d samples checked" % n)
	EOT
}
# The per-QP series' lines taken out: what metrics prints without top.
untop() { grep -Ev '^(# (HELP|TYPE) )?rocect_qp_(packets|bytes|ce_marked_packets|cnps_sent)_total[ {]' "$1"; }
check "metrics top: topology a, r, b; 4 entries on r, CNPs on" top_setup
check "... a sends 30, 20 CE-marked and 10 large packets to 3 of them" top_send
on "$r" -j qp show >"$tmp/qps.json"
check "... qp show counts them" eval \
	'is "$(jq -c "sort_by(.dqpn) | map([.dqpn, .packets, .ce, .cnps > 0])" "$tmp/qps.json")" \
		"[[42,30,0,false],[47,20,20,true],[48,0,0,false],[58,10,0,false]]"'
check "metrics top 2: the 2 busiest entries' series, as qp show has them" eval \
	'on "$r" metrics top 2 >"$tmp/top" && topcheck "$tmp/top" "$tmp/qps.json" "$r" "42 47"'
check "... top 2 by bytes: the large packets' entry first" eval \
	'on "$r" metrics top 2 by bytes >"$tmp/top" && topcheck "$tmp/top" "$tmp/qps.json" "$r" "58 42"'
check "... top 10 by ce: the one with CE marks only" eval \
	'on "$r" metrics top 10 by ce >"$tmp/top" && topcheck "$tmp/top" "$tmp/qps.json" "$r" "47"'
check "... top 10 by cnps: the one CNPs went to only" eval \
	'on "$r" metrics top 10 by cnps >"$tmp/top" && topcheck "$tmp/top" "$tmp/qps.json" "$r" "47"'
check "... top 1000: the 3 with packets, not the idle one" eval \
	'on "$r" metrics top 1000 >"$tmp/top" && topcheck "$tmp/top" "$tmp/qps.json" "$r" "42 47 58"'
check "... seen-within 1 ms: none seen so lately, no per-QP series" eval \
	'on "$r" metrics top 10 seen-within 1 >"$tmp/top" && topcheck "$tmp/top" "$tmp/qps.json" "$r" ""'
check "without top: no per-QP series" eval \
	'on "$r" metrics >"$tmp/plain" && topcheck "$tmp/plain" "$tmp/qps.json" "$r" ""'
check "... and top adds only them: the rest byte for byte the same" eval \
	'on "$r" metrics top 2 >"$tmp/top" && on "$r" metrics >"$tmp/plain" &&
	 ! cmp -s "$tmp/top" "$tmp/plain" && untop "$tmp/top" | cmp - "$tmp/plain"'
fails "metrics top 0 refused" "invalid top '0' (1 to 1000 QPs)" on "$r" metrics top 0
fails "metrics top 1001 refused: the bound is 1000" "invalid top '1001' (1 to 1000 QPs)" \
	on "$r" metrics top 1001
fails "metrics by without top refused" "'by' goes with 'top N'" on "$r" metrics by ce
fails "metrics top by an unknown counter refused" "invalid by 'drops'" \
	on "$r" metrics top 3 by drops
cleanup_all_ns

# JSON keys are plain jq paths (underscores); the text keeps the man page's
# words (dashes), as config set takes them.
dashed_keys() { jq '[.. | objects | keys[] | select(contains("-"))] | length'; }
check "JSON: no key of stats, config, qp show, conn show has a dash" eval \
	'test "$($R -j stats | dashed_keys) $($R -j config | dashed_keys)" = "0 0" &&
	 test "$($R -j qp show | dashed_keys) $($R -j -p conn show | dashed_keys)" = "0 0" &&
	 test "$($R -j qp show | jq ".[0] | has(\"idle_ms\") and has(\"timeout_s\")")" = true'
check "... the text output keeps the dashed words" eval \
	'$R stats | grep -q "^wrong-psn 0$" && $R config | grep -q "^check-psn on$"'
$R qp flush

# Test save and restore across a module reload: settings and managed
# entries come back, learned state does not exist to come back.
check "settings for save" $R config set max-qps 5000 idle-timeout 77 \
	unknown-qp drop learn on cnp on cnp-sport copy cnp-dscp 26
check "entries for save: IPv4, IPv6, zone 7" $R -b - <<-EOT
	qp add src 10.0.1.1 dst 10.0.2.1 dqpn 0x17 sqpn 0x2a
	qp add zone 7 src 10.0.2.1 dst 10.0.1.1 dqpn 0x2a sqpn 0x17
	qp add src fd00:1::1 dst fd00:2::1 dqpn 0xabcdef sqpn 1
EOT
$R -j config show >"$tmp/config.before"
# entries: the table's keys, sources and origins, in a fixed order
entries()
{
	$R -j qp show | jq -S 'map({zone, src, dst, dqpn, sqpn, origin}) | sort_by(.src, .dqpn)'
}
entries >"$tmp/qp.before"
check "rocect save" sh -c "$R save >$tmp/saved"
check "... one config line and three qp lines" test \
	"$(grep -c '^config set ' "$tmp/saved"),$(grep -c '^qp add ' "$tmp/saved")" = 1,3
check "module reloaded: defaults, no entries" sh -c \
	"rmmod $MODULE && insmod $ROCECT_KO && test \"\$($R -j qp show | jq length)\" -eq 0"
check "rocect -b restores the saved file" $R -b "$tmp/saved"
check "... the same settings" cmp -s "$tmp/config.before" <($R -j config show)
check "... the same entries" cmp -s "$tmp/qp.before" \
	<(entries)
fails "save takes no arguments" "no arguments" $R save now

# rocect restore makes settings and managed entries the file's: deletes
# what it does not name, replaces in place what it names differently,
# leaves the rest; a second run changes nothing.
cat >"$tmp/want" <<-EOT
	# rocect save: configuration and managed QP entries
	config set max-qps 5000 idle-timeout 88
	qp add src 10.0.1.1 dst 10.0.2.1 dqpn 0x000017 sqpn 0x00002a
	qp add src fd00:1:0::1 dst fd00:2::1 dqpn 0xabcdef sqpn 2
	qp add src 10.0.5.1 dst 10.0.5.2 dqpn 5 sqpn 6 dev lo
EOT
churn() { $R -j stats | jq -r '"\(.qp_created) \(.qp_destroyed)"'; }
read -r c0 d0 <<<"$(churn)"
check "restore: the file's entries and settings" eval \
	'$R restore "$tmp/want" &&
	 test "$($R -j qp show | jq -c "sort_by(.dqpn) | map([.zone, .src, .dqpn, .sqpn, .iif])")" = \
		"[[0,\"10.0.5.1\",5,6,0],[0,\"10.0.1.1\",23,42,null],[0,\"fd00:1::1\",11259375,2,null]]" &&
	 test "$($R -j config | jq .idle_timeout)" = 88'
read -r c1 d1 <<<"$(churn)"
check "... 1 made, 1 replaced in place (another sqpn), 1 deleted, 1 left alone" \
	test "$((c1 - c0)) $((d1 - d0))" = "1 1"
check "... again: nothing changes" eval \
	'$R restore "$tmp/want" && test "$(churn)" = "$c1 $d1"'
printf 'config set idle-timeout 99\nqp add src 10.0.9.1 dst 10.0.9.2 dqpn 9 sqpn 9\nqp del src 10.0.1.1 dst 10.0.2.1 dqpn 0x17\n' >"$tmp/bad"
fails "restore refuses a file with other commands" "bad:3: restore takes config set, qp add and policy lines only" \
	$R restore "$tmp/bad"
printf 'config set idle-timeout 99\nqp add src 10.0.0.300 dst 10.0.9.2 dqpn 9 sqpn 9\n' >"$tmp/badaddr"
fails "restore says what is wrong with a line: its bad address" \
	"badaddr:2: invalid address '10.0.0.300'" $R restore "$tmp/badaddr"
printf 'config set idle-timeout 99\nqp add src 10.0.9.1 dst 10.0.9.2 dqpn 9\n' >"$tmp/nosqpn"
fails "... its missing source QP" "nosqpn:2: missing 'sqpn'" $R restore "$tmp/nosqpn"
check "... and changes nothing" eval \
	'test "$(churn) $($R -j config | jq .idle_timeout)" = "$c1 $d1 88"'
: >"$tmp/empty"
fails "restore refuses a file without a config set line (an empty save)" \
	"no config set line" $R restore "$tmp/empty"
check "... and deletes nothing" test "$($R -j qp show | jq length)" -eq 3
sed 's/ dev lo$/ dev nosuch9/' "$tmp/want" >"$tmp/nodev"
out=$($R restore "$tmp/nodev" 2>&1)
[ $? -eq 0 ] && grep -q "no interface 'nosuch9': restored unbound" <<<"$out"
log_test $? "restore with an interface that is gone: warns, succeeds"
check "... the entry stays, as bound as it was" \
	test "$($R -j qp show dst 10.0.5.2 | jq -c 'map([.dqpn, .iif])')" = "[[5,0]]"
$R save >"$tmp/full"
check "save, flush, restore: every setting and entry as before" eval \
	'$R -j config >"$tmp/cfg.a" && entries >"$tmp/qp.a" && $R qp flush &&
	 $R config set cnp on cnp-dscp 10 cnp-clear-ce on && $R restore "$tmp/full" &&
	 cmp -s "$tmp/cfg.a" <($R -j config) && cmp -s "$tmp/qp.a" <(entries)'
$R qp flush

fails "-force without -b" "applies to -b only" $R -force qp show

# -b stops at the first failure; -force runs on and still fails.
printf '%s\n' "qp add src 10.0.3.1 dst 10.0.3.2 dqpn 1 sqpn 2" \
	"qp add src 10.0.3.1 dst 10.0.3.2 dqpn 1 sqpn 2" \
	"qp add src 10.0.3.1 dst 10.0.3.2 dqpn 3 sqpn 4" >"$tmp/dup"
out=$($R -b "$tmp/dup" 2>&1)
[ $? -ne 0 ] && grep -q "dup:2: command failed" <<<"$out" &&
	test "$($R -j qp show | jq length)" -eq 1
log_test $? "-b stops at line 2 of 3 (an existing entry)"
$R qp flush
out=$($R -force -b "$tmp/dup" 2>&1)
[ $? -ne 0 ] && grep -q "dup:2: command failed" <<<"$out" &&
	test "$($R -j qp show | jq length)" -eq 2
log_test $? "-force -b runs all 3 lines and still fails"
$R qp flush

# -n NAME works in that namespace, as ip -n does.
setup_ns cli
check "-n: an entry added in another namespace" $R -n "$cli" qp add \
	src 10.9.0.1 dst 10.9.0.2 dqpn 5 sqpn 6
check "... is there, not here" test "$($R -n "$cli" -j qp show | jq length),$($R -j qp show | jq length)" = 1,0
fails "-n of a namespace that does not exist" "cannot open network namespace" \
	$R -n rocect-no-such-ns qp show
cleanup_all_ns

check "module unloads" rmmod $MODULE
check "no kernel warnings" dmesg_clean
finish

#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Walks of a table that changes under them. A dump stops at the first entry
# that does not fit its message and waits for the reader; a flush of
# thousands of entries meanwhile shrinks the table (rhashtable replaces it)
# and, a grace period later, frees the entry the dump stopped at. The dump
# must resume without touching that entry (KASAN on the debug kernel, slab
# poisoning on the stock ones), flag NLM_F_DUMP_INTR so that its reader
# knows it got an inconsistent table, and one flush must delete every
# entry however the table resizes under it.

source "$(dirname "$0")/lib.sh"

N=${TABLE_WALK_ENTRIES:-5000}
DUMP_PAUSE=$BUILD/bin/dump_pause

ksft_start
tmp=$(mktemp -d)
[ -x "$DUMP_PAUSE" ] || { echo "SKIP: $DUMP_PAUSE not built"; exit $ksft_skip; }
R=$ROCECT

# batch FILE FIRST COUNT: a batch that adds managed entries FIRST ..
# FIRST+COUNT-1.
batch()
{
	awk -v f="$2" -v n="$3" 'BEGIN { for (i = f; i < f + n; i++)
		printf "qp add src 10.%d.%d.1 dst 10.200.0.1 dqpn %d sqpn 1\n",
			i / 256 % 256, i % 256, i + 1 }' >"$1"
}
add_entries() { batch "$tmp/batch" "$@" && $R -b "$tmp/batch"; }
count() { $R -j qp show | jq length; }
# The rhashtable's shrink runs in a worker, the freeing after a grace
# period: seconds are plenty even in an emulated guest.
settle() { sleep 3; }

check "module loads" load_module
check "max-qps $((4 * N))" $R config set max-qps $((4 * N))

# A dump paused across a flush that empties and shrinks the table.
check "$N managed entries" add_entries 0 "$N"
out=$("$DUMP_PAUSE" qp "$R qp flush && sleep 3")
log_test $? "dump paused across a flush of $N entries ends ($out)"
check "... and is flagged NLM_F_DUMP_INTR" is "${out##* intr }" 1
# Only what the first buffer had: an entry after it was read from a freed
# one (the walk followed the entry it had stopped at).
check "... with nothing after its first buffer" is \
	"$(echo "$out" | awk '{ print $2 - $4 }')" 0
check "the flush deleted all $N entries" is "$(count)" 0

# The same across a growth: the table is replaced by a larger one.
check "$N entries again" add_entries 0 "$N"
batch "$tmp/grow" "$N" $((2 * N))
out=$("$DUMP_PAUSE" qp "$R -b $tmp/grow && sleep 3")
log_test $? "dump paused across $((2 * N)) adds ends ($out)"
check "... and is flagged NLM_F_DUMP_INTR" is "${out##* intr }" 1

# Flushes delete everything in one call, whatever the table does, also
# while a dump is paused in it.
for round in 1 2 3; do
	$R qp flush
	add_entries 0 $((N * round)) >/dev/null
	"$DUMP_PAUSE" qp "$R qp flush origin managed; sleep 1" >/dev/null
	check "round $round: one flush of $((N * round)) entries leaves none" \
		is "$(count)" 0
done

# A dump that nothing disturbs is not flagged.
check "$N entries for a quiet dump" add_entries 0 "$N"
settle	# the table's growth, done before the dump begins
out=$("$DUMP_PAUSE" qp "sleep 1")
log_test $? "an undisturbed dump ends ($out)"
check "... with every entry, unflagged" is "${out%% first*} ${out##* intr }" \
	"entries $N 0"
check "qp flush" $R qp flush

check "module unloads" rmmod $MODULE
check "no kernel warnings" dmesg_clean
finish

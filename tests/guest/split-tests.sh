#!/usr/bin/env bash
# Counts and part sums split across CPUs, in the VM. kstats_record() has no
# preemption guard: a task migrated between its two adds leaves the count on
# one CPU and the part sum on another. kstats_split_test.ko writes such
# splits on purpose (10 samples per "add", sum 6802, one value per slot);
# every view must then give the exact mean, 680.2, and each per-CPU mean
# must lie inside its slot. Then split_stress: 8 threads RECORD while being
# migrated, and the totals and folded slots must be exact (splits of its own
# it reports; QEMU's TCG, taking interrupts between translation blocks,
# in practice never stops a task between the two adds).
# Prints TAP. Usage: tests/guest/split-tests.sh BUILD_DIR
#   KSTATS_CTL: the kstatsctl to test (default: the tree's)
set -uo pipefail
build=$(realpath "${1:?usage: split-tests.sh BUILD_DIR}")
K=${KSTATS_CTL:-$PWD/cli/kstatsctl}
view=/sys/kernel/debug/kstats
ctl=/sys/kernel/debug/kstats_split_test/ctl
py=/usr/bin/python3
validate=$PWD/tests/cli/validate.py
tmp=$(mktemp -d)
export KSTATS_COLOR=never
. tests/guest/tap.sh

# cpus_total FILE: "COUNT SUM" from the CPUS lines of a raw view. Each slot
# holds one value, so each avg is exact and count x avg its slot's sum.
cpus_total() { awk '/CPUS/ { n += $6; s += $6 * $8 } END { print n + 0, s + 0 }' "$1"; }
is_exact() {	# is_exact FILE: 10 samples, sum 6802
	local got
	got=$(cpus_total "$1")
	[[ $got == "10 6802" ]] || { echo "CPUS lines: count and sum $got, want 10 6802"; cat "$1"; return 1; }
}
# json_mean FILE COUNT: the show/summary document's splittest.m has COUNT
# samples and mean 680.2 (a double: 6802 / 10 as the C library rounds it).
json_mean() {
	"$py" - "$1" "$2" <<'PY'
import json, sys
ms = [m for m in json.load(open(sys.argv[1]))["metrics"] if m["name"] == "splittest.m"]
assert len(ms) == 1 and ms[0]["count"] == int(sys.argv[2]), ms
assert ms[0]["mean"] == 6802 / 10, ms[0]["mean"]
PY
}
# cpu_lines_in_slots FILE BITS: every CPU line's avg inside its slot.
cpu_lines_in_slots() {
	"$py" - "$1" "$2" <<'PY'
import sys
b = int(sys.argv[2])
bad = 0
for line in open(sys.argv[1]):
    f = line.split()
    if f[2] != "CPU":
        continue
    slot, avg = int(f[1]), int(f[7])
    bucket, sub = slot >> b, slot & ((1 << b) - 1)
    low = sub if not bucket else ((1 << b) | sub) << (bucket - 1)
    last = low + (1 << max(bucket - 1, 0)) - 1
    if not low <= avg <= last:
        print(f"outside [{low}, {last}]: {line.strip()}")
        bad += 1
sys.exit(bad != 0)
PY
}

ok "insmod kstats" insmod "$build/module/kstats.ko"
ok "insmod kstats_split_test" insmod "$build/tests/kmod/kstats_split_test.ko"
ok "add: 3 x 1000 counted on one CPU, summed on another; 2 x 1151 with both parts on one" \
	sh -c "echo add >$ctl"
cp "$view/splittest.m" "$tmp/debugfs"
ok "debugfs: the CPUS lines fold every CPU's part sum (sum 6802 of 10)" is_exact "$tmp/debugfs"
ok "debugfs: each CPU line's avg inside its slot" cpu_lines_in_slots "$tmp/debugfs" 3
# A module's metric: plain numbers, no unit (kstatsctl knows only traces' unit).
hist_mean() { "$K" show splittest.m | grepq -E '^count 10  mean 680.2( |$)'; }
show_json() { "$K" show splittest.m -j >"$tmp/s.json" && json_mean "$tmp/s.json" 10; }
raw_same() { "$K" show splittest.m -f raw | cmp - "$tmp/debugfs"; }
summary_json() { "$K" summary splittest.m -j >"$tmp/su.json" && json_mean "$tmp/su.json" 10; }
summary_table() {	# NAME COUNT MEAN ... (the column found by its header)
	"$K" summary splittest.m >"$tmp/su.txt" || return 1
	awk '$1 == "NAME" { for (i = 1; i <= NF; i++) if ($i == "MEAN") col = i }
	     $1 == "splittest.m" { found = 1; mean = $col }
	     END { exit !(found && col && mean == "680.2") }' \
		"$tmp/su.txt" || { cat "$tmp/su.txt"; return 1; }
}
ok "show (hist): mean 680.2" hist_mean
ok "show -j: mean 680.2" show_json
ok "show -f raw: debugfs byte for byte" raw_same
ok "summary -j: mean 680.2" summary_json
ok "summary (table): mean 680.2" summary_table
roundtrip() {	# snapshot -o F, show -i F: the same means
	"$K" snapshot splittest.m -o "$tmp/s.ksnap" || return 1
	"$K" show -i "$tmp/s.ksnap" -j >"$tmp/f.json" && json_mean "$tmp/f.json" 10 || return 1
	"$K" show -i "$tmp/s.ksnap" -f raw | cmp - "$tmp/debugfs" || return 1
	"$K" summary -i "$tmp/s.ksnap" -j >"$tmp/fs.json" && json_mean "$tmp/fs.json" 10
}
ok "snapshot -o F; show -i F (json, raw), summary -i F: the sum-only slot kept, mean 680.2" roundtrip
per_cpu() {
	"$K" show splittest.m splittest.wide --per-cpu -j >"$tmp/pc.json" &&
	"$py" "$validate" percpu "$tmp/pc.json"
}
ok "show --per-cpu -j: each CPU's slot means inside their slots (1151, not 1278)" per_cpu
# splittest.wide: CPU B holds 1 count and 17 samples' parts of the top slot
# (units of 2^48). Its line, and the CPUS line, must give the slot's top
# mean, 15 x 2^60 + 4095 x 2^48 + 2^47, not 17 x 4095 << 48 wrapped.
wide_top() {
	"$py" - "$view/splittest.wide" <<'PY'
import sys
top = (15 << 60) + (4095 << 48) + (1 << 47)
lines = [l.split() for l in open(sys.argv[1])]
b = [int(f[7]) for f in lines if f[2] == "CPU" and int(f[5]) == 1]
a = [int(f[7]) for f in lines if f[2] == "CPUS"]
assert b == [top] and a == [top], (b, a, top)
PY
}
ok "debugfs: a CPU's part sum far past its count gives the slot's top mean" wide_top

# Intervals: what was added while the command slept, part sums alone too.
interval() {	# interval CMD...: one add while CMD sleeps, CMD's document has 10, 680.2
	local pid
	"$@" >"$tmp/iv.json" &
	pid=$!
	while_asleep "$pid" sh -c "echo add >$ctl" || return 1
	wait "$pid" || return 1
	json_mean "$tmp/iv.json" 10
}
ok "show --watch: the interval's part sum alone on a CPU is kept (mean 680.2)" \
	interval "$K" show splittest.m -j --watch 3 --count 1
ok "summary --interval: likewise (mean 680.2)" \
	interval "$K" summary splittest.m -j --interval 3
ok "rmmod kstats_split_test" rmmod kstats_split_test

# The scheduler's own splits: 8 threads on the online CPUs, moved about.
# Its TAP (with the splits it saw) is shown indented, pass or fail.
"$build/split_stress" split.stress >"$tmp/stress.txt" 2>&1
stress_rc=$?
sed 's/^/    /' "$tmp/stress.txt"
ok "8 RECORD threads, migrated: exact totals and folded slots, per-CPU means in their slots" \
	test "$stress_rc" = 0
stress_cpus() { "$K" show split.stress --per-cpu -j >"$tmp/st.json" && "$py" "$validate" percpu "$tmp/st.json"; }
ok "... kstatsctl: its per-CPU slot means inside their slots" stress_cpus
ok "delete split.stress" "$K" delete split.stress
ok "rmmod kstats" rmmod kstats
rm -rf "$tmp"
tap_end

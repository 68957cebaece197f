#!/usr/bin/env bash
# The ioctl fuzzer (abi_fuzz: every command, random and structure-aware
# arguments, 4 threads, fds shared, dup'ed, passed and closed, traces
# attached while their functions are called), its errno histogram checked
# against kstats(4) (fuzz-errnos.py); then CYCLES rounds of insmod kstats ->
# trace vfs_read under load -> rmmod refused while traced -> untrace -> rmmod.
# The lane fails on any kernel report (tests/vm/run.sh).
# Then STRESS seconds of abi_stress runs (create, record, snapshot, reset,
# stop/start, delete on shared names, exact counts at the end of each run)
# while a loop traces and untraces vfs_read and kstats_selftest records on
# every CPU, whose totals must come out exact.
# The seed is printed; pass it as SEED to replay a run.
# Usage: tests/guest/fuzz-tests.sh BUILD_DIR [CALLS [CYCLES [STRESS [SEED]]]]
set -uo pipefail
build=${1:?usage: fuzz-tests.sh BUILD_DIR [CALLS [CYCLES [STRESS [SEED]]]]}
calls=${2:-100000} cycles=${3:-100} stress=${4:-60}
seed=${5:-$(od -An -N4 -tu4 /dev/urandom | tr -d ' ')}
ctl=/sys/kernel/debug/kstats_selftest/ctl
K=cli/kstatsctl
. tests/guest/tap.sh

ok "insmod kstats" insmod "$build/module/kstats.ko"
echo "# abi_fuzz, $calls calls, seed $seed (a crash loses its own output)"
"$build/abi_fuzz" -n "$calls" -s "$seed" | tests/guest/fuzz-errnos.py man/kstats.4 |
	grep -v '^ERRNO ' | sed 's/^/    /'
ok "abi_fuzz: $calls calls, every errno documented for its request" test "${PIPESTATUS[*]}" = "0 0 0 0"
ok "no metric left after the fuzzer" test -z "$(ls -I _control /sys/kernel/debug/kstats)"
ok "rmmod kstats after the fuzzer" rmmod kstats

# cycle: load, trace vfs_read (left attached), see it record, unload.
cycle() {
	insmod "$build/module/kstats.ko" || return 1
	"$K" trace vfs_read --name cycle --keep >/dev/null || { rmmod kstats; return 1; }
	# The load below calls vfs_read all along: samples are there at once.
	"$K" -j list | python3 -c 'import json, sys
m = {e["name"]: e for e in json.load(sys.stdin)["metrics"]}
sys.exit(0 if m["cycle"]["count"] > 0 else 1)' || { echo "no samples"; "$K" untrace cycle; rmmod kstats; return 1; }
	# The trace holds kstats: rmmod is refused until untrace.
	if rmmod kstats 2>/dev/null; then echo "rmmod succeeded with a trace attached"; return 1; fi
	"$K" untrace cycle && rmmod kstats
}
cycles() {
	local i load rc=0
	(while :; do head -c 4096 /dev/zero >/dev/null; done) &
	load=$!
	for ((i = 1; i <= cycles; i++)); do
		cycle || { echo "cycle $i failed"; rc=1; break; }
	done
	kill "$load"
	wait "$load" 2>/dev/null
	return $rc
}
if ((cycles > 0)); then
	ok "$cycles cycles of insmod, trace vfs_read under load, rmmod refused while traced, untrace, rmmod" cycles
fi

# count NAME: its samples, from LIST.
count() {
	"$K" -j list | python3 -c 'import json, sys
print({e["name"]: e["count"] for e in json.load(sys.stdin)["metrics"]}[sys.argv[1]])' "$1"
}
stress_mix() {
	local dir writes traces runs=0 failed=0 cpus want
	dir=$(mktemp -d) || return 1
	insmod "$build/module/kstats.ko" && insmod "$build/tests/kmod/kstats_selftest.ko" || return 1
	(
		n=0
		until [ -e "$dir/stop" ]; do echo 'record 2000' >"$ctl" && n=$((n + 1)); done
		echo "$n" >"$dir/writes"
	) &
	(
		n=0
		until [ -e "$dir/stop" ]; do
			if "$K" trace vfs_read --name stress.tr --keep >/dev/null; then
				"$K" snapshot stress.tr -o "$dir/tr.ksnap" && n=$((n + 1))
				"$K" untrace stress.tr
			fi
		done
		echo "$n" >"$dir/traces"
	) &
	local end=$((SECONDS + stress))
	while ((SECONDS < end)); do
		"$build/abi_stress" 1000 >"$dir/out" 2>&1 || { failed=1; cat "$dir/out"; }
		runs=$((runs + 1))
	done
	touch "$dir/stop"
	wait
	writes=$(cat "$dir/writes") traces=$(cat "$dir/traces") cpus=$(nproc)
	want=$((writes * 2000 * cpus))
	echo "# stress: $runs abi_stress runs, $traces trace/snapshot/untrace rounds, $writes selftest writes ($want samples)" >/tmp/stress.sum
	[[ $(count selftest.b0) == "$want" ]] || { echo "selftest.b0 holds $(count selftest.b0), want $want"; failed=1; }
	((traces > 0)) || { echo "no trace round completed"; failed=1; }
	rmmod kstats_selftest && rmmod kstats || failed=1
	rm -rf "$dir"
	((failed == 0))
}
if ((stress > 0)); then
	ok "$stress s of abi_stress beside trace/untrace and recording on every CPU, exact totals" stress_mix
	cat /tmp/stress.sum 2>/dev/null
fi
ok "kstats unloaded" test ! -e /sys/module/kstats
tap_end

#!/usr/bin/env bash
# The ioctl fuzzer (abi_fuzz: every command, random and structure-aware
# arguments, 4 threads, fds shared, dup'ed, passed and closed, traces
# attached while their functions are called), its errno histogram checked
# against kstats(4) (fuzz-errnos.py); then CYCLES rounds of insmod kstats ->
# trace vfs_read under load -> rmmod with the trace still attached.
# The lane fails on any kernel report (tests/vm/run.sh).
# The seed is printed; pass it as SEED to replay a run.
# Usage: tests/guest/fuzz-tests.sh BUILD_DIR [CALLS [CYCLES [SEED]]]
set -uo pipefail
build=${1:?usage: fuzz-tests.sh BUILD_DIR [CALLS [CYCLES [SEED]]]} calls=${2:-100000} cycles=${3:-100}
seed=${4:-$(od -An -N4 -tu4 /dev/urandom | tr -d ' ')}
K=cli/kstatsctl
. tests/guest/tap.sh

ok "insmod kstats" insmod "$build/module/kstats.ko"
echo "# abi_fuzz, $calls calls"
"$build/abi_fuzz" -n "$calls" -s "$seed" | tests/guest/fuzz-errnos.py man/kstats.4 |
	grep -v '^ERRNO ' | sed 's/^/    /'
ok "abi_fuzz: $calls calls, every errno documented for its request" test "${PIPESTATUS[*]}" = "0 0 0 0"
ok "no metric left after the fuzzer" test -z "$(ls /sys/kernel/debug/kstats)"
ok "rmmod kstats after the fuzzer" rmmod kstats

# cycle: load, trace vfs_read (left attached), see it record, unload.
cycle() {
	insmod "$build/module/kstats.ko" || return 1
	"$K" trace vfs_read --name cycle >/dev/null || { rmmod kstats; return 1; }
	# The load below calls vfs_read all along: samples are there at once.
	"$K" -j list | python3 -c 'import json, sys
m = {e["name"]: e for e in json.load(sys.stdin)["metrics"]}
sys.exit(0 if m["cycle"]["count"] > 0 else 1)' || { echo "no samples"; rmmod kstats; return 1; }
	rmmod kstats
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
	ok "$cycles cycles of insmod, trace vfs_read under load, rmmod while traced" cycles
fi
ok "kstats unloaded" test ! -e /sys/module/kstats
tap_end

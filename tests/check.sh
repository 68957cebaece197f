#!/usr/bin/env bash
# `make check`: every test of the project, on a fresh machine too.
#   1. unit tests of the shared histogram math (cmocka, plain and ASan/UBSan),
#      and the VM harness's accelerator choice (tests/vm/accel-test.sh)
#   2. kernel style: checkpatch and kernel-doc on the module and its headers
#   3. kstatsctl on the host: golden outputs, JSON schema, Prometheus, fuzzing
#   4. packages: .debs (lintian-clean) and RPMs built, DKMS from a clone, the
#      .debs installed, DKMS builds for 6.1 and 6.12-rt, the 6.1 VM runs
#      with the packaged module and CLI, upgrade N -> N+1, purge leaves nothing
#   5. VM lanes in QEMU: Debian's 6.1, 6.12, 6.12 PREEMPT_RT, 7.3 (trixie-backports,
#      modules built in a Debian 13 root), 7.3 PREEMPT_RT (ABI and tracing suites only)
#      and the debug kernel: the module core, the ioctl ABI (also -m32), tracing,
#      and kstatsctl end to end
#   6. Prometheus: kstatsctl export of a lane's snapshot through Debian's
#      node_exporter and prometheus (loopback), quantiles, counts, resets
# Every step runs; a step that cannot run fails (nothing is skipped quietly).
# KSTATS_LANES="6.1 6.12 6.12-rt 7.3 7.3-rt debug" picks lanes (a lane left out
# is reported).
#
# Two chains, one per core, balanced to end together (under 40 minutes from
# scratch on 2 cores; measured times in docs/tests.md, "How long it takes"):
#   core 1: the host steps (niced), packages, then stock lanes;
#   core 2: the debug kernel's build (when not cached, ~6-7 min; it starts
#           before the other dependencies are installed), the debug lane
#           once the first chain has built kstatsctl, then stock lanes;
#   the stock lanes are one queue, longest first (lane_order below), each
#           taken by the first chain to be free: the chains end within a
#           lane of each other whatever the hour does to each step;
#   beside them, network-bound: every lane's kernel fetched and unpacked
#           (the Debian 13 root made), done before the packages step installs;
#   then, at nice 19, the stock lanes' modules: built in the time the
#           lanes' guests leave idle (prebuild_lanes below);
#   Prometheus after the packages step, on the snapshot its CLI suite left.
# Each step's output goes to build/check/ and is printed at the end.
set -uo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top" || exit 1
all_lanes="6.1 6.12 6.12-rt 7.3 7.3-rt debug"
# The stock lanes' queue, longest first (docs/tests.md, "How long it takes").
lane_order="7.3 6.12 6.12-rt 6.1 7.3-rt"
lanes=${KSTATS_LANES:-$all_lanes}
logs=$top/build/check
steps=()

# step ID NAME CMD...: runs one step, its output to $logs/ID.log, its exit
# status and seconds to $logs/ID.rc.
# A step's CPU time (its processes', user + system, from bash's `times`) is
# kept beside its wall time: on 2 busy cores the run's length follows the
# steps' CPU time, not their wall time.
step() {
	local id=$1 name=$2 t0=$SECONDS
	shift 2
	echo "$name" >"$logs/$id.name"
	(
		"$@"
		rc=$?
		times >"$logs/$id.times"
		exit $rc
	) >"$logs/$id.log" 2>&1
	echo "$? $((SECONDS - t0))" >"$logs/$id.rc"
}
cpu_secs() {	# cpu_secs ID: the step's CPU seconds (both lines of `times`)
	tr -s ' ms\n' '   ' <"$logs/$1.times" 2>/dev/null |
		awk '{ for (i = 1; i < NF; i += 2) s += $i * 60 + $(i + 1) } END { printf "%.0f", s }'
}
# report ID...: prints each step's output, in order, and notes its result.
report() {
	local id
	for id in "$@"; do
		echo "=== $(cat "$logs/$id.name")"
		cat "$logs/$id.log"
		steps+=("$id")
	done
}

rm -rf "$logs"
mkdir -p "$logs"
# The debug kernel's build needs a few packages: installed first, it starts
# before the rest of them (deps.sh, 1.5 min on a bare machine).
if [[ " $lanes " == *" debug "* ]]; then
	tests/vm/debug-build.sh --deps ||
		{ echo "error: could not install the debug kernel's build dependencies" >&2; exit 1; }
	step 5 "debug kernel (KASAN, UBSAN, lockdep, kmemleak): build or reuse the cache" \
		tests/vm/kernel.sh debug &
	debug_build=$!
fi
# The debug kernel's build and then its lane are the longest chain: what
# runs beside the build (the other packages, the kernels' fetch, the host
# steps) runs niced, and takes the CPU the build leaves.
if ! nice -n 10 tests/deps.sh; then
	echo "error: could not install the dependencies" >&2
	[[ -n ${debug_build:-} ]] && { echo "waiting for the debug kernel's build to end" >&2; wait; }
	exit 1
fi
echo "=== running; each step's output is in $logs and shown when its phase ends"

# Two chains, one per core, so that no core idles while the other works:
# - the host steps (niced), then the packages step (its picture of the file
#   system once every kernel is fetched), then stock lanes from the queue;
# - the debug kernel (built once, then cached), then the debug lane once
#   the first chain has built kstatsctl (lanes only reuse it), then stock
#   lanes from the queue.
# Every step's output is printed, in order, once both chains are done.
ids=(0 1 2 3 4) id=5
declare -A lane_id
if [[ " $lanes " == *" debug "* ]]; then
	ids+=(5 6)
	id=7
fi
for lane in $lanes; do
	[[ $lane == debug ]] && continue
	lane_id[$lane]=$id
	ids+=("$id")
	id=$((id + 1))
done
prom=$id
ids+=("$prom")
queue=$logs/lanes.queue
for lane in $lane_order; do
	[[ -n ${lane_id[$lane]:-} ]] && echo "${lane_id[$lane]}:$lane"
done >"$queue"
# take_lane: prints the queue's next "ID:LANE" and removes it; fails when
# the queue is empty.
take_lane() {
	(
		flock 9
		read -r next <"$queue" || exit 1
		sed -i 1d "$queue"
		echo "$next"
	) 9>"$queue.lock"
}
# prebuild_lanes: the stock lanes' modules (tests/build-lane.sh), built at
# the lowest priority once their kernels are fetched, in the queue's order.
# Under TCG a lane's guest is often idle (grace periods, bpftrace
# starting), and so is a chain waiting on the network: at nice 19 the
# builds take only what the chains leave. A lane (tests/lane.sh) uses its
# build if done, waits for it if under way (its core then idle, the build
# has it), or builds it itself.
prebuild_lanes() {
	local lane
	flock "$logs/kernels.lock" true
	for lane in $lane_order; do
		[[ -n ${lane_id[$lane]:-} ]] || continue
		(
			flock 9
			[[ -e $logs/build-$lane.done ]] ||
				{ tests/build-lane.sh "$lane" >"$logs/build-$lane.log" 2>&1 &&
					touch "$logs/build-$lane.done"; }
		) 9>"$logs/build-$lane.lock"
	done
	times >"$logs/prebuild.times"
}
# run_lanes: runs stock lanes from the queue until it is empty.
run_lanes() {
	local s
	while s=$(take_lane); do
		step "${s%%:*}" "VM lane ${s#*:}" tests/lane.sh "${s#*:}"
	done
}

# Every lane's kernel (image, headers; the Debian 13 root), fetched while the
# cores build and test: a lane then only boots. Locked until done, so that
# the packages step's picture of the file system comes after every install.
# The packages step's two first.
fetch_kernels() {
	local lane rc=0
	for lane in 6.1 6.12-rt 6.12 7.3 7.3-rt; do
		[[ $lane == 6.1 || $lane == 6.12-rt || " $lanes " == *" $lane "* ]] || continue
		echo "== $lane"
		tests/vm/kernel.sh "$lane" >/dev/null || rc=1
	done
	return $rc
}
exec 7>"$logs/kernels.lock"
flock 7
(
	renice -n 10 -p $BASHPID >/dev/null
	step 0 "kernels: every lane's image and headers, fetched in the background" fetch_kernels
) &
exec 7>&-
export KSTATS_LANE_BUILDS=$logs
(
	renice -n 19 -p $BASHPID >/dev/null
	prebuild_lanes
) &

# Held by the host chain until kstatsctl is built: the debug lane waits on it.
exec 8>"$logs/host.lock"
flock 8
(
	renice -n 10 -p $BASHPID >/dev/null
	# kstatsctl first, once, so that no two lanes build it at once: then
	# the debug lane may start as soon as its kernel is built.
	make -s -C cli >/dev/null 2>&1
	flock -u 8
	step 1 "unit tests (shared histogram math; the VM accelerator's choice)" \
		bash -c 'make -s -C tests/unit && tests/vm/accel-test.sh'
	step 2 "kernel style (checkpatch, kernel-doc)" tests/style.sh
	# Three fuzzers (snapshot files, HdrHistogram logs, --value/--if's
	# compiler), 15 s each here: make check's time budget ('make -C cli
	# fuzz' runs one long).
	step 3 "kstatsctl host tests (golden, schema, Prometheus, docs, fuzz)" \
		make -s -C cli check FUZZ_SECONDS=15
	renice -n 0 -p $BASHPID >/dev/null
	# It builds the packages first, then waits for the kernels' lock.
	step 4 "packages: .deb + lintian, RPM, DKMS, install, 6.1 VM, upgrade, purge" \
		env KSTATS_FETCH_LOCK="$logs/kernels.lock" tests/packages.sh
	# On the snapshot the packages step's CLI suite left (13 s).
	step "$prom" "Prometheus: export via node_exporter and prometheus (a lane's snapshot)" \
		tests/prometheus.sh
	run_lanes
) &
chain=$!
exec 8>&-
if [[ " $lanes " == *" debug "* ]]; then
	wait "$debug_build"
	flock "$logs/host.lock" true
	if [[ $(cut -d' ' -f1 "$logs/5.rc") == 0 ]]; then
		step 6 "VM lane debug" tests/lane.sh debug
	else
		echo "VM lane debug" >"$logs/6.name"
		echo "not run: the debug kernel did not build (step 5)" >"$logs/6.log"
		echo "1 0" >"$logs/6.rc"
	fi
fi
flock "$logs/host.lock" true
run_lanes
wait $chain
wait
report "${ids[@]}"

echo
echo "=== summary"
passed=0 failed=0
for id in "${steps[@]}"; do
	read -r rc secs <"$logs/$id.rc" 2>/dev/null || rc=255 secs=0
	if [ "$rc" -eq 0 ]; then
		passed=$((passed + 1))
		echo "PASS  $(cat "$logs/$id.name") ($secs s, CPU $(cpu_secs "$id") s)"
	else
		failed=$((failed + 1))
		echo "FAIL  $(cat "$logs/$id.name") ($secs s, CPU $(cpu_secs "$id") s)"
	fi
done
for lane in $all_lanes; do
	[[ " $lanes " == *" $lane "* ]] ||
		echo "SKIPPED  VM lane $lane: not in KSTATS_LANES=\"$lanes\" (make check runs all by default)"
done
[[ -e $logs/prebuild.times ]] &&
	echo "(the stock lanes' modules built beside the lanes at nice 19, in no step's figures: CPU $(cpu_secs prebuild) s)"
# Why each failed step failed, again, last: CI shows the end of the output.
for id in "${steps[@]}"; do
	read -r rc secs <"$logs/$id.rc" 2>/dev/null || rc=255
	[ "$rc" -eq 0 ] && continue
	echo "=== FAIL $(cat "$logs/$id.name"): the end of its output ($logs/$id.log)"
	tail -n 60 "$logs/$id.log"
done
echo "total: $SECONDS s"
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]

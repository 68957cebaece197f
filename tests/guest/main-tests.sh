#!/usr/bin/env bash
# Every suite of one lane that runs in the main boot, in order; the CLI's
# comes last because it locks the kernel down. Exits non-zero if any failed.
# Usage: tests/guest/main-tests.sh BUILD_DIR
set -uo pipefail
build=${1:?usage: main-tests.sh BUILD_DIR}
failed=()
# Each lane runs the suites whose kernel paths differ there; make check's
# time budget (40 minutes from scratch on 2 cores) decides the rest:
# - the kernel-independent suites run on one lane each: quantiles and
#   the debugfs _control command line on 6.12 (under the sanitizers, the
#   tracing suite fails each allocation of a _control command in turn);
#   the CLI end to end (cli-tests) in the packages step, on 6.1 with the
#   installed kstatsctl (tests/guest/package-tests.sh; it writes the
#   snapshot tests/prometheus.sh exports), and so --value/--if through
#   kstatsctl (the module's values and predicates are checked on every
#   lane, in trace-tests); trace's one-shot default, --keep, -o and
#   untrace --all (habits-tests) on 7.3;
# - patterns and several functions (many-tests) where fprobe and kprobes
#   differ: 6.12 (both; fprobe on ftrace), 7.3 (fprobe on the function
#   graph), and under the sanitizers (6.1 traces by kretprobes alone,
#   which 6.12 and the debug lane run too; patterns are matched in
#   kstatsctl, against /proc/kallsyms, the same on every kernel);
# - 6.1 boots a second time with 240 possible CPUs (tests/lane.sh,
#   bigcpu-tests.sh): there every suite takes 2-4 times as long;
# - the ioctl fuzzer, load-trace-unload cycles and mixed stress where the
#   sanitizers watch (debug: 40,000 calls, 3 cycles, 15 s; a cycle takes
#   ~9 s under KASAN); 'make fuzz' runs it long on any lane;
# - the ABI suite once: under the sanitizers and on PREEMPT_RT (debug,
#   6.12-rt) its second pass, the whole suite while kstats_selftest
#   records on every CPU (6.12-rt without the -m32 program); on the
#   stock lanes its first, alone;
# - the PREEMPT_RT lanes: 6.12-rt the ABI, tracing, churn and split
#   recording suites, 7.3-rt tracing;
# - user-space functions (uprobe-tests) on every lane: the uprobe API has
#   three shapes (6.1, 6.12, 7.x) and RT changes the handlers' context;
# - churn is 40 trace/untrace rounds while every CPU calls the function
#   (0.3-1 s a round; 'tests/guest/churn-tests.sh DIR 1000' by hand);
# - the debug kernel is Debian's 6.12 source (kernels.conf): the module
#   core, the ABI and churn run there under the sanitizers, and on
#   6.12-rt, not again on the stock 6.12, whose lane keeps the suites whose
#   numbers the sanitizers distort (timing, bpftrace's counts) or that run
#   on it alone.
case ${KSTATS_LANE:-} in
6.1) suites=(lane-tests abi-tests trace-tests outlier-tests churn-tests split-tests
	uprobe-tests) ;;
6.12) suites=(trace-tests outlier-tests control-tests quantile-tests split-tests
	uprobe-tests many-tests) ;;
7.3) suites=(lane-tests abi-tests trace-tests outlier-tests churn-tests split-tests
	value-tests uprobe-tests habits-tests many-tests) ;;
debug) suites=(lane-tests abi-tests trace-tests outlier-tests churn-tests split-tests
	"fuzz-tests 40000 3 15" uprobe-tests many-tests) ;;
6.12-rt) suites=(abi-tests trace-tests churn-tests split-tests uprobe-tests) ;;
7.3-rt) suites=(trace-tests uprobe-tests) ;;
*) suites=(lane-tests abi-tests trace-tests outlier-tests control-tests churn-tests
	quantile-tests split-tests value-tests uprobe-tests habits-tests many-tests cli-tests) ;;
esac
# The debug kernel is built without BPF (tests/vm/debug.config: 80 s of its
# build), so bpftrace cannot run there: its counts, the oracle we did not
# write, are compared on every stock lane; the debug lane runs kstats' side
# of each comparison and checks it against the targets' own counts.
[[ ${KSTATS_LANE:-} == debug ]] &&
	export KSTATS_NO_BPFTRACE="the debug kernel has no BPF: bpftrace's side runs on the stock lanes"
case ${KSTATS_LANE:-} in
6.1 | 7.3) export KSTATS_ABI_PASSES=1 ;;
debug | 6.12-rt) export KSTATS_ABI_PASSES=2 ;;
esac
# PREEMPT_RT changes locking and preemption, not the 32-bit conversions
# (abi_test32 runs on 6.1, 6.12, 7.3 and under the sanitizers).
[[ ${KSTATS_LANE:-} == 6.12-rt ]] && export KSTATS_ABI_PROGS="abi_test abi_stress"
# forks: the processes started so far (/proc/stat), read without starting one.
# Starting processes is most of a lane's time under TCG (docs/tests.md).
forks() {
	local key value
	while read -r key value; do
		[[ $key == processes ]] && { echo "$value"; return; }
	done </proc/stat
}
# PREEMPT_RT lanes: a timer interrupt every 20 ms on every CPU (timer_tick.py
# says why: 6.12-rt's uprobe untraces waited 2-2.5 s each in an idle guest).
tick=
if [[ ${KSTATS_LANE:-} == *-rt ]]; then
	python3 tests/guest/timer_tick.py &
	tick=$!
fi
for entry in "${suites[@]}"; do
	read -r suite args <<<"$entry"
	echo "# ==== $suite"
	t0=$SECONDS n0=$(forks)
	# shellcheck disable=SC2086 # args: the suite's numbers
	tests/guest/$suite.sh "$build" $args || failed+=("$suite")
	echo "# ==== $suite: $((SECONDS - t0)) s, $(($(forks) - n0)) processes"
done
echo "# ==== suites failed: ${failed[*]:-none}"
[[ -n $tick ]] && kill "$tick"
[ ${#failed[@]} -eq 0 ]

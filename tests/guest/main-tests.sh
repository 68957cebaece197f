#!/usr/bin/env bash
# Every suite of one lane that runs in the main boot, in order; the CLI's
# comes last because it locks the kernel down. Exits non-zero if any failed.
# Usage: tests/guest/main-tests.sh BUILD_DIR
set -uo pipefail
build=${1:?usage: main-tests.sh BUILD_DIR}
failed=()
# The ioctl fuzzer, load-trace-unload cycles and mixed stress where the
# sanitizers watch (debug: 40,000 calls, 3 cycles, 15 s; a cycle takes ~9 s
# under KASAN). make check's time budget: the stock lanes run the same code
# without the sanitizers, and 'make fuzz' runs it long on any lane.
# The PREEMPT_RT lanes run the suites whose kernel paths RT changes most:
# 6.12-rt the ABI (both passes: concurrent recording), tracing, churn and
# split recording, 7.3-rt the ABI and tracing; the module core, outlier,
# quantile, control and CLI suites run on the stock lanes. The debug lane
# leaves out the CLI's and the quantiles' suites (~180 and ~70 s under
# KASAN, on its core the longest chain of make check): the kernel paths
# they drive are the ABI and tracing suites', which run there. So does the
# 6.1 lane: the packages step runs the CLI suite on that same kernel, with
# the installed kstatsctl.
suites=(lane-tests abi-tests trace-tests outlier-tests control-tests churn-tests quantile-tests split-tests)
case ${KSTATS_LANE:-} in
debug) suites=(lane-tests abi-tests trace-tests outlier-tests control-tests churn-tests split-tests
	"fuzz-tests 40000 3 15") ;;
6.12-rt) suites=(abi-tests trace-tests churn-tests split-tests) ;;
7.3-rt) suites=(abi-tests trace-tests) ;;
esac
[[ ${KSTATS_LANE:-} =~ ^(6.12|7.3)$ ]] && suites+=(cli-tests)
for entry in "${suites[@]}"; do
	read -r suite args <<<"$entry"
	echo "# ==== $suite"
	t0=$SECONDS
	# shellcheck disable=SC2086 # args: the suite's numbers
	tests/guest/$suite.sh "$build" $args || failed+=("$suite")
	echo "# ==== $suite: $((SECONDS - t0)) s"
done
echo "# ==== suites failed: ${failed[*]:-none}"
[ ${#failed[@]} -eq 0 ]

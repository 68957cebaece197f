#!/usr/bin/env bash
# Every suite of one lane that runs in the main boot, in order; the CLI's
# comes last because it locks the kernel down. Exits non-zero if any failed.
# Usage: tests/guest/main-tests.sh BUILD_DIR
set -uo pipefail
build=${1:?usage: main-tests.sh BUILD_DIR}
failed=()
# The ioctl fuzzer (100,000 calls), load-trace-unload cycles and 60 s of
# mixed stress: where the sanitizers watch (debug; 20 cycles, as one takes
# ~5 s under KASAN) and on stock 7.3 (100 cycles) and 6.12 (30: the same
# code as the debug lane's, and make check's time budget).
# The 7.3 PREEMPT_RT lane runs the ABI and tracing suites only (make check's
# time budget; the 6.12 PREEMPT_RT lane runs them all). The debug lane
# leaves out the CLI's suite (~180 s under KASAN, on its core the longest
# chain of make check): the kernel paths it drives are the ABI and tracing
# suites', which run there. So does the 6.1 lane: the packages step runs the
# CLI suite on that same kernel, with the installed kstatsctl.
suites=(lane-tests abi-tests trace-tests outlier-tests control-tests churn-tests quantile-tests split-tests)
case ${KSTATS_LANE:-} in
debug) suites+=("fuzz-tests 100000 20 60") ;;
6.12) suites+=("fuzz-tests 100000 30 60") ;;
7.3) suites+=("fuzz-tests 100000 100 60") ;;
esac
[[ ${KSTATS_LANE:-} == debug || ${KSTATS_LANE:-} == 6.1 ]] || suites+=(cli-tests)
[[ ${KSTATS_LANE:-} == 7.3-rt ]] && suites=(abi-tests trace-tests)
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

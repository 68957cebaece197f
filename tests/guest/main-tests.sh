#!/usr/bin/env bash
# Every suite of one lane that runs in the main boot, in order; the CLI's
# comes last because it locks the kernel down. Exits non-zero if any failed.
# Usage: tests/guest/main-tests.sh BUILD_DIR
set -uo pipefail
build=${1:?usage: main-tests.sh BUILD_DIR}
failed=()
for suite in lane-tests abi-tests trace-tests churn-tests quantile-tests cli-tests; do
	echo "# ==== $suite"
	t0=$SECONDS
	tests/guest/$suite.sh "$build" || failed+=("$suite")
	echo "# ==== $suite: $((SECONDS - t0)) s"
done
echo "# ==== suites failed: ${failed[*]:-none}"
[ ${#failed[@]} -eq 0 ]

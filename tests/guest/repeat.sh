#!/usr/bin/env bash
# Runs one suite N times in a row in the same boot, to show it is stable:
# e.g. tests/lane.sh-built lanes, then
#   tests/vm/run.sh 6.12 tests/guest/repeat.sh trace-tests 5 build/6.12
# Exits non-zero if any run failed; says how many passed.
set -uo pipefail
suite=${1:?usage: repeat.sh SUITE N BUILD_DIR} n=${2:?} build=${3:?}
passed=0
for i in $(seq "$n"); do
	echo "# ==== $suite run $i of $n"
	t0=$SECONDS
	if tests/guest/$suite.sh "$build"; then
		passed=$((passed + 1))
	fi
	echo "# ==== $suite run $i: $((SECONDS - t0)) s"
done
echo "# ==== $suite: $passed of $n runs passed"
[ "$passed" -eq "$n" ]

#!/usr/bin/env bash
# `make bench`: the record-path benchmark, in one VM boot of Debian's 6.12
# kernel (override with KSTATS_BENCH_LANE). Figures are ratios within the
# boot; absolute numbers under software emulation say little.
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
lane=${KSTATS_BENCH_LANE:-6.12}
cd "$top"
tests/deps.sh
tests/build-lane.sh "$lane"
tests/vm/run.sh "$lane" tests/guest/bench.sh "$top/build/$lane"

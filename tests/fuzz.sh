#!/usr/bin/env bash
# `make fuzz`: a long run of the ioctl fuzzer and the load-trace-unload
# cycles (tests/guest/fuzz-tests.sh) in one VM boot.
# Environment: FUZZ_LANE (default debug: the sanitizers watch), FUZZ_CALLS
# (default 2000000), FUZZ_CYCLES (default 100), FUZZ_STRESS (seconds of mixed
# stress, default 60), KSTATS_FUZZ_SEED (replay).
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"
lane=${FUZZ_LANE:-debug} calls=${FUZZ_CALLS:-2000000} cycles=${FUZZ_CYCLES:-100}
[[ $calls =~ ^[0-9]+$ && $cycles =~ ^[0-9]+$ ]] || { echo "error: FUZZ_CALLS and FUZZ_CYCLES are numbers" >&2; exit 2; }
tests/deps.sh
tests/build-lane.sh "$lane"
make -s -C tests/guest OUT="$top/build/$lane"
make -s -C cli
# About 5 ms a call under KASAN in emulation; generous, but a hang still ends.
export KSTATS_VM_TIMEOUT=${KSTATS_VM_TIMEOUT:-$((600 + calls / 100 + cycles * 20))}
KSTATS_VM_VERBOSE=1 tests/vm/run.sh "$lane" tests/guest/fuzz-tests.sh "$top/build/$lane" "$calls" "$cycles" "${FUZZ_STRESS:-60}" ${KSTATS_FUZZ_SEED:-}

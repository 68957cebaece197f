#!/usr/bin/env bash
# `make bench`: the record path and the tracing overhead against bpftrace
# and funclatency, in one VM boot of Debian's 6.12 kernel (another lane:
# `make bench BENCH_LANE=7.3`, or tests/bench.sh LANE, or KSTATS_BENCH_LANE),
# then kstatsctl's formatters on the host. Figures are ratios within one run;
# absolute numbers under software emulation say little about real hardware.
# Usage: tests/bench.sh [LANE]
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
lane=${1:-${KSTATS_BENCH_LANE:-6.12}}
cd "$top"
tests/deps.sh
. tests/vm/lib.sh
need_pkgs bpftrace libbpf-tools
tests/build-lane.sh "$lane"
make -s -C tests/guest OUT="$top/build/$lane"	# alloc_test (build-lane.sh starts the dir afresh)
make -s -C cli
KSTATS_VM_VERBOSE=0 tests/vm/run.sh "$lane" tests/guest/bench.sh "$top/build/$lane"
# Next to the ns figures: what the record path is, instruction by instruction
# (as build-lane.sh checked it).
cat "build/$lane/record-path.txt"
make -s -C cli bench

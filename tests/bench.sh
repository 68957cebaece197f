#!/usr/bin/env bash
# `make bench`: the record path and the tracing overhead against bpftrace
# and funclatency, in one VM boot of Debian's 6.12 kernel (another lane:
# `make bench BENCH_LANE=7.3`, or tests/bench.sh LANE, or KSTATS_BENCH_LANE),
# then kstatsctl's formatters and a day-long HdrHistogram log on the host. Figures are ratios within one run;
# absolute numbers under software emulation say little about real hardware. Every figure says where
# it came from: the accelerator (KVM where a probe boot works, else TCG; tests/vm/accel.sh) and the
# CPU model. Under KVM the bounds that need a real CPU are judged (tests/bench-judge.py: the bench
# fails if one is not held); under TCG they are reported, never judged.
# KSTATS_BENCH_PARTS picks parts (default "record alloc trace uprobe many cli"):
# record (the record path, and its instructions), alloc (what one SNAPSHOT
# allocates), trace (tracing overhead), uprobe (a user-space function's, beside
# bpftrace's), many (a pattern of 1, 100 and 1,000 functions, per call), cli
# (kstatsctl's formatters, and
# summary/show/heatmap of a day's interval log: < 2 s and < 100 MB each).
# Usage: tests/bench.sh [LANE]
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
lane=${1:-${KSTATS_BENCH_LANE:-6.12}}
cd "$top"
tests/deps.sh
. tests/vm/lib.sh
need_pkgs bpftrace libbpf-tools
parts=" ${KSTATS_BENCH_PARTS:-record alloc trace uprobe many cli} "
for p in $parts; do
	[[ " record alloc trace uprobe many cli " == *" $p "* ]] ||
		{ echo "error: KSTATS_BENCH_PARTS: no part '$p' (record alloc trace uprobe many cli)" >&2; exit 1; }
done
guest=()
for p in record alloc trace uprobe many; do
	if [[ $parts == *" $p "* ]]; then guest+=("$p"); fi
done
host_cpu=$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -n1)
if ((${#guest[@]})); then
	tests/build-lane.sh "$lane"
	make -s -C tests/guest OUT="$top/build/$lane"	# alloc_test (build-lane.sh starts the dir afresh)
	make -s -C cli
	eval "$(tests/vm/kernel.sh "$lane")"
	. tests/vm/accel.sh
	vm_accel "$VMLINUZ"	# what run.sh will pick (the probe's verdict is kept for this boot)
	echo "# lane $lane, $ACCEL_NOTE, ${KSTATS_VM_SMP:-4} vCPUs; host CPU: $host_cpu ($(nproc) cores)"
	KSTATS_VM_VERBOSE=0 tests/vm/run.sh "$lane" tests/guest/bench.sh "$top/build/$lane" "${guest[@]}" |
		tee "build/$lane/bench.out"
	judge=0
	tests/bench-judge.py "$ACCEL" "build/$lane/bench.out" || judge=1
fi
# Next to the ns figures: what the record path is, instruction by instruction.
if [[ $parts == *" record "* ]]; then
	cat "build/$lane/record-path.txt"	# as build-lane.sh checked it
	cc -O2 -Wall -Wextra -Werror -Iinclude -o "build/record-host" tests/record-host.c
	echo "# the user-space replica on this machine: $host_cpu, no emulation"
	build/record-host
fi
if [[ $parts == *" cli "* ]]; then
	echo "# kstatsctl on this machine: $host_cpu, no emulation"
	make -s -C cli bench
fi
exit "${judge:-0}"

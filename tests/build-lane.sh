#!/usr/bin/env bash
# Builds kstats.ko and the test modules for one VM lane, out of tree in
# build/LANE/, exactly as a third-party module would be built against kstats.
# The 7.x lanes build in tests/vm/kernel.sh's Debian 13 root (lib.sh's kmake).
# Usage: tests/build-lane.sh LANE   (LANE = 6.1 | 6.12 | 6.12-rt | 7.3 | 7.3-rt | debug)
set -euo pipefail
lane=${1:?usage: build-lane.sh LANE}
top=$(cd "$(dirname "$0")/.." && pwd)
. "$top/tests/vm/lib.sh"
eval "$("$top/tests/vm/kernel.sh" "$lane")"

out=$top/build/$lane
rm -rf "$out"
mkdir -p "$out/tests"
cp -r "$top/module" "$top/include" "$out/"
cp -r "$top/tests/kmod" "$out/tests/"

# W=1: the module must build warning-free; any warning fails the lane.
log=$out/build.log
kmake "$out" M="$out/module" W=1 modules >"$log" 2>&1 ||
	{ cat "$log"; echo "error: building kstats.ko for $lane failed" >&2; exit 1; }
kmake "$out" M="$out/tests/kmod" W=1 \
	KBUILD_EXTRA_SYMBOLS="$out/module/Module.symvers" modules >>"$log" 2>&1 ||
	{ cat "$log"; echo "error: building the test modules for $lane failed" >&2; exit 1; }
if grep -E 'warning:|error:' "$log"; then
	echo "error: compiler warnings building for $lane (see above)" >&2
	exit 1
fi
# kstats_record() as a consumer inlines it: no call, no lock, one slot, at
# most 30 instructions (on a KASAN kernel, which checks every load and
# store, the sanitizer's calls aside). Debian's 7.x kernels have UBSAN_SHIFT
# and UBSAN_BOUNDS on: there the path is checked as on any stock kernel, so
# a UBSAN check creeping into it fails the lane. make bench prints it again.
sanitized=()
grep -q '^CONFIG_KASAN=y' "$KDIR/.config" 2>/dev/null && sanitized=(--sanitized)
"$top/tests/record-path.py" "${sanitized[@]}" "$out/tests/kmod/kstats_bench.o" "$lane" |
	tee "$out/record-path.txt"
# KROOT: the 7.x lanes' Debian 13 root, with its bpftrace (trace-tests.sh).
printf 'KVER=%q\nKROOT=%q\n' "$KVER" "$KROOT" >"$out/kernel.env"
echo "built kstats for $lane ($KVER) in $out" >&2

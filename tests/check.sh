#!/usr/bin/env bash
# `make check`: every test of the project, on a fresh machine too.
#   1. unit tests of the shared histogram math (cmocka, plain and ASan/UBSan)
#   2. kernel style: checkpatch and kernel-doc on the module and its headers
#   3. kstatsctl on the host: golden outputs, JSON schema, Prometheus, fuzzing
#   4. VM lanes: Debian 6.1, Debian 6.12 and the debug kernel, in QEMU: the
#      module core, the ioctl ABI (also -m32), tracing, and kstatsctl end to end
# Every step runs; a step that cannot run fails (nothing is skipped quietly).
# KSTATS_LANES="6.1 6.12 debug" picks lanes (a lane left out is reported).
set -uo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"
all_lanes="6.1 6.12 debug"
lanes=${KSTATS_LANES:-$all_lanes}
passed=0 failed=0 results=()

step() {	# step NAME CMD...
	local name=$1 t0=$SECONDS rc
	shift
	echo "=== $name"
	"$@"
	rc=$?
	if [ $rc -eq 0 ]; then
		passed=$((passed + 1))
		results+=("PASS  $name ($((SECONDS - t0)) s)")
	else
		failed=$((failed + 1))
		results+=("FAIL  $name ($((SECONDS - t0)) s)")
	fi
	return 0
}

tests/deps.sh || { echo "error: could not install the dependencies" >&2; exit 1; }
step "unit tests (shared histogram math)" make -s -C tests/unit
step "kernel style (checkpatch, kernel-doc)" tests/style.sh
step "kstatsctl host tests (golden, schema, Prometheus, docs, fuzz)" make -s -C cli check
for lane in $lanes; do
	step "VM lane $lane" tests/lane.sh "$lane"
done

echo
echo "=== summary"
printf '%s\n' "${results[@]}"
for lane in $all_lanes; do
	[[ " $lanes " == *" $lane "* ]] ||
		echo "SKIPPED  VM lane $lane: not in KSTATS_LANES=\"$lanes\" (make check runs all by default)"
done
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]

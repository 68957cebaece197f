#!/usr/bin/env bash
# One VM lane: build kstats, its test modules and the guest programs for the
# lane's kernel, boot it in QEMU and run every suite there
# (tests/guest/main-tests.sh).
# Usage: tests/lane.sh LANE   (LANE = 6.1 | 6.12 | 6.12-rt | 7.3 | 7.3-rt | debug)
# (7.3-rt: the ABI and tracing suites only, see main-tests.sh)
set -euo pipefail
lane=${1:?usage: lane.sh LANE}
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"
# Under make check, a build done beside the other lanes (tests/check.sh,
# prebuild_lanes) is used, or waited for while under way.
if [[ -n ${KSTATS_LANE_BUILDS:-} && $lane != debug ]]; then
	(
		flock 9
		if [[ -e $KSTATS_LANE_BUILDS/build-$lane.done ]]; then
			cat "$KSTATS_LANE_BUILDS/build-$lane.log"
		else
			tests/build-lane.sh "$lane" && touch "$KSTATS_LANE_BUILDS/build-$lane.done"
		fi
	) 9>"$KSTATS_LANE_BUILDS/build-$lane.lock"
else
	tests/build-lane.sh "$lane"
fi
# shellcheck source=vm/lib.sh
. tests/vm/lib.sh
# The guest programs: built once for every lane, then copied.
guest_programs "build/$lane"
make -s -C cli
# The exact-quantile oracle's sample sets, made once (they never change
# unless the script does) and shared by the lanes.
qdir=$top/build/quantiles
stamp=$qdir/.done-$(sha256sum tests/guest/quantiles.py | cut -c1-16)
(
	flock 9
	[[ -e $stamp ]] || { rm -rf "$qdir" && tests/guest/quantiles.py gen "$qdir" && touch "$stamp"; }
) 9>"$top/build/quantiles.lock"
# A hung guest fails the lane at this limit: about twice what a lane takes
# with another lane beside it on 2 cores (stock ~5-10 min; debug ~16, KASAN).
if [[ $lane == debug ]]; then
	export KSTATS_VM_TIMEOUT=${KSTATS_VM_TIMEOUT:-1800}
else
	export KSTATS_VM_TIMEOUT=${KSTATS_VM_TIMEOUT:-1200}
fi
start=$(date +%s)
# What the guest leaves for the host (tests/prometheus.sh reads its snapshot).
export KSTATS_VM_OUT=$top/build/$lane/vm-out
mkdir -p "$KSTATS_VM_OUT"
tests/vm/run.sh "$lane" tests/guest/main-tests.sh "$top/build/$lane"
# The 6.1 lane boots again with 240 possible CPUs (4 online): possible_cpus=
# raises the count up to 6.8 (later kernels only lower it, and do not count
# QEMU's hot-pluggable CPUs as possible).
if [[ $lane == 6.1 ]]; then
	KSTATS_VM_APPEND="possible_cpus=240" KSTATS_VM_TIMEOUT=600 \
		tests/vm/run.sh "$lane" tests/guest/bigcpu-tests.sh "$top/build/$lane" 240
fi
echo "lane $lane: PASS in $(($(date +%s) - start)) s"

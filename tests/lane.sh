#!/usr/bin/env bash
# One VM lane: build kstats, its test modules and the guest programs for the
# lane's kernel, boot it in QEMU and run every suite there
# (tests/guest/main-tests.sh).
# Usage: tests/lane.sh LANE   (LANE = 6.1 | 6.12 | 6.12-rt | debug)
set -euo pipefail
lane=${1:?usage: lane.sh LANE}
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"
tests/build-lane.sh "$lane"
make -s -C tests/guest OUT="$top/build/$lane"
make -s -C cli
start=$(date +%s)
tests/vm/run.sh "$lane" tests/guest/main-tests.sh "$top/build/$lane"
echo "lane $lane: PASS in $(($(date +%s) - start)) s"

#!/usr/bin/env bash
# `make demo`: build kstats, boot Debian's stock kernel in QEMU, load it,
# time real kernel work and print the distribution. Needs root to install
# packages on first run; KSTATS_DEMO_LANE picks the kernel (default 6.12).
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
lane=${KSTATS_DEMO_LANE:-6.12}
cd "$top"
tests/deps.sh
tests/build-lane.sh "$lane"
make -s -C cli
tests/vm/run.sh "$lane" tests/guest/demo.sh "$top/build/$lane"

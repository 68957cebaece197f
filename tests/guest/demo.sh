#!/usr/bin/env bash
# `make demo`, guest side: loads kstats, lets the demo module time real
# kernel work, and shows the distributions with kstatsctl, then the
# original debugfs view.
# Usage: tests/guest/demo.sh BUILD_DIR
set -euo pipefail
build=${1:?usage: demo.sh BUILD_DIR}
K=$PWD/cli/kstatsctl
insmod "$build/module/kstats.ko"
insmod "$build/tests/kmod/kstats_demo.ko"
echo "== kernel $(uname -r), $(nproc) CPUs"
"$K" list
for m in demo.kmalloc demo.tick_sleep; do
	echo
	"$K" show "$m" --units auto
done
echo
echo "== the same in the original kstats text view (first lines of demo.tick_sleep):"
head -n 6 /sys/kernel/debug/kstats/demo.tick_sleep
rmmod kstats_demo kstats

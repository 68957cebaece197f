#!/usr/bin/env bash
# `make demo`, guest side: loads kstats, lets the demo module time real
# kernel work, and shows the distributions from the debugfs view.
# Usage: tests/guest/demo.sh BUILD_DIR
set -euo pipefail
build=${1:?usage: demo.sh BUILD_DIR}
insmod "$build/module/kstats.ko"
insmod "$build/tests/kmod/kstats_demo.ko"

# The view's CPUS lines: column 8 is the slot mean, 6 the count, 10 the CDF.
show() {
	echo
	echo "== $1 (kernel $(uname -r), $(nproc) CPUs): time in ns"
	grep CPUS "/sys/kernel/debug/kstats/$1" | awk '
		{ mean[NR] = $8; count[NR] = $6; cdf[NR] = $10; if ($6 > max) max = $6 }
		END {
			printf "%12s %8s %8s  %s\n", "slot mean", "count", "CDF", "distribution"
			for (i = 1; i <= NR; i++) {
				bar = ""
				for (j = 0; j < 40 * count[i] / max; j++) bar = bar "#"
				printf "%12d %8d %8.4f  %s\n", mean[i], count[i], cdf[i], bar
			}
		}'
}
show demo.kmalloc
show demo.tick_sleep
echo
echo "raw view (the original kstats format), first lines of demo.tick_sleep:"
head -n 8 /sys/kernel/debug/kstats/demo.tick_sleep
rmmod kstats_demo kstats

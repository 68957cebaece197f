#!/usr/bin/env bash
# kstats on a machine with many possible CPUs (tests/lane.sh boots the 6.12
# lane a second time with QEMU -smp 4,maxcpus=N; 4 are online): the whole
# ioctl ABI suite, whose CPU masks then reach past CPU 32 and 64 and whose
# maxactive bound (2^20 / possible CPUs) is below 65536; and what SNAPSHOT
# and the debugfs view allocate, by the kernel's kmem events.
# Usage: tests/guest/bigcpu-tests.sh BUILD_DIR POSSIBLE_CPUS
set -uo pipefail
build=${1:?usage: bigcpu-tests.sh BUILD_DIR POSSIBLE_CPUS} want=${2:?}
. tests/guest/tap.sh

ok "possible CPUs: 0-$((want - 1))" test "$(cat /sys/devices/system/cpu/possible)" = "0-$((want - 1))"
echo "# abi-tests with $want possible CPUs"
tests/guest/abi-tests.sh "$build" 2>&1 | sed 's/^/    /'
ok "abi-tests with $want possible CPUs" test "${PIPESTATUS[0]}" = 0
insmod "$build/module/kstats.ko"
echo "# alloc_test"
"$build/alloc_test" 2>&1 | sed 's/^/    /'
ok "alloc_test: SNAPSHOT and the debugfs view allocate in proportion to what they return" \
	test "${PIPESTATUS[0]}" = 0
ok "unload kstats" rmmod kstats
tap_end

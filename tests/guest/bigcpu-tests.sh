#!/usr/bin/env bash
# kstats on a machine with many possible CPUs (tests/lane.sh boots the 6.1
# lane with possible_cpus=N; 4 are online, and every suite before this one
# ran so: the ioctl ABI suite's CPU masks reach past CPU 32 and 64): the
# maxactive bound (2^20 / possible CPUs), below 65536 here; and what
# SNAPSHOT and the debugfs view allocate, by the kernel's kmem events.
# Usage: tests/guest/bigcpu-tests.sh BUILD_DIR POSSIBLE_CPUS
set -uo pipefail
build=${1:?usage: bigcpu-tests.sh BUILD_DIR POSSIBLE_CPUS} want=${2:?}
. tests/guest/tap.sh

ok "possible CPUs: 0-$((want - 1))" test "$(cat /sys/devices/system/cpu/possible)" = "0-$((want - 1))"
insmod "$build/module/kstats.ko"
limit=$((2 ** 20 / want))
out=$(cli/kstatsctl trace vfs_read --maxactive $((limit + 1)) 2>&1)
ok "kstatsctl trace --maxactive $((limit + 1)): exit 1, the bound named" \
	test "$?/$(head -n1 <<<"$out")" = "1/kstatsctl: error: --maxactive: at most $limit on this machine ($want possible CPUs)"
ok "kstatsctl trace --maxactive $limit works" cli/kstatsctl trace vfs_read --maxactive $limit
ok "kstatsctl untrace" cli/kstatsctl untrace vfs_read
echo "# alloc_test"
"$build/alloc_test" 2>&1 | sed 's/^/    /'
ok "alloc_test: SNAPSHOT and the debugfs view allocate in proportion to what they return" \
	test "${PIPESTATUS[0]}" = 0
ok "unload kstats" rmmod kstats
tap_end

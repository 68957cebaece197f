#!/usr/bin/env bash
# kstats on a machine with many possible CPUs (tests/lane.sh boots the 6.1
# lane a second time with possible_cpus=N; 4 are online): the ioctl ABI
# suite (abi_test), whose CPU masks then reach past CPU 32 and 64 and whose
# maxactive bound (2^20 / possible CPUs) is below 65536; the debugfs view's
# columns past CPU 99 ("CPUS 240", and the same in 'show -f raw'); and what
# SNAPSHOT and the debugfs view allocate, by the kernel's kmem events.
# Usage: tests/guest/bigcpu-tests.sh BUILD_DIR POSSIBLE_CPUS
set -uo pipefail
build=${1:?usage: bigcpu-tests.sh BUILD_DIR POSSIBLE_CPUS} want=${2:?}
. tests/guest/tap.sh

ok "possible CPUs: 0-$((want - 1))" test "$(cat /sys/devices/system/cpu/possible)" = "0-$((want - 1))"
echo "# abi-tests with $want possible CPUs"
# The native suite: what the CPU count changes (masks, snapshot rows, the
# maxactive bound). The lane's first boot runs all three programs.
KSTATS_ABI_PASSES=1 KSTATS_ABI_PROGS=abi_test tests/guest/abi-tests.sh "$build" 2>&1 |
	sed 's/^/    /'
ok "abi-tests with $want possible CPUs" test "${PIPESTATUS[0]}" = 0
insmod "$build/module/kstats.ko"
limit=$((2 ** 20 / want))
out=$(cli/kstatsctl trace vfs_read --keep --maxactive $((limit + 1)) 2>&1)
ok "kstatsctl trace --maxactive $((limit + 1)): exit 1, the bound named" \
	test "$?/$(unwrap <<<"$out" | head -n1)" = "1/kstatsctl: error: --maxactive: at most $limit on this machine ($want possible CPUs)"
ok "kstatsctl trace --maxactive $limit works" cli/kstatsctl trace vfs_read --keep --maxactive $limit
ok "kstatsctl untrace" cli/kstatsctl untrace vfs_read
ok "insmod kstats_selftest" insmod "$build/tests/kmod/kstats_selftest.ko"
ok "record 100 on every CPU; the debugfs view parses, exact, columns kept" sh -c \
	"echo 'record 100' >/sys/kernel/debug/kstats_selftest/ctl &&
	 $build/kstats_check record selftest.b3 3 100 &&
	 grep -q '^slot [0-9]* *CPUS $want ' /sys/kernel/debug/kstats/selftest.b3"
ok "show -f raw: the debugfs view byte for byte" sh -c \
	"cli/kstatsctl show selftest.b3 -f raw | cmp - /sys/kernel/debug/kstats/selftest.b3"
ok "rmmod kstats_selftest" rmmod kstats_selftest
echo "# alloc_test"
"$build/alloc_test" 2>&1 | sed 's/^/    /'
ok "alloc_test: SNAPSHOT and the debugfs view allocate in proportion to what they return" \
	test "${PIPESTATUS[0]}" = 0
ok "unload kstats" rmmod kstats
tap_end

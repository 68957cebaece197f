#!/usr/bin/env bash
# `make bench`, guest side: runs the record-path benchmark module and prints
# its figures (tests/kmod/kstats_bench.c says what each one is).
# Usage: tests/guest/bench.sh BUILD_DIR
set -euo pipefail
build=${1:?usage: bench.sh BUILD_DIR}
insmod "$build/module/kstats.ko"
insmod "$build/tests/kmod/kstats_bench.ko"
rmmod kstats_bench kstats
echo "# kstats record path, kernel $(uname -r), clocksource $(cat /sys/devices/system/clocksource/clocksource0/current_clocksource)"
dmesg | sed -n 's/.*kstats_bench: //p' | grep -v '^done$'
dmesg | grep 'kstats_bench: done' >/dev/null	# not -q: dmesg would get SIGPIPE
if dmesg | grep 'unloaded without kstats_delete' >/dev/null; then
	echo "error: kstats_bench left metrics behind" >&2
	exit 1
fi
echo
# What one SNAPSHOT allocates (kmem events), here and in the 240-CPU boot of the
# 6.1 lane (tests/guest/bigcpu-tests.sh), where it is also checked.
insmod "$build/module/kstats.ko"
echo "# SNAPSHOT memory, possible CPUs $(cat /sys/devices/system/cpu/possible):"
"$build/alloc_test" | sed -n 's/^# \(.*bytes allocated.*\)/#   \1/p'
rmmod kstats
echo
tests/guest/trace-bench.sh "$build"

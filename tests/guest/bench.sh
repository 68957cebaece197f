#!/usr/bin/env bash
# `make bench`, guest side: runs the record-path benchmark module and prints
# its figures (tests/kmod/kstats_bench.c says what each one is), what one
# SNAPSHOT allocates (alloc_test), then the tracing overhead
# (tests/guest/trace-bench.sh), then the cost of timing a user-space function
# (tests/guest/uprobe-bench.sh), then that of a pattern of 1 to 1,000
# functions (tests/guest/many-bench.sh).
# Usage: tests/guest/bench.sh BUILD_DIR [PART...]
#   PART: record, alloc, trace, uprobe, many (default: all five, in that order)
set -euo pipefail
build=${1:?usage: bench.sh BUILD_DIR [record|alloc|trace|uprobe|many]...}
shift
parts=" ${*:-record alloc trace uprobe many} "

if [[ $parts == *" record "* ]]; then
	insmod "$build/module/kstats.ko"
	insmod "$build/tests/kmod/kstats_bench.ko"
	rmmod kstats_bench kstats
	echo "# kstats record path, kernel $(uname -r), clocksource $(cat /sys/devices/system/clocksource/clocksource0/current_clocksource)"
	echo "# guest CPU: $(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -n1)" \
		"under ${KSTATS_VM_ACCEL_USED:-an unknown accelerator}"
	dmesg | sed -n 's/.*kstats_bench: //p' | grep -v '^done$'
	dmesg | grep 'kstats_bench: done' >/dev/null	# not -q: dmesg would get SIGPIPE
	if dmesg | grep 'unloaded without kstats_delete' >/dev/null; then
		echo "error: kstats_bench left metrics behind" >&2
		exit 1
	fi
	echo
fi
if [[ $parts == *" alloc "* ]]; then
	# What one SNAPSHOT allocates (the call's own kmalloc and percpu
	# events), here and in the 240-CPU boot of the 6.1 lane
	# (tests/guest/bigcpu-tests.sh), where it is also checked. alloc_test
	# fails (and so the bench) past twice what the call returns plus 8 KB.
	insmod "$build/module/kstats.ko"
	echo "# SNAPSHOT memory, possible CPUs $(cat /sys/devices/system/cpu/possible):"
	tap=$("$build/alloc_test" 2>&1) ||
		{ printf '%s\n' "$tap"; echo "error: alloc_test failed (above)" >&2; exit 1; }
	sed -n 's/^# \(.*bytes allocated.*\)/#   \1/p' <<<"$tap"
	rmmod kstats
	echo
fi
if [[ $parts == *" trace "* ]]; then
	tests/guest/trace-bench.sh "$build"
fi
if [[ $parts == *" uprobe "* ]]; then
	echo
	tests/guest/uprobe-bench.sh "$build"
fi
if [[ $parts == *" many "* ]]; then
	echo
	tests/guest/many-bench.sh "$build"
fi

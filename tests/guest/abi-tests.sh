#!/usr/bin/env bash
# The /dev/kstats ioctl ABI tests of one lane, run inside the VM
# (tests/vm/run.sh) as root from the repository root, with kstats not loaded.
# Up to two passes of abi_test, abi_test32 (-m32, the compat ioctl path: required)
# and abi_stress; in the second, abi_stress runs while kstats_selftest
# records on every CPU in a loop. Then no metric but selftest.* may be left.
# Prints TAP (each program's own TAP indented under it); exits non-zero if
# anything failed.
# Usage: tests/guest/abi-tests.sh BUILD_DIR
set -uo pipefail
build=${1:?usage: abi-tests.sh BUILD_DIR}
kmod=$build/tests/kmod
view=/sys/kernel/debug/kstats
ctl=/sys/kernel/debug/kstats_selftest/ctl
. tests/guest/tap.sh

# prog NAME CMD...: runs a TAP program, its output indented; one TAP line for it.
prog() {
	local name=$1 rc
	shift
	echo "# $name"
	"$@" 2>&1 | sed 's/^/    /'
	rc=${PIPESTATUS[0]}
	nr_tests=$((nr_tests + 1))
	if ((rc == 0)); then
		echo "ok $nr_tests - $name"
	else
		nr_failed=$((nr_failed + 1))
		echo "not ok $nr_tests - $name (exit status $rc)"
		((rc == 126 || rc == 127)) && echo "#   cannot run $1 (missing, or an -m32 binary on a kernel without CONFIG_IA32_EMULATION)"
	fi
}

# Whether INFO must list FPROBE: kstats uses fprobe from 6.4 (per-call entry
# data) if the kernel has it.
expect_fprobe() {
	local major minor
	IFS=. read -r major minor _ <<<"$(uname -r)"
	if ((major > 6 || (major == 6 && minor >= 4))) &&
		grep -qw register_fprobe_ips /proc/kallsyms; then
		echo 1
	else
		echo 0
	fi
}

# stress_loaded: abi_stress while a background loop writes 'record 2000' to
# kstats_selftest until a flag file appears. A FIFO says the loop has
# recorded once before abi_stress starts; nothing sleeps.
stress_loaded() {
	local dir bg rc
	dir=$(mktemp -d) || return 1
	mkfifo "$dir/started" || return 1
	(
		n=1 failed=0
		echo 'record 2000' >"$ctl" || failed=1
		echo started >"$dir/started"
		while [ ! -e "$dir/stop" ]; do
			echo 'record 2000' >"$ctl" || failed=$((failed + 1))
			n=$((n + 1))
		done
		echo "# background: $n writes of 'record 2000', $failed failed"
		((failed == 0))
	) &
	bg=$!
	read -r _ <"$dir/started"
	"$build/abi_stress"
	rc=$?
	touch "$dir/stop"
	wait "$bg" || { echo "# background recording failed"; rc=1; }
	rm -rf "$dir"
	return $rc
}

# No metric but the selftest module's is left.
only_selftest_left() {
	local f left=()
	for f in "$view"/*; do
		[[ -e $f && ${f##*/} != selftest.* && ${f##*/} != _control ]] && left+=("${f##*/}")
	done
	((${#left[@]} == 0)) || { echo "left: ${left[*]}"; return 1; }
	test -e "$view/selftest.b0" || { echo "selftest.b0 is gone"; return 1; }
}

export KSTATS_EXPECT_FPROBE=${KSTATS_EXPECT_FPROBE:-$(expect_fprobe)}
echo "# lane ${KSTATS_LANE:-?}, kernel $(uname -r), $(nproc) CPUs, FPROBE expected: $KSTATS_EXPECT_FPROBE"
ok "insmod kstats" insmod "$build/module/kstats.ko"
ok "insmod kstats_selftest" insmod "$kmod/kstats_selftest.ko"
ok "abi_test32 is there" test -x "$build/abi_test32"

# KSTATS_ABI_PASSES: which passes, "1 2" by default (main-tests.sh picks
# per lane: 1 on the stock lanes and in the many-CPU boot, 2 under the
# sanitizers and on PREEMPT_RT). KSTATS_ABI_PROGS: which programs, all
# three by default ("abi_test abi_test32 abi_stress"); a lane that has
# another lane's kernel but for one property runs those that test it
# (bigcpu-tests.sh, main-tests.sh).
progs=" ${KSTATS_ABI_PROGS:-abi_test abi_test32 abi_stress} "
first=1
for pass in ${KSTATS_ABI_PASSES:-1 2}; do
	# Outliers (abi_outl.c) in the first pass only: they time slow reads,
	# and another pass adds nothing for them (lane time).
	export KSTATS_ABI_OUTLIERS=$first
	first=0
	[[ $progs == *" abi_test "* ]] && prog "pass $pass: abi_test" "$build/abi_test"
	[[ $progs == *" abi_test32 "* ]] &&
		prog "pass $pass: abi_test32 (-m32, compat ioctl)" "$build/abi_test32"
	if [[ $progs != *" abi_stress "* ]]; then
		:
	elif ((pass == 1)); then
		prog "pass 1: abi_stress" "$build/abi_stress"
	else
		prog "pass 2: abi_stress while kstats_selftest records in a loop" stress_loaded
	fi
	ok "pass $pass: no metric but selftest.* left" only_selftest_left
done
ok "/dev/kstats mode back to 0600" test "$(stat -c %a /dev/kstats)" = 600

ok "rmmod kstats_selftest" rmmod kstats_selftest
ok "rmmod kstats" rmmod kstats
ok "debugfs kstats/ removed" test ! -e "$view"

tap_end

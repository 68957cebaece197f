#!/usr/bin/env bash
# The kernel-side tests of one lane, run inside the VM (tests/vm/run.sh) from
# the repository root. Prints TAP; exits non-zero if any test failed.
# Usage: tests/guest/lane-tests.sh BUILD_DIR
set -uo pipefail
build=${1:?usage: lane-tests.sh BUILD_DIR}
kmod=$build/tests/kmod
check=$build/kstats_check
view=/sys/kernel/debug/kstats
ctl=/sys/kernel/debug/kstats_selftest/ctl
. tests/guest/tap.sh

put() { echo "$2" >"$1"; }	# put FILE TEXT

fails_with() {	# fails_with ERRNO-TEXT CMD...: CMD must fail saying ERRNO-TEXT
	local want=$1 out
	shift
	out=$("$@" 2>&1) && { echo "unexpected success"; return 1; }
	grep -q "$want" <<<"$out" || { echo "want '$want', got: $out"; return 1; }
}

each_bits() {	# each_bits MODE N: kstats_check MODE on selftest.b0..b5
	local b
	for b in 0 1 2 3 4 5; do
		"$check" "$1" "selftest.b$b" "$b" "$2" || { echo "frac_bits $b"; return 1; }
	done
}

each_empty() {
	local b
	for b in 0 1 2 3 4 5; do "$check" empty "selftest.b$b" || return 1; done
}

reset_all() {
	local b
	for b in 0 1 2 3 4 5; do echo reset >"$view/selftest.b$b" || return 1; done
}

race() {	# race ROUNDS: record on all CPUs while reset/stop/start loops
	put "$ctl" "race $1" || return 1
	"$check" race selftest.race 3 "$(race_value)" "$(cat /sys/kernel/debug/kstats_selftest/made)"
}

race_value() { echo $(((1 << 20) + (1 << 17) + 12345)); }	# SELFTEST_RACE_VALUE

echo "# lane ${KSTATS_LANE:-?}, kernel $(uname -r), $(nproc) CPUs"
ok "insmod kstats" insmod "$build/module/kstats.ko"
ok "debugfs kstats/ exists" test -d "$view"
ok "insmod kstats_selftest (in-kernel API checks)" insmod "$kmod/kstats_selftest.ko"
ok "API checks passed" sh -c 'dmesg | grep -q "kstats_selftest: API checks passed"'
ok "rmmod kstats refused while a consumer is loaded" fails_with "in use" rmmod kstats

ok "fresh metrics are empty" each_empty
ok "record 1000 on every CPU at once" put "$ctl" "record 1000"
ok "view matches exactly, frac_bits 0..5" each_bits record 1000
ok "reset empties every slot" reset_all
ok "view empty after reset" each_empty
ok "RESET is case-insensitive" put "$view/selftest.b0" RESET

ok "record 400 from a hard hrtimer (hardirq)" put "$ctl" "irq 400"
ok "hardirq view matches exactly" each_bits irq 400
reset_all

ok "stop selftest.b3" put "$view/selftest.b3" stop
ok "record 50 with b3 stopped" put "$ctl" "record 50"
ok "stopped metric recorded nothing" "$check" empty selftest.b3
ok "others recorded" "$check" record selftest.b2 2 50
ok "start selftest.b3" put "$view/selftest.b3" Start
reset_all
ok "record 50 after start" put "$ctl" "record 50"
ok "started metric records exactly" each_bits record 50
reset_all

# Under KASAN a round costs ~25 ms: fewer rounds there (make check's time),
# the same interleavings on the stock lanes.
races=2000 cycles=20
[[ ${KSTATS_LANE:-} == debug ]] && races=600 cycles=6
ok "race: reset/stop/start x$races while all CPUs record" race $races
ok "race: reset while quiet empties it" sh -c "echo reset >$view/selftest.race && $check empty selftest.race"
ok "race again: x500" race 500
ok "record after the race is exact" sh -c "echo reset >$view/selftest.b4 && echo 'record 20' >$ctl && $check record selftest.b4 4 20"

ok "bad command to a view: EINVAL" fails_with "Invalid argument" put "$view/selftest.b0" bogus
ok "bad command to ctl: EINVAL" fails_with "Invalid argument" put "$ctl" "frob 1"

ok "rmmod kstats_selftest" rmmod kstats_selftest
ok "its metrics are gone" sh -c "test -z \"\$(ls -I _control $view)\""

ok "insmod a module that forgets kstats_delete" insmod "$kmod/kstats_forget.ko"
ok "its metric exists with its sample" sh -c "grep -q 'slot.*CPUS.*count        1 avg       42' $view/selftest.forgotten"
ok "rmmod it" rmmod kstats_forget
ok "kstats warned and deleted the metric" sh -c "dmesg | grep -q 'module kstats_forget unloaded without kstats_delete(\"selftest.forgotten\")' && test ! -e $view/selftest.forgotten"
ok "the name is free again" sh -c "insmod $kmod/kstats_forget.ko && rmmod kstats_forget"
# Loads only if every check passes (see the module); the reasons go to dmesg.
ok "trace exits: clock stepping back is a miss, a stop drops the call, GAP restarts after start" \
	sh -c "insmod $kmod/kstats_probe_test.ko && rmmod kstats_probe_test"
ok "sections: a free slot before a stale one, ends pair and free, no claim from a stale owner word" \
	sh -c "insmod $kmod/kstats_section_test.ko && rmmod kstats_section_test"
ok "outliers: a capture re-entered from inside one (a probe on stack_trace_save) nests no deeper, counted rate-limited" \
	sh -c "insmod $kmod/kstats_outlier_test.ko && rmmod kstats_outlier_test"

ok "rmmod kstats" rmmod kstats
ok "debugfs kstats/ removed" test ! -e "$view"

load_cycle() {
	local i
	for i in $(seq "$cycles"); do
		insmod "$build/module/kstats.ko" &&
		insmod "$kmod/kstats_selftest.ko" &&
		echo 'record 3' >"$ctl" &&
		"$check" record selftest.b1 1 3 &&
		rmmod kstats_selftest && rmmod kstats || { echo "cycle $i"; return 1; }
	done
}
ok "load, record, unload x$cycles" load_cycle

tap_end

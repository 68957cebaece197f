#!/usr/bin/env bash
# trace/untrace xROUNDS (40) while every CPU calls the traced function. Needs the
# VM's single-threaded TCG (tests/vm/run.sh): multi-threaded TCG runs stale
# code that one vCPU patches while others run it, which crashes the
# kernel's own ftrace and kprobe events the same way, kstats loaded or not.
# Usage: tests/guest/churn-tests.sh BUILD_DIR [ROUNDS]
set -uo pipefail
build=${1:?usage: churn-tests.sh BUILD_DIR [ROUNDS]} rounds=${2:-40}
insmod "$build/module/kstats.ko" && insmod "$build/tests/kmod/kstats_target.ko" || exit 1
"$build/trace_test" churn 0 "$rounds"	# KSTATS_MECH_AUTO: this kernel's default mechanism
rc=$?
rmmod kstats_target && rmmod kstats || rc=1
exit $rc

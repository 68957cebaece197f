#!/usr/bin/env bash
# User-space functions (uprobes) and USDT sections of one lane, run inside the VM (kstats not
# loaded when it starts, and not when it ends). Prints TAP; exits non-zero
# on a failure. Usage: tests/guest/uprobe-tests.sh BUILD_DIR
set -uo pipefail
build=${1:?usage: uprobe-tests.sh BUILD_DIR}
rc=0
tap() { if "${@:2}"; then echo "ok - $1"; else echo "not ok - $1"; rc=1; fi; }

tap "insmod kstats" insmod "$build/module/kstats.ko"
python3 tests/guest/uprobe_test.py "$build" || rc=1
python3 tests/guest/uvalue_test.py "$build" || rc=1
python3 tests/guest/usplit_test.py "$build" || rc=1
python3 tests/guest/usdt_test.py "$build" || rc=1
python3 tests/guest/usdt_value_test.py "$build" || rc=1
python3 tests/guest/ucost_test.py "$build" || rc=1
tap "rmmod kstats right after the last untrace" rmmod kstats
exit $rc

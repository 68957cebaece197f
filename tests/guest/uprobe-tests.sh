#!/usr/bin/env bash
# User-space functions (uprobes) and USDT sections of one lane, run inside the VM (kstats not
# loaded when it starts, and not when it ends). Prints TAP; exits non-zero
# on a failure. Usage: tests/guest/uprobe-tests.sh BUILD_DIR
set -uo pipefail
build=${1:?usage: uprobe-tests.sh BUILD_DIR}
rc=0
tap() { if "${@:2}"; then echo "ok - $1"; else echo "not ok - $1"; rc=1; fi; }

tap "insmod kstats" insmod "$build/module/kstats.ko"
for t in uprobe_test uvalue_test usplit_test usdt_test usdt_value_test ucost_test; do
	t0=$SECONDS
	python3 "tests/guest/$t.py" "$build" || rc=1
	echo "# $t.py: $((SECONDS - t0)) s"
done
tap "rmmod kstats right after the last untrace" rmmod kstats
exit $rc

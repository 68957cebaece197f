#!/usr/bin/env bash
# The expr checks alone (values, predicates, bpftrace's hist()), inside the
# VM, for a focused run: tests/vm/run.sh LANE tests/guest/expr-tests.sh
# build/LANE. trace-tests.sh runs the same checks within trace_test.
set -uo pipefail
build=${1:?usage: expr-tests.sh BUILD_DIR}
rc=0
insmod "$build/module/kstats.ko" && insmod "$build/tests/kmod/kstats_target.ko" || exit 1
"$build/trace_test" expr || rc=1
# The 7.x lanes: Debian 13's bpftrace hist(n, 3) too (trace-tests.sh fails
# such a lane without it).
. "$build/kernel.env"	# KVER, KROOT
if [[ -n ${KROOT:-} ]]; then
	"$build/trace_test" expr-bpftrace3 "$KROOT" || rc=1
fi
rmmod kstats_target && rmmod kstats || rc=1
exit $rc

#!/usr/bin/env bash
# The expr checks alone (values, predicates, bpftrace's hist()), inside the
# VM, for a focused run: tests/vm/run.sh LANE tests/guest/expr-tests.sh
# build/LANE. trace-tests.sh runs the same checks within trace_test.
set -uo pipefail
build=${1:?usage: expr-tests.sh BUILD_DIR}
rc=0
insmod "$build/module/kstats.ko" && insmod "$build/tests/kmod/kstats_target.ko" || exit 1
"$build/trace_test" expr || rc=1
rmmod kstats_target && rmmod kstats || rc=1
exit $rc

#!/usr/bin/env bash
# Tracing tests of one lane, run inside the VM (kstats not loaded when it
# starts, and not when it ends). Prints TAP; exits non-zero on a failure.
# Usage: tests/guest/trace-tests.sh BUILD_DIR
set -uo pipefail
build=${1:?usage: trace-tests.sh BUILD_DIR}
kmod=$build/tests/kmod
rc=0
tap() { if "${@:2}"; then echo "ok - $1"; else echo "not ok - $1"; rc=1; fi; }

tap "insmod kstats and the tracing target" sh -c "insmod $build/module/kstats.ko && insmod $kmod/kstats_target.ko"
"$build/trace_test" || rc=1
# Each allocation of UNTRACE, then of a _control trace command, fails in
# turn (fail-nth). The debug kernel has fault injection; others skip, said so.
if [[ ${KSTATS_LANE:-} == debug && ! -e /proc/self/fail-nth ]]; then
	tap "the debug kernel has fault injection" false
fi
"$build/trace_test" untrace-faults || rc=1
"$build/trace_test" control-faults || rc=1
# Traces on a module's init code (each mechanism), made while its init
# runs, detach before the module goes live and frees that code.
. tests/guest/tap.sh	# wait_for
init_go=/sys/kernel/debug/kstats_init_target/go
insmod "$kmod/kstats_init_target.ko" calls=10 &
init_pid=$!
tap "kstats_init_target's init waits for its trace" wait_for test -e "$init_go"
"$build/trace_test" init-text || rc=1
tap "its init returns" wait "$init_pid"
tap "the kernel log says the traces on init code detached" sh -c \
	"dmesg | grep -q 'trace t.init.kr detached: module kstats_init_target freed its init code'"
"$build/trace_test" detached t.init.kr 10 || rc=1
if [[ -e /sys/kernel/debug/kstats/t.init.fp ]]; then
	"$build/trace_test" detached t.init.fp 10 || rc=1
	"$build/../../cli/kstatsctl" --no-autoload untrace t.init.fp || rc=1
fi
tap "untrace, rmmod kstats_init_target" sh -c \
	"$build/../../cli/kstatsctl --no-autoload untrace t.init.kr && rmmod kstats_init_target"
# The traced function's module goes away under a trace (each mechanism):
# the trace detaches, keeps what it recorded, and never records again, even
# when the module comes back (perhaps at the same address); then untrace.
"$build/trace_test" leave t.left1 kretprobe || rc=1
"$build/trace_test" leave t.left2 auto || rc=1
tap "rmmod of a traced module" rmmod kstats_target
tap "the kernel log says the traces detached" sh -c \
	"dmesg | grep -q 'trace t.left1 detached: module kstats_target unloaded' &&
	 dmesg | grep -q 'trace t.left2 detached: module kstats_target unloaded'"
# t.left1 saw the calls of both "leave" runs (same function), t.left2 one.
"$build/trace_test" detached t.left1 20 || rc=1
"$build/trace_test" detached t.left2 10 || rc=1
tap "kstatsctl list says detached" sh -c \
	"$build/../../cli/kstatsctl --no-autoload list | grep -Eq '^t\.left1 +trace .* detached '"
tap "insmod the target again" insmod "$kmod/kstats_target.ko"
"$build/trace_test" detached t.left1 20 call || rc=1
"$build/trace_test" detached t.left2 10 call || rc=1
tap "untrace after its module left" "$build/../../cli/kstatsctl" --no-autoload untrace t.left1 t.left2
tap "rmmod the target" rmmod kstats_target
# kstats goes away with a trace still attached (no consumer holds it).
tap "insmod the target again" insmod "$kmod/kstats_target.ko"
"$build/trace_test" leave t.left3 || rc=1
tap "rmmod kstats with a live trace" rmmod kstats
tap "rmmod the target" rmmod kstats_target
exit $rc

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
# bpftrace's hist(n, 3) against kstats at frac_bits 3: Debian 13's bpftrace
# (>= 0.21), in the root the 7.x lanes build in (tests/vm/kernel.sh); a 7.x
# lane without it fails, the others have no such bpftrace and say so.
. "$build/kernel.env"	# KVER, KROOT
if [[ -n ${KROOT:-} || ${KSTATS_LANE:-} == 7.* ]]; then
	bpf3=$(cat "${KROOT:-/nonexistent}/.kstats-bpftrace" 2>/dev/null)
	if [[ -n $KROOT && -n $bpf3 && -x $KROOT/usr/bin/bpftrace ]]; then
		echo "# Debian 13's bpftrace $bpf3 in $KROOT"
		"$build/trace_test" expr-bpftrace3 "$KROOT" || rc=1
	else
		tap "lane ${KSTATS_LANE:-?}: Debian 13's bpftrace in the build root '${KROOT:-}'" false
	fi
else
	echo "ok - hist(n, 3) against frac_bits 3 # skip lane ${KSTATS_LANE:-?} has no bpftrace >= 0.21 (Debian 13's is in the 7.x lanes' root)"
fi
# Sampling and the overhead governor, each mechanism (~15 s under emulation).
python3 tests/guest/governor.py "$build/../../cli/kstatsctl" || rc=1
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
# SNAPSHOT needs no privilege, so it must never wait unkillably behind an
# UNTRACE, which holds the trace lock across synchronize_rcu(). The target
# holds a grace period open until told: an UNTRACE waits in it, a SNAPSHOT
# of a trace waits for the lock, and SIGKILL must end the SNAPSHOT while
# the UNTRACE still waits. (The target lets go by itself after 15 s, short
# of RCU's stall warning; the test fails if that happened first.)
# The holder spins in its read-side section. Where RCU boosts the readers
# that hold up a grace period (6.12-rt: RCU_BOOST, after 500 ms), it then
# runs at a real-time priority and keeps its CPU from every ordinary task:
# 6.12-rt lanes under load saw the SNAPSHOT reach the lock only after the
# hold had ended. So the holder has a CPU of its own, and the test's
# processes the others.
snapshot_killable() {
	local last=$(($(nproc) - 1))
	((last > 0)) || { snapshot_killable_on 0; return; }
	(taskset -pc "0-$((last - 1))" "$BASHPID" >/dev/null && snapshot_killable_on "$last")
}
# snapshot_killable_on CPU: the holder runs on CPU.
snapshot_killable_on() {
	local K=$build/../../cli/kstatsctl hold=/sys/kernel/debug/kstats_target/rcu_holding
	local holder untr snap rc=0 t0 t1
	$K --no-autoload trace --keep --name t.kill1 ktarget_empty >/dev/null &&
		$K --no-autoload trace --keep --name t.kill2 ktarget_empty >/dev/null || return 1
	taskset -c "$1" sh -c 'echo rcu_hold >/sys/kernel/debug/kstats_target/ctl' &
	holder=$!
	# A grace period waits only for readers that began before it.
	wait_for grep -qx 1 "$hold" || return 1
	t0=$SECONDS
	$K --no-autoload untrace t.kill1 &
	untr=$!
	wait_for grep -q kstats_trace_stop "/proc/$untr/stack" || { echo "no UNTRACE waiting"; rc=1; }
	t1=$SECONDS
	$K --no-autoload show t.kill2 >/dev/null 2>&1 &
	snap=$!
	# show's LIST first: it makes a trace's new key metrics, under the lock too.
	((rc)) || wait_for grep -qE 'kstats_trace_(stats|publish_keys)' "/proc/$snap/stack" ||
		{ echo "no SNAPSHOT waiting for the lock"; rc=1; }
	echo "# the UNTRACE seen waiting $((t1 - t0)) s and the SNAPSHOT $((SECONDS - t0)) s into" \
		"the hold; the holder's priority: $(cut -d' ' -f18 "/proc/$holder/stat")" \
		"(20: as it started; -2: boosted to real-time priority 1)"
	kill -9 "$snap"
	# Where it still is, if SIGKILL did not end it within 2 s.
	if ! timeout 2 tail --pid="$snap" -f /dev/null; then
		echo "# the SNAPSHOT lives on after SIGKILL: state $(cut -d' ' -f3 "/proc/$snap/stat" 2>/dev/null), stack:"
		sed 's/^/#   /' "/proc/$snap/stack" 2>/dev/null
	fi
	wait "$snap"
	# The SNAPSHOT is gone. While the hold still reads 1, the grace period
	# the UNTRACE waits in cannot have ended; and its process must not have
	# exited. (Not its /proc stack again: read while the task runs, it can
	# come back empty. A 6.12-rt gate failed the old check once, the hold
	# or the stack: which is not known. Each check now says which failed.)
	if ((rc == 0)) && ! grep -qx 1 "$hold"; then
		echo "the hold ended before the SNAPSHOT did ($((SECONDS - t0)) s in; the target ends it at 15 s)"
		rc=1
	elif ((rc == 0)) && [[ $(cut -d' ' -f3 "/proc/$untr/stat" 2>/dev/null) == Z || ! -e /proc/$untr ]]; then
		echo "the UNTRACE returned inside the grace period"
		rc=1
	fi
	echo "# the SNAPSHOT killed $((SECONDS - t0)) s into the hold"
	echo 0 >"$hold"
	wait "$untr" && wait "$holder" && $K --no-autoload untrace t.kill2 && return $rc
}
tap "a SNAPSHOT waiting behind UNTRACE dies at SIGKILL" snapshot_killable
# --split: where each call's time went, against the scheduler (each
# mechanism); kernels whose sched_switch has no prev_state say so instead.
K_=$build/../../cli/kstatsctl
if $K_ --no-autoload info | grepq '^features .* split'; then
	for m in $($K_ --no-autoload -j info | python3 -c 'import json, sys
print(" ".join(m for m in json.load(sys.stdin)["module"]["mechanisms"] if m in ("fprobe", "kretprobe")))'); do
		python3 tests/guest/timesplit.py "$K_" "$m" "$build/hog" || rc=1
	done
else
	tap "--split on a kernel without it: a clear error, nothing attached" sh -c \
		"$K_ --no-autoload trace ktarget_busy --split --keep 2>&1 | tr -s ' \n' ' ' | grep -q 'does not say whether a task' &&
		 ! $K_ --no-autoload list | grep -q ktarget_busy"
fi
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
# Each trace holds kstats (issue 30 C2): rmmod is refused while one exists,
# attached or detached, and its probes keep working; after untrace kstats goes.
tap "insmod the target again" insmod "$kmod/kstats_target.ko"
"$build/trace_test" leave t.left3 || rc=1
tap "rmmod kstats refused with a live trace" sh -c \
	"! rmmod kstats 2>/tmp/rmmod.err && grep -q 'in use' /tmp/rmmod.err && test -e /sys/module/kstats"
tap "untrace it" "$build/../../cli/kstatsctl" --no-autoload untrace t.left3
tap "rmmod kstats once no trace is left" rmmod kstats
tap "rmmod the target" rmmod kstats_target
exit $rc

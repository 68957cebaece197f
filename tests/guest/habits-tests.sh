#!/usr/bin/env bash
# kstatsctl trace as bcc's and bpftrace's users type it (issue 32, stage 1),
# inside the VM (tests/vm/run.sh), from the repository root as root, with
# cli/kstatsctl built on the host beforehand. Prints TAP; exits non-zero if
# any test failed.
# Usage: tests/guest/habits-tests.sh BUILD_DIR
#   BUILD_DIR/module/kstats.ko, BUILD_DIR/tests/kmod/kstats_target.ko
#
# Every count is exact: kstats_target's "empty N" makes N calls of
# ktarget_empty() before the write returns, and "calls" reads back how many
# its last command made. A one-shot trace says "kstatsctl: tracing NAME"
# on stderr once its probe is attached (after KSTATS_IOC_TRACE returned):
# the tests wait for that line, a state, never for a time.
set -uo pipefail
build=${1:?usage: habits-tests.sh BUILD_DIR}
build=$(realpath "$build")
top=$PWD
K=${KSTATS_CTL:-$top/cli/kstatsctl}
ctl=/sys/kernel/debug/kstats_target/ctl
calls=/sys/kernel/debug/kstats_target/calls
schema=$top/cli/kstatsctl.schema.json
validate=$top/tests/cli/validate.py
py=/usr/bin/python3
tmp=$(mktemp -d)
export KSTATS_COLOR=never
. tests/guest/tap.sh

cleanup() {
	"$K" untrace --all >/dev/null 2>&1
	rmmod kstats_target 2>/dev/null
	rmmod kstats 2>/dev/null
	rm -rf "$tmp"
}
trap cleanup EXIT

insmod "$build/module/kstats.ko" && insmod "$build/tests/kmod/kstats_target.ko" ||
	{ echo "Bail out! cannot load kstats and kstats_target"; exit 1; }

# Nothing but kstats and the target is loaded: list has no metric unless a
# test left one.
list_empty() {
	local out
	out=$("$K" list) || return 1
	[[ $out == "no metrics" ]] || { echo "$out"; return 1; }
}
ok "list is empty to begin with" list_empty
started() { grep -q '^kstatsctl: tracing ' "$1" 2>/dev/null; }
# started_soon FILE: as wait_for started, polling every 10 ms (a short run).
started_soon() {
	local i
	for ((i = 0; i < 6000; i++)); do
		started "$1" && return 0
		sleep 0.01
	done
	return 1
}
count_of() {	# count_of FILE NAME: the count of NAME in a show -j document
	"$py" -c 'import json, sys
print(next(m["count"] for m in json.load(open(sys.argv[1]))["metrics"] if m["name"] == sys.argv[2]))' "$1" "$2"
}

# trace F, Ctrl-C: the histogram of exactly the calls made, then nothing left.
oneshot_sigint() {
	local pid
	"$K" trace ktarget_empty --name hb.once >"$tmp/once.txt" 2>"$tmp/once.err" &
	pid=$!
	wait_for started "$tmp/once.err" || { kill -INT "$pid"; return 1; }
	echo "empty 1000" >"$ctl" && kill -INT "$pid" && wait "$pid" || return 1
	cat "$tmp/once.err"
	grep -q '^kstatsctl: tracing hb.once until Ctrl-C$' "$tmp/once.err" &&
		grep -q '^count 1000 ' "$tmp/once.txt" || { cat "$tmp/once.txt"; return 1; }
	list_empty
}
ok "trace F (no option), Ctrl-C: the histogram of exactly the 1000 calls; list empty after" \
	oneshot_sigint

# The same with -j and SIGTERM: one JSON document, valid, and nothing left.
oneshot_json() {
	local pid
	"$K" -j trace ktarget_empty --name hb.json >"$tmp/once.json" 2>"$tmp/json.err" &
	pid=$!
	wait_for sh -c "'$K' -j show hb.json 2>/dev/null | grep -q '\"floor_ns\": [1-9]'" ||
		{ kill -TERM "$pid"; return 1; }
	echo "empty 700" >"$ctl" && kill -TERM "$pid" && wait "$pid" || return 1
	"$py" "$validate" schema "$schema" "$tmp/once.json" &&
		[[ $(count_of "$tmp/once.json" hb.json) == 700 && ! -s $tmp/json.err ]] || return 1
	list_empty
}
ok "trace F -j, SIGTERM: one JSON document (schema), count exactly 700; list empty after" \
	oneshot_json

# A second Ctrl-C ends the command at once; the kernel still removes the trace.
second_signal() {
	local pid
	"$K" trace ktarget_empty --name hb.twice -i 10ms >/dev/null 2>"$tmp/twice.err" &
	pid=$!
	wait_for started "$tmp/twice.err" || { kill -INT "$pid"; return 1; }
	kill -INT "$pid"
	kill -INT "$pid" 2>/dev/null
	wait "$pid"
	list_empty
}
ok "trace F -i 10ms, Ctrl-C twice: ended, list empty" second_signal

# kill -9: nothing runs in the command; the kernel removes the trace with its file.
killed() {
	local pid
	"$K" trace ktarget_empty --name hb.kill 2>"$tmp/kill.err" >/dev/null &
	pid=$!
	wait_for started "$tmp/kill.err" || { kill -INT "$pid"; return 1; }
	kill -KILL "$pid"
	wait "$pid"
	wait_for list_empty
}
ok "trace F, kill -9: list empty (the kernel removed the trace)" killed

# -d ends it by itself: count 0 (no call made), nothing left.
duration_units() {
	timeout 120 "$K" trace ktarget_empty --name hb.dur -d 300ms >"$tmp/dur.txt" 2>/dev/null &&
		grep -q '^count 0' "$tmp/dur.txt" && list_empty
}
ok "trace F -d 300ms: ends by itself, prints, list empty" duration_units

# -p: only the calls of that process. This shell's builtin echo writes
# (its pid), a child sh's do not count.
pid_filter() {
	"$K" trace ktarget_empty --name hb.pid -p "$BASHPID" --keep 2>/dev/null || return 1
	echo "empty 300" >"$ctl" && sh -c "echo 'empty 200' >$ctl" || return 1
	"$K" -j show hb.pid >"$tmp/pid.json" && "$K" untrace hb.pid || return 1
	[[ $(count_of "$tmp/pid.json" hb.pid) == 300 ]] && list_empty
}
ok "trace F -p PID --keep: exactly that process's 300 calls, not another's 200" pid_filter

# --keep: returns at once, says how to see it and how to stop it, show works.
keep() {
	local line
	timeout 20 "$K" trace ktarget_empty --name hb.keep --keep 2>"$tmp/keep.err" || return 1
	line="kstatsctl: tracing ktarget_empty until 'kstatsctl untrace hb.keep'; 'kstatsctl show hb.keep' shows it"
	[[ $(cat "$tmp/keep.err") == "$line" ]] || { cat "$tmp/keep.err"; return 1; }
	echo "empty 500" >"$ctl" || return 1
	"$K" -j show hb.keep >"$tmp/keep.json" && [[ $(count_of "$tmp/keep.json" hb.keep) == 500 ]] ||
		return 1
	"$K" untrace hb.keep && list_empty
}
ok "trace F --keep: returns at once, one stderr line (show, untrace), show counts the 500 calls" keep

# -i 0.2 -c 3 -o FILE: three intervals in the HdrHistogram log, adding up to
# the target's own count of the calls made while traced.
hlog() {
	local pid n sum
	"$K" trace ktarget_empty --name hb.log -i 0.2 -c 3 -o "$tmp/x.hlog" >"$tmp/log.txt" \
		2>"$tmp/log.err" &
	pid=$!
	started_soon "$tmp/log.err" || { kill -INT "$pid"; return 1; }
	echo "empty 2000" >"$ctl" || { kill -INT "$pid"; return 1; }
	n=$(cat "$calls")
	timeout 120 tail --pid="$pid" -f /dev/null
	wait "$pid" || return 1
	grep -q '^#\[kstats: tag=hb\.log frac_bits=3 unit=ns\]$' "$tmp/x.hlog" &&
		[[ $(grep -c '^Tag=hb\.log,' "$tmp/x.hlog") == 3 ]] ||
		{ grep -v '^Tag=' "$tmp/x.hlog"; grep -c '^Tag=hb\.log,' "$tmp/x.hlog"; return 1; }
	sum=$("$K" -j summary -i "$tmp/x.hlog" hb.log | "$py" -c \
		'import json, sys; print(json.load(sys.stdin)["metrics"][0]["count"])') || return 1
	echo "# -i 0.2 -c 3 -o: 3 intervals, their counts sum to $sum; the target made $n calls"
	[[ $n == 2000 && $sum == "$n" && $(grep -c '^--- interval' "$tmp/log.txt") == 3 ]] ||
		{ cat "$tmp/log.txt"; return 1; }
	"$K" plot heatmap "$tmp/x.hlog" hb.log -o "$tmp/x.svg" && grep -q '<svg' "$tmp/x.svg" &&
		list_empty
}
ok "trace F -i 0.2 -c 3 -o x.hlog: 3 intervals, summing exactly to the target's calls; plot heatmap reads it" \
	hlog

# untrace --all, and by pattern.
several() {
	"$K" trace ktarget_empty --name hb.a --keep 2>/dev/null &&
		"$K" trace ktarget_empty --name hb.b --keep --self 2>/dev/null &&
		"$K" trace ktarget_errno --name hb.c --keep --by errno 2>/dev/null &&
		"$K" trace ktarget_empty --name hb.other --keep 2>/dev/null
}
untrace_pattern() {
	several || return 1
	"$K" -j untrace 'hb.[ab]*' >"$tmp/unp.json" || return 1
	"$py" "$validate" schema "$schema" "$tmp/unp.json" && "$py" -c 'import json, sys
sys.exit(sorted(json.load(open(sys.argv[1]))["names"]) != ["hb.a", "hb.b"])' "$tmp/unp.json" ||
		{ cat "$tmp/unp.json"; return 1; }
	"$K" list | grepq '^hb\.c ' && "$K" list | grepq '^hb\.other ' &&
		! "$K" list | grepq '^hb\.a \|^hb\.b \|SELF-hb\.b'
}
ok "untrace 'hb.[ab]*': those two traces (and SELF-hb.b), not the others" untrace_pattern
ok "untrace 'nomatch*': exit 1, nothing untraced, the hint lists the traces there are" \
	expect 1 "^hint: the traces now: (hb\\.c, hb\\.other|hb\\.other, hb\\.c)$" \
	"$K" untrace 'nomatch*'
untrace_all() {
	"$K" trace ktarget_empty --name hb.d --keep --outliers 1s 2>/dev/null || return 1
	"$K" untrace --all && list_empty
}
ok "untrace --all after several traces (keyed, outliers, plain): list empty" untrace_all
ok "untrace --all with no trace: nothing to do, exit 0" "$K" untrace --all

tap_end

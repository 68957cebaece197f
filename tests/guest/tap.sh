# shellcheck shell=bash
# TAP for the guest suites: source this, call `ok NAME CMD...` per test and
# end with `tap_end`, which prints the plan and the tally and fails if any
# test did.
nr_tests=0 nr_failed=0

# grepq GREP-ARGS...: grep -q that reads all of its input. Under pipefail,
# `CMD | grep -q RE` fails (CMD dies of SIGPIPE) when grep exits at its
# match before CMD has written the rest, and `! CMD | grep -q RE` passes.
grepq() { grep "$@" >/dev/null; }

# ok NAME CMD...: runs CMD, prints a TAP line (with the time taken if that
# is 5 s or more), shows its output on failure.
ok() {
	local name=$1 out t0=$SECONDS
	shift
	nr_tests=$((nr_tests + 1))
	if out=$("$@" 2>&1); then
		(( SECONDS - t0 >= 5 )) && name+=" ($((SECONDS - t0)) s)"
		echo "ok $nr_tests - $name"
	else
		nr_failed=$((nr_failed + 1))
		echo "not ok $nr_tests - $name"
		printf '%s\n' "$out" | head -n 40 | sed 's/^/#   /'
	fi
}

# skip NAME WHY: a test this kernel or build cannot run, said so.
skip() {
	nr_tests=$((nr_tests + 1))
	echo "ok $nr_tests - $1 # skip $2"
}

# wait_for CMD...: polls CMD, a state (never a guess at timing), for up to 60 s.
wait_for() {
	local i
	for ((i = 0; i < 600; i++)); do
		"$@" && return 0
		sleep 0.1
	done
	return 1
}

# while_asleep PID CMD...: runs CMD while process PID is held inside
# clock_nanosleep(2) (x86-64 syscall 230): PID is stopped, its syscall read,
# and it is continued only after CMD. So CMD falls after what PID did before
# its sleep and before what it does after, however slow the machine: a sleep
# seen asleep may end before CMD runs, a stopped one cannot. A stop inside
# the sleep is a restart of it with the same deadline (an absolute one).
while_asleep() {
	local pid=$1 i rc
	shift
	for ((i = 0; i < 600; i++)); do
		kill -STOP "$pid" 2>/dev/null || return 1
		wait_for is_stopped "$pid" || { kill -CONT "$pid"; return 1; }
		if [ "$(cut -d' ' -f1 "/proc/$pid/syscall")" = 230 ]; then
			"$@"
			rc=$?
			kill -CONT "$pid"
			return $rc
		fi
		kill -CONT "$pid"
		sleep 0.1
	done
	echo "process $pid never slept in clock_nanosleep"
	return 1
}
# is_stopped PID: PID is in state T, or gone (nothing left to wait for).
is_stopped() {
	local stat
	stat=$(cat "/proc/$1/stat" 2>/dev/null) || return 0
	stat=${stat##*) }
	[ "${stat%% *}" = T ]
}

# unwrap: kstatsctl's messages as one line each. It wraps "kstatsctl:
# error:", "kstatsctl: warning:" and "hint:" at 80 columns, each further
# line indented by the prefix's width; joined here with one blank.
unwrap() {
	awk '
	function flush() { if (msg != "") print msg; msg = "" }
	msg != "" && substr($0, 1, ind) == pad && substr($0, ind + 1, 1) != " " {
		msg = msg " " substr($0, ind + 1); next
	}
	{ flush() }
	/^(kstatsctl: (error|warning): |hint: )/ {
		ind = index($0, ": ") + 1
		if ($0 ~ /^kstatsctl: /) ind = index(substr($0, 12), ": ") + 12
		pad = ""; while (length(pad) < ind) pad = pad " "
		msg = $0; next
	}
	{ print }
	END { flush() }'
}

# expect RC PATTERN CMD...: CMD exits RC and its output (both streams)
# matches the extended regexp PATTERN (every line of it: use | for either),
# its messages unwrapped.
expect() {
	local want=$1 pat=$2 out rc joined
	shift 2
	out=$("$@" 2>&1)
	rc=$?
	if ((rc != want)); then
		echo "exit $rc, want $want: $out"
		return 1
	fi
	# No <(...): the guest has no /dev/fd.
	joined=$(unwrap <<<"$out")
	grep -qE -- "$pat" <<<"$joined" || { echo "output lacks /$pat/: $out"; return 1; }
}

tap_end() {
	echo "1..$nr_tests"
	echo "$((nr_tests - nr_failed)) passed, $nr_failed failed"
	[ "$nr_failed" -eq 0 ]
}

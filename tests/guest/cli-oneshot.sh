# shellcheck shell=bash
# Sourced by cli-tests.sh (K, tmp, py, ok, expect, wait_for there), with
# kstats_target loaded: its "empty N" makes exactly N calls of
# ktarget_empty() before the write returns, so every count here is exact.
target=/sys/kernel/debug/kstats_target/ctl
listed() { "$K" list | grepq "^$1 "; }
# A trace's metrics are listed from their creation, a moment before its
# probe is attached; a trace reports its probe floor once attached.
attached() {
	"$K" -j show "$1" 2>/dev/null | "$py" -c \
		'import json, sys; sys.exit(json.load(sys.stdin)["metrics"][0]["trace"]["floor_ns"] == 0)'
}
# json_sum FILE NAME: the count of NAME summed over every JSON document in FILE.
json_sum() {
	"$py" - "$1" "$2" <<'PY'
import json, sys
text, name, docs, i = open(sys.argv[1]).read(), sys.argv[2], [], 0
dec = json.JSONDecoder()
while True:
    while i < len(text) and text[i].isspace():
        i += 1
    if i == len(text):
        break
    d, i = dec.raw_decode(text, i)
    docs.append(d)
idx = [d["interval"]["index"] for d in docs if "interval" in d]
assert idx == list(range(1, len(idx) + 1)), idx
print(len(docs), sum(m["count"] for d in docs for m in d["metrics"] if m["name"] == name))
PY
}

# Ctrl-C ends a one-shot --duration run: it prints what was recorded, all of
# it, and the trace is gone.
oneshot_sigint() {
	local pid out
	"$K" trace ktarget_empty --name cli.once --duration 3600 -j >"$tmp/once.json" \
		2>"$tmp/once.err" &
	pid=$!
	wait_for attached cli.once || { kill -INT "$pid"; return 1; }
	echo "empty 1000" >"$target" && kill -INT "$pid" && wait "$pid" || return 1
	out=$(json_sum "$tmp/once.json" cli.once) || return 1
	echo "# one-shot, Ctrl-C: $out (documents, count)"
	[[ $out == "1 1000" ]] && ! listed cli.once && ! listed GAP-cli.once
}
ok "trace --duration, Ctrl-C: the histogram of exactly the 1000 calls, then untraced" oneshot_sigint

# --duration alone ends by itself, no sooner than asked. Only a lower bound:
# how much later it ends depends on the machine's load (TCG, a busy host), so
# no upper one is asserted; timeout 120 turns a run that never ends into a failure.
oneshot_duration() {
	local t0 t1
	t0=$(date +%s%N)
	timeout 120 "$K" trace ktarget_empty --name cli.dur --duration 1.5 >"$tmp/dur.txt" \
		2>/dev/null || return 1
	t1=$(date +%s%N)
	echo "# one-shot --duration 1.5: ended after $(((t1 - t0) / 1000000)) ms"
	((t1 - t0 >= 1500000000)) && grep -q '^count 0' "$tmp/dur.txt" && ! listed cli.dur
}
ok "trace --duration 1.5: ends by itself after 1.5 s or more, prints, untraced" oneshot_duration

# --interval: each interval's share; with the one Ctrl-C cut short, they add
# up to every call made, whichever interval each fell in.
oneshot_intervals() {
	local pid out
	"$K" trace ktarget_empty --name cli.iv --interval 0.3 -j >"$tmp/iv.json" 2>/dev/null &
	pid=$!
	wait_for attached cli.iv || { kill -INT "$pid"; return 1; }
	echo "empty 300" >"$target" &&
		wait_for sh -c "[ \$(grep -c '\"interval\"' $tmp/iv.json) -ge 2 ]" &&
		echo "empty 200" >"$target" && kill -INT "$pid" && wait "$pid" || return 1
	out=$(json_sum "$tmp/iv.json" cli.iv) || return 1
	echo "# one-shot --interval 0.3: $out (intervals, count summed)"
	[[ ${out#* } == 500 && ${out% *} -ge 2 ]] && ! listed cli.iv
}
ok "trace --interval 0.3, Ctrl-C: intervals 1..n, their counts add up to the 500 calls" \
	oneshot_intervals
ok "trace --interval 0.2 --count 3: ends by itself after three intervals" sh -c \
	"timeout 120 \"$K\" trace ktarget_empty --name cli.n --interval 0.2 --count 3 -j \
	>$tmp/n.json 2>/dev/null && [ \$(grep -c '\"interval\"' $tmp/n.json) = 3 ] &&
	! \"$K\" list | grep -q '^cli.n '"

# export -f hdr --interval: an interval line per period; calls made after
# the baseline and before a later interval's snapshot are all in the log.
hlog_lines() { grep -c '^Tag=cli\.h,' "$tmp/run.hlog" 2>/dev/null; }
hdr_capture() {
	local pid n out
	"$K" trace ktarget_empty --name cli.h --keep || return 1
	"$K" export -f hdr --interval 1 -o "$tmp/run.hlog" cli.h &
	pid=$!
	for calls in 300 200; do
		wait_for sh -c "[ \"\$(grep -c '^Tag=cli\.h,' $tmp/run.hlog 2>/dev/null)\" -ge 1 ]" &&
			echo "empty $calls" >"$target" || { kill "$pid"; return 1; }
		n=$(hlog_lines)
		# an interval whose snapshot came after these calls
		wait_for sh -c "[ \$(grep -c '^Tag=cli\.h,' $tmp/run.hlog) -gt $n ]" ||
			{ kill "$pid"; return 1; }
	done
	kill -TERM "$pid"
	wait "$pid"
	"$K" untrace cli.h || return 1
	# How kstatsctl reads the tag back: its frac_bits, in ns (a trace).
	grep -q '^#\[kstats: tag=cli\.h frac_bits=[0-5] unit=ns\]$' "$tmp/run.hlog" || return 1
	out=$("$K" -j summary -i "$tmp/run.hlog" cli.h | "$py" -c \
		'import json, sys; print(json.load(sys.stdin)["metrics"][0]["count"])') || return 1
	echo "# export -f hdr --interval 1: $(hlog_lines) intervals, count $out"
	[[ $out == 500 ]]
}
ok "export -f hdr --interval 1: the HdrHistogram log holds exactly the 500 calls" hdr_capture

# --by errno on a function returning bool (the kernel's capable(), by its
# BTF): refused before anything is traced, exit 2 (issue 30 W5).
errno_bool() {
	local rc
	"$K" trace capable --by errno --name cli.cap --keep 2>"$tmp/cap.err"
	rc=$?
	grep -q 'capable returns _Bool (1 byte)' "$tmp/cap.err" || { cat "$tmp/cap.err"; return 1; }
	[[ $rc == 2 ]] && ! listed cli.cap
}
if [[ -e /sys/kernel/btf/vmlinux ]]; then
	ok "trace capable --by errno: refused by its BTF return type (bool), nothing traced" errno_bool
else
	ok "trace capable --by errno # skip: this kernel has no BTF" true
fi

# --by errno, one-shot: a key's metric appears with its first call and is
# compared by name across intervals (ktarget_errno: -EAGAIN on a third).
oneshot_keys() {
	local pid all ok again
	"$K" trace ktarget_errno --name cli.ke --by errno --interval 0.3 -j >"$tmp/ke.json" \
		2>/dev/null &
	pid=$!
	wait_for attached cli.ke || { kill -INT "$pid"; return 1; }
	echo "errno 300 0" >"$target" &&
		wait_for sh -c "[ \$(grep -c '\"interval\"' $tmp/ke.json) -ge 2 ]" &&
		echo "errno 300 0" >"$target" && kill -INT "$pid" && wait "$pid" || return 1
	all=$(json_sum "$tmp/ke.json" cli.ke) || return 1
	ok=$(json_sum "$tmp/ke.json" 'cli.ke{errno=0}') || return 1
	again=$(json_sum "$tmp/ke.json" 'cli.ke{errno=-11}') || return 1
	echo "# one-shot --by errno: ${all#* } calls, ${ok#* } without error, ${again#* } -EAGAIN"
	[[ ${all#* } == 600 && ${ok#* } == 400 && ${again#* } == 200 ]] && ! listed 'cli.ke{errno=0}'
}
ok "trace --by errno --interval 0.3, Ctrl-C: 400 + 200 of 600 calls, by key, then untraced" \
	oneshot_keys

# --by errno, kept: the keys' metrics by either name, in a snapshot file
# (format 5) and in Prometheus' text, as one family with an errno label.
kept_keys() {
	local n
	"$K" trace ktarget_errno --name cli.kk --by errno --keys 1 --keep || return 1
	echo "errno 30 0" >"$target" || return 1
	n=$("$K" -j show 'cli.kk{errno=-EAGAIN}' 'cli.kk{errno=other}' | "$py" -c \
		'import json, sys; print(*[m["count"] for m in json.load(sys.stdin)["metrics"]])') ||
		return 1
	echo "# --by errno --keys 1: {errno=-11}, {errno=other}: $n"
	[[ $n == "10 20" || $n == "20 10" ]] || return 1
	"$K" snapshot -o "$tmp/kk.ksnap" cli.kk 'cli.kk{errno=-EAGAIN}' 'cli.kk{errno=other}' &&
		"$K" untrace cli.kk || return 1
	[[ $(od -An -tu2 -j10 -N2 "$tmp/kk.ksnap" | tr -d ' ') == 5 ]] &&
		"$K" show -i "$tmp/kk.ksnap" -f prometheus | grepq -x 'kstats_cli_kk_by_errno_seconds_count{errno="other"} 20' &&
		! listed 'cli.kk{errno=other}'
}
ok "trace --by errno --keys 1: the first value seen and 'other', by name, in a snapshot file and Prometheus" \
	kept_keys

# --by cpu and --by pid: calls pinned to CPU 0 and CPU 1 (300, 100) by two
# processes; the keys' names as the module gives them, in text and JSON,
# and Prometheus' cpu label.
kept_task_keys() {
	local n p1 p2
	"$K" trace ktarget_empty --name cli.kcpu --by cpu --keep &&
		"$K" trace ktarget_empty --name cli.kpid --by pid --key-values 1 --keep || return 1
	p1=$(taskset -c 0 sh -c "echo 'empty 300' >$target && echo \$\$") &&
		p2=$(taskset -c 1 sh -c "echo 'empty 100' >$target && echo \$\$") || return 1
	n=$("$K" -j show 'cli.kcpu{cpu=0}' 'cli.kcpu{cpu=1}' 'cli.kpid{pid=1}' \
		'cli.kpid{pid=other}' | "$py" -c \
		'import json, sys; print(*[m["count"] for m in json.load(sys.stdin)["metrics"]])') ||
		return 1
	echo "# --by cpu, --by pid --key-values 1 (processes $p1, $p2): $n"
	[[ $n == "300 100 0 400" ]] && ! "$K" show "cli.kpid{pid=$p1}" >/dev/null 2>&1 &&
		"$K" show 'cli.kcpu*' -f prometheus |
		grep -qx 'kstats_cli_kcpu_by_cpu_seconds_count{cpu="1"} 100' &&
		"$K" untrace cli.kcpu cli.kpid
}
ok "trace --by cpu, --by pid --key-values 1: each CPU's exact calls, init's key empty, the rest in other" \
	kept_task_keys

# --by comm: a shell under another name (its comm) makes 70 calls, sh 30;
# names typed and printed as the tasks' names (the module's are in hex).
kept_comm() {
	local n
	cp "$(command -v sh)" "$tmp/kk.writer" &&
		"$K" trace ktarget_empty --name cli.kcomm --by comm --keep &&
		"$tmp/kk.writer" -c "echo 'empty 70' >$target" &&
		sh -c "echo 'empty 30' >$target" || return 1
	n=$("$K" -j show 'cli.kcomm{comm=kk.writer}' 'cli.kcomm{comm=sh}' | "$py" -c \
		'import json, sys; print(*[m["name"] + "=" + str(m["count"]) for m in json.load(sys.stdin)["metrics"]])') ||
		return 1
	echo "# --by comm, JSON: $n"
	[[ $n == "cli.kcomm{comm=6b6b2e777269746572}=70 cli.kcomm{comm=7368}=30" ]] &&
		"$K" list | grepq -E '^cli\.kcomm\{comm=kk\.writer\} +key .* 70$' &&
		"$K" show 'cli.kcomm*' -f prometheus |
		grep -qx 'kstats_cli_kcomm_by_comm_seconds_count{comm="kk.writer"} 70' &&
		"$K" untrace cli.kcomm
}
ok "trace --by comm: 70 calls of kk.writer and 30 of sh, by name in list, show and Prometheus" \
	kept_comm

# --cgroup and --by cgroup: two processes in two cgroups v2, 1000 and 500
# calls; paths in text and Prometheus, the module's ids in JSON and files.
cg=/sys/fs/cgroup
in_cgroup() { sh -c "echo \$\$ >$cg/$1/cgroup.procs && echo 'empty $2' >$target"; }
kept_cgroup_checks() {
	local id_a n out
	{ grep -q " $cg cgroup2 " /proc/mounts || mount -t cgroup2 none $cg; } &&
		mkdir -p $cg/kstats-cli/a $cg/kstats-cli/b || return 1
	id_a=$(stat -c %i $cg/kstats-cli/a)
	"$K" trace ktarget_empty --name cli.kc --by cgroup --keep &&
		"$K" trace ktarget_empty --name cli.kca --cgroup kstats-cli/a --keep &&
		in_cgroup kstats-cli/a 1000 && in_cgroup kstats-cli/b 500 || return 1
	n=$("$K" -j show 'cli.kc{cgroup=/kstats-cli/a}' cli.kca | "$py" -c \
		'import json, sys; print(*[m["name"] + "=" + str(m["count"]) for m in json.load(sys.stdin)["metrics"]])') ||
		return 1
	echo "# --by cgroup and --cgroup a, JSON: $n (a's id $id_a)"
	[[ $n == "cli.kc{cgroup=$id_a}=1000 cli.kca=1000" ]] || return 1
	# Each step's output is shown when it is not what is wanted.
	out=$("$K" list 2>&1)
	grep -Eq '^cli\.kc\{cgroup=/kstats-cli/b\} +key .* 500$' <<<"$out" ||
		{ printf '# list:\n%s\n' "$out"; return 1; }
	out=$("$K" show 'cli.kc*' -f prometheus 2>&1)
	grep -qx 'kstats_cli_kc_by_cgroup_seconds_count{cgroup="/kstats-cli/a"} 1000' <<<"$out" ||
		{ printf '# show -f prometheus:\n%s\n' "$out"; return 1; }
	"$K" snapshot -o "$tmp/kc.ksnap" 'cli.kc{cgroup=/kstats-cli/a}' \
		'cli.kc{cgroup=/kstats-cli/b}' || return 1
	out=$("$K" summary -i "$tmp/kc.ksnap" 2>&1)
	grep -Eq '^cli\.kc\{cgroup=/kstats-cli/b\} +500 ' <<<"$out" ||
		{ printf '# summary -i:\n%s\n' "$out"; return 1; }
	"$K" untrace cli.kc cli.kca && rmdir $cg/kstats-cli/a $cg/kstats-cli/b $cg/kstats-cli
}
# A failure leaves nothing traced behind it for the checks that follow.
kept_cgroup() {
	kept_cgroup_checks && return 0
	"$K" untrace cli.kc cli.kca >/dev/null 2>&1
	return 1
}
ok "trace --by cgroup, --cgroup: each cgroup's exact calls, by path in text, by id in JSON" \
	kept_cgroup
ok "trace --cgroup of no cgroup: error, exit 1, nothing traced" \
	expect 1 '^kstatsctl: error: --cgroup: no cgroup /no/such/cgroup' \
	"$K" trace ktarget_empty --name cli.kcx --cgroup /no/such/cgroup --keep
ok "trace --cgroup of a directory not of cgroup v2: error, exit 1" \
	expect 1 '^kstatsctl: error: --cgroup: /tmp is not a cgroup v2 directory' \
	"$K" trace ktarget_empty --name cli.kcx --cgroup /tmp --keep
ok "after the refusals, no trace cli.kcx" bash -c "! \"$K\" list | grep -q '^cli.kcx'"

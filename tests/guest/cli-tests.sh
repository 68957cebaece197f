#!/usr/bin/env bash
# kstatsctl end to end, run inside the VM (tests/vm/run.sh) from the
# repository root as root, with cli/kstatsctl built on the host beforehand.
# Prints TAP; exits non-zero if any test failed.
# Usage: tests/guest/cli-tests.sh BUILD_DIR
#   KSTATS_CTL, KSTATS_COMPLETION: the kstatsctl and completion to test
#   (default: the tree's; tests/guest/package-tests.sh passes the installed)
#   BUILD_DIR/module/kstats.ko, BUILD_DIR/tests/kmod/kstats_selftest.ko
#
# Covers: autoload through libkmod (and --no-autoload, "not installed",
# "needs root"), list, show in every format (raw checked byte for byte
# against debugfs), --cpu, --per-cpu, --watch, snapshot + show -i + diff,
# create/record/start/stop/reset/delete, info, --version, JSON against the
# schema, Prometheus through real parsers, the bash completion's live
# names, unprivileged use, every error message and exit code, tracing when
# the module has it, and lockdown (last: it cannot be undone).
set -uo pipefail
build=${1:?usage: cli-tests.sh BUILD_DIR}
build=$(realpath "$build")
top=$PWD
K=${KSTATS_CTL:-$top/cli/kstatsctl}
completion_file=${KSTATS_COMPLETION:-$top/completion/kstatsctl.bash}
ko=$build/module/kstats.ko
selftest=$build/tests/kmod/kstats_selftest.ko
view=/sys/kernel/debug/kstats
ctl=/sys/kernel/debug/kstats_selftest/ctl
schema=$top/cli/kstatsctl.schema.json
validate=$top/tests/cli/validate.py
py=/usr/bin/python3
kver=$(uname -r)
ncpu=$(nproc)
version=$(sed -n 's/^#define KSTATS_VERSION "\(.*\)"/\1/p' module/version.h)
tmp=$(mktemp -d)
export KSTATS_COLOR=never
. tests/guest/tap.sh

# A python thread tells its id, and ends when its stdin closes.
pid_of_thread_refused() {
	local tid rc
	coproc T { python3 -c 'import sys, threading
t = threading.Thread(target=sys.stdin.read); t.start(); print(t.native_id, flush=True); t.join()'; }
	read -r tid <&"${T[0]}"
	expect 1 "error: tracing vfs_read: no process $tid\$|hint: --pid takes a process" \
		"$K" trace vfs_read --keep -p "$tid"
	rc=$?
	exec {T[1]}>&-
	wait "$T_PID"
	return $rc
}
# stderr_is RC 'LINE1' 'LINE2'... CMD: exact error lines (stdout empty).
errors() {
	local want=$1 err1=$2 err2=$3 rc
	shift 3
	"$@" >"$tmp/o" 2>"$tmp/e"
	rc=$?
	((rc == want)) || { echo "exit $rc, want $want"; cat "$tmp/o" "$tmp/e"; return 1; }
	[[ ! -s $tmp/o ]] || { echo "unexpected stdout:"; cat "$tmp/o"; return 1; }
	unwrap <"$tmp/e" >"$tmp/e1"	# the error and its hint, a line each
	[[ $(sed -n 1p "$tmp/e1") == "$err1" ]] || { echo "line 1: $(sed -n 1p "$tmp/e1")"; echo "want:   $err1"; return 1; }
	[[ $(sed -n 2p "$tmp/e1") == "$err2" ]] || { echo "line 2: $(sed -n 2p "$tmp/e1")"; echo "want:   $err2"; return 1; }
}
json_ok() {	# json_ok FILE...: valid against the schema
	"$py" "$validate" schema "$schema" "$@"
}
jq_() {	# jq_ FILE EXPR: a Python expression on the document d
	"$py" -c "import json,sys; d=json.load(open(sys.argv[1])); v=($2); print(v)" "$1"
}
unloaded() { rmmod kstats_selftest 2>/dev/null; rmmod kstats 2>/dev/null; [[ ! -e /sys/module/kstats ]]; }
nobody() { setpriv --reuid=65534 --regid=65534 --clear-groups "$@"; }

# A /lib/modules of our own: $1 = "empty" or "kstats" (with extra/kstats.ko).
modules_tree() {
	mount -t tmpfs tmpfs /lib/modules || return 1
	mkdir -p "/lib/modules/$kver/extra"
	[[ $1 == kstats ]] && cp "$ko" "/lib/modules/$kver/extra/"
	depmod -a "$kver" 2>/dev/null
}
modules_restore() { umount /lib/modules; }

echo "# kstatsctl e2e, lane ${KSTATS_LANE:-?}, kernel $kver, $ncpu CPUs"
ok "kstatsctl is built (make -C cli)" test -x "$K"
cp "$K" "$tmp/kstatsctl" && chmod 755 "$tmp" "$tmp/kstatsctl"	# for uid 65534

# ---- loading the module ----
ok "start with kstats unloaded" unloaded
ok "--no-autoload -j: {\"error\", \"hint\"} on stdout, exit 1" sh -c \
	"\"$K\" -j --no-autoload list >$tmp/e.json; [ \$? -eq 1 ] && $py $validate schema $schema $tmp/e.json && grep -q '\"error\": \"the kstats module is not loaded' $tmp/e.json"
ok "--no-autoload left it unloaded" test ! -e /sys/module/kstats
modules_tree empty
# Not installed: the hint says what to install, not to modprobe (issue 23);
# installed, below, it says modprobe.
ok "--no-autoload, not loaded nor installed: error, how to install, exit 1" errors 1 \
	"kstatsctl: error: the kstats module is not loaded, and not installed for this kernel" \
	"hint: install the kstats-dkms package ('make deb' in kstats' source tree builds it), or from that tree 'sudo dkms add . && sudo dkms install kstats/VERSION' (see kstatsctl(8))" \
	"$K" --no-autoload list
ok "not installed: error, how to install, exit 1" errors 1 \
	"kstatsctl: error: the kstats module is not loaded, and not installed for kernel $kver" \
	"hint: install the kstats-dkms package ('make deb' in kstats' source tree builds it), or from that tree 'sudo dkms add . && sudo dkms install kstats/VERSION' (see kstatsctl(8))" \
	"$K" list
ok "info, not installed: says so, exit 0" expect 0 \
	'^module +not loaded, and not installed for this kernel' "$K" info
modules_restore
modules_tree kstats
ok "--no-autoload, installed, not loaded: error, hint modprobe, exit 1" errors 1 \
	"kstatsctl: error: the kstats module is not loaded" \
	"hint: load it with 'sudo modprobe kstats', or run without --no-autoload to let kstatsctl load it" \
	"$K" --no-autoload list
# info wraps a long value under itself (80 columns): its lines joined.
info_installed() {
	local out
	out=$("$K" info) || return 1
	tr -s ' \n' ' ' <<<"$out" | grepq -E \
		"module not loaded; installed: /lib/modules/[^ ]+/extra/kstats\\.ko(\\.xz)?, version $version " ||
		{ echo "$out"; return 1; }
}
ok "info, installed: its path and version, exit 0" info_installed
ok "info -j, installed: module null, installed {path, version}; validates" sh -c \
	"\"$K\" -j info >$tmp/i0.json && $py $validate schema $schema $tmp/i0.json && grep -q '\"version\": \"$version\"' $tmp/i0.json"
ok "info did not load it" test ! -e /sys/module/kstats
ok "as uid 65534, not loaded: loading needs root, exit 1" expect 1 \
	'^kstatsctl: error: the kstats module is not loaded, and loading it needs root: Operation not permitted' \
	nobody "$tmp/kstatsctl" list
ok "autoload through libkmod: 'kstatsctl list' loads kstats" expect 0 '^no metrics$' "$K" list
ok "kstats is loaded" test -e /sys/module/kstats
ok "/dev/kstats exists" test -c /dev/kstats
modules_restore

# ---- metrics from the self-test module ----
ok "insmod kstats_selftest" insmod "$selftest"
ok "record 1000 on every CPU" sh -c "echo 'record 1000' >$ctl"
total=$((ncpu * 1000))
ok "'kstatsctl' alone lists the metrics" expect 0 \
	"^selftest\.b3 +module +kstats_selftest +active +3 +$total$" "$K"
ok "list -j: valid, six metrics of $total samples" sh -c \
	"\"$K\" list -j >$tmp/list.json && $py $validate schema $schema $tmp/list.json &&
	 [ \"\$($py -c 'import json; d=json.load(open(\"$tmp/list.json\")); print(sorted(m[\"count\"] for m in d[\"metrics\"] if m[\"name\"].startswith(\"selftest.b\")))')\" = '[$total, $total, $total, $total, $total, $total]' ]"
raw_same() {	# show -f raw is what debugfs shows, byte for byte
	local b
	for b in 0 1 2 3 4 5; do
		"$K" show "selftest.b$b" -f raw >"$tmp/raw.$b" || return 1
		cmp "$tmp/raw.$b" "$view/selftest.b$b" || { diff "$tmp/raw.$b" "$view/selftest.b$b" | head; return 1; }
	done
}
ok "show -f raw = debugfs, byte for byte, frac_bits 0..5" raw_same
ok "show (hist): rows, footer, count $total" expect 0 "^count $total  mean " "$K" show selftest.b3
ok "show: percentiles with an error bound" expect 0 '^p50 [^ ]+ \((±[0-9.]+%|exact)\) ' "$K" show selftest.b3
ok "show: ... up to p99.99 (the footer wraps at 80 columns)" expect 0 \
	' p99\.99 [^ ]+ \((±[0-9.]+%|exact)\)\*?$' "$K" show selftest.b3
each_cpu() {
	local c n
	for ((c = 0; c < ncpu; c++)); do
		"$K" show selftest.b2 --cpu "$c" -j >"$tmp/cpu.json" || return 1
		n=$(jq_ "$tmp/cpu.json" 'd["metrics"][0]["cpus"][0]["count"]')
		[[ $n == 1000 ]] || { echo "CPU $c: $n samples"; return 1; }
		# the footer wraps at 80 columns: "count 1000" may end its line
		"$K" show selftest.b2 --cpu "$c" | grepq -E "^count 1000( |\$)" || return 1
	done
}
ok "show --cpu N: 1000 samples on each CPU" each_cpu
ok "show --per-cpu: a histogram per CPU" sh -c \
	"[ \$(\"$K\" show selftest.b1 --per-cpu | grep -c '^selftest.b1: .*, CPU [0-9]*$') -eq $ncpu ]"
ok "show --cpu 999: no such CPU, exit 1" expect 1 \
	'^kstatsctl: error: selftest.b1: no CPU 999 in this snapshot' "$K" show selftest.b1 --cpu 999
all_formats() {
	local f
	for f in hist percentiles cdf raw json csv prometheus; do
		"$K" show --all -f "$f" >"$tmp/all.$f" || { echo "format $f failed"; return 1; }
		[[ -s $tmp/all.$f ]] || { echo "format $f: empty"; return 1; }
	done
}
ok "show --all in every format" all_formats
ok "show -j validates against the schema" json_ok "$tmp/all.json"
ok "show -f prometheus: real parsers agree with JSON" \
	"$py" "$validate" prom "$tmp/all.prometheus" "$tmp/all.json"
ok "show --per-cpu -f json validates" sh -c \
	"\"$K\" show selftest.b4 --per-cpu --pretty >$tmp/pc.json && $py $validate schema $schema $tmp/pc.json"

# ---- snapshots ----
ok "snapshot --all -o FILE" "$K" snapshot --all -o "$tmp/a.ksnap"
ok "show -i FILE -f raw = debugfs as it was" sh -c \
	"\"$K\" show -i $tmp/a.ksnap selftest.b5 -f raw | cmp - $tmp/raw.5"
ok "record 500 more on every CPU" sh -c "echo 'record 500' >$ctl"
ok "snapshot NAME... -o FILE" "$K" snapshot selftest.b3 selftest.b5 -o "$tmp/b.ksnap"
# B is a later snapshot of the same metrics: diff compares A with the
# interval B - A (the 500 per CPU recorded in between) unless --cumulative.
ok "diff FILE FILE: A against the interval B - A" expect 0 \
	"^count +$total +$((ncpu * 500)) +-$" "$K" diff "$tmp/a.ksnap" "$tmp/b.ksnap" -m selftest.b3
ok "diff --cumulative FILE FILE: A against B as a whole" expect 0 \
	"^count +$total +$((total + ncpu * 500)) +\+" "$K" diff --cumulative "$tmp/a.ksnap" "$tmp/b.ksnap" -m selftest.b3
ok "diff FILE (against live): the same interval" expect 0 \
	"^count +$total +$((ncpu * 500)) " "$K" diff "$tmp/a.ksnap" -m selftest.b5
ok "diff -j validates; only_a lists what B lacks" sh -c \
	"\"$K\" diff -j $tmp/a.ksnap $tmp/b.ksnap >$tmp/d.json && $py $validate schema $schema $tmp/d.json &&
	 grep -q '\"only_a\": \[\"selftest.b0\"' $tmp/d.json"

# ---- user metrics ----
ok "create cli.t --bits 4" "$K" create cli.t --bits 4
ok "create it again: already exists, exit 1" errors 1 \
	"kstatsctl: error: cli.t: already exists" \
	"hint: pick another name, or delete it first ('kstatsctl delete NAME')" "$K" create cli.t
ok "record values with units" "$K" record cli.t 100 200 300 1us 2ms
ok "record with a bad value among good ones: usage error, exit 2" expect 2 \
	"'12parsecs' is not a value" "$K" record cli.t 7 8 12parsecs
ok "... and none of its values was recorded" sh -c \
	"\"$K\" show cli.t -j | grep -q '\"count\": 5,'"
ok "record 1..10000 from stdin (3 batches of at most 4096)" sh -c "seq 1 10000 | \"$K\" record cli.t"
ok "show -j: 10005 samples" sh -c "\"$K\" show cli.t -j >$tmp/t.json && [ \$(\$0 -c 'import json; print(json.load(open(\"$tmp/t.json\"))[\"metrics\"][0][\"count\"])') = 10005 ]" "$py"
truth() {	# percentiles of 1..10000 plus the five values, within bounds
	"$py" - "$tmp/t.json" <<'PY'
import json, math, sys
d = json.load(open(sys.argv[1]))["metrics"][0]
s = sorted(list(range(1, 10001)) + [100, 200, 300, 1000, 2000000])
for p in d["percentiles"]:
    exact = s[max(1, math.ceil(p["p"] / 100 * len(s) * (1 - 2**-40))) - 1]
    assert abs(p["value"] - exact) <= p["error"] * exact + 1, (p, exact)
assert abs(d["mean"] - sum(s) / len(s)) < 1e-6 * sum(s) / len(s), d["mean"]
PY
}
ok "its percentiles and mean are right, within the stated error" truth
ok "stop cli.t" "$K" stop cli.t
ok "list shows it stopped" expect 0 '^cli\.t +user +.* stopped +4 +10005$' "$K" list
ok "recording into a stopped metric drops the samples" sh -c \
	"\"$K\" record cli.t 5 6 7 && \"$K\" list | grep -qE '^cli\.t .* 10005$'"
ok "start cli.t, reset cli.t: empty" sh -c \
	"\"$K\" start cli.t && \"$K\" reset cli.t && \"$K\" show cli.t | grep -qx 'count 0'"
ok "reset --all empties every metric" sh -c \
	"\"$K\" reset --all && [ \$(\"$K\" list -j | grep -o '\"count\": [1-9]' | wc -l) -eq 0 ]"
ok "start -j / stop -j documents validate" sh -c \
	"\"$K\" -j stop --all >$tmp/c1.json && \"$K\" -j start --all >$tmp/c2.json && $py $validate schema $schema $tmp/c1.json $tmp/c2.json"

# ---- --watch ----
watch_json() {	# two intervals, each with only what was recorded in it
	local pid n
	"$K" show selftest.b2 -j --watch 1 --count 2 >"$tmp/w.json" &
	pid=$!
	# Record all along, with shell builtins only (no exec: fast and steady).
	while kill -0 "$pid" 2>/dev/null; do echo 'record 10' >"$ctl"; done
	wait "$pid" || { echo "watch failed"; return 1; }
	[[ $(wc -l <"$tmp/w.json") == 2 ]] || { echo "want 2 documents:"; cat "$tmp/w.json"; return 1; }
	json_ok "$tmp/w.json" || return 1
	n=$("$K" list -j | "$py" -c 'import json,sys; print([m["count"] for m in json.load(sys.stdin)["metrics"] if m["name"] == "selftest.b2"][0])')
	"$py" - "$tmp/w.json" "$n" <<'PY'
import json, sys
docs = [json.loads(l) for l in open(sys.argv[1])]
total = int(sys.argv[2])
counts = [d["metrics"][0]["count"] for d in docs]
assert [d["interval"]["index"] for d in docs] == [1, 2], docs
assert all(0.5e9 < d["interval"]["length_ns"] < 5e9 for d in docs), docs
assert all(c > 0 for c in counts), counts
assert sum(counts) < total, (counts, total)
PY
}
ok "--watch 1 --count 2 -j: two intervals, differences not totals" watch_json
ok "--watch 1 --count 2 (hist): two interval headers" sh -c \
	"[ \$(\"$K\" show selftest.b2 --watch 1 --count 2 | grep -c '^--- interval [12], ') -eq 2 ]"
watch_reset() {	# an interval with a reset in it shows what came after
	local pid
	"$K" reset selftest.b1 && echo 'record 5' >"$ctl" || return 1
	"$K" show selftest.b1 -j --watch 8 --count 1 >"$tmp/wr.json" &
	pid=$!
	# Reset once it has its baseline, i.e. is asleep in its interval.
	while_asleep "$pid" sh -c "\"$K\" reset selftest.b1 && echo 'record 1' >$ctl" || return 1
	wait "$pid" || return 1
	"$py" - "$tmp/wr.json" "$ncpu" <<'PY'
import json, sys
m = json.load(open(sys.argv[1]))["metrics"][0]
assert m["reset"] is True and m["count"] == int(sys.argv[2]), m
PY
}
ok "--watch sees a reset, and shows what came after it" watch_reset
summary_interval() {	# what was recorded during the interval, and its rate
	local pid
	"$K" summary 'selftest.b*' -j --interval 3 >"$tmp/si.json" &
	pid=$!
	while_asleep "$pid" sh -c "echo 'record 7' >$ctl" || return 1
	wait "$pid" || return 1
	"$py" - "$tmp/si.json" "$ncpu" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
n = 7 * int(sys.argv[2])
# The first copy is taken before the 3 s sleep starts, the second after it
# ends: more than 3 s apart however slow the machine (no upper bound).
assert d["interval_ns"] > 3e9, d["interval_ns"]
ms = d["metrics"]
assert [m["name"] for m in ms] == ["selftest.b%d" % b for b in range(6)], ms
for m in ms:
    assert m["count"] == n, m
    assert abs(m["rate_per_s"] - n / (d["interval_ns"] / 1e9)) < 1e-6 * n, m
    assert [p["p"] for p in m["percentiles"]] == [50, 99], m
PY
}
ok "summary --interval 3 -j: the samples of the interval, rate = count / interval" summary_interval
export_live() {	# the live metrics, as node_exporter's collector will read them
	"$K" export 'selftest.*' -o "$tmp/k.prom" && "$K" -j list >"$tmp/kl.json" || return 1
	[ "$(stat -c %a "$tmp/k.prom")" = 644 ] || return 1
	"$py" - "$tmp/k.prom" "$tmp/kl.json" <<'PY'
import json, re, sys
text = open(sys.argv[1]).read()
got = {m.group(1): int(m.group(2)) for m in
       re.finditer(r'^kstats_value_count\{name="([^"]+)"\} (\d+)$', text, re.M)}
want = {m["name"]: m["count"] for m in json.load(open(sys.argv[2]))["metrics"]
        if m["name"].startswith("selftest.")}
assert got == want and got, (got, want)
assert re.search(r"^kstats_up 1$", text, re.M), text[:200]
PY
}
ok "export 'selftest.*' -o FILE: each _count is the metric's count (list -j), kstats_up 1" export_live
ok "summary: a line per metric, table" sh -c \
	"[ \$(\"$K\" summary 'selftest.*' | grep -c '^selftest\.b[0-5] ') -eq 6 ]"

# ---- deleting, and error paths ----
ok "delete cli.t" "$K" delete cli.t
ok "deleted: show says no such metric, exit 1" expect 1 \
	"^kstatsctl: error: no metric cli\\.t\$|^hint: " "$K" show cli.t
ok "no such metric, JSON: error on stdout, exit 1" sh -c \
	"\"$K\" -j show cli.t >$tmp/nm.json 2>/dev/null; [ \$? -eq 1 ] && $py $validate schema $schema $tmp/nm.json"
ok "delete a module's metric: refused, exit 1" errors 1 \
	"kstatsctl: error: selftest.b0: belongs to a kernel module or a trace" \
	"hint: modules delete their own metrics; 'kstatsctl untrace NAME' removes a trace's" "$K" delete selftest.b0
ok "a bad name is a usage error, exit 2" expect 2 "^kstatsctl: error: 'a/b': a metric name" "$K" show a/b
ok "an unknown command: exit 2" expect 2 "^kstatsctl: error: unknown command 'frob'" "$K" frob
autoremove() {	# the metric lives while the command does
	local pid
	"$K" create cli.auto --autoremove 2>"$tmp/auto.err" &
	pid=$!
	wait_for grep -q "cli.auto exists until this command ends" "$tmp/auto.err" &&
		"$K" list | grepq '^cli.auto ' || { kill -INT "$pid"; return 1; }
	kill -INT "$pid" && wait "$pid" && ! "$K" list | grepq '^cli.auto '
}
ok "--autoremove: the metric lives while the command does" autoremove

# ---- unprivileged ----
chmod 0666 /dev/kstats
ok "uid 65534, /dev/kstats 0666: list works" expect 0 '^selftest\.b0 ' nobody "$tmp/kstatsctl" list
ok "uid 65534: show works" expect 0 '^count ' nobody "$tmp/kstatsctl" show selftest.b0
ok "uid 65534: create is refused (CAP_PERFMON), exit 1" errors 1 \
	"kstatsctl: error: cli.np: permission denied" \
	"hint: needs root or CAP_PERFMON (e.g. sudo kstatsctl ...)" nobody "$tmp/kstatsctl" create cli.np
ok "uid 65534: reset is refused, exit 1" expect 1 'permission denied' nobody "$tmp/kstatsctl" reset --all
chmod 0600 /dev/kstats
ok "uid 65534, /dev/kstats 0600: cannot open, hint, exit 1" expect 1 \
	'^kstatsctl: error: cannot open /dev/kstats: Permission denied' nobody "$tmp/kstatsctl" list

# ---- info, version, completion ----
ok "info: module version $version, device mode" expect 0 \
	"^module +$version \(ABI 1\)" "$K" info
ok "info: device is crw------- root root" expect 0 '^device +/dev/kstats crw------- root root' "$K" info
ok "info -j validates" sh -c "\"$K\" info -j >$tmp/i.json && $py $validate schema $schema $tmp/i.json"
ok "--version: tool and module" expect 0 "^kstats module $version \(ABI 1\)" "$K" --version
completion() {
	# shellcheck disable=SC1091
	. "$completion_file"
	COMP_WORDS=("$K" show selftest.b)
	COMP_CWORD=2
	_kstatsctl
	[[ $(printf '%s\n' "${COMPREPLY[@]}" | sort | xargs) == \
	   "selftest.b0 selftest.b1 selftest.b2 selftest.b3 selftest.b4 selftest.b5" ]] ||
		{ echo "got: ${COMPREPLY[*]}"; return 1; }
}
ok "bash completion: live metric names" completion

# ---- tracing ----
push_tcp() {	# ~8 MB over loopback TCP
	"$py" - <<'PY'
import socket, threading
srv = socket.socket()
srv.bind(("127.0.0.1", 0))
srv.listen(1)
def sink():
    c, _ = srv.accept()
    while c.recv(65536):
        pass
t = threading.Thread(target=sink)
t.start()
cl = socket.create_connection(srv.getsockname())
for _ in range(2000):
    cl.sendall(b"x" * 4096)
cl.close()
t.join()
PY
}
if "$K" info -j | grepq '"trace"'; then
	ok "trace tcp_sendmsg --keep" "$K" trace tcp_sendmsg --keep
	ok "push data over loopback TCP" push_tcp
	ok "show tcp_sendmsg: calls were timed" expect 0 '^count [1-9]' "$K" show tcp_sendmsg
	"$K" show tcp_sendmsg --units us | sed 's/^/# /' | tail -n 30
	ok "show tcp_sendmsg --cpu 0 / --per-cpu" sh -c \
		"\"$K\" show tcp_sendmsg --cpu 0 >/dev/null && \"$K\" show tcp_sendmsg --per-cpu >/dev/null"
	ok "show: hits, misses and probe floor" expect 0 '^hits [0-9]+  misses [0-9]+  probe floor ' "$K" show tcp_sendmsg
	# For the host's Prometheus test (tests/prometheus.sh): this trace, the
	# selftest's metrics, and three names that one Prometheus family name
	# each would merge.
	export_snapshot() {
		local n
		for n in net.tx net_tx net-tx; do
			"$K" create "$n" || return 1
		done
		"$K" record net.tx 1000 2000 3000 && "$K" record net_tx 50 &&
			"$K" record net-tx 7 8 9 10 &&
			"$K" snapshot --all -o "$KSTATS_VM_OUT/export-$KSTATS_LANE.ksnap" &&
			"$K" delete net.tx && "$K" delete net_tx && "$K" delete net-tx
	}
	ok "snapshot for the Prometheus test" export_snapshot
	watch_push() {
		(sleep 0.3; push_tcp) &
		"$K" show tcp_sendmsg --watch 1 --count 2 >"$tmp/wt.txt" || return 1
		wait
		[[ $(grep -c '^--- interval' "$tmp/wt.txt") == 2 ]]
	}
	ok "--watch 1 --count 2 while pushing" watch_push
	ok "snapshot + diff" sh -c "\"$K\" snapshot tcp_sendmsg -o $tmp/t1.ksnap && \"$K\" diff $tmp/t1.ksnap >/dev/null"
	ok "untrace tcp_sendmsg" "$K" untrace tcp_sendmsg
	# One-shot (trace --duration/--interval) and the HdrHistogram capture
	# (export -f hdr --interval), counted exactly on the target's calls.
	if insmod "$build/tests/kmod/kstats_target.ko"; then
		. tests/guest/cli-oneshot.sh
		ok "rmmod kstats_target" rmmod kstats_target
	else
		ok "insmod kstats_target (one-shot tests)" false
	fi
	ok "no such function: error, exit 1" expect 1 '^kstatsctl: error: no such function: kstats_no_such_fn' \
		"$K" trace kstats_no_such_fn --keep
	ok "--pid of a thread that is not its process's leader: no such process, hint --tid" \
		pid_of_thread_refused
else
	skip "trace tcp_sendmsg over loopback TCP" "this module has no tracing"
	ok "trace: 'tracing: not supported by this kstats module', exit 1" errors 1 \
		"kstatsctl: error: tracing: not supported by this kstats module" \
		"hint: this kstats module cannot trace functions ('kstatsctl info' lists what it supports); a newer kstats can" \
		"$K" trace tcp_sendmsg --keep
	ok "untrace: the same, exit 1" expect 1 \
		'^kstatsctl: error: tracing: not supported by this kstats module' "$K" untrace tcp_sendmsg
fi

# ---- lockdown, last: it cannot be lowered again ----
lock=/sys/kernel/security/lockdown
if [[ -w $lock ]]; then
	ok "lockdown=confidentiality" sh -c "echo confidentiality >$lock"
	ok "info: lockdown, tracing blocked" expect 0 '^lockdown +confidentiality \(tracing blocked\)' "$K" info
	ok "TRACE under lockdown: EPERM, and INFO says so" "$build/trace_test" lockdown
	ok "unload kstats" unloaded
	modules_tree kstats
	ok "locked down: the unsigned module is refused, MOK hint, exit 1" errors 1 \
		"kstatsctl: error: loading kstats: the kernel is locked down (confidentiality, Secure Boot) and refused an unsigned module" \
		"hint: Secure Boot loads only signed modules: sign kstats.ko with a Machine Owner Key (DKMS makes one, /var/lib/dkms/mok.pub), enroll it with 'sudo mokutil --import /var/lib/dkms/mok.pub', reboot, confirm it in the MOK manager, then reinstall kstats" \
		"$K" list
	modules_restore
else
	skip "lockdown errors" "no writable $lock"
	unloaded
fi

rm -rf "$tmp"
tap_end

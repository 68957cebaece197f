#!/usr/bin/env bash
# kstatsctl trace with patterns and several functions (issue 32), inside the
# VM (tests/vm/run.sh), from the repository root as root, with cli/kstatsctl
# built on the host beforehand. Prints TAP; exits non-zero if any test
# failed.
# Usage: tests/guest/many-tests.sh BUILD_DIR
#   BUILD_DIR/module/kstats.ko, BUILD_DIR/tests/kmod/kstats_target.ko
#
# kstats_target's ktarget_many_00.._31 count their own calls ("many_counts",
# read before and after): every count below is the difference, exact.
# ktarget_many_notrace has no ftrace call site: a pattern must skip it. Runs
# are waited for by state (the "tracing" line, bpftrace's own output), never
# by time.
set -uo pipefail
build=${1:?usage: many-tests.sh BUILD_DIR}
build=$(realpath "$build")
top=$PWD
K=${KSTATS_CTL:-$top/cli/kstatsctl}
dbg=/sys/kernel/debug/kstats_target
ctl=$dbg/ctl
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

list_empty() {
	local out
	out=$("$K" list) || return 1
	[[ $out == "no metrics" ]] || { echo "$out"; return 1; }
}
ok "list is empty to begin with" list_empty

# kstats' counts (count + misses) of ktarget_many_00.._31 in a show -j
# document against the target's own counts between two reads of
# many_counts: equal, function by function, and each WANT.
counts_match() {	# counts_match SHOW_JSON BEFORE AFTER WANT
	"$py" - "$@" <<-'EOF'
	import json, sys
	doc = json.load(open(sys.argv[1]))
	before = [int(x) for x in open(sys.argv[2]).read().split()]
	after = [int(x) for x in open(sys.argv[3]).read().split()]
	want = int(sys.argv[4])
	got = {m["name"]: m["count"] + m["trace"]["misses"] for m in doc["metrics"]}
	bad = []
	for i in range(32):
	    name = "ktarget_many_%02d" % i
	    own = after[i] - before[i]
	    if own != want or got.get(name) != own:
	        bad.append("%s: kstats %s, the target %d" % (name, got.get(name), own))
	if "ktarget_many_notrace" in got:
	    bad.append("ktarget_many_notrace traced")
	print("# 32 functions: each %d calls by its own count and by kstats'" % want)
	for b in bad:
	    print("# " + b)
	sys.exit(1 if bad else 0)
	EOF
}

# --keep -j: 32 traced, the notrace one skipped by the module (ENXIO).
kept() {	# kept MECH
	"$K" -j trace 'ktarget_many_*' --mechanism "$1" --keep >"$tmp/keep.json" \
		2>"$tmp/keep.err" || { cat "$tmp/keep.err"; return 1; }
	"$py" "$validate" schema "$schema" "$tmp/keep.json" || return 1
	"$py" - "$tmp/keep.json" <<-'EOF' || { cat "$tmp/keep.json" "$tmp/keep.err"; return 1; }
	import json, sys
	d = json.load(open(sys.argv[1]))
	want = ["ktarget_many_%02d" % i for i in range(32)]
	sys.exit(sorted(d["functions"]) != want or
	         [(s["function"], s.get("errno")) for s in d["skipped"]] !=
	         [("ktarget_many_notrace", "ENXIO")])
	EOF
	grep -q '^kstatsctl:   ktarget_many_notrace: no ftrace call site' "$tmp/keep.err"
}

counted() {
	cat "$dbg/many_counts" >"$tmp/before" && echo "many 32 7" >"$ctl" &&
		cat "$dbg/many_counts" >"$tmp/after" || return 1
	"$K" -j show 'ktarget_many_*' >"$tmp/show.json" &&
		counts_match "$tmp/show.json" "$tmp/before" "$tmp/after" 7
}

# bpftrace counts the same calls per function: its kprobe:ktarget_many_*
# (kprobe_multi, or a kprobe each in name order) and kstats' traces,
# attached first, see the same calls. Attached is proven: warm-up calls of
# ktarget_many_31 alone (the last in name order) until bpftrace reports
# one. bpftrace stops itself at a call of ktarget_sleep() (see
# trace_bpftrace.c for why never by a signal).
# bpf_start PROG OUT WARM: bpftrace running PROG, its output in OUT, its
# probes proven attached by writing WARM to ctl until it prints "attached";
# its pid in bpf_pid, the writes in bpf_warm.
bpf_start() {
	command -v bpftrace >/dev/null || { echo "no bpftrace"; return 1; }
	bpftrace -e "$1" >"$2" 2>"$2.err" &
	bpf_pid=$! bpf_warm=0
	wait_for grep -q '^begin' "$2" || { kill -KILL "$bpf_pid"; cat "$2.err"; return 1; }
	until grep -q '^attached' "$2"; do
		((bpf_warm++ < 600)) || { kill -KILL "$bpf_pid"; return 1; }
		echo "$3" >"$ctl"
		sleep 0.1
	done
}
# bpf_stop: a call of ktarget_sleep(), which the program's last probe exits on.
bpf_stop() {
	echo "sleep 1 1" >"$ctl"
	timeout 60 tail --pid="$bpf_pid" -f /dev/null || { kill -KILL "$bpf_pid"; return 1; }
	wait "$bpf_pid"
}
bpf_prog='BEGIN { printf("begin\n"); }
kprobe:ktarget_many_* { @[probe] = count(); if (@go == 0) { @go = 1; printf("attached\n"); } }
kprobe:ktarget_sleep { exit(); }'
with_bpftrace() {
	bpf_start "$bpf_prog" "$tmp/bpf.out" "many_one 31 1" || return 1
	"$K" -j show 'ktarget_many_*' >"$tmp/mid.json" &&
		cat "$dbg/many_counts" >"$tmp/before" && echo "many 32 5" >"$ctl" &&
		cat "$dbg/many_counts" >"$tmp/after" &&
		"$K" -j show 'ktarget_many_*' >"$tmp/end.json" || { kill -KILL "$bpf_pid"; return 1; }
	bpf_stop || return 1
	"$py" - "$tmp/bpf.out" "$tmp/mid.json" "$tmp/end.json" "$bpf_warm" <<-'EOF'
	import json, re, sys
	bpf = {m.group(1): int(m.group(2)) for m in
	       re.finditer(r"@\[kprobe:(ktarget_many_\w+)\]: (\d+)", open(sys.argv[1]).read())}
	def counts(path):
	    return {m["name"]: m["count"] + m["trace"]["misses"]
	            for m in json.load(open(path))["metrics"]}
	mid, end = counts(sys.argv[2]), counts(sys.argv[3])
	warm = int(sys.argv[4])
	bad = []
	for i in range(32):
	    name = "ktarget_many_%02d" % i
	    k = end[name] - mid[name]
	    b = bpf.get(name, 0)
	    # _31's count in bpftrace also holds the warm-up calls it saw (1..warm).
	    if k != 5 or not (b == k if i < 31 else k + 1 <= b <= k + warm):
	        bad.append("%s: bpftrace %d, kstats %d" % (name, b, k))
	print("# bpftrace and kstats, 32 functions x 5 calls: %s (%d warm-up calls)" %
	      ("the same" if not bad else "differ", warm))
	for x in bad:
	    print("# " + x)
	sys.exit(1 if bad else 0)
	EOF
}

# On fprobe the 32 are one group (one fprobe): untracing ten of them leaves
# the other 22 counting, each exactly its own calls, between two shows.
partial() {
	"$K" untrace 'ktarget_many_1*' && "$K" -j show 'ktarget_many_*' >"$tmp/p0.json" &&
		cat "$dbg/many_counts" >"$tmp/before" && echo "many 32 4" >"$ctl" &&
		cat "$dbg/many_counts" >"$tmp/after" &&
		"$K" -j show 'ktarget_many_*' >"$tmp/p1.json" || return 1
	"$py" - "$tmp/p0.json" "$tmp/p1.json" "$tmp/before" "$tmp/after" <<-'EOF'
	import json, sys
	def counts(path):
	    return {m["name"]: (m["count"] + m["trace"]["misses"], m["trace"].get("group_misses", 0))
	            for m in json.load(open(path))["metrics"]}
	p0, p1 = counts(sys.argv[1]), counts(sys.argv[2])
	before = [int(x) for x in open(sys.argv[3]).read().split()]
	after = [int(x) for x in open(sys.argv[4]).read().split()]
	want = ["ktarget_many_%02d" % i for i in range(32) if i // 10 != 1]
	bad = [] if sorted(p1) == want else ["traced: %s" % sorted(p1)]
	for name in want:
	    i = int(name[-2:])
	    own, k = after[i] - before[i], p1[name][0] - p0[name][0]
	    if own != 4 or k != 4 or p1[name][1]:
	        bad.append("%s: kstats %d, the target %d, group misses %d" % (name, k, own, p1[name][1]))
	print("# 22 of 32 left in the group, 4 calls each: %s" % ("exact" if not bad else "off"))
	for b in bad:
	    print("# " + b)
	sys.exit(1 if bad else 0)
	EOF
}

untraced() {
	"$K" untrace 'ktarget_many_*' && list_empty
}

# A call in flight when its function leaves the group: ktarget_held and
# ktarget_empty as one fprobe, ktarget_held untraced while a call is inside
# it (the target holds it there until "holding" is written 0, and says so
# in "holding": a state, not a time). Its exit then finds its slot cleared
# and counts nowhere (the lane fails on any report); ktarget_empty's trace
# counts on exactly, with no group misses.
in_flight() {
	local pid
	"$K" trace ktarget_held ktarget_empty --mechanism fprobe --keep 2>"$tmp/held.err" ||
		{ cat "$tmp/held.err"; return 1; }
	echo hold >"$ctl" &
	pid=$!
	wait_for grep -qx 1 "$dbg/holding" || { echo 0 >"$dbg/holding"; wait "$pid"; return 1; }
	"$K" untrace ktarget_held || { echo 0 >"$dbg/holding"; wait "$pid"; return 1; }
	grep -qx 1 "$dbg/holding" || { echo "# the call ended before its untrace did"; return 1; }
	echo 0 >"$dbg/holding" && wait "$pid" &&
		"$K" -j show ktarget_empty >"$tmp/h0.json" && echo "empty 10" >"$ctl" &&
		"$K" -j show ktarget_empty >"$tmp/h1.json" && "$K" untrace ktarget_empty || return 1
	list_empty || return 1
	"$py" - "$tmp/h0.json" "$tmp/h1.json" <<-'EOF'
	import json, sys
	t = [json.load(open(p))["metrics"][0] for p in sys.argv[1:]]
	n = [m["count"] + m["trace"]["misses"] for m in t]
	g = t[1]["trace"].get("group_misses", 0)
	print("# ktarget_empty after ktarget_held left with a call in flight: %d calls, "
	      "group misses %d" % (n[1] - n[0], g))
	sys.exit(n[1] - n[0] != 10 or g != 0 or [m["name"] for m in t] != ["ktarget_empty"] * 2)
	EOF
}

# A function in a group and traced alone as well: 'ktarget_many_0*' as one
# fprobe, ktarget_many_00 also by a single fprobe and a kretprobe of its
# own. Each counts exactly the target's calls; the group keeps counting
# when the single fprobe leaves.
shared_gone() {	# after a failure: nothing of shared() left for the next checks
	local n
	for n in 'ktarget_many_*' one.fp one.kr; do
		"$K" untrace "$n" >/dev/null 2>&1
	done
	true
}
shared() {
	"$K" trace 'ktarget_many_0*' --mechanism fprobe --keep 2>"$tmp/sh.err" &&
		"$K" trace ktarget_many_00 --name one.fp --mechanism fprobe --keep 2>>"$tmp/sh.err" &&
		"$K" trace ktarget_many_00 --name one.kr --mechanism kretprobe --keep 2>>"$tmp/sh.err" ||
		{ cat "$tmp/sh.err"; shared_gone; return 1; }
	local i
	for i in 0 1 2; do
		"$K" -j show --all >"$tmp/s$i.json" && cat "$dbg/many_counts" >"$tmp/c$i" ||
			{ shared_gone; return 1; }
		((i == 2)) && break
		((i == 1)) && { "$K" untrace one.fp || { shared_gone; return 1; }; }
		echo "many 32 $((3 - i))" >"$ctl" || { shared_gone; return 1; }
	done
	"$K" untrace 'ktarget_many_*' one.kr && list_empty || { shared_gone; return 1; }
	"$py" - "$tmp" <<-'EOF'
	import json, sys
	d = sys.argv[1]
	def counts(i):
	    return {m["name"]: (m["count"] + m["trace"]["misses"], m["trace"].get("group_misses", 0))
	            for m in json.load(open("%s/s%d.json" % (d, i)))["metrics"]}
	s = [counts(i) for i in range(3)]
	c = [[int(x) for x in open("%s/c%d" % (d, i)).read().split()] for i in range(3)]
	bad = []
	for step, calls, names in ((1, 3, ["one.fp", "one.kr"]), (2, 2, ["one.kr"])):
	    want = {"ktarget_many_%02d" % i: c[step][i] - c[step - 1][i] for i in range(10)}
	    for n in names:
	        want[n] = c[step][0] - c[step - 1][0]
	    for n, own in sorted(want.items()):
	        if n not in s[step] or n not in s[step - 1]:
	            bad.append("%s: not listed" % n)
	            continue
	        k, g = s[step][n][0] - s[step - 1][n][0], s[step][n][1]
	        if own != calls or k != own or g:
	            bad.append("%s: kstats %d, the target %d, group misses %d" % (n, k, own, g))
	print("# ktarget_many_00 in a group, by a fprobe and a kretprobe of its own: %s"
	      % ("exact" if not bad else "off"))
	for b in bad:
	    print("# " + b)
	sys.exit(1 if bad else 0)
	EOF
}

# One-shot: the histograms of the ten, Ctrl-C, nothing left.
oneshot() {	# oneshot MECH
	local pid
	"$K" trace 'ktarget_many_0*' --mechanism "$1" >"$tmp/once.txt" 2>"$tmp/once.err" &
	pid=$!
	wait_for grep -q '^kstatsctl: tracing 10 functions until Ctrl-C$' "$tmp/once.err" ||
		{ kill -INT "$pid"; cat "$tmp/once.err"; return 1; }
	echo "many 32 3" >"$ctl" && kill -INT "$pid" && wait "$pid" || return 1
	[[ $(grep -c '^count 3 ' "$tmp/once.txt") == 10 ]] ||
		{ cat "$tmp/once.txt" "$tmp/once.err"; return 1; }
	list_empty
}

# bpftrace_oracle NAME CMD...: ok NAME CMD..., but where the lane has no
# bpftrace (KSTATS_NO_BPFTRACE says why: main-tests.sh): there bpftrace's
# counts are skipped, said so (they run on 6.12 and 7.3).
bpftrace_oracle() {
	if [[ -n ${KSTATS_NO_BPFTRACE:-} ]]; then
		skip "$1" "$KSTATS_NO_BPFTRACE"
	else
		ok "$@"
	fi
}

have=$("$K" info -j | "$py" -c 'import json, sys
print(" ".join(json.load(sys.stdin)["module"]["mechanisms"]))')
mechs=(kretprobe)
[[ " $have " == *" fprobe "* ]] && mechs=(fprobe kretprobe)
for mech in "${mechs[@]}"; do
	ok "$mech: trace 'ktarget_many_*' --keep -j: the 32 traced, ktarget_many_notrace skipped (ENXIO, no ftrace call site)" kept "$mech"
	ok "$mech: 32 x 7 calls: each function's count is its own count, exactly" counted
	[[ $mech == kretprobe ]] &&
		bpftrace_oracle "$mech: bpftrace's kprobe:ktarget_many_* counts the same calls per function" with_bpftrace
	ok "$mech: untrace 'ktarget_many_1*': the other 22 count exactly their own calls, no group misses" partial
	ok "$mech: untrace 'ktarget_many_*': list empty" untraced
	[[ $mech == fprobe ]] &&
		ok "fprobe: ktarget_held leaves the group with a call in flight: ktarget_empty counts on exactly, no group misses" in_flight
	[[ $mech == fprobe ]] &&
		ok "fprobe: ktarget_many_00 in a group and alone (fprobe, kretprobe): each trace counts exactly, the group on after the single fprobe leaves" shared
	ok "$mech: one-shot 'ktarget_many_0*', Ctrl-C: 10 histograms of exactly 3 calls, list empty" oneshot "$mech"
done
[[ " ${mechs[*]} " == *" fprobe "* ]] ||
	skip "fprobe: a call in flight when its function leaves the group" "this kernel has no fprobe"

# A thousand functions as one fprobe (kstats_target's ktarget_wide_0000 to
# _1023): each counts exactly its own calls, between two reads of the
# target's counts, with no group misses; untrace leaves nothing. On the
# debug lane, under KASAN, lockdep and kmemleak (the lane fails on any
# report), and on 7.3's, where fprobe runs on the function graph; the other
# lanes' fprobe is 6.12's, which the debug lane has (make check's time).
wide() {
	"$K" trace 'ktarget_wide_*' --max 1024 --keep --mechanism fprobe 2>"$tmp/wide.err" ||
		{ cat "$tmp/wide.err"; return 1; }
	cat "$dbg/wide_counts" >"$tmp/w0" && echo "wide 1024 5" >"$ctl" &&
		cat "$dbg/wide_counts" >"$tmp/w1" &&
		"$K" -j show 'ktarget_wide_*' >"$tmp/wide.json" || return 1
	"$K" untrace 'ktarget_wide_*' && list_empty || return 1
	"$py" - "$tmp/wide.json" "$tmp/w0" "$tmp/w1" <<-'EOF'
	import json, sys
	k = {m["name"]: (m["count"] + m["trace"]["misses"], m["trace"].get("group_misses", 0))
	     for m in json.load(open(sys.argv[1]))["metrics"]}
	w0 = [int(x) for x in open(sys.argv[2]).read().split()]
	w1 = [int(x) for x in open(sys.argv[3]).read().split()]
	bad = ["ktarget_wide_%04d: kstats %s, the target %d" % (i, k.get("ktarget_wide_%04d" % i),
	                                                      w1[i] - w0[i])
	       for i in range(1024) if w1[i] - w0[i] != 5 or
	       k.get("ktarget_wide_%04d" % i) != (5, 0)]
	print("# %d traced, 1024 x 5 calls: %s" % (len(k), "each exact, no group misses" if not bad
	      else "%d off" % len(bad)))
	for b in bad[:10]:
	    print("# " + b)
	sys.exit(1 if bad or len(k) != 1024 else 0)
	EOF
}
if [[ " $have " != *" fprobe "* ]]; then
	skip "fprobe: 1,024 functions as one fprobe" "this kernel has no fprobe"
elif [[ ${KSTATS_LANE:-} == debug || ${KSTATS_LANE:-} == 7.3 ]]; then
	ok "fprobe: trace 'ktarget_wide_*' (1,024 functions, one fprobe): each counts exactly its 5 calls, no group misses; untrace leaves nothing" wide
else
	skip "fprobe: 1,024 functions as one fprobe" "run on the debug and 7.3 lanes (6.12's fprobe under KASAN there)"
fi

# Named alone, a function is the user's choice: kretprobe takes the notrace one.
named() {
	"$K" trace ktarget_many_notrace ktarget_many_00 --mechanism kretprobe --keep \
		2>"$tmp/named.err" || { cat "$tmp/named.err"; return 1; }
	echo "many 1 4" >"$ctl" && "$K" -j show ktarget_many_notrace ktarget_many_00 >"$tmp/named.json"
	"$K" untrace ktarget_many_notrace ktarget_many_00 || return 1
	"$py" -c 'import json, sys
sys.exit([m["count"] for m in json.load(open(sys.argv[1]))["metrics"]] != [4, 4])' "$tmp/named.json" &&
		list_empty
}
ok "kretprobe: trace ktarget_many_notrace ktarget_many_00 (named, no pattern): both traced, 4 calls each" named

# --by stack: ktarget_leaf through three call paths (kstats_target's
# "paths A B C": path_a -> leaf, path_b -> mid -> leaf, path_c -> mid ->
# leaf), a key per stack, each counting exactly its path's calls (the
# target's paths_calls); show --folded names each path's frames.
folded_paths() {	# folded_paths FILE A B C: the three lines, exact
	"$py" - "$@" <<-'EOF'
	import sys
	lines = [l.rsplit(" ", 1) for l in open(sys.argv[1]).read().splitlines()]
	want = {("ktarget_path_a",): int(sys.argv[2]), ("ktarget_path_b", "ktarget_mid"): int(sys.argv[3]),
	        ("ktarget_path_c", "ktarget_mid"): int(sys.argv[4])}
	got = {}
	for stack, n in lines:
	    f = [x.replace(" [kstats_target]", "") for x in stack.split(";")]
	    if f[-1] != "ktarget_leaf" or f[0].startswith("["):
	        print("# not a whole stack of ktarget_leaf:", stack); sys.exit(1)
	    key = tuple(x for x in f[:-1] if x.startswith("ktarget_path_") or x == "ktarget_mid")
	    got[key] = got.get(key, 0) + int(n)
	print("# show --folded: %s" % got)
	sys.exit(got != want)
	EOF
}
stack_keys() {	# stack_keys MECH
	local before after
	"$K" trace ktarget_leaf --by stack --mechanism "$1" --keep 2>/dev/null || return 1
	before=$(cat "$dbg/paths_calls")
	echo "paths 30 20 10" >"$ctl" || return 1
	after=$(cat "$dbg/paths_calls")
	"$K" show --folded ktarget_leaf >"$tmp/stack.folded" 2>&1 &&
		"$K" show --folded ktarget_leaf --weight time >"$tmp/stack-time.folded" 2>&1 ||
		{ cat "$tmp/stack.folded"; "$K" untrace ktarget_leaf; return 1; }
	"$K" -j show 'ktarget_leaf*' >"$tmp/stack.json"
	# A snapshot file keeps each key's frames: the same lines from it.
	# Taken without privilege, it keeps none: every line [withheld].
	"$K" snapshot --all -o "$tmp/stack.ksnap" &&
		setpriv --bounding-set=-all --inh-caps=-all "$K" snapshot --all -o "$tmp/nocap.ksnap" &&
		"$K" show --folded -i "$tmp/nocap.ksnap" ktarget_leaf >"$tmp/nocap.folded" &&
		"$K" show --folded -i "$tmp/stack.ksnap" ktarget_leaf >"$tmp/file.folded" &&
		"$K" show --folded -i "$tmp/stack.ksnap" ktarget_leaf --weight time \
			>"$tmp/file-time.folded" ||
		{ "$K" untrace ktarget_leaf; return 1; }
	"$K" untrace ktarget_leaf || return 1
	cmp "$tmp/stack.folded" "$tmp/file.folded" && cmp "$tmp/stack-time.folded" "$tmp/file-time.folded" ||
		{ echo "show --folded -i differs from the live trace's"; diff "$tmp/stack.folded" "$tmp/file.folded"; return 1; }
	[[ $(cat "$tmp/nocap.folded") == "[withheld];ktarget_leaf 60" ]] ||
		{ echo "a snapshot without privilege:"; cat "$tmp/nocap.folded"; return 1; }
	echo "# paths_calls before: $before, after: $after"
	[[ $after == "$(awk '{ print $1 + 30, $2 + 20, $3 + 10 }' <<<"$before")" ]] || return 1
	folded_paths "$tmp/stack.folded" 30 20 10 || { cat "$tmp/stack.folded"; return 1; }
	# By time: the same three stacks, weights adding up to the trace's sum.
	[[ $(sed 's/ [0-9]*$//' "$tmp/stack.folded") == "$(sed 's/ [0-9]*$//' "$tmp/stack-time.folded")" ]] &&
		"$py" - "$tmp/stack.json" "$tmp/stack-time.folded" <<-'EOF'
	import json, sys
	ms = {m["name"]: m for m in json.load(open(sys.argv[1]))["metrics"]}
	keys = [m for n, m in ms.items() if n.startswith("ktarget_leaf{stack=")]
	t = sum(int(l.rsplit(" ", 1)[1]) for l in open(sys.argv[2]).read().splitlines())
	print("# --weight time: %d ns in %d stack keys" % (t, len(keys)))
	sys.exit(len(keys) != 3 or t <= 0 or sum(m["count"] for m in keys) != 60)
	EOF
}
# bpftrace's @[kstack] on the same calls: per call path (the frames from
# ktarget_leaf's caller down to the path), the same counts as kstats'
# stack keys. bpftrace attaches first; its attach is proven by warm-up
# calls through path_a, made before kstats traces (1..warm of them are in
# bpftrace's path_a count, none in kstats'); it stops itself at a call
# of ktarget_sleep() (see trace_bpftrace.c).
stack_bpftrace() {
	bpf_start 'BEGIN { printf("begin\n"); }
kprobe:ktarget_leaf { @[kstack] = count(); if (@go == 0) { @go = 1; printf("attached\n"); } }
kprobe:ktarget_sleep { exit(); }' "$tmp/kstack.out" "paths 1 0 0" || return 1
	"$K" trace ktarget_leaf --by stack --mechanism kretprobe --keep 2>/dev/null &&
		echo "paths 30 20 10" >"$ctl" && "$K" show --folded ktarget_leaf >"$tmp/bs.folded" ||
		{ kill -KILL "$bpf_pid"; "$K" untrace ktarget_leaf; return 1; }
	"$K" untrace ktarget_leaf
	bpf_stop || return 1
	"$py" - "$tmp/kstack.out" "$tmp/bs.folded" "$bpf_warm" <<-'EOF'
	import re, sys
	def path(frames):
	    # The callers between ktarget_leaf and the path, path_* and mid only.
	    return tuple(f for f in frames if f.startswith("ktarget_path_") or f == "ktarget_mid")
	bpf = {}
	for block, n in re.findall(r"@\[\n(.*?)\]: (\d+)", open(sys.argv[1]).read(), re.S):
	    frames = [l.strip().split("+")[0].split(" ")[0] for l in block.splitlines() if l.strip()]
	    k = path(frames)
	    bpf[k] = bpf.get(k, 0) + int(n)
	ks = {}
	for line in open(sys.argv[2]).read().splitlines():
	    stack, n = line.rsplit(" ", 1)
	    k = path([f.split(" ")[0] for f in reversed(stack.split(";"))])
	    ks[k] = ks.get(k, 0) + int(n)
	a = ("ktarget_path_a",)
	warm = int(sys.argv[3])
	print("# bpftrace kstack: %s; kstats: %s; %d warm-up calls" % (bpf, ks, warm))
	good = set(bpf) == set(ks) and all(bpf[k] == ks[k] for k in ks if k != a) and \
	       a in ks and ks[a] + 1 <= bpf[a] <= ks[a] + warm
	sys.exit(not good)
	EOF
}

# With --outliers 1s no call is slow enough: none is keyed, every call is in NAME.
stack_outliers_only() {
	"$K" trace ktarget_leaf --by stack --outliers 1s --keep 2>/dev/null || return 1
	echo "paths 3 2 1" >"$ctl" && "$K" -j show ktarget_leaf >"$tmp/so.json" || return 1
	expect 1 "ktarget_leaf: no stack keys" "$K" show --folded ktarget_leaf
	local rc=$?
	"$K" untrace ktarget_leaf || return 1
	((rc == 0)) && [[ $(count_of "$tmp/so.json" ktarget_leaf) == 6 ]] &&
		! "$K" list | grepq 'ktarget_leaf{'
}
count_of() {	# count_of FILE NAME: the count of NAME in a show -j document
	"$py" -c 'import json, sys
print(next(m["count"] for m in json.load(open(sys.argv[1]))["metrics"] if m["name"] == sys.argv[2]))' "$1" "$2"
}
if "$K" info | grepq 'stack-key'; then
	for mech in "${mechs[@]}"; do
		ok "$mech: trace ktarget_leaf --by stack: three stacks, 30, 20 and 10 calls, each its path's own count; show --folded names each path, and from a snapshot file the same" \
			stack_keys "$mech"
	done
	bpftrace_oracle "kretprobe --by stack against bpftrace's @[kstack] on the same calls: the same paths, the same counts" \
		stack_bpftrace
	ok "--by stack --outliers 1s: no call keyed (none that slow), all 6 in ktarget_leaf" \
		stack_outliers_only
else
	ok "kstatsctl info lists stack-key" false
fi
ok "--by stack --key-values: refused, exit 2" expect 2 "not with --by stack" \
	"$K" trace ktarget_leaf --by stack --key-values 1 --keep

# What a pattern must not trace: kstats' own functions, the unwinder, __init.
ok "trace 'kstats:*': every function refused (kstats' own), exit 1, nothing traced" \
	expect 1 "none of the [0-9]+ functions could be traced" "$K" trace 'kstats:*' --max 4096 --keep
ok "  ... and each said so" expect 1 "a function of kstats itself" "$K" trace 'kstats:*' --max 4096 --keep
ok "  ... list empty" list_empty
# Named alone too, and its last function: refused by kstats' own symbols,
# before kprobes decodes it (6.12 oopsed there: its end is the text's).
ok "trace kstats_exit (named): part of kstats, exit 1, no oops" \
	expect 1 "kstats_exit cannot be traced: it is part of kstats" "$K" trace kstats_exit --keep
ok "trace kstats:kstats_exit (named, with its module): part of kstats, exit 1" \
	expect 1 "cannot be traced: it is part of kstats" "$K" trace kstats:kstats_exit --keep
ok "trace 'unwind_*': the stack unwinder, refused, exit 1" \
	expect 1 "unwind_next_frame: the stack unwinder" "$K" trace 'unwind_*' --keep
ok "  ... list empty" list_empty
ok "trace 'vfs_caches_init*': __init text, skipped before asking, exit 1" \
	expect 1 "vfs_caches_init: __init text, freed after boot" "$K" trace 'vfs_caches_init*' --keep
ok "trace 'ktarget_many_*' --max 10: over it, exit 2, the number said" \
	expect 2 "'ktarget_many_\\*': 33 functions to trace, over --max 10" \
	"$K" trace 'ktarget_many_*' --max 10 --keep
ok "trace 'nomatch_xyz_*': matches nothing, exit 1" \
	expect 1 "'nomatch_xyz_\\*' matches no kernel function" "$K" trace 'nomatch_xyz_*' --keep
ok "list empty at the end" list_empty

tap_end

#!/usr/bin/env bash
# kstatsctl trace --value/--if end to end (issue 33), inside the VM
# (tests/vm/run.sh), from the repository root as root, with cli/kstatsctl
# built on the host beforehand. Prints TAP; exits non-zero if any test failed.
# Usage: tests/guest/value-tests.sh BUILD_DIR
#   BUILD_DIR/module/kstats.ko, BUILD_DIR/tests/kmod/kstats_target.ko
#
# The target: kstats_target's ktarget_value(struct kv_outer *o, long v),
# which returns v / 4 - 100. Its debugfs command "values N SEED BITS" makes
# N calls with known arguments (v signed, of at most BITS bits; 0 and 1
# among them), a chain o->mid->inner with a NULL in the middle on known
# calls (o->mid NULL: chain 0; mid->inner NULL: chain 1; whole: chain 2),
# and "values" then reads what each call passed and got (struct kv_call).
# value_check.py compares every bucket of what kstatsctl recorded with
# those calls, and hits, faults and rejected with their counts: exact.
# The same calls emit the target's trace events ktarget_value_start(o, v)
# and ktarget_value_done(o, ret) around each call: a point (one of them,
# --value) and a section between them hold the same values, exactly; so
# does a section between the functions ktarget_value_open(o, v) and
# ktarget_value_close(o, ret) the target calls inside them.
# Names need kstats_target's BTF (/sys/kernel/btf/kstats_target); without
# it the tests by name are skipped and argN/retval with casts still run.
set -uo pipefail
build=${1:?usage: value-tests.sh BUILD_DIR}
build=$(realpath "$build")
top=$PWD
K=${KSTATS_CTL:-$top/cli/kstatsctl}
ctl=/sys/kernel/debug/kstats_target/ctl
blob=/sys/kernel/debug/kstats_target/values
check=$top/tests/guest/value_check.py
schema=$top/cli/kstatsctl.schema.json
validate=$top/tests/cli/validate.py
py=/usr/bin/python3
fn=ktarget_value
tgt=("$fn")	# what run() traces: the function, a tracepoint or a section
N=2048
tmp=$(mktemp -d)
export KSTATS_COLOR=never
. tests/guest/tap.sh

cleanup() {
	local n
	for n in $("$K" list 2>/dev/null | awk '$1 ~ /^kv\./ { print $1 }'); do
		"$K" untrace "$n" >/dev/null 2>&1
	done
	rmmod kstats_target 2>/dev/null
	rmmod kstats 2>/dev/null
	rm -rf "$tmp"
}
trap cleanup EXIT

insmod "$build/module/kstats.ko" && insmod "$build/tests/kmod/kstats_target.ko" ||
	{ echo "Bail out! cannot load kstats and kstats_target"; exit 1; }

has_feature() { "$K" -j info | "$py" -c 'import json, sys
sys.exit(sys.argv[1] not in json.load(sys.stdin)["module"]["features"])' "$1"; }
mechanisms=$("$K" -j info | "$py" -c 'import json, sys
print(" ".join(m for m in json.load(sys.stdin)["module"]["mechanisms"] if m in ("fprobe", "kretprobe")))')
[[ -n $mechanisms ]] || { echo "Bail out! info lists neither fprobe nor kretprobe"; exit 1; }
btf=0 unsigned=(--unsigned)	# without BTF, arg1 is the register, unsigned
[[ -e /sys/kernel/btf/kstats_target ]] && btf=1 unsigned=()

ok "info lists the feature expr" has_feature expr

# vcheck ARGS...: value_check.py ARGS, answered by the one value_check.py
# started here (a python start costs 0.4-0.9 s under TCG, and the checks
# below would make ~100 of them): its output, and its exit status.
coproc CHECKER { "$py" "$check" serve; }
vcheck() {
	local line
	{ printf '%s\0' "$@" | base64 -w0; echo; } >&"${CHECKER[1]}" || return 1
	while IFS= read -r line <&"${CHECKER[0]}"; do
		[[ $line == "rc "* ]] && return "${line#rc }"
		printf '%s\n' "$line"
	done
	echo "value_check.py serve: gone"
	return 1
}

# run NAME SEED BITS TRACE-ARGS...: trace, make N calls, snapshot NAME and
# NEG-NAME (and VALUE-NAME) into $tmp/NAME.json, untrace; the calls in
# $tmp/NAME.bin. Every JSON written is checked against the schema once, at
# the end (one python start: under TCG each costs most of a second).
run() {
	local name=$1 seed=$2 bits=$3 extra m
	shift 3
	"$K" trace "${tgt[@]}" --name "$name" --keep "$@" || return 1
	echo "values $N $seed $bits" >"$ctl" || { "$K" untrace "$name"; return 1; }
	cat "$blob" >"$tmp/$name.bin"
	# From JSON: the table may shorten names to fit (a section's owner is long).
	"$K" -j list >"$tmp/list.json" && extra=$(vcheck names "$tmp/list.json" "NEG-$name" "VALUE-$name") ||
		{ "$K" untrace "$name"; return 1; }
	# shellcheck disable=SC2086 # metric names have no blanks
	"$K" -j show "$name" $extra >"$tmp/$name.json" || { "$K" untrace "$name"; return 1; }
	"$K" untrace "$name"
}

# value NAME FIELD CHECK-ARGS -- TRACE-ARGS...
value() {
	local name=$1 field=$2 args=()
	shift 2
	while [[ $1 != -- ]]; do args+=("$1"); shift; done
	shift
	run "$name" $((RANDOM + 1)) 40 "$@" &&
		vcheck values "$tmp/$name.bin" "$tmp/$name.json" "$name" "$field" "${args[@]}"
}

# time_value NAME -- TRACE-ARGS...: NAME holds every call's duration,
# VALUE-NAME and NEG-NAME the values.
time_value() {
	local name=$1
	shift 2
	run "$name" $((RANDOM + 1)) 40 "$@" &&
		vcheck values "$tmp/$name.bin" "$tmp/$name.json" "VALUE-$name" arg &&
		vcheck timed "$tmp/$name.json" "$name" "$N"
}

# pred NAME PYEXPR CHECK-ARGS -- TRACE-ARGS...
pred() {
	local name=$1 expr=$2 args=()
	shift 2
	while [[ $1 != -- ]]; do args+=("$1"); shift; done
	shift
	run "$name" $((RANDOM + 1)) 20 "$@" &&
		vcheck pred "$tmp/$name.bin" "$tmp/$name.json" "$name" "$expr" "${args[@]}"
}

# Each mechanism at one frac_bits, the first at 0 and the next at 3: what
# kstatsctl sends does not depend on the pair, and trace_test's expr oracle
# (trace-tests, every lane) checks every mechanism at frac_bits 0 and 3 by
# the raw ABI.
b=0
for mech in $mechanisms; do
	m=(--mechanism "$mech" -b "$b")
	# By register, with a cast: works with BTF and without.
	ok "$mech, frac_bits $b: --value '(s64)arg1': every slot, NEG- the negatives" \
		value "kv.a.$mech.$b" arg -- --value '(s64)arg1' "${m[@]}"
	ok "$mech, frac_bits $b: --value '(s64)retval': every slot" \
		value "kv.r.$mech.$b" ret -- --value '(s64)retval' "${m[@]}"
	ok "$mech, frac_bits $b: --value arg1 without a cast (no BTF: unsigned)" \
		value "kv.u.$mech.$b" arg "${unsigned[@]}" -- --value arg1 "${m[@]}"
	ok "$mech, frac_bits $b: --if '(s64)arg1 > 1000' (entry): hits and rejected" \
		pred "kv.p.$mech.$b" 'c.arg > 1000' -- --if '(s64)arg1 > 1000' "${m[@]}"
	ok "$mech, frac_bits $b: --if '(s64)retval < 0 || (s64)arg1 == 1' (exit)" \
		pred "kv.q.$mech.$b" 'c.ret < 0 or c.arg == 1' -- \
		--if '(s64)retval < 0 || (s64)arg1 == 1' "${m[@]}"
	ok "$mech, frac_bits $b: --value '(s64)arg1' --time: VALUE- beside the duration" \
		time_value "kv.t.$mech.$b" -- --value '(s64)arg1' --time "${m[@]}"
	if ((!btf)); then
		skip "$mech, frac_bits $b: names from the module's BTF" \
			"no /sys/kernel/btf/kstats_target"
		b=$((3 - b))
		continue
	fi
	ok "$mech, frac_bits $b: --value v (long: signed, from BTF)" \
		value "kv.v.$mech.$b" arg -- --value v "${m[@]}"
	ok "$mech, frac_bits $b: --value 'o->mid->inner->size': a NULL in the chain is a fault" \
		value "kv.c.$mech.$b" size --chain -- --value 'o->mid->inner->size' "${m[@]}"
	ok "$mech, frac_bits $b: --value 'o->mid->inner->level' (s32: NEG- the negatives)" \
		value "kv.l.$mech.$b" level --chain -- --value 'o->mid->inner->level' "${m[@]}"
	ok "$mech, frac_bits $b: --if 'o->mid->tag == 1': o->mid NULL is a fault" \
		pred "kv.f.$mech.$b" 'c.chain >= 1' --chain -- --if 'o->mid->tag == 1' "${m[@]}"
	ok "$mech, frac_bits $b: --if '(v > 1000 || v < -1000) && retval != -100'" \
		pred "kv.g.$mech.$b" '(c.arg > 1000 or c.arg < -1000) and c.ret != -100' -- \
		--if '(v > 1000 || v < -1000) && retval != -100' "${m[@]}"
	b=$((3 - b))
done

# The plan against the live BTF: the offsets are the target's own.
plan_offsets() {
	"$K" -j trace "$fn" --value 'o->mid->inner->size' --dry-run >"$tmp/plan.json" &&
		"$py" "$validate" schema "$schema" "$tmp/plan.json" &&
		"$py" - "$tmp/plan.json" <<'PY'
import json, sys
p = json.load(open(sys.argv[1]))
v = p["value"]
# struct kv_outer { u32 id; struct kv_mid *mid; }, kv_mid { u64 tag; struct
# kv_inner *inner; }, kv_inner { u32 pad; s32 level; u64 size; }: 8, 8, 8.
assert p["btf"] == "module kstats_target", p["btf"]
assert [r["offset"] for r in v["reads"]] == [8, 8, 8], v["reads"]
assert (v["source"], v["index"], v["size"], v["signed"]) == ("arg", 0, 8, False), v
PY
}
if ((btf)); then
	ok "--dry-run: the module's BTF gives o->mid->inner->size as +8, +8, +8 from arg0" \
		plan_offsets
	ok "an unknown parameter: refused with the function's parameters, nothing traced" \
		expect 2 "error: --value 'vv': ktarget_value has no parameter 'vv'|hint: did you mean 'v'\\? ktarget_value's parameters: o, v" \
		"$K" trace "$fn" --value vv --keep
	ok "a member not in the struct: the nearest one as the hint" \
		expect 2 "error: --value 'o->mid->innr': struct kv_mid has no member 'innr'|hint: did you mean 'inner'\\?" \
		"$K" trace "$fn" --value 'o->mid->innr' --keep
else
	skip "--dry-run offsets and refusals from the module's BTF" "no /sys/kernel/btf/kstats_target"
fi

# show's text: a value is unitless, and faults and rejected are said.
show_text() {
	"$K" trace "$fn" --name kv.text --keep --value '(s64)arg1' || return 1
	echo "values 64 7 12" >"$ctl"
	"$K" show kv.text >"$tmp/text" 2>&1
	"$K" summary kv.text NEG-kv.text >"$tmp/sum" 2>&1
	"$K" untrace kv.text || return 1
	# The 64 calls' values are in kv.text (>= 0) or NEG-kv.text (< 0); the
	# trace's counters are kv.text's.
	grep -qE '^NAME .* HIT/MISS +FAULT/REJ$' "$tmp/sum" &&
		grep -qE '^kv\.text .* 64/0 +0/0$' "$tmp/sum" &&
		grep -qE '^NEG-kv\.text .* - +-$' "$tmp/sum" || { cat "$tmp/sum"; return 1; }
	grep -qE '^hits 64  misses 0  faults 0  rejected 0  probe floor [0-9.]+(ns|us)$' "$tmp/text" &&
		! grep -E '^\[' "$tmp/text" | grepq -E '[0-9](ns|us|ms|s)\b' ||
		{ cat "$tmp/text"; return 1; }
}
ok "show and summary: a value's rows have no unit; faults and rejected beside hits" show_text

# A value keyed by errno, saved: format 6, and every metric read back unitless.
keyed_file() {
	"$K" trace "$fn" --name kv.key --keep --value '(s64)arg1' --by errno || return 1
	echo "values 256 5 16" >"$ctl"
	"$K" snapshot --all -o "$tmp/key.ksnap" || { "$K" untrace kv.key; return 1; }
	"$K" untrace kv.key || return 1
	[[ $(od -An -tu2 -j10 -N2 "$tmp/key.ksnap" | tr -d ' ') == 6 ]] || return 1
	"$K" -j show -i "$tmp/key.ksnap" | "$py" -c 'import json, sys
ms = json.load(sys.stdin)["metrics"]
assert any("{errno=" in m["name"] for m in ms), [m["name"] for m in ms]
vals = [m for m in ms if not m["name"].startswith("GAP-")]
bad = [m["name"] for m in vals if m["unit"] is not None or m["kind"] not in ("value", "key")]
assert not bad, bad
assert [m["unit"] for m in ms if m["name"] == "GAP-kv.key"] == ["ns"]'
}
ok "--value --by errno, snapshot: format 6, every metric unitless when read back" keyed_file

# One-shot: the values of the calls made while it ran, then nothing left.
oneshot() {
	local pid
	"$K" trace "$fn" --name kv.once --value '(s64)arg1' --duration 3600 -j \
		>"$tmp/kv.once.json" 2>"$tmp/once.err" &
	pid=$!
	wait_for sh -c "'$K' list | grep -q '^kv.once '" || { kill -INT "$pid"; return 1; }
	echo "values $N 11 30" >"$ctl" && cat "$blob" >"$tmp/kv.once.bin" &&
		kill -INT "$pid" && wait "$pid" || return 1
	! "$K" list | grepq '^kv\.once\|NEG-kv\.once' || return 1
	# (Its document is checked against the schema with the others, at the end.)
	vcheck values "$tmp/kv.once.bin" "$tmp/kv.once.json" kv.once arg
}
ok "one-shot --value --duration, Ctrl-C: every call's value, untraced after" oneshot

# Tracepoints (the target's own events): names from the module's BTF
# (btf_trace_EVENT), read as the probe gets them.
tps=tp:kstats_target:ktarget_value_start tpd=tp:kstats_target:ktarget_value_done
# A point keyed by cgroup: all hits are the writer's, so its one key holds
# what NAME holds (the negatives only in NEG-NAME).
point_by_cgroup() {
	local rc
	"$K" trace "$tps" --name kv.tk --keep --value v --by cgroup || return 1
	echo "values 256 3 20" >"$ctl" || { "$K" untrace kv.tk; return 1; }
	"$K" list >/dev/null	# the key's metric enters the registry
	"$K" -j show --all >"$tmp/kv.tk.json"	# against the schema at the end
	rc=$?
	"$K" untrace kv.tk || return 1
	((rc == 0)) && "$py" - "$tmp/kv.tk.json" <<'PY'
import json, sys
ms = {m["name"]: m for m in json.load(open(sys.argv[1]))["metrics"]}
keys = [n for n in ms if n.startswith("kv.tk{cgroup=")]
assert len(keys) == 1, list(ms)
n, neg = ms["kv.tk"]["count"], ms["NEG-kv.tk"]["count"]
assert ms[keys[0]]["count"] == n and n + neg == 256, (ms[keys[0]]["count"], n, neg)
PY
}
has_mech() { "$K" -j info | "$py" -c 'import json, sys
sys.exit(sys.argv[1] not in json.load(sys.stdin)["module"]["mechanisms"])' "$1"; }
if ((!btf)); then
	skip "tracepoints: names from the module's BTF" "no /sys/kernel/btf/kstats_target"
elif ! has_mech tracepoint; then
	skip "tracepoints: values at tracepoints" "no tracepoint mechanism (a CFI kernel)"
else
	# A point at frac_bits 0, a section at 3 (as for functions above; the
	# raw ABI's oracle in trace-tests checks both at both).
	b=0
	tgt=("$tps")
	ok "point $tps, frac_bits $b: --value v: every slot, NEG- the negatives" \
		value "kv.tv.$b" arg -- --value v -b "$b"
	ok "point, frac_bits $b: --value 'o->mid->inner->size': a NULL is a fault" \
		value "kv.tc.$b" size --chain -- --value 'o->mid->inner->size' -b "$b"
	ok "point, frac_bits $b: --value 'o->id' --if 'v > 1000 || v < -1000': hits, rejected" \
		pred "kv.tp.$b" 'c.arg > 1000 or c.arg < -1000' -- \
		--value 'o->id' --if 'v > 1000 || v < -1000' -b "$b"
	ok "point, frac_bits $b: --if 'o->mid->tag == 1': o->mid NULL is a fault" \
		pred "kv.tf.$b" 'c.chain >= 1' --chain -- --value 'o->id' --if 'o->mid->tag == 1' \
		-b "$b"
	b=3
	tgt=(kv.sect --start "$tps" --end "$tpd")
	ok "section $tps..done, frac_bits $b: --value ret (the end's, at the end)" \
		value "kv.sr.$b" ret -- --value ret -b "$b"
	ok "section, frac_bits $b: --value 'start.o->mid->inner->level' (a fault at the start)" \
		value "kv.sl.$b" level --chain -- --value 'start.o->mid->inner->level' -b "$b"
	ok "section, frac_bits $b: --value v --time: VALUE- beside the duration" \
		time_value "kv.st.$b" -- --value v --time -b "$b"
	ok "section, frac_bits $b: --if 'v > 1000 && ret != -100' (start's, end's)" \
		pred "kv.sp.$b" 'c.arg > 1000 and c.ret != -100' -- \
		--if 'v > 1000 && ret != -100' -b "$b"
	ok "section, frac_bits $b: --if 'duration < 10s && end.o->mid->tag == 1'" \
		pred "kv.sd.$b" 'c.chain >= 1' --chain -- \
		--if 'duration < 10s && end.o->mid->tag == 1' -b "$b"
	tgt=("$fn")
	ok "point --by cgroup: the writer's key holds what NAME holds" point_by_cgroup
	ok "section: 'o', both ends' argument: refused, start.o or end.o" \
		expect 2 "error: --value 'o->id': both ends have an argument 'o': say which.*|hint: start.o reads it at .*, end.o at .*" \
		"$K" trace kv.sect --keep --start "$tps" --end "$tpd" --value 'o->id'
	ok "point: --time refused (nothing to time)" \
		expect 2 "error: --time: $tps is a point in time, with nothing to time|hint: .*" \
		"$K" trace "$tps" --keep --value v --time
	ok "point: without --value, refused" \
		expect 2 "error: $tps: a tracepoint alone is a point in time.*|hint: .*" \
		"$K" trace "$tps" --keep
fi

# Fields of the events' records, read through perf: val is the start's v,
# res the done's ret, id o->id (2), names no argument has. Their offsets
# come from BTF's record, else tracefs' format: with or without BTF.
if ! has_mech tracepoint; then
	skip "tracepoints: fields of an event's record" "no tracepoint mechanism (a CFI kernel)"
else
	tgt=("$tps")
	ok "point, frac_bits 0: --value val (a field of its record): every slot" \
		value kv.tfv arg -- --value val -b 0
	ok "point: --value id --if 'val > 1000 || val < -1000' (fields): hits, rejected" \
		pred kv.tfp 'c.arg > 1000 or c.arg < -1000' -- \
		--value id --if 'val > 1000 || val < -1000' -b 0
	tgt=(kv.sect --start "$tps" --end "$tpd")
	ok "section, frac_bits 3: --value res (the end's record's field)" \
		value kv.sfr ret -- --value res -b 3
	ok "section: --if 'val > 1000 && (s64)end.arg1 != -100' (the start's field, the end's argument)" \
		pred kv.sfp 'c.arg > 1000 and c.ret != -100' -- \
		--if 'val > 1000 && (s64)end.arg1 != -100'
	tgt=("$fn")
	ok "point: a field and an argument of one event: refused" \
		expect 2 "error: 'val' reads ktarget_value_start's record and '\\(s64\\)arg1' reads arg1.*|hint: .*" \
		"$K" trace "$tps" --keep --value val --if '(s64)arg1 > 1'
fi

# A section between functions (by kprobe, both ends at their entry): the
# target calls ktarget_value_open(o, v) and ktarget_value_close(o, ret)
# around each call; names from the module's BTF.
fo=ktarget_value_open fc=ktarget_value_close
tgt=(kv.fsec --start "$fo" --end "$fc")
ok "section $fo..$fc, frac_bits 3: --value '(s64)start.arg1' (a register: with BTF or without)" \
	value kv.fa arg -- --value '(s64)start.arg1' -b 3
if ((!btf)); then
	skip "sections between functions: names from the module's BTF" \
		"no /sys/kernel/btf/kstats_target"
else
	ok "section, frac_bits 0: --value v (the start's, at its entry)" \
		value kv.fv arg -- --value v -b 0
	for b in 0 3; do
		ok "section, frac_bits $b: --value 'end.o->mid->inner->size' (a fault at the end)" \
			value "kv.fc.$b" size --chain -- --value 'end.o->mid->inner->size' -b "$b"
	done
	ok "section, frac_bits 0: --if 'v > 1000 && ret != -100 && duration < 10s'" \
		pred kv.fp 'c.arg > 1000 and c.ret != -100' -- \
		--if 'v > 1000 && ret != -100 && duration < 10s' -b 0
	ok "section of functions: 'o', both ends' parameter: refused, start.o or end.o" \
		expect 2 "error: --value 'o->id': both ends have an argument 'o': say which.*|hint: start.o reads it at $fo, end.o at $fc" \
		"$K" trace kv.fsec --keep --start "$fo" --end "$fc" --value 'o->id'
fi
tgt=("$fn")

# Refusals that need no BTF, checked before anything is attached.
ok "--value retval on a section of functions: refused, nothing traced" \
	expect 2 "error: --value 'retval': a section between functions has no return value.*|hint: .*" \
	"$K" trace kv.sect --keep --start ktarget_empty --end ktarget_value --value retval
ok "arg6: on the stack, refused" \
	expect 2 "error: --value 'arg6': arg6 is on the stack.*|hint: only the first 6 .*" \
	"$K" trace "$fn" --value arg6 --keep
ok "every show -j above: valid against kstatsctl.schema.json" \
	"$py" "$validate" schema "$schema" "$tmp"/kv.*.json
ok "nothing left traced" sh -c "! '$K' list | grep -q 'kv\\.'"

tap_end

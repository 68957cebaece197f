#!/usr/bin/env bash
# `make bench`, many functions (issue 32), guest side: what a call costs
# when a pattern traces N = 1, 100 and 1,000 functions (kstats_target's
# ktarget_wide_0000.._1023, called round-robin, back to back), on each
# mechanism the kernel has: on fprobe one fprobe over all N (a group: its
# handlers find each call's trace by its address), on kretprobe one
# kretprobe each. And, as the control, 100 and 1,000 functions each traced
# by its own command: as many fprobes, each of which ftrace asks about every
# call of any of them. Every
# call of each run is counted, exactly, against the target's own counts.
# Overhead = ns per call traced - ns per call untraced, each the fastest of
# ROUNDS rounds. Usage: tests/guest/many-bench.sh BUILD_DIR
set -euo pipefail
build=${1:?usage: many-bench.sh BUILD_DIR}
K=$PWD/cli/kstatsctl
T=/sys/kernel/debug/kstats_target
insmod "$build/module/kstats.ko"
insmod "$build/tests/kmod/kstats_target.ko"

ROUNDS=11 CALLS=10000
per_call() {	# per_call N: ps per call of the first N wide functions
	timeout 300 sh -c "echo 'wide $1 $((CALLS / $1))' >$T/ctl" ||
		{ echo "# wide $1: timed out" >&2; return 1; }
	echo $(($(cat $T/elapsed) * 1000 / (CALLS / $1 * $1)))
}
fastest() {	# fastest N: the fastest of ROUNDS rounds, ps per call
	local best= r v
	for ((r = 0; r < ROUNDS; r++)); do
		v=$(per_call "$1")
		[[ -z $best || $v -lt $best ]] && best=$v
	done
	echo "$best"
}
ns() {	# ns PS: picoseconds as signed nanoseconds
	local a=$(($1 < 0 ? -$1 : $1)) sign=+
	(($1 < 0)) && sign=-
	printf '%s%d.%03d' "$sign" $((a / 1000)) $((a % 1000))
}
pattern() {	# pattern N: the glob of the first N
	case $1 in
	1) echo ktarget_wide_0000 ;;
	100) echo 'ktarget_wide_00[0-9][0-9]' ;;
	1000) echo 'ktarget_wide_0[0-9][0-9][0-9]' ;;
	esac
}
# exact N: kstats' count + misses of each of the first N, against the
# target's own calls between two reads of wide_counts around one round.
exact() {
	"$K" -j show "$(pattern "$1")" >/tmp/wide0.json
	cat $T/wide_counts >/tmp/wide0
	echo "wide $1 $((CALLS / $1))" >$T/ctl
	cat $T/wide_counts >/tmp/wide1
	"$K" -j show "$(pattern "$1")" >/tmp/wide1.json
	python3 - "$1" <<-'PY'
	import json, sys
	n = int(sys.argv[1])
	def k(path):
	    return {m["name"]: (m["count"] + m["trace"]["misses"], m["trace"].get("group_misses", 0))
	            for m in json.load(open(path))["metrics"]}
	k0, k1 = k("/tmp/wide0.json"), k("/tmp/wide1.json")
	c0 = [int(x) for x in open("/tmp/wide0").read().split()]
	c1 = [int(x) for x in open("/tmp/wide1").read().split()]
	bad = [i for i in range(n) if k1["ktarget_wide_%04d" % i][0] - k0["ktarget_wide_%04d" % i][0]
	       != c1[i] - c0[i]]
	gm = max(v[1] for v in k1.values())
	print("# %d functions: %s; group misses %d" % (n, "every call counted, exactly" if not bad
	      else "%d functions off (first ktarget_wide_%04d)" % (len(bad), bad[0]), gm))
	sys.exit(1 if bad or len(k1) != n else 0)
	PY
}

mechs=(kretprobe)
"$K" info | grep -q fprobe && mechs=(fprobe kretprobe)
declare -A OVER ATTACH
for n in 1 100 1000; do
	base=$(fastest "$n")
	OVER[base_$n]=$base
	for m in "${mechs[@]}"; do
		t0=$(date +%s%N)
		"$K" trace "$(pattern "$n")" --mechanism "$m" --max 1000 --keep 2>/dev/null
		ATTACH[${m}_$n]=$((($(date +%s%N) - t0) / 1000000))
		OVER[${m}_$n]=$(($(fastest "$n") - base))
		exact "$n"
		"$K" untrace "$(pattern "$n")"
	done
done
# The control: an fprobe per function, each made by its own command.
if [[ ${mechs[0]} == fprobe ]]; then
	for n in 100 1000; do
		t0=$(date +%s%N)
		for ((i = 0; i < n; i++)); do
			"$K" trace "$(printf 'ktarget_wide_%04d' "$i")" --mechanism fprobe --keep \
				2>/dev/null
		done
		ATTACH[single_$n]=$((($(date +%s%N) - t0) / 1000000))
		OVER[single_$n]=$(($(fastest "$n") - OVER[base_$n]))
		exact "$n"
		"$K" untrace "$(pattern "$n")"
	done
fi
echo "# a pattern of N functions, ns per call over untraced (fastest of $ROUNDS rounds of" \
	"$CALLS calls, round-robin over the N), kernel $(uname -r)"
printf '%-36s %12s %12s %12s\n' "" "N=1" "N=100" "N=1000"
printf '%-36s %12s %12s %12s\n' "untraced, ns per call" "$(ns "${OVER[base_1]}")" \
	"$(ns "${OVER[base_100]}")" "$(ns "${OVER[base_1000]}")"
for m in "${mechs[@]}"; do
	label="$m (one fprobe over all N)"
	[[ $m == kretprobe ]] && label="kretprobe (one each)"
	printf '%-36s %12s %12s %12s\n' "$label" "$(ns "${OVER[${m}_1]}")" \
		"$(ns "${OVER[${m}_100]}")" "$(ns "${OVER[${m}_1000]}")"
	printf '%-36s %12s %12s %12s\n' "  attach (trace ... --keep), ms" "${ATTACH[${m}_1]}" \
		"${ATTACH[${m}_100]}" "${ATTACH[${m}_1000]}"
done
if [[ -n ${OVER[single_100]:-} ]]; then
	printf '%-36s %12s %12s %12s\n' "fprobe, one per function (control)" - \
		"$(ns "${OVER[single_100]}")" "$(ns "${OVER[single_1000]}")"
	printf '%-36s %12s %12s %12s\n' "  attach (a command each), ms" - "${ATTACH[single_100]}" \
		"${ATTACH[single_1000]}"
fi
rmmod kstats_target kstats

#!/usr/bin/env bash
# `make bench`, tracing part, guest side: the per-call overhead of timing an
# empty function (tests/kmod/kstats_target.c) with kstats' fprobe and
# kretprobe paths, bpftrace (kprobe + kretprobe + hist) and libbpf-tools'
# funclatency, hot (back to back) and cold (256 KiB written between calls),
# all in this one boot. Overhead = ns per call traced - ns per call untraced.
# Usage: tests/guest/trace-bench.sh BUILD_DIR
set -euo pipefail
build=${1:?usage: trace-bench.sh BUILD_DIR}
K=$PWD/cli/kstatsctl
T=/sys/kernel/debug/kstats_target
N_HOT=${KSTATS_BENCH_CALLS:-50000} N_COLD=$((N_HOT / 10))
insmod "$build/module/kstats.ko"
insmod "$build/tests/kmod/kstats_target.ko"

per_call() {	# per_call MODE N: ps per call of ktarget_empty
	timeout 120 sh -c "echo '$1 $2' >$T/ctl" || { echo "# $1 $2: timed out" >&2; return 1; }
	echo $(($(cat $T/elapsed) * 1000 / $2))
}
measure() {	# measure LABEL: hot and cold ps per call into HOT_<label>, COLD_<label>
	printf -v "HOT_$1" %s "$(per_call empty $N_HOT)"
	printf -v "COLD_$1" %s "$(per_call empty_cold $N_COLD)"
}
ns() { printf '%d.%03d' $(($1 / 1000)) $(($1 % 1000)); }

measure base
mechs=(kretprobe)
"$K" info | grep -q fprobe && mechs=(fprobe kretprobe)
for m in "${mechs[@]}"; do
	"$K" trace ktarget_empty --name "bench.$m" --mechanism "$m" >/dev/null
	measure "$m"
	printf -v "FLOOR_$m" %s "$("$K" -j show "bench.$m" | python3 -c 'import json,sys; print(json.load(sys.stdin)["metrics"][0]["trace"]["floor_ns"])')"
	"$K" untrace "bench.$m"
done

# A peer runs until killed; it prints READY once attached. (Polling its
# output file: reading it through a pipe instead hung the guest under bpftrace.)
peer() {	# peer LABEL READY CMD...
	local label=$1 ready=$2 pid out i
	shift 2
	out=$(mktemp /tmp/peer.XXXXXX)
	"$@" >"$out" 2>&1 &
	pid=$!
	for ((i = 0; i < 300; i++)); do
		grep -q "$ready" "$out" && break
		kill -0 "$pid" 2>/dev/null || break
		sleep 0.1
	done
	if ! grep -q "$ready" "$out"; then
		echo "# $label did not attach: $(head -c 300 "$out" | tr '\n' ' ')"
		kill -INT "$pid" 2>/dev/null
		wait "$pid" || true
		return 1
	fi
	echo "# $label: attached"
	measure "$label"
	kill -INT "$pid"
	wait "$pid" || true
	rm -f "$out"
}
# bpftrace runs BEGIN once every probe is attached.
peer bpftrace ready bpftrace -e 'BEGIN { printf("ready\n"); }
	kprobe:ktarget_empty { @s[tid] = nsecs; }
	kretprobe:ktarget_empty /@s[tid]/ { @h = hist(nsecs - @s[tid]); delete(@s[tid]); }'
peers=(bpftrace)
peer funclatency Tracing funclatency ktarget_empty && peers+=(funclatency)

echo "# tracing overhead per call of an empty function, kernel $(uname -r)"
printf '%-12s %12s %12s %10s\n' tool hot_ns cold_ns floor_ns
printf '%-12s %12s %12s\n' untraced "$(ns $HOT_base)" "$(ns $COLD_base)"
for t in "${mechs[@]}" "${peers[@]}"; do
	h=HOT_$t c=COLD_$t f=FLOOR_$t
	printf '%-12s %12s %12s %10s\n' "$t" "+$(ns $((${!h} - HOT_base)))" \
		"+$(ns $((${!c} - COLD_base)))" "${!f:--}"
done
ratio() { python3 -c "print('%-34s %.2f (target <= %s)' % ('$1', ($2) / max($3, 1), '$4'))"; }
best=${mechs[0]}
bh=HOT_$best
[[ $best == fprobe ]] && ratio "fprobe / kretprobe overhead (hot)" "$HOT_fprobe - $HOT_base" "$HOT_kretprobe - $HOT_base" 0.5
ratio "kstats ($best) / bpftrace overhead (hot)" "${!bh} - $HOT_base" "$HOT_bpftrace - $HOT_base" 0.5
[[ " ${peers[*]} " == *" funclatency "* ]] &&
	ratio "kstats ($best) / funclatency (hot)" "${!bh} - $HOT_base" "$HOT_funclatency - $HOT_base" -
rmmod kstats_target kstats

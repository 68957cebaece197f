#!/usr/bin/env bash
# `make bench`, tracing part, guest side: the per-call overhead of timing an
# empty function (tests/kmod/ktarget_main.c) with kstats' fprobe and
# kretprobe paths, the same mechanisms with empty handlers (kstats_bare.ko),
# and with handlers that only read the clock at entry and exit (clock=1),
# bpftrace (kprobe + kretprobe + hist) and libbpf-tools'
# funclatency, hot (back to back) and cold (256 KiB written between calls),
# all in this one boot; and kstats recording 1 call in 8 (--sample 8),
# keeping outliers over a threshold no call reaches (--outliers 1s) and
# splitting each call's time (--split) or taking its callees off (--self)
# against every call plain; a value (an argument) and predicates (one
# term; one term 8 pointer loads deep) on ktarget_value() against its plain
# trace (made through the raw ABI by trace_test expr-bench); and the
# plain trace attached a second time as the control; and what
# --split adds to a context switch outside traced calls. Overhead = ns per call traced - ns per call untraced;
# each figure is the fastest of 11 rounds, the floor the median of 11 attaches.
# Usage: tests/guest/trace-bench.sh BUILD_DIR
set -euo pipefail
build=${1:?usage: trace-bench.sh BUILD_DIR}
K=$PWD/cli/kstatsctl
T=/sys/kernel/debug/kstats_target
insmod "$build/module/kstats.ko"
insmod "$build/tests/kmod/kstats_target.ko"
# --cgroup and --by cgroup need the cgroup v2 hierarchy.
grep -q " /sys/fs/cgroup cgroup2 " /proc/mounts || mount -t cgroup2 none /sys/fs/cgroup

# The emulator's noise only ever adds time, in bursts (rounds come out
# bimodal), so every configuration is measured in ROUNDS interleaved rounds
# and each figure is its fastest round.
ROUNDS=11 HOT_ROUND=10000 COLD_ROUND=1000
N_HOT=$((ROUNDS * HOT_ROUND)) N_COLD=$((ROUNDS * COLD_ROUND))
per_call() {	# per_call MODE N: ps per call of ktarget_empty
	timeout 120 sh -c "echo '$1 $2' >$T/ctl" || { echo "# $1 $2: timed out" >&2; return 1; }
	echo $(($(cat $T/elapsed) * 1000 / $2))
}
keep_min() {	# keep_min VAR VALUE
	local cur=${!1:-}
	[[ -z $cur || $2 -lt $cur ]] && printf -v "$1" %s "$2"
	return 0
}
# measure_value LABEL: one round of ktarget_value(), hot, into HOT_<label>
measure_value() {
	keep_min "HOT_$1" "$(per_call values_hot $HOT_ROUND)"
}
# measure_point LABEL: one round of the event ktarget_value_start, hot, into HOT_<label>
measure_point() {
	keep_min "HOT_$1" "$(per_call values_tp_hot $HOT_ROUND)"
}
expr_row() {	# expr_row LABEL MECH KIND: a ktarget_value() trace, measured
	"$build/trace_test" expr-bench bench.x "$2" "$3" >/dev/null
	measure_value "$1"
	"$K" untrace bench.x
}
measure() {	# measure LABEL: one round, hot and cold, into HOT_<label>, COLD_<label>
	keep_min "HOT_$1" "$(per_call empty $HOT_ROUND)"
	keep_min "COLD_$1" "$(per_call empty_cold $COLD_ROUND)"
}
ns() {	# ns PS [+]: picoseconds as nanoseconds, signed with "+" if asked
	local a=$(($1 < 0 ? -$1 : $1)) sign=${2:-}
	(($1 < 0)) && sign=-
	printf '%s%d.%03d' "$sign" $((a / 1000)) $((a % 1000))
}

mechs=(kretprobe)
"$K" info | grep -q fprobe && mechs=(fprobe kretprobe)
split=0
"$K" info | grep -q '^features .* split' && split=1
self=0
"$K" info | grep -q '^features .* self' && self=1
tp=0
"$K" info | grep -q '^tracing .*tracepoint' && tp=1
# A context switch, with and without --split's scheduler probes (a split
# trace on a function nobody calls: every switch pays only the check).
PP_ROUND=2000
measure_switch() {	# measure_switch LABEL: ps per context switch, into PP_<label>
	keep_min "PP_$1" "$(($(per_call pingpong $PP_ROUND) / 2))"
}
declare -A FLOORS HITS MISSES FLOOR
for ((r = 0; r < ROUNDS; r++)); do
	measure base
	measure_value vbase
	if ((tp)); then
		# A value at a tracepoint: by its argument (a probe), and by a
		# field of its record (perf builds the record).
		measure_point tpbase
		"$K" trace tp:kstats_target:ktarget_value_start --name bench.tpa --keep \
			--value '(s64)arg1' >/dev/null
		measure_point tparg
		"$K" untrace bench.tpa
		"$K" trace tp:kstats_target:ktarget_value_start --name bench.tpf --keep \
			--value val >/dev/null
		measure_point tpfield
		"$K" untrace bench.tpf
	fi
	if ((split)); then
		measure_switch base
		"$K" trace ktarget_sleep --name bench.sw --keep --split >/dev/null
		measure_switch split
		"$K" untrace bench.sw
	fi
	for m in "${mechs[@]}"; do
		"$K" trace ktarget_empty --name "bench.$m" --keep --mechanism "$m" >/dev/null
		measure "$m"
		read -r floor hits misses <<<"$("$K" -j show "bench.$m" | python3 -c 'import json,sys
t = json.load(sys.stdin)["metrics"][0]["trace"]
print(t["floor_ns"], t["hits"], t["misses"])')"
		"$K" untrace "bench.$m"
		# Sampled: 7 calls in 8 only enter and are declined.
		"$K" trace ktarget_empty --name "bench.s8.$m" --keep --mechanism "$m" --sample 8 >/dev/null
		measure "s8_$m"
		"$K" untrace "bench.s8.$m"
		# Outliers kept over a threshold no call reaches: the check alone.
		"$K" trace ktarget_empty --name "bench.o.$m" --keep --mechanism "$m" --outliers 1s >/dev/null
		measure "outl_$m"
		"$K" untrace "bench.o.$m"
		if ((split)); then
			"$K" trace ktarget_empty --name "bench.sp.$m" --keep --mechanism "$m" --split >/dev/null
			measure "split_$m"
			"$K" untrace "bench.sp.$m"
		fi
		if ((self)); then
			"$K" trace ktarget_empty --name "bench.self.$m" --keep --mechanism "$m" --self >/dev/null
			measure "self_$m"
			"$K" untrace "bench.self.$m"
		fi
		# A key: ktarget_empty returns nothing, so its calls key on
		# whatever the return register held: the scan of every key's
		# value at worst. kstatsctl refuses that from the kernel's BTF
		# (a void function's errno means nothing); KSTATS_BTF=/dev/null
		# leaves it without BTF, where nothing is refused.
		KSTATS_BTF=/dev/null "$K" trace ktarget_empty --name "bench.k.$m" --keep --mechanism "$m" \
			--by errno >/dev/null
		measure "key_$m"
		"$K" untrace "bench.k.$m"
		# Keyed by cgroup (one value: this shell's), and filtered by the
		# root cgroup (every task passes the check).
		"$K" trace ktarget_empty --name "bench.kc.$m" --keep --mechanism "$m" --by cgroup >/dev/null
		measure "keycg_$m"
		"$K" untrace "bench.kc.$m"
		# Keyed by stack: every call walks its stack (one stack here);
		# with --outliers 1s, none does (no call that slow).
		"$K" trace ktarget_empty --name "bench.ks.$m" --keep --mechanism "$m" --by stack >/dev/null
		measure "keystk_$m"
		"$K" untrace "bench.ks.$m"
		"$K" trace ktarget_empty --name "bench.kso.$m" --keep --mechanism "$m" --by stack \
			--outliers 1s >/dev/null
		measure "keystko_$m"
		"$K" untrace "bench.kso.$m"
		"$K" trace ktarget_empty --name "bench.cg.$m" --keep --mechanism "$m" --cgroup / >/dev/null
		measure "cg_$m"
		"$K" untrace "bench.cg.$m"
		# The plain trace attached again: what a difference between two
		# attaches of the same trace is worth (the rows above compare
		# attaches too).
		"$K" trace ktarget_empty --name "bench.a.$m" --keep --mechanism "$m" >/dev/null
		measure "again_$m"
		"$K" untrace "bench.a.$m"
		# Values and predicates, each against the plain trace of the same
		# function in the same round.
		expr_row "vplain_$m" "$m" plain
		expr_row "vvalue_$m" "$m" value
		expr_row "vpred_$m" "$m" pred
		expr_row "vchain_$m" "$m" chain
		FLOORS[$m]+="$floor "
		HITS[$m]=$((${HITS[$m]:-0} + hits)) MISSES[$m]=$((${MISSES[$m]:-0} + misses))
		# The same mechanism with empty handlers: what the kernel alone costs.
		insmod "$build/tests/kmod/kstats_bare.ko" mech="$m"
		measure "bare_$m"
		rmmod kstats_bare
		# ... and with the two clock reads any timing of a call needs.
		insmod "$build/tests/kmod/kstats_bare.ko" mech="$m" clock=1
		measure "clock_$m"
		rmmod kstats_bare
	done
done
for m in "${mechs[@]}"; do
	echo "# kstats $m: ${HITS[$m]} samples + ${MISSES[$m]} missed of $((N_HOT + N_COLD)) calls;" \
		"floor at each attach (ns): ${FLOORS[$m]}"
	# shellcheck disable=SC2086 # one value per word
	FLOOR[$m]=$(printf '%s\n' ${FLOORS[$m]} | sort -n | sed -n "$((ROUNDS / 2 + 1))p")
done

# A peer runs until killed; it prints READY once attached. Its stdout goes to
# a file polled for READY (reading it through a pipe hung the guest under
# bpftrace), line-buffered so READY shows before exit. Once killed, its
# histogram should hold every call made while it was attached (one that lost
# calls would look cheaper than it is), so the count is printed with it.
peer() {	# peer LABEL READY CMD...
	local label=$1 ready=$2 pid out i seen
	shift 2
	out=$(mktemp /tmp/peer.XXXXXX)
	stdbuf -oL "$@" >"$out" 2>&1 &
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
	for ((r = 0; r < ROUNDS; r++)); do
		measure "$label"
	done
	kill -INT "$pid"
	wait "$pid" || true
	seen=$(hist_total <"$out")
	echo "# $label: attached, its histogram holds $seen of $((N_HOT + N_COLD)) calls"
	rm -f "$out"
}
# Sums the counts of a bpftrace "[lo, hi)  N |@@|" or funclatency
# "lo -> hi : N |**|" histogram.
hist_total() {
	sed -nE 's/^\[[^]]*[])][[:space:]]+([0-9]+) \|.*/\1/p; s/^[[:space:]]*[0-9]+ -> [0-9]+[[:space:]]*: ([0-9]+)[[:space:]]+\|.*/\1/p' |
		awk '{ n += $1 } END { print n + 0 }'
}
peers=()
# bpftrace runs BEGIN once every probe is attached.
peer bpftrace ready bpftrace -e 'BEGIN { printf("ready\n"); }
	kprobe:ktarget_empty { @s[tid] = nsecs; }
	kretprobe:ktarget_empty /@s[tid]/ { @h = hist(nsecs - @s[tid]); delete(@s[tid]); }' &&
	peers+=(bpftrace)
peer funclatency Tracing funclatency ktarget_empty && peers+=(funclatency)

echo "# tracing overhead per call of an empty function, kernel $(uname -r)"
printf '%-20s %12s %12s %10s\n' tool hot_ns cold_ns floor_ns
printf '%-20s %12s %12s\n' untraced "$(ns $HOT_base)" "$(ns $COLD_base)"
bare=()
for m in "${mechs[@]}"; do bare+=("bare_$m" "clock_$m"); done
for t in "${mechs[@]}" "${bare[@]}" "${peers[@]}"; do
	h=HOT_$t c=COLD_$t
	printf '%-20s %12s %12s %10s\n' "${t/clock_/bare+clock_}" "$(ns $((${!h} - HOT_base)) +)" \
		"$(ns $((${!c} - COLD_base)) +)" "${FLOOR[$t]:--}"
done
ratio() {	# ratio LABEL NUMERATOR DENOMINATOR TARGET (shell arithmetic)
	python3 -c 'import sys; print("%-34s %.2f (target <= %s)" % (sys.argv[1], int(sys.argv[2]) / max(int(sys.argv[3]), 1), sys.argv[4]))' \
		"$1" "$(($2))" "$(($3))" "$4"
}
best=${mechs[0]}
bh=HOT_$best
if [[ $best == fprobe ]]; then
	ratio "fprobe / kretprobe overhead (hot)" "$HOT_fprobe - $HOT_base" "$HOT_kretprobe - $HOT_base" 0.5
	ratio "bare fprobe / bare kretprobe (hot)" "$HOT_bare_fprobe - $HOT_base" "$HOT_bare_kretprobe - $HOT_base" -
fi
for m in "${mechs[@]}"; do
	h=HOT_$m b=HOT_bare_$m c=HOT_clock_$m
	echo "kstats' $m handlers add $(ns $((${!h} - ${!b})) +) ns per call to the bare mechanism (hot)," \
		"$(ns $((${!h} - ${!c})) +) to the bare mechanism reading the clock twice"
	ratio "kstats' $m handlers / the bare $m (hot)" "${!h} - ${!b}" "${!b} - $HOT_base" 0.2
	ratio "  the two clock reads in them" "${!c} - ${!b}" "${!b} - $HOT_base" -
	ratio "  the rest (kstats' own work)" "${!h} - ${!c}" "${!b} - $HOT_base" 0.2
done
for m in "${mechs[@]}"; do
	h=HOT_$m s=HOT_s8_$m
	ratio "kstats $m, 1 in 8 / every call (hot)" "${!s} - $HOT_base" "${!h} - $HOT_base" -
done
# Emulated: TCG runs each instruction ~10-30x slower than a CPU does, so
# these differences are upper bounds of what hardware pays (target there:
# the outlier check at most +5 ns per call).
for m in "${mechs[@]}"; do
	h=HOT_$m o=HOT_outl_$m c=COLD_$m oc=COLD_outl_$m a=HOT_again_$m ac=COLD_again_$m
	echo "kstats $m attached again (the same trace; what a difference below is worth):" \
		"$(ns $((${!a} - ${!h})) +) ns per call hot, $(ns $((${!ac} - ${!c})) +) cold"
	echo "kstats $m --outliers (no call over the threshold): $(ns $((${!o} - ${!h})) +) ns" \
		"per call hot, $(ns $((${!oc} - ${!c})) +) cold, over the same trace without"
	p=HOT_key_$m pc=COLD_key_$m
	echo "kstats $m --by errno: $(ns $((${!p} - ${!h})) +) ns per traced call hot," \
		"$(ns $((${!pc} - ${!c})) +) cold, over the same trace without"
	p=HOT_keycg_$m pc=COLD_keycg_$m
	echo "kstats $m --by cgroup: $(ns $((${!p} - ${!h})) +) ns per traced call hot," \
		"$(ns $((${!pc} - ${!c})) +) cold, over the same trace without"
	p=HOT_keystk_$m pc=COLD_keystk_$m
	echo "kstats $m --by stack (every call walks its stack): $(ns $((${!p} - ${!h})) +) ns" \
		"per traced call hot, $(ns $((${!pc} - ${!c})) +) cold, over the same trace without"
	p=HOT_keystko_$m pc=COLD_keystko_$m o=HOT_outl_$m oc=COLD_outl_$m
	echo "kstats $m --by stack --outliers (no call over: none walks): $(ns $((${!p} - ${!o})) +)" \
		"ns per traced call hot, $(ns $((${!pc} - ${!oc})) +) cold, over --outliers alone"
	p=HOT_cg_$m pc=COLD_cg_$m
	echo "kstats $m --cgroup / (every call passes): $(ns $((${!p} - ${!h})) +) ns per" \
		"traced call hot, $(ns $((${!pc} - ${!c})) +) cold, over the same trace without"
	if ((self)); then
		p=HOT_self_$m pc=COLD_self_$m
		echo "kstats $m --self: $(ns $((${!p} - ${!h})) +) ns per traced call hot," \
			"$(ns $((${!pc} - ${!c})) +) cold, over the same trace without"
	fi
	if ((split)); then
		p=HOT_split_$m pc=COLD_split_$m
		echo "kstats $m --split: $(ns $((${!p} - ${!h})) +) ns per traced call hot," \
			"$(ns $((${!pc} - ${!c})) +) cold, over the same trace without"
	fi
done
for m in "${mechs[@]}"; do
	p=HOT_vplain_$m
	echo "kstats $m on ktarget_value(): the plain trace adds $(ns $((${!p} - HOT_vbase)) +) ns per call (hot)"
	for x in value:"--value arg1" pred:"--if arg1 > 1000" chain:"--if o->self x7 ->id == 2 (8 loads)"; do
		v=HOT_v${x%%:*}_$m
		echo "kstats $m ${x#*:}: $(ns $((${!v} - ${!p})) +) ns per call over the plain trace"
		ratio "  ${x#*:} / plain ($m, hot)" "${!v} - $HOT_vbase" "${!p} - $HOT_vbase" -
	done
done
if ((tp)); then
	echo "a point's value (--value at tp:kstats_target:ktarget_value_start, hot):" \
		"by its argument $(ns $((HOT_tparg - HOT_tpbase)) +) ns per hit," \
		"by its record's field (perf) $(ns $((HOT_tpfield - HOT_tpbase)) +) ns, over" \
		"$(ns $HOT_tpbase) ns a hit untraced"
	ratio "  point by record / by argument (hot)" "$HOT_tpfield - $HOT_tpbase" \
		"$HOT_tparg - $HOT_tpbase" -
fi
((split)) && echo "--split, per context switch outside traced calls (the scheduler" \
	"probes' check): $(ns $((PP_split - PP_base)) +) ns over $(ns $PP_base) ns"
for p in "${peers[@]}"; do
	ph=HOT_$p
	target=-
	[[ $p == bpftrace ]] && target=0.5
	ratio "kstats ($best) / $p overhead (hot)" "${!bh} - $HOT_base" "${!ph} - $HOT_base" $target
done
rmmod kstats_target kstats

#!/usr/bin/env bash
# `make bench`, user-space part, guest side: the cost per call of timing an
# empty user-space function (u_empty in tests/guest/ubench.c) with kstats'
# uprobe + uretprobe, beside bpftrace's uprobe + uretprobe keeping a hist()
# of the same durations. Each figure is the fastest of ROUNDS rounds of
# CALLS calls, minus the untraced call; each tracer's count of the calls it
# saw is checked against the calls made (a tracer that lost calls would look
# cheaper than it is). Usage: tests/guest/uprobe-bench.sh BUILD_DIR
set -euo pipefail
build=${1:?usage: uprobe-bench.sh BUILD_DIR}
K=$PWD/cli/kstatsctl
B=$build/ubench
ROUNDS=11 CALLS=2000
TOTAL=$((ROUNDS * CALLS))
insmod "$build/module/kstats.ko"

ns() {	# ns PS: picoseconds as signed nanoseconds
	local a=$(($1 < 0 ? -$1 : $1)) sign=+
	(($1 < 0)) && sign=-
	printf '%s%d.%03d' "$sign" $((a / 1000)) $((a % 1000))
}
# The program waits for a line before its first call: each tracer attaches
# first (kstatsctl returns attached; bpftrace says so from BEGIN).
run_bench() { echo go | "$B" "$ROUNDS" "$CALLS"; }

base=$(run_bench)

"$K" trace --keep --name bench.u "$B:u_empty" >/dev/null 2>&1
kstats=$(run_bench)
read -r hits misses <<<"$("$K" -j show bench.u | python3 -c 'import json,sys
t = json.load(sys.stdin)["metrics"][0]["trace"]
print(t["hits"], t["misses"])')"
"$K" untrace bench.u
if ((hits + misses != TOTAL)); then
	echo "error: kstats saw $hits + $misses missed of $TOTAL calls" >&2
	exit 1
fi

out=$(mktemp /tmp/ubench-bpf.XXXXXX)
stdbuf -oL bpftrace -e "BEGIN { printf(\"ready\\n\"); }
uprobe:$B:u_empty { @s[tid] = nsecs; }
uretprobe:$B:u_empty /@s[tid]/ { @h = hist(nsecs - @s[tid]); delete(@s[tid]); }" >"$out" 2>&1 &
bpf=$!
# bpftrace prints from BEGIN once every probe is attached: poll its output
# for that (its own signal; reading it through a pipe hung guests before).
for ((i = 0; i < 600; i++)); do
	grep -q '^ready' "$out" && break
	kill -0 "$bpf" 2>/dev/null || break
	sleep 0.1
done
if ! grep -q '^ready' "$out"; then
	echo "error: bpftrace did not attach: $(head -c 300 "$out" | tr '\n' ' ')" >&2
	exit 1
fi
bpftrace=$(run_bench)
kill -INT "$bpf"
wait "$bpf" || true
# A bucket line: "[lo, hi)   N |@@@|" (the last one may close with "]").
seen=$(sed -nE 's/^\[[^]]*[])][[:space:]]+([0-9]+) \|.*/\1/p' "$out" | awk '{ n += $1 } END { print n + 0 }')
if ((seen != TOTAL)); then
	echo "error: bpftrace's hist() holds $seen of $TOTAL calls; it printed:" >&2
	head -c 2000 "$out" >&2
	exit 1
fi
rm -f "$out"
rmmod kstats

echo "# user-space function timed (u_empty, an empty function), kernel $(uname -r):"
echo "# ns per call over the untraced call, fastest of $ROUNDS rounds of $CALLS calls"
printf '%-32s %12s\n' tool ns_per_call
printf '%-32s %12s\n' "untraced (ns per call)" "$(ns "$base" | tr -d +)"
printf '%-32s %12s   (%d samples + %d missed of %d calls)\n' "kstats uprobe" \
	"$(ns $((kstats - base)))" "$hits" "$misses" "$TOTAL"
printf '%-32s %12s   (hist holds %d of %d calls)\n' "bpftrace uprobe+uretprobe hist" \
	"$(ns $((bpftrace - base)))" "$seen" "$TOTAL"
echo "kstats uprobe / bpftrace uprobe (overhead): $(awk -v k=$((kstats - base)) -v b=$((bpftrace - base)) \
	'BEGIN { if (b > 0) printf "%.2f", k / b; else printf "n/a" }')"

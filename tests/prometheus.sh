#!/usr/bin/env bash
# kstatsctl export against the real thing: Debian's prometheus-node-exporter
# (textfile collector) and prometheus, on 127.0.0.1 only, started here and
# stopped at the end. The metrics come from a snapshot the CLI suite wrote
# in a VM (tests/guest/cli-tests.sh, in the packages step:
# build/packages/vm-out/export-6.1.ksnap; or in a lane that runs it,
# build/LANE/vm-out/export-LANE.ksnap): a real trace of tcp_sendmsg, the
# selftest's metrics, and net.tx, net_tx, net-tx; then from two generated
# files where one metric was reset in between.
#  - promtool check metrics: nothing to say about the export;
#  - node_exporter serves it with no textfile error, Prometheus scrapes it
#    (up 1), and the three look-alike names stay three series;
#  - histogram_quantile(0.5 | 0.9 | 0.99) from Prometheus' HTTP API lies in
#    the exported bucket that holds kstatsctl show's percentile;
#  - _count equals kstats' sample count, for every metric;
#  - after a RESET (the count goes down), resets() sees one and rate() stays
#    finite and non-negative.
# Usage: tests/prometheus.sh [SNAPSHOT]
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"
K=$top/cli/kstatsctl
py=/usr/bin/python3
fail() { echo "FAIL: $*" >&2; exit 1; }
pass() { echo "ok - $*"; }

snap=${1:-}
if [[ -z $snap ]]; then
	for f in build/packages/vm-out/export-6.1.ksnap build/{7.3,6.12,6.1,6.12-rt}/vm-out/export-*.ksnap; do
		[[ -f $f ]] && { snap=$f; break; }
	done
fi
[[ -n $snap && -f $snap ]] ||
	fail "no snapshot from the CLI suite in a VM (build/packages/vm-out/export-6.1.ksnap): run tests/packages.sh first"
for b in prometheus promtool prometheus-node-exporter; do
	command -v "$b" >/dev/null || fail "$b is missing (tests/deps.sh installs it)"
done
make -s -C cli >/dev/null

work=$(mktemp -d)
pids=()
cleanup() {
	local p
	for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
	for p in "${pids[@]}"; do wait "$p" 2>/dev/null || true; done
	rm -rf "$work"
}
trap cleanup EXIT
textdir=$work/textfile
mkdir -p "$textdir" "$work/data"
# The servers run unprivileged, as they are meant to (nobody, when root).
as_user=()
if [ "$(id -u)" -eq 0 ]; then
	as_user=(setpriv --reuid=65534 --regid=65534 --clear-groups)
	chmod 755 "$work"
	chown 65534:65534 "$work/data"
fi
prom_file=$textdir/kstats.prom

# Two free ports on loopback.
read -r port_ne port_prom < <("$py" -c '
import socket
s = [socket.socket() for _ in range(2)]
for x in s: x.bind(("127.0.0.1", 0))
print(*(x.getsockname()[1] for x in s))')

# ---- the export itself ----
"$K" export -i "$snap" -o "$prom_file"
[[ $(stat -c %a "$prom_file") == 644 ]] || fail "the export is not readable by node_exporter's user"
[[ -z $(find "$textdir" -name '.*') ]] || fail "a temporary file was left in $textdir"
promtool check metrics <"$prom_file" >"$work/promtool.txt" 2>&1 ||
	{ cat "$work/promtool.txt"; fail "promtool check metrics"; }
[[ ! -s $work/promtool.txt ]] || { cat "$work/promtool.txt"; fail "promtool has something to say"; }
pass "export of $snap: promtool check metrics is silent"
"$K" export -i "$snap" --bucket-bits 2 | promtool check metrics ||
	fail "promtool check metrics, --bucket-bits 2"
"$K" export -i "$snap" --per-cpu | promtool check metrics || fail "promtool check metrics, --per-cpu"
pass "--bucket-bits 2 and --per-cpu: promtool is silent too"

# ---- node_exporter and Prometheus ----
"${as_user[@]}" prometheus-node-exporter --web.listen-address="127.0.0.1:$port_ne" \
	--collector.disable-defaults --collector.textfile \
	--collector.textfile.directory="$textdir" >"$work/node_exporter.log" 2>&1 &
pids+=($!)
cat >"$work/prometheus.yml" <<EOF
global:
  scrape_interval: 1s
  evaluation_interval: 1s
scrape_configs:
  - job_name: node
    static_configs:
      - targets: ["127.0.0.1:$port_ne"]
EOF
"${as_user[@]}" prometheus --config.file="$work/prometheus.yml" --storage.tsdb.path="$work/data" \
	--web.listen-address="127.0.0.1:$port_prom" >"$work/prometheus.log" 2>&1 &
pids+=($!)

# query EXPR: the value of Prometheus' instant query, one number per line
# (label set, then value); fails on an API error.
query() {
	"$py" - "$port_prom" "$1" <<'PY'
import json, sys, urllib.parse, urllib.request
port, expr = sys.argv[1], sys.argv[2]
url = f"http://127.0.0.1:{port}/api/v1/query?" + urllib.parse.urlencode({"query": expr})
r = json.load(urllib.request.urlopen(url, timeout=10))
if r.get("status") != "success":
    sys.exit(f"query {expr}: {r}")
for s in r["data"]["result"]:
    labels = ",".join(f"{k}={v}" for k, v in sorted(s["metric"].items()) if k in ("name", "cpu"))
    print(labels, s["value"][1])
PY
}
# wait_query EXPR WANT: polls until EXPR's single value is WANT (60 s).
wait_query() {
	local i got
	for ((i = 0; i < 600; i++)); do
		got=$(query "$1" 2>/dev/null | awk '{ print $NF }' | head -n1) || true
		[[ $got == "$2" ]] && return 0
		sleep 0.1
	done
	echo "$1: '$got' after 60 s, want '$2'" >&2
	return 1
}
# The export's sample counts: NAME COUNT per line.
counts() {
	sed -n 's/^kstats_\(duration_seconds\|value\)_count{name="\([^"]*\)"} \([0-9]*\)$/\2 \3/p' "$1"
}
wait_query "kstats_up" 1 || { tail -n 20 "$work/prometheus.log" "$work/node_exporter.log"; fail "no scrape"; }
wait_query "count(kstats_duration_seconds_count) + count(kstats_value_count)" \
	"$(counts "$prom_file" | wc -l)" || fail "not every metric arrived"
wait_query 'up{job="node"}' 1 || fail "the target is not up"
wait_query 'node_textfile_scrape_error' 0 || fail "node_exporter: textfile scrape error"
pass "node_exporter serves the export, Prometheus scrapes it (up 1, no textfile error)"

# Three names one family name each would have merged: three series.
for n in net.tx net_tx net-tx; do
	[[ $(query "kstats_value_count{name=\"$n\"}" | awk '{ print $NF }') =~ ^[1-9] ]] ||
		fail "no series for $n"
done
pass "net.tx, net_tx and net-tx are three series of kstats_value"

# _count = kstats' samples, for every metric.
while read -r name n; do
	got=$(query "{__name__=~\"kstats_(duration_seconds|value)_count\",name=\"$name\"}" |
		awk '{ print $NF }')
	[[ $got == "$n" ]] || fail "$name: Prometheus has _count $got, kstats $n"
	want=$("$K" show -i "$snap" "$name" -f json | "$py" -c 'import json,sys; print(json.load(sys.stdin)["metrics"][0]["count"])')
	[[ $want == "$n" ]] || fail "$name: export says $n samples, show says $want"
done < <(counts "$prom_file")
pass "_count equals kstats' sample count for all $(counts "$prom_file" | wc -l) metrics"

# histogram_quantile vs show's percentiles: the same exported bucket.
# (le values of the metric's ladder, from the export; show's estimate in ns.)
checked=0
while read -r name n; do
	((n >= 20)) || continue
	fam=kstats_value
	grep -q "^kstats_duration_seconds_count{name=\"$name\"}" "$prom_file" && fam=kstats_duration_seconds
	for q in 0.5 0.9 0.99; do
		got=$(query "histogram_quantile($q, $fam""_bucket{name=\"$name\"})" | awk '{ print $NF }')
		"$K" show -i "$snap" "$name" -f json >"$work/show.json"
		"$py" - "$prom_file" "$fam" "$name" "$q" "$got" "$work/show.json" <<'PY' ||
import json, re, sys
path, fam, name, q, got, show = sys.argv[1:7]
q, got = float(q), float(got)
scale = 1e9 if fam == "kstats_duration_seconds" else 1.0
les = sorted(float(m.group(1)) for m in re.finditer(
    r'^%s_bucket\{name="%s",le="([^"+]+)"\}' % (fam, re.escape(name)), open(path).read(), re.M))
pct = {p["p"] / 100: p for p in json.load(open(show))["metrics"][0]["percentiles"]}
want = pct[q]["value"] / scale
def bucket(v):
    return next((i for i, le in enumerate(les) if v <= le), len(les))
if bucket(got) != bucket(want) and not (bucket(want) > 0 and got == les[bucket(want) - 1]):
    sys.exit(f"{name} q={q}: Prometheus {got}, kstats {want}: buckets {bucket(got)} and {bucket(want)} of {les}")
print(f"# {name} q={q}: Prometheus {got:.6g}, kstats {want:.6g}")
PY
			fail "histogram_quantile disagrees with kstatsctl show"
		checked=$((checked + 1))
	done
done < <(counts "$prom_file")
((checked >= 9)) || fail "only $checked quantiles compared"
pass "histogram_quantile(0.5, 0.9, 0.99) lies in show's bucket ($checked quantiles)"

# ---- a RESET between two exports ----
"$K" export -i tests/cli/data/interval-a.ksnap -o "$prom_file"
wait_query 'kstats_value_count{name="lat.reset"}' 1000 || fail "interval-a not scraped"
# A few scrapes of the first state, so that rate() has points before the reset.
wait_query 'count_over_time(kstats_value_count{name="lat.reset"}[1m]) >= bool 3' 1 ||
	fail "interval-a scraped fewer than 3 times"
"$K" export -i tests/cli/data/interval-b.ksnap -o "$prom_file"
wait_query 'kstats_value_count{name="lat.reset"}' 300 || fail "interval-b not scraped"
wait_query 'resets(kstats_value_count{name="lat.reset"}[1m])' 1 || fail "Prometheus did not see the reset"
rate=$(query 'rate(kstats_value_count{name="lat.reset"}[1m])' | awk '{ print $NF }')
"$py" -c "import math,sys; r=float('$rate'); sys.exit(0 if math.isfinite(r) and r >= 0 else 1)" ||
	fail "rate() after the reset: $rate"
shift_rate=$(query 'rate(kstats_value_count{name="lat.shift"}[1m])' | awk '{ print $NF }')
"$py" -c "import sys; sys.exit(0 if float('$shift_rate') > 0 else 1)" ||
	fail "rate() of a metric that grew: $shift_rate"
wait_query 'resets(kstats_value_count{name="lat.shift"}[1m])' 0 || fail "a reset seen where none was"
pass "RESET: resets() = 1, rate() = $rate (finite, >= 0); the metric that grew has no reset, rate $shift_rate"
grep -iE 'level=(error|warn)' "$work/prometheus.log" "$work/node_exporter.log" &&
	fail "errors in the Prometheus or node_exporter log"
pass "no error or warning in Prometheus' and node_exporter's logs"

#!/usr/bin/env bash
# kstatsctl's host tests ('make -C cli check'). Prints one line per test and
# ends with "N passed, M failed". With --update, regenerates tests/cli/data
# (snapshot files, through gen_snapshots) and tests/cli/golden instead of
# comparing ('make -C cli golden-update').
#   1. the committed snapshot files are what the generator writes (but
#      basic-v1.ksnap and basic-be-v1.ksnap: format version 1, written by
#      kstatsctl 0.1.0, basic-v2.ksnap: version 2, by kstatsctl before
#      outliers, and basic-v3.ksnap, later-v3.ksnap: version 3, before
#      outlier entries, kept as they are); each holds its CRC-32C
#  1b. outlier entries (format 4): outliers -i, table and JSON, is what the
#      file holds (read by validate.py from its layout); big-endian the same;
#      a version-3 file reads as before (counters, no entries); outlier
#      entries that do not add up are refused, with a message (golden)
#   2. golden outputs: every formatter and option, errors and usage errors;
#      each run has $TIMEOUT seconds (default 20): a hang is a failure
#   3. the big-endian file gives the same output as the little-endian one,
#      and so do the version-1 and version-2 files
#   4. JSON: a real parser and the schema (cli/kstatsctl.schema.json); no
#      control character in any text output, whatever the file's strings
#   5. Prometheus text: prometheus_client's Prometheus and OpenMetrics parsers
#   6. estimates: each exact statistic in the slot printed for it, the
#      percentiles' ± the true half-width of their slot (hist and JSON)
#   7. counts past 64 bits (1e9, 1e12, 2^63 samples; 2^64 - 1 in every
#      slot of every CPU): every format ends in time with the exact totals
#   8. diff: the interval B - A when B is A later, not a cumulative mix;
#      percentiles with too few samples beyond them, against the samples
#   9. malformed snapshot files: an error and exit 1, never a crash; every
#      cut says "truncated"; no change of one byte goes unnoticed
#  10. no module here: the errors and hints for "not loaded"/"not installed";
#      export --interval writes kstats_up 0 and goes on; info says what it can
#  11. --help, kstatsctl(8) and the bash completion agree; the man page lints
#  9b. HdrHistogram: our logs decoded by hdr-histogram-js (counts at each
#      slot's last value, p50..p99.9), its logs read back by show and
#      summary with every count; damaged logs: exit 1, file and line
#  12. the fuzzers (snapshot files; HdrHistogram logs; trace --value/--if's
#      compiler against the fixture's BTF), FUZZ_SECONDS each
#      (default 60)
#  13. plots: well-formed SVG; in headless Chromium, the bars, curves and
#      bands where the samples are (plot-tests.sh)
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
cli=$top/cli
bin=$cli/kstatsctl
update=0
[[ ${1:-} == --update ]] && update=1
export TZ=UTC KSTATS_COLOR=never LC_ALL=C.UTF-8
# trace --by errno reads return types from this BTF, not the host kernel's.
export KSTATS_BTF=$cli/build/btf_fixture.btf
# ... and trace --value/--if a module's (fxmod: btf_fixture_mod.c) from here.
export KSTATS_BTF_MODULES=$cli/build/btf_modules
unset NO_COLOR COLUMNS	# bars at full width, not the terminal's
limit=${TIMEOUT:-20}
passed=0 failed=0
# The Debian python3 (python3-jsonschema, python3-prometheus-client).
py=/usr/bin/python3
[[ -x $py ]] || py=python3
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

ok() { passed=$((passed + 1)); echo "ok - $1"; }
not_ok() {
	failed=$((failed + 1))
	echo "not ok - $1"
	[[ -n ${2:-} ]] && printf '%s\n' "$2" | head -n 40 | sed 's/^/#   /'
}
check() {	# check NAME CMD...: passes when CMD succeeds
	local name=$1 out
	shift
	if out=$("$@" 2>&1); then ok "$name"; else not_ok "$name" "$out"; fi
}

cd "$here" || exit 1

# 1. data files
"$cli/build/gen_snapshots" "$tmp" || { echo "gen_snapshots failed"; exit 1; }
for f in basic.ksnap basic-be.ksnap later.ksnap basic.truth.json big.ksnap \
	big.truth.json full.ksnap full.truth.json interval-a.ksnap interval-b.ksnap \
	other-host.ksnap hostile.ksnap cut.ksnap damaged.ksnap split-a.ksnap split-b.ksnap \
	split.truth.json few-a.ksnap few-b.ksnap few.samples.json hdr.ksnap \
	plot-modes.ksnap plot-cdf-a.ksnap plot-cdf-b.ksnap plot-modes.hlog \
	outliers.ksnap outliers-be.ksnap bad-outl-ring.ksnap bad-outl-entry-len.ksnap \
	bad-outl-frames.ksnap bad-outl-frame-len.ksnap bad-outl-order.ksnap \
	bad-outl-comm.ksnap bad-outl-withheld.ksnap bad-outl-block-len.ksnap \
	bad-outl-note.ksnap bad-outl-retval-v4.ksnap outliers-retval.ksnap outliers-paths.ksnap keys-a.ksnap \
	keys-b.ksnap values-a.ksnap values-b.ksnap; do
	if ((update)); then
		cp "$tmp/$f" "data/$f"
	else
		check "data/$f is what gen_snapshots writes" cmp "$tmp/$f" "data/$f"
	fi
done

# The damaged HdrHistogram logs (data/hlog/js.hlog is hdr-histogram-js's), and
# kstatsctl's own log of basic.ksnap (the round trip of cli-w3.md section 2).
basic_hlog() { "$bin" export -f hdr -i data/basic.ksnap 'tcp*' 'net*' 'user*' -o "$1/basic.hlog"; }
((update)) && basic_hlog data/hlog && "$py" gen_hlogs.py data/hlog

# 2. golden cases
run_case() {	# run_case ARGS...: stdout, stderr and exit status, as in golden/
	local rc
	(cd "$here" && eval "timeout $limit \"$bin\" $*") >"$tmp/out" 2>"$tmp/err"
	rc=$?
	echo "== stdout"
	cat "$tmp/out"
	echo "== stderr"
	cat "$tmp/err"
	echo "== exit $rc"
}
((update)) && rm -f golden/*.out
while read -r name args; do
	[[ -z $name || $name == \#* ]] && continue
	run_case "$args" >"$tmp/$name.out"
	if ((update)); then
		cp "$tmp/$name.out" "golden/$name.out"
		continue
	fi
	if diff -u "golden/$name.out" "$tmp/$name.out" >"$tmp/diff"; then
		ok "golden $name"
	else
		not_ok "golden $name: kstatsctl $args" "$(cat "$tmp/diff")"
	fi
done <cases.txt
if ((update)); then
	echo "updated tests/cli/data and tests/cli/golden ($(ls golden | wc -l) cases)"
	exit 0
fi
v2=()
for f in basic basic-be later big full interval-a interval-b other-host hostile split-a split-b \
	few-a few-b outliers outliers-be; do
	v2+=("data/$f.ksnap")
done
check "trace BINARY:SYMBOL and usdt:BINARY:PROVIDER:NAME: file offsets as readelf gives them (PIE, non-PIE, a library, stripped, prelinked)" \
	"$py" check_usym.py "$cli/build/check_usym" \
	--prelinked "$cli/build/usym_prelinked" "$cli/build/usym_nopie" \
	"$cli/build/usym_pie" "$cli/build/usym_nopie" \
	"$cli/build/usym_lib.so" "$cli/build/usym_stripped"
check "user outliers' frames: addresses in libc functions of a live process named as glibc's dladdr() names them" \
	"$cli/build/check_usym" --addr
check "version-4 files hold their length and CRC-32C" "$py" validate.py crc "${v2[@]}"
check "the version-2 and 3 files hold their length and CRC-32C" "$py" validate.py crc \
	data/basic-v2.ksnap data/basic-v3.ksnap data/later-v3.ksnap
check "CRC-32C: the check value; 8 bytes a step is a bit at a time's CRC" \
	"$cli/build/check_snapfile" crc

# 3. byte order, and format version 1
for f in hist percentiles cdf raw json csv prometheus; do
	"$bin" show -i data/basic.ksnap -f "$f" >"$tmp/le.$f" 2>&1
	for v in be v1 be-v1 v2 v3; do
		"$bin" show -i "data/basic-$v.ksnap" -f "$f" >"$tmp/$v.$f" 2>&1
		case $v in
		be) what="big-endian file" ;;
		v1) what="version-1 file" ;;
		v2) what="version-2 file" ;;
		v3) what="version-3 file" ;;
		be-v1) what="big-endian version-1 file" ;;
		esac
		if [[ $f == json ]]; then
			check "$what: same $f output" "$py" validate.py same "$tmp/le.json" "$tmp/$v.json"
		else
			check "$what: same $f output" cmp "$tmp/le.$f" "$tmp/$v.$f"
		fi
	done
done

# 1b. outlier entries (format 4)
outl_file() {	# each trace's outliers -i -j: what validate.py reads in the file
	local n
	for n in outl.kept outl.noaddr outl.hidden outl.empty outl.hostile; do
		"$bin" -j outliers -i data/outliers.ksnap "$n" >"$tmp/o.json" &&
			"$py" validate.py outliers data/outliers.ksnap "$n" "$tmp/o.json" ||
			{ echo "$n"; return 1; }
	done
}
check "outliers -i -j: every trace's entries as the file's bytes hold them" outl_file
outl_be() {	# a big-endian file prints the same, table and JSON (its one trace)
	"$bin" outliers -i data/outliers-be.ksnap >"$tmp/obe" &&
		"$bin" outliers -i data/outliers.ksnap outl.kept >"$tmp/ole" &&
		cmp "$tmp/obe" "$tmp/ole" || return 1
	# JSON: the same but for the source's path
	"$bin" -j outliers -i data/outliers-be.ksnap >"$tmp/obe" &&
		"$bin" -j outliers -i data/outliers.ksnap outl.kept >"$tmp/ole" &&
		"$py" validate.py same "$tmp/obe" "$tmp/ole"
}
check "outliers -i of a big-endian file: the same table and JSON" outl_be
outl_v3() {	# show of later-v3's trace: as of later.ksnap, counters and all
	local f
	for f in hist json raw; do
		"$bin" show -i data/later-v3.ksnap -f "$f" >"$tmp/v3" &&
			"$bin" show -i data/later.ksnap -f "$f" >"$tmp/v4" || return 1
		if [[ $f == json ]]; then
			"$py" validate.py same "$tmp/v3" "$tmp/v4" || return 1
		else
			cmp "$tmp/v3" "$tmp/v4" || return 1
		fi
		[[ $f != hist ]] || grep -q '^12 outliers over p99.9 = 41us, 3 lost' "$tmp/v3" ||
			{ echo "no outlier line in show -i later-v3.ksnap"; return 1; }
	done
}
check "a version-3 file reads as before: outlier counters, the same output as version 4" outl_v3
for f in outliers outliers-be later-v3 stack-keys; do
	check "every truncation of $f.ksnap says so (in-process)" \
		"$cli/build/check_snapfile" cuts "data/$f.ksnap"
done
for f in outliers stack-keys; do
	what="every change of one byte of $f.ksnap: refused, or shown as before"
	if out=$("$cli/build/check_snapfile" flips "data/$f.ksnap" 2>&1); then
		ok "$what (${out#*: })"
	else
		not_ok "$what" "$out"
	fi
done

# info's feature names (cli/info.c, one a KSTATS_FEAT_* bit) are the schema's:
# a live module's info document would not validate otherwise.
info_features() {
	"$py" - "$cli/info.c" "$cli/kstatsctl.schema.json" <<'PY'
import json, re, sys
src = open(sys.argv[1]).read()
names = re.findall(r'"([a-z0-9-]+)"', src[src.index("feature_names[]"):].split("};")[0])
def enums(node):
    if isinstance(node, dict):
        if "enum" in node and "stack-key" in node["enum"]:
            yield node["enum"]
        for v in node.values():
            yield from enums(v)
    elif isinstance(node, list):
        for v in node:
            yield from enums(v)
found = list(enums(json.load(open(sys.argv[2]))))
assert found and all(e == names for e in found), (names, found)
PY
}
check "info's feature names are the JSON schema's, in order" info_features

# libkmod (and libcrypto behind it) is opened only to load the module
# (cli/kmod_dl.c): linked, it was half of every kstatsctl start.
not_linked_kmod() {
	local needed
	needed=$(readelf -d "$cli/kstatsctl" | grep NEEDED) || return 1
	! grep -E 'libkmod|libcrypto' <<<"$needed"
}
check "kstatsctl links neither libkmod nor libcrypto (dlopen when loading the module)" not_linked_kmod

# Without libkmod: an empty file bound over libkmod.so.2 in a private mount
# namespace (root, as make check runs; a user namespace otherwise, which a
# chroot such as check-fresh's does not allow). The module is never loaded on
# the host, so every command reaches the lookup.
no_libkmod() {	# no_libkmod CMD...: CMD with libkmod.so.2 unloadable
	local lib ns=(unshare --mount) prop=private
	lib=$(ldconfig -p | awk '$1 == "libkmod.so.2" && /x86-64/ { print $NF; exit }')
	[[ -n $lib ]] || { echo "no libkmod.so.2 in ldconfig's cache"; return 1; }
	((EUID == 0)) || ns+=(--map-root-user)
	# A chroot whose / is no mount point cannot make / private (tests/vm/lib.sh).
	# Its mounts then keep their propagation: a shared one would carry the
	# bind over libkmod out of the namespace, to stay, so it is refused.
	mountpoint -q / || prop=unchanged
	"${ns[@]}" --propagation "$prop" -- bash -c '
		if [[ $1 == unchanged ]] && grep -q " shared:" /proc/self/mountinfo; then
			echo "shared mounts here: libkmod.so.2 is not hidden (it would be outside too)"
			exit 1
		fi
		mount --bind /dev/null "$2" && shift 2 && exec "$@"' _ "$prop" "$lib" "$@"
}
libkmod_missing() {
	local out rc
	[[ ! -e /sys/module/kstats ]] || { echo "kstats is loaded on this host"; return 1; }
	# (messages are wrapped: compared with their whitespace squeezed)
	out=$(no_libkmod "$bin" list 2>&1) && { echo "list exited 0: $out"; return 1; }
	out=$(tr -s ' \n' '  ' <<<"$out")
	grep -q "error: the kstats module is not loaded, and libkmod cannot be opened to load it: .*libkmod.so.2" \
		<<<"$out" && grep -q "hint: install libkmod2" <<<"$out" || { echo "list: $out"; return 1; }
	out=$(no_libkmod "$bin" -j list 2>/dev/null)
	rc=$?
	((rc == 1)) || { echo "-j list: exit status $rc"; return 1; }
	"$py" -c 'import json, sys; d = json.loads(sys.argv[1]); assert set(d) == {"error", "hint"} and "libkmod2" in d["hint"], d' "$out" || return 1
	out=$(no_libkmod "$bin" info 2>&1) || { echo "info failed: $out"; return 1; }
	out=$(tr -s ' \n' '  ' <<<"$out")
	grep -q "module not loaded; whether it is installed cannot be told: libkmod cannot" <<<"$out" ||
		{ echo "info: $out"; return 1; }
	no_libkmod "$bin" info -j >"$tmp/info-nokmod.json" || return 1
	"$py" -c 'import json, sys; d = json.load(open(sys.argv[1])); assert d["installed"] is None and d["installed_unknown"].startswith("libkmod cannot be opened: "), d' \
		"$tmp/info-nokmod.json" || return 1
	"$py" validate.py schema "$cli/kstatsctl.schema.json" "$tmp/info-nokmod.json" || return 1
	# --no-autoload cannot say "not installed" either: only "not loaded"
	out=$(no_libkmod "$bin" --no-autoload list 2>&1) && return 1
	grep -qx "kstatsctl: error: the kstats module is not loaded" <<<"$out" || { echo "--no-autoload: $out"; return 1; }
}
check "libkmod missing: list says so with a hint (text, -j), info cannot tell whether kstats is installed (text, -j validates), --no-autoload says only 'not loaded'" libkmod_missing

# 4. JSON schema: every JSON golden output, and the error documents
if out=$("$py" validate.py golden-schema "$cli/kstatsctl.schema.json" golden/*.out 2>&1); then
	ok "JSON schema: the golden outputs' ${out##*# } validate"
else
	not_ok "JSON schema: the golden outputs' documents validate" "$out"
fi
check "JSON: show -j on every snapshot validates" \
	"$py" validate.py schema "$cli/kstatsctl.schema.json" "$tmp/le.json" "$tmp/be.json"
# (but color-always.out, whose colour codes --color=always asks for)
check "no control character or byte not UTF-8 in any golden output (stdout, stderr)" \
	"$py" validate.py text $(ls golden/*.out | grep -v '/color-always\.out$')
"$bin" show -i data/hostile.ksnap -f json >"$tmp/hostile.json"
check "JSON: a file's strings as they are, U+FFFD for each byte not UTF-8" \
	"$py" validate.py strings data/hostile.ksnap "$tmp/hostile.json"
"$bin" show -i data/hostile.ksnap -f prometheus >"$tmp/hostile.prom"
check "Prometheus/OpenMetrics parsers read the file's strings in HELP" \
	"$py" validate.py prom "$tmp/hostile.prom" "$tmp/hostile.json"

# 5. Prometheus
check "Prometheus/OpenMetrics parsers agree with JSON" \
	"$py" validate.py prom "$tmp/le.prometheus" "$tmp/le.json"
"$bin" show -i data/basic.ksnap -f prometheus --all-slots >"$tmp/all.prom"
check "Prometheus --all-slots parses" "$py" validate.py prom "$tmp/all.prom" "$tmp/le.json"
"$bin" show -i data/basic.ksnap -f prometheus --per-cpu >"$tmp/cpu.prom"
check "Prometheus --per-cpu parses" "$py" validate.py prom "$tmp/cpu.prom" "$tmp/le.json"

# 5b. promtool (Prometheus' own checker) on every Prometheus text we write
# (not split-a: promtool's lint takes its metric "splittest.m" for metres)
promtool_all() {
	local f out
	for f in basic big full hostile later keys-a keys-b values-a values-b; do
		"$bin" show -i "data/$f.ksnap" -f prometheus --per-cpu >"$tmp/pt.prom" || return 1
		out=$(promtool check metrics <"$tmp/pt.prom" 2>&1) || { echo "show $f: $out"; return 1; }
		"$bin" export -i "data/$f.ksnap" >"$tmp/pt.prom" || return 1
		out=$(promtool check metrics <"$tmp/pt.prom" 2>&1) || { echo "export $f: $out"; return 1; }
	done
}
if command -v promtool >/dev/null; then
	check "promtool check metrics: show -f prometheus and export, every snapshot" promtool_all
else
	not_ok "promtool check metrics # promtool missing: tests/deps.sh installs prometheus"
fi
export_keys() {	# a trace's keys: their own family, the key a label (issue 31 §8)
	local f
	for f in keys-a keys-b; do
		"$bin" export -i "data/$f.ksnap" >"$tmp/ek.prom" &&
			"$bin" show -i "data/$f.ksnap" -f json >"$tmp/ek.json" &&
			"$py" validate.py export-keys "$tmp/ek.prom" "$tmp/ek.json" || return 1
	done
}
check "export of trace keys: kstats_duration_by_KEY_seconds{name=TRACE,KEY=VALUE}, adding up to the trace" \
	export_keys
check "show -f prometheus --units us is refused: Prometheus' unit is the second" sh -c "
	'$bin' show -i data/basic.ksnap -f prometheus --units us >/dev/null 2>&1; [ \$? -eq 2 ]"
check "summary -f csv: shortest decimals that read back (9.95, not 9.9499999999999993)" sh -c "
	'$bin' summary -i data/basic.ksnap -f csv |
	grep -q '^\"user.small\",user,100,,9.95,11.5,0.30434782608695654,true,23.5,0.3191489361702128,false,16,32,,,\$'"
check "--percentiles 99.99999 is labelled p99.99999 (not p100)" sh -c "
	'$bin' --percentiles 99.99999 summary -i data/basic.ksnap | grep -q ' p99.99999 '"

# 6. accuracy against the exact samples
check "percentiles, mean, min, max: the exact value in the slot given" \
	"$py" validate.py truth "$tmp/le.json" data/basic.truth.json
check "hist fits COLUMNS=60 (no line of bars wider), and 52 wide on a wide one" sh -c "
	[ -z \"\$(COLUMNS=60 '$bin' show -i data/basic.ksnap --all | grep '|\$' | awk 'length > 60')\" ] &&
	COLUMNS=200 '$bin' show -i data/basic.ksnap user.small | grep -q '|@\{52\}|\$'"
check "80 columns: every line of every golden output for people, stdout and stderr" \
	"$py" validate.py width cases.txt golden
check "show on a terminal of 30 lines: rows fit 22 (30 less the footer), said" sh -c "
	out=\$(script -qec \"stty rows 30 cols 80; KSTATS_COLOR=never '$bin' show -i data/basic.ksnap tcp_sendmsg\" /dev/null | tr -d '\\r') &&
	echo \"\$out\" | grep -q '^rows merged to frac_bits 1 to fit 22 lines; -b 5 for every slot\$' &&
	[ \$(echo \"\$out\" | grep -c '^\\[') -le 22 ]"
check "-i FILE in diff and plot: the same output as the file operands" sh -c "
	[ \"\$('$bin' diff -i data/basic.ksnap -i data/later.ksnap)\" = \"\$('$bin' diff data/basic.ksnap data/later.ksnap)\" ] &&
	[ \"\$('$bin' diff -i data/basic.ksnap user.small -i data/later.ksnap)\" = \"\$('$bin' diff data/basic.ksnap data/later.ksnap user.small)\" ] &&
	[ \"\$('$bin' plot cdf -i data/basic.ksnap -i data/later.ksnap tcp_sendmsg)\" = \"\$('$bin' plot cdf data/basic.ksnap data/later.ksnap tcp_sendmsg)\" ] &&
	[ \"\$('$bin' plot -i data/basic.ksnap hist user.small)\" = \"\$('$bin' plot hist data/basic.ksnap user.small)\" ]"
check "--fail-if: blanks are ignored ('p99 > 1ms' decides as 'p99>1ms')" sh -c "
	a=\$('$bin' diff data/basic.ksnap data/later.ksnap --fail-if 'p99 > 1ms, mean < +5%' --brief; echo \$?) &&
	b=\$('$bin' diff data/basic.ksnap data/later.ksnap --fail-if 'p99>1ms,mean<+5%' --brief; echo \$?) &&
	[ \"\$a\" = \"\$b\" ] && ! echo \"\$a\" | grep -q 'error'"
check "-f json where -j works: list and outliers print the same document" sh -c "
	[ \"\$('$bin' list -i data/basic.ksnap -f json)\" = \"\$('$bin' -j list -i data/basic.ksnap)\" ] &&
	[ \"\$('$bin' outliers -i data/outliers.ksnap outl.kept -f json)\" = \"\$('$bin' -j outliers -i data/outliers.ksnap outl.kept)\" ]"
check "export -b (the old spelling) writes what --bucket-bits writes, and warns" sh -c "
	[ \"\$('$bin' export -i data/basic.ksnap -b 2 2>/dev/null)\" = \"\$('$bin' export -i data/basic.ksnap --bucket-bits 2)\" ] &&
	'$bin' export -i data/basic.ksnap -b 2 2>&1 >/dev/null | grep -q 'warning: .*--bucket-bits'"
check "info fits 80 columns (here: no module)" sh -c "
	[ -z \"\$('$bin' --no-autoload info | awk 'length > 80')\" ]"
check "show's hist fits 40 rows: merged to the finest frac_bits that fits, said, exact sums" \
	"$py" check_rows.py "$bin" data/basic.ksnap data/later.ksnap data/big.ksnap \
	data/full.ksnap data/plot-modes.ksnap data/hdr.ksnap
check "a wider terminal: summary and list rows of long names stay on one line" sh -c "
	[ \$(COLUMNS=200 '$bin' summary -i data/basic.ksnap | wc -l) -eq 7 ] &&
	[ \$(COLUMNS=200 '$bin' --ns '*' summary -i data/basic.ksnap | wc -l) -eq 7 ] &&
	[ \$(COLUMNS=40 '$bin' list -i data/basic.ksnap | wc -l) -eq 11 ]"
check "--per-cpu: one scale for every CPU (a single full bar, on the fullest CPU's row)" sh -c "
	[ \$(COLUMNS=200 '$bin' show -i data/basic.ksnap net.tx_latency --per-cpu | grep -c '|@\{52\}|') -eq 1 ]"
check "--bits 1: the merged rows hold every sample, the footer the metric's own slots" sh -c "
	'$bin' show -i data/basic.ksnap tcp_sendmsg --bits 1 | awk '/^\\[/ { n += \$3 } END { exit n != 1600 }' &&
	'$bin' show -i data/basic.ksnap tcp_sendmsg --bits 1 | grep -q '^slots 108 of 1920 used'"
check "--cpu 0,1: the samples of --cpu 0 and --cpu 1, slot by slot (hist rows)" "$py" -c '
import re, subprocess, sys
def rows(c):
    out = subprocess.check_output([sys.argv[1], "show", "-i", "data/basic.ksnap", "net.tx_latency",
                                   "--all-slots", "--cpu", c]).decode()
    return [int(m.group(1)) for m in re.finditer(r"^\[[^)]*\) +(\d+) \|", out, re.M)]
r01, r0, r1 = rows("0,1"), rows("0"), rows("1")
assert len(r01) == len(r0) == len(r1) and sum(r01) > 0
assert r01 == [a + b for a, b in zip(r0, r1)], (r01, r0, r1)
' "$bin"
"$bin" -j summary -i data/basic.ksnap >"$tmp/sum.json"
"$bin" --percentiles 50,99 show -i data/basic.ksnap -f json >"$tmp/p5099.json"
check "summary -j: each metric's count, percentiles and max as show gives them" "$py" -c '
import json, sys
s = json.load(open(sys.argv[1]))["metrics"]
w = {m["name"]: m for m in json.load(open(sys.argv[2]))["metrics"]}
assert len(s) == len(w)
for m in s:
    x = w[m["name"]]
    assert (m["count"], m["percentiles"], m["max"]) == (x["count"], x["percentiles"], x["max"]), m
' "$tmp/sum.json" "$tmp/p5099.json"
"$bin" --percentiles 95,99.5 show -i data/basic.ksnap -f json >"$tmp/p95.json"
check "--percentiles 95,99.5: the exact values in the slots given" \
	"$py" validate.py truth "$tmp/p95.json" data/basic.truth.json
check "hist: min/max as slots, each percentile's ± its slot's half-width" \
	"$py" validate.py footer "$tmp/le.hist" "$tmp/le.json"
check "hist: no exact-looking estimate (max of user.small: 20, in [16, 32))" \
	sh -c "grep -q '^count 100  mean 9.95  min 0  max in \[16, 32)\$' $tmp/le.hist"
check "a metric of no known unit prints plain numbers; --ns makes it ns" sh -c "
	'$bin' show -i data/basic.ksnap user.small --units us | grep -q '^\[16, 32) ' &&
	'$bin' --ns 'user.*' show -i data/basic.ksnap user.small --units us | grep -q '^\[0.016us, 0.032us) '"

# 7. counts past 64 bits: big (sums over CPUs) and full (a CPU's own sum)
big_formats() {	# big_formats NAME: every format, all CPUs and per CPU, in time
	local f m rc
	for f in hist percentiles cdf raw json csv prometheus; do
		timeout "$limit" "$bin" show -i "data/$1.ksnap" -f "$f" >"$tmp/$1.$f"
		rc=$?
		((rc != 124)) || { echo "-f $f: still running after $limit s"; return 1; }
		((rc == 0)) || { echo "-f $f: exit $rc"; return 1; }
		timeout "$limit" "$bin" show -i "data/$1.ksnap" -f "$f" --per-cpu >/dev/null
		rc=$?
		((rc == 0)) || { echo "-f $f --per-cpu: exit $rc"; return 1; }
	done
	for m in $("$py" -c "import json; print(*json.load(open('data/$1.truth.json')))"); do
		# raw names no metric: one file each
		timeout "$limit" "$bin" show -i "data/$1.ksnap" "$m" -f raw >"$tmp/$1.raw.$m" ||
			{ echo "$m -f raw failed"; return 1; }
	done
}
for f in big full; do
	case $f in
	big) what="1e9, 1e12, 2^63 samples; 4 CPUs of 2^63" ;;
	full) what="2^64 - 1 in every slot of every CPU" ;;
	esac
	check "$what: every format ends in time" big_formats "$f"
	check "... with every metric's exact total, in every format" \
		"$py" validate.py counts "$tmp" "$f" "data/$f.truth.json"
	check "... and its estimates hold (mean within mean_error)" \
		"$py" validate.py truth "$tmp/$f.json" "data/$f.truth.json"
	check "... Prometheus parsers agree with JSON" \
		"$py" validate.py prom "$tmp/$f.prometheus" "$tmp/$f.json"
	check "... JSON validates" "$py" validate.py schema "$cli/kstatsctl.schema.json" "$tmp/$f.json"
done

# 8. diff: what was recorded between A and B
diff_shift() {
	local rc
	timeout "$limit" "$bin" -j diff data/interval-a.ksnap data/interval-b.ksnap >"$tmp/d.json"
	rc=$?
	((rc == 3)) || { echo "diff -j: exit $rc, want 3 (lat.reset has no interval)"; return 1; }
	timeout "$limit" "$bin" diff data/interval-a.ksnap data/interval-b.ksnap >"$tmp/d.txt"
	"$py" validate.py shift "$tmp/d.json" "$tmp/d.txt"
}
check "diff A B: the interval's +60%, not the cumulative +11%; a reset says so, exit 3" diff_shift

# 8a. the "supported percentile" rule against the samples (few.samples.json):
# marked exactly when count x (1 - q) < 10, every unmarked one in its slot
check "percentiles: marked exactly when count x (1 - q) < 10; the exact quantile in each unmarked slot" \
	"$py" check_quantiles.py "$bin" data
few_exit() {	# the 400-sample p99.9 decides nothing; a reset metric beside it
	local rc
	"$bin" diff data/few-a.ksnap data/few-b.ksnap few.lat --fail-if 'p99.9>+100%' >/dev/null
	rc=$?
	((rc == 5)) || { echo "p99.9 of 400 samples: exit $rc, want 5 (not decided)"; return 1; }
	"$bin" diff data/few-a.ksnap data/few-b.ksnap few.lat --fail-if 'p99.9>+100%' \
		--undecided=pass >/dev/null
	rc=$?
	((rc == 0)) || { echo "p99.9 of 400 samples, --undecided=pass: exit $rc, want 0"; return 1; }
	"$bin" diff data/few-a.ksnap data/few-b.ksnap --fail-if 'count<1000' >/dev/null
	rc=$?
	((rc == 4)) || { echo "a condition held beside a reset metric: exit $rc, want 4"; return 1; }
	"$bin" diff data/few-a.ksnap data/few-b.ksnap --fail-if 'count>1000' >/dev/null
	rc=$?
	((rc == 3)) || { echo "none held, a metric reset: exit $rc, want 3"; return 1; }
	"$bin" diff data/few-a.ksnap data/few-b.ksnap --fail-if 'p99.9>+100%' >/dev/null
	rc=$?
	((rc == 3)) || { echo "not decided beside a reset metric: exit $rc, want 3"; return 1; }
}
check "diff exit status: 5 when not decided (0 with --undecided=pass), 4 over 3, 3 over 5" few_exit

# 8b. counts and part sums split across CPUs, as a migration between a
# record's two adds leaves them (split-a: one "add" of kstats_split_test.ko)
"$bin" show -i data/split-a.ksnap -j >"$tmp/split.json"
check "split slots: mean, min, max, percentiles against the exact samples" \
	"$py" validate.py truth "$tmp/split.json" data/split.truth.json
"$bin" show -i data/split-a.ksnap -j --per-cpu >"$tmp/split-cpu.json"
check "split slots: each CPU's slot means inside their slots" \
	"$py" validate.py percpu "$tmp/split-cpu.json"
check "split slots: raw's CPUS lines fold every CPU's part sum (mean 680.2)" sh -c "
	'$bin' show -i data/split-a.ksnap splittest.m -f raw |
	awk '/CPUS/ { n += \$6; s += \$6 * \$8 } END { exit !(n == 10 && s == 6802) }'"
check "split slots: diff's interval keeps a part sum that grew alone (mean 680.2)" sh -c "
	'$bin' -j diff data/split-a.ksnap data/split-b.ksnap -m splittest.m |
	'$py' -c 'import json, sys
m = json.load(sys.stdin)[\"metrics\"][0][\"stats\"]
assert m[\"count\"][\"interval\"] == 10 and m[\"mean\"][\"interval\"][\"value\"] == 680.2, m'"

# 9. malformed files
malformed() {
	local f=$1 out rc
	out=$("$bin" show -i "$f" -f raw 2>&1 >/dev/null)
	rc=$?
	if ((rc != 1)) || [[ $out != "kstatsctl: error: "* ]]; then
		echo "$f: exit $rc: $out"
		return 1
	fi
}
check "every 37th truncation of a snapshot says so (exit 1)" \
	"$py" validate.py truncations "$bin" data/basic.ksnap 37 "$tmp"
for f in basic basic-be basic-v1 basic-be-v1; do
	check "every truncation of $f.ksnap says so (in-process)" \
		"$cli/build/check_snapfile" cuts "data/$f.ksnap"
done
check "a byte changed every 13: an error or the same output, never a crash" \
	"$py" validate.py flips "$bin" data/basic.ksnap 13 "$tmp"
# Every byte, each of its bits and all 8, in-process (over 100,000 cases).
what="every change of one byte of basic.ksnap: refused, or shown as before"
if out=$("$cli/build/check_snapfile" flips data/basic.ksnap 2>&1); then
	ok "$what (${out#*: })"
else
	not_ok "$what" "$out"
fi
check "a damaged file says so" sh -c \
	"\"$bin\" show -i data/damaged.ksnap 2>&1 | grep -q 'checksum mismatch: the file is damaged'"
{ cat data/basic.ksnap; printf 'x'; } >"$tmp/trailing"
check "trailing bytes are an error" malformed "$tmp/trailing"
{ printf 'KSTATSNQ'; tail -c +9 data/basic.ksnap; } >"$tmp/magic"
check "a bad magic is an error" malformed "$tmp/magic"
{ head -c 10 data/basic.ksnap; printf '\x09\x00'; tail -c +13 data/basic.ksnap; } >"$tmp/v9"
check "a newer format version is an error" sh -c \
	"\"$bin\" show -i $tmp/v9 2>&1 | grep -q 'unsupported format version 9'"
# Version 6 (a key's metric of values): an older reader refuses it rather
# than show the values as nanoseconds; 7 (outliers' return values): an older
# reader says to upgrade rather than call the entries bad; 8 (a stack key's
# frames) likewise; the rest stay at 4 or 5.
check "format 8 only where stack keys keep frames, 7 where outliers keep return values, 6 where a key's metric holds values (values-a), 5 for keys, 4 else" sh -c \
	"[ \"\$(od -An -tu2 -j10 -N2 data/stack-keys.ksnap | tr -d ' ')\" = 8 ] &&
	 [ \"\$(od -An -tu2 -j10 -N2 data/stack-keys-v5.ksnap | tr -d ' ')\" = 5 ] &&
	 [ \"\$(od -An -tu2 -j10 -N2 data/outliers-retval.ksnap | tr -d ' ')\" = 7 ] &&
	 [ \"\$(od -An -tu2 -j10 -N2 data/outliers.ksnap | tr -d ' ')\" = 4 ] &&
	 [ \"\$(od -An -tu2 -j10 -N2 data/values-a.ksnap | tr -d ' ')\" = 6 ] &&
	 [ \"\$(od -An -tu2 -j10 -N2 data/keys-a.ksnap | tr -d ' ')\" = 5 ] &&
	 [ \"\$(od -An -tu2 -j10 -N2 data/basic.ksnap | tr -d ' ')\" = 4 ]"
check "an empty file is an error" malformed /dev/null

# 9b. HdrHistogram, against its own implementation: hdr-histogram-js
# (hdr-js.sh: pinned, fetched once into the cache), under Debian's node.
mkdir -p "$tmp/hlog"	# apart from gen_snapshots' plot-modes.hlog
basic_hlog "$tmp/hlog" || not_ok "export -f hdr of basic.ksnap"
"$py" gen_hlogs.py "$tmp/hlog" 2>&1 || not_ok "gen_hlogs.py runs"
for f in "$tmp"/hlog/*.hlog; do
	check "data/hlog/${f##*/} is what gen_hlogs.py writes" cmp "$f" "data/hlog/${f##*/}"
done
if ! node_path=$("$here/hdr-js.sh"); then
	not_ok "hdr-histogram-js is installed (tests/cli/hdr-js.sh)"
else
	hjs() { NODE_PATH=$node_path node "$here/hdr-js-check.js" "$@"; }
	hdr_export() {	# hdr_export SNAP [PATTERN...]: decoded by hdr-histogram-js
		local f=$1
		shift
		# With its "#[kstats: ...]" comments, which HdrHistogram's readers skip.
		"$bin" export -f hdr -i "$f" "$@" >"$tmp/e.hlog" &&
			grep -q '^#\[kstats: tag=' "$tmp/e.hlog" &&
			"$bin" show -j -i "$f" "$@" >"$tmp/e.json" &&
			hjs export "$tmp/e.hlog" "$tmp/e.json"
	}
	check "export -f hdr, frac_bits 0..5, read by hdr-histogram-js: counts at each slot's last value, p50/90/99/99.9" \
		hdr_export data/hdr.ksnap
	check "export -f hdr of basic.ksnap (frac_bits 0, 2, 3, 5), read by hdr-histogram-js" \
		hdr_export data/basic.ksnap net.tx_latency user.small tcp_sendmsg empty.one
	# The same log, not the same bytes: node deflates with its zlib
	# (Debian's node 18 the system's, nodesource's 20 Chromium's fork).
	check "hdr-histogram-js writes data/hlog/js.hlog as it is (histograms compared inflated)" sh -c \
		"NODE_PATH='$node_path' node '$here/hdr-js-check.js' write '$tmp/js.hlog' 3 2 >/dev/null &&
		 '$py' validate.py hlog-same '$tmp/js.hlog' data/hlog/js.hlog"
	hdr_read() {	# hdr_read CMD DIGITS1 DIGITS2: hdr-histogram-js's log, read back
		hjs write "$tmp/w.hlog" "$2" "$3" >/dev/null &&
			"$bin" -j "$1" -i "$tmp/w.hlog" >"$tmp/w.json" &&
			hjs read "$tmp/w.hlog" "$tmp/w.json" &&
			"$py" validate.py schema "$cli/kstatsctl.schema.json" "$tmp/w.json"
	}
	check "show -i of hdr-histogram-js's log (3 and 2 digits: frac_bits 5): every count back" \
		hdr_read show 3 2
	check "show -i of hdr-histogram-js's log (1 and 3 digits: frac_bits 4): every count back" \
		hdr_read show 1 3
	check "summary -i of hdr-histogram-js's log: the counts back" hdr_read summary 3 2
	hdr_us() {	# --hdr-unit us: each bucket in the slot of its highest value
		"$bin" -j --hdr-unit us show -i data/hlog/js.hlog >"$tmp/us.json" 2>/dev/null &&
			hjs read data/hlog/js.hlog "$tmp/us.json" 1000
	}
	check "--hdr-unit us: hdr-histogram-js's buckets, times 1000, in kstatsctl's slots" hdr_us
fi
# Our log read back by us: frac_bits 4 and 5 slot for slot as the snapshot.
hdr_back() {
	"$bin" export -f hdr -i data/hdr.ksnap hdr.b4 hdr.b5 >"$tmp/b.hlog" &&
		"$bin" -j show -i data/hdr.ksnap hdr.b4 hdr.b5 >"$tmp/b1.json" &&
		"$bin" -j show -i "$tmp/b.hlog" >"$tmp/b2.json" &&
		"$py" -c 'import json, sys
a, b = (json.load(open(f))["metrics"] for f in sys.argv[1:])
for x, y in zip(a, b):
    assert x["name"] == y["name"] and x["frac_bits"] == y["frac_bits"], (x["name"], y["name"])
    assert [(k["low"], k["count"]) for k in x["buckets"]] == \
           [(k["low"], k["count"]) for k in y["buckets"]], x["name"]
assert len(a) == len(b) == 2' "$tmp/b1.json" "$tmp/b2.json"
}
check "export -f hdr then show -i: frac_bits 4 and 5 come back slot for slot" hdr_back
# The round trip on every fixture that exports: show of the log is show of the
# snapshot (frac_bits, unit, count, min, max, every percentile with its bound
# and mark, every slot), all but the sums, which HdrHistogram does not keep
# (kstatsctl(8)); HdrHistogram's counts stop at 2^63 - 1 (big.cpus is past).
hdr_roundtrip() {	# hdr_roundtrip SNAP [PATTERN...]
	local f=$1
	shift
	"$bin" export -f hdr -i "$f" "$@" >"$tmp/rt.hlog" &&
		"$bin" -j show -i "$f" "$@" >"$tmp/rt1.json" &&
		"$bin" -j show -i "$tmp/rt.hlog" >"$tmp/rt2.json" &&
		"$py" -c 'import json, sys
a, b = (sorted(json.load(open(f))["metrics"], key=lambda m: m["name"]) for f in sys.argv[1:])
assert [m["name"] for m in a] == [m["name"] for m in b] and a
for x, y in zip(a, b):
    for m in x, y:
        for s in m["buckets"]:
            del s["sum"]
    for k in ["frac_bits", "error_bound", "unit", "count", "min", "max", "percentiles", "buckets"]:
        assert x[k] == y[k], (x["name"], k, x[k], y[k])' "$tmp/rt1.json" "$tmp/rt2.json"
}
# Without its kstats comments (another writer's log, or kstatsctl's before
# them) a tag is read at the snapshot's frac_bits or coarser, never finer:
# each slot read back holds exactly the snapshot's slots inside it.
hdr_foreign() {	# hdr_foreign SNAP [PATTERN...]
	local f=$1
	shift
	"$bin" export -f hdr -i "$f" "$@" | grep -v '^#\[kstats: ' >"$tmp/fo.hlog" &&
		"$bin" -j show -i "$f" "$@" >"$tmp/fo1.json" &&
		"$bin" -j show -i "$tmp/fo.hlog" >"$tmp/fo2.json" &&
		"$py" -c 'import json, sys
a, b = ({m["name"]: m for m in json.load(open(f))["metrics"]} for f in sys.argv[1:])
assert sorted(a) == sorted(b) and a
for name, x in a.items():
    y = b[name]
    assert y["frac_bits"] <= x["frac_bits"] or not x["count"], (name, x["frac_bits"], y["frac_bits"])
    assert x["count"] == y["count"], name
    for k in y["buckets"]:
        inside = sum(s["count"] for s in x["buckets"] if k["low"] <= s["low"] and s["high"] <= k["high"])
        assert inside == k["count"], (name, k, inside)
    assert sum(k["count"] for k in y["buckets"]) == y["count"], name' "$tmp/fo1.json" "$tmp/fo2.json"
}
check "a log without kstats comments: hdr.ksnap read at its frac_bits or coarser, slots merged exactly" \
	hdr_foreign data/hdr.ksnap
for f in basic plot-modes few-a interval-a split-a big; do
	pats=()
	[[ $f == basic ]] && pats=(user.small net.tx_latency tcp_sendmsg empty.one)
	[[ $f == big ]] && pats=('big.1e*' big.2p63)
	check "... $f.ksnap: the same" hdr_foreign "data/$f.ksnap" "${pats[@]}"
done
check "export -f hdr then show -i, every metric of hdr.ksnap: show of the snapshot" \
	hdr_roundtrip data/hdr.ksnap
check "... of basic.ksnap (unitless frac_bits 0 and 3, a trace, empty): the same" \
	hdr_roundtrip data/basic.ksnap user.small net.tx_latency tcp_sendmsg empty.one
for f in plot-modes few-a interval-a split-a keys-a; do
	check "... of $f.ksnap: the same" hdr_roundtrip "data/$f.ksnap"
done
check "... of big.ksnap (counts to 2^62): the same" hdr_roundtrip data/big.ksnap 'big.1e*' big.2p63
# A log longer than the plot is wide: its intervals summed into columns of
# equal time, at most one per pixel, none drawn over another (cli-w3.md
# section 4: a day drew 86,400 rectangles, about 6 per pixel).
heatmap_columns() {
	"$bin" plot heatmap data/hlog/long.hlog --width 400 --height 300 >"$tmp/long.svg" &&
		"$py" -c 'import re, sys
svg = open(sys.argv[1]).read()
assert "300 intervals" in svg and "columns of 2 s" in svg
cells = svg.split("class=\"cells\"")[1].split("</g>")[0]
rects = [tuple(map(float, m)) for m in re.findall(
    r"<rect x=\"([\d.]+)\" y=\"([\d.]+)\" width=\"([\d.]+)\" height=\"([\d.]+)\"", cells)]
xs = sorted({r[0] for r in rects})
width = {r[0]: r[2] for r in rects}	# whole pixels: 1 or 2 wide here
assert 100 < len(xs) <= 150, len(xs)	# the idle intervals draw nothing
assert all(b - a >= width[a] - 0.02 for a, b in zip(xs, xs[1:])), "columns overlap"
assert len({(r[0], r[1]) for r in rects}) == len(rects), "a cell drawn twice"' "$tmp/long.svg"
}
check "plot heatmap of 300 intervals 230 pixels wide: at most 150 columns of 2 s, none overlapping, no cell twice" \
	heatmap_columns
hdr_stdin() { "$bin" export -f hdr -i data/hdr.ksnap | "$bin" summary -i - | grep -q '^hdr.b3 .* 5100 '; }
check "an hlog on standard input (-i -)" hdr_stdin
for f in data/hlog/*.hlog; do
	[[ $f == */js.hlog || $f == */basic*.hlog || $f == */cut-tail.hlog || $f == */long.hlog ]] &&
		continue
	check "${f##*/}: exit 1, an error naming the file and line" sh -c \
		"out=\$('$bin' show -i $f 2>&1 >/dev/null); rc=\$?;
		 [ \$rc = 1 ] && echo \"\$out\" | grep -q '^kstatsctl: error: $f\(:[0-9]*\)\?: '"
done

# 10. without the module (skipped where kstats is loaded)
if [[ -e /sys/module/kstats || -e /dev/kstats ]]; then
	ok "no-module errors # skip: kstats is loaded here"
else
	expect() {	# expect RC PATTERN CMD...
		local want=$1 pat=$2 out rc
		shift 2
		out=$("$@" 2>&1)
		rc=$?
		((rc == want)) && grep -qE "$pat" <<<"$out" || { echo "exit $rc: $out"; return 1; }
	}
	check "--no-autoload: 'not loaded' with a hint, exit 1" expect 1 \
		'error: the kstats module is not loaded.*' "$bin" --no-autoload list
	# modprobe only where kstats.ko is installed; else what to install.
	if modinfo kstats >/dev/null 2>&1; then want='hint: .*modprobe kstats'; else
		want='not installed.*|hint: install the kstats-dkms'; fi
	check "--no-autoload: the hint fits (modprobe, or what to install)" expect 1 "$want" \
		"$bin" --no-autoload list
	# A failed one-shot export leaves no stale kstats_up 1 behind.
	export_failed() {
		printf 'kstats_up 1\n' >"$tmp/once.prom"
		"$bin" --no-autoload export -o "$tmp/once.prom" 2>/dev/null && return 1
		[[ $(grep -v '^#' "$tmp/once.prom") == "kstats_up 0" ]] || { cat "$tmp/once.prom"; return 1; }
		[[ -z $(find "$tmp" -maxdepth 1 -name '.once.prom.*') ]]
	}
	check "export -o once without the module: exit 1, the file says kstats_up 0" export_failed
	check "not installed: says how to install, exit 1" expect 1 \
		'not installed for kernel.*|libkmod cannot read' "$bin" list
	check "not installed, JSON: {\"error\"} on stdout" sh -c \
		"\"$bin\" -j list 2>/dev/null | $py -c 'import json,sys; d=json.load(sys.stdin); assert \"error\" in d and \"hint\" in d'"
	# An exporter keeps going while the module is away: kstats_up 0.
	export_down() {
		local out
		out=$("$bin" --no-autoload export --interval 1 --count 2 -o "$tmp/k.prom" 2>&1) ||
			{ echo "exit $?: $out"; return 1; }
		[[ $(grep -c 'exporting kstats_up 0 until it is back' <<<"$out") == 1 ]] ||
			{ echo "want the message once: $out"; return 1; }
		[[ $(grep -v '^#' "$tmp/k.prom") == "kstats_up 0" ]] || { cat "$tmp/k.prom"; return 1; }
		[[ $(stat -c %a "$tmp/k.prom") == 644 ]] || return 1
		[[ -z $(find "$tmp" -maxdepth 1 -name '.k.prom.*') ]]
	}
	check "export --interval without the module: kstats_up 0, said once, exit 0" export_down
	check "info without the module: not loaded, installed or not, exit 0" expect 0 \
		'^module +not loaded(, and not installed for this kernel|; installed: )' "$bin" info
	check "info without the module does not load it" sh -c \
		"\"$bin\" info >/dev/null; [ ! -e /sys/module/kstats ]"
	check "info -j without the module: module null, validates" sh -c \
		"\"$bin\" -j info >$tmp/info.json && $py validate.py schema $top/cli/kstatsctl.schema.json $tmp/info.json && grep -q '\"module\": null' $tmp/info.json"
	check "export once without the module: error, exit 1" expect 1 \
		'error: the kstats module is not loaded' "$bin" --no-autoload export
fi

# 10b. trace --value/--if where the kernel has no BTF (KSTATS_BTF names a
# file that is not there): argN, retval and casts to u8..s64 still compile;
# a name, or a type only BTF knows, is refused with a hint
nobtf_expect() {	# nobtf_expect RC PATTERN ARGS...
	local want=$1 pat=$2 out rc
	shift 2
	out=$(KSTATS_BTF=/nonexistent "$bin" "$@" 2>&1)
	rc=$?
	# A message wraps: match it as one line.
	((rc == want)) && tr -s '\n ' '  ' <<<"$out" | grep -qE "$pat" ||
		{ echo "exit $rc: $out"; return 1; }
}
check "no BTF: (s32)arg2 and retval compile (a cast's width and sign, the register whole)" \
	nobtf_expect 0 's32: 4 bytes read, signed' trace f --value '(s32)arg2' --if 'retval != 0' --dry-run
check "no BTF: retval is the register, 64 bits, unsigned" \
	nobtf_expect 0 'u64: 8 bytes read, unsigned' trace f --value retval --dry-run
check "no BTF: a parameter's name is refused, the hint says argN and casts" \
	nobtf_expect 2 "no BTF here .*hint: without BTF, name arguments argN" trace f --value count
check "no BTF: a struct's type is refused, the hint lists the casts there are" \
	nobtf_expect 2 "no BTF here .* to know type 'struct file'.*hint: without BTF, casts are to u8" \
	trace f --value '((struct file *)arg0)->f_flags'
nobtf_json() {
	KSTATS_BTF=/nonexistent "$bin" -j trace f --value '(u16)arg1' --dry-run >"$tmp/nobtf.json" &&
		grep -q '"btf": "none"' "$tmp/nobtf.json" &&
		"$py" validate.py schema "$cli/kstatsctl.schema.json" "$tmp/nobtf.json"
}
check "no BTF: the plan says btf none, and validates" nobtf_json

# 10c. libbpf, libelf and zlib are opened on first use (cli/libs_dl.c), not
# linked: a start maps libc and libm only. A library that cannot be opened
# is an error naming its package (here an empty file of its soname, found
# first through LD_LIBRARY_PATH).
check "kstatsctl links libc and libm only (libbpf, libelf, zlib: opened when needed)" sh -c \
	"readelf -d '$bin' | sed -n 's/.*(NEEDED).*\\[\\(.*\\)\\]/\\1/p' | sort | tr '\\n' ' ' |
	 grep -qx 'libc.so.6 libm.so.6 '"
nolib_expect() {	# nolib_expect SONAME PATTERN ARGS...
	local out rc
	mkdir -p "$tmp/nolib"
	rm -f "$tmp"/nolib/*
	: >"$tmp/nolib/$1"
	out=$(LD_LIBRARY_PATH=$tmp/nolib "$bin" "${@:3}" 2>&1)
	rc=$?
	((rc == 1)) && tr -s '\n ' '  ' <<<"$out" | grep -qE "$2" || { echo "exit $rc: $out"; return 1; }
}
check "no libbpf: trace --value NAME says so, and which package to install" \
	nolib_expect libbpf.so.1 'error: cannot load libbpf.so.1: .* hint: install libbpf1 \(Debian, Ubuntu\) or libbpf \(RPM\)' \
	trace f --value count --dry-run
check "no zlib: show of an HdrHistogram log says so, and which package" \
	nolib_expect libz.so.1 'error: cannot load libz.so.1: .* hint: install zlib1g' show -i data/hlog/js.hlog
check "no libelf: trace BINARY:SYMBOL says so, and which package" \
	nolib_expect libelf.so.1 'error: cannot load libelf.so.1: .* hint: install libelf1' \
	trace "$cli/build/usym_pie:usym_second" --dry-run
check "with the libraries, kstatsctl --version loads none of them" sh -c \
	"! LD_DEBUG=files '$bin' --version 2>&1 | grep -E 'file=lib(bpf|elf|z)\\.so'"

# 11. documentation
check "--help, kstatsctl(8) and the completion agree" "$here/check-docs.sh" "$bin"
check "kstatsctl(8) has no groff warnings" sh -c \
	"out=\$(groff -man -ww -z -t '$top/man/kstatsctl.8' 2>&1); [ -z \"\$out\" ] || { echo \"\$out\"; exit 1; }"
check "bash completion completes" "$here/test-completion.sh" "$top/completion/kstatsctl.bash"

# 12. fuzzing
fuzz() {
	mkdir -p "$tmp/corpus"
	cp data/*.ksnap "$tmp/corpus/"
	"$cli/build/fuzz_snapfile" -max_total_time="${FUZZ_SECONDS:-60}" -max_len=65536 \
		-print_final_stats=1 "$tmp/corpus" >"$tmp/fuzz.log" 2>&1 ||
		{ tail -n 40 "$tmp/fuzz.log"; return 1; }
	grep -E 'stat::number_of_executed_units' "$tmp/fuzz.log" | sed 's/^/# /' >&2
}
check "fuzz the snapshot reader for ${FUZZ_SECONDS:-60} s (ASan, UBSan)" fuzz
fuzz_hlog() {	# seeds: logs as text (odd first byte), an encoding (even)
	mkdir -p "$tmp/hcorpus"
	for f in data/hlog/*.hlog; do
		{ printf '\001'; cat "$f"; } >"$tmp/hcorpus/${f##*/}"
	done
	"$py" -c 'import base64, sys, zlib
line = next(l for l in open("data/hlog/js.hlog") if l.startswith("Tag="))
b = base64.b64decode(line.strip().split(",")[-1])
sys.stdout.buffer.write(b"\0" + zlib.decompress(b[8:]))' >"$tmp/hcorpus/encoding"
	cp data/hlog-fuzz/* "$tmp/hcorpus/"	# inputs it once found a bug with
	"$cli/build/fuzz_hlog" -max_total_time="${FUZZ_SECONDS:-60}" -max_len=65536 \
		-print_final_stats=1 "$tmp/hcorpus" >"$tmp/fuzzh.log" 2>&1 ||
		{ tail -n 40 "$tmp/fuzzh.log"; return 1; }
	grep -E 'stat::number_of_executed_units' "$tmp/fuzzh.log" | sed 's/^/# /' >&2
}
check "fuzz the HdrHistogram log reader for ${FUZZ_SECONDS:-60} s (ASan, UBSan)" fuzz_hlog
fuzz_expr() {	# seeds: the accepted forms of the golden cases (byte 0: the function, --time)
	mkdir -p "$tmp/xcorpus"
	printf '\000file->f_inode->i_size\ncount > 65536 && retval < 0' >"$tmp/xcorpus/chain"
	printf '\001retval->f_inode->i_ino\n(count > 1 || retval == 3) && arg1 != 0' >"$tmp/xcorpus/or"
	printf '\207priv->file->f_flags\nduration > 1ms' >"$tmp/xcorpus/module"
	printf '\000((struct fx_file *)arg0)->f_path.dentry->d_inode->i_nlink\n(s8)count == -1' \
		>"$tmp/xcorpus/cast"
	"$cli/build/fuzz_expr" -max_total_time="${FUZZ_SECONDS:-60}" -max_len=512 -close_fd_mask=3 \
		-print_final_stats=1 "$tmp/xcorpus" >"$tmp/fuzzx.log" 2>&1 ||
		{ tail -n 40 "$tmp/fuzzx.log"; return 1; }
	grep -E 'stat::number_of_executed_units' "$tmp/fuzzx.log" | sed 's/^/# /' >&2
}
check "fuzz trace --value/--if's compiler for ${FUZZ_SECONDS:-60} s (ASan, UBSan)" fuzz_expr

# 13. plots
. "$here/plot-tests.sh"

echo "$passed passed, $failed failed"
[[ $failed -eq 0 ]]

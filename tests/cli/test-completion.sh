#!/usr/bin/env bash
# Drives the bash completion as bash would: COMP_WORDS/COMP_CWORD set, the
# function called, COMPREPLY checked. Live metric names come from a stub
# kstatsctl that prints a 'list' table.
# Usage: test-completion.sh COMPLETION_FILE
set -uo pipefail
# shellcheck disable=SC1090
. "${1:?usage: test-completion.sh FILE}"
stub=$(mktemp)
trap 'rm -f "$stub"' EXIT
cat >"$stub" <<'STUB'
#!/bin/sh
if [ "$1 $2 $3" = "list -i snap.ksnap" ] || [ "$1 $2 $3" = "list -i a.ksnap" ]; then
	echo "NAME                             KIND    OWNER                STATE    BITS        COUNT"
	echo "from.file                        user    kstatsctl            active      3           10"
	exit 0
fi
[ "$1 $2" = "--no-autoload list" ] || exit 1
echo "NAME                             KIND    OWNER                STATE    BITS        COUNT"
echo "net.tx_latency                   module  kstats_demo          active      3         3000"
echo "selftest.b0                      module  kstats_selftest      active      0         4000"
echo "selftest.b1                      module  kstats_selftest      stopped     1            0"
STUB
chmod +x "$stub"
bad=0

expect() {	# expect "WORDS" "WANTED REPLIES": last word is the one completed
	local line=$1 want=$2 got
	# As bash splits them: "--opt=value" is three words, "--opt" "=" "value".
	line=${line//=/ = }
	[[ $1 == *= ]] && line=${line% }
	read -ra COMP_WORDS <<<"$line"
	[[ $line == *" " ]] && COMP_WORDS+=("")
	COMP_WORDS[0]=$stub
	COMP_CWORD=$((${#COMP_WORDS[@]} - 1))
	_kstatsctl
	got=$(printf '%s\n' "${COMPREPLY[@]}" | sort | xargs)
	if [[ $got != "$want" ]]; then
		echo "'$line': got '$got', want '$want'"
		bad=1
	fi
}

expect "kstatsctl sh" "show"
expect "kstatsctl s" "show snapshot start stop summary"
expect "kstatsctl --no" "--no-autoload"
expect "kstatsctl -j sh" "show"
expect "kstatsctl --units us sh" "show"
expect "kstatsctl --units " "auto ms ns s us"
expect "kstatsctl show --for" "--format"
expect "kstatsctl show --format p" "percentiles prometheus"
expect "kstatsctl show -f c" "cdf csv"
expect "kstatsctl show sel" "selftest.b0 selftest.b1"
expect "kstatsctl show net.tx_latency --per" "--per-cpu --percentiles"
expect "kstatsctl --percentiles 95 sh" "show"
expect "kstatsctl export --bucket-bits " "0 1 2 3 4 5"
expect "kstatsctl reset " "net.tx_latency selftest.b0 selftest.b1"
expect "kstatsctl create x --b" "--bits"
expect "kstatsctl create x --bits " "0 1 2 3 4 5"
expect "kstatsctl trace f --mech" "--mechanism"
expect "kstatsctl trace f --mechanism k" "kprobe kretprobe"
expect "kstatsctl trace f --dry" "--dry-run"
expect "kstatsctl trace f --value re" "retval"
expect "kstatsctl trace f --if " ""	# a predicate: nothing to offer
expect "kstatsctl trace f --kee" "--keep"
expect "kstatsctl trace f --outp" "--output"
expect "kstatsctl trace f -d " ""	# a duration: nothing to offer
expect "kstatsctl trace f -p " ""	# a process id
expect "kstatsctl trace f -d 5s --by " "cgroup comm cpu errno pid stack tid"
expect "kstatsctl untrace --a" "--all"
expect "kstatsctl --pr" "--pretty"
expect "kstatsctl trace f --start u" "usdt:"
expect "kstatsctl trace f --start usdt:a:b:c --end " "tp: usdt:"
expect "kstatsctl diff a.ksnap b.ksnap --m" "--metric"
expect "kstatsctl help un" "untrace"
expect "kstatsctl info --j" "--json"
expect "kstatsctl --units=" "auto ms ns s us"
expect "kstatsctl --units=m" "ms"
expect "kstatsctl --color=a" "always auto"
expect "kstatsctl show --format=c" "cdf csv"
expect "kstatsctl --units=us sh" "show"
expect "kstatsctl show -i snap.ksnap " "from.file"
expect "kstatsctl show --input=snap.ksnap f" "from.file"
expect "kstatsctl export --input snap.ksnap " "from.file"
expect "kstatsctl outliers -i snap.ksnap " "from.file"
expect "kstatsctl outliers --in" "--input"
expect "kstatsctl diff snap.ksnap --metric " "from.file"
# diff: NAMEs and -m from A (the first operand), files only before A
expect "kstatsctl diff snap.ksnap nofile.ksnap -m f" "from.file"
expect "kstatsctl diff snap.ksnap nofile.ksnap " "from.file"
expect "kstatsctl diff --fail-if p99>+10% snap.ksnap nofile.ksnap --brief fr" "from.file"
expect "kstatsctl diff -m " "net.tx_latency selftest.b0 selftest.b1"
expect "kstatsctl diff --br" "--brief"
expect "kstatsctl show -w 1 sel" "selftest.b0 selftest.b1"
expect "kstatsctl summary -f " "csv json table"
expect "kstatsctl su" "summary"
expect "kstatsctl show --int" "--interval"
expect "kstatsctl summary --c" "--color --count"
expect "kstatsctl export -b " "0 1 2 3 4 5"
expect "kstatsctl list " "net.tx_latency selftest.b0 selftest.b1"
expect "kstatsctl --n" "--no-autoload --ns"
# diff A B NAME...: A's names (issue 23: 'diff A B -m <TAB>' completed none)
expect "kstatsctl diff a.ksnap b.ksnap -m " "from.file"
expect "kstatsctl diff a.ksnap b.ksnap " "from.file"
expect "kstatsctl pl" "plot"
expect "kstatsctl plot " "cdf flame heatmap hist percentiles"
expect "kstatsctl plot heatmap --palette " "reds viridis"
expect "kstatsctl plot percentiles snap.ksnap other.ksnap " "from.file"
expect "kstatsctl plot h" "heatmap hist"
expect "kstatsctl plot --title x h" "heatmap hist"
expect "kstatsctl plot hist --w" "--width"
expect "kstatsctl plot hist snap.ksnap " "from.file"
expect "kstatsctl plot -o x.svg hist snap.ksnap f" "from.file"
expect "kstatsctl plot cdf snap.ksnap other.ksnap " "from.file"
expect "kstatsctl plot cdf snap.ksnap nope.ksnap f" "from.file"
# Files: a directory ends in "/" (no space after it), a file does not.
dir=$(mktemp -d)
mkdir "$dir/runs" && touch "$dir/run.ksnap"
(cd "$dir" && expect "kstatsctl show -i ru" "run.ksnap runs/") || bad=1
(cd "$dir" && expect "kstatsctl diff r" "run.ksnap runs/") || bad=1
rm -rf "$dir"
# A long name (a row of its own at 80 columns) is still one name.
cat >"$stub" <<'STUB'
#!/bin/sh
[ "$1 $2" = "--no-autoload list" ] || exit 1
if [ "${COLUMNS:-80}" -gt 200 ]; then
	echo "NAME  KIND  OWNER  STATE  BITS  COUNT"
	echo "a.very.long.metric.name.that.takes.sixty.columns.of.the.screen  user  x  active  0  1"
else
	echo "NAME  KIND  OWNER  STATE  BITS  COUNT"
	echo "a.very.long.metric.name.that.takes.sixty.columns.of.the.screen"
	echo "      user  x  active  0  1"
fi
STUB
expect "kstatsctl show a." "a.very.long.metric.name.that.takes.sixty.columns.of.the.screen"
exit $bad

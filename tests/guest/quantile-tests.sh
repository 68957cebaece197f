#!/usr/bin/env bash
# kstatsctl's percentiles against exact quantiles, an oracle computed apart
# (tests/guest/quantiles.py): sets of 1e6 samples (uniform, lognormal,
# bimodal, heavy tail, constant, small integers), recorded with
# `kstatsctl record`, then every percentile `show -j` prints must name the
# slot that holds the exact nearest-rank sample, with the slot's half-width
# as its +-. The sets are made on the host (tests/lane.sh) in BUILD_DIR/../quantiles.
# Usage: tests/guest/quantile-tests.sh BUILD_DIR
set -uo pipefail
build=${1:?usage: quantile-tests.sh BUILD_DIR}
sets=$build/../quantiles
K=cli/kstatsctl
q=tests/guest/quantiles.py
shows=$(mktemp -d)
. tests/guest/tap.sh

one_set() {	# one_set NAME: create, record, show -j, check
	local name=$1 bits
	bits=$(python3 "$q" bits "$sets" "$name") &&
	"$K" create "q.$name" --bits "$bits" &&
	"$K" record "q.$name" <"$sets/$name.txt" &&
	"$K" show "q.$name" -j >"$shows/$name.json" &&
	python3 "$q" check "$sets" "$name" "$shows/$name.json" &&
	"$K" delete "q.$name"
}

ok "insmod kstats" insmod "$build/module/kstats.ko"
ok "the sample sets are there" test -s "$sets/uniform.txt"
for f in "$sets"/*.json; do
	name=$(basename "$f" .json)
	ok "$name: 1e6 samples, every printed percentile in the exact sample's slot, +- its half-width" \
		one_set "$name"
done
ok "rmmod kstats" rmmod kstats
rm -rf "$shows"
tap_end

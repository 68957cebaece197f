#!/usr/bin/env bash
# The plots, as a person sees them: sourced by run-tests.sh (its check, ok,
# not_ok, $bin, $cli, $tmp and $py). Every SVG is well-formed XML
# (xmllint); headless Chromium (Debian's) renders it to a PNG, and
# plot_check.py reads the PNG: the tallest bar, where two CDFs cross, the
# heatmap's bands, each position mapped back through the axis' labels.
# Chromium runs as root here: --no-sandbox, a profile of its own in $tmp,
# and at most $limit * 3 seconds.

# The fixtures' metrics are a program's (no unit known): --ns says they are
# latencies in ns, as the plots are checked against.
plot() {	# plot NAME ARGS...: kstatsctl --ns '*' plot ARGS -o $tmp/NAME.svg
	local name=$1
	shift
	"$bin" --ns '*' plot "$@" -o "$tmp/$name.svg"
}
check "plot hist: an SVG" plot hist hist data/plot-modes.ksnap
check "plot hist --share: an SVG" plot hist-share hist --share data/plot-modes.ksnap modes.two
check "plot cdf A B: an SVG" plot cdf cdf data/plot-cdf-a.ksnap data/plot-cdf-b.ksnap
check "plot cdf of a file's strings, control characters and bytes not UTF-8 in them" \
	plot hostile cdf data/hostile.ksnap --title $'<&>"\x01\xff\xef\xbf\xbe'
check "plot cdf --percentiles 50,99.99 --units us: an SVG" \
	plot cdf-pct cdf data/basic.ksnap 'net*' tcp_sendmsg --percentiles 50,99.99 --units us
# The interval log gen_snapshots writes through the HdrHistogram writer, as
# export --format hdr --interval 1 does: frac_bits 3 written at 1
# significant digit reads back at frac_bits 4 (each slot's count in the
# finer slot of its last value), without part sums.
check "plot heatmap FILE.hlog NAME: an SVG" plot heatmap heatmap data/plot-modes.hlog modes.two
# Tall enough for rows of frac_bits 4, the log's as read: rows stay at 3,
# the data's, or each band would be striped with the empty halves.
check "plot heatmap --height 2000: rows of frac_bits 3, not the 4 the log reads at" sh -c "
	'$bin' plot heatmap data/plot-modes.hlog modes.two --height 2000 -o '$tmp/heatmap-tall.svg' &&
	grep -q 'rows of frac_bits 3<' '$tmp/heatmap-tall.svg'"
check "plot hist of an interval log (its intervals summed): an SVG" \
	plot hist-hlog hist data/plot-modes.hlog modes.two
# B through export --format hdr: frac_bits 4 is HdrHistogram's layout at 1
# significant digit, slot for slot, so the crossing stays where it was.
check "plot cdf A B.hlog (B exported as HdrHistogram): an SVG" sh -c "
	'$bin' export --format hdr -i data/plot-cdf-b.ksnap -o '$tmp/cdf-b.hlog' &&
	'$bin' --ns '*' plot cdf data/plot-cdf-a.ksnap '$tmp/cdf-b.hlog' -o '$tmp/cdf-hlog.svg'"
plot_svgs=(hist hist-share cdf hostile cdf-pct heatmap heatmap-tall hist-hlog cdf-hlog)
xml_all() {
	local f
	for f in "${plot_svgs[@]/#/$tmp/}"; do
		f=$f.svg
		[[ -s $f ]] || { echo "$f: missing"; return 1; }
		xmllint --noout "$f" || return 1
		# Self-contained: nothing fetched, nothing run.
		! grep -qiE '<script|href=|url\(|@import' "$f" || { echo "$f: not self-contained"; return 1; }
	done
}
check "xmllint: ${#plot_svgs[@]} SVGs are well-formed, self-contained" xml_all
check "a plot that fails writes no file" sh -c "
	! '$bin' plot hist data/basic.ksnap empty.one -o '$tmp/none.svg' 2>/dev/null &&
	[ ! -e '$tmp/none.svg' ]"

render() {	# render SVG PNG: the whole document, at one pixel per unit
	local svg=$1 png=$2 w h prof out
	w=$(grep -o -m1 '<svg [^>]*' "$svg" | sed 's/.* width="\([0-9]*\)".*/\1/')
	h=$(grep -o -m1 '<svg [^>]*' "$svg" | sed 's/.* height="\([0-9]*\)".*/\1/')
	prof=$(mktemp -d "$tmp/chromium.XXXXXX")
	# A window taller than the picture: small windows clip the viewport.
	# --disable-dev-shm-usage: a small /dev/shm (containers: 64 MB) crashes it.
	out=$(HOME=$prof timeout $((limit * 3)) chromium --headless --no-sandbox --disable-gpu \
		--disable-dev-shm-usage \
		--hide-scrollbars --force-device-scale-factor=1 --user-data-dir="$prof" \
		--screenshot="$png" --window-size="$w,$((h + 100))" "file://$svg" 2>&1)
	local rc=$?
	rm -rf "$prof"
	[[ $rc == 0 && -s $png ]] || { echo "chromium: exit $rc"; tail -n 5 <<<"$out"; return 1; }
}
if ! command -v chromium >/dev/null; then
	not_ok "plots in Chromium: chromium is missing (tests/deps.sh installs it)"
else
	plot_render_check() {	# NAME CHECK-ARGS...
		local name=$1
		shift
		render "$tmp/$name.svg" "$tmp/$name.png" &&
			"$py" plot_check.py "$1" "$tmp/$name.svg" "$tmp/$name.png" "${@:2}"
	}
	plot_report() {	# what plot_check found, kept in the log
		local what=$1 out
		shift
		if out=$(plot_render_check "$@" 2>&1); then
			ok "$what"
			sed 's/^/# /' <<<"$out"
		else
			not_ok "$what" "$out"
		fi
	}
	plot_report "Chromium, hist: the tallest bar over the mode's slot (2 us, [1920, 2048) ns)" \
		hist hist 2000 3
	plot_report "Chromium, cdf: both curves reach 100%, cross once, at 210 us" \
		cdf cdf 210000 4
	plot_report "Chromium, heatmap of an interval log: bands at 2 us and 500 us, the slow one gone in [20, 40) s, nothing in [45, 50) s" \
		heatmap heatmap
	plot_report "Chromium, heatmap 2000 pixels tall: the same bands, whole (no stripes)" \
		heatmap-tall heatmap
	plot_report "Chromium, hist of an interval log: the tallest bar over [1984, 2048) ns, frac_bits 3's [1920, 2048) read at 4" \
		hist-hlog hist 2000 4
	plot_report "Chromium, cdf of a snapshot and an interval log: they cross once, at 210 us" \
		cdf-hlog cdf 210000 4
fi

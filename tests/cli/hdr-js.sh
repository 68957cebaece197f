#!/usr/bin/env bash
# Installs hdr-histogram-js, the HdrHistogram organisation's JavaScript port,
# pinned with its three dependencies, into the kstats cache (once: nothing is
# downloaded when it is there), and prints the node_modules directory.
# Tarballs come from registry.npmjs.org with curl, each checked against the
# sha512 pinned here (the registry's "integrity"), so npm is not needed.
set -euo pipefail
CACHE=${KSTATS_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/kstats}
dir=$CACHE/npm/hdr-histogram-js-3.0.1
# name version tarball-name sha512 (base64)
pkgs=(
	"hdr-histogram-js 3.0.1 hdr-histogram-js-3.0.1.tgz l3GSdZL1Jr1C0kyb461tUjEdrRPZr8Qry7jByltf5JGrA0xvqOSrxRBfcrJqqV/AMEtqqhHhC6w8HW0gn76tRQ=="
	"@assemblyscript/loader 0.19.23 loader-0.19.23.tgz ulkCYfFbYj01ie1MDOyxv2F6SpRN1TOj7fQxbP07D6HmeR+gr2JLSmINKjga2emB+b1L2KGrFKBTc+e00p54nw=="
	"base64-js 1.5.1 base64-js-1.5.1.tgz AKpaYlHn8t4SVbOHCy+b5+KKgvR4vrsD8vbvrbiQJps7fKDTkjkDry6ji0rUJjC0kzbNePLwzxq8iypo41qeWA=="
	"pako 1.0.11 pako-1.0.11.tgz 4hLB8Py4zZce5s4yd9XzopqwVv/yGNhV1Bl8NTmCq1763HeK2+EwVTv+leGeL13Dnh2wfbqowVPXCIO0z4taYw=="
)
if [ -e "$dir/.complete" ]; then
	echo "$dir/node_modules"
	exit 0
fi
tmp=$(mktemp -d "${TMPDIR:-/tmp}/kstats-npm.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
for p in "${pkgs[@]}"; do
	read -r name ver tgz sum <<<"$p"
	url=https://registry.npmjs.org/$name/-/$tgz
	if ! curl -fsSL --retry 3 -o "$tmp/$tgz" "$url"; then
		echo "error: cannot fetch $url" >&2
		echo "hint: behind a TLS-inspecting proxy, put its CA in /usr/local/share/ca-certificates and run update-ca-certificates" >&2
		exit 1
	fi
	got=$(sha512sum "$tmp/$tgz" | cut -d' ' -f1)
	want=$(printf %s "$sum" | base64 -d | od -An -v -tx1 | tr -d ' \n')
	if [ "$got" != "$want" ]; then
		echo "error: $url: sha512 $got, expected $want" >&2
		exit 1
	fi
	mkdir -p "$tmp/node_modules/$name"
	tar -xzf "$tmp/$tgz" -C "$tmp/node_modules/$name" --strip-components=1
	echo "hdr-js: $name $ver (sha512 verified)" >&2
done
mkdir -p "$dir"
rm -rf "$dir/node_modules"
mv "$tmp/node_modules" "$dir/node_modules"
touch "$dir/.complete"
echo "$dir/node_modules"

#!/usr/bin/env bash
# Installs the Debian packages the build and the tests need, if missing.
# As root it runs apt-get; otherwise it prints the exact command and fails.
# Kernels (headers, images, the debug kernel's source) are fetched by
# tests/vm/kernel.sh, pinned in tests/vm/kernels.conf.
set -euo pipefail
pkgs=(
	make gcc libc6-dev pkg-config	# build
	gcc-multilib			# abi_test32 (-m32: the compat ioctl path)
	libcmocka-dev			# unit tests
	qemu-system-x86 busybox-static cpio kmod xz-utils zstd	# VM lanes
	flex bison bc libelf-dev libssl-dev dwarves	# debug kernel build
	python3				# test helpers
	bpftrace			# an independent count of traced calls, in the lanes
	build-essential dpkg-dev debhelper dh-dkms dkms lintian rpm udev	# packages (tests/packages.sh;
					# dpkg-buildpackage requires build-essential)
	systemd man-db			# packages: systemd-analyze verify, man -w (not in a minimal root)
	prometheus prometheus-node-exporter	# tests/prometheus.sh
	libkmod-dev clang libclang-rt-14-dev python3-jsonschema python3-prometheus-client groff-base	# kstatsctl, its tests (libFuzzer)
	zlib1g-dev			# kstatsctl: HdrHistogram's compressed encoding
	libbpf-dev			# kstatsctl: return types from the kernel's BTF (trace --by errno)
	libelf-dev			# kstatsctl: symbols of user-space programs (trace BINARY:SYMBOL)
	systemtap-sdt-dev		# <sys/sdt.h>: the USDT probes of the test programs (usdt_target, usym_fixture)
	nodejs curl ca-certificates	# HdrHistogram checks: hdr-histogram-js (tests/cli/hdr-js.sh fetches it)
	libxml2-utils chromium python3-pil	# plot tests: xmllint, rendering the SVG, reading the PNG
					# (on a bare Debian 12 with the rest of this list: chromium
					# 109 packages, 162 MB download, 587 MB installed; with
					# nodejs, curl, libxml2-utils, python3-pil 140, 179 MB, 650 MB)
)
missing=()
for p in "${pkgs[@]}"; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' ||
		missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0
cmd="apt-get -o DPkg::Lock::Timeout=600 install -y --no-install-recommends ${missing[*]}"
if [ "$(id -u)" -ne 0 ]; then
	echo "error: missing packages: ${missing[*]}" >&2
	echo "hint: as root run: apt-get update && $cmd" >&2
	exit 1
fi
echo "deps: installing ${missing[*]}" >&2
export DEBIAN_FRONTEND=noninteractive
# Packages with services (prometheus, node_exporter, udev) must not start
# them: the tests start what they need, on loopback, and stop it.
policy=/usr/sbin/policy-rc.d
own_policy=0
if [ ! -e $policy ]; then
	printf '#!/bin/sh\nexit 101\n' >$policy
	chmod 755 $policy
	own_policy=1
	trap 'rm -f $policy' EXIT
fi
# One apt-get at a time with the scripts' own installs (lib.sh's
# need_pkgs): make check builds the debug kernel meanwhile.
. "$(dirname "$0")/vm/lib.sh"
mkdir -p "$CACHE"
exec 9>"$CACHE/apt.lock"
flock 9
apt-get -o DPkg::Lock::Timeout=600 update -qq >/dev/null
$cmd >/dev/null
exec 9>&-
((own_policy)) && rm -f $policy
true

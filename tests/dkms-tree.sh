#!/usr/bin/env bash
# The DKMS source tree (`make dkms-source`) builds kstats.ko for each stock
# lane's kernel the way DKMS does: dkms.conf sourced with $kernelver set, its
# MAKE[0] run in the tree, the module taken from BUILT_MODULE_LOCATION[0].
# Needs the lanes' kernel headers (tests/vm/kernel.sh fetches them).
# Usage: tests/dkms-tree.sh [LANE...]   (default: 6.1 6.12 6.12-rt)
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
lanes=("$@")
[ ${#lanes[@]} -gt 0 ] || lanes=(6.1 6.12 6.12-rt)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }

version=$(make -s -C "$top" version)
make -s -C "$top" dkms-source DESTDIR="$tmp"
tree=$tmp/usr/src/kstats-$version
[ -f "$tree/dkms.conf" ] || fail "no $tree/dkms.conf"
for lane in "${lanes[@]}"; do
	eval "$("$top/tests/vm/kernel.sh" "$lane")"	# KVER, KDIR
	[ "$KDIR" = "/lib/modules/$KVER/build" ] ||
		fail "$lane: headers at $KDIR, not where DKMS looks (/lib/modules/$KVER/build)"
	(
		cd "$tree"
		# shellcheck disable=SC2034 # dkms.conf reads it
		kernelver=$KVER
		# shellcheck source=/dev/null
		. ./dkms.conf
		[ "$PACKAGE_NAME" = kstats ] || fail "PACKAGE_NAME=$PACKAGE_NAME"
		[ "$PACKAGE_VERSION" = "$version" ] ||
			fail "PACKAGE_VERSION=$PACKAGE_VERSION, module/version.h says $version"
		eval "${MAKE[0]}" >build.log 2>&1 || { cat build.log; fail "$lane: MAKE[0] failed"; }
		ko=${BUILT_MODULE_LOCATION[0]}${BUILT_MODULE_NAME[0]}.ko
		[ -f "$ko" ] || fail "$lane: no $ko"
		got=$(modinfo -F vermagic "$ko" | cut -d' ' -f1)
		[ "$got" = "$KVER" ] || fail "$lane: $ko is for $got"
		got=$(modinfo -F version "$ko")
		[ "$got" = "$version" ] || fail "$lane: $ko has version '$got'"
		eval "$CLEAN" >/dev/null 2>&1 || fail "$lane: CLEAN failed"
		[ ! -e "$ko" ] || fail "$lane: CLEAN left $ko"
	)
	echo "ok - DKMS tree kstats-$version builds kstats.ko for $lane ($KVER)"
done

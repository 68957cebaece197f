#!/bin/bash
# kernel.sh LANE  (LANE = 6.1 | 6.12 | 6.12-rt | debug)
# Make sure the lane's guest kernel exists (install, download or build what is missing), then print
# shell assignments for eval:
#   KVER     uname -r of the guest
#   KDIR     kernel build dir for external modules: make -C "$KDIR" M=... modules
#   VMLINUZ  kernel image to boot
#   MODDIR   the guest's /lib/modules/$KVER tree (its 9p modules are loaded from it); empty for debug,
#            whose 9p is built in
# Usage: eval "$(tests/vm/kernel.sh 6.12)". Progress goes to stderr; a second run is a no-op.
set -euo pipefail
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

lane=${1:-}
case $lane in
6.1) abi=$K61_ABI ver=$K61_VERSION ;;
6.12) abi=$K612_ABI ver=$K612_VERSION ;;
6.12-rt) abi=$K612RT_ABI ver=$K612RT_VERSION ;;
debug) ;;
*) die "usage: kernel.sh 6.1|6.12|6.12-rt|debug" ;;
esac

# Stock lanes: the headers package gives the build dir; the image itself is only unpacked into the
# cache (never installed), so the host's own boot setup is left alone.
stock_fill() {
	[[ -e $top/.done ]] && return 0
	need_pkgs kmod
	rm -rf "$top/root"
	mkdir -p "$top/dl"
	local pkg=linux-image-$abi-unsigned deb
	# A .deb already in dl/ is reused if it has the pinned version (lets a machine be pre-seeded).
	deb=$(find "$top/dl" -name "${pkg}_*.deb" | head -n1)
	if [[ -z $deb || $(dpkg-deb -f "$deb" Version) != "$ver" ]]; then
		say "downloading $pkg=$ver"
		rm -f "$top/dl/"*.deb
		(cd "$top/dl" && quiet apt-get download -q "$pkg=$ver") ||
			(cd "$top/dl" && quiet apt-get update -q && quiet apt-get download -q "$pkg=$ver") ||
			die "cannot download $pkg=$ver"
		deb=$(find "$top/dl" -name "${pkg}_*.deb" | head -n1)
	fi
	dpkg-deb -x "$deb" "$top/root"
	# The package ships no modules.dep (its postinst runs depmod): make one for modprobe/insmod order.
	depmod -b "$top/root" "$abi"
	rm -f "$deb"
	touch "$top/.done"
}

# KDIR is only useful with a compiler (a CI cache may restore the debug tree on a bare machine).
need_pkgs make gcc
if [[ $lane == debug ]]; then
	tree=$("$VM_DIR/debug-build.sh")
	KVER=$(cat "$tree/include/config/kernel.release")
	KDIR=$tree
	VMLINUZ=$tree/arch/x86/boot/bzImage
	MODDIR=
else
	need_pkgs "linux-headers-$abi=$ver"
	top=$CACHE/stock/${abi}_$ver
	with_lock "$top.lock" stock_fill
	KVER=$abi
	KDIR=/lib/modules/$abi/build
	VMLINUZ=$top/root/boot/vmlinuz-$abi
	MODDIR=$top/root/lib/modules/$abi
	[[ -e $KDIR/Makefile ]] || die "$KDIR is not a kernel build dir"
fi
[[ -s $VMLINUZ ]] || die "no kernel image at $VMLINUZ"
printf 'KVER=%q\nKDIR=%q\nVMLINUZ=%q\nMODDIR=%q\n' "$KVER" "$KDIR" "$VMLINUZ" "$MODDIR"

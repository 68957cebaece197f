#!/bin/bash
# kernel.sh LANE  (LANE = 6.1 | 6.12 | 6.12-rt | 7.3 | 7.3-rt | debug)
# Make sure the lane's guest kernel exists (install, download or build what is missing), then print
# shell assignments for eval:
#   KVER     uname -r of the guest
#   KDIR     kernel build dir for external modules, as the host sees it
#   KROOT    the root to build modules in (chroot), empty for the host: the 7.x lanes build in a
#            Debian 13 root (their headers need gcc-14 and glibc >= 2.38). lib.sh's
#            `kmake DIR MAKE-ARGS...` builds either way: make -C "$KDIR" M=... modules on the host
#   VMLINUZ  kernel image to boot
#   MODDIR   the guest's /lib/modules/$KVER tree (its 9p modules are loaded from it); empty for debug,
#            whose virtio-fs is built in
# A stock lane uses the version pinned in kernels.conf; if the registry no longer has it, the newest
# of the pin's line (one line on stderr says so), and KVER etc. are that kernel's.
# Usage: eval "$(tests/vm/kernel.sh 6.12)". Progress goes to stderr; a second run is a no-op: with
# the kernel cached it asks no registry anything.
set -euo pipefail
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

lane=${1:-}
case $lane in
6.1) pin=K61 ;;
6.12) pin=K612 ;;
6.12-rt) pin=K612RT ;;
7.3) pin=K73 ;;
7.3-rt) pin=K73RT ;;
debug) pin= ;;
*) die "usage: kernel.sh ${VM_LANES// /|}" ;;
esac

# The packages of one kernel: img_pkgs ABI prints its image packages (the first names the line),
# hdr_pkg ABI its headers.
img_pkgs() {
	if [[ $dist == trixie ]]; then
		# linux-image-ABI is a metapackage over these (7.x packaging); -base has modules.builtin,
		# modules.order and the config.
		echo "linux-binary-$1 linux-modules-$1 linux-base-$1"
	else
		echo "linux-image-$1-unsigned"
	fi
}
hdr_pkg() { echo "linux-headers-$1"; }

# The lane's registry: the host's apt lists (bookworm), or the private ones for trixie.
reg_cache() {
	if [[ $dist == trixie ]]; then apt-cache "${TRIXIE_APT_OPTS[@]}" "$@"; else apt-cache "$@"; fi
}
reg_get() {
	if [[ $dist == trixie ]]; then
		apt-get -q "${TRIXIE_APT_OPTS[@]}" "$@"
	else
		apt-get -q -o DPkg::Lock::Timeout=600 "$@"
	fi
}
trixie_sources() {
	local m
	m=$(debian_mirror)
	mkdir -p "$TRIXIE_APT"/{lists/partial,state,cache/archives/partial}
	# The host's keyring (debian-archive-keyring) holds the Debian 13 keys too.
	printf 'deb [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] %s %s main\n' \
		"$m" trixie "$m" trixie-backports >"$TRIXIE_APT/sources.list"
}
reg_update() {
	say "updating the package lists ($dist)"
	if [[ $dist == trixie ]]; then
		trixie_sources
		quiet reg_get update
	else
		with_lock "$CACHE/apt.lock" quiet reg_get update
	fi
}
# reg_versions PKG: every version of PKG the registry has.
reg_versions() { reg_cache madison "$1" 2>/dev/null | awk -F'|' '{ gsub(/ /, "", $2); print $2 }'; }
# in_reg ABI VERSION: the registry has that kernel's image and headers at VERSION.
in_reg() {
	local p
	for p in $(img_pkgs "$1") "$(hdr_pkg "$1")"; do
		reg_versions "$p" | grep -qxF "$2" || return 1
	done
}

# resolve: prints "ABI VERSION" to use: the pin if the registry has it (after updating the lists
# once if needed), else the newest version of the pin's line with image and headers.
resolve() {
	[[ $dist == trixie && ! -s $TRIXIE_APT/sources.list ]] && reg_update
	in_reg "$abi" "$ver" && { echo "$abi $ver"; return; }
	reg_update
	in_reg "$abi" "$ver" && { echo "$abi $ver"; return; }
	local t pfx sfx pre re name a v best='' best_abi=''
	t=$(img_pkgs @ | cut -d' ' -f1)	# e.g. linux-image-@-unsigned: the package names the line
	pfx=${t%%@*} sfx=${t#*@}
	pre=$pfx${line%%#*}
	re=$(sed 's/[.+]/\\&/g; s/#/[0-9]+/g' <<<"$pfx$line$sfx")
	while read -r name; do
		[[ $name =~ ^$re$ ]] || continue
		a=${name#"$pfx"} a=${a%"$sfx"}
		for v in $(reg_versions "$name"); do
			in_reg "$a" "$v" || continue
			if [[ -z $best ]] || dpkg --compare-versions "$v" gt "$best"; then
				best=$v best_abi=$a
			fi
		done
	done < <(reg_cache pkgnames "$pre" | sort -u)
	[[ -n $best ]] || die "pinned $abi $ver is not in the registry, and no kernel of its line ($line) is"
	echo "$best_abi $best"
}

# The Debian 13 build root, made once (debootstrap) and shared by the 7.x lanes.
ROOT_INCLUDE=gcc-14,make,libc6-dev,libelf-dev,bc,flex,bison,kmod,dwarves
root_fill() {
	local stamp=$TRIXIE_ROOT/.kstats-root want="trixie minbase $ROOT_INCLUDE"
	[[ -e $stamp && $(cat "$stamp") == "$want" ]] && return 0
	need_pkgs debootstrap
	say "making the Debian 13 build root in $TRIXIE_ROOT (debootstrap, once)"
	rm -rf "$TRIXIE_ROOT" "$TRIXIE_ROOT.part"
	quiet debootstrap --variant=minbase --include="$ROOT_INCLUDE" \
		--keyring=/usr/share/keyrings/debian-archive-keyring.gpg trixie "$TRIXIE_ROOT.part" \
		"$(debian_mirror)" || die "debootstrap of the trixie root failed"
	rm -rf "$TRIXIE_ROOT.part/var/cache/apt/archives/"*.deb
	echo "$want" >"$TRIXIE_ROOT.part/.kstats-root"
	mv "$TRIXIE_ROOT.part" "$TRIXIE_ROOT"
}
root_has_headers() {
	[[ -e $TRIXIE_ROOT/.kstats-root ]] &&
		[[ $(in_root "$TRIXIE_ROOT" dpkg-query -W -f='${db:Status-Abbrev}${Version}' \
			"$(hdr_pkg "$1")" 2>/dev/null) == "ii $2" ]]
}
# The headers, with what they need (kbuild, gcc-14-for-host...), resolved by the host's apt against
# the root's dpkg status and installed there with dpkg.
root_headers() {
	root_fill
	root_has_headers "$abi" "$ver" && return 0
	local dl=$TRIXIE_ROOT/var/cache/kstats-debs
	say "installing $(hdr_pkg "$abi")=$ver in the build root"
	rm -rf "$dl"
	mkdir -p "$dl/partial"
	quiet reg_get -o "Dir::State::status=$TRIXIE_ROOT/var/lib/dpkg/status" -o "Dir::Cache::archives=$dl" \
		-o APT::Install-Recommends=false install -y -d "$(hdr_pkg "$abi")=$ver" ||
		die "cannot download $(hdr_pkg "$abi")=$ver"
	quiet in_root "$TRIXIE_ROOT" /bin/sh -c 'dpkg -i /var/cache/kstats-debs/*.deb' ||
		die "cannot install $(hdr_pkg "$abi")=$ver in $TRIXIE_ROOT"
	rm -rf "$dl"
}

# Debian 13's bpftrace (>= 0.21: hist(n, k)) in the same root, the 7.x lanes' oracle at frac_bits k
# (tests/guest/trace_expr_bpf.c runs it chrooted there in the guest): the current trixie package and
# what it needs (~59 MB of .debs, mostly LLVM), installed once like the headers; the stamp holds its
# version.
root_bpftrace() {
	local stamp=$TRIXIE_ROOT/.kstats-bpftrace dl=$TRIXIE_ROOT/var/cache/kstats-debs
	[[ -s $stamp && -x $TRIXIE_ROOT/usr/bin/bpftrace ]] && return 0
	say "installing bpftrace in the build root (once)"
	rm -rf "$dl"
	mkdir -p "$dl/partial"
	quiet reg_get -o "Dir::State::status=$TRIXIE_ROOT/var/lib/dpkg/status" -o "Dir::Cache::archives=$dl" \
		-o APT::Install-Recommends=false install -y -d bpftrace ||
		{ reg_update && quiet reg_get -o "Dir::State::status=$TRIXIE_ROOT/var/lib/dpkg/status" \
			-o "Dir::Cache::archives=$dl" -o APT::Install-Recommends=false install -y -d bpftrace; } ||
		die "cannot download bpftrace for the trixie root"
	quiet in_root "$TRIXIE_ROOT" /bin/sh -c 'dpkg -i /var/cache/kstats-debs/*.deb' ||
		die "cannot install bpftrace in $TRIXIE_ROOT"
	rm -rf "$dl"
	in_root "$TRIXIE_ROOT" dpkg-query -W -f='${Version}\n' bpftrace >"$stamp"
}

# headers_ready ABI VERSION: the build dir for that kernel is there.
headers_ready() {
	if [[ $dist == trixie ]]; then
		root_has_headers "$1" "$2"
	else
		[[ $(dpkg-query -W -f='${db:Status-Abbrev}${Version}' "$(hdr_pkg "$1")" 2>/dev/null) == "ii $2" ]]
	fi
}
# cached ABI VERSION: image and headers are both there: nothing to ask the registry.
cached() { [[ -e $CACHE/stock/${1}_$2/.done ]] && headers_ready "$1" "$2"; }

# Where the unpacked kernel's lib/modules is: 7.x installs its modules under /usr/lib/modules.
modbase() { if [[ -d $top/root/usr/lib/modules/$abi ]]; then echo "$top/root/usr"; else echo "$top/root"; fi; }

# The image is only unpacked into the cache (never installed), so the host's own boot setup is left
# alone.
stock_fill() {
	[[ -e $top/.done ]] && return 0
	need_pkgs kmod
	rm -rf "$top/root"
	mkdir -p "$top/dl"
	local pkg deb
	for pkg in $(img_pkgs "$abi"); do
		# A .deb already in dl/ is reused if it has the version (lets a machine be pre-seeded).
		deb=$(find "$top/dl" -name "${pkg}_*.deb" | head -n1)
		if [[ -z $deb || $(dpkg-deb -f "$deb" Version) != "$ver" ]]; then
			say "downloading $pkg=$ver"
			rm -f "$top/dl/${pkg}_"*.deb
			(cd "$top/dl" && quiet reg_get download "$pkg=$ver") ||
				{ reg_update && (cd "$top/dl" && quiet reg_get download "$pkg=$ver"); } ||
				die "cannot download $pkg=$ver"
			deb=$(find "$top/dl" -name "${pkg}_*.deb" | head -n1)
		fi
		dpkg-deb -x "$deb" "$top/root"
	done
	# The packages ship no modules.dep (their postinst runs depmod): make one for modprobe/insmod
	# order.
	depmod -b "$(modbase)" "$abi"
	rm -f "$top/dl/"*.deb
	touch "$top/.done"
}

# Debian's 6.12 headers for Debian 12 depend on their kernel image (linux-image-ABI, or its -unsigned
# twin). Installed for them, the image would land in this machine's /boot and /lib/modules, with
# initramfs-tools (the image depends on it), an initramfs made, and the boot loader's menu changed,
# while the lanes boot it from the cache (stock_fill). A stub package that provides linux-image-ABI
# stands in for it (the dependency names the version: so does the stub's Provides): made here,
# installed once per kernel beside the headers, and removed with them (apt purge linux-headers-ABI
# kstats-stub-linux-image-ABI).
image_stub() {
	local img=linux-image-$abi stub=kstats-stub-linux-image-$abi dir p
	reg_cache depends "$(hdr_pkg "$abi")=$ver" 2>/dev/null | awk '/Depends:/ { print $2 }' |
		grep -qxF -e "$img" -e "$img-unsigned" || return 0
	for p in "$img" "$img-unsigned" "$stub"; do
		[[ $(dpkg-query -W -f='${db:Status-Abbrev}' "$p" 2>/dev/null) == "ii "* ]] && return 0
	done
	say "installing $stub (stands in for $img: the headers depend on it)"
	dir=$(mktemp -d)
	mkdir "$dir/pkg" "$dir/pkg/DEBIAN"
	cat >"$dir/pkg/DEBIAN/control" <<-EOF
		Package: $stub
		Version: $ver
		Architecture: all
		Maintainer: kstats tests <root@localhost>
		Section: kernel
		Priority: optional
		Provides: $img (= $ver)
		Description: stands in for $img in kstats' tests
		 kstats' make check builds against $(hdr_pkg "$abi") and boots that kernel
		 from its own cache. The headers depend on the image: this package
		 satisfies that, so the image is not installed on this machine.
	EOF
	dpkg-deb --root-owner-group --build "$dir/pkg" "$dir/$stub.deb" >/dev/null ||
		die "could not build $stub"
	with_lock "$CACHE/apt.lock" apt_install "$dir/$stub.deb" || die "could not install $stub"
	rm -rf "$dir"
}

# KDIR is only useful with a compiler (a CI cache may restore the debug tree on a bare machine).
need_pkgs make gcc
KROOT=
if [[ $lane == debug ]]; then
	tree=$("$VM_DIR/debug-build.sh")
	KVER=$(cat "$tree/include/config/kernel.release")
	KDIR=$tree
	VMLINUZ=$tree/arch/x86/boot/bzImage
	MODDIR=
else
	v=${pin}_ABI abi=${!v}
	v=${pin}_VERSION ver=${!v}
	v=${pin}_LINE line=${!v}
	v=${pin}_DIST dist=${!v}
	[[ $dist == bookworm || $dist == trixie ]] || die "$pin: DIST must be bookworm or trixie"
	pin_abi=$abi pin_ver=$ver
	# What the last resolution of this pin gave, kept so that a pin gone from the registry does
	# not cost a registry update on every run.
	mkdir -p "$CACHE/stock"
	memo=$CACHE/stock/$lane.resolved
	if cached "$abi" "$ver"; then
		:
	elif [[ -s $memo ]] && read -r pa pv ra rv <"$memo" && [[ $pa == "$abi" && $pv == "$ver" ]] &&
		cached "$ra" "$rv"; then
		abi=$ra ver=$rv
	else
		if [[ $dist == trixie ]]; then
			res=$(with_lock "$TRIXIE_APT.lock" resolve)
		else
			res=$(resolve)
		fi
		read -r abi ver <<<"$res"
		echo "$pin_abi $pin_ver $abi $ver" >"$memo"
	fi
	[[ $abi == "$pin_abi" && $ver == "$pin_ver" ]] ||
		say "pinned $pin_abi $pin_ver not in the registry; using $abi $ver"
	if [[ $dist == trixie ]]; then
		with_lock "$TRIXIE_ROOT.lock" root_headers
		with_lock "$TRIXIE_ROOT.lock" root_bpftrace
		KROOT=$TRIXIE_ROOT
		KDIR=$TRIXIE_ROOT/usr/src/$(hdr_pkg "$abi")
	else
		headers_ready "$abi" "$ver" || image_stub
		need_pkgs "$(hdr_pkg "$abi")=$ver"
		KDIR=/lib/modules/$abi/build
	fi
	top=$CACHE/stock/${abi}_$ver
	with_lock "$top.lock" stock_fill
	KVER=$abi
	MODDIR=$(modbase)/lib/modules/$abi
	VMLINUZ=$top/root/boot/vmlinuz-$abi
	[[ -e $VMLINUZ ]] || VMLINUZ=$MODDIR/vmlinuz
	[[ -e $KDIR/Makefile ]] || die "$KDIR is not a kernel build dir"
fi
[[ -s $VMLINUZ ]] || die "no kernel image at $VMLINUZ"
printf 'KVER=%q\nKDIR=%q\nKROOT=%q\nVMLINUZ=%q\nMODDIR=%q\n' "$KVER" "$KDIR" "$KROOT" "$VMLINUZ" "$MODDIR"

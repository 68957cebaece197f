#!/bin/bash
# Build (once) the kstats debug kernel: Debian's linux-source pinned in kernels.conf, tinyconfig +
# debug.config (KASAN, UBSAN, lockdep, kmemleak...). Prints the finished tree on stdout; that tree is
# both the kernel (arch/x86/boot/bzImage) and the KDIR for external modules (Module.symvers).
# --deps: only install what the build needs, when it is not cached.
# The result is cached under a key that changes with the fragment's settings, the source version
# and this script, so editing any of them triggers a rebuild and nothing else does.
set -euo pipefail
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

# The fragment's comments are not part of the key ("# CONFIG_X is not set" is).
key=$( { sed '/^# CONFIG_/!{/^#/d}' "$VM_DIR/debug.config"; cat "${BASH_SOURCE[0]}"
	echo "$DEBUG_SRC_PKG=$DEBUG_SRC_VERSION"; } | sha256sum | cut -c1-16)
top=$CACHE/debug/$key
tree=$top/linux

# Every "CONFIG_X=..." line of the fragment must be in the final .config, and every
# "# CONFIG_X is not set" must not be =y: merge_config/olddefconfig silently drop options whose
# dependencies are missing, and a debug kernel quietly without KASAN would prove nothing.
check_config() {
	local line sym val got bad=()
	while IFS= read -r line; do
		if [[ $line =~ ^(CONFIG_[A-Za-z0-9_]+)=(.*)$ ]]; then
			sym=${BASH_REMATCH[1]} val=${BASH_REMATCH[2]}
			got=$(grep -m1 "^$sym=" .config | cut -d= -f2- || true)
			[[ $got == "$val" ]] || bad+=("$sym: wanted $val, got ${got:-unset}")
		elif [[ $line =~ ^#\ (CONFIG_[A-Za-z0-9_]+)\ is\ not\ set ]]; then
			sym=${BASH_REMATCH[1]}
			! grep -q "^$sym=y" .config || bad+=("$sym: wanted unset, got y")
		fi
	done <"$VM_DIR/debug.config"
	if ((${#bad[@]})); then
		printf 'kstats-vm: debug.config option did not stick: %s\n' "${bad[@]}" >&2
		die "fix debug.config (a dependency is probably missing); see $tree/.config"
	fi
}

# All the build needs: make check installs them (--deps) and starts the
# build before the rest of its dependencies (openssl: the module signing key).
build_deps() {
	[[ -e $top/.done ]] && return 0
	need_pkgs "$DEBUG_SRC_PKG=$DEBUG_SRC_VERSION" gcc make libc6-dev flex bison bc perl \
		libelf-dev libssl-dev openssl xz-utils
}

# tests/style.sh's checkpatch comes from the same tarball: it is kept from
# this unpacking (under style.sh's lock, which make check's style step then
# waits for), so that the step does not decompress the tarball a second time.
unpack_source() {
	local tools=$CACHE/checkpatch-$DEBUG_SRC_VERSION tmp
	tar -C "$top" -xf "/usr/src/$DEBUG_SRC_PKG.tar.xz"
	[[ -x $tools/scripts/checkpatch.pl ]] && return 0
	tmp=$(mktemp -d "$CACHE/checkpatch.XXXXXX")
	mkdir "$tmp/scripts"
	cp "$top/$DEBUG_SRC_PKG"/scripts/{checkpatch.pl,spelling.txt,const_structs.checkpatch,kernel-doc} \
		"$tmp/scripts/"
	mv "$tmp" "$tools"
}

build() {
	[[ -e $top/.done ]] && return 0
	build_deps
	# No stamp: whatever is there is a partial build from an interrupted run. Start over.
	rm -rf "$top"
	mkdir -p "$top"
	say "building the debug kernel ($DEBUG_SRC_PKG $DEBUG_SRC_VERSION) in $tree; ~7 min on 2 cores"
	with_lock "$CACHE/checkpatch.lock" unpack_source
	mv "$top/$DEBUG_SRC_PKG" "$tree"
	cd "$tree"
	local log=$top/build.log start=$SECONDS
	{
		make tinyconfig
		scripts/kconfig/merge_config.sh -m .config "$VM_DIR/debug.config"
		make olddefconfig
	} >"$log" 2>&1 || { tail -n 30 "$log" >&2; die "configuring failed, log: $log"; }
	check_config
	# bzImage for the guest; modules so modpost writes Module.symvers, which external module
	# builds (make -C $KDIR M=...) need along with the prepared tree.
	# -pipe: cc1 hands as its output through a pipe, not a file in /tmp (a few % of the build).
	make -j"$(nproc)" KCFLAGS=-pipe bzImage modules >>"$log" 2>&1 ||
		{ tail -n 40 "$log" >&2; die "debug kernel build failed, log: $log"; }
	[[ -s Module.symvers && -s arch/x86/boot/bzImage ]] || die "build left no bzImage/Module.symvers"
	say "debug kernel built in $((SECONDS - start)) s"
	# The stamp goes last: only a complete build is ever reused.
	touch "$top/.done"
}

if [[ ${1:-} == --deps ]]; then
	build_deps
	exit
fi
with_lock "$CACHE/debug/$key.lock" build
echo "$tree"

# Shared helpers for the tests/vm scripts. Source it; it does nothing on its own.
# shellcheck shell=bash

VM_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
REPO_ROOT=$(cd "$VM_DIR/../.." && pwd)
# Kernel downloads and the debug build are big and slow to make: keep them outside the repo.
CACHE=${KSTATS_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/kstats}
# shellcheck source=kernels.conf
. "$VM_DIR/kernels.conf"
# KSTATS_PIN_NAME overrides NAME of kernels.conf for one run (KSTATS_PIN_K61_VERSION=...).
for _pin in $(sed -n 's/^\([A-Z0-9_]*\)=.*/\1/p' "$VM_DIR/kernels.conf"); do
	_over=KSTATS_PIN_$_pin
	[[ -n ${!_over:-} ]] && printf -v "$_pin" '%s' "${!_over}"
done
unset _pin _over
# Every VM lane, in the order make check lists them.
VM_LANES="6.1 6.12 6.12-rt 7.3 7.3-rt debug"
# The Debian 13 root the 7.x lanes build their modules in, and the private apt configuration that
# reaches trixie and trixie-backports for them (the host's own sources are left alone).
TRIXIE_ROOT=$CACHE/trixie-root
TRIXIE_APT=$CACHE/trixie-apt
TRIXIE_APT_OPTS=(-o "Dir::Etc::sourcelist=$TRIXIE_APT/sources.list" -o Dir::Etc::sourceparts=-
	-o "Dir::State=$TRIXIE_APT/state" -o "Dir::State::Lists=$TRIXIE_APT/lists"
	-o Dir::State::status=/dev/null -o "Dir::Cache=$TRIXIE_APT/cache" -o APT::Get::List-Cleanup=0)

# Progress and errors go to stderr: stdout of kernel.sh is eval'ed, stdout of run.sh is the guest script's.
say() { echo "kstats-vm: $*" >&2; }
die() { echo "kstats-vm: ERROR: $*" >&2; exit 1; }

# Run a command silently; show its output only if it fails.
quiet() {
	local out
	if ! out=$("$@" 2>&1); then
		printf '%s\n' "$out" >&2
		return 1
	fi
}

# need_pkgs PKG[=VERSION]...: install whatever is missing or at another version.
# CI machines start fresh, so every tool the scripts use is requested through here.
need_pkgs() {
	local p name want have missing=()
	for p in "$@"; do
		name=${p%%=*} want=
		[[ $p == *=* ]] && want=${p#*=}
		have=$(dpkg-query -W -f='${db:Status-Abbrev}${Version}' "$name" 2>/dev/null || true)
		if [[ $have != "ii "* || ( -n $want && ${have#ii } != "$want" ) ]]; then
			missing+=("$p")
		fi
	done
	((${#missing[@]})) || return 0
	[[ $(id -u) == 0 ]] || die "missing packages (need root to install): ${missing[*]}"
	say "installing ${missing[*]}"
	# Steps of `make check` run side by side and may install at once: one
	# apt-get at a time here, and apt waits for any other holder of its lock.
	with_lock "$CACHE/apt.lock" apt_install "${missing[@]}" || die "could not install: ${missing[*]}"
}
apt_install() {
	export DEBIAN_FRONTEND=noninteractive
	local apt=(apt-get -q -o DPkg::Lock::Timeout=600)
	local install=("${apt[@]}" install -y --no-install-recommends "$@")
	# A fresh machine may have empty package lists: update only when the first try fails.
	"${install[@]}" >/dev/null 2>&1 || { quiet "${apt[@]}" update && quiet "${install[@]}"; }
}

# with_lock FILE CMD...: serialise cache fills, so parallel lanes never build the same thing twice.
with_lock() {
	local lock=$1
	shift
	mkdir -p "$(dirname "$lock")"
	(
		flock -n 9 || { say "waiting for $lock: another run is filling the cache"; flock 9; }
		"$@"
	) 9>"$lock"
}

# The Debian mirror the host's apt reaches bookworm through: the trixie lanes use the same one
# (KSTATS_DEBIAN_MIRROR overrides it).
debian_mirror() {
	local m=${KSTATS_DEBIAN_MIRROR:-}
	[[ -n $m ]] || m=$(apt-get indextargets --format '$(URI)' 'Created-By: Packages' 2>/dev/null |
		sed -n 's,/dists/bookworm/main/binary-[a-z0-9]*/Packages$,,p' | head -n1)
	[[ -n $m ]] || die "no bookworm source in the host's apt configuration to take the mirror from; set KSTATS_DEBIAN_MIRROR"
	echo "$m"
}

# in_root ROOT [--bind DIR]... CMD...: run CMD chrooted in ROOT with /proc mounted (objtool reads
# it) and each DIR bound at its own path, in a private mount namespace: nothing stays mounted.
# Inside a chroot whose / is no mount point (make check-fresh), unshare cannot make / private
# (EINVAL): there the mounts keep the propagation they have (check-fresh's namespace is private).
in_root() {
	local propagation=private
	mountpoint -q / || propagation=unchanged
	unshare --mount --propagation "$propagation" -- /bin/bash -c '
		r=$1
		shift
		mount -t proc proc "$r/proc" || exit 1
		while [[ $1 == --bind ]]; do
			mkdir -p "$r$2" && mount --bind "$2" "$r$2" || exit 1
			shift 2
		done
		exec chroot "$r" /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/root \
			LANG=C.UTF-8 "$@"' _ "$@"
}

# kmake DIR MAKE-ARGS...: make against the lane's kernel (KDIR and KROOT from kernel.sh): on the
# host, or, when the lane builds in a root (KROOT), chrooted there with DIR (which holds the M= dir
# and any KBUILD_EXTRA_SYMBOLS) bound at the same path, so paths read the same on both sides.
kmake() {
	local dir=$1
	shift
	if [[ -z ${KROOT:-} ]]; then
		make -C "$KDIR" "$@"
	else
		in_root "$KROOT" --bind "$dir" make -C "${KDIR#"$KROOT"}" "$@"
	fi
}

# guest_programs DIR: the guest programs (tests/guest), which do not depend on
# the kernel, built once into build/guest for every lane (locked: make check's
# chains build lanes side by side), then copied into DIR.
guest_programs() {
	mkdir -p "$REPO_ROOT/build/guest"
	flock "$REPO_ROOT/build/guest.lock" make -s -C "$REPO_ROOT/tests/guest" OUT="$REPO_ROOT/build/guest"
	cp -p "$REPO_ROOT/build/guest/"* "$1/"
}

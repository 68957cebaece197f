# Shared helpers for the tests/vm scripts. Source it; it does nothing on its own.
# shellcheck shell=bash

VM_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
REPO_ROOT=$(cd "$VM_DIR/../.." && pwd)
# Kernel downloads and the debug build are big and slow to make: keep them outside the repo.
CACHE=${KSTATS_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/kstats}
# shellcheck source=kernels.conf
. "$VM_DIR/kernels.conf"

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

#!/usr/bin/env bash
# `make check-fresh`: `make check` as on a brand-new Debian 12 machine.
# A minimal root (debootstrap --variant=minbase bookworm, plus git and make), made
# once and cached in $KSTATS_CACHE/fresh/bookworm-base, is copied afresh for
# each run into $KSTATS_CACHE/fresh/run; the repo's HEAD (committed work
# only) is cloned into it with its own git, and `make check` runs there as
# root with CI=true, in a mount namespace of its own (/proc, /sys, /dev,
# /dev/pts and a fresh /dev/shm mounted for it, unmounted at the end).
# Nothing is reused from this machine: no installed package, no
# ~/.cache/kstats (the kernels are downloaded, the debug kernel is built);
# only its network settings: resolv.conf and its local CAs
# (/usr/local/share/ca-certificates).
# Then it prints check's summary line and the total time; the output goes to
# build/check-fresh/run.log, check's step logs to build/check-fresh/check/.
# The root stays in $KSTATS_CACHE/fresh/run until the next run.
# As root (it installs debootstrap when missing). Takes as long as make check
# does on a machine with nothing cached, plus a few minutes.
# Environment:
#   KSTATS_FRESH_CMD="..."     run this in the root instead of `make check`, in
#                              the clone as root (a debugging aid, e.g.
#                              "tests/deps.sh && make -s -C tests/unit")
#   KSTATS_FRESH_KEEP_CACHE=1  keep the root's kernel cache (~/.cache/kstats
#                              there) and downloaded .debs between runs, in
#                              $KSTATS_CACHE/fresh/keep: faster, not from scratch
# Usage: make check-fresh   (or tests/check-fresh.sh)
set -Eeuo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
self=$top/tests/check-fresh.sh
root_paths=PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin
# No silent exit: a command that fails says so (its line), last.
trap 'echo "check-fresh: FAIL: line $LINENO: \`$BASH_COMMAND\` exited with status $?" >&2' ERR

# ---- inside the mount namespace (unshare below): mounts, clone, the command ----
if [[ ${1:-} == --in-namespace ]]; then
	w=$2 sha=$3 gitdir=$4 keep=$5
	mounted=()
	# shellcheck disable=SC2317 # called by the trap
	unmount() {
		local i
		for ((i = ${#mounted[@]} - 1; i >= 0; i--)); do
			umount -R -l "${mounted[i]}" 2>/dev/null ||
				echo "check-fresh: could not unmount ${mounted[i]}" >&2
		done
	}
	trap unmount EXIT
	mnt() {	# mnt DIR MOUNT-ARGS...
		mkdir -p "$1"
		mount "${@:2}" "$1"
		mounted+=("$1")
	}
	mnt "$w/proc" -t proc proc
	mnt "$w/sys" --rbind /sys
	mnt "$w/dev" --rbind /dev
	# /dev's /dev/shm came along (this namespace's copy): off, so that the
	# fresh one is the only mount there (Chromium's launcher reads its size
	# with findmnt, and gets one number per mount stacked there).
	while mountpoint -q "$w/dev/shm"; do umount -l "$w/dev/shm" || break; done
	mnt "$w/dev/shm" -t tmpfs -o mode=1777,nosuid,nodev tmpfs
	mnt "$w/mnt/kstats.git" --bind -o ro "$gitdir"
	if [[ -n $keep ]]; then
		mnt "$w/root/.cache/kstats" --bind "$keep/kstats"
		mnt "$w/var/cache/apt/archives" --bind "$keep/apt-archives"
	fi
	# A bare root: only what env -i passes, HOME and PATH as a root login has.
	rc=0
	# shellcheck disable=SC2016 # expanded by the root's bash
	chroot "$w" /usr/bin/env -i HOME=/root "$root_paths" LANG=C.UTF-8 TERM=dumb CI=true \
		SHA="$sha" CMD="${KSTATS_FRESH_CMD:-make check}" /bin/bash -c '
		set -e
		git clone -q /mnt/kstats.git /root/kstats
		cd /root/kstats
		git checkout -q --detach "$SHA"
		echo "check-fresh: in the fresh root: $(. /etc/os-release && echo "$PRETTY_NAME"), $(dpkg-query -W -f=. | wc -c) packages, $(git log --oneline -1)"
		echo "check-fresh: running: $CMD"
		exec bash -c "$CMD"' || rc=$?
	exit "$rc"
fi

# ---- on the host ----
. "$top/tests/vm/lib.sh"
say() { echo "check-fresh: $*" >&2; }
die() { echo "check-fresh: FAIL: $*" >&2; exit 1; }
[[ $(id -u) == 0 ]] || die "check-fresh needs root (debootstrap, chroot, and make check installs packages)"
fresh=$CACHE/fresh
base=$fresh/bookworm-base
work=$fresh/run
out=$top/build/check-fresh
log=$out/run.log
need_pkgs debootstrap debian-archive-keyring

# The Debian mirror this machine's apt uses (deb822 .sources or one-line
# .list), else deb.debian.org: URI of the first entry for SUITE.
mirror_for() {
	python3 - "$1" /etc/apt/sources.list /etc/apt/sources.list.d/* <<'PY'
import re, sys
suite, files = sys.argv[1], sys.argv[2:]
for f in files:
    try:
        text = open(f).read()
    except OSError:
        continue
    if f.endswith(".sources"):
        for stanza in re.split(r"\n\s*\n", text):
            fields = dict(re.findall(r"^([A-Za-z-]+):\s*(.*)$", stanza, re.M))
            if "deb" in fields.get("Types", "").split() and suite in fields.get("Suites", "").split():
                print(fields["URIs"].split()[0]); sys.exit()
    else:
        for line in text.splitlines():
            w = re.sub(r"\[[^]]*\]", "", line.split("#")[0]).split()
            if len(w) >= 3 and w[0] == "deb" and w[2] == suite:
                print(w[1]); sys.exit()
PY
}
mirror=$(mirror_for bookworm)
mirror=${mirror:-http://deb.debian.org/debian}
security=$(mirror_for bookworm-security)
security=${security:-http://deb.debian.org/debian-security}

# The base root, made once: what debootstrap's minbase installs, git (to
# clone) and make (the entry point itself: every machine that runs
# `make check` has it; everything else the project installs).
# Its apt sources are those of a Debian 12 installation (main, updates,
# security), from this machine's mirrors.
# shellcheck disable=SC2317 # called by with_lock
make_base() {
	[[ -e $base/.kstats-fresh-base-$includes ]] && return 0
	local t0=$SECONDS
	rm -rf "$base.part"
	say "debootstrap --variant=minbase --include=$includes bookworm from $mirror (once; cached in $base)"
	debootstrap --variant=minbase --include="$includes" bookworm "$base.part" "$mirror" \
		>"$fresh/debootstrap.log" 2>&1 ||
		{ tail -n 30 "$fresh/debootstrap.log" >&2; die "debootstrap failed ($fresh/debootstrap.log)"; }
	printf 'deb %s bookworm main\ndeb %s bookworm-updates main\ndeb %s bookworm-security main\n' \
		"$mirror" "$mirror" "$security" >"$base.part/etc/apt/sources.list"
	chroot "$base.part" apt-get clean
	date -u +"made %F %T UTC from $mirror" >"$base.part/.kstats-fresh-base-$includes"
	rm -rf "$base"
	mv "$base.part" "$base"
	say "base root made in $((SECONDS - t0)) s"
}
includes=git,make
mkdir -p "$fresh"
with_lock "$fresh/base.lock" make_base

sha=$(git -C "$top" rev-parse HEAD)
gitdir=$(cd "$top" && realpath "$(git rev-parse --git-common-dir)")
[[ -z $(git -C "$top" status --porcelain --untracked-files=no) ]] ||
	say "note: uncommitted changes are not tested: the root gets HEAD ($sha)"
keep=
if [[ ${KSTATS_FRESH_KEEP_CACHE:-0} == 1 ]]; then
	keep=$fresh/keep
	mkdir -p "$keep/kstats" "$keep/apt-archives/partial"
	say "KSTATS_FRESH_KEEP_CACHE=1: the root reuses $keep (kernels, .debs): not from scratch"
fi

# One run at a time: the root is removed and copied afresh.
exec 9>"$fresh/run.lock"
flock -n 9 || { say "waiting for another check-fresh run"; flock 9; }
t0=$SECONDS
# A mount namespace that ended took its mounts along; one still alive (a
# stray process) would keep them: never delete through a mount.
if grep -qF " $work/" /proc/self/mountinfo; then
	die "something is still mounted under $work (see /proc/self/mountinfo)"
fi
rm -rf "$work"
cp -a "$base" "$work"
cp -L /etc/resolv.conf "$work/etc/resolv.conf"
# This machine's network, as resolv.conf is: the CAs it adds (e.g. a TLS
# inspecting proxy's, without which https fails: the npm registry fetch) are
# trusted in the root too, once tests/deps.sh installs ca-certificates.
if compgen -G "/usr/local/share/ca-certificates/*" >/dev/null; then
	mkdir -p "$work/usr/local/share/ca-certificates"
	cp -a /usr/local/share/ca-certificates/. "$work/usr/local/share/ca-certificates/"
	cas=(/usr/local/share/ca-certificates/*)
	say "the root trusts this machine's local CAs too: ${cas[*]##*/}"
fi
rm -rf "$out"
mkdir -p "$out"
say "root copied to $work; running ${KSTATS_FRESH_CMD:-make check} there (output: $log)"
rc=0
unshare --mount --propagation private -- "$self" --in-namespace "$work" "$sha" "$gitdir" "$keep" \
	2>&1 | tee "$log" || rc=$?
if [[ -d $work/root/kstats/build/check ]]; then
	cp -a "$work/root/kstats/build/check" "$out/check"
fi
echo
summary=$(grep -E '^[0-9]+ passed, [0-9]+ failed$' "$log" | tail -n1) || summary="no summary line of make check in the output"
echo "=== check-fresh: $summary"
echo "check-fresh: exit status $rc, total $((SECONDS - t0)) s (log $log; the root stays in $work)"
exit "$rc"

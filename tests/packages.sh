#!/usr/bin/env bash
# The packages, end to end, on this machine (as root: it installs them and
# removes them again; it refuses to start if kstats packages are installed):
#  0. what the run needs first: tests/deps.sh;
#  1. dpkg-buildpackage -b from a clean copy (make deb); lintian: no error,
#     warning, info or pedantic tag;
#  2. make rpm: rpmbuild -ba on the spec; rpm -qlp lists the expected files;
#     then each lane's kernel and headers (tests/vm/kernel.sh), and only then
#     the picture of the file system;
#  3. DKMS straight from a clone: dkms add DIR, dkms install kstats/VERSION;
#  4. apt install of both .debs, then dkms install -k for each stock lane's
#     kernel: the module, its version, depmod, Module.symvers and headers;
#  5. third-party modules built against the DKMS install alone, and the 6.1
#     VM booted with the DKMS-built kstats.ko and the installed kstatsctl:
#     udev rule and group kstats, then the CLI suite
#     (tests/guest/package-tests.sh);
#  6. upgrade to version N+1: every kernel that had N gets N+1;
#  7. apt purge: every file and directory the packages, their maintainer
#     scripts and DKMS made (dpkg -L of each version, /var/lib/dkms/kstats,
#     /usr/src/kstats-*, updates/dkms/kstats.ko*, /var/lib/kstats-dkms) is
#     gone, depmod forgot kstats, and no new file named kstats is left in
#     /etc /usr /var /opt (compared with the picture taken before step 3).
# A failure says why on the last line of the output (FAIL: ...), also when a
# command fails unexpectedly (its line and text).
# Usage: tests/packages.sh
set -Eeuo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"
# shellcheck source=vm/lib.sh
. tests/vm/lib.sh
# Two kernels of different lines and flavours (make check's time: each is
# two DKMS builds, the install's and the upgrade's).
lanes=(6.1 6.12-rt)
out=$top/build/packages
arch=$(uname -m)
# Why the run stopped: fail's message or the command that failed (ERR),
# printed last by on_exit. In a subshell fail's message would be lost: said
# at once there.
why=
fail() {
	why="$*"
	[[ $BASHPID == "$$" ]] || echo "FAIL: $why" >&2
	exit 1
}
pass() { echo "ok - $*"; }
trap 'why="line $LINENO: \`$BASH_COMMAND\` exited with status $?"' ERR
trap 'why="killed by SIGINT"; exit 130' INT
trap 'why="killed by SIGTERM"; exit 143' TERM
installed=0 made_running=0 running='' version=''

on_exit() {
	local rc=$?
	set +e
	trap - ERR
	if ((installed)); then
		apt-get purge -y -qq kstats-dkms kstatsctl >"$out/cleanup.log" 2>&1 ||
			echo "cleanup: apt purge kstats-dkms kstatsctl failed ($out/cleanup.log)" >&2
	fi
	((made_running)) && rm -rf "$running"
	if [[ -n $version ]]; then
		[[ -e /var/lib/dkms/kstats ]] && dkms remove kstats --all >/dev/null 2>&1
		rm -rf "/usr/src/kstats-$version" "/usr/src/kstats-$version.1"
	fi
	if ((rc)); then
		echo "FAIL: tests/packages.sh: ${why:-exited with status $rc} (after $SECONDS s)" >&2
	fi
	exit "$rc"
}
trap on_exit EXIT

[ "$(id -u)" -eq 0 ] || fail "needs root: it installs and purges the packages"
if [[ $(dpkg-query -W -f='${Status}\n' kstats-dkms kstatsctl 2>/dev/null) == *installed* ]] ||
	[ -e /var/lib/dkms/kstats ]; then
	fail "kstats is installed on this machine (packages or DKMS); this test installs and" \
		"purges it: remove it first (apt purge kstats-dkms kstatsctl; dkms remove kstats --all)"
fi
version=$(make -s version)
rm -rf "$out"
mkdir -p "$out"


# ---- 0. the tools (a bare machine has none) ----
tests/deps.sh || fail "tests/deps.sh could not install the dependencies (above)"

# ---- 1. .debs and lintian ----
make -s deb >"$out/deb.log" 2>&1 || { cat "$out/deb.log"; fail "make deb"; }
dkms_deb=$top/build/deb/kstats-dkms_${version}_all.deb
ctl_deb=$top/build/deb/kstatsctl_${version}_$(dpkg --print-architecture).deb
{ [ -f "$dkms_deb" ] && [ -f "$ctl_deb" ]; } || fail "make deb did not make $dkms_deb and $ctl_deb"
dpkg -c "$ctl_deb" >"$out/deb-ctl.txt"
dpkg -c "$dkms_deb" >"$out/deb-dkms.txt"
grep -q ' ./usr/sbin/kstatsctl$' "$out/deb-ctl.txt" || fail "kstatsctl .deb lacks /usr/sbin/kstatsctl"
grep -q '/usr/src/' "$out/deb-ctl.txt" && fail "kstatsctl .deb carries /usr/src"
# libkmod, libbpf, libelf and zlib are opened with dlopen() (cli/kmod_dl.c,
# cli/libs_dl.c): not linked, so the packages must name them themselves.
for dep in libkmod2 libbpf1 libelf1 zlib1g; do
	dpkg-deb -f "$ctl_deb" Depends | grep -qw "$dep" || fail "kstatsctl .deb does not depend on $dep"
done
for f in "usr/src/kstats-$version/dkms.conf" "usr/src/kstats-$version/module/main.c" \
	lib/udev/rules.d/60-kstats.rules usr/share/man/man4/kstats.4.gz; do
	grep -q " ./$f\$" "$out/deb-dkms.txt" || fail "kstats-dkms .deb lacks /$f"
done
pass "dpkg-buildpackage -us -uc -b: kstats-dkms_${version}_all.deb, kstatsctl_${version}"
# Every level down to pedantic and classification (which lists the fields
# it read: proof that lintian looked at the packages).
lintian --allow-root --pedantic --display-info -L '>=classification' \
	"$top"/build/deb/*.changes >"$out/lintian.log" 2>&1 || true
grep -q '^C: kstats' "$out/lintian.log" || { cat "$out/lintian.log"; fail "lintian did not run"; }
if grep -E '^[EWIPX]: ' "$out/lintian.log"; then
	fail "lintian has something to say about the packages (above)"
fi
pass "lintian: no error, warning, info, pedantic or experimental tag"

# ---- 2. RPMs ----
# --nodeps: the build dependencies are Debian packages, not RPMs.
make -s rpm RPMBUILD_FLAGS=--nodeps >"$out/rpm.log" 2>&1 || { tail -n 40 "$out/rpm.log"; fail "make rpm"; }
rpm_dkms=$top/build/rpm/RPMS/noarch/kstats-dkms-$version-1.noarch.rpm
rpm_ctl=$top/build/rpm/RPMS/$arch/kstatsctl-$version-1.$arch.rpm
rpm -qlp "$rpm_dkms" >"$out/rpm-dkms.txt"
rpm -qlp "$rpm_ctl" >"$out/rpm-ctl.txt"
for f in "/usr/src/kstats-$version/dkms.conf" "/usr/src/kstats-$version/module/main.c" \
	"/usr/src/kstats-$version/packaging/dkms-post-build" /usr/lib/udev/rules.d/60-kstats.rules \
	/usr/share/man/man4/kstats.4; do
	grep -qxF "$f" "$out/rpm-dkms.txt" || fail "kstats-dkms RPM lacks $f"
done
for f in /usr/sbin/kstatsctl /usr/share/man/man8/kstatsctl.8 \
	/usr/share/bash-completion/completions/kstatsctl /usr/lib/systemd/system/kstats-export.service; do
	grep -qxF "$f" "$out/rpm-ctl.txt" || fail "kstatsctl RPM lacks $f"
done
grep -qx "PACKAGE_VERSION=\"$version\"" <(rpm2cpio "$rpm_dkms" |
	cpio -i --quiet --to-stdout "./usr/src/kstats-$version/dkms.conf") ||
	fail "the RPM's dkms.conf does not say version $version"
for dep in libkmod.so.2 libbpf.so.1 libelf.so.1 libz.so.1; do
	rpm -qp --requires "$rpm_ctl" | grep -qxF "$dep()(64bit)" ||
		fail "the kstatsctl RPM does not require $dep"
done
rpm -qp --scripts "$rpm_dkms" >"$out/rpm-scripts.txt"
grep -q "dkms add -m kstats -v $version" "$out/rpm-scripts.txt" || fail "RPM %post lacks dkms add"
grep -q "dkms remove -m kstats -v $version --all" "$out/rpm-scripts.txt" ||
	fail "RPM %preun lacks dkms remove"
pass "rpmbuild -ba: kstats-dkms (noarch) and kstatsctl RPMs, files and scriptlets as expected"

# A kernel has kstats VERSION from DKMS: the installed file, its version
# and vermagic, depmod's index, and what third-party modules need.
has_kstats() {
	local v=$1 k=$2 f dk=/var/lib/dkms/kstats/kernel-$2-$arch
	f=$(find "/lib/modules/$k/updates/dkms" -name 'kstats.ko*' 2>/dev/null | head -n1)
	[ -n "$f" ] || { echo "no kstats.ko in /lib/modules/$k/updates/dkms"; return 1; }
	[ "$(modinfo -F version "$f")" = "$v" ] || { echo "$f: version $(modinfo -F version "$f"), want $v"; return 1; }
	[ "$(modinfo -F vermagic "$f" | cut -d' ' -f1)" = "$k" ] || { echo "$f: vermagic"; return 1; }
	[[ $(modprobe -S "$k" --show-depends kstats) == "insmod $f "* ]] ||
		{ echo "depmod's index for $k does not point at $f"; return 1; }
	grep -q '__kstats_new' "$dk/Module.symvers" ||
		{ echo "no $dk/Module.symvers with kstats' symbols"; return 1; }
	[ -f "$dk/include/linux/kstats.h" ] || { echo "no $dk/include/linux/kstats.h"; return 1; }
	cmp -s "$f" "$dk/module/$(basename "$f")" || { echo "$f differs from DKMS's copy"; return 1; }
}

# ---- the lanes' kernels, then the picture ----
# The kernels and their headers: installed now, they are in the picture and
# cannot pass for something the packages left behind. (Steps 1 and 2 came
# first, as they write only under build/: make check fetches the kernels in
# the background meanwhile, and gives KSTATS_FETCH_LOCK, a lock held until
# every lane's kernel is in: the picture waits for all of them.)
if [[ -n ${KSTATS_FETCH_LOCK:-} ]]; then
	flock "$KSTATS_FETCH_LOCK" true || fail "cannot wait on $KSTATS_FETCH_LOCK"
fi
declare -A kver
for lane in "${lanes[@]}"; do
	env=$(tests/vm/kernel.sh "$lane") || fail "tests/vm/kernel.sh $lane (above)"
	eval "$env"
	# shellcheck disable=SC2153 # KVER: from kernel.sh
	kver[$lane]=$KVER
	[ -d "/lib/modules/$KVER/build" ] || fail "no headers for $KVER"
done
# dkms' own postinst builds for the running kernel (and the newest), or, when
# the running kernel has no /lib/modules (a container, a CI machine), for
# every kernel. Give it the usual case, a running kernel without headers
# here, so that the upgrade's rebuilds for the lanes' kernels must come from
# kstats-dkms' own maintainer scripts.
running=/lib/modules/$(uname -r)
if [ ! -e "$running" ]; then
	mkdir -p "$running"
	made_running=1
fi

# picture FILE: every file and directory where packages and DKMS write
# (but the repo, apt's caches and lists, /var/tmp), sorted. Paths as find
# prints them: /lib is often a link to /usr/lib, and is then only itself
# (with /: dpkg -L lists both).
roots=() tops=(/)
for d in /etc /usr /var /lib /opt; do
	if [[ -d $d && ! -L $d ]]; then
		roots+=("$d")
	elif [[ -e $d || -L $d ]]; then
		tops+=("$d")
	fi
done
picture() {
	{
		printf '%s\n' "${tops[@]}"
		find "${roots[@]}" -xdev \( -path "$top" -o -path /var/cache/apt -o -path /var/lib/apt/lists \
			-o -path /var/tmp \) -prune -o -print 2>"$1.err" ||
			echo "note: find had errors (files removed during the scan?): $(head -n3 "$1.err")" >&2
	} | LC_ALL=C sort >"$1"
}
# owned TAG: what the packages and DKMS hold now (dpkg -L of what is
# installed, DKMS' trees, the built modules, the maintainer scripts' state,
# dpkg's and deb-systemd-helper's records),
# added to $out/owned.txt; a directory part through its links (/lib/udev ->
# /usr/lib/udev), as find prints it.
owned() {
	local f
	{
		{ dpkg-query -W -f='${Status} ${Package}\n' kstats-dkms kstatsctl 2>/dev/null || true; } |
			awk '$3 == "installed" { print $4 }' | xargs -r dpkg -L
		find /var/lib/dkms/kstats /usr/src/kstats-* /var/lib/kstats-dkms 2>/dev/null || true
		# dpkg's own records and deb-systemd-helper's state (the service).
		find /var/lib/dpkg/info /var/lib/systemd /etc/systemd -name 'kstats*' 2>/dev/null || true
		for f in /lib/modules/*/updates/dkms/kstats.ko*; do
			if [[ -e $f ]]; then echo "$f"; fi
		done
	} | python3 -c '
import os, sys
for p in sys.stdin.read().splitlines():
    if p.startswith("/"):
        d, b = os.path.split(os.path.normpath(p))
        print(os.path.normpath(os.path.join(os.path.realpath(d), b)))
' >>"$out/owned.txt"
	echo "$1: $(LC_ALL=C sort -u "$out/owned.txt" | wc -l) paths so far" >>"$out/owned.log"
}
picture "$out/before.txt"

# ---- 3. DKMS straight from a clone ----
clone=$out/clone
mkdir -p "$clone"
make -s source-list | tar -cf - -T - | tar -xf - -C "$clone"
dkms add "$clone" >"$out/dkms-clone.log" 2>&1 || { cat "$out/dkms-clone.log"; fail "dkms add CLONE"; }
dkms install "kstats/$version" -k "${kver[6.1]}" >>"$out/dkms-clone.log" 2>&1 ||
	{ cat "$out/dkms-clone.log"; fail "dkms install kstats/$version (from a clone)"; }
has_kstats "$version" "${kver[6.1]}" || fail "after dkms install from a clone"
owned "dkms install from a clone"
dkms remove "kstats/$version" --all >>"$out/dkms-clone.log" 2>&1 || fail "dkms remove"
rm -rf "/usr/src/kstats-$version" "$clone"
pass "dkms add CLONE && dkms install kstats/$version: works from a clone for ${kver[6.1]}"

# ---- 4. install the .debs; DKMS for each lane's kernel ----
installed=1
DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=600 install -y -q "$dkms_deb" "$ctl_deb" >"$out/install.log" 2>&1 ||
	{ cat "$out/install.log"; fail "apt install of the .debs"; }
for lane in "${lanes[@]}"; do
	k=${kver[$lane]}
	[[ $(dkms status -m kstats -v "$version" -k "$k") == *': installed'* ]] ||
		dkms install -m kstats -v "$version" -k "$k" >>"$out/install.log" 2>&1 ||
		{ cat "$out/install.log"; fail "dkms install -k $k"; }
	has_kstats "$version" "$k" || fail "kstats-dkms for $k"
done
owned "apt install of $version"
getent group kstats >/dev/null || fail "no group kstats after the install"
[ -f /lib/udev/rules.d/60-kstats.rules ] || fail "no udev rule"
/usr/sbin/kstatsctl --help >/dev/null || fail "installed kstatsctl does not run"
# (--man=no: its check of Documentation= would leave man-db's formatted copy
# in /var/cache/man; man -w finds the page without that.)
systemd-analyze verify --man=no /lib/systemd/system/kstats-export.service >"$out/unit.log" 2>&1 ||
	{ cat "$out/unit.log"; fail "systemd-analyze verify kstats-export.service"; }
man -w kstatsctl >/dev/null 2>&1 || fail "man kstatsctl: no page installed"
[ -z "$(find /etc/systemd/system -name kstats-export.service)" ] ||
	fail "kstats-export.service got enabled: it ships disabled"
pass "apt install: kstats $version built by DKMS for ${kver[*]}; group kstats; udev rule; kstats-export.service verified, not enabled"

# ---- 5. third-party modules, and the 6.1 VM with what the packages installed ----
k=${kver[6.1]}
dk=/var/lib/dkms/kstats/kernel-$k-$arch
g=$out/guest
mkdir -p "$g/module" "$g/tests"
# A module of someone else's needs only what the install keeps per kernel
# (the header and Module.symvers), as docs/api.md says; the test modules
# also include kstats' compat.h, from the installed sources.
cp -R "$dk/include" "$g/include"
cp "/usr/src/kstats-$version/module/"* "$g/module/"
cp -R tests/kmod "$g/tests/"
env=$(tests/vm/kernel.sh 6.1) || fail "tests/vm/kernel.sh 6.1 (above)"
eval "$env"
make -C "$KDIR" M="$g/tests/kmod" KBUILD_EXTRA_SYMBOLS="$dk/Module.symvers" W=1 modules \
	>"$out/kmod.log" 2>&1 || { cat "$out/kmod.log"; fail "test modules against the DKMS install"; }
grep -E 'warning|undefined' "$out/kmod.log" && fail "warnings building against the DKMS install"
cp "$dk/module/kstats.ko" "$g/module/kstats.ko"
guest_programs "$g"
make -s -C cli >/dev/null
pass "third-party modules build against $dk alone"
# The CLI suite there leaves a snapshot for tests/prometheus.sh in vm-out.
mkdir -p "$out/vm-out"
KSTATS_VM_OUT=$out/vm-out KSTATS_VM_TIMEOUT=900 tests/vm/run.sh 6.1 tests/guest/package-tests.sh "$g" ||
	fail "the 6.1 VM with the packages' kstats.ko and kstatsctl"

# ---- 6. upgrade N -> N+1 ----
next=$version.1
src=$out/next/kstats-$next
mkdir -p "$src"
make -s source-list | tar -cf - -T - | tar -xf - -C "$src"
sed -i "s/^#define KSTATS_VERSION .*/#define KSTATS_VERSION \"$next\"/" "$src/module/version.h"
{
	printf 'kstats (%s) unstable; urgency=medium\n\n  * Test upgrade.\n\n' "$next"
	printf ' -- kstats tests <tests@kstats.invalid>  %s\n\n' "$(date -R)"
	cat "$src/debian/changelog"
} >"$src/debian/changelog.new"
mv "$src/debian/changelog.new" "$src/debian/changelog"
# -A: kstats-dkms alone (what the upgrade installs; kstatsctl is not rebuilt).
(cd "$src" && dpkg-buildpackage -us -uc -A) >"$out/next.log" 2>&1 || { tail -n 30 "$out/next.log"; fail "building $next"; }
DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=600 install -y -q "$out/next/kstats-dkms_${next}_all.deb" \
	>"$out/upgrade.log" 2>&1 || { cat "$out/upgrade.log"; fail "apt install of $next over $version"; }
for lane in "${lanes[@]}"; do
	has_kstats "$next" "${kver[$lane]}" || { cat "$out/upgrade.log"; fail "after the upgrade to $next"; }
done
# (dkms status' stderr to the log: it runs readelf -p .comment on the 6.12-rt
# headers' vmlinux, which has none, and readelf warns.)
[[ $(dkms status kstats 2>>"$out/upgrade.log") == *"kstats/$version,"* ]] && fail "dkms still has kstats/$version"
[ ! -e "/usr/src/kstats-$version" ] || fail "/usr/src/kstats-$version is left after the upgrade"
[ ! -e /var/lib/kstats-dkms ] || fail "/var/lib/kstats-dkms is left after the upgrade"
owned "upgrade to $next"
pass "upgrade $version -> $next: every kernel that had $version has $next (${kver[*]})"

# ---- 7. purge ----
DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=600 purge -y -q kstats-dkms kstatsctl >"$out/purge.log" 2>&1 ||
	{ cat "$out/purge.log"; fail "apt purge"; }
installed=0
[ -z "$(dkms status kstats)" ] || fail "dkms status after the purge: $(dkms status kstats)"
for p in kstats-dkms kstatsctl; do
	st=$(dpkg-query -W -f='${db:Status-Abbrev}' "$p" 2>/dev/null) || continue	# forgotten: purged
	[[ $st == "un "* || $st == "pn "* ]] || fail "$p after the purge: dpkg status '$st' (config files left?)"
done
picture "$out/after.txt"
# What the packages and DKMS made (not there before the run) is gone.
LC_ALL=C sort -u "$out/owned.txt" | LC_ALL=C comm -23 - "$out/before.txt" >"$out/made.txt"
while IFS= read -r f; do
	[[ -e $f || -L $f ]] && echo "$f"
done <"$out/made.txt" >"$out/left.txt"
if [[ -s $out/left.txt ]]; then
	cat "$out/left.txt"
	fail "the purge left $(wc -l <"$out/left.txt") of the $(wc -l <"$out/made.txt") files and dirs" \
		"the packages and DKMS made (above; $out/owned.log)"
fi
# (The list itself must hold what the run surely made.)
for f in /usr/sbin/kstatsctl /var/lib/dpkg/info/kstatsctl.list /var/lib/dkms/kstats \
	"/usr/src/kstats-$next/dkms.conf" "$(realpath /lib/modules)/${kver[6.1]}/updates/dkms/kstats.ko"; do
	grep -qE "^$f(\.[a-z]+)?\$" "$out/made.txt" || fail "$out/made.txt lacks $f: the record of what was made is wrong"
done
# depmod forgot the module in every kernel.
if grep -sE '(^|/)kstats\.ko' /lib/modules/*/modules.dep; then
	fail "modules.dep still lists kstats.ko (above)"
fi
# Anything else new with kstats in its name (not taskstats: kernel headers
# carry linux/taskstats.h), e.g. a formatted man page in /var/cache/man.
LC_ALL=C comm -13 "$out/before.txt" "$out/after.txt" >"$out/new.txt"
if grep -iE '/([^/]*[^a-z/])?kstats[^/]*$' "$out/new.txt"; then
	fail "the purge left the files above, named after kstats, new since the run began"
fi
pass "apt purge: the $(wc -l <"$out/made.txt") files and dirs the packages and DKMS made are gone" \
	"(dpkg -L, /var/lib/dkms/kstats, /usr/src/kstats-*, updates/dkms/kstats.ko*), dpkg forgot" \
	"both, no modules.dep lists kstats, no new file named kstats in ${roots[*]}" \
	"($(wc -l <"$out/new.txt") other new files: $out/new.txt); group kstats stays, as Debian does"
echo "packages: PASS in $SECONDS s"

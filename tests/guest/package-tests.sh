#!/usr/bin/env bash
# What the packages installed, at work in the VM (tests/packages.sh boots it
# after installing kstats-dkms and kstatsctl on the host, whose root the
# guest sees): the DKMS-built kstats.ko, the udev rule and group kstats, a
# third-party module built against the DKMS install, then the whole CLI
# suite with the installed kstatsctl. Prints TAP.
# Usage: tests/guest/package-tests.sh BUILD_DIR
#   BUILD_DIR/module/kstats.ko: DKMS's build; BUILD_DIR/tests/kmod: test
#   modules built against the DKMS install; BUILD_DIR/*: guest programs.
set -uo pipefail
build=$(realpath "${1:?usage: package-tests.sh BUILD_DIR}")
K=/usr/sbin/kstatsctl
version=$(sed -n 's/^#define KSTATS_VERSION "\(.*\)"/\1/p' module/version.h)
tmp=$(mktemp -d)
chmod 1777 "$tmp"
export KSTATS_COLOR=never
. tests/guest/tap.sh

gid=$(getent group kstats | cut -d: -f3)
# uid 65534 in group kstats, and outside it.
member() { setpriv --reuid=65534 --regid=65534 --groups="$gid" "$@"; }
other() { setpriv --reuid=65534 --regid=65534 --clear-groups "$@"; }
mode_of() { stat -c '%a %U %G' /dev/kstats; }
no_udevd() { ! pidof systemd-udevd >/dev/null; }

ok "group kstats exists (made by kstats-dkms' postinst)" test -n "$gid"
ok "the installed kstatsctl is version $version" expect 0 "^kstatsctl $version" "$K" --no-autoload --version
# udev as installed: the daemon applies the host's rules, ours among them.
# The guest runs chrooted into the host's root, where udevadm ignores
# control and settle requests unless told not to.
export SYSTEMD_IGNORE_CHROOT=1
ok "systemd-udevd starts" /lib/systemd/systemd-udevd --daemon
# It answers once its event loop runs: from then on it hears every uevent.
ok "udevd answers" udevadm control --ping --timeout=60
ok "insmod DKMS's kstats.ko" insmod "$build/module/kstats.ko"
ok "module version $version" grep -qx "$version" /sys/module/kstats/version
ok "udev settles" udevadm settle --timeout=60
ok "60-kstats.rules: /dev/kstats is 640 root kstats" expect 0 '^640 root kstats$' mode_of
ok "root: create pkg.test and record 3 samples" sh -c "$K create pkg.test && $K record pkg.test 100 200 300"
ok "group kstats: list" expect 0 '^pkg\.test ' member "$K" --no-autoload list
ok "group kstats: snapshot" member "$K" --no-autoload snapshot pkg.test -o "$tmp/m.ksnap"
ok "group kstats: the snapshot holds the 3 samples" expect 0 '^count 3( |$)' "$K" show -i "$tmp/m.ksnap" pkg.test
ok "group kstats: show live" expect 0 '^count 3( |$)' member "$K" --no-autoload show pkg.test
ok "group kstats: create refused (EPERM), exit 1" expect 1 'error: .*permission denied' \
	member "$K" --no-autoload create pkg.other
ok "group kstats: record refused, exit 1" expect 1 'error: .*permission denied' \
	member "$K" --no-autoload record pkg.test 5
ok "group kstats: trace refused, exit 1" expect 1 'error: .*permission denied' \
	member "$K" --no-autoload trace vfs_read --keep
ok "group kstats: reset refused, exit 1" expect 1 'error: .*permission denied' \
	member "$K" --no-autoload reset pkg.test
ok "still 3 samples" expect 0 '^count 3( |$)' "$K" show pkg.test
ok "outside the group: cannot open /dev/kstats, exit 1" \
	expect 1 '^kstatsctl: error: cannot open /dev/kstats: Permission denied' other "$K" --no-autoload list
# A module of someone else's, built against the DKMS install alone.
ok "third-party kstats_demo.ko loads against DKMS's kstats" insmod "$build/tests/kmod/kstats_demo.ko"
ok "its metrics are listed" expect 0 '^demo\.kmalloc ' "$K" list
ok "rmmod kstats_demo" rmmod kstats_demo
ok "delete pkg.test" "$K" delete pkg.test
ok "udevd exits (the CLI suite expects the kernel's 0600 root root)" \
	udevadm control --exit
ok "no udevd process is left" wait_for no_udevd
ok "rmmod kstats" rmmod kstats
rm -rf "$tmp"
tap_end || exit 1

# The CLI suite, with the installed kstatsctl, completion and DKMS's module.
echo "# ==== cli-tests with the installed kstatsctl"
KSTATS_CTL=$K KSTATS_COMPLETION=/usr/share/bash-completion/completions/kstatsctl \
	tests/guest/cli-tests.sh "$build"

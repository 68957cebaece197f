#!/bin/busybox sh
# PID 1 of the kstats test VM (busybox sh, packed into the initramfs by run.sh).
# Mounts the host's root (read-only, virtio-9p or virtio-fs) at /newroot with fresh proc/sys/dev/tmp over it,
# runs the job (/kstats/job.sh, written by run.sh) chrooted there, then checks the kernel's health
# and prints the result token. The token carries a per-run nonce that only this process knows,
# so nothing the job prints can pass for it.
/bin/busybox --install -s /bin
export PATH=/bin
mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t devtmpfs devtmpfs /dev
exec </dev/null >/dev/console 2>&1

R=/newroot
. /kstats/run.conf # LANE KVER OUT MODDIR REPO_BIND TIMEOUT FS (plain values checked by run.sh)
nonce=$(cat /kstats/nonce)
rm -f /kstats/nonce

say() { echo "kstats-vm: $*"; }
uptime_s() { cut -d' ' -f1 /proc/uptime; }
# Give up: a reason, no token (run.sh fails the lane on the missing token), power off.
fail() {
	say "FAIL: $*"
	finish
}
finish() {
	# Wait until the UART has sent everything (stty sets attributes with TCSADRAIN): QEMU stops
	# the moment the guest reboots, and the last line is the one that matters.
	stty -F /dev/console -echo 2>/dev/null
	reboot -f # QEMU runs with -no-reboot, so this ends the VM
	sleep 999 # only if reboot itself failed; the host's time limit takes over
}

# Stock kernels have 9p and virtio-pci as modules; the list is in dependency order.
while read -r m; do
	insmod "/modules/$m" || fail "insmod $m"
done </modules.list

# share TAG DIR [ro]: a host directory, over virtio-9p, or over virtio-fs where the kernel has no
# networking for 9p to run on (the debug kernel). The read-only root is cached loosely (it does
# not change under a job); virtio-fs gets that from its server (run.sh: cache=always).
share() {
	if [ "$FS" = virtiofs ]; then
		mount -t virtiofs -o "${3:-rw}" "$1" "$2"
	elif [ "$3" = ro ]; then
		mount -t 9p -o trans=virtio,version=9p2000.L,msize=262144,ro,cache=loose "$1" "$2"
	else
		mount -t 9p -o trans=virtio,version=9p2000.L,msize=262144 "$1" "$2"
	fi
}
mkdir -p $R
share hostroot $R ro || fail "cannot mount the host root over $FS"
# A repo in /tmp, /run or /var/tmp: kept aside now, bound back once those are fresh tmpfs.
if [ -n "$REPO_BIND" ]; then
	mkdir -p /repo
	mount --bind $R$REPO_BIND /repo || fail "cannot see the repo at $REPO_BIND"
fi
mount -t proc proc $R/proc
mount -t sysfs sysfs $R/sys
mount -t devtmpfs devtmpfs $R/dev
mkdir -p $R/dev/pts $R/dev/shm
mount -t devpts devpts $R/dev/pts
mount -t tmpfs -o mode=1777 tmpfs $R/dev/shm
mount -t debugfs debugfs $R/sys/kernel/debug
mount -t tracefs tracefs $R/sys/kernel/tracing
[ -d $R/sys/kernel/security ] && mount -t securityfs securityfs $R/sys/kernel/security
mount -t tmpfs -o mode=755 tmpfs $R/run
mount -t tmpfs -o mode=1777 tmpfs $R/tmp
mount -t tmpfs -o mode=1777 tmpfs $R/var/tmp
if [ -n "$REPO_BIND" ]; then
	mkdir -p $R$REPO_BIND
	mount --bind /repo $R$REPO_BIND || fail "cannot bind the repo at $REPO_BIND"
fi
# The job's way to leave files for the host: a read-write share at the same path as on the host.
mkdir -p $R$OUT
share kstatsout $R$OUT || fail "cannot mount the output share at $OUT"
# The host's /lib/modules is the wrong kernel's: show the guest's own there (modprobe, modinfo).
if [ -n "$MODDIR" ]; then
	mount -t tmpfs tmpfs $R/lib/modules
	mkdir -p $R/lib/modules/$KVER
	mount --bind $R$MODDIR $R/lib/modules/$KVER
fi
# (The debug kernel has no IPv4, and busybox's ip no socket to ask with there: nothing to do.)
[ -e /proc/net/tcp ] && ip link set lo up
hostname kstats-vm
# Every figure kstats prints is a clock's: a kernel left with jiffies (no TSC rate found) would
# time in 4 ms steps and fail the suites in ways that hide why.
read -r cs </sys/devices/system/clocksource/clocksource0/current_clocksource
case $cs in *jiffies*) fail "the guest's clocksource is $cs: no usable clock" ;; esac
cp /kstats/job.sh $R/run/kstats-job.sh

# kmemleak (debug kernel): forget anything already reported, so only the job's leaks count.
# With auto-scan off nothing has been reported yet, and a scan here (to baseline boot-time leaks)
# costs ~9 s; boot was measured leak-free, so that scan is left out.
KML=$R/sys/kernel/debug/kmemleak
if [ -e $KML ]; then
	echo clear >$KML || fail "kmemleak is not usable"
fi

# Watchdog: shortly before the host kills the VM, show where a hung job is stuck (blocked tasks,
# every CPU's backtrace, the job's kernel stacks), then end the run without a token. The host's
# limit counts from QEMU's start, so leave a margin for the boot and the dump itself.
watchdog() {
	left=$((TIMEOUT - 90 - $(cut -d. -f1 /proc/uptime)))
	[ $left -gt 0 ] && sleep $left
	say "FAIL: watchdog: the job is still running at guest uptime $(uptime_s) s; dumping state"
	echo 1 >/proc/sys/kernel/sysrq
	echo w >/proc/sysrq-trigger
	echo l >/proc/sysrq-trigger
	for p in /proc/[0-9]*; do
		[ "$(readlink $p/root)" = "$R" ] || continue
		say "watchdog: pid ${p#/proc/} ($(tr '\0' ' ' <$p/cmdline)) state $(cut -d' ' -f3 $p/stat)"
		sed 's/^/kstats-vm: watchdog:   /' $p/stack
	done
	finish
}
watchdog &
dog=$!

say "BEGIN job (lane $LANE, kernel $(uname -r), guest uptime $(uptime_s) s)"
chroot $R /bin/bash /run/kstats-job.sh
rc=$?
kill $dog
say "END job (exit status $rc, guest uptime $(uptime_s) s, $(grep '^processes ' /proc/stat | cut -d' ' -f2) tasks started)"

ok=1
[ $rc -eq 0 ] || { say "FAIL: job exited with status $rc"; ok=0; }
if [ -e $KML ]; then
	# kmemleak's rules, not synchronisation: it never reports an object younger than 5 s, nor
	# one whose contents changed since the previous scan (a new object counts as changed). So:
	# scan once to record checksums while the job's last allocations come of age, then again.
	sleep 6 &
	echo scan >$KML
	wait
	echo scan >$KML
	leaks=$(cat $KML)
	if [ -n "$leaks" ]; then
		echo "$leaks" | sed 's/^/kstats-vm: kmemleak: /'
		say "FAIL: kmemleak found unreferenced objects"
		ok=0
	fi
fi
# Taints the tests cause by design: O (out-of-tree module, 4096) and E (unsigned module, 8192).
tainted=$(cat /proc/sys/kernel/tainted)
if [ $((tainted & ~12288)) -ne 0 ]; then
	say "FAIL: kernel tainted ($tainted)"
	ok=0
fi
say "checks done (guest uptime $(uptime_s) s)"
[ $ok -eq 1 ] && echo "KSTATS-VM-RESULT: PASS lane=$LANE nonce=$nonce"
finish

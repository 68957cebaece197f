#!/bin/bash
# run.sh LANE SCRIPT [ARGS...]   (LANE = 6.1 | 6.12 | 6.12-rt | 7.3 | 7.3-rt | debug)
# Boot the lane's kernel in QEMU and run SCRIPT inside it, chrooted into the host's root filesystem
# (shared read-only over virtio-9p, or virtio-fs on the debug lane, so every host path, program and
# the repo look the same), with cwd = repo root and KSTATS_LANE, KSTATS_KVER, KSTATS_IN_VM=1,
# KSTATS_VM_OUT in the environment.
# SCRIPT is a file (run directly if executable, else with bash) or a command name.
# Exit 0 only on a clean pass: SCRIPT exited 0, no kernel warning/bug/sanitizer/leak report, no
# unexpected taint. stdout = the job's console section; progress and verdicts go to stderr.
# Environment:
#   KSTATS_VM_TIMEOUT  seconds before the VM is killed (default 900)
#   KSTATS_VM_APPEND   extra kernel command line (e.g. lockdown=integrity)
#   KSTATS_VM_OUT      host dir shared read-write at the same path in the guest (default: new
#                      mktemp dir); the console log is saved there as console-LANE.log
#   KSTATS_VM_VERBOSE  1 = stream the console to stderr while it runs
#   KSTATS_VM_ACCEL    QEMU -accel value; default: kvm where a probe boot works, else
#                      tcg,thread=single (accel.sh; KSTATS_VM_CPU overrides -cpu)
#   KSTATS_VM_SMP      the guest's CPUs (default 4)
# Note: the guest has fresh tmpfs on /tmp, /run and /var/tmp, so host files there are invisible
# to SCRIPT, except the repo itself (a clone in /tmp works) and KSTATS_VM_OUT.
set -euo pipefail
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

(($# >= 2)) || die "usage: run.sh ${VM_LANES// /|} SCRIPT [ARGS...]"
lane=$1 script=$2
shift 2
need_pkgs qemu-system-x86 busybox-static cpio kmod xz-utils zstd
eval "$("$VM_DIR/kernel.sh" "$lane")"
# shellcheck source=accel.sh
. "$VM_DIR/accel.sh"
vm_accel "$VMLINUZ"
say "lane $lane: $ACCEL_NOTE"

out=${KSTATS_VM_OUT:-$(mktemp -d /tmp/kstats-vm.XXXXXX)}
mkdir -p "$out"
out=$(realpath "$out")
timeout=${KSTATS_VM_TIMEOUT:-900}
log=$out/console-$lane.log

# The guest mounts fresh filesystems on these, hiding the host's files (except KSTATS_VM_OUT,
# and the repo, which the guest's init binds back when it lives in a tmpfs one).
repo_bind=
case $REPO_ROOT/ in
/tmp/* | /run/* | /var/tmp/*) repo_bind=$REPO_ROOT ;;
/proc/* | /sys/* | /dev/*) die "the repo cannot be under /proc, /sys or /dev" ;;
esac
must_be_visible() {
	case $1/ in
	"$out"/* | "$REPO_ROOT"/*) ;;
	/tmp/* | /run/* | /var/tmp/* | /proc/* | /sys/* | /dev/*)
		die "$1 is hidden in the guest (fresh mounts there); put it under KSTATS_VM_OUT" ;;
	esac
}
if [[ -e $script ]]; then
	script=$(realpath "$script")
	must_be_visible "$script"
fi
# The init is busybox sh: keep the values it reads free of anything needing quotes.
for v in "$lane" "$KVER" "$out" "$MODDIR" "$repo_bind"; do
	[[ $v =~ ^[A-Za-z0-9_./+~:-]*$ ]] || die "unsupported characters in '$v'"
done

# Base initramfs, cached per lane: busybox, /init and the stock kernels' 9p stack (decompressed,
# busybox insmod reads neither .ko.xz nor .ko.zst), in load order as modprobe would resolve it.
base_initramfs() {
	[[ -s $base ]] && return 0
	local tmp m name
	tmp=$(mktemp -d)
	mkdir -p "$tmp"/{bin,dev,proc,sys,newroot,modules,kstats}
	cp /bin/busybox "$tmp/bin/busybox"
	install -m 755 "$VM_DIR/init.sh" "$tmp/init"
	: >"$tmp/modules.list"
	if [[ -n $MODDIR ]]; then
		for m in virtio_pci 9pnet_virtio 9p; do
			modprobe -d "${MODDIR%/lib/modules/*}" -S "$KVER" --show-depends "$m" ||
				die "$m is missing from $MODDIR"
		done | awk '$1 == "insmod" && !seen[$2]++ { print $2 }' | while read -r m; do
			name=$(basename "$m") name=${name%.xz} name=${name%.zst}
			case $m in
			*.ko.xz) xz -dc "$m" >"$tmp/modules/$name" ;;
			*.ko.zst) zstd -qdc "$m" >"$tmp/modules/$name" ;;
			*.ko) cp "$m" "$tmp/modules/" ;;
			*) die "$m: a module compressed in a way this script does not know" ;;
			esac
			echo "$name" >>"$tmp/modules.list"
		done
	fi
	(cd "$tmp" && find . | cpio -o -H newc -R 0:0 --quiet) >"$base.part"
	rm -rf "$tmp"
	mv "$base.part" "$base"
}
mkdir -p "$CACHE/initramfs"
base=$CACHE/initramfs/$lane-$({ cat "$VM_DIR/init.sh" /bin/busybox; echo "$KVER $MODDIR"; } |
	sha256sum | cut -c1-16).cpio
with_lock "$CACHE/initramfs/$lane.lock" base_initramfs

# Per-run part, appended as a second cpio archive (the kernel unpacks both). It lives under /tmp,
# which the guest covers with its own tmpfs, so the job cannot read the nonce from the host side.
run=$(mktemp -d /tmp/kstats-run.XXXXXX)
trap 'rm -rf "$run"' EXIT
nonce=$(od -An -N8 -tx1 /dev/urandom | tr -d ' \n')
cmd=("$script" "$@")
[[ -f $script && ! -x $script ]] && cmd=(/bin/bash "$script" "$@")
mkdir -p "$run/root/kstats"
echo "$nonce" >"$run/root/kstats/nonce"
[[ $timeout =~ ^[0-9]+$ ]] || die "KSTATS_VM_TIMEOUT must be a number of seconds"
# The host's files reach the guest over 9p, or over virtio-fs on the debug lane, whose kernel has
# no networking (debug.config).
fs=9p
[[ $lane == debug ]] && fs=virtiofs
printf 'LANE=%s\nKVER=%s\nOUT=%s\nMODDIR=%s\nREPO_BIND=%s\nTIMEOUT=%s\nFS=%s\n' "$lane" "$KVER" \
	"$out" "$MODDIR" "$repo_bind" "$timeout" "$fs" >"$run/root/kstats/run.conf"
{
	echo '#!/bin/bash'
	printf 'export KSTATS_LANE=%q KSTATS_KVER=%q KSTATS_IN_VM=1 KSTATS_VM_OUT=%q KSTATS_VM_ACCEL_USED=%q\n' \
		"$lane" "$KVER" "$out" "$ACCEL"
	# LANG=C: a process that calls setlocale() under C.UTF-8 opens and maps Debian's
	# /usr/lib/locale/C.utf8 (a dozen files, over 9p): 0.3 s a process on the debug kernel under
	# TCG, 0.06 s on a stock one, and the suites start thousands (bash, coreutils, python).
	# kstatsctl never calls setlocale(); Python keeps UTF-8 through its UTF-8 mode.
	echo 'export HOME=/root LANG=C PYTHONUTF8=1 PYTHONCOERCECLOCALE=0'
	echo 'export PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin'
	printf 'cd %q || exit 1\n' "$REPO_ROOT"
	printf 'exec'
	printf ' %q' "${cmd[@]}"
	echo
} >"$run/root/kstats/job.sh"
(cd "$run/root" && find . | cpio -o -H newc -R 0:0 --quiet) >"$run/run.cpio"
cat "$base" "$run/run.cpio" >"$run/initrd"

append="console=ttyS0 panic_on_warn=1 panic=-1 oops=panic tsc=reliable printk.time=1"
# Expedited RCU grace periods: every UNTRACE, DELETE and detach waits for one or two (kstats'
# synchronize_rcu(), the tracepoint and ftrace unregistrations), and a normal grace period is
# mostly idle time here (TCG, 4 vCPUs, HZ 250): 6.12-rt's lane took 376 s with them, 288 s
# expedited (its ABI suite 70 s -> 43 s, CPU time the same). A shorter grace period frees sooner,
# so a handler that outlived one would meet freed memory sooner, not later. PREEMPT_RT turns
# expediting off after boot by policy (rcu_normal_after_boot), for its latency, not for
# correctness; the lanes turn it back on. KSTATS_VM_APPEND comes after, so
# "rcupdate.rcu_expedited=0 rcupdate.rcu_normal_after_boot=1" there gives a kernel's own defaults.
append+=" rcupdate.rcu_expedited=1 rcupdate.rcu_normal_after_boot=0"
append+=" ${KSTATS_VM_APPEND:-}"
# Under TCG, thread=single: one host thread runs all vCPUs in turn. Multi-threaded TCG is slower here
# (2 host cores) and occasionally runs stale translated code after the kernel patches text from
# another CPU ("Oops: int3" in a just-patched static branch), which would make kprobe tests flaky.
# q35: its ACPI PCI routing table is static; the default pc machine's _PRT is an AML loop that the
# debug kernel interprets so slowly that it hits ACPICA's 30 s loop timeout.
# la57=off (TCG's -cpu max): with 5-level paging, an interrupt landing while identify_cpu() re-reads the CPU
# features sees LA57 "off" for a moment and KASAN reports a wild access (~1 debug boot in 10).
# The debug kernel has neither ACPI nor PCI (a faster build): QEMU's microvm machine, whose
# virtio-mmio devices QEMU lists on the kernel's command line; reboot=t, as it has no reset
# controller but a triple fault.
# It has no HPET or ACPI PM timer either, and its PIT calibration of the TSC fails on a loaded
# host (the kernel then times with jiffies): the TSC's rate is given, measured here, as under TCG
# (and KVM without scaling) the guest's TSC is the host's.
# 4 vCPUs (KSTATS_VM_SMP sets another count). 2 were tried under TCG, where one host thread runs
# every vCPU in turn: the ioctl race test took 11 s instead of 40, but in make check from scratch,
# with both cores busy, the lanes were no faster in all (debug 1345 s, 7.3 595 s; 1257 and 553 with
# 4), and on 7.3-rt the SNAPSHOT-behind-UNTRACE check saw the target's RCU reader let go (15 s)
# before the UNTRACE had even started.
smp=${KSTATS_VM_SMP:-4}
mem=2G
machine=q35 bus=pci
if [[ $lane == debug ]]; then
	machine=microvm,acpi=off bus=device
	tsc_khz=$CACHE/tsc_khz-$(sha256sum "$VM_DIR/tsc_khz.c" | cut -c1-16)
	[[ -x $tsc_khz ]] || { gcc -O2 -o "$tsc_khz.$$" "$VM_DIR/tsc_khz.c" && mv "$tsc_khz.$$" "$tsc_khz"; } ||
		die "cannot build tsc_khz"
	khz=$("$tsc_khz") || die "cannot measure the TSC's rate"
	append+=" reboot=t tsc_early_khz=$khz"
fi
# The host's root (read-only in the guest: init.sh) and the output directory.
if [[ $fs == 9p ]]; then
	shares=(-fsdev "local,id=hostroot,path=/,security_model=none,readonly=on,multidevs=remap"
		-device "virtio-9p-$bus,fsdev=hostroot,mount_tag=hostroot"
		-fsdev "local,id=kstatsout,path=$out,security_model=none,multidevs=remap"
		-device "virtio-9p-$bus,fsdev=kstatsout,mount_tag=kstatsout")
else
	# Served by virtiofsd (virtiofsd.py), whose vhost-user queues live in guest memory shared
	# with it. The root is cached in the guest as 9p's cache=loose caches it.
	# virtiofsd takes modern (virtio 1.0) devices only; virtio-mmio is legacy unless told.
	machine+=,memory-backend=mem
	shares=(-object "memory-backend-memfd,id=mem,size=$mem,share=on"
		-global virtio-mmio.force-legacy=false)
	vfsd_pids=()
	trap 'kill "${vfsd_pids[@]}" 2>/dev/null; rm -rf "$run"' EXIT
	virtiofs_share() { # TAG DIR CACHE
		vfsd_pids+=("$(python3 "$VM_DIR/virtiofsd.py" "$run/$1.sock" "$2" "$3" \
			"$out/virtiofsd-$1.log")") || die "cannot start virtiofsd for $2"
		shares+=(-chardev "socket,id=$1,path=$run/$1.sock"
			-device "vhost-user-fs-$bus,chardev=$1,tag=$1")
	}
	virtiofs_share hostroot / always
	virtiofs_share kstatsout "$out" auto
fi
qemu=(qemu-system-x86_64 "${ACCEL_ARGS[@]}" -M "$machine"
	-smp "$smp" -m "$mem" -nographic -no-reboot -nic none
	-kernel "$VMLINUZ" -initrd "$run/initrd" -append "$append" "${shares[@]}")
sink=/dev/null
[[ ${KSTATS_VM_VERBOSE:-0} == 1 ]] && sink=/dev/stderr
say "lane $lane ($KVER): booting; console log: $log"
start=$SECONDS
qrc=0
timeout -k 10 "$timeout" "${qemu[@]}" </dev/null 2>&1 | tee "$log" >"$sink" || qrc=${PIPESTATUS[0]}
elapsed=$((SECONDS - start))

# Verdict. Kernel reports are matched only on printk lines ("[ seconds.micro]"), so words in the
# job's own output cannot fail a lane; the init's own complaints start with "kstats-vm: FAIL".
console=$(tr -d '\r' <"$log")
job_out=$(awk '/^kstats-vm: BEGIN job/ { on = 1; next } /^kstats-vm: END job/ { on = 0 } on' <<<"$console")
printf '%s\n' "$job_out"
kernel_re='\[ *[0-9]+\.[0-9]+\].*(BUG:|WARNING:|Oops|Call Trace|general protection|Kernel panic'
kernel_re+='|KASAN|UBSAN|circular locking|unreferenced object|suspected memory leak'
kernel_re+='|sleeping function called from invalid context|detected stalls|blocked for more than)'
bad=$(grep -E "$kernel_re|^kstats-vm: (FAIL|kmemleak)" <<<"$console" | grep -vE '(Kernel )?[Cc]ommand line:' || true)
passed=0
grep -qxF "KSTATS-VM-RESULT: PASS lane=$lane nonce=$nonce" <<<"$console" && passed=1
if ((passed)) && [[ -z $bad ]]; then
	say "PASS lane $lane in ${elapsed} s (boot to power-off)"
	exit 0
fi
# The reason goes last: CI shows the end of the output.
{
	echo "==== last console lines:"
	tail -n 10 <<<"$console"
	[[ -n $bad ]] && { echo "==== offending lines:"; head -n 20 <<<"$bad"; }
	# The failed checks with their diagnostics, last but for the verdict.
	failed_checks=$(grep -A3 '^not ok' <<<"$job_out" | head -n 20 || true)
	[[ -n $failed_checks ]] && { echo "==== failed checks:"; echo "$failed_checks"; }
	echo "==== lane $lane FAILED after ${elapsed} s; console log: $log"
	((qrc == 124)) && echo "==== timed out after $timeout s (KSTATS_VM_TIMEOUT)"
	((passed)) || echo "==== no PASS token from the guest's init"
} >&2
exit 1

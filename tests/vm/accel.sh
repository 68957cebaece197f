#!/bin/bash
# Which accelerator the VM lanes run under: KVM where a probe boot really
# reaches user space, TCG otherwise. /dev/kvm opening proves little: under
# a nested KVM whose instruction emulator gives up ("KVM internal error.
# Suberror: 1" at cmpxchg16b or xrstor) the guest never boots, and a CPU
# model the host's KVM only claims to support aborts QEMU ("failed to set
# MSR"). So the probe boots the lane's own kernel into a two-line init and
# waits, with a deadline, for the init's token or the first sign of failure.
#
# Sourced (run.sh, bench): vm_accel VMLINUZ sets
#   ACCEL       kvm or tcg
#   ACCEL_ARGS  QEMU's -accel and -cpu arguments for it
#   ACCEL_NOTE  one line saying which, and why
# Run alone: tests/vm/accel.sh LANE prints ACCEL_NOTE for that lane's kernel.
#
# KSTATS_VM_ACCEL (a QEMU -accel value, e.g. kvm or tcg,thread=single)
# skips the probe; KSTATS_VM_CPU overrides the -cpu model. A verdict is
# kept for the host's boot (boot_id), QEMU's version and the kernel image,
# so a run of many lanes probes each kernel once: a host reboot, a new QEMU
# or KVM module, or another kernel probes again.
# shellcheck shell=bash

# Under a working KVM a stock kernel reaches its init in 1-3 s; the deadline
# leaves room for a loaded host. Past it KVM is no faster than TCG anyway.
ACCEL_PROBE_SECONDS=${KSTATS_VM_PROBE_SECONDS:-10}
ACCEL_TCG_CPU="max,la57=off"	# la57=off: see run.sh
ACCEL_KVM_CPU=host

accel_args() {	# accel_args ACCEL-VALUE
	local cpu=$ACCEL_TCG_CPU
	case $1 in kvm*) cpu=$ACCEL_KVM_CPU ;; esac
	ACCEL_ARGS=(-accel "$1" -cpu "${KSTATS_VM_CPU:-$cpu}")
}

# accel_probe VMLINUZ: boots it under KVM; prints "kvm SECONDS" or "tcg REASON".
accel_probe() {
	local vmlinuz=$1 dir pid fd line left rc reason='' start=$SECONDS token
	dir=$(mktemp -d)
	token=KSTATS-KVM-PROBE-$(od -An -N4 -tx1 /dev/urandom | tr -d ' \n')
	mkdir -p "$dir/root/bin"
	cp /bin/busybox "$dir/root/bin/busybox"
	printf '#!/bin/busybox sh\n/bin/busybox echo %s\n/bin/busybox reboot -f\n' "$token" >"$dir/root/init"
	chmod 755 "$dir/root/init"
	(cd "$dir/root" && find . | cpio -o -H newc -R 0:0 --quiet) >"$dir/probe.cpio"
	mkfifo "$dir/out"
	accel_args kvm
	qemu-system-x86_64 "${ACCEL_ARGS[@]}" -M q35 -smp 4 -m 2G -nographic -no-reboot -nic none \
		-kernel "$vmlinuz" -initrd "$dir/probe.cpio" -append "console=ttyS0 panic=-1 quiet" \
		</dev/null >"$dir/out" 2>&1 &
	pid=$!
	exec {fd}<"$dir/out"
	while :; do
		left=$((ACCEL_PROBE_SECONDS - (SECONDS - start)))
		if ((left <= 0)); then
			reason="no user space after ${ACCEL_PROBE_SECONDS} s"
			break
		fi
		rc=0
		IFS= read -r -t "$left" -u "$fd" line || rc=$?
		if ((rc > 128)); then
			continue	# the deadline: checked above
		elif ((rc != 0)) && [[ -z $line ]]; then
			reason=${reason:-QEMU exited before user space}
			break
		fi
		line=${line%$'\r'}
		case $line in
		*"$token"*) reason= ; echo "kvm $((SECONDS - start))"; break ;;
		*"KVM internal error"*) reason="the guest stopped: KVM internal error${line#*KVM internal error}"; break ;;
		qemu-system-x86_64:*warning:*) ;;
		qemu-system-x86_64:*) reason=${reason:-${line#qemu-system-x86_64: }} ;;	# its first word
		esac
	done
	kill "$pid" 2>/dev/null || true
	wait "$pid" 2>/dev/null || true
	exec {fd}<&-
	rm -rf "$dir"
	[[ -n $reason ]] && echo "tcg $reason"
	return 0
}

vm_accel() {	# vm_accel VMLINUZ
	local vmlinuz=$1 key verdict file
	if [[ -n ${KSTATS_VM_ACCEL:-} ]]; then
		ACCEL=tcg
		[[ $KSTATS_VM_ACCEL == kvm* ]] && ACCEL=kvm
		accel_args "$KSTATS_VM_ACCEL"
		ACCEL_NOTE="accelerator $ACCEL (KSTATS_VM_ACCEL=$KSTATS_VM_ACCEL)"
		return 0
	fi
	if [[ ! -r /dev/kvm || ! -w /dev/kvm ]]; then
		verdict="tcg no usable /dev/kvm"
	else
		key=$({ cat /proc/sys/kernel/random/boot_id; qemu-system-x86_64 --version | head -n1
			stat -Lc '%n %s %Y' "$vmlinuz" "${BASH_SOURCE[0]}"
			echo "${KSTATS_VM_CPU:-}"; } | sha256sum | cut -c1-16)
		file=$CACHE/accel/$key
		if [[ -s $file ]]; then
			verdict="$(<"$file") (probed before, this boot)"
		else
			verdict=$(accel_probe "$vmlinuz")
			mkdir -p "$CACHE/accel"
			printf '%s\n' "$verdict" >"$file.$$" && mv "$file.$$" "$file"
		fi
	fi
	ACCEL=${verdict%% *}
	if [[ $ACCEL == kvm ]]; then
		accel_args kvm
		ACCEL_NOTE="accelerator kvm: a probe boot reached user space in ${verdict#kvm } s"
	else
		accel_args tcg,thread=single
		ACCEL_NOTE="accelerator tcg (software emulation): KVM not used: ${verdict#tcg }"
	fi
}

if [[ ${BASH_SOURCE[0]} == "$0" ]]; then
	set -euo pipefail
	. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
	(($# == 1)) || die "usage: accel.sh ${VM_LANES// /|}"
	need_pkgs qemu-system-x86 busybox-static cpio
	eval "$("$VM_DIR/kernel.sh" "$1")"
	vm_accel "$VMLINUZ"
	echo "$ACCEL_NOTE"
fi

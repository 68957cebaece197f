#!/bin/bash
# accel-test.sh: the accelerator choice (accel.sh) on this machine, without a VM lane:
# - KSTATS_VM_ACCEL overrides, and picks the CPU model that goes with it;
# - a probe that cannot boot falls back to TCG with QEMU's reason, once: the second
#   call reuses the verdict kept for this boot and says so;
# - without a usable /dev/kvm, TCG with that reason and no probe.
# Whether KVM itself works here is the lanes' business: each prints its choice.
set -euo pipefail
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
. "$VM_DIR/accel.sh"
need_pkgs qemu-system-x86 busybox-static cpio
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export CACHE=$work/cache
fails=0
check() {	# check DESCRIPTION TEST...
	local what=$1
	shift
	if "$@"; then
		echo "ok - $what"
	else
		echo "not ok - $what: ACCEL=${ACCEL:-} ARGS=${ACCEL_ARGS[*]:-} NOTE=${ACCEL_NOTE:-}"
		fails=$((fails + 1))
	fi
}

KSTATS_VM_ACCEL=tcg,thread=single vm_accel /nonexistent
check "KSTATS_VM_ACCEL=tcg,thread=single: TCG, -cpu max" \
	[ "$ACCEL ${ACCEL_ARGS[*]}" == "tcg -accel tcg,thread=single -cpu max,la57=off" ]
KSTATS_VM_ACCEL=kvm vm_accel /nonexistent
check "KSTATS_VM_ACCEL=kvm: KVM, -cpu host, no probe" \
	[ "$ACCEL ${ACCEL_ARGS[*]}" == "kvm -accel kvm -cpu host" ]
KSTATS_VM_ACCEL=kvm KSTATS_VM_CPU=EPYC vm_accel /nonexistent
check "KSTATS_VM_CPU overrides the model" [ "${ACCEL_ARGS[*]}" == "-accel kvm -cpu EPYC" ]

# A kernel image QEMU cannot load: the probe fails whatever the machine.
head -c 4096 /dev/urandom >"$work/garbage"
unset KSTATS_VM_ACCEL
start=$SECONDS
vm_accel "$work/garbage"
if [[ -r /dev/kvm && -w /dev/kvm ]]; then
	check "an unbootable kernel: TCG, QEMU's reason given" \
		[ "$ACCEL ${ACCEL_ARGS[*]}" == "tcg -accel tcg,thread=single -cpu max,la57=off" ]
	check "the reason is QEMU's, not a timeout" \
		eval '[[ $ACCEL_NOTE == *"KVM not used: "* && $ACCEL_NOTE != *"no user space"* ]]'
	# No timing tolerance of our own: QEMU refuses a random image before it runs a guest
	# instruction (well under a second here), so only a probe that missed QEMU's exit and
	# waited out its deadline can reach it, however loaded the machine.
	check "the probe ended at QEMU's exit, not at its ${ACCEL_PROBE_SECONDS} s deadline" \
		[ $((SECONDS - start)) -lt "$ACCEL_PROBE_SECONDS" ]
	first=$ACCEL_NOTE
	vm_accel "$work/garbage"
	check "asked again: the verdict kept for this boot" \
		[ "$ACCEL_NOTE" == "$first (probed before, this boot)" ]
else
	check "no usable /dev/kvm: TCG, said so" eval '[[ $ACCEL == tcg && $ACCEL_NOTE == *"no usable /dev/kvm"* ]]'
fi
echo "# $ACCEL_NOTE"
((fails == 0))

#!/usr/bin/env bash
# Kernel style: checkpatch.pl (from the pinned linux-source package) on every
# kernel-side C file, and kernel-doc on the exported API's header.
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
. "$top/tests/vm/lib.sh"
cd "$top"

tools=$CACHE/checkpatch-$DEBUG_SRC_VERSION
extract_checkpatch() {
	# The debug kernel's build may have kept it meanwhile (debug-build.sh).
	[ -x "$tools/scripts/checkpatch.pl" ] && return 0
	need_pkgs "$DEBUG_SRC_PKG=$DEBUG_SRC_VERSION" xz-utils
	local tarball tmp
	tarball=$(ls /usr/src/"$DEBUG_SRC_PKG".tar.xz)
	tmp=$(mktemp -d "$CACHE/checkpatch.XXXXXX")
	tar -C "$tmp" -xf "$tarball" --wildcards --strip-components=1 \
		'*/scripts/checkpatch.pl' '*/scripts/spelling.txt' \
		'*/scripts/const_structs.checkpatch' '*/scripts/kernel-doc'
	mv "$tmp" "$tools"
}
[ -x "$tools/scripts/checkpatch.pl" ] || with_lock "$CACHE/checkpatch.lock" extract_checkpatch

checkpatch() {
	"$tools/scripts/checkpatch.pl" --no-tree --quiet --strict --show-types \
		--ignore FILE_PATH_CHANGES,SPDX_LICENSE_TAG,CONST_STRUCT"$1" -f "${@:2}"
}
kernel_files=($(ls module/*.[ch] include/linux/*.h tests/kmod/*.c | grep -v '\.mod\.c$'))
# Headers shared with user space spell their types the portable way, and
# define __always_inline where a C library does not (musl).
shared_files=(include/kstats_hist.h tests/kmod/selftest_seq.h)
files=("${kernel_files[@]}" "${shared_files[@]}")
rc=0
checkpatch "" "${kernel_files[@]}" || rc=1
checkpatch ",PREFER_KERNEL_TYPES,PREFER_DEFINED_ATTRIBUTE_MACRO,COMPLEX_MACRO" \
	"${shared_files[@]}" || rc=1
# Every exported function documented, with every parameter.
out=$("$tools/scripts/kernel-doc" -none -Wall include/linux/kstats.h 2>&1) || rc=1
[ -z "$out" ] || { printf '%s\n' "$out"; rc=1; }
[ $rc -eq 0 ] && echo "style: checkpatch and kernel-doc clean (${#files[@]} files)"
exit $rc

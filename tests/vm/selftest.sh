#!/bin/bash
# selftest.sh [LANE...]   (default: 6.1 6.12 debug)
# Proves the harness on each lane: a smoke job passes; a job exiting 1 fails the lane; an external
# module built against the lane's KDIR loads and unloads cleanly; one that WARNs fails the lane.
# On the debug lane also: a leaking module fails (kmemleak), an out-of-bounds read fails (KASAN).
set -euo pipefail
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

lanes=("$@")
((${#lanes[@]})) || lanes=(6.1 6.12 debug)
# Under /tmp on purpose: shared into the guest as KSTATS_VM_OUT, the only host /tmp it can see.
work=$(mktemp -d /tmp/kstats-selftest.XXXXXX)
# Kept when something fails: the console logs are the evidence.
trap '((failures)) || rm -rf "$work"' EXIT
failures=0

# module NAME BODY: a throwaway module whose init runs BODY.
module() {
	printf '%s\n' '#include <linux/module.h>' '#include <linux/slab.h>' \
		"static int __init kw_init(void) { $2 return 0; }" \
		'static void __exit kw_exit(void) { }' \
		'module_init(kw_init);' 'module_exit(kw_exit);' 'MODULE_LICENSE("GPL");' >"$work/kw_$1.c"
	echo "obj-m += kw_$1.o" >>"$work/Makefile"
	printf '#!/bin/bash\nset -e\ninsmod "$KSTATS_VM_OUT/kw_%s.ko"\nrmmod kw_%s\n' "$1" "$1" >"$work/load-$1.sh"
	chmod +x "$work/load-$1.sh"
}
module ok 'pr_info("kw_ok: loaded\n");'
module warn 'WARN_ON(1);'
# Several leaks: the last pointer may survive in a dead stack frame, which kmemleak still scans.
module leak 'for (int i = 0; i < 8; i++) { void *p = kmalloc(128, GFP_KERNEL); OPTIMIZER_HIDE_VAR(p); }'
module kasan 'char *p = kmalloc(8, GFP_KERNEL); OPTIMIZER_HIDE_VAR(p); pr_info("%d\n", READ_ONCE(p[8])); kfree(p);'

# expect LANE pass|fail DESCRIPTION CMD...: run a job, compare the verdict, keep the evidence.
expect() {
	local lane=$1 want=$2 what=$3 got=pass start=$SECONDS
	shift 3
	KSTATS_VM_OUT=$work/$lane "$VM_DIR/run.sh" "$lane" "$@" >"$work/$lane/out" 2>"$work/$lane/err" || got=fail
	if [[ $got == "$want" ]]; then
		say "ok: lane $lane: $what: ${got}ed as expected ($((SECONDS - start)) s)"
	else
		say "NOT OK: lane $lane: $what: wanted $want, got $got"
		cat "$work/$lane/out" "$work/$lane/err" >&2
		failures=$((failures + 1))
	fi
}
# seen LANE REGEX: the last failure was reported for the right reason.
seen() {
	grep -qE "$2" "$work/$1/err" && return 0
	say "NOT OK: lane $1: no '$2' among the reported lines"
	failures=$((failures + 1))
}

for lane in "${lanes[@]}"; do
	eval "$("$VM_DIR/kernel.sh" "$lane")"
	mkdir -p "$work/$lane"
	cp "$work"/*.c "$work"/*.sh "$work/Makefile" "$work/$lane/"
	quiet kmake "$work/$lane" M="$work/$lane" modules || die "lane $lane: external module build failed"
	expect "$lane" pass "smoke job" "$VM_DIR/smoke.sh"
	expect "$lane" fail "job exiting 1" /bin/false
	expect "$lane" pass "load/unload a module" "$work/$lane/load-ok.sh"
	expect "$lane" fail "module that WARNs" "$work/$lane/load-warn.sh"
	seen "$lane" 'WARNING:.*kw_init'
	[[ $lane == debug ]] || continue
	expect "$lane" fail "module that leaks" "$work/$lane/load-leak.sh"
	seen "$lane" 'unreferenced object'
	expect "$lane" fail "out-of-bounds read" "$work/$lane/load-kasan.sh"
	seen "$lane" 'BUG: KASAN: slab-out-of-bounds'
done
((failures == 0)) || die "$failures selftest check(s) failed; logs in $work"
say "selftest passed: ${lanes[*]}"

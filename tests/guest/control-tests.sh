#!/usr/bin/env bash
# debugfs kstats/_control, the 2020 patch's command line, in the VM: trace
# S [bits B] [start X] [end Y], remove S, reading it, and the same refusals
# as TRACE/UNTRACE (privilege, bad input, no such symbol, name taken).
# Prints TAP. Usage: tests/guest/control-tests.sh BUILD_DIR
set -uo pipefail
build=$(realpath "${1:?usage: control-tests.sh BUILD_DIR}")
K=$PWD/cli/kstatsctl
ctl=/sys/kernel/debug/kstats/_control
py=/usr/bin/python3
. tests/guest/tap.sh

# put LINE: writes LINE to _control in one write(2), as echo does.
put() { printf '%s\n' "$1" >"$ctl"; }
# refused ERRNO_TEXT LINE: the write fails with that error.
refused() {
	local out
	out=$(bash -c 'printf "%s\n" "$1" >"$2"' bash "$2" "$ctl" 2>&1) && { echo "accepted: $2"; return 1; }
	grep -q "$1" <<<"$out" || { echo "want '$1': $out"; return 1; }
}
# field NAME KEY: KEY of metric NAME in 'kstatsctl list -j'.
field() {
	"$K" -j list | "$py" -c "import json,sys
m = [x for x in json.load(sys.stdin)['metrics'] if x['name'] == '$1']
print(m[0]['$2'] if m else 'absent')"
}
names() { tr '\n' ' ' <"$ctl"; }
# As root with no capability left: the module's own check refuses.
refused_without_caps() {
	local out
	out=$(setpriv --bounding-set=-all --inh-caps=-all bash -c 'printf "%s\n" "$1" >"$2"' \
		bash "trace x start vfs_read" "$ctl" 2>&1) && { echo "accepted"; return 1; }
	grep -q "Operation not permitted" <<<"$out" || { echo "$out"; return 1; }
}

ok "insmod kstats" insmod "$build/module/kstats.ko"
ok "_control is there, 0600" test "$(stat -c %a "$ctl")" = 600
ok "reading it: no trace yet" test -z "$(cat "$ctl")"
ok "trace vfs_read bits 4" put "trace vfs_read bits 4"
ok "... metrics vfs_read and GAP-vfs_read" test \
	"$(field vfs_read name) $(field GAP-vfs_read name)" = "vfs_read GAP-vfs_read"
ok "... kind trace, frac_bits 4" test "$(field vfs_read kind) $(field vfs_read frac_bits)" = "trace 4"
ok "... it times reads" sh -c "for i in 1 2 3 4 5; do cat /proc/version >/dev/null; done; \
	[ \"\$(\"$K\" show vfs_read -f json | $py -c 'import json,sys; print(json.load(sys.stdin)[\"metrics\"][0][\"count\"] > 0)')\" = True ]"
ok "trace wr start vfs_write: function vfs_write as wr" put "trace wr start vfs_write"
ok "... its target is vfs_write" test "$(field wr owner)" = vfs_write
ok "trace tps start __tracepoint_kmalloc end __tracepoint_kfree: tracepoints" \
	put "trace tps start __tracepoint_kmalloc end __tracepoint_kfree"
ok "... its target is tp:kmalloc..tp:kfree" test "$(field tps owner)" = "tp:kmalloc..tp:kfree"
ok "trace sec bits 2 start vfs_read end vfs_write: a section" \
	put "trace  sec  bits 2 start vfs_read   end vfs_write"
ok "... vfs_read..vfs_write, frac_bits 2, no GAP" test \
	"$(field sec owner) $(field sec frac_bits) $(field GAP-sec name)" = "vfs_read..vfs_write 2 absent"
ok "reading it lists the four traces" test "$(names)" = "vfs_read wr tps sec "

ok "no name: EINVAL" refused "Invalid argument" "trace"
ok "bits 6: EINVAL" refused "Invalid argument" "trace x bits 6"
ok "start without a value: EINVAL" refused "Invalid argument" "trace x start"
ok "an unknown word: EINVAL" refused "Invalid argument" "trace x from vfs_read"
ok "an unknown command: EINVAL" refused "Invalid argument" "frob x"
ok "a tracepoint alone: EINVAL" refused "Invalid argument" "trace x start __tracepoint_kmalloc"
ok "a bad name: EINVAL" refused "Invalid argument" "trace bad/name"
ok "the name _control: EINVAL" refused "Invalid argument" "trace _control start vfs_read"
ok "a name taken: EEXIST" refused "File exists" "trace vfs_read"
ok "no such function: ENOENT" refused "No such file or directory" "trace kstats_no_such_fn"
ok "remove without a name: EINVAL" refused "Invalid argument" "remove"
ok "remove two names: EINVAL" refused "Invalid argument" "remove wr tps"
ok "remove an unknown trace: ENOENT" refused "No such file or directory" "remove nosuch"
ok "root without capabilities: EPERM" refused_without_caps
ok "as uid 65534: cannot open it" sh -c \
	"! setpriv --reuid=65534 --regid=65534 --clear-groups sh -c 'cat $ctl' 2>/dev/null"
ok "still the four traces" test "$(names)" = "vfs_read wr tps sec "
ok "remove vfs_read, wr, tps, sec" sh -c \
	"printf 'remove vfs_read\n' >$ctl && printf 'remove wr\n' >$ctl && printf 'remove tps\n' >$ctl && printf 'remove sec\n' >$ctl"
ok "no trace left, no metric left" sh -c "[ -z \"\$(cat $ctl)\" ] && \"$K\" list | grep -qx 'no metrics'"
# A trace made through _control belongs to no file: once _control is closed
# a fresh /dev/kstats open (perhaps at the same address) may not RECORD
# into it without privilege. (White-box: kstats_metric_new() WARNs if any
# file but a /dev/kstats one becomes a creator, and warnings fail lanes.)
ok "a _control trace takes no RECORD from 1000 fresh opens without privilege" \
	"$build/trace_test" control-creator 1000
ok "remove it" sh -c "printf 'remove t.ctlown\n' >$ctl"
ok "create _control from user space: refused" sh -c "! \"$K\" create _control 2>/dev/null"
ok "rmmod kstats" rmmod kstats
tap_end

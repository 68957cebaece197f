#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Values at USDT probes and in user memory (--value/--if), inside a lane's
VM, kstats loaded. Prints TAP lines; exits 1 if any failed.

The oracles:
- tests/guest/usdt_target.c's vals: ktest:val(int v, long w) fires with
  known values (the program prints each), its arguments in registers
  (-4@%edx -8@%rdi, as gcc left them); ktest:mem(long w, int v) in a
  function built without optimisation, its arguments in memory on the
  stack (-8@-8(%rbp)): kstats' slots hold exactly the program's values,
  slot by slot, and NEG-NAME the negatives' magnitudes. bpftrace decodes
  the same notes on its own (libbpf's USDT argument parser): its values
  at the same hits are the program's too, so both read the same thing.
- vals reaches ktest:val through two call paths (frame pointers): --by
  stack keys its values by path, exactly the hits of each.
- reqs: sections between ktest:req__start(id, size) and
  ktest:req__done(id, status), size in memory (-12672(%rbp)), status in
  a register: VALUE-NAME holds each section's size, a predicate on the
  end's status keeps exactly the failed ones.
- utarget's u_deref(p, r): *(s64 *)arg0 reads what p points to, the
  program's own v; a pointer to no page counts a fault, records nothing.
Usage: usdt_value_test.py BUILD_DIR
"""
import os
import subprocess
import sys
import tempfile

import utap
from utap import bpftrace_missing, bpftrace_output, bpftrace_ready, ctl, ctl_lines, exact, metric, ok

build = sys.argv[1]
TARGET = os.path.realpath(os.path.join(build, "usdt_target"))
UTARGET = os.path.realpath(os.path.join(build, "utarget"))
VAL = "usdt:%s:ktest:val" % TARGET
MEM = "usdt:%s:ktest:mem" % TARGET
HITS = 90


def counts(name, hits, rejected, faults, what):
    m = metric(name)
    if not ok(m is not None, "%s: %s exists" % (what, name)):
        return
    t = m["trace"]
    ok((t["hits"], t.get("rejected", 0), t.get("faults", 0), t["misses"]) ==
       (hits, rejected, faults, 0), "%s: %d hits, %d rejected, %d faults, no miss"
       % (what, hits, rejected, faults), "got %s" % t)


def untrace(*names):
    rc, out = ctl("untrace", *names)
    ok(rc == 0, "untrace " + " ".join(names), out)


def bpftrace_start():
    """bpftrace keeping every value of both probes' arguments, or None."""
    return bpftrace_ready('usdt:%s:ktest:val { @v[arg0] = count(); @w[arg1] = count(); } '
                         'usdt:%s:ktest:mem { @mw[arg0] = count(); @mv[arg1] = count(); } '
                         'usdt:%s:ktest:stop { exit(); }' % (TARGET, TARGET, TARGET))


def bpftrace_values(p):
    """{map: [value, ...]} as bpftrace counted them ("@v[-3]: 2")."""
    got = {}
    for line in bpftrace_output(p).splitlines():
        if line.startswith("@") and "[" in line and "]:" in line:
            m, rest = line[1:].split("[", 1)
            key, n = rest.split("]:", 1)
            got.setdefault(m, []).extend([int(key)] * int(n))
    return got


def signed(vals, what, name):
    exact(name, [x for x in vals if x >= 0], what)
    exact("NEG-" + name, [-x for x in vals if x < 0], what + ", negatives")


def points():
    t = subprocess.Popen([TARGET], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    pid = str(t.pid)
    traces = [("uv.w", VAL, "--value", "arg1", "--bits", "0"),
              ("uv.v", VAL, "--value", "arg0", "--bits", "3"),
              ("uv.mw", MEM, "--value", "arg0", "--bits", "3"),
              ("uv.mv", MEM, "--value", "arg1", "--bits", "0", "--if", "arg0 >= 1000"),
              ("uv.st", VAL, "--value", "arg1", "--by", "stack")]
    for name, probe, *opts in traces:
        rc, out = ctl("trace", "--keep", "--pid", pid, "--name", name, probe, *opts)
        ok(rc == 0, "trace %s %s" % (probe.split(":", 2)[2], " ".join(opts)), out)
    bt = bpftrace_start()
    t.stdin.write("vals %d\n" % HITS)
    t.stdin.flush()
    pairs = []
    for _ in range(HITS):
        v, w = t.stdout.readline().split()
        pairs.append((int(v), int(w)))
    tail = t.stdout.readline().split()
    ok(tail == ["vals", str(HITS - HITS // 3), str(HITS // 3)],
       "usdt_target fired ktest:val %d times through two paths" % HITS, tail)
    # The keys hold what NAME holds: a negative value is only in NEG-NAME.
    a = sum(1 for i, (_, w) in enumerate(pairs) if i % 3 != 2 and w >= 0)
    b = sum(1 for i, (_, w) in enumerate(pairs) if i % 3 == 2 and w >= 0)
    vs = [v for v, _ in pairs]
    ws = [w for _, w in pairs]
    for name, vals, what in (("uv.w", ws, "ktest:val arg1 (-8@%rdi), frac_bits 0"),
                             ("uv.v", vs, "ktest:val arg0 (-4@%edx), frac_bits 3"),
                             ("uv.mw", ws, "ktest:mem arg0 (in memory: -8@-8(%rbp))")):
        counts(name, HITS, 0, 0, what)
        signed(vals, what, name)
    kept = [v for v, w in pairs if w >= 1000]
    counts("uv.mv", len(kept), HITS - len(kept), 0, "ktest:mem --if 'arg0 >= 1000'")
    signed(kept, "ktest:mem arg1 (in memory: -4@-12(%rbp)), --if 'arg0 >= 1000'", "uv.mv")
    stacks(a, b)
    untrace(*[tr[0] for tr in traces])
    t.stdin.write("stop\n")
    t.stdin.flush()
    t.stdout.readline()
    if not bpftrace_missing(bt, "bpftrace's values at the same hits"):
        got = bpftrace_values(bt)
        want = {"v": sorted(vs), "w": sorted(ws), "mw": sorted(ws), "mv": sorted(vs)}
        ok({k: sorted(got.get(k, [])) for k in want} == want,
           "bpftrace, reading the same notes its own way, got the program's values at "
           "the same hits (both probes, registers and memory)",
           "bpftrace %s" % {k: got.get(k, [])[:8] for k in want})
    t.stdin.write("quit\n")
    t.stdin.close()
    ok(t.wait(timeout=60) == 0, "usdt_target exited cleanly")


def stacks(a, b):
    """--by stack at ktest:val: its values keyed by the call path, a and b hits
    (usdt_target is built with every frame pointer, leaf functions' too)."""
    out = ctl_lines("show", "--folded", "uv.st")
    keyed = {}
    for line in out.splitlines():
        frames, _, n = line.rpartition(" ")
        names = [f.split(" ")[0] for f in frames.split(";")]
        k = tuple(f for f in names if f.startswith("val_"))
        keyed[k] = keyed.get(k, 0) + int(n)
    want = {("val_path_a", "val_fire"): a, ("val_path_b", "val_mid", "val_fire"): b}
    ok(keyed == want, "--by stack at a USDT probe: its hits keyed by the program's stack, "
       "%d and %d by path (the non-negative values)" % (a, b),
       "got %s\n%s" % (keyed, out[:600]))


def sections():
    t = subprocess.Popen([TARGET], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    pid = str(t.pid)
    start = "usdt:%s:ktest:req__start" % TARGET
    end = "usdt:%s:ktest:req__done" % TARGET
    traces = [("ur.size", "--value", "start.arg1", "--time", "--bits", "0"),
              ("ur.fail", "--if", "end.arg1 < 0"),
              ("ur.st", "--value", "end.arg1")]
    for name, *opts in traces:
        rc, out = ctl("trace", "--keep", "--pid", pid, name, "--start", start, "--end", end,
                      *opts)
        ok(rc == 0, "trace %s ktest:req__start..ktest:req__done %s" % (name, " ".join(opts)),
           out)
    with tempfile.TemporaryDirectory() as d:
        t.stdin.write("reqs %d %s\n" % (HITS, d))
        t.stdin.flush()
        t.stdout.readline()
        reqs = [tuple(int(x) for x in line.split()) for line in open(os.path.join(d, "reqs"))]
    ok(len(reqs) == HITS, "usdt_target ran %d sections" % HITS)
    counts("ur.size", HITS, 0, 0, "--value start.arg1 --time (size, in memory)")
    m = metric("ur.size")
    ok(m is not None and sum(bk["count"] for bk in m["buckets"]) == HITS,
       "--value --time: a duration per section in ur.size")
    exact("VALUE-ur.size", [r[1] for r in reqs], "--value start.arg1 (the start's size)")
    failed = [r for r in reqs if r[2] < 0]
    counts("ur.fail", len(failed), HITS - len(failed), 0, "--if 'end.arg1 < 0' (decided "
           "at the end)")
    counts("ur.st", HITS, 0, 0, "--value end.arg1 (status, a register)")
    signed([r[2] for r in reqs], "--value end.arg1 (the end's status)", "ur.st")
    untrace(*[tr[0] for tr in traces])
    t.stdin.write("quit\n")
    t.stdin.close()
    ok(t.wait(timeout=60) == 0, "usdt_target exited cleanly")


def user_memory():
    """*(s64 *)arg0 at a user-space function: what its pointer points to."""
    p = subprocess.Popen([UTARGET, "vals", "40"], stdin=subprocess.PIPE,
                         stdout=subprocess.PIPE, text=True)
    rc, out = ctl("trace", "--keep", "--pid", str(p.pid), "--name", "ud.v",
                  UTARGET + ":u_deref", "--value", "*(s64 *)arg0", "--bits", "3")
    ok(rc == 0, "trace utarget:u_deref --value '*(s64 *)arg0'", out)
    out = p.communicate("go\n", timeout=120)[0]
    vs = [int(line.split()[0]) for line in out.splitlines()]
    counts("ud.v", len(vs), 0, 1, "*(s64 *)arg0 (the program's memory; one pointer to "
           "no page)")
    signed(vs, "*(s64 *)arg0", "ud.v")
    untrace("ud.v")


def refusals():
    cases = [
        ("a probe alone without --value", [VAL], 2, "--value EXPR"),
        ("an argument the probe has not", [VAL, "--value", "arg2"], 2, "has 2 arguments"),
        ("retval at a probe", [VAL, "--value", "retval"], 2, "no return value"),
        ("a probe's duration", [VAL, "--value", "duration"], 2, "no duration"),
        ("a name for an argument", [VAL, "--value", "count"], 2, "name no arguments"),
        ("--budget at a probe alone", [VAL, "--value", "arg0", "--budget", "1%"], 2,
         "not measured"),
        ("a member of a user-space pointer", [UTARGET + ":u_deref", "--value", "arg0->x"], 2,
         "names a member"),
    ]
    for what, args, want_rc, text in cases:
        rc, out = ctl("trace", "--keep", *args)
        ok(rc == want_rc and text in out, "refused: %s (%s)" % (what, text), out)
    rc, out = ctl("-j", "list")
    ok(rc == 0 and "ktest" not in out and "u_deref" not in out,
       "nothing attached by a refusal", out)


rc, out = ctl("-j", "info")
if ok(rc == 0 and "usdt-expr" in out and "uprobe-loads" in out,
      "kstatsctl info lists usdt-expr and uprobe-loads", out):
    points()
    sections()
    user_memory()
    refusals()
sys.exit(1 if utap.failed else 0)

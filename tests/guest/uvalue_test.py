#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Values and predicates on a user-space function (--value/--if at a
uprobe), inside a lane's VM, kstats loaded. Prints TAP lines; exits 1 if any
failed.

The oracle is tests/guest/utarget.c's u_val(v, w): called with known
arguments (w is -v as an int), it returns 3 * v - 100, and the program
prints each v and what it returned. The sources are the user's registers,
x86-64 SysV order (arg0 rdi, arg1 rsi), and the return register. kstats'
slots must hold exactly those values, slot by slot, at frac_bits 0 and 3;
a negative value's magnitude is in NEG-NAME; a predicate's hits and
rejected calls are exact.
Usage: uvalue_test.py BUILD_DIR
"""
import os
import subprocess
import sys

import utap
from utap import ctl, exact, metric, ok

build = sys.argv[1]
TARGET = os.path.realpath(os.path.join(build, "utarget"))
CALLS = 60


def calls(traces):
    """Starts utarget vals, traces it with each of @traces (name, options),
    makes its calls: [(v, r)] as it printed them, or None."""
    p = subprocess.Popen([TARGET, "vals", str(CALLS)], stdin=subprocess.PIPE,
                         stdout=subprocess.PIPE, text=True)
    for name, opts in traces:
        rc, out = ctl("trace", "--keep", "--pid", str(p.pid), "--name", name,
                      TARGET + ":u_val", *opts)
        if not ok(rc == 0, "trace utarget:u_val %s" % " ".join(opts), out):
            p.kill()
            p.wait()
            return None
    out = p.communicate("go\n", timeout=120)[0]
    pairs = [tuple(int(x) for x in line.split()) for line in out.splitlines()]
    ok(p.returncode == 0 and len(pairs) == CALLS and all(r == 3 * v - 100 for v, r in pairs),
       "utarget made %d calls of u_val, each returning 3 * v - 100" % CALLS, out[-300:])
    return pairs


def counts(name, hits, rejected, what):
    m = metric(name)
    if not ok(m is not None, "%s: %s exists" % (what, name)):
        return
    t = m["trace"]
    ok((t["hits"], t.get("rejected", 0), t.get("faults", 0), t["misses"]) ==
       (hits, rejected, 0, 0), "%s: %d hits, %d rejected, no fault, no miss"
       % (what, hits, rejected), "got %s" % t)


def untrace(*names):
    rc, out = ctl("untrace", *names)
    ok(rc == 0, "untrace " + " ".join(names), out)


def values():
    traces = [("uv.a0", ("--value", "(s64)arg0", "--bits", "0")),
              ("uv.a1", ("--value", "(s32)arg1", "--bits", "3")),
              ("uv.r", ("--value", "(s64)retval", "--bits", "3")),
              ("uv.r0", ("--value", "(s64)retval", "--bits", "0"))]
    pairs = calls(traces)
    if pairs is None:
        return
    vs = [v for v, _ in pairs]
    rs = [r for _, r in pairs]
    ws = [-v for v in vs]
    for name, src, what in (("uv.a0", vs, "(s64)arg0, frac_bits 0"),
                            ("uv.a1", ws, "(s32)arg1 (an int), frac_bits 3"),
                            ("uv.r", rs, "(s64)retval, frac_bits 3"),
                            ("uv.r0", rs, "(s64)retval, frac_bits 0")):
        counts(name, CALLS, 0, what)
        exact(name, [x for x in src if x >= 0], what)
        exact("NEG-" + name, [-x for x in src if x < 0], what + ", negatives")
    untrace(*[t[0] for t in traces])


def predicates():
    traces = [("uv.p", ("--if", "(s64)retval < 0")),
              ("uv.pt", ("--value", "(s64)arg0", "--time", "--bits", "0", "--if",
                         "(s64)arg0 > 20 || (s64)retval < -200")),
              ("uv.pu", ("--value", "arg0", "--bits", "0", "--if", "(s64)arg0 >= 0"))]
    pairs = calls(traces)
    if pairs is None:
        return
    neg = [v for v, r in pairs if r < 0]
    counts("uv.p", len(neg), CALLS - len(neg), "--if '(s64)retval < 0' (decided at exit)")
    m = metric("uv.p")
    ok(m is not None and sum(b["count"] for b in m["buckets"]) == len(neg),
       "--if '(s64)retval < 0': a duration per call it kept")
    kept = [v for v, r in pairs if v > 20 or r < -200]
    counts("uv.pt", len(kept), CALLS - len(kept), "--if 'arg0 > 20 || retval < -200'")
    m = metric("uv.pt")
    ok(m is not None and sum(b["count"] for b in m["buckets"]) == len(kept),
       "--value --time: a duration per call kept in uv.pt")
    exact("VALUE-uv.pt", [v for v in kept if v >= 0], "--value --time --if")
    exact("NEG-uv.pt", [-v for v in kept if v < 0], "--value --time --if, negatives")
    pos = [v for v in (p[0] for p in pairs) if v >= 0]
    counts("uv.pu", len(pos), CALLS - len(pos), "--value arg0 --if '(s64)arg0 >= 0' "
           "(decided at entry)")
    exact("uv.pu", pos, "--value arg0 (unsigned), kept calls")
    untrace(*[t[0] for t in traces])


def refusals():
    rc, out = ctl("trace", "--keep", TARGET + ":u_val", "--value", "v")
    ok(rc == 2 and "argN" in out, "--value NAME on a user-space function: refused, argN "
       "said", out)
    rc, out = ctl("-j", "list")
    ok(rc == 0 and "u_val" not in out, "nothing attached by a refusal", out)


rc, out = ctl("-j", "info")
if ok(rc == 0 and "uprobe-expr" in out, "kstatsctl info lists uprobe-expr", out):
    values()
    predicates()
    refusals()
sys.exit(1 if utap.failed else 0)

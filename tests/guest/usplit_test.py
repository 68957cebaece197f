#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""--split and --self on user-space functions (uprobes), inside a lane's VM,
kstats loaded. Prints TAP lines; exits 1 if any failed.

The oracle is tests/guest/utarget.c's "split" run: N calls each of u_nap
(sleeps 2 ms), u_busy (spins 300 us) and u_outer (spins, and calls u_inner
twice), each timing itself with CLOCK_MONOTONIC and with the kernel's own
CPU clock of the thread (CLOCK_THREAD_CPUTIME_ID, sum_exec_runtime), summed
per function. kstats' window (uprobe entry to uretprobe) encloses the
program's, so per function:
  - every call is in ONCPU, RUNQ and BLOCKED, which sum to the wall time
    (their sums are exact to 2^-12 of a slot's width: 0.1 %);
  - u_busy (no switch inside): ONCPU >= the thread's CPU time inside the
    calls, less 1 % + 1 ms (two clocks). Each function: ONCPU and RUNQ +
    BLOCKED not above the program's CPU time, and wall less CPU time, by
    more than BOUND a call (the probes' own cost). Around a switch there is
    no lower bound either way: the scheduler moves the thread's CPU clock
    at the clock update that begins each __schedule(), and charges the
    dequeue or the pick that follow to the other task, where kstats,
    dating the switch itself, counts the switch-out's work on the thread's
    CPU (about 100 us a sleep under KASAN) and the switch-in's as waiting
    (u_nap's ONCPU came 1.8 ms under the CPU clock in 40 sleeps on a
    loaded host);
  - u_nap: BLOCKED holds at least 1.9 ms a call (it slept 2 ms);
  - --self on u_outer and u_inner: SELF-u_outer + u_inner = u_outer (sums,
    0.2 %), SELF-u_inner = u_inner (no callee of its own traced).
And u_jumpy --split --self (longjmps out of every 4th call): exactly the
returned calls in each part, the others misses, the parts summing to the
wall time: a call never returned from is counted out of its thread's
context, never timed into a later call.
Usage: usplit_test.py BUILD_DIR
"""
import os
import subprocess
import sys
import tempfile

import utap
from utap import ctl, metric, ok

build = sys.argv[1]
TARGET = os.path.realpath(os.path.join(build, "utarget"))
TCG = os.environ.get("KSTATS_VM_ACCEL_USED", "tcg") != "kvm"
BOUND = 2000000 if TCG else 200000	# ns a call: kstats' window less the program's
N = 40
PARTS = ("ONCPU", "RUNQ", "BLOCKED")


def traced(args, traces):
    """Starts utarget ARGS, traces it with each of @traces (function,
    options), makes its calls: its output, or None."""
    p = subprocess.Popen([TARGET] + args, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                         text=True)
    for func, opts in traces:
        rc, out = ctl("trace", "--keep", "--pid", str(p.pid), "--name", func,
                      TARGET + ":" + func, *opts)
        if not ok(rc == 0, "trace utarget:%s %s" % (func, " ".join(opts)), out):
            p.kill()
            p.wait()
            return None
    out = p.communicate("go\n", timeout=600)[0]
    return out if ok(p.returncode == 0, "utarget %s" % " ".join(args), out) else None


def metrics(func, *prefixes):
    """{prefix: metric} of FUNC's metrics (prefix "" is FUNC's own)."""
    return {pre: metric(pre + func) for pre in prefixes}


def parts_sum(func, calls):
    """Every call in each part, and the parts summing to the wall time."""
    ms = metrics(func, "", *(p + "-" for p in PARTS))
    if not ok(all(ms.values()), "%s: its metrics exist" % func):
        return None
    wall = ms[""]["sum"]
    got = [ms[p + "-"]["count"] for p in PARTS]
    ok(ms[""]["count"] == calls and got == [calls] * 3,
       "%s --split: every call in ONCPU, RUNQ and BLOCKED (%d; %s)" % (func, calls, got))
    total = sum(ms[p + "-"]["sum"] for p in PARTS)
    ok(abs(total - wall) <= wall * 0.001 + 1000,
       "%s: ONCPU + RUNQ + BLOCKED = wall time (%d vs %d ns)" % (func, total, wall))
    return {p: ms[p + "-"]["sum"] for p in PARTS}


def against(func, part, got, own, calls, low=True):
    """kstats' @got of @func against the program's @own, inside its window."""
    high = own + calls * BOUND
    if low:
        ok(own - own * 0.01 - 1000000 <= got <= high, "%s: %s %d ns against the program's "
           "%d ns inside its calls: at least it less 1 %% + 1 ms, at most %d ns a call above"
           % (func, part, got, own, BOUND))
    else:
        ok(got <= high, "%s: %s %d ns against the program's %d ns inside its calls: at most "
           "%d ns a call above" % (func, part, got, own, BOUND))


def split_and_self():
    traces = [("u_nap", ["--split"]), ("u_busy", ["--split"]), ("u_outer", ["--self"]),
              ("u_inner", ["--self"])]
    out = traced(["split", str(N)], traces)
    if out is None:
        return
    own = {f[0]: [int(x) for x in f[1:]] for f in (line.split() for line in out.splitlines())}
    for func in ("u_nap", "u_busy"):
        calls, wall, cpu = own[func]
        parts = parts_sum(func, calls)
        if parts:
            against(func, "ONCPU", parts["ONCPU"], cpu, calls, low=func == "u_busy")
            against(func, "RUNQ + BLOCKED", parts["RUNQ"] + parts["BLOCKED"], wall - cpu, calls,
                    low=False)
        if parts and func == "u_nap":
            ok(parts["BLOCKED"] >= calls * 1900000,
               "u_nap: BLOCKED %d ns a call, >= 1.9 ms of the 2 ms slept" %
               (parts["BLOCKED"] // calls))
    ms = metrics("u_outer", "", "SELF-")
    ms.update({"in": metric("u_inner"), "in-self": metric("SELF-u_inner")})
    if not ok(all(ms.values()), "u_outer, u_inner: their metrics exist"):
        return
    outer, inner, self_outer = ms[""]["sum"], ms["in"]["sum"], ms["SELF-"]["sum"]
    ok(ms["SELF-"]["count"] == N and ms["in-self"]["count"] == 2 * N,
       "--self: SELF-u_outer %d calls, SELF-u_inner %d (%d, %d)" %
       (N, 2 * N, ms["SELF-"]["count"], ms["in-self"]["count"]))
    ok(abs(self_outer + inner - outer) <= outer * 0.002,
       "--self: SELF-u_outer + u_inner = u_outer (%d + %d vs %d ns)" % (self_outer, inner, outer))
    ok(abs(ms["in-self"]["sum"] - inner) <= inner * 0.002,
       "--self: SELF-u_inner = u_inner, nothing traced below it (%d vs %d ns)" %
       (ms["in-self"]["sum"], inner))
    ctl("untrace", "u_nap", "u_busy", "u_outer", "u_inner")


def jumpy():
    with tempfile.TemporaryDirectory() as d:
        out = traced(["run", "0", "0", "1", "40", d], [("u_jumpy", ["--split", "--self"])])
    if out is None:
        return
    f = out.split()
    returned, jumps = int(f[5]), int(f[7])
    m = metric("u_jumpy")
    if m and ok(m["trace"]["hits"] == returned and m["trace"]["misses"] == jumps,
                "u_jumpy --split --self: %d returned calls, %d longjmp'd out as misses (%d, %d)"
                % (returned, jumps, m["trace"]["hits"], m["trace"]["misses"])):
        parts_sum("u_jumpy", returned)
        s = metric("SELF-u_jumpy")
        ok(s and s["count"] == returned and abs(s["sum"] - m["sum"]) <= m["sum"] * 0.002,
           "u_jumpy: SELF- its own wall time in every returned call, none of a call left "
           "by longjmp")
    ctl("untrace", "u_jumpy")


split_and_self()
jumpy()
rc, out = ctl("list")
ok(rc == 0 and "u_" not in out, "nothing left traced", out)
sys.exit(1 if utap.failed else 0)

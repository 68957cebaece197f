#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""A user-space trace's probe floor and costs, which kstatsctl measures on
empty functions of its own (the module cannot run user code: kstats(4),
TRACE's user_floor_ns, user_call_ps, user_skip_ps), and the governor they
let govern user-space functions. Inside a lane's VM, kstats loaded. Prints
TAP lines; exits 1 if any failed.

The oracle is utarget's u_empty: empty, and beginning with push %rbp as
kstatsctl's own empty functions do (what uprobes does at a breakpoint
depends on the instruction there). The program counts its calls, and
measures with its own clock what a call of u_empty costs over its untraced
twin (the fastest of 15 batches of 64 calls of each), as kstatsctl measures
its own. So:
- kstats' hits are the program's calls, exactly;
- the call cost kstats reports and the program's own figure are two
  measurements of one quantity in two processes: within a factor of 2 (the
  host's jitter moves a fastest batch by tens of percent under TCG; a
  wrong unit or the wrong function is off by far more);
- the floor and kstats' median duration of u_empty are both the median of
  what the probes report for one empty function: within a factor of 2;
- the floor lies inside what a call costs: the probes' window, from the
  entry handler's clock to the return handler's, is part of the traps;
- a declined call costs no more than a recorded one.
Then a busy user function with --budget 1%: far over it at full recording,
so the governor samples it, or detaches it when even declining every call
costs more (a uprobe's trap is most of a call's cost), and show says so.
A USDT section's floor and costs are measured too (a start and an end).
Usage: ucost_test.py BUILD_DIR
"""
import json
import math
import os
import subprocess
import sys
import time

import utap
from utap import ctl, metric, ok

build = sys.argv[1]
TARGET = os.path.realpath(os.path.join(build, "utarget"))
USDT = os.path.realpath(os.path.join(build, "usdt_target"))


def within_2x(a, b):
    return a > 0 and b > 0 and abs(math.log(a / b)) <= math.log(2)


def median_ns(m):
    """kstats' median sample, as its slot's middle."""
    s = []
    for b in sorted(m["buckets"], key=lambda b: b["low"]):
        s += [(b["low"] + b["high"]) / 2] * b["count"]
    return s[len(s) // 2] if s else 0


def empty_function():
    rc, out = ctl("trace", "--keep", "--bits", "5", "--name", "u.empty", TARGET + ":u_empty")
    if not ok(rc == 0, "trace utarget:u_empty --bits 5", out):
        return
    p = subprocess.Popen([TARGET, "empty", "200"], stdin=subprocess.PIPE,
                         stdout=subprocess.PIPE, text=True)
    out, _ = p.communicate("go\n", timeout=600)
    m = metric("u.empty")
    ctl("untrace", "u.empty")
    words = out.split()
    if not ok(p.returncode == 0 and len(words) == 4 and m is not None,
              "utarget empty 200 ran, and kstats shows u.empty", out):
        return
    calls, loss_ps = int(words[1]), int(words[3])
    t, smp = m["trace"], m["trace"]["sampling"]
    floor, call, skip = t["floor_ns"], smp["call_cost_ps"], smp["skip_cost_ps"]
    med = median_ns(m)
    print("# u_empty: floor %d ns, median %d ns; call cost %d ps (the program's own %d ps), "
          "skip cost %d ps" % (floor, med, call, loss_ps, skip))
    ok(t["hits"] == calls and t["misses"] == 0,
       "u_empty: kstats counted the program's %d calls exactly" % calls,
       "hits %d, misses %d" % (t["hits"], t["misses"]))
    ok(smp["calibrated"] and floor > 0 and call > 0 and skip > 0,
       "show -j: a floor, a call cost and a skip cost, calibrated", smp)
    ok(within_2x(call, loss_ps),
       "the call cost is the program's own figure of what a call costs, within 2x",
       "kstats %d ps, the program %d ps" % (call, loss_ps))
    ok(within_2x(floor, med),
       "the floor is kstats' median duration of an empty function, within 2x",
       "floor %d ns, median %d ns" % (floor, med))
    ok(floor * 1000 <= call, "the floor lies inside what a call costs",
       "floor %d ns, call %d ps" % (floor, call))
    ok(skip <= call, "a declined call costs no more than a recorded one",
       "skip %d ps, call %d ps" % (skip, call))
    rc, out = ctl("show", "u.empty")
    ok(rc != 0, "untraced: gone", out)


def listed_state(name):
    rc, out = ctl("-j", "list", name)
    if rc != 0:
        return None
    return json.loads(out)["metrics"][0]["state"]


def governed():
    """A busy user function at --budget 1%: the governor acts within the run."""
    rc, out = ctl("trace", "--keep", "--budget", "1%", "--name", "u.gov", TARGET + ":u_leaf")
    if not ok(rc == 0, "trace utarget:u_leaf --budget 1%", out):
        return
    m = metric("u.gov")
    ok(m is not None and m["trace"]["sampling"]["calibrated"] and
       m["trace"]["sampling"]["budget_ppm"] == 10000,
       "--budget 1%: governed, with measured costs", m and m["trace"]["sampling"])
    p = subprocess.Popen([TARGET, "loop", "20"])
    # The governor looks every 500 ms; the loop is its load: polled, never slept on.
    state, t0 = None, time.monotonic()
    while p.poll() is None and state not in ("sampled", "detached"):
        state = listed_state("u.gov")
    waited = time.monotonic() - t0
    shown = ctl("show", "u.gov")[1]
    m = metric("u.gov")
    p.kill()
    p.wait()
    ctl("untrace", "u.gov")
    smp = m["trace"]["sampling"] if m else {}
    print("# u_leaf at --budget 1%%: %s after %.1f s: %s" % (state, waited, smp))
    ok(state in ("sampled", "detached"),
       "a busy user function at --budget 1%: the governor samples it or detaches it",
       "state %s after %.1f s: %s" % (state, waited, smp))
    ok("by the governor" in shown, "show says the governor did", shown)
    if state == "detached":
        entry = smp.get("full_cost_ppm", 0) * smp.get("skip_cost_ps", 0) / \
            max(smp.get("call_cost_ps", 1), 1)
        ok(entry >= 0.97 * 10000,
           "detached only with the entry cost alone over the budget",
           "entry %.0f ppm: %s" % (entry, smp))


def section():
    start, end = "usdt:%s:ktest:sec__start" % USDT, "usdt:%s:ktest:sec__end" % USDT
    rc, out = ctl("trace", "--keep", "--budget", "50%", "u.sec", "--start", start, "--end", end)
    if not ok(rc == 0, "trace a USDT section --budget 50%", out):
        return
    m = metric("u.sec")
    ctl("untrace", "u.sec")
    smp = m["trace"]["sampling"] if m else {}
    if m:
        print("# a USDT section: floor %d ns; call cost %d ps, skip cost %d ps"
              % (m["trace"]["floor_ns"], smp["call_cost_ps"], smp["skip_cost_ps"]))
    ok(m is not None and smp["calibrated"] and m["trace"]["floor_ns"] > 0 and
       0 < smp["skip_cost_ps"] <= smp["call_cost_ps"],
       "a USDT section: a floor and costs, measured on a section", m and m["trace"])


empty_function()
governed()
section()
sys.exit(1 if utap.failed else 0)

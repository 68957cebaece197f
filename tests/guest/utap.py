# SPDX-License-Identifier: GPL-2.0
"""What the user-space suites share (uprobe_test.py, uvalue_test.py,
usdt_test.py, run from the repository root with the lane's build directory
as their argument): TAP lines, and kstatsctl run and read."""
import json
import os
import subprocess
import sys

KCTL = [os.path.join(sys.argv[1], "../../cli/kstatsctl"), "--no-autoload"]
failed = False


def ok(cond, what, diag=None):
    """A TAP line; a failure's diagnostics as comments. Returns @cond."""
    global failed
    print(("ok - " if cond else "not ok - ") + what)
    if not cond:
        failed = True
        if diag:
            for line in str(diag).splitlines():
                print("# " + line)
    return cond


def ctl(*args):
    """kstatsctl's status and output, its wrapped lines joined (80 columns)."""
    p = subprocess.run(KCTL + list(args), capture_output=True, text=True, timeout=120)
    return p.returncode, " ".join((p.stdout + p.stderr).split())


def ctl_lines(*args):
    """kstatsctl's standard output as it printed it, lines kept ('' on failure)."""
    p = subprocess.run(KCTL + list(args), capture_output=True, text=True, timeout=120)
    return p.stdout if p.returncode == 0 else ""


def metric(name):
    """NAME's metric as show -j gives it, or None."""
    rc, out = ctl("-j", "show", name)
    return json.loads(out)["metrics"][0] if rc == 0 else None


def exact(name, want, what):
    """@name's slots hold exactly the values @want, slot by slot."""
    m = metric(name)
    if not ok(m is not None, "%s: %s exists" % (what, name)):
        return
    bad = []
    for b in m["buckets"]:
        n = sum(1 for v in want if b["low"] <= v < b["high"])
        if n != b["count"]:
            bad.append("[%d, %d): %d, want %d" % (b["low"], b["high"], b["count"], n))
    total = sum(b["count"] for b in m["buckets"])
    ok(not bad and total == len(want), "%s: %s holds exactly the %d values, slot by slot"
       % (what, name, len(want)), "\n".join(bad[:10] + ["total %d" % total]))


def samples(m):
    """@m's samples, sorted, as [low, high) slot bounds."""
    s = []
    for b in sorted(m["buckets"], key=lambda b: b["low"]):
        s += [(b["low"], b["high"])] * b["count"]
    return s


def sandwich(m, inner, outer, what):
    """kstats' window for each call (or section) lies between the program's
    own two: @inner, timed inside it, and @outer, timed around it, from
    before the probe that opens kstats' window to after the one that closes
    it, with the clock kstats reads (CLOCK_MONOTONIC). inner <= kstats <=
    outer call by call, so also rank by rank once each list is sorted: the
    r-th smallest inner figure is below the high end of the r-th smallest
    sample's slot, and the r-th smallest outer figure at or above its low
    end. Exact, whatever interrupts or the emulator add to the probes."""
    got = samples(m)
    inner, outer = sorted(inner), sorted(outer)
    if not ok(len(got) == len(inner) == len(outer), "%s: kstats has a sample per returned "
              "call (%d; the program timed %d inside, %d around)"
              % (what, len(got), len(inner), len(outer))):
        return
    off = [(i, lo, hi, o) for i, (lo, hi), o in zip(inner, got, outer) if not (i < hi and lo <= o)]
    gap = sorted(o - i for i, o in zip(inner, outer))
    ok(not off, "%s: rank by rank, kstats' slot holds a duration between the program's own "
       "inside and around the call (median gap %d ns): %d of %d off"
       % (what, gap[len(gap) // 2] if gap else 0, len(off), len(got)),
       "\n".join("inside %d, kstats [%d, %d), around %d" % x for x in off[:10]))


def read_ns(path):
    """A file of durations, ns, one a line."""
    return [int(x) for x in open(path).read().split()]


# Why this lane has no bpftrace, where it has none (main-tests.sh: the debug
# kernel is built without BPF). There bpftrace's side of a comparison is
# skipped, said so; on any other lane a bpftrace that cannot run or attach
# fails the comparison.
NO_BPFTRACE = os.environ.get("KSTATS_NO_BPFTRACE", "")


def bpftrace_ready(prog):
    """bpftrace running @prog, once it has attached (it prints "ready" from
    BEGIN); else None, and a failed TAP line where the lane has bpftrace."""
    if NO_BPFTRACE:
        return None
    try:
        p = subprocess.Popen(["bpftrace", "-e", 'BEGIN { printf("ready\\n"); } ' + prog],
                             stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    except OSError as e:
        ok(False, "bpftrace runs", str(e))
        return None
    lines = []
    for line in p.stdout:
        if line.strip() == "ready":
            return p
        lines.append(line)
    p.wait()
    ok(False, "bpftrace starts and attaches", "".join(lines)[-600:])
    return None


def bpftrace_missing(p, what):
    """True if there is no bpftrace @p to compare @what with: a TAP skip
    where the lane has no bpftrace (bpftrace_ready() failed it otherwise)."""
    if p is not None:
        return False
    if NO_BPFTRACE:
        ok(True, "%s # SKIP %s" % (what, NO_BPFTRACE))
    return True


def bpftrace_output(p):
    """What bpftrace @p printed once it ended (killed after 120 s)."""
    try:
        return p.communicate(timeout=120)[0]
    except subprocess.TimeoutExpired:
        p.kill()
        return p.communicate()[0]

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


def bpftrace_ready(prog):
    """bpftrace running @prog, once it has attached (it prints "ready" from
    BEGIN), or None if it cannot run or attach."""
    try:
        p = subprocess.Popen(["bpftrace", "-e", 'BEGIN { printf("ready\\n"); } ' + prog],
                             stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    except OSError:
        return None
    for line in p.stdout:
        if line.strip() == "ready":
            return p
    p.wait()
    return None


def bpftrace_output(p):
    """What bpftrace @p printed once it ended (killed after 120 s)."""
    try:
        return p.communicate(timeout=120)[0]
    except subprocess.TimeoutExpired:
        p.kill()
        return p.communicate()[0]

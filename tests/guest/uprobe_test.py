#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""User-space functions (KSTATS_MECH_UPROBE), inside a lane's VM, kstats
loaded. Prints TAP lines; exits 1 if any failed.

The oracle is tests/guest/utarget.c: it calls u_leaf, u_rec (recursive) and
u_jumpy (longjmps out of every 4th call) known numbers of times and times
each returned call itself with CLOCK_MONOTONIC, the clock kstats' probes
read. kstats' counts must be exact (a call longjmp'd out of is a miss, never
a sample), and rank by rank kstats' durations must hold the program's own:
kstats' window (uprobe entry to uretprobe) encloses the program's, so each
own figure is at most its rank's slot high end, and at least its low end
less BOUND (the probes' cost; the floor is not measured for user code).
bpftrace's uprobe/uretprobe counts on the same calls must equal kstats'.
Usage: uprobe_test.py BUILD_DIR
"""
import json
import os
import signal
import subprocess
import sys
import tempfile
import time

build = sys.argv[1]
KCTL = [os.path.join(build, "../../cli/kstatsctl"), "--no-autoload"]
TARGET = os.path.realpath(os.path.join(build, "utarget"))
TCG = os.environ.get("KSTATS_VM_ACCEL_USED", "tcg") != "kvm"
BOUND = 2000000 if TCG else 200000	# ns: kstats' window less the program's
failed = False


def ok(cond, what, diag=None):
    global failed
    print(("ok - " if cond else "not ok - ") + what)
    if not cond:
        failed = True
        if diag:
            for line in str(diag).splitlines():
                print("# " + line)
    return cond


def ctl(*args):
    p = subprocess.run(KCTL + list(args), capture_output=True, text=True, timeout=120)
    return p.returncode, p.stdout + p.stderr


def trace(name, func, *opts):
    rc, out = ctl("trace", "--name", name, TARGET + ":" + func, *opts)
    return ok(rc == 0, "trace %s:%s %s" % (os.path.basename(TARGET), func, " ".join(opts)), out)


def untrace(*names):
    rc, out = ctl("untrace", *names)
    return ok(rc == 0, "untrace " + " ".join(names), out)


def metric(name):
    rc, out = ctl("-j", "show", name)
    if rc:
        return None
    return json.loads(out)["metrics"][0]


def start_run(outdir, leaf, rec, depth, jumpy):
    return subprocess.Popen([TARGET, "run", str(leaf), str(rec), str(depth), str(jumpy), outdir],
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)


def finish(p):
    p.stdin.write("go\n")
    p.stdin.close()
    out = p.stdout.read()
    return p.wait(timeout=600), out


def samples(m):
    """kstats' samples, sorted, as [low, high) slot bounds."""
    s = []
    for b in sorted(m["buckets"], key=lambda b: b["low"]):
        s += [(b["low"], b["high"])] * b["count"]
    return s


def ranks(m, own_file, what):
    own = sorted(int(x) for x in open(own_file).read().split())
    got = samples(m)
    if not ok(len(got) == len(own), "%s: kstats has a sample per returned call (%d, own %d)"
              % (what, len(got), len(own))):
        return
    off = [(o, lo, hi) for o, (lo, hi) in zip(own, got) if not (lo - BOUND <= o < hi)]
    excess = sorted(lo - o for o, (lo, hi) in zip(own, got))
    ok(len(off) * 8 <= len(own),
       "%s: rank by rank, the program's own duration is in kstats' slot, less at most %d ns "
       "(median excess %d ns): %d of %d off" % (what, BOUND, excess[len(excess) // 2] if excess
                                                else 0, len(off), len(own)),
       "\n".join("own %d, kstats [%d, %d)" % x for x in off[:10]))


def counts(name, hits, misses, what):
    m = metric(name)
    if not ok(m is not None, "%s: %s exists" % (what, name)):
        return None
    t = m["trace"]
    ok(t["hits"] == hits and t["misses"] == misses,
       "%s: %s counted %d calls and %d misses exactly" % (what, name, hits, misses),
       "got %d hits, %d misses" % (t["hits"], t["misses"]))
    return m


def bpftrace_start():
    prog = "BEGIN { printf(\"ready\\n\"); } "
    for f in ("u_leaf", "u_rec", "u_jumpy"):
        prog += "uprobe:%s:%s { @e_%s = count(); } " % (TARGET, f, f)
        prog += "uretprobe:%s:%s { @r_%s = count(); } " % (TARGET, f, f)
    prog += "uprobe:%s:u_block { exit(); }" % TARGET
    try:
        p = subprocess.Popen(["bpftrace", "-e", prog], stdout=subprocess.PIPE,
                             stderr=subprocess.STDOUT, text=True)
    except OSError:
        return None
    for line in p.stdout:
        if line.strip() == "ready":
            return p
    p.wait()
    return None


def bpftrace_counts(p):
    blocker = subprocess.Popen([TARGET, "block"], stdout=subprocess.PIPE, text=True)
    try:
        out = p.communicate(timeout=120)[0]
    except subprocess.TimeoutExpired:
        p.kill()
        out = p.communicate()[0]
    blocker.kill()
    blocker.wait()
    c = {}
    for line in out.splitlines():
        if line.startswith("@") and ":" in line:
            k, v = line.split(":", 1)
            c[k[1:]] = int(v)
    return c


def oracle():
    leaf, rec, depth, jumpy = 200, 40, 8, 40
    rec_calls = sum(i % depth + 1 for i in range(rec))
    jumps = sum(1 for i in range(jumpy) if i % 4 == 3)
    with tempfile.TemporaryDirectory() as outdir:
        bt = bpftrace_start()
        p = start_run(outdir, leaf, rec, depth, jumpy)
        pid = str(p.pid)
        if not (trace("u.leaf", "u_leaf", "--pid", pid) and trace("u.rec", "u_rec", "--pid", pid)
                and trace("u.jumpy", "u_jumpy", "--pid", pid)):
            p.kill()
            return
        rc, out = finish(p)
        ok(rc == 0 and out.split() == ["leaf", str(leaf), "rec", str(rec_calls), "jumpy",
                                        str(jumpy - jumps), "longjmps", str(jumps)],
           "utarget made its calls: " + out.strip())
        m = counts("u.leaf", leaf, 0, "u_leaf")
        if m:
            ranks(m, outdir + "/leaf", "u_leaf")
        m = counts("u.rec", rec_calls, 0, "u_rec (recursive, up to %d deep)" % depth)
        if m:
            ranks(m, outdir + "/rec", "u_rec")
        m = counts("u.jumpy", jumpy - jumps, jumps, "u_jumpy (a longjmp out is a miss)")
        if m:
            ranks(m, outdir + "/jumpy", "u_jumpy")
        if bt is None:
            ok(True, "# SKIP bpftrace not available")
        else:
            c = bpftrace_counts(bt)
            want = {"e_u_leaf": leaf, "r_u_leaf": leaf, "e_u_rec": rec_calls,
                    "r_u_rec": rec_calls, "e_u_jumpy": jumpy, "r_u_jumpy": jumpy - jumps}
            ok(c == want, "bpftrace's uprobe/uretprobe counts on the same calls agree with "
               "kstats' (calls, returns)", "bpftrace %s, want %s" % (c, want))
        untrace("u.leaf", "u.rec", "u.jumpy")


def only_pid():
    """--pid: a second process of the same program calls too, uncounted."""
    with tempfile.TemporaryDirectory() as da, tempfile.TemporaryDirectory() as db:
        a = start_run(da, 50, 4, 4, 8)
        b = start_run(db, 80, 4, 4, 8)
        if not trace("u.pid", "u_leaf", "--pid", str(a.pid)):
            a.kill()
            b.kill()
            return
        ra, _ = finish(a)
        rb, _ = finish(b)
        ok(ra == 0 and rb == 0, "both processes made their calls")
        counts("u.pid", 50, 0, "--pid A, B calling too")
        untrace("u.pid")


def exit_inside():
    """A process killed inside a traced call: a miss, at its exit."""
    if not trace("u.blk", "u_block"):
        return
    for n in (1, 2):
        p = subprocess.Popen([TARGET, "block"], stdout=subprocess.PIPE, text=True)
        ok(p.stdout.readline().strip() == "blocked", "utarget block %d is inside u_block" % n)
        p.send_signal(signal.SIGKILL)
        p.wait()
        counts("u.blk", 0, n, "killed inside u_block, %d time(s)" % n)
    untrace("u.blk")


def cycles(n):
    """Trace and untrace while the function is called: the program never notices."""
    p = subprocess.Popen([TARGET, "loop", "3600"])
    bad = ""
    t0 = time.monotonic()
    for i in range(n):
        rc, out = ctl("trace", "--name", "u.cyc", TARGET + ":u_leaf")
        rc2, out2 = ctl("untrace", "u.cyc")
        if rc or rc2:
            bad = "cycle %d: %s %s" % (i, out, out2)
            break
    p.send_signal(signal.SIGTERM)
    rc = p.wait()
    ok(not bad, "%d trace/untrace cycles while u_leaf is called (%.1f s)"
       % (n, time.monotonic() - t0), bad)
    ok(rc == -signal.SIGTERM, "the program ran on untouched, until SIGTERM",
       "it ended with %s" % (signal.Signals(-rc).name if rc < 0 else "status %d" % rc))
    rc, out = ctl("-j", "list")
    ok(rc == 0 and "u.cyc" not in out, "no trace left")


def refusals():
    gone = subprocess.Popen(["true"])
    gone.wait()
    rc, out = ctl("trace", "--pid", str(gone.pid), TARGET + ":u_leaf")
    ok(rc == 1 and "no process" in out, "--pid of a process that is gone: refused", out)
    rc, out = ctl("trace", "--pid", str(gone.pid), "c:malloc")
    ok(rc == 1 and "no process" in out, "--pid that is gone, a library through its "
       "mappings: refused", out)
    rc, out = ctl("trace", TARGET + ":no_such_function")
    ok(rc == 1 and "no function no_such_function" in out, "a missing symbol: refused", out)
    rc, out = ctl("-j", "list")
    ok(rc == 0 and "utarget" not in out, "nothing attached by a refusal", out)


rc, out = ctl("-j", "info")
if not ok(rc == 0 and "uprobe" in out, "kstatsctl info lists the uprobe mechanism", out):
    sys.exit(1)
oracle()
only_pid()
exit_inside()
refusals()
cycles(100)
sys.exit(1 if failed else 0)

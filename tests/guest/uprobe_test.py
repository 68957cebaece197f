#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""User-space functions (KSTATS_MECH_UPROBE), inside a lane's VM, kstats
loaded. Prints TAP lines; exits 1 if any failed.

The oracle is tests/guest/utarget.c: it calls u_leaf, u_rec (recursive) and
u_jumpy (longjmps out of every 4th call) known numbers of times and times
each returned call with CLOCK_MONOTONIC, the clock kstats' probes read,
twice: inside the function, and around the call in its caller. kstats'
counts must be exact (a call longjmp'd out of is a miss, never a sample),
and kstats' window (uprobe entry to uretprobe) lies between the two, call
by call, so rank by rank (utap.sandwich): exact, whatever the probes cost.
bpftrace's uprobe/uretprobe counts on the same calls must equal kstats'.
Usage: uprobe_test.py BUILD_DIR
"""
import ctypes
import errno
import fcntl
import json
import os
import shutil
import signal
import struct
import subprocess
import sys
import tempfile
import time

import utap
from utap import bpftrace_missing, bpftrace_output, bpftrace_ready, ctl, ctl_lines, metric, ok, read_ns, sandwich

build = sys.argv[1]
TARGET = os.path.realpath(os.path.join(build, "utarget"))


def trace(name, func, *opts):
    rc, out = ctl("trace", "--keep", "--name", name, TARGET + ":" + func, *opts)
    return ok(rc == 0, "trace %s:%s %s" % (os.path.basename(TARGET), func, " ".join(opts)), out)


def untrace(*names):
    rc, out = ctl("untrace", *names)
    return ok(rc == 0, "untrace " + " ".join(names), out)


def start_run(outdir, leaf, rec, depth, jumpy):
    return subprocess.Popen([TARGET, "run", str(leaf), str(rec), str(depth), str(jumpy), outdir],
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)


def finish(p):
    p.stdin.write("go\n")
    p.stdin.close()
    out = p.stdout.read()
    return p.wait(timeout=600), out


def counts(name, hits, misses, what):
    m = metric(name)
    if not ok(m is not None, "%s: %s exists" % (what, name)):
        return None
    t = m["trace"]
    ok(t["hits"] == hits and t["misses"] == misses,
       "%s: %s counted %d calls and %d misses exactly" % (what, name, hits, misses),
       "got %d hits, %d misses" % (t["hits"], t["misses"]))
    return m


def bpftrace_start(prog=None):
    """bpftrace running @prog (else the oracle's counts), attached; or None.
    It stops itself when utarget block enters u_block (bpftrace_stop())."""
    if prog is None:
        prog = ""
        for f in ("u_leaf", "u_rec", "u_jumpy"):
            prog += "uprobe:%s:%s { @e_%s = count(); } " % (TARGET, f, f)
            prog += "uretprobe:%s:%s { @r_%s = count(); } " % (TARGET, f, f)
    return bpftrace_ready(prog + " uprobe:%s:u_block { exit(); }" % TARGET)


def bpftrace_stop(p):
    """Stops bpftrace (a u_block call) and returns what it printed."""
    blocker = subprocess.Popen([TARGET, "block"], stdout=subprocess.PIPE, text=True)
    out = bpftrace_output(p)
    blocker.kill()
    blocker.wait()
    return out


def bpftrace_counts(p):
    out = bpftrace_stop(p)
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
            sandwich(m, read_ns(outdir + "/leaf"), read_ns(outdir + "/leaf.outer"), "u_leaf")
        m = counts("u.rec", rec_calls, 0, "u_rec (recursive, up to %d deep)" % depth)
        if m:
            sandwich(m, read_ns(outdir + "/rec"), read_ns(outdir + "/rec.outer"), "u_rec")
        m = counts("u.jumpy", jumpy - jumps, jumps, "u_jumpy (a longjmp out is a miss)")
        if m:
            sandwich(m, read_ns(outdir + "/jumpy"), read_ns(outdir + "/jumpy.outer"), "u_jumpy")
        if not bpftrace_missing(bt, "bpftrace's uprobe/uretprobe counts"):
            c = bpftrace_counts(bt)
            want = {"e_u_leaf": leaf, "r_u_leaf": leaf, "e_u_rec": rec_calls,
                    "r_u_rec": rec_calls, "e_u_jumpy": jumpy, "r_u_jumpy": jumpy - jumps}
            ok(c == want, "bpftrace's uprobe/uretprobe counts on the same calls agree with "
               "kstats' (calls, returns)", "bpftrace %s, want %s" % (c, want))
        untrace("u.leaf", "u.rec", "u.jumpy")


def user_floor():
    """The probe floor of a user-space function here, ns (0 if unknown)."""
    trace("u.fl", "u_leaf")
    m = metric("u.fl")
    untrace("u.fl")
    return m["trace"]["floor_ns"] if m else 0


def stack_names(frames):
    """Function names of a stack's frames (kstats' "f+0x1a [utarget]", bpftrace's
    "f+26"), up to utarget's main: below it is libc, built without frame
    pointers."""
    out = []
    for f in frames:
        name = f.strip().split("+")[0]
        out.append(name)
        if name == "main":
            return tuple(out)
    return tuple(out) + ("(no main)",)


def user_stacks():
    """The stacks of a user-space function's outliers, by the program's frame
    pointers: utarget calls u_leaf A, B and C times through three paths, each
    call long enough to be kept; kstats keeps every call, with its path's
    stack, exactly A, B and C of each; --by stack on the same trace keys
    them A, B and C by path (show --folded, named through the process);
    and bpftrace's ustack on the same returns gives the same stacks and
    counts."""
    a, b, c = 3, 5, 7
    want = {("u_path_a", "paths", "main"): a, ("u_mid", "u_path_b", "paths", "main"): b,
            ("u_mid", "u_path_c", "paths", "main"): c}
    # The threshold is over the floor kstatsctl measures anew for the trace:
    # on a loaded host it can measure higher than a moment before (ERANGE),
    # and then the calls are lengthened to a new threshold.
    for attempt in range(3):
        threshold = -(-2 * user_floor() // 1000)
        env = dict(os.environ, UTARGET_LEAF_NS=str(max(20000, threshold * 2000)))
        p = subprocess.Popen([TARGET, "paths", str(a), str(b), str(c)], stdin=subprocess.PIPE,
                             stdout=subprocess.PIPE, text=True, env=env)
        rc, out = ctl("trace", "--keep", "--name", "u.st", "--pid", str(p.pid),
                      "%s:u_leaf" % TARGET, "--outliers", "%dus" % threshold,
                      "--outlier-rate", "1000000", "--by", "stack")
        if rc == 0 or "below the probe's floor" not in out or attempt == 2:
            break
        p.kill()
        p.wait()
    if not ok(rc == 0, "trace utarget:u_leaf --outliers %dus --by stack (attempt %d)"
              % (threshold, attempt + 1), out):
        p.kill()
        return
    bt = bpftrace_start("uretprobe:%s:u_leaf { @[ustack] = count(); }" % TARGET)
    p.stdin.write("go\n")
    p.stdin.flush()
    p.stdout.readline()
    rc, out = ctl("-j", "outliers", "u.st")
    entries = json.loads(out).get("outliers", []) if rc == 0 else []
    got = {}
    for e in entries:
        k = stack_names(e["stack"])
        got[k] = got.get(k, 0) + 1
    ok(got == want and all(e["user"] and not e["truncated"] for e in entries),
       "outliers of u_leaf: each call's stack by frame pointers, %d, %d and %d by path" % (a, b, c),
       "got %s\n%s" % (got, out[:800]))
    out = ctl_lines("outliers", "--folded", "u.st")
    ok(any("paths [utarget];u_path_b [utarget];u_mid [utarget];" in line and
                       line.endswith(" %d" % b) for line in out.splitlines()),
       "outliers --folded: path b's line, outermost first, weight %d" % b, out[:600])
    out = ctl_lines("show", "--folded", "u.st")
    keyed = {}
    for line in out.splitlines():
        frames, _, n = line.rpartition(" ")
        names = [f.split(" ")[0] for f in frames.split(";")]
        if "main" in names:
            k = tuple(reversed(names[names.index("main"):-1]))
            keyed[k] = keyed.get(k, 0) + int(n)
    ok(keyed == want, "--by stack: u_leaf keyed by its user stack, %d, %d and %d by path"
       % (a, b, c), "got %s\n%s" % (keyed, out[:800]))
    untrace("u.st")
    if bpftrace_missing(bt, "bpftrace's ustack on the same returns"):
        p.communicate("done\n", timeout=60)
        return
    # bpftrace names the frames as it prints them: the process still alive.
    out = bpftrace_stop(bt)
    p.communicate("done\n", timeout=60)
    seen, frames = {}, []
    for line in out.splitlines():
        if line.startswith("@["):
            frames = []
        elif line.startswith("]:"):
            k = stack_names(frames)
            seen[k] = seen.get(k, 0) + int(line[2:])
        elif line.strip():
            frames.append(line)
    ok(seen == want, "bpftrace's ustack on the same returns: the same stacks and counts",
       "bpftrace %s, want %s\n%s" % (seen, want, out[:600]))


def user_outliers():
    """--outliers on a user-space function: every call the program itself
    timed at or above the threshold is kept (kstats' window encloses its
    own), none below it, each with one frame: where the call returns to,
    named through the process (utarget's run()); a snapshot file keeps the
    names. The threshold is 90 us, or twice the probe floor where that is
    more (the module refuses one below the floor: KASAN under TCG puts it
    near 100 us), with u_leaf's calls lengthened to straddle it."""
    leaf = 100
    threshold = max(90000, -(-2 * user_floor() // 1000) * 1000)
    env = dict(os.environ, UTARGET_LEAF_NS=str(max(20000, threshold * 2 // 9)))
    with tempfile.TemporaryDirectory() as outdir:
        # Alive after its calls (hold): its mappings name the frames.
        p = subprocess.Popen([TARGET, "run", str(leaf), "0", "1", "0", outdir, "hold"],
                             stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, env=env)
        if not trace("u.ol", "u_leaf", "--pid", str(p.pid), "--outliers", "%dus" % (threshold // 1000),
                     "--outlier-rate", "1000000"):
            p.kill()
            return
        p.stdin.write("go\n")
        p.stdin.flush()
        p.stdout.readline()
        own = [int(x) for x in open(outdir + "/leaf").read().split()]
        rc, out = ctl("-j", "outliers", "u.ol")
        doc = json.loads(out) if rc == 0 else {}
        entries = doc.get("outliers", [])
        above = sum(1 for o in own if o >= threshold)
        ok(rc == 0 and doc["captured"] == len(entries) and doc["ratelimited"] == 0 and
           above <= len(entries) <= leaf and all(e["duration"] >= threshold for e in entries),
           "--outliers %d us: the %d calls the program timed at that or more are kept, and "
           "none under it (%d kept)" % (threshold // 1000, above, len(entries)), out[:600])
        names = {tuple(f.split("+")[0] + " " + f.split(" ")[-1] for f in e["stack"][:2])
                 for e in entries if e.get("user") and not e["truncated"]}
        ok(entries and names == {("run [utarget]", "main [utarget]")} and
           all(e["user"] for e in entries),
           "each kept call's stack: where it returns to, run+0x.. [utarget], then main's "
           "frame, named through the process", names)
        with tempfile.NamedTemporaryFile(suffix=".ksnap") as f:
            rc, out = ctl("snapshot", "u.ol", "-o", f.name)
            rc2, out2 = ctl("-j", "outliers", "-i", f.name, "u.ol")
            kept = json.loads(out2).get("outliers", []) if rc == 0 and rc2 == 0 else []
            # A frame no symbol names (libc's static functions: Debian strips
            # .symtab) is its address live, "[unknown]" in a file, which keeps
            # no user addresses.
            live = [[f if not f.startswith("0x") else "[unknown]" for f in e["stack"]]
                    for e in entries]
            ok([e["stack"] for e in kept] == live,
               "snapshot -o F; outliers -i F: the same frames, named", out + out2[:300])
        p.communicate("done\n", timeout=60)
        untrace("u.ol")


def glob():
    """BINARY:GLOB: a trace per matching function, each counting exactly."""
    leaf, rec, depth = 50, 10, 4
    rec_calls = sum(i % depth + 1 for i in range(rec))
    with tempfile.TemporaryDirectory() as outdir:
        p = start_run(outdir, leaf, rec, depth, 0)
        rc, out = ctl("-j", "trace", "--keep", TARGET + ":u_[lr]*", "--pid", str(p.pid))
        try:
            doc = json.loads(out[:out.rindex("}") + 1]) if rc == 0 else {}
        except ValueError:
            doc = {}
        if not ok(rc == 0 and sorted(doc.get("functions", [])) == ["utarget:u_leaf", "utarget:u_rec"]
                  and doc.get("skipped") == [],
                  "trace 'utarget:u_[lr]*' --keep -j: utarget:u_leaf and utarget:u_rec traced", out):
            p.kill()
            ctl("untrace", "utarget:u_*")
            return
        rc, out = finish(p)
        ok(rc == 0, "utarget made its calls: " + out.strip())
        counts("utarget:u_leaf", leaf, 0, "u_leaf by a pattern")
        counts("utarget:u_rec", rec_calls, 0, "u_rec by a pattern")
    rc, out = ctl("untrace", "utarget:u_*")
    ok(rc == 0 and metric("utarget:u_leaf") is None, "untrace 'utarget:u_*': both gone", out)
    rc, out = ctl("trace", "--keep", TARGET + ":zz*")
    ok(rc == 1 and "matches no function of" in out, "trace 'utarget:zz*': no match, exit 1", out)
    rc, out = ctl("trace", "--keep", TARGET + ":u_*", "vfs_read")
    ok(rc == 2 and "kernel and user-space functions" in out,
       "a user-space pattern and a kernel function in one command: refused, exit 2", out)


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


def replaced():
    """A binary replaced while traced: uprobes are on the inode. A rename over
    the path leaves the trace on the old file: the new file's processes are
    not traced, a process still running the old one is. Writing in place
    over a running program is ETXTBSY (the kernel denies it)."""
    with tempfile.TemporaryDirectory() as d:
        path, new = os.path.join(d, "utarget"), os.path.join(d, "utarget.new")
        shutil.copy2(TARGET, path)
        old = subprocess.Popen([path, "wait"], stdin=subprocess.PIPE,
                               stdout=subprocess.PIPE, text=True)
        ok(old.stdout.readline().strip() == "waiting", "a process of the old file runs")
        rc, out = ctl("trace", "--keep", "--name", "u.repl", path + ":u_leaf")
        if not ok(rc == 0, "trace a copy of utarget:u_leaf", out):
            old.kill()
            old.wait()
            return
        try:
            os.close(os.open(path, os.O_WRONLY))
            ok(True, "# SKIP this kernel lets a running program's file be written")
        except OSError as e:
            ok(e.errno == errno.ETXTBSY, "writing in place over the running program: "
               "ETXTBSY", "got %s" % errno.errorcode.get(e.errno, e.errno))
        shutil.copy2(TARGET, new)
        os.rename(new, path)
        p = subprocess.run([path, "wait"], input="go\n", capture_output=True, text=True,
                           timeout=60)
        ok(p.returncode == 0 and "called" in p.stdout, "the new file ran, calling u_leaf")
        counts("u.repl", 0, 0, "renamed over: the new file's process is not traced")
        out = old.communicate("go\n", timeout=60)[0]
        ok(old.returncode == 0 and "called" in out, "the old process called u_leaf")
        counts("u.repl", 1, 0, "renamed over: the old file's process still is")
        untrace("u.repl")
        rc, out = ctl("-j", "list")
        ok(rc == 0 and "u.repl" not in out, "nothing left attached after the untrace", out)


def cycles(n, by_ctl=5):
    """Trace and untrace while the function is called: the program never notices.
    The first @by_ctl cycles through kstatsctl, the rest by ioctl: the kernel's
    paths (uprobe_register, unregister, the module's frees) are the same, and
    under TCG a kstatsctl run costs half a second."""
    p = subprocess.Popen([TARGET, "loop", "3600"])
    fd = os.open(TARGET, os.O_RDONLY)
    off = file_offset(TARGET, "u_leaf")
    bad = ""
    t0 = time.monotonic()
    for i in range(n):
        if i < by_ctl:
            rc, out = ctl("trace", "--keep", "--name", "u.cyc", TARGET + ":u_leaf")
            rc2, out2 = ctl("untrace", "u.cyc")
        else:
            rc = raw_trace("u.cyc", fd=fd, offset=off)
            rc2, out, out2 = 0, "TRACE and UNTRACE by ioctl", os.strerror(rc)
        if rc or rc2:
            bad = "cycle %d: %s %s" % (i, out, out2)
            break
    os.close(fd)
    p.send_signal(signal.SIGTERM)
    rc = p.wait()
    ok(not bad, "%d trace/untrace cycles while u_leaf is called, %d by kstatsctl (%.1f s)"
       % (n, by_ctl, time.monotonic() - t0), bad)
    ok(rc == -signal.SIGTERM, "the program ran on untouched, until SIGTERM",
       "it ended with %s" % (signal.Signals(-rc).name if rc < 0 else "status %d" % rc))
    rc, out = ctl("-j", "list")
    ok(rc == 0 and "u.cyc" not in out, "no trace left")


def refusals():
    gone = subprocess.Popen(["true"])
    gone.wait()
    rc, out = ctl("trace", "--keep", "-p", str(gone.pid), TARGET + ":u_leaf")
    ok(rc == 1 and "no process" in out, "--pid of a process that is gone: refused", out)
    rc, out = ctl("trace", "--keep", "-p", str(gone.pid), "c:malloc")
    ok(rc == 1 and "no process" in out, "--pid that is gone, a library through its "
       "mappings: refused", out)
    rc, out = ctl("trace", "--keep", TARGET + ":no_such_function")
    ok(rc == 1 and "no function no_such_function" in out, "a missing symbol: refused", out)
    rc, out = ctl("-j", "list")
    ok(rc == 0 and "utarget" not in out, "nothing attached by a refusal", out)


KSTATS_IOC_TRACE = 0x40E0BC07		# _IOW(0xBC, 7, 224 bytes: VER7 + reserved)
KSTATS_IOC_TRACE_VER8 = 0x40F8BC07	# 248 bytes: VER8's measured costs + reserved
KSTATS_IOC_UNTRACE = 0x4058BC08
KSTATS_MECH_UPROBE = 5


def raw_trace(name, fd, offset, mech=KSTATS_MECH_UPROBE, nr=1, size=32, role=0, ref_ctr=0,
              reserved=0, flags=0, budget=0, tail=0, outlier_ns=0, expr=None, cost=None):
    """TRACE by ioctl, a struct kstats_uprobe of @size bytes: 0 or the errno.
    @expr: with VER6's expr, its value operand (source, index, nr_loads, size).
    @cost: VER8's (user_floor_ns, user_call_ps, user_skip_ps), in a 248-byte TRACE."""
    label = ctypes.create_string_buffer(b"utarget:raw")
    # struct kstats_expr: flags KSTATS_EXPR_VALUE, the value operand.
    x = ctypes.create_string_buffer(struct.pack("<II4B", 1, 0, *(expr or (0, 0, 0, 0)))
                                    .ljust(512, b"\0"))
    entry = (struct.pack("<iIQQQ", fd, role, offset, ref_ctr, reserved)
             + struct.pack("<Q", tail) * ((size - 32) // 8))
    up = ctypes.create_string_buffer(entry * max(nr, 1))
    t = bytearray(248 if cost else 224)
    t[0:len(name)] = name.encode()
    if cost:
        struct.pack_into("<QQQ", t, 216, *cost)
    struct.pack_into("<Q", t, 64, ctypes.addressof(label))
    struct.pack_into("<IIII", t, 88, 3, mech, flags, 0)
    struct.pack_into("<I", t, 136, budget)
    struct.pack_into("<Q", t, 144, outlier_ns)
    struct.pack_into("<Q", t, 192, ctypes.addressof(x) if expr else 0)
    struct.pack_into("<QII", t, 200, ctypes.addressof(up), nr, size)
    dev = os.open("/dev/kstats", os.O_RDWR)
    try:
        fcntl.ioctl(dev, KSTATS_IOC_TRACE_VER8 if cost else KSTATS_IOC_TRACE, bytes(t))
        fcntl.ioctl(dev, KSTATS_IOC_UNTRACE, name.encode().ljust(88, b"\0"))
        return 0
    except OSError as e:
        return e.errno
    finally:
        os.close(dev)


def file_offset(path, sym):
    """@sym's file offset, as nm and the program headers give it."""
    value = next(int(line.split()[0], 16) for line in
                 subprocess.run(["nm", path], capture_output=True, text=True).stdout.splitlines()
                 if line.split()[-1] == sym)
    data = open(path, "rb").read()
    phoff, = struct.unpack_from("<Q", data, 0x20)
    phentsize, phnum = struct.unpack_from("<HH", data, 0x36)
    for i in range(phnum):
        ptype, pflags, poff, pvaddr, _, pfilesz = struct.unpack_from("<IIQQQQ", data,
                                                                     phoff + i * phentsize)
        if ptype == 1 and pflags & 1 and pvaddr <= value < pvaddr + pfilesz:
            return value - pvaddr + poff
    raise ValueError(sym)


def abi_refusals():
    """Each refusal of kstats(4), by ioctl; nothing attached after any."""
    fd = os.open(TARGET, os.O_RDONLY)
    size = os.fstat(fd).st_size
    off = file_offset(TARGET, "u_leaf")
    dirfd = os.open("/", os.O_RDONLY)
    with tempfile.NamedTemporaryFile() as w:
        wfd = os.open(w.name, os.O_WRONLY)
        cases = [
            ("fd -1", dict(fd=-1, offset=off), errno.EBADF),
            ("fd open for writing only", dict(fd=wfd, offset=0), errno.EBADF),
            ("a directory", dict(fd=dirfd, offset=0), errno.EINVAL),
            ("offset at the end of the file", dict(fd=fd, offset=size), errno.EINVAL),
            ("an odd ref_ctr_offset", dict(fd=fd, offset=off, ref_ctr=1), errno.EINVAL),
            ("reserved 1", dict(fd=fd, offset=off, reserved=1), errno.EINVAL),
            ("role START with a function's label", dict(fd=fd, offset=off, role=1),
             errno.EINVAL),
            ("role 4 (not defined)", dict(fd=fd, offset=off, role=4), errno.EINVAL),
            ("role POINT without an expr", dict(fd=fd, offset=off, role=3), errno.EINVAL),
            ("role POINT, a register's value: accepted",
             dict(fd=fd, offset=off, role=3, expr=(7, 5, 0, 8)), 0),
            ("role POINT, a value in memory at the stack pointer: accepted",
             dict(fd=fd, offset=off, role=3, expr=(7, 7, 1, 4)), 0),
            ("role POINT, register 16", dict(fd=fd, offset=off, role=3, expr=(7, 16, 0, 8)),
             errno.EINVAL),
            ("role POINT, an argument (not a register)",
             dict(fd=fd, offset=off, role=3, expr=(1, 0, 0, 8)), errno.EINVAL),
            ("role POINT, an end's register", dict(fd=fd, offset=off, role=3,
                                                   expr=(8, 0, 0, 8)), errno.EINVAL),
            ("a register at a user-space function", dict(fd=fd, offset=off, expr=(7, 0, 0, 8)),
             errno.EINVAL),
            ("nr_uprobes 65", dict(fd=fd, offset=off, nr=65), errno.E2BIG),
            ("uprobe_size 24", dict(fd=fd, offset=off, size=24), errno.EINVAL),
            ("uprobe_size 40, a nonzero tail", dict(fd=fd, offset=off, size=40, tail=1),
             errno.EINVAL),
            ("nr_uprobes 0", dict(fd=fd, offset=off, nr=0), errno.EINVAL),
            ("nr_uprobes 2", dict(fd=fd, offset=off, nr=2), errno.EOPNOTSUPP),
            ("KSTATS_TRACE_SPLIT: accepted", dict(fd=fd, offset=off, flags=1 << 5), 0),
            ("KSTATS_TRACE_OUTLIERS: accepted", dict(fd=fd, offset=off, flags=1 << 4,
                                                      outlier_ns=10**6), 0),
            ("a budget_ppm, no cost given: accepted (every call recorded, uncalibrated)",
             dict(fd=fd, offset=off, budget=10000), 0),
            ("a budget_ppm and measured costs: accepted",
             dict(fd=fd, offset=off, budget=10000, cost=(5000, 9 * 10**6, 4 * 10**6)), 0),
            ("user_floor_ns above KSTATS_TRACE_USER_COST_MAX",
             dict(fd=fd, offset=off, cost=(10**6 + 1, 10**6, 10**6)), errno.EINVAL),
            ("user_call_ps above 1 ms", dict(fd=fd, offset=off, cost=(1000, 10**9 + 1, 10**6)),
             errno.EINVAL),
            ("user_skip_ps above 1 ms", dict(fd=fd, offset=off, cost=(1000, 10**6, 10**9 + 1)),
             errno.EINVAL),
            ("a skip cost without a call cost", dict(fd=fd, offset=off, cost=(1000, 0, 10**6)),
             errno.EINVAL),
            ("the costs at their bounds: accepted",
             dict(fd=fd, offset=off, cost=(10**6, 10**9, 10**9)), 0),
            ("an expr reading user memory: accepted",
             dict(fd=fd, offset=off, expr=(1, 0, 1, 8)), 0),
            ("an expr's argument 6", dict(fd=fd, offset=off, expr=(1, 6, 0, 8)),
             errno.EINVAL),
            ("an expr, the return value: accepted", dict(fd=fd, offset=off,
                                                          expr=(2, 0, 0, 8)), 0),
            ("uprobe_size 40, a zero tail: accepted", dict(fd=fd, offset=off, size=40), 0),
        ]
        for what, kw, want in cases:
            got = raw_trace("u.raw", **kw)
            ok(got == want, "TRACE, user-space function, %s: %s" % (
                what, errno.errorcode.get(want, "0") if want else "attached"),
               "got %s" % (errno.errorcode.get(got, got) if got else "success"))
        os.close(wfd)
    os.close(dirfd)
    os.close(fd)
    rc, out = ctl("-j", "list")
    ok(rc == 0 and "u.raw" not in out, "nothing left attached by the refusals", out)


def privilege():
    """Tracing user space needs what kernel tracing needs: an opener without
    CAP_PERFMON gets EPERM, after the argument checks (EINVAL first)."""
    fd = os.open(TARGET, os.O_RDONLY)
    off = file_offset(TARGET, "u_leaf")
    mode = os.stat("/dev/kstats").st_mode & 0o7777
    os.chmod("/dev/kstats", 0o666)
    try:
        r, w = os.pipe()
        pid = os.fork()
        if pid == 0:
            os.close(r)
            os.setgroups([])
            os.setgid(65534)
            os.setuid(65534)
            got = (raw_trace("u.priv", fd, off), raw_trace("u.priv", fd, off, reserved=1))
            os.write(w, ("%d %d" % got).encode())
            os._exit(0)
        os.close(w)
        out = os.read(r, 100).decode()
        os.close(r)
        os.waitpid(pid, 0)
    finally:
        os.chmod("/dev/kstats", mode)
        os.close(fd)
    ok(out.split() == [str(errno.EPERM), str(errno.EINVAL)],
       "as nobody: EPERM for a user-space function, EINVAL first for a bad argument",
       "got errnos %s" % out)


rc, out = ctl("-j", "info")
if not ok(rc == 0 and "uprobe" in out, "kstatsctl info lists the uprobe mechanism", out):
    sys.exit(1)
oracle()
user_outliers()
user_stacks()
glob()
only_pid()
exit_inside()
replaced()
refusals()
abi_refusals()
privilege()
# 40 under the sanitizers and kmemleak (the debug lane: leaks, use after
# free; as many as churn-tests' rounds of a kernel function); 20 on the
# stock kernels, each uprobe API shape still attached and detached under
# load; 10 on PREEMPT_RT, whose untrace waits 2.2-2.4 s a cycle under TCG
# in synchronize_rcu_tasks_trace() (RT sleeps between holdout scans with
# 0.5 s of slack), the guest idle.
LANE = os.environ.get("KSTATS_LANE", "")
cycles(40 if LANE == "debug" else 10 if LANE.endswith("-rt") else 20)
sys.exit(1 if utap.failed else 0)

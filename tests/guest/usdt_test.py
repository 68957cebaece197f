#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Sections between USDT probes (KSTATS_MECH_UPROBE, START/END entries),
inside a lane's VM, kstats loaded. Prints TAP lines; exits 1 if any failed.

The oracle is tests/guest/usdt_target.c: two threads run known numbers of
sections between ktest:sec__start and ktest:sec__end, interleaved, each
timed by the program with CLOCK_MONOTONIC, the clock kstats' probes read.
The start probe fires only while its semaphore is on, so the sections
timed at all prove the semaphore (ref_ctr_offset) works; the program reads
the semaphores before, while (raised once per place of the probe: one
breakpoint each) and after the trace. kstats' counts must be
exact, and rank by rank kstats' durations must lie between the program's
own inside and around the sections (utap.sandwich), as uprobe_test.py
checks functions. bpftrace's usdt: counts on the same probes
must equal kstats'. Then the edge cases of kernel sections: a second start
loses the first (a miss), an end alone counts nowhere, a thread exiting
inside a section leaves nothing. Usage: usdt_test.py BUILD_DIR
"""
import ctypes
import errno
import fcntl
import json
import os
import struct
import subprocess
import sys
import tempfile

import utap
from utap import bpftrace_missing, bpftrace_ready, ctl, metric, ok, read_ns, sandwich

build = sys.argv[1]
TARGET = os.path.realpath(os.path.join(build, "usdt_target"))
NO_NOTES = os.path.realpath(os.path.join(build, "utarget"))
START = "usdt:%s:ktest:sec__start" % TARGET
END = "usdt:%s:ktest:sec__end" % TARGET


class Target:
    def __init__(self):
        self.p = subprocess.Popen([TARGET], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                  text=True)

    def ask(self, line):
        self.p.stdin.write(line + "\n")
        self.p.stdin.flush()
        return self.p.stdout.readline().split()

    def quit(self):
        self.p.stdin.write("quit\n")
        self.p.stdin.close()
        return self.p.wait(timeout=60)


def bpftrace_start():
    return bpftrace_ready('usdt:%s:ktest:sec__start { @s = count(); } '
                          'usdt:%s:ktest:sec__end { @e = count(); } usdt:%s:ktest:stop { exit(); }'
                          % (TARGET, TARGET, TARGET))


def bpftrace_counts(p):
    try:
        out = p.communicate(timeout=120)[0]
    except subprocess.TimeoutExpired:
        p.kill()
        out = p.communicate()[0]
    c = {}
    for line in out.splitlines():
        if line.startswith("@") and ":" in line:
            k, v = line.split(":", 1)
            c[k[1:]] = int(v)
    return c


def oracle():
    n = 60
    t = Target()
    ok(t.ask("sem") == ["sem", "0", "0"], "untraced, the semaphores read 0")
    rc, out = ctl("trace", "--keep", "u.sec", "--pid", str(t.p.pid), "--start", START, "--end", END)
    if not ok(rc == 0, "trace u.sec --start %s --end %s" % (START, END), out):
        t.quit()
        return
    sem = t.ask("sem")
    ok(sem == ["sem"] + PLACES, "traced, each semaphore reads its probe's places (%s: the "
       "kernel raises it once per breakpoint)" % " and ".join(PLACES), sem)
    bt = bpftrace_start()
    with tempfile.TemporaryDirectory() as d:
        tids = t.ask("go %d %s" % (n, d))
        rc, out = ctl("trace", "--keep", "u.ta", "--tid", tids[1], "--start", START, "--end", END)
        ok(rc == 0, "trace u.ta --tid (thread usdt-a)", out)
        rc, out = ctl("trace", "--keep", "u.split", "--split", "--pid", str(t.p.pid),
                      "--start", START, "--end", END)
        ok(rc == 0, "trace u.split --split", out)
        rc, out = ctl("trace", "--keep", "u.ol", "--outliers", "60us", "--outlier-rate",
                      "1000000", "--pid", str(t.p.pid), "--start", START, "--end", END)
        ok(rc == 0, "trace u.ol --outliers 60us", out)
        got = t.ask("run")
        ok(got == ["go", str(2 * n), str(2 * n)], "two threads ran %d sections each, every "
           "one with its start semaphore on" % n, got)
        m = metric("u.sec")
        ok(m is not None and m["trace"]["hits"] == 2 * n and m["trace"]["misses"] == 0,
           "kstats counted %d sections and no miss exactly" % (2 * n),
           m and "hits %d misses %d" % (m["trace"]["hits"], m["trace"]["misses"]))
        ta = metric("u.ta")
        ok(ta is not None and ta["trace"]["hits"] == n and ta["trace"]["misses"] == 0,
           "--tid: thread usdt-a's own %d sections exactly" % n,
           ta and "hits %d misses %d" % (ta["trace"]["hits"], ta["trace"]["misses"]))
        ctl("untrace", "u.ta")
        split_parts(n)
        if not bpftrace_missing(bt, "bpftrace's usdt counts"):
            c = bpftrace_counts(bt)
            ok(c == {"s": 2 * n, "e": 2 * n} and m and m["trace"]["hits"] == c["s"],
               "bpftrace's usdt: counts on the same probes equal kstats' sections",
               "bpftrace %s, kstats %s" % (c, m and m["trace"]["hits"]))
        got = t.ask("edge")
        ok(got == ["edge"], "the edge cases ran")
        m = metric("u.sec")
        ok(m is not None and m["trace"]["hits"] == 2 * n + 1 and m["trace"]["misses"] == 1,
           "a second start loses the first (a miss); an end alone and a thread exiting "
           "inside a section count nowhere", m and "hits %d misses %d"
           % (m["trace"]["hits"], m["trace"]["misses"]))
        own = sorted(int(x) for x in open(d + "/own").read().split())
        section_outliers(own)
        if ok(m is not None, "u.sec exists"):
            sandwich(m, own, read_ns(d + "/outer"), "u.sec")
    rc, out = ctl("untrace", "u.sec")
    ok(rc == 0, "untrace u.sec", out)
    ok(t.ask("sem") == ["sem", "0", "0"], "untraced again, the semaphores read 0")
    ok(t.quit() == 0, "the program ran on untouched")


def split_parts(n):
    """--split: every section in ONCPU, RUNQ and BLOCKED, summing to its wall
    time (their sums: 0.1 %); one section in five sleeps, so BLOCKED > 0."""
    m = {p: metric(p + "u.split") for p in ("", "ONCPU-", "RUNQ-", "BLOCKED-")}
    if ok(all(m.values()), "u.split: its metrics exist"):
        counts = [m[p]["count"] for p in ("ONCPU-", "RUNQ-", "BLOCKED-")]
        ok(m[""]["count"] == 2 * n and counts == [2 * n] * 3,
           "--split: every section in ONCPU, RUNQ and BLOCKED (%d; %s)" % (2 * n, counts))
        total = sum(m[p]["sum"] for p in ("ONCPU-", "RUNQ-", "BLOCKED-"))
        ok(abs(total - m[""]["sum"]) <= m[""]["sum"] * 0.001 + 1000,
           "--split: ONCPU + RUNQ + BLOCKED = wall time (%d vs %d ns)" % (total, m[""]["sum"]))
        ok(m["BLOCKED-"]["sum"] > 0 and m["ONCPU-"]["sum"] > 0,
           "--split: sections asleep and on a CPU (BLOCKED %d ns, ONCPU %d ns)" %
           (m["BLOCKED-"]["sum"], m["ONCPU-"]["sum"]))
    ctl("untrace", "u.split")


def section_outliers(own):
    """--outliers 60us (all the sections, the edge cases' too): every one
    the program timed (@own) at 60 us or more is kept, none under it, each
    user code's, with its stack from the end probe: the first frame is
    where the probe is, in usdt_target."""
    rc, out = ctl("-j", "outliers", "u.ol")
    doc = json.loads(out) if rc == 0 else {}
    e = doc.get("outliers", [])
    above = sum(1 for o in own if o >= 60000)
    ok(rc == 0 and doc["ratelimited"] == 0 and above <= len(e) <= len(own) and
       all(x["duration"] >= 60000 and x.get("user") and x["nr_frames"] >= 1 and
           x["stack"][0].endswith("[usdt_target]") for x in e),
       "--outliers 60us: the %d sections the program timed at 60 us or more kept, none under "
       "(%d kept), each user code's, its stack from the end probe" % (above, len(e)),
       out[:600])
    ctl("untrace", "u.ol")


def only_pid():
    """--pid: another process of the same program gets no breakpoint (its semaphore stays 0)."""
    a, b = Target(), Target()
    rc, out = ctl("trace", "--keep", "u.pid", "--pid", str(a.p.pid), "--start", START, "--end", END)
    if ok(rc == 0, "trace --pid A", out):
        ok(a.ask("sem") == ["sem"] + PLACES and b.ask("sem") == ["sem", "0", "0"],
           "--pid A: A's semaphores are raised, B's read 0")
        with tempfile.TemporaryDirectory() as d:
            b.ask("go 5 %s" % d)
            b.ask("run")
            a.ask("go 3 %s" % d)
            a.ask("run")
        m = metric("u.pid")
        ok(m is not None and m["trace"]["hits"] == 6, "--pid A: only A's 6 sections counted",
           m and m["trace"]["hits"])
        ctl("untrace", "u.pid")
    a.quit()
    b.quit()


def refusals():
    cases = [
        ("no such probe", ["--start", "usdt:%s:ktest:nope" % TARGET, "--end", END], 1,
         "no USDT probe ktest:nope"),
        ("no such provider", ["--start", "usdt:%s:nope:sec__start" % TARGET, "--end", END], 1,
         "no USDT probe nope:sec__start"),
        ("a binary without notes", ["--start", "usdt:%s:a:b" % NO_NOTES, "--end",
                                    "usdt:%s:a:c" % NO_NOTES], 1, "no .note.stapsdt section"),
        ("a USDT start with a kernel end", ["--start", START, "--end", "vfs_read"], 2,
         "both USDT probes, or neither"),
        ("two binaries", ["--start", START, "--end", "usdt:%s:a:b" % NO_NOTES], 2,
         "must be in one binary"),
        ("a probe's argument by a name", ["--value", "x", "--start", START, "--end", END], 2,
         "USDT probes name no arguments"),
        ("an argument the probes do not pass", ["--value", "arg0", "--start", START,
                                                "--end", END], 2, "has 0 arguments"),
    ]
    for what, args, want, text in cases:
        rc, out = ctl("trace", "--keep", "u.bad", *args)
        ok(rc == want and text in out, "refused: %s" % what, out)
    rc, out = ctl("-j", "list")
    ok(rc == 0 and "u.bad" not in out, "nothing attached by a refusal", out)


KSTATS_IOC_TRACE = 0x40E0BC07		# _IOW(0xBC, 7, 224 bytes: VER7 + reserved)
KSTATS_IOC_UNTRACE = 0x4058BC08
KSTATS_MECH_UPROBE = 5


def raw_section(entries, func=False):
    """TRACE a section by ioctl, @entries (role, fd, offset, ref_ctr): 0 or the errno."""
    labels = [ctypes.create_string_buffer(b"usdt:raw:" + w) for w in (b"s", b"e", b"f")]
    up = ctypes.create_string_buffer(b"".join(struct.pack("<iIQQQ", fd, role, off, ref, 0)
                                              for role, fd, off, ref in entries) or b"\0")
    t = bytearray(224)
    t[0:5] = b"u.raw"
    struct.pack_into("<QQQ", t, 64, ctypes.addressof(labels[2]) if func else 0,
                     0 if func else ctypes.addressof(labels[0]),
                     0 if func else ctypes.addressof(labels[1]))
    struct.pack_into("<IIII", t, 88, 3, KSTATS_MECH_UPROBE, 0, 0)
    struct.pack_into("<QII", t, 200, ctypes.addressof(up), len(entries), 32)
    dev = os.open("/dev/kstats", os.O_RDWR)
    try:
        fcntl.ioctl(dev, KSTATS_IOC_TRACE, bytes(t))
        fcntl.ioctl(dev, KSTATS_IOC_UNTRACE, b"u.raw".ljust(88, b"\0"))
        return 0
    except OSError as e:
        return e.errno
    finally:
        os.close(dev)


def readelf_sites():
    """(role, file offset, semaphore's file offset) of each place of ktest:sec__start (1)
    and ktest:sec__end (2), from readelf -n and -l (not prelinked: no base to move)."""
    def run(*a):
        return subprocess.run(["readelf", "-W"] + list(a) + [TARGET], capture_output=True,
                              text=True).stdout
    loads = [(int(f[1], 16), int(f[2], 16), int(f[4], 16), "".join(f[6:-1]))
             for f in (line.split() for line in run("-l").splitlines()) if f and f[0] == "LOAD"]

    def offset(v, flag):
        return next(off + v - va for off, va, sz, fl in loads if flag in fl and va <= v < va + sz)
    sites, name = [], None
    for line in run("-n").splitlines():
        f = line.replace(",", "").split()
        if "Name:" in f:
            name = f[f.index("Name:") + 1]
        elif "Location:" in f and name in ("sec__start", "sec__end"):
            loc, sem = int(f[f.index("Location:") + 1], 16), int(f[f.index("Semaphore:") + 1], 16)
            sites.append((1 if name == "sec__start" else 2, offset(loc, "E"),
                          offset(sem, "W") if sem else 0))
    return sites


def abi():
    """kstats(4)'s section refusals, by ioctl, with usdt_target's real places."""
    sites = readelf_sites()
    if not ok(len(sites) >= 2, "usdt_target's places, from readelf", sites):
        return
    fd = os.open(TARGET, os.O_RDONLY)
    s = next((r, fd, off, ref) for r, off, ref in sites if r == 1)
    e = next((r, fd, off, ref) for r, off, ref in sites if r == 2)
    cases = [
        ("a START and an END", [s, e], False, 0),
        ("a START alone", [s], False, errno.EINVAL),
        ("an END alone", [e], False, errno.EINVAL),
        ("START and END with a func label", [s, e], True, errno.EINVAL),
        ("a FUNC entry beside them", [s, e, (0, fd, s[2], 0)], False, errno.EINVAL),
        ("role 3", [s, (3, fd, e[2], 0)], False, errno.EINVAL),
        ("one place twice", [s, e, s], False, errno.EINVAL),
        ("65 entries", [s] + [e] * 64, False, errno.E2BIG),
        ("an odd semaphore offset", [s, (2, fd, e[2], 1)], False, errno.EINVAL),
    ]
    for what, entries, func, want in cases:
        got = raw_section(entries, func)
        ok(got == want, "TRACE, USDT section, %s: %s" % (
            what, errno.errorcode.get(want, "0") if want else "attached"),
           "got %s" % (errno.errorcode.get(got, got) if got else "success"))
    os.close(fd)
    rc, out = ctl("-j", "list")
    ok(rc == 0 and "u.raw" not in out, "nothing left attached by the refusals", out)


PLACES = [str(sum(1 for r, _, _ in readelf_sites() if r == role)) for role in (1, 2)]
oracle()
only_pid()
refusals()
abi()
sys.exit(1 if utap.failed else 0)

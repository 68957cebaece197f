#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""trace BINARY:SYMBOL's file offsets against binutils' readelf: for each
fixture build and function, the offset check_usym prints must be the
symbol's value less its executable PT_LOAD's p_vaddr plus its p_offset,
from `readelf -sW --dyn-syms` and `readelf -lW`; and each USDT probe's
place and semaphore (usdt:FILE:usym:first, :second) as `readelf -n` gives
them, through the executable and the writable PT_LOAD.
Usage: check_usym.py CHECK_USYM [--prelinked PATCHED ORIGINAL] FILE..."""
import subprocess
import sys


def readelf(*args):
    return subprocess.run(["readelf", "-W", *args], capture_output=True, text=True,
                          check=True).stdout


def oracle(path, sym):
    value = None
    for line in readelf("-s", "--dyn-syms", path).splitlines():
        f = line.split()
        if len(f) >= 8 and f[3] == "FUNC" and f[7].split("@")[0] == sym and f[6] != "UND":
            value = int(f[1], 16)
    for line in readelf("-l", path).splitlines():
        f = line.split()
        if f and f[0] == "LOAD" and "E" in f[6:-1]:
            off, vaddr, filesz = int(f[1], 16), int(f[2], 16), int(f[4], 16)
            if value is not None and vaddr <= value < vaddr + filesz:
                return value - vaddr + off
    return None


def loads(path):
    """PT_LOADs: (offset, vaddr, filesz, flags)."""
    out = []
    for line in readelf("-l", path).splitlines():
        f = line.split()
        if f and f[0] == "LOAD":
            out.append((int(f[1], 16), int(f[2], 16), int(f[4], 16), "".join(f[6:-1])))
    return out


def file_offset(path, v, flag):
    for off, vaddr, filesz, flags in loads(path):
        if flag in flags and vaddr <= v < vaddr + filesz:
            return off + v - vaddr
    return None


def usdt_oracle(path, provider, names):
    """readelf -n's stapsdt notes: each place of each probe, "ROLE OFFSET SEMAPHORE"."""
    base = None
    for line in readelf("-S", path).splitlines():
        f = line.replace("[ ", "[").split()
        if len(f) > 3 and f[1] == ".stapsdt.base":
            base = int(f[3], 16)
    notes, cur = [], {}
    for line in readelf("-n", path).splitlines():
        f = line.split()
        if "Provider:" in f:	# -W: on the note's own line
            cur = {"provider": f[f.index("Provider:") + 1]}
        elif line.strip().startswith("Name:"):
            cur["name"] = f[1]
        elif line.strip().startswith("Location:"):
            cur["pc"], cur["base"], cur["sem"] = (int(f[1].rstrip(","), 16),
                                                  int(f[3].rstrip(","), 16), int(f[5], 16))
            notes.append(cur)
    want = []
    for role, name in enumerate(names, 1):
        for n in notes:
            if n["provider"] == provider and n["name"] == name:
                moved = base - n["base"] if base and n["base"] else 0
                sem = file_offset(path, n["sem"] + moved, "W") if n["sem"] else 0
                want.append("%d %s %s" % (role, hex(file_offset(path, n["pc"] + moved, "E")),
                                          hex(sem)))
    return want


failed = 0
# USDT argument specs as <sys/sdt.h> writes them, read as the x86-64 psABI's
# DWARF register numbers say (rax 0, rdx 1, rcx 2, rbx 3, rsi 4, rdi 5, rbp 6,
# rsp 7, r8..r15 8..15): "KIND REG OFFSET SIZE SIGNED".
SPECS = {
    "-4@%edx": "reg 1 0 4 1", "8@%rdi": "reg 5 0 8 0", "1@%r9b": "reg 9 0 1 0",
    "2@%si": "reg 4 0 2 0", "8@%rsp": "reg 7 0 8 0", "-8@%r15": "reg 15 0 8 1",
    "4@%r14d": "reg 14 0 4 0", "-1@%al": "reg 0 0 1 1", "2@%r10w": "reg 10 0 2 0",
    "8@-12672(%rbp)": "mem 6 -12672 8 0", "-4@-12(%rbp)": "mem 6 -12 4 1",
    "4@(%rsp)": "mem 7 0 4 0", "-8@0x10(%rbx)": "mem 3 16 8 1",
    "-2@$5": "const -1 0 2 1", "8@x(%rip)": "other -1 0 8 0",
    "4@8(%rax,%rbx,4)": "other -1 0 4 0", "3@%eax": "other -1 0 0 0", "8@%ah": "other -1 0 8 0",
}
got = subprocess.run([sys.argv[1], "--usdt-arg"] + list(SPECS), capture_output=True,
                     text=True).stdout.splitlines()
for (spec, want), line in zip(SPECS.items(), got + [""] * len(SPECS)):
    ok = line == want
    print("%s - USDT argument %s read as %s (want %s)" % ("ok" if ok else "not ok", spec,
                                                       line, want))
    failed += not ok
files = sys.argv[2:]
if len(files) > 2 and files[0] == "--prelinked":
    # A file whose notes prelink left behind (prelink_notes.c): its probes
    # and semaphores are where the file it was made from has them, exactly.
    patched, original = files[1], files[2]
    files = files[3:] + [patched]
    got, want = (subprocess.run([sys.argv[1], "--usdt", f, "usym", "first", "second"],
                                capture_output=True, text=True).stdout.splitlines()
                 for f in (patched, original))
    ok = len(want) == 2 and got == want
    print("%s - %s: notes 64 KiB below .stapsdt.base (prelinked): the places of %s, %s" % (
        "ok" if ok else "not ok", patched, original, got))
    failed += not ok
for path in files:
    want = usdt_oracle(path, "usym", ("first", "second"))
    got = subprocess.run([sys.argv[1], "--usdt", path, "usym", "first", "second"],
                         capture_output=True, text=True)
    ok = len(want) == 2 and got.returncode == 0 and got.stdout.splitlines() == want
    print("%s - %s: usdt usym:first, usym:second at %s (readelf: %s)" % (
        "ok" if ok else "not ok", path, got.stdout.splitlines() or got.stderr.strip(), want))
    failed += not ok
    for sym in ("usym_first", "usym_second"):
        want = oracle(path, sym)
        got = subprocess.run([sys.argv[1], path, sym], capture_output=True, text=True)
        ok = want is not None and got.returncode == 0 and int(got.stdout, 16) == want
        print("%s - %s:%s at file offset %s (readelf: %s)" % (
            "ok" if ok else "not ok", path, sym, got.stdout.strip() or got.stderr.strip(),
            hex(want) if want is not None else "none"))
        failed += not ok
sys.exit(1 if failed else 0)

#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""trace BINARY:SYMBOL's file offsets against binutils' readelf: for each
fixture build and function, the offset check_usym prints must be the
symbol's value less its executable PT_LOAD's p_vaddr plus its p_offset,
from `readelf -sW --dyn-syms` and `readelf -lW`.
Usage: check_usym.py CHECK_USYM FILE..."""
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


failed = 0
for path in sys.argv[2:]:
    for sym in ("usym_first", "usym_second"):
        want = oracle(path, sym)
        got = subprocess.run([sys.argv[1], path, sym], capture_output=True, text=True)
        ok = want is not None and got.returncode == 0 and int(got.stdout, 16) == want
        print("%s - %s:%s at file offset %s (readelf: %s)" % (
            "ok" if ok else "not ok", path, sym, got.stdout.strip() or got.stderr.strip(),
            hex(want) if want is not None else "none"))
        failed += not ok
sys.exit(1 if failed else 0)

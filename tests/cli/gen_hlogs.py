#!/usr/bin/env python3
"""Writes the damaged HdrHistogram logs of the golden cases into DIR, each
from data/hlog/js.hlog (written by hdr-histogram-js) with one thing wrong:
    gen_hlogs.py DIR"""
import base64
import struct
import sys
import zlib

src = open("data/hlog/js.hlog").read().splitlines(keepends=True)
first = next(i for i, l in enumerate(src) if l.startswith("Tag="))
head, line = src[:first], src[first]
tag, start, length, mx, b64 = line.rstrip("\n").split(",")
blob = base64.b64decode(b64)
enc = zlib.decompress(blob[8:])


def wrap(encoding, cookie=0x1c849314):
    z = zlib.compress(encoding)
    return base64.b64encode(struct.pack(">II", cookie, len(z)) + z).decode()


def with_line(l):
    return "".join(head) + l + "\n"


def fields(b):
    return ",".join([tag, start, length, mx, b])


bad_zlib = bytearray(blob)
bad_zlib[20] ^= 0xff
# The highest trackable value made 2: every count past bucket 3 is too far.
past_end = enc[:24] + struct.pack(">q", 2) + enc[32:]
files = {
    "bad-cookie": with_line(fields(wrap(enc, 0x1c849313))),
    "bad-encoding-cookie": with_line(fields(wrap(b"\x1c\x84\x93\x12" + enc[4:]))),
    "bad-base64": with_line(fields(b64[:40] + "!" + b64[41:])),
    "bad-zlib": with_line(fields(base64.b64encode(bytes(bad_zlib)).decode())),
    "counts-past-end": with_line(fields(wrap(past_end))),
    "bad-payload-length": with_line(fields(wrap(enc[:4] + struct.pack(">I", 7) + enc[8:]))),
    "cut-number": with_line(fields(wrap(enc[:-1] + b"\x80"))),
    "bad-number": with_line(",".join([tag, start, "1.0x", mx, b64])),
    "negative-time": with_line(",".join([tag, "-1.000", length, mx, b64])),
    "bad-tag": with_line(fields(b64).replace("Tag=app.", "Tag=app/", 1)),
    "three-fields": with_line(",".join([tag, start, length, b64])),
    "truncated": "".join(src)[: len("".join(head)) + len(line) // 2],
    "no-histograms": "".join(head),
    "version-2": "#[Histogram log format version 2.0]\n" + line,
}
for name, text in files.items():
    with open(f"{sys.argv[1]}/{name}.hlog", "w") as f:
        f.write(text)

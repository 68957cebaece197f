#!/usr/bin/env python3
"""Writes the damaged HdrHistogram logs of the golden cases into DIR, each
from data/hlog/js.hlog (written by hdr-histogram-js) with one thing wrong,
basic-old.hlog: data/hlog/basic.hlog (kstatsctl's) without its
"#[kstats: ...]" comments, as kstatsctl wrote logs before them, and
long.hlog: 300 intervals of one tag, svc.m0 (as --day below):
    gen_hlogs.py DIR
Or a day-long interval log for 'make bench' (cli-w3.md section 4): 86,400
intervals of 1 s x 4 tags, svc.m0..m3, each holding one of the histograms
of data/plot-modes.hlog's lines (about 47 MB):
    gen_hlogs.py --day FILE"""
import base64
import struct
import sys
import zlib


def day_log(path, intervals=86400, tags=4):
    """plot-modes.hlog's modes.two histograms (two modes; one idle stretch),
    in turn, as four tags over a day: the review's day.hlog."""
    lines = open("data/plot-modes.hlog").read().splitlines(keepends=True)
    head = [l for l in lines if not l.startswith("Tag=")]
    payloads = [l.rstrip("\n").split(",", 4)[3:] for l in lines
                if l.startswith("Tag=modes.two,")]
    with open(path, "w") as f:
        f.write("".join(head))
        for i in range(intervals):
            for t in range(tags):
                mx, b64 = payloads[(i + 7 * t) % len(payloads)]
                f.write(f"Tag=svc.m{t},{i}.000,1.000,{mx},{b64}\n")


if len(sys.argv) == 3 and sys.argv[1] == "--day":
    day_log(sys.argv[2])
    sys.exit(0)

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
    # A copy taken while the log was written: its last line cut short.
    "cut-tail": "".join(src)[: len("".join(src)) - len(src[-1]) // 2],
    "no-histograms": "".join(head),
    "version-2": "#[Histogram log format version 2.0]\n" + line,
}
# Five minutes of it, one tag: more intervals than a heatmap's columns.
day_log(f"{sys.argv[1]}/long.hlog", 300, 1)
files["basic-old"] = "".join(l for l in open("data/hlog/basic.hlog")
                             if not l.startswith("#[kstats: "))
for name, text in files.items():
    with open(f"{sys.argv[1]}/{name}.hlog", "w") as f:
        f.write(text)

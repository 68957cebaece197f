#!/usr/bin/env python3
"""The "supported percentile" rule, against the samples themselves.

Usage: check_quantiles.py KSTATSCTL DIR (DIR: few-a.ksnap, few-b.ksnap and
few.samples.json, as gen_snapshots writes them).

For each percentile q asked of few.lat (A's 400 samples, and B - A's 400
through diff), computes here, in exact rational arithmetic, the q-quantile
of the samples (the sample of rank ceil(q N), as kstats(4) defines it) and
N (1 - q), and asserts that kstatsctl
  - marks q (JSON "supported": false, text "*") exactly when N (1 - q) < 10,
  - gives "beyond" = N - ceil(q N), the samples ranked above it,
  - puts every quantile it does not mark inside the slot it prints.
The percentiles include 97.5, where N (1 - q) is exactly 10: a rank off by
one in floating point would flip it.
"""
import json
import math
import re
import subprocess
import sys
from fractions import Fraction

K = 10  # kstatsctl(8), PERCENTILES
PCTS = ["50", "90", "97", "97.25", "97.5", "97.51", "97.75", "98", "99", "99.5",
        "99.9", "99.99", "100"]


def run(*args):
    return subprocess.run(args, check=False, capture_output=True, text=True).stdout


def exact(samples, p):
    s = sorted(samples)
    n = len(s)
    q = Fraction(p) / 100
    rank = max(1, math.ceil(q * n))
    return s[rank - 1], n - rank, n * (1 - q) >= K


def check(name, samples, pcts, text_marks=None):
    marked = unmarked = 0
    for p, e in zip(PCTS, pcts):
        assert Fraction(p) == Fraction(e["p"]).limit_denominator(10**6), (p, e["p"])
        value, beyond, supported = exact(samples, p)
        assert e["beyond"] == beyond, f"{name} p{p}: beyond {e['beyond']}, exact {beyond}"
        assert e["supported"] == supported, \
            f"{name} p{p}: supported {e['supported']}, N(1-q) >= {K} is {supported}"
        if text_marks is not None:
            assert text_marks[p] == (not supported), f"{name} p{p}: text mark {text_marks[p]}"
        if supported:
            unmarked += 1
            assert e["low"] <= value < e["high"], \
                f"{name} p{p}: exact {value} not in [{e['low']}, {e['high']})"
        else:
            marked += 1
    assert marked and unmarked, (marked, unmarked)
    return f"{name}: {unmarked} unmarked in their slots, {marked} marked"


def main():
    bin_, d = sys.argv[1], sys.argv[2]
    samples = json.load(open(f"{d}/few.samples.json"))["few.lat"]
    pl = ",".join(PCTS)
    show = json.loads(run(bin_, "--percentiles", pl, "show", "-j", "-i",
                          f"{d}/few-a.ksnap", "few.lat"))["metrics"][0]
    text = run(bin_, "--percentiles", pl, "show", "-i", f"{d}/few-a.ksnap", "few.lat")
    marks = {m.group(1): m.group(2) == "*"
             for m in re.finditer(r"\bp([0-9.]+) [^ ]+ \([^)]*\)(\*?)", text)}
    assert sorted(marks, key=float) == sorted(PCTS, key=float), marks
    assert ("* fewer than %d samples beyond it" % K) in text, text
    out = [check("show A", samples["a"], show["percentiles"], marks)]
    diff = json.loads(run(bin_, "--percentiles", pl, "-j", "diff", f"{d}/few-a.ksnap",
                          f"{d}/few-b.ksnap", "few.lat"))["metrics"][0]["stats"]
    for side, key in (("a", "a"), ("interval", "interval")):
        by_p = {x["p"]: x for x in diff["percentiles"]}
        pcts = [dict(by_p[float(p)][side], p=float(p)) for p in PCTS]
        out.append(check(f"diff {side}", samples[key], pcts))
    print("; ".join(out))


main()

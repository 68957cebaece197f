#!/usr/bin/env python3
"""show's histogram fits the screen by merging slots (issue 31, finding 9).

For every metric of the snapshot files given, the default `show` (hist,
--units ns) is checked against the same metric's slots in `show -f json`:

  - at most 40 rows (not a terminal: kstatsctl's default height), unless
    at frac_bits 0, which merges no further;
  - with a "rows merged to frac_bits B" line when, and only when, the rows
    are coarser than the metric's own frac_bits;
  - every row's bounds are slot bounds of frac_bits B, computed here from
    the definition of log-linear slots (2^B per power of two, the values
    below 2^B one each), not from kstatsctl's code;
  - every row's count is the exact sum of the JSON slots inside it, and
    every JSON slot lies inside exactly one row (nothing invented, nothing
    lost, no slot split between two rows);
  - B is the finest that fits: at B + 1 the rows would be more than 40.

Usage: check_rows.py KSTATSCTL FILE...
"""
import json
import re
import subprocess
import sys

MAX_ROWS = 40
ROW = re.compile(r"^\[(\S+), (\S+)\)\s+(\d+) \|")
NOTE = re.compile(r"^rows merged to frac_bits (\d) to fit (\d+) lines; -b (\d) for every slot$")


def slot_of(v, b):
    """The slot of value @v at frac_bits @b, as a (low, high) pair."""
    if v < (1 << b):
        return v, v + 1
    e = v.bit_length() - 1		# 2^e <= v < 2^(e+1)
    width = 1 << (e - b)
    low = v - (v - (1 << e)) % width
    return low, low + width


def rows_at(buckets, b):
    """How many rows show prints at frac_bits @b: used slots, empty runs one."""
    used = sorted({slot_of(x["low"], b) for x in buckets if x["count"]})
    n = 0
    for i, s in enumerate(used):
        n += 1
        if i and used[i - 1][1] != s[0]:
            n += 1		# the empty run before it
    return n


def ns(text):
    m = re.fullmatch(r"(\d+)(ns)?", text)
    return int(m.group(1)) if m else None


def run(args):
    return subprocess.run(args, capture_output=True, text=True, check=True,
                          env={"KSTATS_COLOR": "never", "TZ": "UTC", "LC_ALL": "C.UTF-8"}).stdout


def check(bin_, path):
    doc = json.loads(run([bin_, "show", "-i", path, "-f", "json"]))
    ok, checked = True, 0
    for m in doc["metrics"]:
        buckets = [x for x in m.get("buckets", []) if x["count"]]
        if not buckets:
            continue
        text = run([bin_, "--units", "ns", "show", "-i", path, m["name"]]).splitlines()
        fb = m["frac_bits"]
        note = [NOTE.match(line) for line in text[1:3]]
        note = next((x for x in note if x), None)
        b = int(note.group(1)) if note else fb
        rows = [ROW.match(line) for line in text]
        rows = [r for r in rows if r]
        where = f"{path} {m['name']}"
        if len(rows) > MAX_ROWS and b > 0:	# frac_bits 0 is as coarse as it gets
            print(f"{where}: {len(rows)} rows, more than {MAX_ROWS}")
            ok = False
        if note and (b >= fb or int(note.group(3)) != fb):
            print(f"{where}: note says frac_bits {b}, the metric has {fb}")
            ok = False
        if b < fb and rows_at(buckets, b + 1) <= MAX_ROWS:
            print(f"{where}: merged to {b}, but frac_bits {b + 1} fits too")
            ok = False
        if not note and fb > 0 and rows_at(buckets, fb) > MAX_ROWS:
            print(f"{where}: {rows_at(buckets, fb)} rows of its own slots, no merge")
            ok = False
        bounds = [(ns(r.group(1)), ns(r.group(2)), int(r.group(3))) for r in rows]
        if any(lo is None or hi is None for lo, hi, _ in bounds):
            continue	# not exact integers (e.g. 1.845e19): bounds not checkable
        inside = [0] * len(buckets)
        for lo, hi, count in bounds:
            total = 0
            for i, x in enumerate(buckets):
                if x["low"] >= lo and x["high"] <= hi:
                    total += x["count"]
                    inside[i] += 1
                elif x["low"] < hi and x["high"] > lo:
                    print(f"{where}: slot [{x['low']}, {x['high']}) split by row [{lo}, {hi})")
                    ok = False
            if total != count:
                print(f"{where}: row [{lo}, {hi}) says {count}, its slots hold {total}")
                ok = False
            if count and (lo, hi) != slot_of(lo, b):
                print(f"{where}: row [{lo}, {hi}) is not a slot of frac_bits {b}")
                ok = False
        if any(n != 1 for n in inside):
            print(f"{where}: a slot in {sorted(set(inside))} rows, not exactly one")
            ok = False
        checked += 1
    return ok, checked


def main(argv):
    ok, n = True, 0
    for path in argv[2:]:
        o, c = check(argv[1], path)
        ok, n = ok and o, n + c
    print(f"# {n} histograms checked")
    return 0 if ok and n else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv))

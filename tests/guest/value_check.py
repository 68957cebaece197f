#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""value-tests.sh's oracle: what kstats_target's calls of ktarget_value()
passed and got (its debugfs "values": struct kv_call, 40 bytes each:
s64 arg, ret, level; u64 size; u32 chain, pad), against what a trace
recorded ('kstatsctl show -j NAME NEG-NAME').

  value_check.py values BLOB SHOW_JSON NAME FIELD [--chain] [--unsigned]
      NAME's buckets hold exactly the calls' FIELD (arg, ret, level or size)
      that are >= 0, NEG-NAME's the magnitudes of those below 0 (none with
      --unsigned: FIELD read as unsigned), NAME's hits the trace's (a
      VALUE-NAME's: the calls it holds); --chain: only calls whose chain o->mid->inner is whole, the
      others counted as faults
  value_check.py pred BLOB SHOW_JSON NAME PYEXPR [--chain]
      NAME's hits are the calls for which PYEXPR (over c.arg, c.ret,
      c.level, c.size, c.chain) holds, rejected the others; --chain: the
      calls whose chain has a NULL (chain < 1, o->mid NULL) are faults
  value_check.py timed SHOW_JSON NAME N
      NAME is a duration (unit ns) of N hits and N samples
  value_check.py names LIST_JSON NAME...
      prints the NAMEs that 'kstatsctl -j list' lists
  value_check.py serve
      one request a line (base64 of its arguments, each ended by a NUL);
      answers with the request's output, then "rc N": one python for every
      check of value-tests.sh, where each start costs 0.4-0.9 s under TCG
Exits 0 when everything is exact; else says what differs.
"""
import base64
import json
import struct
import sys
from types import SimpleNamespace

CALL = struct.Struct("<qqqQII")


def calls(path):
    data = open(path, "rb").read()
    assert len(data) % CALL.size == 0, f"{path}: {len(data)} bytes"
    return [SimpleNamespace(arg=a, ret=r, level=lv, size=s, chain=ch)
            for a, r, lv, s, ch, _ in CALL.iter_unpack(data)]


def metrics(path):
    doc = json.load(open(path))
    return {m["name"]: m for m in doc["metrics"]}


def check_buckets(m, values, what):
    errors = []
    total = 0
    for b in m["buckets"] if m else []:
        want = sum(1 for v in values if b["low"] <= v < b["high"])
        total += b["count"]
        if b["count"] != want:
            errors.append(f"{what}: [{b['low']}, {b['high']}) holds {b['count']}, "
                          f"the calls put {want} there")
    if total != len(values):
        errors.append(f"{what}: {total} samples, the calls made {len(values)}")
    return errors


def timed(show, name, n):
    m = metrics(show).get(name)
    if m is None or m["unit"] != "ns" or m["trace"]["hits"] != int(n) or m["count"] != int(n):
        print(f"{name}: {m and (m['unit'], m['trace']['hits'], m['count'])}, want ns, {n}, {n}")
        return 1
    return 0


def names(listed, want):
    have = {m["name"] for m in json.load(open(listed))["metrics"]}
    print(" ".join(n for n in want if n in have))
    return 0


def serve():
    for line in sys.stdin:
        args = [a.decode() for a in base64.b64decode(line).split(b"\0")[:-1]]
        try:
            rc = main(args)
        except Exception as e:  # a broken request fails its check, not the others
            print(f"value_check.py {' '.join(args)}: {type(e).__name__}: {e}")
            rc = 1
        print(f"rc {rc}", flush=True)
    return 0


def main(argv):
    if argv[0] == "timed":
        return timed(*argv[1:4])
    if argv[0] == "names":
        return names(argv[1], argv[2:])
    mode, blob, show, name = argv[0:4]
    rest = argv[4:]
    cs = calls(blob)
    ms = metrics(show)
    chain = "--chain" in rest
    whole = [c for c in cs if not chain or c.chain == 2]
    errors = []
    m = ms.get(name)
    if m is None:
        print(f"{name}: not in {show}")
        return 1
    t = m["trace"]
    if mode == "values":
        field = rest[0]
        vals = [getattr(c, field) for c in whole]
        if "--unsigned" in rest:
            vals = [v % 2**64 for v in vals]
        errors += check_buckets(m, [v for v in vals if v >= 0], name)
        neg = [-v for v in vals if v < 0]
        # Beside a duration (--time) the value is VALUE-TRACE, its
        # negatives' magnitudes NEG-TRACE.
        negname = "NEG-" + (name[len("VALUE-"):] if name.startswith("VALUE-") else name)
        if neg or negname in ms:
            errors += check_buckets(ms.get(negname), neg, negname)
        # NAME has the trace's hits; VALUE-NAME beside a duration the calls
        # it holds (kstats(4), SNAPSHOT).
        hits = sum(1 for v in vals if v >= 0) if name.startswith("VALUE-") else len(whole)
        want = {"hits": hits, "faults": len(cs) - len(whole), "rejected": 0}
    else:
        pred = compile(rest[0], "PYEXPR", "eval")
        live = [c for c in cs if not chain or c.chain >= 1]
        held = sum(1 for c in live if eval(pred, {}, {"c": c}))
        want = {"hits": held, "faults": len(cs) - len(live), "rejected": len(live) - held}
        if m["count"] != held:
            errors.append(f"{name}: {m['count']} samples, {held} calls held")
    want["misses"] = 0
    for k, v in want.items():
        if t.get(k) != v:
            errors.append(f"{name}: {k} {t.get(k)}, want {v}")
    for e in errors[:20]:
        print(e)
    print(f"# {name}: {len(cs)} calls, {t.get('hits')} hits, {t.get('faults')} faults, "
          f"{t.get('rejected')} rejected")
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(serve() if sys.argv[1:] == ["serve"] else main(sys.argv[1:]))

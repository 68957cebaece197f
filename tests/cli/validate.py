#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Checks kstatsctl's machine-readable output with real parsers.

  validate.py schema SCHEMA FILE...      each FILE is one or more JSON documents
                                         (one per line, or one pretty one) that
                                         must validate against SCHEMA
  validate.py prom PROM JSON             PROM parses with prometheus_client's
                                         Prometheus and OpenMetrics parsers, and
                                         agrees with the show document JSON
  validate.py truth JSON TRUTH           estimates in JSON are within their
                                         stated error of the exact statistics
  validate.py same A B                   two show documents are equal but for
                                         source.path

Exits 0 when every check passes; prints what failed otherwise.
"""
import json
import math
import sys


def documents(path):
    text = open(path, encoding="utf-8").read()
    dec = json.JSONDecoder()
    i, docs = 0, []
    while True:
        while i < len(text) and text[i].isspace():
            i += 1
        if i >= len(text):
            return docs
        doc, i = dec.raw_decode(text, i)
        docs.append(doc)


def check_schema(schema_path, files):
    import jsonschema
    schema = json.load(open(schema_path, encoding="utf-8"))
    jsonschema.Draft7Validator.check_schema(schema)
    v = jsonschema.Draft7Validator(schema)
    bad = 0
    for f in files:
        docs = documents(f)
        if not docs:
            print(f"{f}: no JSON document")
            bad += 1
        for d in docs:
            errs = sorted(v.iter_errors(d), key=lambda e: list(e.path))
            for e in errs[:5]:
                print(f"{f}: {list(e.path)}: {e.message[:300]}")
            bad += bool(errs)
    return bad == 0


def check_prom(prom_path, json_path):
    from prometheus_client.parser import text_string_to_metric_families
    from prometheus_client.openmetrics.parser import (
        text_string_to_metric_families as om_families)
    text = open(prom_path, encoding="utf-8").read()
    plain = list(text_string_to_metric_families(text))
    om = list(om_families(text))
    show = documents(json_path)[0]
    ok = True
    if len(om) != len(show["metrics"]):
        print(f"{len(om)} OpenMetrics families, {len(show['metrics'])} metrics")
        return False
    if len(plain) != len(om):
        print(f"Prometheus parser: {len(plain)} families, OpenMetrics {len(om)}")
        ok = False
    for fam, m in zip(om, show["metrics"]):
        if fam.type != "histogram":
            print(f"{fam.name}: type {fam.type}")
            ok = False
        buckets = [s for s in fam.samples if s.name.endswith("_bucket")
                   and "cpu" not in s.labels]
        count = [s.value for s in fam.samples if s.name.endswith("_count")
                 and "cpu" not in s.labels]
        total = [s.value for s in fam.samples if s.name.endswith("_sum")
                 and "cpu" not in s.labels]
        if not buckets:
            continue    # per-CPU series only
        if buckets[-1].labels["le"] != "+Inf" or buckets[-1].value != m["count"]:
            print(f"{fam.name}: +Inf bucket {buckets[-1]} vs count {m['count']}")
            ok = False
        if count != [m["count"]]:
            print(f"{fam.name}: _count {count} vs {m['count']}")
            ok = False
        if m["count"] and not math.isclose(total[0] * 1e9, m["sum"], rel_tol=1e-9):
            print(f"{fam.name}: _sum {total[0]} s vs {m['sum']} ns")
            ok = False
        cum = 0
        want = {}
        for b in m["buckets"]:
            cum += b["count"]
            if b["count"]:
                want[round((b["high"] - 1) / 1e9, 20)] = cum
        seen, last = 0, 0
        for s in buckets[:-1]:
            le = float(s.labels["le"])
            if s.value < last:
                print(f"{fam.name}: bucket le={le} decreases")
                ok = False
            empty, last = s.value == last, s.value
            near = [k for k in want if math.isclose(k, le, rel_tol=1e-12, abs_tol=1e-21)]
            if not near and empty:
                continue    # an empty slot (--all-slots)
            seen += 1
            if not near or want[near[0]] != s.value:
                print(f"{fam.name}: bucket le={le} = {s.value}, JSON says "
                      f"{want.get(near[0]) if near else 'none'}")
                ok = False
                break
        if seen != len(want):
            print(f"{fam.name}: {seen} non-empty buckets, JSON has {len(want)}")
            ok = False
    return ok


def check_truth(json_path, truth_path):
    show = documents(json_path)[0]
    truth = json.load(open(truth_path, encoding="utf-8"))
    ok = True
    for m in show["metrics"]:
        t = truth[m["name"]]
        if m["count"] != t["count"]:
            print(f"{m['name']}: count {m['count']} != {t['count']}")
            ok = False
        if not t["count"]:
            continue
        # Slot means carry at most 2^-(13+b) relative error (kstats_hist.h).
        tol = 2.0 ** -(13 + m["frac_bits"])
        if not math.isclose(m["mean"], t["mean"], rel_tol=tol, abs_tol=1):
            print(f"{m['name']}: mean {m['mean']} vs exact {t['mean']}")
            ok = False
        for p in m["percentiles"]:
            exact = t["quantiles"][f"{p['p']:g}"]
            # The estimate stays in the true sample's slot: off by less than
            # one slot width, i.e. p["error"] of the value (0: exact).
            bound = p["error"] * exact + (1 if p["error"] else 0)
            if abs(p["value"] - exact) > bound:
                print(f"{m['name']}: p{p['p']:g} = {p['value']}, exact {exact}, "
                      f"error bound {p['error']}")
                ok = False
        for k in ("min", "max"):
            if abs(m[k] - t[k]) > m["error_bound"] * t[k] + 1:
                print(f"{m['name']}: {k} {m[k]} vs exact {t[k]}")
                ok = False
    return ok


def check_same(a, b):
    da, db = documents(a)[0], documents(b)[0]
    da["source"].pop("path", None)
    db["source"].pop("path", None)
    if da != db:
        print(f"{a} and {b} differ")
        return False
    return True


def main(argv):
    cmd = argv[1] if len(argv) > 1 else ""
    if cmd == "schema" and len(argv) >= 4:
        return check_schema(argv[2], argv[3:])
    if cmd == "prom" and len(argv) == 4:
        return check_prom(argv[2], argv[3])
    if cmd == "truth" and len(argv) == 4:
        return check_truth(argv[2], argv[3])
    if cmd == "same" and len(argv) == 4:
        return check_same(argv[2], argv[3])
    print(__doc__)
    return False


if __name__ == "__main__":
    sys.exit(0 if main(sys.argv) else 1)

#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Checks kstatsctl's machine-readable output with real parsers.

  validate.py schema SCHEMA FILE...      each FILE is one or more JSON documents
                                         (one per line, or one pretty one) that
                                         must validate against SCHEMA
  validate.py golden-schema SCHEMA GOLDEN...
                                         the same for each golden output
                                         (tests/cli/golden/*.out) whose
                                         stdout is JSON
  validate.py truncations BIN KSNAP N TMP
                                         every Nth cut of KSNAP: BIN show
                                         exits 1 and says where it was cut
  validate.py flips BIN KSNAP N TMP      a byte changed every N: BIN show
                                         exits 1, or shows it as before
  validate.py prom PROM JSON             PROM parses with prometheus_client's
                                         Prometheus and OpenMetrics parsers, and
                                         agrees with the show document JSON
  validate.py truth JSON TRUTH           estimates in JSON are within their
                                         stated error of the exact statistics
  validate.py same A B                   two show documents are equal but for
                                         source.path
  validate.py footer HIST JSON           each percentile in the hist footers is
                                         its slot's middle, with the ± of its
                                         slot relative to the printed value;
                                         min and max are their slots
  validate.py counts DIR F TRUTH         DIR/F.{hist,percentiles,csv,
                                         prometheus,json}, DIR/F.raw.METRIC:
                                         every format gives every metric's
                                         exact total count
  validate.py shift JSON TEXT            the diff of interval-a and -b: the
                                         interval moved +60%, the whole ~+11%;
                                         lat.reset has no interval
  validate.py text FILE...               each FILE is UTF-8 without a control
                                         character (C0, DEL, C1) but tab and
                                         newline: fit for a terminal
  validate.py strings KSNAP JSON         the strings of snapshot file KSNAP
                                         (read here from its bytes) are those
                                         of the show document JSON, with one
                                         U+FFFD for each byte not UTF-8
  validate.py crc KSNAP...               each version-2 to 4 file's header holds
                                         its length and CRC-32C (computed here)
  validate.py outliers KSNAP NAME JSON   the outlier entries of trace NAME in
                                         KSNAP (format 4, read here from its
                                         bytes as kstatsctl(8) describes them)
                                         are those of outliers -i -j's JSON
  validate.py percpu JSON                show --per-cpu -j: each CPU's slot
                                         means inside their slots, its mean
                                         between its min and max slots
                                         (counts and part sums split across
                                         CPUs by migrations included)
  validate.py export-keys PROM JSON      export's text of a file with trace
                                         keys (--by errno|cgroup) parses with
                                         prometheus_client; each key's metric
                                         is in kstats_duration_by_KEY_seconds
                                         with the trace's name and the key's
                                         value as labels (no brace in a label),
                                         its count the show document's, and a
                                         trace's keys add up to its count
  validate.py hlog-same A B               two HdrHistogram logs are the same
                                         log: every line equal, but each
                                         compressed histogram is compared
                                         inflated (zlib builds deflate the
                                         same bytes differently)

Exits 0 when every check passes; prints what failed otherwise.
"""
import base64
import json
import math
import re
import os
import shlex
import struct
import subprocess
import sys
import zlib


def documents(path):
    return documents_of(open(path, encoding="utf-8").read())


def documents_of(text):
    dec = json.JSONDecoder()
    i, docs = 0, []
    while True:
        while i < len(text) and text[i].isspace():
            i += 1
        if i >= len(text):
            return docs
        doc, i = dec.raw_decode(text, i)
        docs.append(doc)


def golden_stdout(path):
    """The stdout section of a golden output (tests/cli/golden/NAME.out)."""
    text = open(path, encoding="utf-8").read()
    return text.split("== stdout\n", 1)[1].split("== stderr\n", 1)[0]


def check_schema(schema_path, files, golden=False):
    """Every JSON document of each file validates; with @golden, the files
    are golden outputs, and those whose stdout is JSON are checked."""
    import jsonschema
    schema = json.load(open(schema_path, encoding="utf-8"))
    jsonschema.Draft7Validator.check_schema(schema)
    v = jsonschema.Draft7Validator(schema)
    bad = n = 0
    for f in files:
        if golden:
            out = golden_stdout(f)
            if not out.startswith("{"):
                continue
            docs = documents_of(out)
        else:
            docs = documents(f)
        n += 1
        if not docs:
            print(f"{f}: no JSON document")
            bad += 1
        for d in docs:
            errs = sorted(v.iter_errors(d), key=lambda e: list(e.path))
            for e in errs[:5]:
                print(f"{f}: {list(e.path)}: {e.message[:300]}")
            bad += bool(errs)
    if golden:
        print(f"# {n} documents")
        if not n:
            return False
    return bad == 0


def same_count(parsed, exact):
    """A count as a parser read it (an int, or a float past 2^53) is exact."""
    return parsed == exact or parsed == float(exact)


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
        if buckets[-1].labels["le"] != "+Inf" or not same_count(buckets[-1].value, m["count"]):
            print(f"{fam.name}: +Inf bucket {buckets[-1]} vs count {m['count']}")
            ok = False
        if len(count) != 1 or not same_count(count[0], m["count"]):
            print(f"{fam.name}: _count {count} vs {m['count']}")
            ok = False
        # Nanoseconds are written in seconds; numbers of no known unit as they are.
        scale = 1e9 if m["unit"] == "ns" else 1
        if fam.name.endswith("_seconds") != (m["unit"] == "ns"):
            print(f"{fam.name}: unit {m['unit']}")
            ok = False
        if m["count"] and not math.isclose(total[0] * scale, m["sum"], rel_tol=1e-9):
            print(f"{fam.name}: _sum {total[0]} vs {m['sum']} ({m['unit']})")
            ok = False
        cum = 0
        want = {}
        for b in m["buckets"]:
            cum += b["count"]
            if b["count"]:
                want[round((b["high"] - 1) / scale, 20)] = cum
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
            if not near or not same_count(s.value, want[near[0]]):
                print(f"{fam.name}: bucket le={le} = {s.value}, JSON says "
                      f"{want.get(near[0]) if near else 'none'}")
                ok = False
                break
        if seen != len(want):
            print(f"{fam.name}: {seen} non-empty buckets, JSON has {len(want)}")
            ok = False
    return ok


def check_export_keys(prom_path, json_path):
    from prometheus_client.parser import text_string_to_metric_families
    text = open(prom_path, encoding="utf-8").read()
    fams = {f.name: f for f in text_string_to_metric_families(text)}
    show = {m["name"]: m for m in documents(json_path)[0]["metrics"]}
    braced = [f"{s.name}{s.labels}" for fam in fams.values() for s in fam.samples
              if any("{" in v or "}" in v for v in s.labels.values())]
    ok = not braced
    for b in braced[:3]:
        print(f"{b}: a brace in a label value ({len(braced)} such series)")
    want = {}   # (trace, key): the counts of its key metrics
    for name, m in show.items():
        k = re.fullmatch(r"(.*)\{([a-z]+)=.*\}", name)
        if k:
            want.setdefault((k.group(1), k.group(2)), []).append(m["count"])
    if not want:
        print("no key metric in the show document")
        return False
    for (trace, key), counts in want.items():
        fam = fams.get(f"kstats_duration_by_{key}_seconds")
        got = [s for s in (fam.samples if fam else []) if s.name.endswith("_count")
               and s.labels.get("name") == trace]
        if any(set(s.labels) != {"name", key} for s in got):
            print(f"{trace} by {key}: labels {[s.labels for s in got]}")
            ok = False
        # One series per key metric, each with its count (the values are
        # text's, -EAGAIN for the module's -11: compared as counts).
        if sorted(int(s.value) for s in got) != sorted(counts):
            print(f"{trace} by {key}: _count {sorted(s.value for s in got)}, "
                  f"the key metrics {sorted(counts)}")
            ok = False
        if not same_count(sum(s.value for s in got), show[trace]["count"]):
            print(f"{trace} by {key}: the keys add to {sum(s.value for s in got)}, "
                  f"the trace has {show[trace]['count']}")
            ok = False
        plain = [s for s in fams["kstats_duration_seconds"].samples
                 if s.name.endswith("_count") and s.labels.get("name") == trace]
        if len(plain) != 1 or set(plain[0].labels) != {"name"}:
            print(f"{trace}: not once in kstats_duration_seconds without a key label")
            ok = False
    return ok


def in_slot(x, slot):
    """The exact value x lies in the slot {"low", "high"} (high exclusive)."""
    return slot["low"] <= x < slot["high"]


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
        # Within mean_error: exact sums (0), 2^-(13+b) in wide slots, more
        # where a slot's sum is unknown; plus the double's rounding.
        tol = m["mean_error"] * m["mean"] + 1e-9 * t["mean"]
        if abs(m["mean"] - t["mean"]) > tol:
            print(f"{m['name']}: mean {m['mean']} (±{m['mean_error']}) vs exact {t['mean']}")
            ok = False
        for p in m["percentiles"]:
            exact = t["quantiles"][f"{p['p']:g}"]
            # The exact sample is in the slot; the value is the middle of
            # the slot's values and the error half their spread, relative.
            low, last = p["low"], p["high"] - 1
            mid, half = (low + last) / 2, (last - low) / 2
            if not in_slot(exact, p):
                print(f"{m['name']}: p{p['p']:g} in [{low}, {last}], exact {exact}")
                ok = False
            if not math.isclose(p["value"], mid, rel_tol=1e-12):
                print(f"{m['name']}: p{p['p']:g} = {p['value']}, not the middle {mid}")
                ok = False
            if not math.isclose(p["error"] * p["value"], half, rel_tol=1e-9, abs_tol=1e-9):
                print(f"{m['name']}: p{p['p']:g} error {p['error']}, half-width {half}")
                ok = False
        for k in ("min", "max"):
            if set(m[k]) != {"low", "high"} or not in_slot(t[k], m[k]):
                print(f"{m['name']}: {k} {m[k]} vs exact {t[k]}")
                ok = False
    return ok


UNITS = {"ns": 1, "us": 1e3, "ms": 1e6, "s": 1e9}


def ns(text):
    """'2.944us' -> 2944.0; a number of no unit as it is ('1.376e6')"""
    v = re.fullmatch(r"([0-9.]+(?:e[0-9]+)?)(ns|us|ms|s|)", text)
    return float(v.group(1)) * (UNITS[v.group(2)] if v.group(2) else 1)


VALUE = r"[0-9.]+(?:e[0-9]+)?(?:ns|us|ms|s)?"


def footers(hist_path):
    """(metric name, footer text) for each metric of a hist output: the
    lines from "count" to "slots" joined, however they were wrapped."""
    name, text = None, None
    for line in open(hist_path, encoding="utf-8"):
        head = re.match(r"^([A-Za-z0-9_.:-]+): ", line)
        if head:
            name = head.group(1)
        elif line.startswith("count "):
            text = line.rstrip("\n")
        elif text is not None and line.startswith("slots "):
            yield name, text
            text = None
        elif text is not None:
            text += "  " + line.rstrip("\n")


def check_footer(hist_path, json_path):
    """The hist footer says what is known: slots for min and max, and for
    each percentile the printed value with the ± its slot allows around it:
    a bound (covers the slot), and the tightest at two digits."""
    metrics = {m["name"]: m for m in documents(json_path)[0]["metrics"]}
    ok, seen = True, 0
    for name, line in footers(hist_path):
        if name not in metrics or not metrics[name]["count"]:
            continue
        m = metrics[name]
        for k in ("min", "max"):
            got = re.search(rf"{k} (in \[({VALUE}), ({VALUE})\)|{VALUE})", line)
            want_exact = m[k]["high"] - m[k]["low"] == 1
            if not got or want_exact != (got.group(2) is None):
                print(f"{name}: {k} printed as {got and got.group(1)}, JSON {m[k]}")
                ok = False
        for (pname, value, err), p in zip(
                re.findall(rf"(p[0-9.]+) ({VALUE}) \((±[0-9.]+%|exact)\)", line),
                m["percentiles"]):
            seen += 1
            low, last, v = p["low"], p["high"] - 1, ns(value)
            if err == "exact":
                if low != last or v != low:
                    print(f"{name}: {pname} {value} exact, JSON {p}")
                    ok = False
                continue
            e = float(err[1:-1]) / 100
            need = max(v - low, last - v) / v
            # A bound, and not looser than rounding up to two digits allows.
            step = 10 ** (math.floor(math.log10(need * 100)) - 1) / 100
            if not (need <= e * (1 + 1e-12) and e < need + step * 1.0001):
                print(f"{name}: {pname} {value} {err}: the slot [{low}, {last}] "
                      f"needs ±{need:.4%}")
                ok = False
    if not seen:
        print(f"{hist_path}: no percentiles found")
        ok = False
    return ok


def check_counts(out_dir, f, truth_path):
    """Each format's total of each metric is the exact count."""
    truth = {k: v["count"] for k, v in json.load(open(truth_path)).items()}
    got = {}

    def put(fmt, name, n):
        got.setdefault(fmt, {})[name] = n

    name = None
    for line in open(f"{out_dir}/{f}.hist"):
        head = re.match(r"^([A-Za-z0-9_.:-]+): ", line)
        if head:
            name = head.group(1)
        elif line.startswith("count "):
            put("hist", name, int(line.split()[1]))
    for line in open(f"{out_dir}/{f}.percentiles"):
        head = re.match(r"^# ([A-Za-z0-9_.:-]+): ", line)
        if head:
            name = head.group(1)
        tot = re.search(r"Total count += +([0-9]+)\]", line)
        if tot:
            put("percentiles", name, int(tot.group(1)))
    for line in open(f"{out_dir}/{f}.csv"):
        col = line.strip().split(",")
        if col[0] != "time":
            put("csv", col[1], got.get("csv", {}).get(col[1], 0) + int(col[5]))
    for line in open(f"{out_dir}/{f}.prometheus"):
        c = re.match(r"^kstats_(\S+?)(?:_seconds)?_count ([0-9]+)$", line)
        if c:
            put("prometheus", c.group(1).replace("_", ".", 1), int(c.group(2)))
    # raw names no metric: one file per metric.
    for name in truth:
        for line in open(f"{out_dir}/{f}.raw.{name}"):
            col = line.split()
            if col[2] == "CPUS":
                put("raw", name, got.get("raw", {}).get(name, 0) + int(col[5]))
    got["json"] = {m["name"]: m["count"] for m in documents(f"{out_dir}/{f}.json")[0]["metrics"]}
    ok = True
    for fmt, counts in got.items():
        if counts != truth:
            print(f"{fmt}: {counts}, exact {truth}")
            ok = False
    return ok and len(got) == 6


def check_shift(json_path, text_path):
    """lat.shift: the interval's percentiles moved +60% from A's, while B
    whole moved ~+11%; the text says the same; lat.reset: no interval, and
    none for lat.refilled either, reset and refilled past A in every slot:
    only its generation tells."""
    d = documents(json_path)[0]
    m = {x["name"]: x for x in d["metrics"]}
    ok = True
    s = m["lat.shift"]
    pct = {p["p"]: p for p in s.get("stats", {}).get("percentiles", [])}
    if s["comparison"] != "interval" or "interval" not in pct.get(50, {}):
        print(f"lat.shift: comparison {s['comparison']}, not the interval")
        return False
    p50 = pct[50]
    moved = p50["interval"]["value"] / p50["a"]["value"] - 1
    whole = p50["b"]["value"] / p50["a"]["value"] - 1
    if not (0.55 <= moved <= 0.65 and 0.05 <= whole <= 0.15):
        print(f"lat.shift: p50 interval {moved:+.1%}, whole {whole:+.1%}")
        ok = False
    # (counts of A and of an interval cover different durations: no change)
    if s["stats"]["count"] != {"a": 20000, "b": 26000, "interval": 6000, "change_pct": None}:
        print(f"lat.shift: counts {s['stats']['count']}")
        ok = False
    if not p50["change_pct"]["min"] <= 60 <= p50["change_pct"]["max"]:
        print(f"lat.shift: p50 change {p50['change_pct']}, not around +60%")
        ok = False
    for name in ("lat.reset", "lat.refilled"):
        if m[name]["comparison"] != "none" or "stats" in m[name]:
            print(f"{name}: {m[name]}")
            ok = False
    if "generation" not in m["lat.refilled"].get("note", ""):
        print(f"lat.refilled: the note does not say the generation changed: {m['lat.refilled']}")
        ok = False
    text = open(text_path, encoding="utf-8").read()
    row = re.search(r"^p50 .* ([+-][0-9]+)\.\.([+-][0-9]+)%$", text, re.M)
    if not row or not int(row.group(1)) <= 60 <= int(row.group(2)):
        print(f"text p50 row: {row and row.group(0)}")
        ok = False
    if "note: no interval: reset between A and B" not in text:
        print("text: no note for lat.reset")
        ok = False
    return ok


def check_text(files):
    ok = True
    for f in files:
        try:
            text = open(f, "rb").read().decode("utf-8")
        except UnicodeDecodeError as e:
            print(f"{f}: not UTF-8: {e}")
            ok = False
            continue
        bad = [c for c in text if c not in "\t\n" and
               (ord(c) < 0x20 or 0x7f <= ord(c) <= 0x9f)]
        if bad:
            print(f"{f}: control characters {sorted(set(bad))!r}")
            ok = False
    return ok


def snapfile(path):
    """A snapshot file's byte order, version, header strings and owners,
    read as kstatsctl(8) describes the format."""
    import struct
    d = open(path, "rb").read()
    e = "<" if d[8:10] == b"\xff\xfe" else ">"
    u16 = lambda o: struct.unpack_from(e + "H", d, o)[0]
    u32 = lambda o: struct.unpack_from(e + "I", d, o)[0]
    strings, off = [], 48
    for _ in range(u32(36)):
        n = u16(off)
        strings.append(d[off + 2:off + 2 + n])
        off += 2 + n
    owners, off = [], u32(16)
    for _ in range(u32(20)):
        owners.append(d[off + 144:off + 208].split(b"\0")[0])
        off += u32(off)
    return d, e, u16(10), strings, owners


def per_byte(err):
    """Decoding: one U+FFFD for each byte that is not UTF-8."""
    return "\ufffd" * (err.end - err.start), err.end


def check_strings(ksnap, json_path):
    import codecs
    codecs.register_error("per_byte", per_byte)
    _, _, _, strings, owners = snapfile(ksnap)
    show = documents(json_path)[0]
    keys = ["host", "kernel", "kernel_version", "machine", "module_version",
            "kstatsctl_version", "boot_id"]
    want = {k: s.decode("utf-8", "per_byte") for k, s in zip(keys, strings)}
    got = {k: show["source"][k] for k in keys}
    want["owners"] = [o.decode("utf-8", "per_byte") for o in owners]
    got["owners"] = [m["owner"] for m in show["metrics"]]
    for k in want:
        if want[k] != got[k]:
            print(f"{k}: JSON says {got[k]!r}, the file {want[k]!r}")
    return want == got


def crc32c(data):
    table = []
    for i in range(256):
        c = i
        for _ in range(8):
            c = (c >> 1) ^ 0x82F63B78 if c & 1 else c >> 1
        table.append(c)
    c = 0xFFFFFFFF
    for b in data:
        c = table[(c ^ b) & 0xFF] ^ (c >> 8)
    return c ^ 0xFFFFFFFF


def check_crc(files):
    import struct
    ok = True
    for f in files:
        d, e, version, _, _ = snapfile(f)
        crc, length = struct.unpack_from(e + "II", d, 40)
        want = crc32c(d[:40] + bytes(4) + d[44:])
        if version not in (2, 3, 4) or length != len(d) or crc != want:
            print(f"{f}: version {version}, length {length} of {len(d)}, "
                  f"CRC-32C {crc:#010x}, computed {want:#010x}")
            ok = False
    return ok


def file_outliers(path, name):
    """Trace NAME's outliers in a format-4 file, as a dict in the JSON
    document's terms, read from the layout kstatsctl(8) gives."""
    d, e, version, _, _ = snapfile(path)
    u = lambda f, o: struct.unpack_from(e + f, d, o)[0]
    assert version == 4, version
    off = u("I", 16)
    for _ in range(u("I", 20)):
        if d[off + 80:off + 144].split(b"\0")[0].decode() == name:
            break
        off += u("I", off)
    else:
        raise KeyError(name)
    flags, ppm = u("I", off + 208), u("I", off + 212)
    captured, overwritten, ratelimited, thr = struct.unpack_from(e + "4Q", d, off + 216)
    capacity, elen = u("I", off + 248), u("I", off + 252)
    assert flags & 3 == 3, flags
    b = off + 256 + 16 * u("I", off + 16) + 24 * u("I", off + 20)
    assert u("I", off) == b + elen - off
    nr, note = u("I", b), u("H", b + 4)
    doc = {"name": name, "unit": "ns", "threshold": thr, "captured": captured,
           "overwritten": overwritten, "ratelimited": ratelimited,
           "capacity": capacity, "addresses": not flags & 4, "outliers": []}
    if ppm:
        doc["threshold_percentile"] = ppm / 1e4
    if note:
        doc["note"] = d[b + 8:b + 8 + note].decode("utf-8", "replace")
    at = b + 8 + (note + 7) // 8 * 8
    for _ in range(nr):
        n, fl, seq, mono, real, dur, pid, tgid, c0, c1 = \
            struct.unpack_from(e + "IIQQqQiiII", d, at)
        comm = d[at + 56:at + 72].split(b"\0")[0].decode("utf-8", "replace")
        nr_frames, nr_stack = struct.unpack_from(e + "II", d, at + 72)
        stack, f = [], at + 80
        for _ in range(nr_stack):
            k = u("H", f)
            stack.append(d[f + 2:f + 2 + k].decode("utf-8", "replace"))
            f += 2 + k
        assert (f - at + 7) // 8 * 8 == n, (f - at, n)
        doc["outliers"].append({
            "seq": seq, "time_ns": mono, "realtime_ns": real, "duration": dur,
            "pid": pid, "tgid": tgid, "comm": comm, "cpu_start": c0, "cpu_end": c1,
            "truncated": bool(fl & 1), "task": not fl & 4, "nr_frames": nr_frames,
            "stack": stack})
        at += n
    assert at == b + elen, (at, b + elen)
    return doc


def check_outliers(ksnap, name, json_path):
    want = file_outliers(ksnap, name)
    got = documents(json_path)[0]
    del got["schema"], got["command"]
    if got.pop("source", {}).get("path") != ksnap:
        print(f"outliers -i -j: no source naming {ksnap}")
        return False
    if want != got:
        print(f"the file says {want}\noutliers -i -j says {got}")
    return want == got


def check_percpu(json_path):
    ok = True
    for d in documents(json_path):
        for m in d["metrics"]:
            for c in m.get("cpus", []):
                where = f"{m['name']} CPU {c['cpu']}"
                # Sums are doubles: exact below 2^53, else to 2^-52 of it.
                for b in c["buckets"]:
                    if not b["count"] or b["sum"] is None:
                        continue
                    mean, tol = b["sum"] / b["count"], b["high"] * 2**-50
                    if not b["low"] - tol <= mean <= b["high"] - 1 + tol:
                        print(f"{where}: mean {mean} outside [{b['low']}, {b['high']})")
                        ok = False
                if c["count"]:
                    lo, hi = c["min"]["low"], c["max"]["high"]
                    if not lo - hi * 2**-50 <= c["mean"] <= hi - 1 + hi * 2**-50:
                        print(f"{where}: mean {c['mean']} outside [{lo}, {hi})")
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


def hlog_lines(path):
    """The log's lines, each compressed V2 histogram (cookie, length, zlib
    stream) replaced by its cookie and inflated payload."""
    out = []
    for line in open(path).read().splitlines():
        fields = line.split(",")
        if fields[-1].startswith("HIST"):
            raw = base64.b64decode(fields[-1])
            cookie, length = struct.unpack(">II", raw[:8])
            payload = zlib.decompress(raw[8:8 + length])
            fields[-1] = f"{cookie:#x}:{payload.hex()}"
        out.append(",".join(fields))
    return out


def check_hlog_same(a, b):
    la, lb = hlog_lines(a), hlog_lines(b)
    for i, (x, y) in enumerate(zip(la, lb)):
        if x != y:
            print(f"{a} and {b} differ at line {i + 1}:\n  {x[:120]}\n  {y[:120]}")
            return False
    if len(la) != len(lb):
        print(f"{a} has {len(la)} lines, {b} {len(lb)}")
        return False
    return True


# Outputs for programs, not people: their lines are as long as they are.
MACHINE_FORMATS = ("raw", "csv", "json", "prometheus", "openmetrics", "hdr")
COMMANDS = ("list", "create", "delete", "record", "reset", "start", "stop", "show",
            "snapshot", "diff", "info", "trace", "untrace", "export", "summary", "plot",
            "outliers", "help")
ANSI = re.compile(r"\x1b\[[0-9;]*m")


def user_token(row, args):
    """Does @row hold a word of 30 or more characters that the user gave
    (a metric name, a pattern or a path among the case's arguments)? Such
    a word is never broken, so it may push its line past the width."""
    for word in row.split():
        word = word.strip("'\"():,;")
        if len(word) >= 30 and any(word in a or a in word for a in args if len(a) >= 30):
            return True
    return False


def run_on(binary, data, args, path):
    """kstatsctl ARGS on snapshot bytes @data written to @path: (exit
    status, stdout, stderr)."""
    with open(path, "wb") as f:
        f.write(data)
    p = subprocess.run([binary, *args], capture_output=True, timeout=20)
    return p.returncode, p.stdout, p.stderr


def check_truncations(binary, ksnap, stride, tmp):
    """Every @stride-th cut of @ksnap, through kstatsctl: exit 1, and show
    names the cut ("truncated at N bytes (")."""
    data = open(ksnap, "rb").read()
    path = os.path.join(tmp, "trunc")
    for n in range(1, len(data), stride):
        rc, _, err = run_on(binary, data[:n], ["show", "-i", path, "-f", "raw"], path)
        if rc != 1 or not err.startswith(b"kstatsctl: error: "):
            print(f"cut at {n}: show -f raw: exit {rc}: {err.decode(errors='replace')}")
            return False
        rc, out, err = run_on(binary, data[:n], ["show", "-i", path], path)
        if f": truncated at {n} bytes (".encode() not in out + err:
            print(f"cut at {n}: {(out + err).decode(errors='replace')}")
            return False
    print(f"# {len(range(1, len(data), stride))} cuts")
    return True


def check_flips(binary, ksnap, stride, tmp):
    """One byte of @ksnap changed every @stride bytes (to 0xa5, or 0x5a
    where it is 0xa5): kstatsctl refuses the file (exit 1) or shows it as
    before (show -f json --per-cpu), never anything else."""
    data = open(ksnap, "rb").read()
    path = os.path.join(tmp, "flip")
    args = ["show", "-i", path, "-f", "json", "--per-cpu"]
    rc, want, err = run_on(binary, data, args, path)
    if rc != 0:
        print(f"the file itself: exit {rc}: {err.decode(errors='replace')}")
        return False
    for n in range(0, len(data), stride):
        b = bytearray(data)
        b[n] = 0x5A if b[n] == 0xA5 else 0xA5
        rc, out, err = run_on(binary, bytes(b), args, path)
        if rc not in (0, 1):
            print(f"offset {n}: exit {rc}")
            return False
        if rc == 0 and (out != want or err):
            print(f"offset {n}: read, and shown otherwise")
            return False
    print(f"# {len(range(0, len(data), stride))} changes")
    return True


def check_width(cases_path, golden_dir, width=80):
    """Every line of every golden output for people, stdout and stderr,
    fits @width columns (characters, not bytes: "±" is one; colour codes
    are none). Not checked: stdout for programs (-j, -p, -f raw, csv, json,
    prometheus, hdr; export's Prometheus and HdrHistogram text; plot's
    SVG), a line whose width comes from a word of 30 characters or more
    that the user gave (a name or a path: never broken), and the
    documented cases below."""
    exempt = {
        # A file's own strings (host, kernel) are quoted whole.
        "diff-hostile": "the hostile file's 200-character host name",
    }
    ok, n = True, 0
    for line in open(cases_path, encoding="utf-8"):
        if not line.strip() or line.startswith("#"):
            continue
        name, rest = line.split(None, 1) if len(line.split()) > 1 else (line.strip(), "")
        try:
            args = shlex.split(rest)
        except ValueError:
            args = rest.split()
        if name in exempt:
            continue
        cmd = next((a for a in args if a in COMMANDS), "")
        fmt = [args[i + 1] for i, a in enumerate(args[:-1]) if a in ("-f", "--format")]
        # -j, alone or in a cluster of short options (-jp); --pretty is long only
        machine = (any(a in ("--json", "--pretty") or
                       (a[:1] == "-" and a[1:2] != "-" and "j" in a) for a in args) or
                   (fmt and fmt[0] in MACHINE_FORMATS) or cmd in ("export", "plot") or
                   "--folded" in args)  # lines for flamegraph.pl, not for people
        text = open(f"{golden_dir}/{name}.out", encoding="utf-8").read()
        out, err = text.split("== stdout\n", 1)[1].split("== stderr\n", 1)
        err = err.rsplit("== exit", 1)[0]
        n += 1
        for stream, body in (("stdout", out), ("stderr", err)):
            if stream == "stdout" and machine:
                continue
            for row in body.splitlines():
                row = ANSI.sub("", row)
                if len(row) > width and not user_token(row, args):
                    print(f"{name} ({stream}): {len(row)} columns: {row}")
                    ok = False
    if not n:
        print("no text output found")
        ok = False
    print(f"# {n} outputs checked")
    return ok


def main(argv):
    cmd = argv[1] if len(argv) > 1 else ""
    if cmd == "schema" and len(argv) >= 4:
        return check_schema(argv[2], argv[3:])
    if cmd in ("truncations", "flips") and len(argv) == 6:
        f = check_truncations if cmd == "truncations" else check_flips
        return f(argv[2], argv[3], int(argv[4]), argv[5])
    if cmd == "golden-schema" and len(argv) >= 4:
        return check_schema(argv[2], argv[3:], golden=True)
    if cmd == "prom" and len(argv) == 4:
        return check_prom(argv[2], argv[3])
    if cmd == "truth" and len(argv) == 4:
        return check_truth(argv[2], argv[3])
    if cmd == "same" and len(argv) == 4:
        return check_same(argv[2], argv[3])
    if cmd == "export-keys" and len(argv) == 4:
        return check_export_keys(argv[2], argv[3])
    if cmd == "hlog-same" and len(argv) == 4:
        return check_hlog_same(argv[2], argv[3])
    if cmd == "footer" and len(argv) == 4:
        return check_footer(argv[2], argv[3])
    if cmd == "counts" and len(argv) == 5:
        return check_counts(argv[2], argv[3], argv[4])
    if cmd == "shift" and len(argv) == 4:
        return check_shift(argv[2], argv[3])
    if cmd == "text" and len(argv) >= 3:
        return check_text(argv[2:])
    if cmd == "strings" and len(argv) == 4:
        return check_strings(argv[2], argv[3])
    if cmd == "percpu" and len(argv) == 3:
        return check_percpu(argv[2])
    if cmd == "width" and len(argv) == 4:
        return check_width(argv[2], argv[3])
    if cmd == "crc" and len(argv) >= 3:
        return check_crc(argv[2:])
    if cmd == "outliers" and len(argv) == 5:
        return check_outliers(argv[2], argv[3], argv[4])
    print(__doc__)
    return False


if __name__ == "__main__":
    sys.exit(0 if main(sys.argv) else 1)

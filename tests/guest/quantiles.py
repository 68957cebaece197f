#!/usr/bin/env python3
"""Exact quantiles as the oracle of kstatsctl's percentiles.

  quantiles.py gen DIR            write the sample sets (1e6 values each) and
                                  their exact quantiles into DIR (on the host)
  quantiles.py bits DIR SET        print the frac_bits SET is recorded with
  quantiles.py check DIR SET JSON check `kstatsctl show -j` of SET, recorded
                                  from DIR/SET.txt, against the exact quantiles

A percentile p is read with the nearest-rank definition: the sample of rank
max(1, ceil(p/100 * n)) in sorted order. For every percentile kstatsctl
prints, the exact sample must lie in the slot it names ([low, high)), the
slot must be one slot of the layout (width 1 below 2^b, else 2^(e-b) for a
value of exponent e, aligned), and the printed +- must be that slot's
half-width (of the integers lo .. hi - 1) relative to the printed value:
the tightest the data allows.
"""
import json
import math
import os
import random
import sys

N = 1_000_000
# name: (frac_bits, generator). Seeds fixed: the same sets on every run.
SETS = {
    "uniform": (3, lambda r: r.randrange(1000, 1_000_000)),
    "lognormal": (3, lambda r: int(r.lognormvariate(math.log(50_000), 1.0))),
    "bimodal": (4, lambda r: int(r.gauss(2_000, 200)) if r.random() < 0.5
                else int(r.gauss(200_000, 20_000))),
    "heavytail": (5, lambda r: min(int(1_000 * r.paretovariate(1.2)), 1 << 40)),
    "constant": (0, lambda r: 12_345),
    "small": (2, lambda r: r.randrange(0, 40)),
}


# Every percentile kstatsctl may print (the check fails on any other).
PERCENTILES = (0, 1, 5, 10, 25, 50, 75, 90, 95, 99, 99.5, 99.9, 99.99, 99.999, 100)


def rank(p, n):
    return max(1, math.ceil(p / 100.0 * n))


def slot_bounds(v, b):
    if v < (1 << b):
        return v, v + 1
    e = v.bit_length() - 1
    w = 1 << (e - b)
    return v - v % w, v - v % w + w


def gen(d):
    os.makedirs(d, exist_ok=True)
    for i, (name, (bits, f)) in enumerate(sorted(SETS.items())):
        r = random.Random(1000 + i)
        vals = [max(0, f(r)) for _ in range(N)]
        with open(os.path.join(d, name + ".txt"), "w") as out:
            out.write("\n".join(map(str, vals)) + "\n")
        vals.sort()
        with open(os.path.join(d, name + ".json"), "w") as out:
            json.dump({"bits": bits, "n": N,
                       "exact": {repr(float(p)): vals[rank(p, N) - 1] for p in PERCENTILES},
                       "min": vals[0], "max": vals[-1]}, out)


def check(d, name, show):
    truth = json.load(open(os.path.join(d, name + ".json")))
    m = json.load(open(show))["metrics"][0]
    bits, problems = truth["bits"], []
    if not m["percentiles"]:
        problems.append("no percentiles printed")
    if m["count"] != truth["n"] or m["frac_bits"] != bits:
        problems.append("count %s frac_bits %s, want %d and %d"
                        % (m["count"], m["frac_bits"], truth["n"], bits))
    for q in m["percentiles"]:
        exact = truth["exact"].get(repr(float(q["p"])))
        if exact is None:
            problems.append("p%s: no exact value computed for it" % q["p"])
            continue
        lo, hi = slot_bounds(exact, bits)
        # Samples are integers: the slot holds lo .. hi - 1, whose middle
        # is within (hi - 1 - lo) / 2 of every one of them.
        half = (hi - 1 - lo) / 2.0
        if (q["low"], q["high"]) != (lo, hi):
            problems.append("p%s: slot [%s, %s), exact %d is in [%d, %d)"
                            % (q["p"], q["low"], q["high"], exact, lo, hi))
        elif abs(q["value"] - exact) > half:
            problems.append("p%s: %s is %s from exact %d, over its slot's +-%s"
                            % (q["p"], q["value"], abs(q["value"] - exact), exact, half))
        elif not math.isclose(q["error"] * q["value"], half, rel_tol=1e-9, abs_tol=1e-9):
            problems.append("p%s: +- %s of %s is not the slot's half-width %s"
                            % (q["p"], q["error"], q["value"], half))
    for key, v in (("min", truth["min"]), ("max", truth["max"])):
        lo, hi = slot_bounds(v, bits)
        if (m[key]["low"], m[key]["high"]) != (lo, hi):
            problems.append("%s: slot [%s, %s), exact %d is in [%d, %d)"
                            % (key, m[key]["low"], m[key]["high"], v, lo, hi))
    for p in problems:
        print("#   %s: %s" % (name, p))
    print("%s: %d percentiles, min and max against exact values: %s"
          % (name, len(m["percentiles"]), "ok" if not problems else "WRONG"))
    return 1 if problems else 0


if __name__ == "__main__":
    if sys.argv[1] == "gen":
        gen(sys.argv[2])
        sys.exit(0)
    if sys.argv[1] == "bits":
        print(json.load(open(os.path.join(sys.argv[2], sys.argv[3] + ".json")))["bits"])
        sys.exit(0)
    sys.exit(check(*sys.argv[2:5]))

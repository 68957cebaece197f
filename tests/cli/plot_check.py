#!/usr/bin/env python3
"""What a person sees in a plot, read from its rendering (a PNG made by
headless Chromium from kstatsctl's SVG), not from the numbers that made it.

The axes are read as a person reads them: each tick's label (its text:
"100µs", "20%", "10s") beside its position; a position in the picture maps
back to a value through the two farthest ticks (log10 for latency). The
slot math below is written here again from the layout kstats documents
(kstats_hist.h's comment), not taken from our code.

  plot_check.py hist SVG PNG MODE_NS FRAC_BITS
      the tallest bar lies over the slot holding MODE_NS
  plot_check.py cdf SVG PNG CROSS_NS FRAC_BITS
      two curves, each reaching 100%, crossing once, at CROSS_NS (within
      its slot, and 2 pixels)
  plot_check.py heatmap SVG PNG
      modes at 2 us and 500 us; both in [0, 20) s, the fast one alone in
      [20, 40) s, nothing in [45, 50) s, and nothing anywhere else

  plot_check.py flat SVG PNG LO_NS HI_NS
      the bars of a load flat in log latency over [LO_NS, HI_NS), read from
      the picture, are flat: the first and last quarters of the octaves
      agree, and every octave agrees with the whole, within 4 standard
      deviations of the Poisson noise of the counts the bars stand for
  plot_check.py stripes SVG PNG LO_NS HI_NS
      a heatmap of such a load (rows of frac_bits 1): the colours of the
      lower and upper half-octave rows, read back through the colour
      scale's ticks, agree within 4 standard deviations (no stripes)
  plot_check.py bins SVG TOTAL SPAN_S
      a heatmap's cells sum to TOTAL samples (their tooltips), in at most
      one column per pixel, of the width the subtitle gives; the time axis
      ends at SPAN_S
  plot_check.py gaps SVG PNG T0 T1 E0 E1
      a heatmap's time [T0, T1) s without intervals is grey, and [E0, E1) s,
      intervals without samples, white
  plot_check.py sawtooth SVG PNG LO_NS HI_NS
      flat fails (counts per slot): the check can see the sawtooth
  plot_check.py titles SVG...
      every heatmap cell and hist bar has a <title> tooltip
  plot_check.py pct SVG PNG LO_US HI_US
      a percentile spectrum of samples evenly spread over [LO_US, HI_US):
      the x labels 0%, 90%, 99%, 99.9% equally spaced, and the curve at
      each of them at LO + p (HI - LO), within its slot and 2 pixels

  plot_check.py flame SVG PNG LEAF PCT,PCT,...
      a flame graph: the frames labelled LEAF, left to right, are as wide
      in the picture as PCT % of the frames' full width (the bottom frame,
      all), within 2 pixels (1 of them the white between neighbours)

Prints the positions it found against those expected; exits 1 on a miss.
"""
import math
import re
import sys
import xml.etree.ElementTree as ET

from PIL import Image

NS = {"s": "http://www.w3.org/2000/svg"}
UNITS = {"ns": 1, "µs": 1e3, "us": 1e3, "ms": 1e6, "s": 1e9}


def slot_bounds(v, b):
    """[low, high) of the slot holding v at frac_bits b."""
    if v < (1 << b):
        return v, v + 1
    e = v.bit_length() - 1
    w = 1 << (e - b)
    low = v - v % w
    return low, low + w


def parse_label(text, kind):
    if kind == "latency":
        m = re.fullmatch(r"([0-9.]+)(ns|µs|us|ms|s)", text)
        return float(m.group(1)) * UNITS[m.group(2)]
    if kind == "share":
        return float(text.rstrip("%")) / 100
    if kind == "tail":	# a percentile p on an axis of 1/(1 - p)
        return 1 / (1 - float(text.rstrip("%")) / 100)
    if kind == "seconds":
        return float(text.rstrip("s"))
    m = re.fullmatch(r"([0-9.]+)([kMG]?)", text)
    return float(m.group(1)) * {"": 1, "k": 1e3, "M": 1e6, "G": 1e9}[m.group(2)]


class Axis:
    """Pixel <-> value, from the ticks (class xtick or ytick) of the SVG."""

    def __init__(self, root, cls, kind, log):
        self.log = log
        pts = []
        for g in root.iter("{%s}g" % NS["s"]):
            if g.get("class") != cls:
                continue
            line = g.find("s:line", NS)
            text = g.find("s:text", NS).text
            pos = float(line.get("x1" if cls == "xtick" else "y1"))
            v = parse_label(text, kind)
            pts.append((pos, math.log10(v) if log else v))
        pts.sort()
        (p0, v0), (p1, v1) = pts[0], pts[-1]
        self.p0, self.v0, self.k = p0, v0, (v1 - v0) / (p1 - p0)

    def value(self, px):
        v = self.v0 + (px - self.p0) * self.k
        return 10 ** v if self.log else v

    def px(self, value):
        v = math.log10(value) if self.log else value
        return self.p0 + (v - self.v0) / self.k


def load(svg, png):
    root = ET.parse(svg).getroot()
    area = next(r for r in root.iter("{%s}rect" % NS["s"]) if r.get("class") == "plot-area")
    box = [float(area.get(k)) for k in ("x", "y", "width", "height")]
    im = Image.open(png).convert("RGB")
    w, h = int(root.get("width")), int(root.get("height"))
    assert im.size[0] >= w and im.size[1] >= h, (im.size, w, h)
    # The document's last pixel shows: the picture was rendered whole.
    assert im.getpixel((w - 1, h - 1)) == (255, 255, 255)
    return root, box, im


def inner(box):
    """The pixels strictly inside the plot area's border."""
    x, y, w, h = box
    return range(int(x) + 2, int(x + w) - 1), range(int(y) + 2, int(y + h) - 1)


def colored(p, tol=60):
    return max(p) - min(p) > tol


def hist(svg, png, mode, b):
    root, box, im = load(svg, png)
    x = Axis(root, "xtick", "latency", True)
    xs, ys = inner(box)
    bar = (0x3A, 0x6F, 0xB0)
    top = {}
    for c in xs:
        for r in ys:
            if sum(abs(a - b_) for a, b_ in zip(im.getpixel((c, r)), bar)) < 30:
                top[c] = r
                break
    best = min(top.values())
    cols = [c for c, r in top.items() if r == best]
    mid = (cols[0] + cols[-1]) / 2
    lo, hi = slot_bounds(mode, b)
    want = (x.px(lo), x.px(hi))
    print(f"hist: tallest bar at columns {cols[0]}..{cols[-1]} (top row {best}), "
          f"{x.value(mid):.0f} ns; the mode {mode} ns: slot [{lo}, {hi}) at columns "
          f"{want[0]:.1f}..{want[1]:.1f}")
    return want[0] - 1 <= mid <= want[1] + 1


def cdf(svg, png, cross, b):
    root, box, im = load(svg, png)
    x = Axis(root, "xtick", "latency", True)
    y = Axis(root, "ytick", "share", False)
    colors = [tuple(int(line.get("stroke")[i:i + 2], 16) for i in (1, 3, 5))
              for line in root.iter("{%s}polyline" % NS["s"]) if line.get("class") == "cdf"]
    assert len(colors) == 2, colors
    xs, ys = inner(box)

    def near(p, c):
        return sum(abs(a - b_) for a, b_ in zip(p, c)) < 40

    rows = [{}, {}]	# column -> mean row of each curve's pixels
    for c in xs:
        for k, col in enumerate(colors):
            hits = [r for r in ys if near(im.getpixel((c, r)), col)]
            if hits:
                rows[k][c] = sum(hits) / len(hits)
    ok = True
    for k in range(2):
        top = min(rows[k].values())
        share = y.value(top)
        print(f"cdf: curve {k + 1} ({'#%02x%02x%02x' % colors[k]}) reaches row {top:.1f}, "
              f"{share:.1%} (100% is row {y.px(1):.1f})")
        ok &= top <= y.px(1) + 3	# a curve ending at 99% stops 3.6 px lower
    both = sorted(set(rows[0]) & set(rows[1]))
    # Where the curves swap sides (rows grow downwards), away from where they
    # both start flat at 0% or end flat at 100%.
    flips = []
    prev = None
    for c in both:
        d = rows[0][c] - rows[1][c]
        if abs(d) < 1 or not (0.02 < y.value(rows[0][c]) < 0.98):
            continue
        s = d > 0
        if prev is not None and s != prev[1]:
            flips.append((prev[0] + c) / 2)
        prev = (c, s)
    lo, hi = slot_bounds(cross, b)
    want = x.px(cross)
    print(f"cdf: crossings at columns {flips}; expected one at {want:.1f} "
          f"({cross} ns; its slot [{lo}, {hi}) spans {x.px(lo):.1f}..{x.px(hi):.1f})")
    if len(flips) != 1:
        return False
    got = flips[0]
    c = min(rows[0], key=lambda c: abs(c - got))
    print(f"cdf: crossing at {x.value(got):.0f} ns, {y.value(rows[0][c]):.1%}")
    return ok and x.px(lo) - 2 <= got <= x.px(hi) + 2


def heatmap(svg, png):
    root, box, im = load(svg, png)
    x = Axis(root, "xtick", "seconds", False)
    y = Axis(root, "ytick", "latency", True)
    xs, ys = inner(box)

    def bands(t0, t1):
        """Runs of rows with colour in every column of [t0, t1) seconds."""
        cols = [c for c in xs if t0 <= x.value(c) and x.value(c + 1) <= t1]
        hot = [r for r in ys if all(colored(im.getpixel((c, r))) for c in cols)]
        any_ = [r for r in ys if any(colored(im.getpixel((c, r))) for c in cols)]
        runs = []
        for r in hot:
            if runs and r == runs[-1][1] + 1:
                runs[-1][1] = r
            else:
                runs.append([r, r])
        return cols, runs, set(any_) - set(hot)

    ok = True
    for t0, t1, modes in ((0, 20, (2000, 500000)), (20, 40, (2000,)), (45, 50, ()),
                          (50, 60, (2000, 500000))):
        cols, runs, ragged = bands(t0, t1)
        found = [(y.value(r1 + 1), y.value(r0)) for r0, r1 in runs]
        print(f"heatmap: [{t0}, {t1}) s, columns {cols[0]}..{cols[-1]}: bands at rows "
              f"{[tuple(r) for r in runs]} = " +
              ", ".join(f"[{lo:.0f}, {hi:.0f}) ns" for lo, hi in found) +
              f"; expected {len(modes)}: " + ", ".join(f"{m} ns (row {y.px(m):.1f})"
                                                         for m in modes))
        # Each mode inside one band, every band holds a mode, nothing elsewhere.
        ok &= len(runs) == len(modes) and not ragged
        for m in modes:
            ok &= any(r0 - 1 <= y.px(m) <= r1 + 2 for r0, r1 in runs)
    return ok


def bar_tops(im, box, color=(0x3A, 0x6F, 0xB0)):
    """Column -> the top row of the bar drawn in it."""
    xs, ys = inner(box)
    top = {}
    for c in xs:
        for r in ys:
            if sum(abs(a - b_) for a, b_ in zip(im.getpixel((c, r)), color)) < 30:
                top[c] = r
                break
    return top


def subtitle(root):
    return next(t.text for t in root.iter("{%s}text" % NS["s"]) if t.get("class") == "subtitle")


def flat(svg, png, lo, hi):
    """A log-uniform load's density: no sawtooth, no slope, within the noise.

    A bar's height d is samples per 1/2^b octave, so the samples it stands
    for over a stretch of w octaves are d * 2^b * w: a Poisson count n whose
    relative standard deviation is 1/sqrt(n). Two stretches of n1 and n2
    samples with the same true density have a log ratio of standard
    deviation sqrt(1/n1 + 1/n2); 4 of those is the tolerance (the data is
    seeded: a flat load fails it with odds of about 1 in 16,000).
    """
    root, box, im = load(svg, png)
    x = Axis(root, "xtick", "latency", True)
    y = Axis(root, "ytick", "count", False)
    b = int(re.search(r"frac_bits (\d+)", subtitle(root)).group(1))
    base = y.px(0)
    quarter = [[], [], [], []]
    octave = {}
    for c, r in bar_tops(im, box).items():
        v0, v1 = x.value(c), x.value(c + 1)
        if v0 < lo or v1 > hi:
            continue
        d = y.value(r)
        ph = math.log2((v0 * v1) ** 0.5)
        quarter[int((ph % 1) * 4)].append(d)
        octave.setdefault(int(ph), []).append(d)
    whole = [d for q in quarter for d in q]
    mean = sum(whole) / len(whole)
    octs = math.log2(hi / lo)
    n_q = [sum(q) / len(q) * 2 ** b * octs / 4 for q in quarter]
    ratio = (sum(quarter[0]) / len(quarter[0])) / (sum(quarter[3]) / len(quarter[3]))
    tol = 4 * math.sqrt(1 / n_q[0] + 1 / n_q[3])
    print(f"flat: {len(whole)} columns over [{lo}, {hi}) ns, mean {mean:.2f} samples per "
          f"1/{2 ** b} octave (row {y.px(mean):.0f}, base {base:.0f}); first/last quarter "
          f"of the octaves {ratio:.3f}, log {math.log(ratio):+.3f} (tolerance +-{tol:.3f}, "
          f"from {n_q[0]:.0f} and {n_q[3]:.0f} samples)")
    ok = abs(math.log(ratio)) <= tol
    for k in sorted(octave):
        if len(octave[k]) < 10 or not (lo <= 2 ** k and 2 ** (k + 1) <= hi):
            continue
        m = sum(octave[k]) / len(octave[k])
        n = m * 2 ** b
        t = 4 * math.sqrt(1 / n + 1 / (mean * 2 ** b * octs))
        good = abs(math.log(m / mean)) <= t
        print(f"flat: octave 2^{k}: {m:.2f}, log {math.log(m / mean):+.3f} (tolerance "
              f"+-{t:.3f}){'' if good else ' OUT'}")
        ok &= good
    return ok


class ColorScale:
    """Colour -> value, from the legend's rects (class colorscale) as
    rendered and its tick labels (class ctick), on a log scale."""

    def __init__(self, root, im):
        rects = [r for g in root.iter("{%s}g" % NS["s"]) if g.get("class") == "colorscale"
                 for r in g.iter("{%s}rect" % NS["s"])]
        cx = int(float(rects[0].get("x")) + float(rects[0].get("width")) / 2)
        y0 = min(float(r.get("y")) for r in rects)
        y1 = max(float(r.get("y")) + float(r.get("height")) for r in rects)
        self.rows = [(r, im.getpixel((cx, r))) for r in range(int(y0) + 1, int(y1) - 1)]
        pts = []
        for g in root.iter("{%s}g" % NS["s"]):
            if g.get("class") == "ctick" and g.find("s:line", NS) is not None:
                pts.append((float(g.find("s:line", NS).get("y1")),
                            math.log10(parse_label(g.find("s:text", NS).text, "count"))))
        pts.sort()
        (p0, v0), (p1, v1) = pts[0], pts[-1]
        self.p0, self.v0, self.k = p0, v0, (v1 - v0) / (p1 - p0)

    def value(self, rgb):
        r = min(self.rows, key=lambda t: sum((a - b_) ** 2 for a, b_ in zip(t[1], rgb)))[0]
        return 10 ** (self.v0 + (r - self.p0) * self.k)


def cells(root):
    """Each heatmap cell: x, y, width, height, its tooltip."""
    g = next(g for g in root.iter("{%s}g" % NS["s"]) if g.get("class") == "cells")
    return [tuple(float(r.get(k)) for k in ("x", "y", "width", "height")) +
            (r.find("s:title", NS).text,) for r in g.iter("{%s}rect" % NS["s"])]


def stripes(svg, png, lo, hi):
    """Rows of frac_bits 1: [2^k, 1.5 2^k) and [1.5 2^k, 2^(k+1)) are 0.585
    and 0.415 octaves high. Coloured by count, a log-uniform load would make
    the lower one 1.41 times the upper in every octave: stripes. Coloured
    by density they agree; a cell's density read back from its colour, the
    log ratio of each pair averaged over columns and octaves, within 4
    standard deviations of the Poisson noise of the pairs' counts plus half
    a step of the 64-step colour scale."""
    root, box, im = load(svg, png)
    scale = ColorScale(root, im)
    assert "rows of frac_bits 1" in subtitle(root), subtitle(root)
    pair = {}
    for x0, y0, w, h, title in cells(root):
        m = re.fullmatch(r"([0-9.]+)s to ([0-9.]+)s: ([0-9]+) samples? in \[(.*), (.*)\)", title)
        a, z = parse_label(m.group(4), "latency"), parse_label(m.group(5), "latency")
        if a < lo or z > hi:
            continue
        # Labels have 4 significant digits ("16.38us"): the row's power of two
        # is the nearest one below its middle.
        k = math.floor(math.log2((a * z) ** 0.5))
        d = scale.value(im.getpixel((int(x0 + w / 2), int(y0 + h / 2))))
        pair.setdefault((x0, k), {})[abs(math.log2(a) - k) < 0.01] = (d, int(m.group(3)))
    logs, var = [], 0
    for v in pair.values():
        if len(v) == 2:
            (dl, nl), (du, nu) = v[True], v[False]
            logs.append(math.log(dl / du))
            var += 1 / nl + 1 / nu
    mean = sum(logs) / len(logs)
    step = math.log(scale.value(scale.rows[0][1]) / scale.value(scale.rows[-1][1])) / 64
    tol = 4 * math.sqrt(var) / len(logs) + abs(step) / 2
    print(f"stripes: {len(logs)} pairs of half-octave rows; lower/upper density "
          f"{math.exp(mean):.3f}, log {mean:+.3f} (tolerance +-{tol:.3f}; by count it "
          f"would be {math.log(0.585 / 0.415):+.3f})")
    return abs(mean) <= tol


def bins(svg, total, span):
    root = ET.parse(svg).getroot()
    area = next(r for r in root.iter("{%s}rect" % NS["s"]) if r.get("class") == "plot-area")
    ax, aw = float(area.get("x")), float(area.get("width"))
    x = Axis(root, "xtick", "seconds", False)
    width = re.search(r"columns of ([0-9.]+) (s|min|h)", subtitle(root))
    w = float(width.group(1)) * {"s": 1, "min": 60, "h": 3600}[width.group(2)]
    got = 0
    cols = set()
    for x0, y0, cw, h, title in cells(root):
        m = re.fullmatch(r"([0-9.]+)s to ([0-9.]+)s: ([0-9]+) samples? in .*", title)
        if not m:
            continue
        got += int(m.group(3))
        cols.add(x0)
        assert abs(float(m.group(2)) - float(m.group(1)) - w) < 1e-6, title
    end = x.value(ax + aw)
    print(f"bins: {got} samples in the cells (expected {total}), {len(cols)} columns of "
          f"{w:g} s in {aw:.0f} pixels; the axis ends at {end:.2f} s (the data: {span} s)")
    return got == total and len(cols) <= aw and abs(end - span) <= span / aw / 2


def gaps(svg, png, t0, t1, e0, e1):
    root, box, im = load(svg, png)
    x = Axis(root, "xtick", "seconds", False)
    xs, ys = inner(box)

    def columns(a, z):
        return [c for c in xs if a <= x.value(c) and x.value(c + 1) <= z]

    grey = {im.getpixel((c, r)) for c in columns(t0, t1) for r in ys}
    white = {im.getpixel((c, r)) for c in columns(e0, e1) for r in ys}
    print(f"gaps: [{t0}, {t1}) s (no interval): colours {sorted(grey)}; [{e0}, {e1}) s "
          f"(no samples): colours {sorted(white)}")
    return grey == {(0xD0, 0xD0, 0xD0)} and white == {(255, 255, 255)}


def pct(svg, png, lo, hi):
    root, box, im = load(svg, png)
    ticks = {}
    for g in root.iter("{%s}g" % NS["s"]):
        if g.get("class") == "xtick":
            ticks[g.find("s:text", NS).text] = float(g.find("s:line", NS).get("x1"))
    y = Axis(root, "ytick", "latency", True)
    color = next(tuple(int(p.get("stroke")[i:i + 2], 16) for i in (1, 3, 5))
                 for p in root.iter("{%s}polyline" % NS["s"]) if p.get("class") == "pct")
    xs, ys = inner(box)
    b = 4
    ok = True
    gaps_ = [ticks[b_] - ticks[a] for a, b_ in (("0%", "90%"), ("90%", "99%"), ("99%", "99.9%"))]
    print(f"pct: 0%, 90%, 99%, 99.9% at columns {[ticks[k] for k in ('0%', '90%', '99%', '99.9%')]}"
          f", spaced {gaps_}")
    ok &= max(gaps_) - min(gaps_) <= 1
    x = Axis(root, "xtick", "tail", True)
    for label, p in (("50%", 0.5), ("90%", 0.9), ("99%", 0.99), ("99.5%", 0.995)):
        c = round(x.px(1 / (1 - p)))
        p = 1 - 1 / x.value(c)	# the column's own
        rows = [r for r in ys if sum(abs(a - b_) for a, b_ in zip(im.getpixel((c, r)), color)) < 40]
        want = (lo + p * (hi - lo)) * 1000
        sl, sh = slot_bounds(int(want), b)
        got = y.value(sum(rows) / len(rows)) if rows else float("nan")
        good = bool(rows) and y.px(sh) - 2 <= sum(rows) / len(rows) <= y.px(sl) + 2
        print(f"pct: at {label} (column {c}, p {p:.4f}) the curve is at {got:.0f} ns; the true "
              f"{want:.0f} ns lies in [{sl}, {sh})")
        ok &= good
    return ok


def titles(svgs):
    """Every cell of a heatmap and bar of a hist has a tooltip."""
    ok = True
    for svg in svgs:
        root = ET.parse(svg).getroot()
        n = bad = 0
        for g in root.iter("{%s}g" % NS["s"]):
            if g.get("class") in ("cells", "bars"):
                for r in g.iter("{%s}rect" % NS["s"]):
                    n += 1
                    t = r.find("s:title", NS)
                    bad += t is None or not re.search(r"[0-9] samples?|no interval", t.text)
        print(f"titles: {svg}: {n} cells or bars, {bad} without a tooltip")
        ok &= n > 0 and bad == 0
    return ok


def flame(svg, png, leaf, pcts):
    """Frames called LEAF measured in the picture against their share."""
    root = ET.parse(svg).getroot()
    im = Image.open(png).convert("RGB")
    frames = []
    for g in root.iter("{%s}g" % NS["s"]):
        if g.get("class") != "frame":
            continue
        r = g.find("s:rect", NS)
        t = g.find("s:text", NS)
        frames.append((float(r.get("x")), float(r.get("y")), float(r.get("height")),
                       t.text if t is not None else ""))
    # The bottom frame is all of them: the full width, read from the picture.
    bottom = max(frames, key=lambda f: f[1])

    def run(x, y):
        """The frame's pixels (anything but the white between frames) around (x, y)."""
        a = b = int(x) + 2
        while a > 0 and min(im.getpixel((a - 1, y))) < 235:
            a -= 1
        while b + 1 < im.size[0] and min(im.getpixel((b + 1, y))) < 235:
            b += 1
        return a, b + 1

    a, b = run(bottom[0], int(bottom[1] + bottom[2] / 2))
    full = b - a
    leaves = sorted(f for f in frames if f[3] == leaf)
    ok = len(leaves) == len(pcts)
    print(f"flame: full width {full} px; {len(leaves)} frames '{leaf}', want {len(pcts)}")
    for f, pct in zip(leaves, pcts):
        a, b = run(f[0], int(f[1] + f[2] / 2))
        want = full * pct / 100
        good = abs((b - a) - want) <= 2
        ok &= good
        print(f"flame: '{leaf}' at x {a}: {b - a} px, want {want:.1f} ({pct} %)"
              f"{'' if good else '  <- wrong'}")
    return ok


def main():
    what, a = sys.argv[1], sys.argv[2:]
    if what == "hist":
        ok = hist(a[0], a[1], int(a[2]), int(a[3]))
    elif what == "cdf":
        ok = cdf(a[0], a[1], int(a[2]), int(a[3]))
    elif what == "flat":
        ok = flat(a[0], a[1], float(a[2]), float(a[3]))
    elif what == "sawtooth":	# flat must fail: the check can see it
        ok = not flat(a[0], a[1], float(a[2]), float(a[3]))
    elif what == "titles":
        ok = titles(a)
    elif what == "stripes":
        ok = stripes(a[0], a[1], float(a[2]), float(a[3]))
    elif what == "bins":
        ok = bins(a[0], int(a[1]), float(a[2]))
    elif what == "gaps":
        ok = gaps(a[0], a[1], *map(float, a[2:6]))
    elif what == "flame":
        ok = flame(a[0], a[1], a[2], [float(x) for x in a[3].split(",")])
    elif what == "pct":
        ok = pct(a[0], a[1], float(a[2]), float(a[3]))
    else:
        ok = heatmap(a[0], a[1])
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()

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


def main():
    what = sys.argv[1]
    if what == "hist":
        ok = hist(sys.argv[2], sys.argv[3], int(sys.argv[4]), int(sys.argv[5]))
    elif what == "cdf":
        ok = cdf(sys.argv[2], sys.argv[3], int(sys.argv[4]), int(sys.argv[5]))
    else:
        ok = heatmap(sys.argv[2], sys.argv[3])
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()

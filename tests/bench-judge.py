#!/usr/bin/env python3
"""make bench's verdict on the bounds that need a real CPU.

Usage: bench-judge.py ACCEL OUTPUT
  ACCEL   kvm or tcg: what the guest ran under (tests/vm/accel.sh)
  OUTPUT  the guest's bench output (tests/guest/bench.sh)

Prints each bound with its figure. Under KVM each is judged (held / NOT
HELD) and the exit status is 1 if any was not held or not measured. Under
TCG they are reported and never judged: the emulator charges a guest
instruction about half a nanosecond and turns a clock read into a few
dozen, so its ratios bound nothing a CPU does. The governor's estimate
against the throughput loss (within 30 %) is judged where it is measured,
in the lanes (tests/guest/governor.py), under KVM likewise.
"""
import re
import sys


def figures(text):
    """The figures the bounds are about, from the guest's output."""
    out = {}
    m = re.search(r"ratio_hot_over_ktime \d+/1000 \(net of loop (\d+)/1000\)", text)
    if m:
        out["record"] = ("kstats_record() hot / ktime_get_ns(), net of the loop",
                         int(m.group(1)) / 1000, 0.15, "")
    for m in re.finditer(r"^kstats' (\w+) handlers / the bare \1 \(hot\)\s+([\d.]+)", text, re.M):
        out["handlers_" + m.group(1)] = (f"kstats' {m.group(1)} handlers / the bare {m.group(1)}",
                                        float(m.group(2)), 0.2, "")
    for m in re.finditer(r"^kstats (\w+) --outliers \(no call over the threshold\): ([-+]?[\d.]+) ns",
                         text, re.M):
        out["outliers_" + m.group(1)] = (f"the outlier check, {m.group(1)}, per call",
                                        float(m.group(2)), 5, " ns")
    return out


def main():
    if len(sys.argv) != 3 or sys.argv[1] not in ("kvm", "tcg"):
        sys.exit("usage: bench-judge.py kvm|tcg OUTPUT")
    accel = sys.argv[1]
    with open(sys.argv[2], encoding="utf-8", errors="replace") as f:
        found = figures(f.read())
    judged = accel == "kvm"
    print("# bounds for a real CPU, " + ("judged (KVM)" if judged else
          "reported, not judged: software emulation (TCG)"))
    bad = 0
    for key in ("record", "handlers_fprobe", "handlers_kretprobe", "outliers_fprobe",
                "outliers_kretprobe"):
        if key not in found:
            # fprobe is missing on kernels without it; record always runs.
            if judged and key == "record":
                print("  record path: not measured: NOT HELD")
                bad += 1
            continue
        what, value, bound, unit = found[key]
        verdict = ""
        if judged:
            held = value <= bound
            bad += not held
            verdict = ": held" if held else ": NOT HELD"
        print(f"  {what}: {value:g}{unit} (bound <= {bound:g}{unit}){verdict}")
    if judged:
        print(f"# {'all bounds held' if not bad else f'{bad} bound(s) not held'}")
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""The overhead governor and sampling, in the guest (trace-tests.sh), with
kstats and kstats_target loaded. Prints TAP lines; exits 1 if any failed.

Usage: governor.py KSTATSCTL

Each mechanism the kernel has (fprobe, kretprobe):
  --sample 8: calls = hits + misses + skipped exactly, hits x 8 within 5 %;
  --budget 1% on a busy function: the governor samples within 2 s (its
  look every 500 ms is the sync: polled, never slept on).
Then, by the default mechanism:
  the governor's cost estimate against the throughput loss this test
  measures (the same quantity: the CPU's share spent tracing), within 30 %
  (not on the debug lane: KASAN; judged under KVM, reported as TODO under
  TCG);
  a function called 100 times a second is never sampled at 1 %;
  --by stack: the governor adds each call's stack walk to its estimate,
  so a trace keyed by stack is estimated to cost more than the same trace
  without, on the same calls (without the walks counted, the two are the
  same: the calibrated call costs differ by a key's record).
The busy function's work per call is chosen from the calibrated costs, so
that the rate falls where the budget can only be met by sampling.
"""
import ctypes
import fcntl
import json
import math
import os
import struct
import subprocess
import sys
import time

K = [sys.argv[1], "--no-autoload"]
T = "/sys/kernel/debug/kstats_target/"
failed = 0
ACTED = set()		# mechanisms whose governor sampled or detached in engage()


def tap(name, good, why=""):
    global failed
    print(("ok - " if good else "not ok - ") + name)
    if not good:
        failed = 1
        print("#   " + why)


def ctl(cmd):
    with open(T + "ctl", "w") as f:
        f.write(cmd)


def read(name):
    with open(T + name) as f:
        return int(f.read())


def kstatsctl(*args, check=True):
    return subprocess.run(K + list(args), capture_output=True, text=True, check=check)


def trace_json(name):
    out = kstatsctl("-j", "show", name).stdout
    return json.loads(out)["metrics"][0]["trace"]


KSTATS_IOC_LIST = 0xC028BC03
ENTRY = 160			# struct kstats_metric_info; flags at 136
SAMPLED, DETACHED = 1 << 3, 1 << 2


def listed_flags(name):
    """The metric's KSTATS_METRIC_* by LIST: cheap, unlike a kstatsctl per poll."""
    buf = ctypes.create_string_buffer(ENTRY * 256)
    arg = bytearray(struct.pack("QIIII16x", ctypes.addressof(buf), ENTRY, 256, 0, 0))
    with open("/dev/kstats", "rb") as dev:
        fcntl.ioctl(dev, KSTATS_IOC_LIST, arg)
    for i in range(struct.unpack_from("I", arg, 12)[0]):
        if buf.raw[i * ENTRY:i * ENTRY + 64].split(b"\0")[0].decode() == name:
            return struct.unpack_from("I", buf.raw, i * ENTRY + 136)[0]
    return 0


def wait_mode(name, flags, limit, want_set=True):
    """
    Polls the trace until it has one of @flags (or none, !@want_set) by
    LIST: under emulation a kstatsctl per poll takes host time from the
    spinning vCPU. The seconds it took, or None, and its sampling state.
    """
    t0 = time.monotonic()
    while time.monotonic() - t0 < limit:
        if bool(listed_flags(name) & flags) == want_set:
            return time.monotonic() - t0, trace_json(name)["sampling"]
        time.sleep(0.02)
    return None, trace_json(name)["sampling"]


def spin_rate(seconds):
    """Calls per second of a running spin1, over @seconds (a measurement)."""
    c0, t0 = read("spun"), time.monotonic()
    time.sleep(seconds)
    return (read("spun") - c0) / (time.monotonic() - t0)


def band_cost(cal, at):
    """ps per call @at of the way from the full cost to the entry cost (log)."""
    return cal["call_cost_ps"] ** (1 - at) * cal["skip_cost_ps"] ** at


def start_spin(cal, budget, measure=True, at=0.5):
    """
    spin1 at a rate inside (budget / full cost, budget / entry cost), where
    only sampling meets the budget, @at of the way across it in log scale:
    its work per call scaled by the rate seen in three short tries (the
    loop, and under emulation the vCPU's share of the emulator's thread,
    stretch the work). Returns the rate then, or without @measure the work
    per call.
    """
    want = budget / (band_cost(cal, at) * 1e-12)
    work = 1e9 / want / 2	# loops of about 1 ns or more
    for _ in range(3):
        ctl(f"spin1 {int(work)}")
        rate = spin_rate(0.3)
        ctl("stop")
        work *= rate / want
    ctl(f"spin1 {int(work)}")
    if not measure:
        print(f"# spin1 {int(work)}: {want:.0f} calls/s wanted")
        return int(work)
    rate = spin_rate(1)
    print(f"# spin1 {int(work)}: {rate:.0f} calls/s untraced, {want:.0f} wanted")
    return rate


def sample8(mech):
    name = "g.s8." + mech
    kstatsctl("trace", "--keep", "--name", name, "--mechanism", mech, "--sample", "8", "ktarget_empty")
    ctl("hammer 4000")
    calls = read("calls")
    t = trace_json(name)
    listed = json.loads(kstatsctl("-j", "list", name).stdout)["metrics"][0]["state"]
    shown = kstatsctl("show", name).stdout
    prom = kstatsctl("export", name).stdout
    kstatsctl("untrace", name)
    seen = t["hits"] + t["misses"] + t["skipped"]
    tap(f"{mech} --sample 8: hits + misses + skipped = the calls made",
        seen == calls, f"{seen} seen, {calls} made: {t}")
    est = (t["hits"] + t["misses"]) * 8
    tap(f"{mech} --sample 8: hits x 8 within 5 % of the calls",
        abs(est - calls) <= 0.05 * calls, f"{est} vs {calls}")
    tap(f"{mech} --sample 8: mode sampled-fixed, listed as sampled",
        t["sampling"]["mode"] == "sampled-fixed" and t["sampling"]["sample_every"] == 8
        and listed == "sampled", f"{t['sampling']}, list says {listed}")
    calls_line = f"calls {calls} (hits + misses + skipped {t['skipped']}: exact)"
    tap(f"{mech} --sample 8: show says the calls and that the histogram is a sample",
        calls_line in shown and "sampled 1 in 8 since " in shown and
        "(--sample): the histogram is from a sample" in shown, shown)
    tap(f"{mech} --sample 8: the Prometheus export has its N, mode and skipped calls",
        f'kstats_sample_every{{name="{name}"}} 8' in prom and
        f'kstats_trace_mode{{name="{name}"}} 2' in prom and
        f'kstats_skipped_total{{name="{name}"}} {t["skipped"]}' in prom, prom)


KSTATS_IOC_SNAPSHOT = 0xC0E0BC05	# struct kstats_snapshot, 224 bytes
SNAP_BUF = ctypes.create_string_buffer(1 << 20)


def gov_state(name):
    """
    The governor's state of @name by SNAPSHOT (cheap: no kstatsctl), with
    the target's own count of spin1's calls read just after: the mode, N,
    the estimates of its last look (ppm), and when (CLOCK_MONOTONIC, s).
    """
    arg = bytearray(224)
    arg[:len(name)] = name.encode()
    struct.pack_into("QQ", arg, 64, ctypes.addressof(SNAP_BUF), len(SNAP_BUF))
    with open("/dev/kstats", "rb") as dev:
        fcntl.ioctl(dev, KSTATS_IOC_SNAPSHOT, arg)
    mode, n = struct.unpack_from("II", arg, 152)
    cost, full = struct.unpack_from("II", arg, 180)
    return {"t": struct.unpack_from("Q", arg, 96)[0] / 1e9, "spun": read("spun"),
            "mode": mode, "n": n, "cost": cost, "full": full}


def said_by(s):
    """What show says of the governor's act in @s (sampling, or detached)."""
    return "by the governor (budget 1%, cost ~" if s["mode"] == 1 else \
        "by the governor: over its budget of 1%"


def show_acted(name, s, tries=20):
    """
    kstatsctl show @name while the governor's act (@s, sampling or
    detached) stands. Under the same load its next look (about half a
    second on, often within show's own run under emulation) may return to
    every call when the host's share moved, and act again later: a show
    that does not say so is taken again once the governor acts again. The
    output and the state it was taken in, or (the last output, None).
    """
    out = ""
    for _ in range(tries):
        if not s:
            break
        if not s["mode"]:
            s = next_look(name, s)
            continue
        out = kstatsctl("show", name).stdout
        if said_by(s) in out:
            return out, s
        s = gov_state(name)
    return out, None


def next_look(name, prev, limit=3):
    """
    Polls @name until the governor has looked since @prev (its estimates or
    mode changed; under load they change at every look): that state, or
    None. A look lies between two polls: windows measured from polls are
    the governor's own within the poll interval.
    """
    while True:
        time.sleep(0.03)
        s = gov_state(name)
        if (s["cost"], s["full"], s["mode"], s["n"]) != \
                (prev["cost"], prev["full"], prev["mode"], prev["n"]):
            return s
        if s["t"] - prev["t"] > limit:
            return None


def rate_ppm(a, b, call_ps):
    """What spin1's calls between states @a and @b cost at full recording, ppm."""
    return (b["spun"] - a["spun"]) * call_ps * 1e-6 / (b["t"] - a["t"])


def engage(mech):
    """
    The load is set with the function traced in full (--budget off: the
    rate a governed trace sees before it samples), from that attach's
    costs; then the governed trace is attached, the governor left to see
    an idle window, and the load started: the clock runs from there. The
    issue's 2 s holds while the load holds; under emulation the host may
    starve the spinning vCPU, and attaches calibrate apart, so the test
    also counts the load in each of the governor's windows itself (the
    target's own counter, the trace's own costs) and asserts the sharper
    property: the governor acts at the first look whose window was over
    the budget.
    """
    name = "g.b1." + mech
    budget = 10000
    kstatsctl("trace", "--keep", "--name", name, "--mechanism", mech, "--budget", "off", "ktarget_empty")
    cal = trace_json(name)["sampling"]
    if not cal["calibrated"]:
        kstatsctl("untrace", name)
        tap(f"{mech}: the governor says it is not calibrated # skip", True)
        return
    # A quarter into the band, and at least 1.5 x the budget at full cost
    # (up to half way): the host's bursts move the rate by tens of percent
    # either way; below the band is waited out (the first look over the
    # budget), above it the governor rightly detaches. Under KASAN the
    # entry cost is near the full one: a quarter into that narrow band was
    # 0-20 % over the budget, and the load stayed under it (skipped twice).
    ratio = cal["call_cost_ps"] / max(cal["skip_cost_ps"], 1)
    at = min(max(0.25, math.log(1.5) / math.log(ratio)), 0.5) if ratio > 1 else 0.5
    print(f"# {mech}: full / entry cost {ratio:.2f}: aimed {at:.2f} into the band")
    work = start_spin(cal, budget / 1e6, measure=False, at=at)
    kstatsctl("untrace", name)
    kstatsctl("trace", "--keep", "--name", name, "--mechanism", mech, "--budget", "1%", "ktarget_empty")
    full_cal, cal = cal, trace_json(name)["sampling"]
    if not cal["calibrated"]:
        ctl("stop")
        kstatsctl("untrace", name)
        tap(f"{mech}: the governor says it is not calibrated # skip", True)
        return
    # Aimed by this attach's costs, which decide (attaches calibrate up to
    # 2x apart): the work per call dominates a call, so the rate goes as
    # its inverse.
    work = int(work * band_cost(cal, at) / band_cost(full_cal, at))
    ctl("stop")
    t0 = time.monotonic()
    # Quiet: a look over a window without a call (a look over the stop
    # itself may still sample; LIST's flag alone could be a look early).
    s = gov_state(name)
    while s and (s["mode"] or s["full"]):
        s = next_look(name, s)
    quiet = s and s["t"] - t0
    ctl(f"spin1 {work}")
    t0 = time.monotonic()
    looks, s = [], gov_state(name)
    while s and s["mode"] == 0 and s["t"] - t0 < 10:
        s = next_look(name, s)
        if s:
            looks.append(s)
    if not s:
        last = gov_state(name)
        print(f"# {mech}: no look for 3 s; the trace now: {last}, then: {looks[-1:]}")
    shown, seen = show_acted(name, s)
    ctl("stop")
    kstatsctl("untrace", name)
    took = looks[-1]["t"] - t0 if looks and s and s["mode"] else None
    # The window before the first look began before the load: not counted.
    hot = [(round(b["t"] - t0, 2), round(rate_ppm(a, b, cal["call_cost_ps"])), b["full"])
           for a, b in zip(looks, looks[1:])]
    # 15 %: a window's ends, known within a poll each (~30-60 ms of ~500).
    missed = [h for h in hot[:-1] if h[1] > 1.15 * budget]
    if s and s["mode"] in (1, 3):
        ACTED.add(mech)
    if took is None and not missed and s and s["mode"] == 0:
        tap(f"{mech} --budget 1%: the governor acts # skip: the load never passed the "
            f"budget in 10 s by the target's count (the host's share): {hot}", True)
        return
    print(f"# {mech}: looks (s, ppm by the target's count, ppm by the governor): {hot}")
    # Detaching is the right answer when the look's entry cost alone (its
    # full estimate scaled by the calibrated costs) passed the budget.
    entry = s["full"] * cal["skip_cost_ps"] / cal["call_cost_ps"] if s else 0
    right = s and (s["mode"] == 1 or (s["mode"] == 3 and entry >= 0.97 * budget))
    tap(f"{mech} --budget 1%: the governor samples (or detaches, the entry cost alone over "
        "the budget) within 2 s, or at the first look over the budget when the host starved "
        "the load", quiet is not None and took is not None and right and
        (took <= 2 or not missed),
        f"after {took} s (full again after {quiet} s), missed {missed}, entry cost "
        f"{entry:.0f} ppm: {s}")
    tap(f"{mech} --budget 1%: show says so", seen is not None,
        f"no show said so in 20 tries while the governor acted: {shown}")


def poll_window(ref, seconds):
    """
    spin1's calls per second over @seconds, polled as the traced windows
    are (a poll takes the emulator's thread from the spinning vCPU too).
    """
    a = b = gov_state(ref)
    while b["t"] - a["t"] < seconds:
        time.sleep(0.03)
        b = gov_state(ref)
    return (b["spun"] - a["spun"]) / (b["t"] - a["t"])


def estimate_vs_loss():
    """
    The loss is measured over exactly one of the governor's windows (from
    a look to the next, found by polling), against untraced windows just
    before and after it, polled alike; over three attaches, the median loss
    against the median of the governor's estimates for those windows.
    """
    name = "g.b20"
    if os.environ.get("KSTATS_LANE") == "debug":
        # KASAN's checks change what a call costs with where it runs: in
        # situ 30-45 % off the calibration there. The stock lanes check it.
        tap("the cost estimate vs the loss # skip: a timing property, not "
            "under KASAN", True)
        return
    kstatsctl("trace", "--keep", "--name", name, "--budget", "20%", "ktarget_empty")
    cal = trace_json(name)["sampling"]
    kstatsctl("untrace", name)
    if not cal["calibrated"]:
        tap("the cost estimate vs the loss # skip: not calibrated", True)
        return
    kstatsctl("create", "g.ref")
    start_spin(cal, 0.2, measure=False)
    bare, traced, ests, modes = [poll_window("g.ref", 0.5)], [], [], []
    for _ in range(3):
        kstatsctl("trace", "--keep", "--name", name, "--budget", "20%", "ktarget_empty")
        # Sampling or not (an attach may calibrate a little differently
        # from the one the load was set by), the estimate must hold: for a
        # window wholly under the N of the look that began it.
        wait_mode(name, SAMPLED | DETACHED, 1.5)
        a = next_look(name, gov_state(name))
        b = a and next_look(name, a)
        c = trace_json(name)["sampling"]
        print(f"# attach: costs {c['call_cost_ps']} / {c['skip_cost_ps']} ps; window "
              f"{a and b and round(b['t'] - a['t'], 3)} s, "
              f"{a and b and round(rate_ppm(a, b, c['call_cost_ps']))} ppm at full by the "
              f"target's count, the governor's full {b and b['full']} cost {b and b['cost']}")
        if b:
            traced.append((b["spun"] - a["spun"]) / (b["t"] - a["t"]))
            ests.append(b["cost"] / 1e6)
            modes.append(f"{b['mode']}/{b['n']}")
        kstatsctl("untrace", name)
        bare.append(poll_window("g.ref", 0.5))
    ctl("stop")
    kstatsctl("delete", "g.ref")
    if len(traced) < 3:
        tap("the governor's cost estimate vs the throughput loss: it looks every 500 ms",
            False, f"{len(traced)} windows of 3 found")
        return
    losses = [1 - t / ((bare[i] + bare[i + 1]) / 2) for i, t in enumerate(traced)]
    loss, est = sorted(losses)[1], sorted(ests)[1]
    print(f"# untraced {[int(r) for r in bare]}/s, traced {[int(r) for r in traced]}/s: "
          f"losses {[round(x, 3) for x in losses]}, estimates {[round(e, 3) for e in ests]}, "
          f"mode/N {modes}, costs {cal['call_cost_ps']} / {cal['skip_cost_ps']} ps")
    # The reference must hold still for a 30 % claim on a ~20 % loss: when
    # the untraced rate itself moved by more than 15 % (the host's load
    # under emulation), the run measures nothing, and says so.
    if max(bare) > 1.15 * min(bare):
        tap("the governor's cost estimate vs the throughput loss # skip: the "
            f"untraced rate moved {max(bare) / min(bare) - 1:.0%} during the run", True)
        return
    # Known gap (issue 22): under TCG a traced call costs 1.5-3x in situ
    # what it costs back to back at calibration (the figures above: the
    # target's count and the governor's agree within 2 % per window, the
    # loss does not follow). Reported as TAP TODO there, not passed: a real
    # CPU is needed to tell an emulation artefact from a model error. Under
    # KVM (tests/vm/accel.sh) it is judged.
    good = abs(est - loss) <= 0.3 * loss
    what = ("the governor's cost estimate is within 30 % of the throughput loss "
            f"(medians): loss {loss:.3f}, estimate {est:.3f}")
    if os.environ.get("KSTATS_VM_ACCEL_USED") == "kvm":
        tap(what, good, "a real CPU: the model is off")
    else:
        print(("ok - " if good else "not ok - ") + what + " # TODO in-situ cost under TCG, issue 22")


def rare_never_sampled():
    name = "g.rare"
    kstatsctl("trace", "--keep", "--name", name, "--budget", "1%", "ktarget_sleep")
    ctl("sleep 10000 150")
    t = trace_json(name)
    kstatsctl("untrace", name)
    tap("a function called 100 times a second is never sampled at 1%",
        t["skipped"] == 0 and t["hits"] == 150 and t["sampling"]["mode"] == "full",
        f"{t}")


def stack_counted():
    plain, keyed = "g.st.plain", "g.st.stack"
    # A budget no load reaches: the governor estimates, and never acts.
    kstatsctl("trace", "--keep", "--name", plain, "--budget", "100%", "ktarget_empty")
    kstatsctl("trace", "--keep", "--name", keyed, "--budget", "100%", "--by", "stack",
              "ktarget_empty")
    ctl("spin1 2000")
    p, s = gov_state(plain), gov_state(keyed)
    for _ in range(3):	# a few looks: each estimate from a whole window
        p, s = next_look(plain, p) or p, next_look(keyed, s) or s
    ctl("stop")
    cal_p, cal_s = trace_json(plain)["sampling"], trace_json(keyed)["sampling"]
    kstatsctl("untrace", plain, keyed)
    print(f"# same calls: plain full {p['full']} ppm, --by stack full {s['full']} ppm")
    tap("--by stack: the governor counts the stack walks (its estimate over 1.5x the "
        "plain trace's on the same calls)",
        p["full"] > 0 and s["full"] > 1.5 * p["full"], f"{p} {s} {cal_p} {cal_s}")


def detach():
    """A budget that declining every call cannot meet: the trace detaches."""
    name = "g.det"
    ctl("spin1 100")
    kstatsctl("trace", "--keep", "--name", name, "--budget", "0.001%", "ktarget_empty")
    took, s = wait_mode(name, DETACHED, 10)
    ctl("stop")
    shown = kstatsctl("show", name).stdout
    listed = json.loads(kstatsctl("-j", "list", name).stdout)["metrics"][0]["state"]
    hits = trace_json(name)["hits"]
    ctl("hammer 100")
    after = trace_json(name)["hits"]
    untraced = kstatsctl("untrace", name, check=False).returncode == 0
    log = subprocess.run(["dmesg"], capture_output=True, text=True).stdout
    tap("a budget not met even declining every call: the governor detaches the trace",
        took is not None and took <= 2 and s["mode"] == "detached-by-governor" and
        listed == "detached" and "by the governor: over its budget of 0.001%" in shown and
        after == hits and untraced and f"kstats: trace {name} detached: over its budget" in log,
        f"after {took} s: {s}, list {listed}, hits {hits} then {after}: {shown}")


def module_default():
    """The module parameter budget_ppm governs traces that ask nothing."""
    param = "/sys/module/kstats/parameters/budget_ppm"
    try:
        with open(param, "w") as f:
            f.write("1000001")
        refused = False
    except OSError:
        refused = True
    tap("budget_ppm above a whole CPU is refused", refused, "written")
    with open(param, "w") as f:
        f.write("5000")
    kstatsctl("trace", "--keep", "--name", "g.def", "ktarget_empty")
    kstatsctl("trace", "--keep", "--name", "g.off", "--budget", "off", "ktarget_sec_start")
    governed, off = trace_json("g.def")["sampling"], trace_json("g.off")["sampling"]
    with open(param, "w") as f:
        f.write("0")
    kstatsctl("untrace", "g.def", "g.off")
    tap("the module default budget governs a trace; --budget off does not",
        governed["budget_ppm"] == 5000 and off["budget_ppm"] == 0, f"{governed}, {off}")


def main():
    # spin1 runs on the first CPU: this test and its kstatsctl stay off it.
    cpus = os.sched_getaffinity(0)
    if len(cpus) > 1:
        os.sched_setaffinity(0, cpus - {min(cpus)})
    info = json.loads(kstatsctl("-j", "info").stdout)
    have = info["module"]["mechanisms"]
    mechs = [m for m in ("fprobe", "kretprobe") if m in have]
    tests = [(sample8, m) for m in mechs] + [(engage, m) for m in mechs] + \
        [(estimate_vs_loss, None), (rare_never_sampled, None), (detach, None),
         (module_default, None), (stack_counted, None)]
    if os.environ.get("KSTATS_LANE") == "debug":
        # Under the sanitizers, every governor path once (the debug lane is
        # make check's longest chain); the timing properties on stock lanes.
        tests = [t for t in tests if t[0] not in (estimate_vs_loss, rare_never_sampled)
                 and not (len(mechs) > 1 and t == (engage, mechs[-1]))]
        print("# debug lane: the governor engages for one mechanism; the cost "
              "estimate and the rare function are checked on stock lanes")
    elif os.environ.get("KSTATS_LANE") in ("6.1", "6.12-rt", "7.3-rt"):
        # make check's time: the mechanism-independent checks (the estimate,
        # the rare function, detach, the default) on 6.12 and 7.3 only; every
        # lane samples and engages with each mechanism it has.
        tests = [t for t in tests if t[1] is not None]
        print("# this lane: sampling and the governor per mechanism; the rest "
              "on the 6.12 and 7.3 lanes")
    for test, args in tests:
        t0 = time.monotonic()
        test(*([args] if args else []))
        print(f"# {test.__name__} {args or ''}: {time.monotonic() - t0:.1f} s")
    log = subprocess.run(["dmesg"], capture_output=True, text=True).stdout
    engaged = sorted(ACTED)
    tap("the kernel log says when the governor samples (or detaches)",
        all("kstats: trace g.b1.%s samples 1 call in" % m in log or
            "kstats: trace g.b1.%s detached: over its budget" % m in log for m in engaged), "")
    sys.exit(failed)


main()

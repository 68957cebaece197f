#!/usr/bin/env python3
"""trace --split in a VM: where each call's time went, against the kernel.

  timesplit.py KSTATSCTL MECHANISM HOG   (HOG: the lane's tests/guest/hog.c)

Needs kstats and kstats_target loaded. Prints TAP lines; exits 1 on a failure.
For each case a trace of a target function with --split, one known workload
written to the target's ctl, then the four metrics read with show -j:

  - every call is in all four, and ONCPU + RUNQ + BLOCKED = the wall time
    (their sums; each sum is exact to 2^-12 of a slot's width, see
    kstats_hist.h, so to 0.1 %);
  - sleep 2000 us x 100 (ktarget_sleep: two hrtimer sleeps): BLOCKED holds at
    least 1.9 ms of each call's mean, on-CPU at most 10 % of it (25 % under
    KASAN and lockdep, where the code around the sleeps is slower);
  - busy 1000 us x 200 (ktarget_busy, a busy loop that offers the CPU with
    cond_resched(), in the writer's own task) with the other CPUs idle: on a
    CPU for >= 95 % of the wall time;
  - the same with the writer pinned to the last CPU beside a SCHED_FIFO task
    pinned there that spins 2 ms and sleeps 2 ms: RUNQ > 0 (it was
    preempted), BLOCKED exactly 0 (a busy loop never sleeps);
  - 1 s of busy calls in one write(): the sum of ONCPU against the
    writer's own CPU time across that write() (CLOCK_THREAD_CPUTIME_ID,
    the kernel's sum_exec_runtime brought up to date). The writer also runs
    outside the calls inside the write (the syscall, the target's loop, the
    probes' own handlers), so ONCPU <= CPU time; that outside part is
    measured in the same run by the same write with empty calls (busy 0
    100, a control), and the gap may be at most 3 times it plus 10 ms:
    under TCG a stall of the emulating thread on the host is seen by the
    guest as time on its CPU, and one of a few ms can land outside the
    calls (a real loss would be in every run, a stall is by chance: up to
    3 runs, one within the bound decides). Runs on every kernel (no
    CONFIG_SCHED_INFO needed);
  - 5 ms busy calls x 100, one writer pinned beside the hog: the sum of
    RUNQ against the writer's run_delay inside the calls (the target sums
    it), short of it by at most the hog's own wakeup latencies (the
    scheduler dates a preempted task's wait from its waker's clock update)
    + 2 ms + 1 %, and not above it by 2 ms + 2 %; and against the change
    of run_delay (field 2) across the write: the writer also waits outside
    the calls (its wakeup, the way back to block), so RUNQ <= run_delay,
    short of it by at most what a few of those waits take beside the hog:
    20 ms, plus 2 % (the emulated CPU's stalls stretch the hog's 2 ms),
    judged but on PREEMPT_RT; those waits land outside the calls by
    chance, so up to 3 runs, one within the bounds decides;
  - sigstale 1000 x 20 (ktarget_sigstale: schedule() in TASK_INTERRUPTIBLE
    with a handled SIGUSR1 pending, so the task never leaves its runqueue)
    pinned beside a spinning shell: BLOCKED exactly 0, RUNQ > 0 (Debian's
    6.1 reports that task's sched_switch prev_state as asleep);
  - sections (a kprobe pair, with kretprobe's run) that migrate half way:
    every section in all three parts, and the parts sum to the wall time.
Kernels without CONFIG_SCHED_INFO (the debug kernel) have no schedstat:
the run_delay check is said, and skipped, there.
"""
import json
import os
import subprocess
import sys
import time

KSTATSCTL, MECH, HOG = sys.argv[1], sys.argv[2], sys.argv[3]
CTL = "/sys/kernel/debug/kstats_target/ctl"
PARTS = ("ONCPU", "RUNQ", "BLOCKED")
failed = False


def tap(ok, what):
    global failed
    print("%s - %s [%s]" % ("ok" if ok else "not ok", what, MECH))
    failed |= not ok
    return ok


def kstatsctl(*args):
    return subprocess.run([KSTATSCTL, "--no-autoload", *args], check=True,
                          capture_output=True, text=True).stdout


def show(name):
    """count and sum of NAME and of its three parts."""
    metrics = json.loads(kstatsctl("-j", "show", name,
                                   *("%s-%s" % (p, name) for p in PARTS)))["metrics"]
    return {m["name"]: (m["count"], m["sum"]) for m in metrics}


def traced(func, name, workload, pin=None, how=None):
    """Trace FUNC with --split as NAME, run WORKLOAD on the ctl, and read."""
    kstatsctl("trace", "--keep", func, "--name", name, "--split",
              *(how or ("--mechanism", MECH)))
    try:
        cmd = ["sh", "-c", "echo %s > %s" % (workload, CTL)]
        if pin is not None:
            cmd = ["taskset", "-c", str(pin)] + cmd
        subprocess.run(cmd, check=True)
        got = show(name)
    finally:
        kstatsctl("untrace", name)
    wall = got[name]
    parts = {p: got["%s-%s" % (p, name)] for p in PARTS}
    tap(all(c == wall[0] for c, _ in parts.values()),
        "%s: every call in ONCPU, RUNQ and BLOCKED (%d; %s)"
        % (name, wall[0], ", ".join("%s %d" % (p, c) for p, (c, _) in parts.items())))
    total = sum(s for _, s in parts.values())
    tap(abs(total - wall[1]) <= 1e-3 * wall[1],
        "%s: ONCPU + RUNQ + BLOCKED = wall time (%.0f vs %.0f ns)" % (name, total, wall[1]))
    return wall, parts


def schedstat(pid):
    """sum_exec_runtime and run_delay of PID, ns."""
    with open("/proc/%d/schedstat" % pid) as f:
        return [int(x) for x in f.read().split()[:2]]


def start_hog(cpu):
    """A SCHED_FIFO task on CPU that spins 2 ms and sleeps 2 ms, running
    (tests/guest/hog.c: it sums how late it runs after each sleep's
    deadline, which stop_hog() reads)."""
    hog = subprocess.Popen(["chrt", "-f", "50", "taskset", "-c", cpu, HOG],
                           stdout=subprocess.PIPE, text=True)
    hog.stdout.readline()  # it runs: the calls will meet it
    return hog


def stop_hog(hog):
    """Stops the hog: the ns it ran late after its sleeps, summed, or None."""
    hog.terminate()
    out = hog.communicate(timeout=60)[0].split()
    return int(out[1]) if hog.returncode == 0 and len(out) == 3 else None


def blocked_in_pipe(pid):
    """Whether PID sleeps (state S) on its FIFO (opening or reading it)."""
    with open("/proc/%d/stat" % pid) as f:
        state = f.read().rsplit(")", 1)[1].split()[0]
    with open("/proc/%d/wchan" % pid) as f:
        wchan = f.read()
    # wchan reads "0" where the kernel hides it: the state alone then.
    return state == "S" and (wchan in ("", "0") or
                             any(w in wchan for w in ("pipe", "fifo", "partner")))


def wait_blocked(pid):
    """Polls (bounded) until PID is blocked reading its FIFO."""
    for _ in range(3000):
        if blocked_in_pipe(pid):
            return True
        time.sleep(0.01)
    return False

# The writer: one control write with empty calls, then the measured one,
# each bracketed by its own thread CPU time; between them it waits for a
# line, so the control's ONCPU can be read apart.
WRITER = """
import os, sys, time
fd = os.open(%r, os.O_WRONLY)
for cmd in (b"busy 0 100", b"busy 10000 100"):
    t = time.thread_time_ns()
    os.write(fd, cmd)
    print(time.thread_time_ns() - t, flush=True)
    sys.stdin.readline()
"""


def thread_time_run():
    """One run: (ONCPU's calls, their ONCPU sum, the write's CPU time, the control's)."""
    name = "t.split.exec"
    kstatsctl("trace", "--keep", "ktarget_busy", "--name", name, "--split", "--mechanism", MECH)
    cpu = str(os.cpu_count() - 1)
    try:
        writer = subprocess.Popen(["taskset", "-c", cpu, "python3", "-c", WRITER % CTL],
                                  stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
        ctl_ns = int(writer.stdout.readline())
        ctl_oncpu = show(name)["ONCPU-" + name][1]
        writer.stdin.write("\n")
        writer.stdin.flush()
        exec_ns = int(writer.stdout.readline())
        got = show(name)
        writer.stdin.write("\n")
        writer.stdin.close()
        writer.wait()
    finally:
        kstatsctl("untrace", name)
    return got["ONCPU-" + name][0], got["ONCPU-" + name][1] - ctl_oncpu, exec_ns, ctl_ns


def vs_thread_time():
    """
    ONCPU of 100 busy calls of 10 ms against the writer's CPU time. ONCPU
    above it is wrong in any run. Short of it by more than the bound is
    what on-CPU time lost by the split would look like in every run,
    whereas a stall of the emulating thread on the host lands outside the
    calls by chance (17 ms seen beside another lane, under KASAN): so up
    to 3 runs, and one within the bound decides.
    """
    runs = []
    for _ in range(3):
        count, oncpu, exec_ns, ctl_ns = thread_time_run()
        runs.append("short by %.0f ns of %d, control %d ns" % (exec_ns - oncpu, exec_ns, ctl_ns))
        if count != 200 or oncpu > exec_ns * 1.001 or exec_ns - oncpu <= 3 * ctl_ns + 10e6:
            break
    tap(count == 200 and oncpu <= exec_ns * 1.001 and exec_ns - oncpu <= 3 * ctl_ns + 10e6,
        "ONCPU sum %.0f ns vs the writer's CPU time %d ns across its write: not above, "
        "short by at most 3 x the control's %d ns + 10 ms, in one of 3 runs (200 calls: %d; "
        "%s)" % (oncpu, exec_ns, ctl_ns, count, "; ".join(runs)))


def runq_run():
    """
    One run: (the writer blocked where expected, RUNQ's sum, run_delay's
    change across the write, run_delay's changes inside the calls).
    """
    name = "t.split.exec.hog"
    fifo = "/tmp/timesplit.fifo"
    if os.path.exists(fifo):
        os.unlink(fifo)
    os.mkfifo(fifo)
    kstatsctl("trace", "--keep", "ktarget_busy", "--name", name, "--split", "--mechanism", MECH)
    cpu = str(os.cpu_count() - 1)
    hog = start_hog(cpu)
    try:
        # The writer waits on the FIFO before and after its one write.
        writer = subprocess.Popen(["taskset", "-c", cpu, "sh", "-c",
                                   "read a < %s; echo busy 5000 100 > %s; "
                                   "read b < %s" % (fifo, CTL, fifo)])
        ok = wait_blocked(writer.pid)
        before = schedstat(writer.pid)
        with open(fifo, "w") as f:
            f.write("go\n")
        # Until the target has counted the 200 calls, then blocked again.
        for _ in range(6000):
            if (open("/sys/kernel/debug/kstats_target/calls").read().strip() == "100"
                    and blocked_in_pipe(writer.pid)):
                break
            time.sleep(0.01)
        ok = ok and blocked_in_pipe(writer.pid)
        after = schedstat(writer.pid)
        with open(fifo, "w") as f:
            f.write("done\n")
        writer.wait()
        got = show(name)
        inside = int(open("/sys/kernel/debug/kstats_target/busy_run_delay").read())
    finally:
        late = stop_hog(hog)
        kstatsctl("untrace", name)
        os.unlink(fifo)
    return ok, got["RUNQ-" + name][1], after[1] - before[1], inside, late


def runq_vs_schedstat():
    """
    RUNQ of 100 busy calls of 5 ms beside the hog against the scheduler's
    own count of the same waits: the target reads the writer's schedstat
    run_delay just before and just after each call and sums the changes.
    Those windows hold the traced ones and a few instructions more, where
    the probes run with preemption off. The two clock a wait differently:
    kstats from the switch out to the switch in; the scheduler from the
    runqueue's clock at the switch in back to its clock when the writer
    was queued, which for a preemption is the waker's: wakeup_preempt()
    asks __schedule() to skip its clock update (rq_clock_skip_update), so
    sched_info_depart() stamps the wait with the hog's wakeup, while the
    writer still runs until it is switched out. So RUNQ is short of the
    sum by at most the hog's wakeup latencies, which the hog measures
    itself (how late it runs after each sleep's deadline: an upper bound,
    which also holds the timer's delivery: under TCG a ms or so a sleep,
    so there the bound only catches a gross loss; on hardware it is us),
    + 2 ms + 1 %; and RUNQ above the sum by more than
    2 ms + 2 % is wrong (the two clock a wait a few us apart at the other
    end; 1.4 % above seen once on 6.12-rt). Both judged on every kernel.
    Across the whole write (its waits outside the calls too, the hog
    preempting it there by chance) RUNQ is short by at most 20 ms + 2 %,
    judged but on PREEMPT_RT (44 to 70 ms short there). A preemption in the
    few instructions between a window's edges is a wait one counts and the
    other does not, and the hog's timing is chance: one run of 3 within
    the bounds decides.
    """
    if not os.path.exists("/proc/self/schedstat"):
        print("ok - # SKIP RUNQ vs schedstat: no /proc/PID/schedstat "
              "(CONFIG_SCHED_INFO off) [%s]" % MECH)
        return
    rt = "PREEMPT_RT" in os.uname().version
    runs = []
    for _ in range(3):
        blocked, runq, delay_ns, inside, late = runq_run()
        runs.append("RUNQ %.0f ns, run_delay %d ns inside the calls, %d ns across the write, "
                    "the hog %s ns late" % (runq, inside, delay_ns, late))
        above = runq > inside + 2e6 + 0.02 * inside
        short_inside = late is None or inside - runq > late + 2e6 + 0.01 * inside
        short = delay_ns - runq > 20e6 + 0.02 * delay_ns
        if not blocked or runq <= 0 or (not above and not short_inside and (rt or not short)):
            break
    tap(blocked and runq > 0 and not above and not short_inside and (rt or not short),
        "RUNQ sum %.0f ns vs the writer's schedstat run_delay %d ns inside the calls (not "
        "above by 2 ms + 2 %%, not short by more than the hog's wakeup latencies %s ns "
        "+ 2 ms + 1 %%) and %d ns across the write (%s, in one of 3 runs: %s)"
        % (runq, inside, late, delay_ns, "not judged: PREEMPT_RT" if rt else
           "not short by 20 ms + 2 %", "; ".join(runs)))


def sigstale(cpu):
    """Calls that schedule() with a signal pending beside a spinner: never
    asleep, so BLOCKED is exactly 0 and the waits are RUNQ (issue 30 W3:
    Debian's 6.1 reports such a task's sched_switch prev_state as asleep).
    No timing tolerance: BLOCKED is 0 by construction, on any machine; RUNQ
    > 0 needs one switch to the spinner in 20,000 voluntary schedule()s on
    its CPU, which the fair scheduler gives once the writer has run a slice
    (measured 18-27 ms of RUNQ under TCG, 217-220 ms under KASAN)."""
    name = "t.split.sig"
    spinner = subprocess.Popen(["taskset", "-c", cpu, "sh", "-c", "while :; do :; done"])
    kstatsctl("trace", "--keep", "ktarget_sigstale", "--name", name, "--split", "--mechanism", MECH)
    try:
        # The writer handles SIGUSR1: it stays pending through the calls.
        subprocess.run(["taskset", "-c", cpu, "python3", "-c",
                        "import signal\n"
                        "signal.signal(signal.SIGUSR1, lambda *a: None)\n"
                        "open('%s', 'w').write('sigstale 1000 20\\n')\n" % CTL], check=True)
        got = show(name)
    finally:
        kstatsctl("untrace", name)
        spinner.kill()
        spinner.wait()
    calls = got[name][0]
    runq, blocked = got["RUNQ-" + name][1], got["BLOCKED-" + name][1]
    tap(calls == 20 and blocked == 0 and runq > 0,
        "schedule() with a signal pending beside a spinner, 20 calls (%d): BLOCKED "
        "%.0f ns, exactly 0; RUNQ %.0f ns, > 0" % (calls, blocked, runq))


def main():
    wall, parts = traced("ktarget_sleep", "t.split.sleep", "sleep 2000 100")
    tap(parts["BLOCKED"][1] >= 0.95 * 2000e3 * wall[0],
        "sleeping calls: BLOCKED %.0f ns per call, >= 95 %% of the 2 ms slept"
        % (parts["BLOCKED"][1] / max(wall[0], 1)))
    # The code around the sleeps (timers, wakeup, the probes) runs on a
    # CPU: under KASAN and lockdep it costs several times more (11 to 16 %
    # measured); a blocked time taken for on-CPU time would be ~100 %.
    oncpu_max = 0.25 if os.environ.get("KSTATS_LANE") == "debug" else 0.10
    tap(parts["ONCPU"][1] <= oncpu_max * wall[1],
        "sleeping calls: on a CPU %.1f %% of the wall time, <= %d %%"
        % (100 * parts["ONCPU"][1] / max(wall[1], 1), 100 * oncpu_max))

    wall, parts = traced("ktarget_busy", "t.split.busy", "busy 1000 200")
    tap(parts["ONCPU"][1] >= 0.95 * wall[1],
        "busy calls: on a CPU %.1f %% of the wall time, >= 95 %%"
        % (100 * parts["ONCPU"][1] / max(wall[1], 1)))

    cpu = str(os.cpu_count() - 1)
    hog = start_hog(cpu)
    try:
        wall, parts = traced("ktarget_busy", "t.split.hog", "busy 1000 200", pin=cpu)
    finally:
        hog.kill()
        hog.wait()
    tap(parts["RUNQ"][1] > 0,
        "busy calls beside a SCHED_FIFO hog on their CPU: RUNQ %.0f ns in all, > 0"
        % parts["RUNQ"][1])
    tap(parts["BLOCKED"][1] == 0,
        "busy calls beside the hog: BLOCKED %.0f ns, exactly 0" % parts["BLOCKED"][1])

    sigstale(cpu)

    if MECH == "kretprobe":
        # Sections (kprobes on both ends), on every CPU, each moving to the
        # next CPU half way: the parts still account for every section.
        traced("section", "t.split.sec", "section 1000 20",
               how=("--start", "ktarget_sec_start", "--end", "ktarget_sec_end"))

    vs_thread_time()
    runq_vs_schedstat()
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())

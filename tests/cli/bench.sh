#!/usr/bin/env bash
# 'make -C cli bench': how long 'kstatsctl show' takes, in every format, on
# a synthetic snapshot of 64 CPUs x every slot of frac_bits 5 (1920 slots,
# the most a metric has: 122,880 non-empty per-CPU slots), read from a
# file. Each figure is the best of RUNS (default 10) runs of the whole
# command, output to /dev/null: elapsed time, and CPU time (user + system,
# which other load on the machine does not inflate). Target: under 20 ms
# for every format; the --per-cpu lines, which print 64 times as much, are
# given for information.
#
# Then a day-long HdrHistogram interval log (gen_hlogs.py --day: 86,400
# intervals of 1 s x 4 tags, about 37 MB, as cli-w3.md section 4 made it):
# summary, show of one tag, a heatmap, and summary of an hour of it
# (--from/--to). Each the best of 3 runs: elapsed time and maximum
# resident memory (of that run alone, wait4). Target: each under 2 s and
# 100 MB.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
cli=$(cd "$here/../../cli" && pwd)
snap=$cli/build/bench.ksnap
"$cli/build/gen_snapshots" --bench "$snap"
py=/usr/bin/python3
[[ -x $py ]] || py=python3
day=$cli/build/day.hlog
(cd "$here" && "$py" gen_hlogs.py --day "$day")
"$py" - "$cli/kstatsctl" "$day" <<'PY'
import os, subprocess, sys, time
bin, day = sys.argv[1], sys.argv[2]
cases = ["summary -i DAY", "show -i DAY svc.m0 -f percentiles",
         "plot heatmap DAY svc.m0 -o /dev/null", "--from 12h --to 13h summary -i DAY"]
print(f"kstatsctl on a day-long interval log: 86400 intervals x 4 tags "
      f"({os.path.getsize(day)} bytes), best of 3")
print(f"  {'command':<40} {'elapsed':>9} {'max RSS':>10}")
met = True
with open(os.devnull, "w") as null:
    for case in cases:
        wall = rss = float("inf")
        for _ in range(3):
            t0 = time.perf_counter()
            p = subprocess.Popen([bin, *case.replace("DAY", day).split()], stdout=null)
            _, status, ru = os.wait4(p.pid, 0)
            t = time.perf_counter() - t0
            if status:
                sys.exit(f"{case}: exit status {status}")
            wall, rss = min(wall, t), min(rss, ru.ru_maxrss / 1024)
        ok = wall < 2 and rss < 100
        met &= ok
        print(f"  {case.replace('DAY', 'day.hlog'):<40} {wall:7.2f} s {rss:7.1f} MB"
              f"{'' if ok else '  (over 2 s or 100 MB)'}")
print(f"day-long log: target < 2 s and < 100 MB each: {'met' if met else 'NOT met'}")
PY
echo
exec "$py" - "$cli/kstatsctl" "$snap" "${RUNS:-10}" <<'PY'
import os, resource, subprocess, sys, time
bin, snap, runs = sys.argv[1], sys.argv[2], int(sys.argv[3])
cases = ["hist", "percentiles", "cdf", "raw", "json", "csv", "prometheus",
         "hist --per-cpu", "json --per-cpu", "csv --per-cpu", "prometheus --per-cpu"]
print(f"kstatsctl show -i bench.ksnap: 64 CPUs x 1920 non-empty slots "
      f"({os.path.getsize(snap)} bytes), best of {runs}")
print(f"  {'-f FORMAT':<26} {'elapsed':>10} {'cpu':>10}")
worst = 0.0
with open(os.devnull, "w") as null:
    for case in cases:
        wall = cpu = float("inf")
        for _ in range(runs):
            r0 = resource.getrusage(resource.RUSAGE_CHILDREN)
            t0 = time.perf_counter()
            subprocess.run([bin, "show", "-i", snap, "-f", *case.split()],
                           stdout=null, check=True)
            t = time.perf_counter() - t0
            r1 = resource.getrusage(resource.RUSAGE_CHILDREN)
            c = (r1.ru_utime - r0.ru_utime) + (r1.ru_stime - r0.ru_stime)
            wall, cpu = min(wall, t), min(cpu, c)
        per_cpu = "--per-cpu" in case
        if not per_cpu:
            worst = max(worst, cpu * 1e3)
        flag = "  (over 20 ms)" if cpu * 1e3 >= 20 and not per_cpu else ""
        if per_cpu:
            flag = "  (64 histograms: for information)"
        print(f"  {case:<26} {wall * 1e3:8.2f} ms {cpu * 1e3:7.2f} ms{flag}")
print(f"slowest format: {worst:.2f} ms of CPU time; target < 20 ms: "
      f"{'met' if worst < 20 else 'NOT met'}")
PY

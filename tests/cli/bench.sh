#!/usr/bin/env bash
# 'make -C cli bench': how long 'kstatsctl show' takes, in every format, on
# a synthetic snapshot of 64 CPUs x every slot of frac_bits 5 (1920 slots,
# the most a metric has: 122,880 non-empty per-CPU slots), read from a
# file. Each figure is the best of RUNS (default 10) runs of the whole
# command, output to /dev/null: elapsed time, and CPU time (user + system,
# which other load on the machine does not inflate). Target: under 20 ms
# for every format; the --per-cpu lines, which print 64 times as much, are
# given for information.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
cli=$(cd "$here/../../cli" && pwd)
snap=$cli/build/bench.ksnap
"$cli/build/gen_snapshots" --bench "$snap"
py=/usr/bin/python3
[[ -x $py ]] || py=python3
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

#!/usr/bin/env python3
"""A timer interrupt every 20 ms on every CPU, until killed: what a busy
machine has and an idle TCG guest lacks (make check's time, PREEMPT_RT).

PREEMPT_RT's RCU Tasks Trace (6.12) sleeps between its holdout scans in
schedule_hrtimeout_range() with HZ/2 of slack: the timer may fire anywhere
in that range, and fires at its end when no other timer interrupt comes
first. In an idle guest none does, so each uprobe untrace (its
synchronize_rcu_tasks_trace()) waits 2-2.5 s with the guest idle. Any
hrtimer interrupt on that CPU after the soft expiry runs the sleeper's
timer too: one sleeping thread per CPU bounds each scan's extra wait by
20 ms. Nothing waits on this program; it synchronises nothing.
Usage: timer_tick.py &   (main-tests.sh starts it on the -rt lanes)
"""
import os
import threading
import time


def tick(cpu):
    os.sched_setaffinity(0, {cpu})  # this thread only
    while True:
        time.sleep(0.02)


for cpu in sorted(os.sched_getaffinity(0)):
    threading.Thread(target=tick, args=(cpu,), daemon=True).start()
threading.Event().wait()

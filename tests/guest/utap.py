# SPDX-License-Identifier: GPL-2.0
"""What the user-space suites share (uprobe_test.py, uvalue_test.py,
usdt_test.py, run from the repository root with the lane's build directory
as their argument): TAP lines, and kstatsctl run and read."""
import json
import os
import subprocess
import sys

KCTL = [os.path.join(sys.argv[1], "../../cli/kstatsctl"), "--no-autoload"]
failed = False


def ok(cond, what, diag=None):
    """A TAP line; a failure's diagnostics as comments. Returns @cond."""
    global failed
    print(("ok - " if cond else "not ok - ") + what)
    if not cond:
        failed = True
        if diag:
            for line in str(diag).splitlines():
                print("# " + line)
    return cond


def ctl(*args):
    """kstatsctl's status and output, its wrapped lines joined (80 columns)."""
    p = subprocess.run(KCTL + list(args), capture_output=True, text=True, timeout=120)
    return p.returncode, " ".join((p.stdout + p.stderr).split())


def metric(name):
    """NAME's metric as show -j gives it, or None."""
    rc, out = ctl("-j", "show", name)
    return json.loads(out)["metrics"][0] if rc == 0 else None

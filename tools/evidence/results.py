# SPDX-License-Identifier: MIT
"""Results of the last `make test` run (build/test-logs/*.log)."""
import glob
import os
import re
import time

from section import Section


def run(root, build, fast):
    s = Section("tests", "Test results of the last run", enforced=False)
    logs = sorted(glob.glob(os.path.join(build, "test-logs", "*.log")))
    if not logs:
        s.skipped = True
        s.note("No test run found: run `make test` before `make evidence`.")
        return s
    rows, tp, tf = [], 0, 0
    for log in logs:
        text = open(log, encoding="utf-8", errors="replace").read()
        p = len(re.findall(r"^(?:ok \d+|PASS: )", text, re.M))
        f = len(re.findall(r"^(?:not ok \d+|FAIL: )", text, re.M))
        tp, tf = tp + p, tf + f
        when = time.strftime("%Y-%m-%d %H:%M", time.gmtime(os.path.getmtime(log)))
        rows.append([os.path.basename(log)[:-4], p, f, when])
        for line in re.findall(r"^(?:not ok \d+|FAIL: ).*$", text, re.M)[:20]:
            s.error("%s: %s" % (os.path.basename(log)[:-4], line))
    s.figure("passed", tp)
    s.figure("failed", tf)
    s.figure("programs and suites", len(logs))
    s.table("Per program or suite", ["name", "passed", "failed", "run at (UTC)"], rows)
    return s

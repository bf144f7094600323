#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Builds the certification evidence report (docs/safety/README.md).

  evidence.py --build DIR --full    every section; index.html + summary.txt
  evidence.py --build DIR --fast    the enforced sections only, PASS:/FAIL:
  evidence.py --build DIR --only misra,stack   chosen sections

Exit status 1 when an enforced section fails.
"""
import argparse
import json
import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import coverage  # noqa: E402
import loops  # noqa: E402
import misra  # noqa: E402
import report  # noqa: E402
import reqs  # noqa: E402
import restart  # noqa: E402
import results  # noqa: E402
import spin  # noqa: E402
import stack  # noqa: E402

SECTIONS = [
    ("misra", misra.run, True),
    ("requirements", reqs.run, True),
    ("stack", stack.run, True),
    ("loops", loops.run, True),
    ("coverage", coverage.run, True),
    ("spin", spin.run, False),
    ("restart", restart.run, False),
    ("tests", results.run, False),
]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--build", required=True)
    ap.add_argument("--full", action="store_true")
    ap.add_argument("--fast", action="store_true")
    ap.add_argument("--only", default="")
    a = ap.parse_args()
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    build = os.path.abspath(a.build)
    outdir = os.path.join(build, "evidence")
    os.makedirs(outdir, exist_ok=True)
    only = set(x for x in a.only.split(",") if x)
    fast = a.fast and not a.full
    done = []
    failed = False
    for key, fn, in_fast in SECTIONS:
        if only and key not in only:
            continue
        if fast and not in_fast:
            continue
        t0 = time.time()
        try:
            s = fn(root, build, fast)
        except Exception as e:  # a broken tool is a failed section, not a crash
            from section import Section
            s = Section(key, key, True)
            s.error("%s: %s: %s" % (key, type(e).__name__, e))
        s.figure("time (s)", "%.1f" % (time.time() - t0))
        done.append(s)
        if s.enforced and not s.ok:
            failed = True
        if fast:
            if s.errors:
                print("  %d problem(s); how to fix or record them: docs/safety/README.md"
                      % len(s.errors))
            for e in s.errors[:200]:
                print("  " + e)
            # A section that did not run is a skip, which fails make test.
            v = s.verdict()
            print("%s: evidence/%s" % ("SKIP" if v == "NOT RUN" else v, key))
        else:
            print("%-14s %s  %s" % (key, s.verdict(),
                                   ", ".join("%s %s" % (v, k) for k, v in s.figures[:4])))
    data = [s.to_dict() for s in done]
    name = "fast" if fast else "full"
    with open(os.path.join(outdir, "evidence-%s.json" % name), "w") as f:
        json.dump(data, f, indent=1)
    if not fast and not only:
        report.write(root, outdir, data)
        print("wrote %s and %s" % (os.path.join(outdir, "index.html"),
                                   os.path.join(outdir, "summary.txt")))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())

# SPDX-License-Identifier: MIT
"""Crash-to-restart time of a partition, from the last `make bench-restart`.

tools/bench/restart.sh runs the restart scenario's configuration under QEMU
-icount shift=0,sleep=off and writes build/bench/restart.csv: the time from
the hypervisor's crash handling to the restarted incarnation's first
instruction, in instructions (deterministic). Reported, not enforced: the
restart scenario itself (tests/robust) checks the behaviour.
"""
import csv
import os
import time

from section import Section


def run(root, build, fast):
    s = Section("restart", "Crash-to-restart time (make bench-restart)", enforced=False)
    path = os.path.join(build, "bench", "restart.csv")
    try:
        rows = list(csv.DictReader(open(path, encoding="utf-8")))
    except OSError:
        s.skipped = True
        s.note("No build/bench/restart.csv: run `make bench-restart` (about a minute).")
        return s
    if not rows or "crash_to_first_insn_insns" not in rows[0]:
        s.error("%s has no crash_to_first_insn_insns column" % path)
        return s
    r = rows[0]
    s.figure("crash to first instruction (instructions)", r["crash_to_first_insn_insns"])
    s.figure("partition RAM scrubbed and reloaded (KiB)", r.get("ram_kib", ""))
    s.figure("QEMU", "-icount shift=0,sleep=off, GICv%s, %s" % (r.get("gic", "?"),
                                                               r.get("cpu", "?")))
    s.figure("measured at (UTC)", time.strftime("%Y-%m-%d %H:%M",
                                                time.gmtime(os.path.getmtime(path))))
    s.table("build/bench/restart.csv", list(rows[0].keys()), [list(x.values()) for x in rows])
    s.note("From domain_crash() (after the exception entry and fault decoding) to the new "
           "incarnation's first instruction, precise to one counter tick (16 "
           "instructions); see tools/bench/restart.sh and docs/performance.md.")
    return s

# SPDX-License-Identifier: MIT
"""Spin model checking of docs/models/*.pml: every ltl claim, no errors."""
import glob
import os
import re
import shutil
import subprocess
import tempfile

from section import Section


def check(model, claim, timeout):
    work = tempfile.mkdtemp(prefix="spin-")
    try:
        shutil.copy(model, work)
        cmd = ["timeout", str(timeout), "spin", "-run", "-m100000"]
        if claim:
            cmd += ["-ltl", claim]
        cmd.append(os.path.basename(model))
        p = subprocess.run(cmd, cwd=work, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                           universal_newlines=True)
        out = p.stdout
        m = re.search(r"errors:\s*(\d+)", out)
        st = re.search(r"([\d.e+]+) states, stored", out)
        return (p.returncode, int(m.group(1)) if m else None,
                st.group(1) if st else "?", out[-400:])
    finally:
        shutil.rmtree(work, ignore_errors=True)


def run(root, build, fast):
    s = Section("spin", "Spin models", enforced=False)
    models = sorted(glob.glob(os.path.join(root, "docs", "models", "*.pml")))
    if not models:
        s.skipped = True
        s.note("No models under docs/models/ yet.")
        return s
    rows, bad = [], 0
    for m in models:
        text = open(m, encoding="utf-8", errors="replace").read()
        claims = re.findall(r"^\s*ltl\s+(\w+)", text, re.M) or [""]
        for c in claims:
            rc, errs, states, tail = check(m, c, 300)
            ok = errs == 0 and rc == 0
            bad += 0 if ok else 1
            rows.append([os.path.relpath(m, root), c or "(safety)", states,
                         "?" if errs is None else errs, "PASS" if ok else "FAIL"])
            if not ok:
                s.error("%s %s: errors %s (status %d): %s" % (os.path.basename(m), c, errs, rc,
                                                              tail.strip()[-200:]))
    s.figure("models", len(models))
    s.figure("claims checked", len(rows))
    s.figure("claims failing", bad)
    s.table("Results", ["model", "claim", "states stored", "errors", "verdict"], rows)
    return s

# SPDX-License-Identifier: MIT
"""Statement and branch coverage of the host-built common code (gcov/gcovr).

The unit tests linked with the `cov` host variant (-O0 --coverage) are run
afresh; gcovr reports per file. Targets (issue 6), enforced by `make test`:
100% statements and at least 90% branches for common/gnttab and
common/evtchn. Code excluded with gcovr's markers must name a row of
docs/safety/coverage-exclusions.md (`GCOVR_EXCL_START COV-NNN`); the
section counts the excluded lines per row and fails on an unregistered or
unbalanced marker and on a row that no marker uses.
"""
import glob
import json
import os
import re
import subprocess

from section import Section

TARGETS = {"common/gnttab": (100.0, 90.0), "common/evtchn": (100.0, 90.0)}
REGISTER = "docs/safety/coverage-exclusions.md"
ROW_RE = re.compile(r"^\|\s*(COV-\d+)\s*\|\s*([^|]*?)\s*\|\s*([^|]*?)\s*\|\s*(.*?)\s*\|\s*$")
MARK_RE = re.compile(r"GCOVR_EXCL_(BR_)?(LINE|START|STOP)\b[:\s]*(COV-\d+)?")


def read_register(root):
    rows = {}
    try:
        for line in open(os.path.join(root, REGISTER), encoding="utf-8"):
            m = ROW_RE.match(line)
            if m:
                rows[m.group(1)] = {"kind": m.group(2), "where": m.group(3),
                                    "why": m.group(4), "lines": 0, "places": []}
    except OSError:
        pass
    return rows


def scan_markers(root, rows):
    """Count excluded source lines per register row; return problems."""
    problems = []
    for path in sorted(glob.glob(os.path.join(root, "common", "**", "*.[ch]"), recursive=True)):
        rel = os.path.relpath(path, root)
        open_at = None
        for n, line in enumerate(open(path, encoding="utf-8", errors="replace"), 1):
            m = MARK_RE.search(line)
            if not m:
                continue
            kind, cid = m.group(2), m.group(3)
            if kind == "STOP":
                if open_at is None:
                    problems.append("%s:%d: GCOVR_EXCL_STOP without a START" % (rel, n))
                else:
                    start, scid = open_at
                    if scid in rows:
                        rows[scid]["lines"] += n - start - 1
                        rows[scid]["places"].append("%s:%d-%d" % (rel, start + 1, n - 1))
                    open_at = None
                continue
            if cid is None or cid not in rows:
                problems.append("%s:%d: exclusion marker names no row of %s (%s)"
                                % (rel, n, REGISTER, cid or "no COV id"))
            if kind == "START":
                if open_at is not None:
                    problems.append("%s:%d: nested GCOVR_EXCL_START" % (rel, n))
                open_at = (n, cid)
            elif cid in rows:
                rows[cid]["lines"] += 1
                rows[cid]["places"].append("%s:%d" % (rel, n))
        if open_at is not None:
            problems.append("%s:%d: GCOVR_EXCL_START without a STOP" % (rel, open_at[0]))
    for cid, r in sorted(rows.items()):
        if not r["places"]:
            problems.append("%s in %s is used by no marker: remove the row" % (cid, REGISTER))
    return problems


def pct(c, t):
    return 100.0 * c / t if t else 100.0


def run(root, build, fast):
    s = Section("coverage", "Coverage of the common code by the host unit tests", enforced=True)
    objdir = os.path.join(build, "host", "cov", "obj")
    bins = sorted(b for b in glob.glob(os.path.join(build, "host", "cov-tests", "test_*"))
                  if "." not in os.path.basename(b) and os.access(b, os.X_OK))
    if not bins:
        s.error("no coverage test programs: run `make coverage-bins`")
        return s
    for g in glob.glob(os.path.join(objdir, "**", "*.gcda"), recursive=True):
        os.unlink(g)
    failed = []
    env = dict(os.environ, CMOCKA_MESSAGE_OUTPUT="TAP")
    for b in bins:
        p = subprocess.run(["timeout", "600", b], stdout=subprocess.DEVNULL,
                           stderr=subprocess.DEVNULL, env=env)
        if p.returncode != 0:
            failed.append(os.path.basename(b))
    out = os.path.join(build, "evidence", "coverage.json")
    cmd = ["gcovr", "-r", root, "--object-directory", objdir, "--filter", os.path.join(root, "common/"),
           "--exclude-unreachable-branches", "--json-summary", out]
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                       universal_newlines=True)
    if p.returncode != 0:
        s.error("gcovr failed: " + p.stdout[-500:])
        return s
    data = json.load(open(out))
    rows, dirs = [], {}
    for f in sorted(data["files"], key=lambda x: x["filename"]):
        name = f["filename"]
        rows.append([name, f["line_covered"], f["line_total"],
                     "%.1f" % pct(f["line_covered"], f["line_total"]),
                     f["branch_covered"], f["branch_total"],
                     "%.1f" % pct(f["branch_covered"], f["branch_total"])])
        d = os.path.dirname(name)
        acc = dirs.setdefault(d, [0, 0, 0, 0])
        for i, k in enumerate(("line_covered", "line_total", "branch_covered", "branch_total")):
            acc[i] += f[k]
    s.figure("statements", "%.1f%% (%d/%d)" % (data["line_percent"], data["line_covered"],
                                                data["line_total"]))
    s.figure("branches", "%.1f%% (%d/%d)" % (data["branch_percent"], data["branch_covered"],
                                              data["branch_total"]))
    s.figure("test programs run", len(bins))
    trows = []
    for d, (lt, st) in sorted(TARGETS.items()):
        acc = dirs.get(d)
        if acc is None:
            trows.append([d, "-", "-", "%g%% / %g%%" % (lt, st), "NOT YET BUILT"])
            continue
        lp, bp = pct(acc[0], acc[1]), pct(acc[2], acc[3])
        ok = lp >= lt and bp >= st
        trows.append([d, "%.1f%%" % lp, "%.1f%%" % bp, "%g%% / %g%%" % (lt, st),
                      "PASS" if ok else "FAIL"])
        s.figures.insert(len(trows) - 1, ("%s statements / branches" % d,
                                         "%.1f%% / %.1f%% (target %g%% / %g%%)"
                                         % (lp, bp, lt, st)))
        if not ok:
            s.error("%s: statements %.1f%%, branches %.1f%% below the %g%%/%g%% target"
                    % (d, lp, bp, lt, st))
    s.table("Targets", ["directory", "statements", "branches", "target", "verdict"], trows)
    s.table("Per directory", ["directory", "statements", "branches"],
            [[d, "%.1f%% (%d/%d)" % (pct(a[0], a[1]), a[0], a[1]),
              "%.1f%% (%d/%d)" % (pct(a[2], a[3]), a[2], a[3])] for d, a in sorted(dirs.items())])
    s.table("Per file", ["file", "stmts hit", "stmts", "stmt %", "branches hit",
                         "branches", "branch %"], rows)
    rows_reg = read_register(root)
    for p in scan_markers(root, rows_reg):
        s.error(p)
    s.figure("excluded lines (%s)" % REGISTER,
             "%d in %d places, %d rows" % (sum(r["lines"] for r in rows_reg.values()),
                                          sum(len(r["places"]) for r in rows_reg.values()),
                                          len(rows_reg)))
    s.table("Exclusions (%s)" % REGISTER, ["id", "kind", "lines", "places", "justification"],
            [[cid, r["kind"], r["lines"], " ".join(r["places"]), r["why"]]
             for cid, r in sorted(rows_reg.items())])
    s.note("Enforced by `make test`: the targets of issue 6 for common/gnttab and "
           "common/evtchn, after the registered exclusions (gcovr markers).")
    if failed:
        s.error("coverage test programs failed: " + ", ".join(failed))
    return s

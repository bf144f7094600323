# SPDX-License-Identifier: MIT
"""Requirements traceability: docs/requirements/*.md against the tests.

A requirement is `- **REQ-AREA-NNN**: text`. Tests name what they verify:
C `VERIFIES(REQ-..., ...)` before the test function, scripts
`# VERIFIES: REQ-... ...`. Fails on a live requirement no test names, on a
test naming an unknown (or withdrawn) ID, and on a duplicated ID.
"""
import glob
import os
import re

from section import Section

REQ_RE = re.compile(r"^\s*-\s+\*\*(REQ-[A-Z0-9]+(?:-[A-Z0-9]+)*-\d+)\*\*:\s*(.*)$")
LOOSE_RE = re.compile(r"\*\*REQ-")
ID_RE = re.compile(r"REQ-[A-Z0-9]+(?:-[A-Z0-9]+)*-\d+")
C_RE = re.compile(r"^\s*VERIFIES\(([^)]*)\)\s*$")
# A block comment's continuation line (` * VERIFIES: ...`) counts too.
SH_RE = re.compile(r"^\s*(?:#|//|/\*|\*)\s*VERIFIES:\s*(.*)$")
FUNC_RE = re.compile(r"^\s*(?:static\s+)?[A-Za-z_][\w\s\*]*?\b([A-Za-z_]\w*)\s*\(")
TEST_DIRS = ("tests", "guests", "docs/models")
# Requirements whose tests are still being written: listed, reported, not failed.
PENDING = "docs/safety/requirements-pending.md"
PENDING_RE = re.compile(r"^\s*-\s+(REQ-[A-Z0-9]+(?:-[A-Z0-9]+)*-\d+):\s*(\S.*)$")


def read_requirements(root):
    reqs, errors = {}, []
    for path in sorted(glob.glob(os.path.join(root, "docs", "requirements", "*.md"))):
        rel = os.path.relpath(path, root)
        if os.path.basename(path) == "README.md":
            continue
        with open(path, encoding="utf-8") as f:
            for n, line in enumerate(f, 1):
                m = REQ_RE.match(line)
                if not m:
                    if LOOSE_RE.search(line):
                        errors.append("%s:%d: malformed requirement line" % (rel, n))
                    continue
                rid, text = m.group(1), m.group(2).strip()
                if rid in reqs:
                    errors.append("%s:%d: duplicate %s (also %s)" % (rel, n, rid, reqs[rid]["at"]))
                    continue
                reqs[rid] = {"text": text, "at": "%s:%d" % (rel, n),
                             "withdrawn": "(withdrawn)" in text, "tests": []}
    return reqs, errors


def test_files(root):
    for top in TEST_DIRS:
        for dirpath, dirnames, files in os.walk(os.path.join(root, top)):
            dirnames.sort()
            # Fuzz corpora are binary inputs, not tests that trace anything.
            dirnames[:] = [d for d in dirnames if d != "corpus"]
            for f in sorted(files):
                path = os.path.join(dirpath, f)
                if os.path.getsize(path) < 1000000:
                    yield path


def read_traces(root):
    """(test name, file:line, [ids]) for every VERIFIES marker."""
    out = []
    for path in test_files(root):
        rel = os.path.relpath(path, root)
        try:
            lines = open(path, encoding="utf-8", errors="replace").read().split("\n")
        except OSError:
            continue
        for i, line in enumerate(lines):
            m = C_RE.match(line)
            if m and "..." not in m.group(1):
                ids = [x.strip() for x in m.group(1).split(",") if x.strip()]
                name = rel
                for nxt in lines[i + 1:i + 4]:
                    fm = FUNC_RE.match(nxt)
                    if fm:
                        name = "%s:%s" % (rel, fm.group(1))
                        break
                out.append((name, "%s:%d" % (rel, i + 1), ids))
                continue
            m = SH_RE.match(line)
            if m:
                # IDs, then free text (a model's path, say) that names none.
                ids = [x.rstrip(".,;:") for x in re.split(r"[\s,]+", m.group(1))
                       if x.startswith("REQ")]
                out.append((rel, "%s:%d" % (rel, i + 1), ids))
    return out


def run(root, build, fast):
    s = Section("requirements", "Requirements traceability matrix", enforced=True)
    reqs, errors = read_requirements(root)
    traces = read_traces(root)
    for e in errors:
        s.error(e)
    for name, at, ids in traces:
        for rid in ids:
            if not ID_RE.fullmatch(rid):
                s.error("%s: malformed requirement ID %r" % (at, rid))
            elif rid not in reqs:
                s.error("%s: %s names unknown requirement %s" % (at, name, rid))
            elif reqs[rid]["withdrawn"]:
                s.error("%s: %s names withdrawn requirement %s" % (at, name, rid))
            elif name not in reqs[rid]["tests"]:
                reqs[rid]["tests"].append(name)
    live = {k: v for k, v in reqs.items() if not v["withdrawn"]}
    pending = {}
    try:
        for line in open(os.path.join(root, PENDING), encoding="utf-8"):
            m = PENDING_RE.match(line)
            if m:
                pending[m.group(1)] = m.group(2)
    except OSError:
        pass
    untested = sorted(k for k, v in live.items() if not v["tests"])
    waived = [k for k in untested if k in pending]
    for rid in untested:
        if rid not in pending:
            s.error("%s (%s) has no test" % (rid, live[rid]["at"]))
    stale = sorted(k for k in pending if k not in untested)
    if stale:
        s.note("Listed in %s but now tested or gone (remove them): %s" %
               (PENDING, ", ".join(stale)))
    if waived:
        s.table("Pending: requirements whose tests are not written yet (%s)" % PENDING,
                ["requirement", "text", "why"],
                [[k, live[k]["text"], pending[k]] for k in waived])
    areas = {}
    for rid in live:
        a = rid.split("-")[1]
        areas.setdefault(a, [0, 0])
        areas[a][0] += 1
        areas[a][1] += 1 if live[rid]["tests"] else 0
    s.figure("requirements", len(live))
    s.figure("withdrawn", len(reqs) - len(live))
    s.figure("verified by a test", len(live) - len(untested))
    s.figure("without a test", len(untested))
    s.figure("of which pending (listed)", len(waived))
    s.figure("test trace markers", len(traces))
    s.table("Per area", ["area", "requirements", "with tests"],
            [[a, n, t] for a, (n, t) in sorted(areas.items())])
    s.table("Matrix", ["requirement", "text", "tests"],
            [[rid, v["text"], "; ".join(v["tests"]) or "NONE"]
             for rid, v in sorted(reqs.items())])
    if not reqs:
        s.error("no requirements found under docs/requirements/")
    return s

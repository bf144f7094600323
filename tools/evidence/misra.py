# SPDX-License-Identifier: MIT
"""MISRA C:2012 section: cppcheck's MISRA addon against the deviation register.

Every violation must match a row of docs/safety/misra-deviations.md (rule,
file glob, optional regex on the offending source line); one that does not
fails the section. Inline cppcheck suppressions are not honoured, so the
register is the only way to accept a violation.
"""
import fnmatch
import os
import re
import subprocess

from section import Section

REGISTER = "docs/safety/misra-deviations.md"
# The former list of violations awaiting a fix. It is gone: every violation is
# fixed or deviated, so the file must not come back as a second register.
RETIRED = "docs/safety/misra-pending.md"

# MISRA C:2012 (Amendment 2) rule categories. Mandatory rules admit no
# deviation; advisory ones may be disapplied with a recorded reason.
MANDATORY = {
    "9.1", "12.5", "13.6", "17.3", "17.4", "17.6", "19.1", "21.13", "21.17",
    "21.18", "21.19", "21.20", "22.2", "22.4", "22.5", "22.6", "22.8", "22.9",
    "22.10",
}
ADVISORY = {
    "1.2", "2.3", "2.4", "2.5", "2.6", "2.7", "4.2", "5.9", "8.7", "8.9", "8.11",
    "8.13", "10.5", "11.4", "11.5", "12.1", "12.3", "12.4", "13.3", "13.4",
    "15.1", "15.4", "15.5", "17.5", "17.8", "18.5", "19.2", "20.1", "20.5",
    "20.10", "21.12",
}


def category(rule):
    if rule in MANDATORY:
        return "mandatory"
    if rule in ADVISORY:
        return "advisory"
    return "required"


def rule_key(rule):
    return tuple(int(x) if x.isdigit() else 0 for x in rule.split("."))


def sources(root):
    """Hypervisor C sources: common/ and arch/ except the host test shim."""
    out = []
    for top in ("common", "arch"):
        for dirpath, dirnames, files in os.walk(os.path.join(root, top)):
            rel = os.path.relpath(dirpath, root)
            if rel == os.path.join("arch", "host") or rel.startswith("arch/host/"):
                dirnames[:] = []
                continue
            dirnames.sort()
            out += [os.path.join(rel, f) for f in sorted(files) if f.endswith(".c")]
    return out


def parse_register(root, register=REGISTER, prefix="DEV-", min_reason=20):
    """Rows `| DEV-NNN | rule | `glob`, ... | `regex` or empty | reason |`."""
    devs, errors = [], []
    path = os.path.join(root, register)
    if not os.path.exists(path):
        return devs, ["no deviation register " + register]
    with open(path, encoding="utf-8") as f:
        for n, line in enumerate(f, 1):
            if not line.startswith("| " + prefix):
                continue
            # Markdown cells; a literal | inside a cell is written \|.
            cells = [c.strip().replace("\\|", "|")
                     for c in re.split(r"(?<!\\)\|", line.strip()[1:-1])]
            if len(cells) != 5:
                errors.append("%s:%d: expected 5 columns" % (register, n))
                continue
            did, rule, files, pattern, reason = cells
            globs = re.findall(r"`([^`]+)`", files)
            pat = re.findall(r"`([^`]+)`", pattern)
            if not re.fullmatch(r"\d+\.\d+", rule) or not globs or len(reason) < min_reason:
                errors.append("%s:%d: %s needs a rule, file globs and a reason" %
                              (register, n, did))
                continue
            if category(rule) == "mandatory":
                errors.append("%s:%d: %s deviates mandatory rule %s" %
                              (register, n, did, rule))
                continue
            try:
                rx = re.compile(pat[0]) if pat else None
            except re.error as e:
                errors.append("%s:%d: %s: bad pattern: %s" % (register, n, did, e))
                continue
            devs.append({"id": did, "rule": rule, "globs": globs, "rx": rx,
                         "pattern": pat[0] if pat else "", "reason": reason, "used": 0})
    return devs, errors


def drop_stale(root, cache):
    """cppcheck's build directory keys a file's results on its preprocessed
    tokens, so a change to comments alone (a LOOP-BOUND note, say) keeps the
    old results with the old line numbers. Drop a source's cached results
    when the source, or any header it may include, is newer than them: a
    header's shifted lines left stale across translation units show up as
    rule 8.5 (one declaration, two places)."""
    try:
        entries = open(os.path.join(cache, "files.txt")).read().split("\n")
    except OSError:
        return
    headers = 0.0
    for top in ("include", "common", "arch"):
        for dirpath, _, names in os.walk(os.path.join(root, top)):
            for n in names:
                if n.endswith(".h"):
                    headers = max(headers, os.path.getmtime(os.path.join(dirpath, n)))
    for e in entries:
        parts = e.split(":")
        if len(parts) < 3 or not parts[0]:
            continue
        a1 = os.path.join(cache, parts[0])
        src = os.path.join(root, parts[-1])
        try:
            stale = max(os.path.getmtime(src), headers) > os.path.getmtime(a1)
        except OSError:
            continue
        if stale:
            for f in os.listdir(cache):
                if f == parts[0] or f.startswith(parts[0] + ".") or \
                        f == os.path.splitext(parts[0])[0] + ".s2":
                    os.unlink(os.path.join(cache, f))


def run_cppcheck(root, build, files, jobs):
    cfg_inc = os.path.join(build, "evidence", "config", "include")
    cache = os.path.join(build, "evidence", "cppcheck")
    os.makedirs(cache, exist_ok=True)
    drop_stale(root, cache)
    cmd = ["cppcheck", "--addon=misra", "--std=c11", "-q", "--error-exitcode=0",
           "--cppcheck-build-dir=" + cache, "-j", str(jobs),
           "--template={file}\t{line}\t{column}\t{severity}\t{id}\t{message}",
           "-D__aarch64__", "-Iinclude", "-Iarch/arm/include", "-I" + cfg_inc]
    p = subprocess.run(cmd + files, cwd=root, stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, universal_newlines=True)
    return p.returncode, p.stderr + p.stdout, " ".join(cmd[:3] + ["..."])


def norm(root, path):
    if os.path.isabs(path):
        path = os.path.relpath(path, root)
    return os.path.normpath(path)


def source_line(root, path, line, cache={}):
    if path not in cache:
        try:
            with open(os.path.join(root, path), encoding="utf-8", errors="replace") as f:
                cache[path] = f.read().split("\n")
        except OSError:
            cache[path] = []
    lines = cache[path]
    return lines[line - 1] if 0 < line <= len(lines) else ""


def match(rows, v, text):
    for d in rows:
        if d["rule"] != v["rule"]:
            continue
        if not any(fnmatch.fnmatch(v["file"], g) for g in d["globs"]):
            continue
        if d["rx"] is not None and not d["rx"].search(text):
            continue
        d["used"] += 1
        return d
    return None


def run(root, build, fast):
    s = Section("misra", "MISRA C:2012 (cppcheck MISRA addon)", enforced=True)
    files = sources(root)
    devs, reg_errors = parse_register(root)
    if os.path.exists(os.path.join(root, RETIRED)):
        reg_errors.append("%s is not read any more: fix the code or add a deviation to %s"
                          % (RETIRED, REGISTER))
    rc, out, cmd = run_cppcheck(root, build, files, 2)
    viol, others, seen = [], [], set()
    for line in out.splitlines():
        parts = line.split("\t")
        if len(parts) < 6:
            continue
        path, ln, col, sev, cid, msg = parts[:6]
        path = norm(root, path)
        if not cid.startswith("misra-c2012-"):
            if cid not in ("missingInclude", "missingIncludeSystem", "checkersReport"):
                others.append((path, ln, cid, msg))
            continue
        rule = cid[len("misra-c2012-"):]
        key = (path, ln, col, rule)
        if key in seen:
            continue
        seen.add(key)
        viol.append({"file": path, "line": int(ln or 0), "col": col, "rule": rule})
    viol.sort(key=lambda v: (v["file"], v["line"], rule_key(v["rule"])))
    unjustified = []
    for v in viol:
        text = source_line(root, v["file"], v["line"])
        d = match(devs, v, text)
        if d is None:
            unjustified.append(v)
        else:
            v["dev"] = d["id"]
    rules = {}
    for v in viol:
        r = rules.setdefault(v["rule"], [0, 0])
        r[0] += 1
        r[1] += 1 if "dev" in v else 0
    s.figure("files checked", len(files))
    s.figure("violations", len(viol))
    s.figure("covered by deviations", len(viol) - len(unjustified))
    s.figure("unjustified violations", len(unjustified))
    s.figure("deviations in register", len(devs))
    s.figure("rules violated", len(rules))
    s.note("Checked: %s on %s (qemu-virt configuration); arch/host is the host "
           "test shim, not hypervisor code, and is not checked." % (cmd, "common/ and arch/"))
    s.table("Violations per rule", ["rule", "category", "violations", "deviated"],
            [[r, category(r), n, d] for r, (n, d) in sorted(rules.items(),
                                                          key=lambda x: rule_key(x[0]))])
    s.table("Deviations", ["id", "rule", "files", "line pattern", "uses", "justification"],
            [[d["id"], d["rule"], " ".join(d["globs"]), d["pattern"], d["used"], d["reason"]]
             for d in devs])
    if unjustified:
        s.table("Unjustified violations (fix them or add a deviation)",
                ["place", "rule", "category", "source"],
                [["%s:%d" % (v["file"], v["line"]), v["rule"], category(v["rule"]),
                  source_line(root, v["file"], v["line"]).strip()[:100]]
                 for v in unjustified])
    unused = [d["id"] for d in devs if d["used"] == 0]
    if unused:
        s.note("Deviations that matched nothing (stale, remove them): " + ", ".join(unused))
    if others:
        s.table("Other cppcheck findings (informative)", ["place", "id", "message"],
                [["%s:%s" % (p, l), i, m] for p, l, i, m in others])
    for e in reg_errors:
        s.error(e)
    if rc != 0:
        s.error("cppcheck exited with status %d" % rc)
    for v in unjustified:
        s.error("%s:%d: MISRA rule %s (%s) not covered by a deviation" %
                (v["file"], v["line"], v["rule"], category(v["rule"])))
    s.ok = not s.errors
    return s

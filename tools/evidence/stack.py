# SPDX-License-Identifier: MIT
"""Worst-case stack depth of every hypervisor entry point.

Inputs: gcc's -fcallgraph-info=su files (.ci: one node per function with
its frame size from -fstack-usage, one edge per call site). Entry points:
each hypercall handler of common/hypercall.c's table (and the dispatcher
itself, whose one indirect call is resolved to that table), and every C
function the assembly of arch/arm/ branches to (exception vectors, boot).
A cycle in the call graph is recursion and fails the section, as does an
unbounded dynamic frame or a worst case above CONFIG_STACK_SIZE. Indirect
calls other than the table dispatch are listed: their targets are not in
the bound, so each must be reviewed.
"""
import glob
import os
import re

from section import Section

NODE_RE = re.compile(r'^node: \{ title: "([^"]+)" label: "([^"]*)"')
EDGE_RE = re.compile(r'^edge: \{ sourcename: "([^"]+)" targetname: "([^"]+)"'
                     r'(?: label: "([^"]*)")?')
BYTES_RE = re.compile(r'\\n(\d+) bytes \(([a-z,]+)\)')
INDIRECT = "__indirect_call"


def read_graph(objdir):
    frames, quals, where, edges = {}, {}, {}, {}
    for ci in sorted(glob.glob(os.path.join(objdir, "**", "*.ci"), recursive=True)):
        with open(ci, encoding="utf-8", errors="replace") as f:
            for line in f:
                m = NODE_RE.match(line)
                if m:
                    m2 = BYTES_RE.search(m.group(2))
                    if m2:
                        frames[m.group(1)] = int(m2.group(1))
                        quals[m.group(1)] = m2.group(2)
                        where[m.group(1)] = m.group(2).split("\\n")[1]
                    continue
                m = EDGE_RE.match(line)
                if m:
                    edges.setdefault(m.group(1), []).append((m.group(2), m.group(3) or ""))
    return frames, quals, where, edges


def table_handlers(root):
    """Functions named in hypercall_table[] = { [__HYPERVISOR_x] = fn, }."""
    path = os.path.join(root, "common", "hypercall.c")
    try:
        text = open(path, encoding="utf-8").read()
    except OSError:
        return []
    m = re.search(r"hypercall_table\[[^\]]*\]\s*=\s*\{(.*?)\};", text, re.S)
    if not m:
        return []
    return ["common/hypercall.c:" + fn
            for fn in re.findall(r"\[\s*__HYPERVISOR_\w+\s*\]\s*=\s*(\w+)", m.group(1))]


def macro_branches(text):
    """Macros that branch to one of their parameters: {name: parameter index}."""
    found = {}
    for name, params, body in re.findall(r"^\s*\.macro\s+(\w+)[ \t,]*([^\n]*)\n(.*?)^\s*\.endm",
                                         text, re.S | re.M):
        names = [p.split("=")[0].split(":")[0] for p in re.split(r"[\s,]+", params) if p]
        for i, p in enumerate(names):
            if re.search(r"^\s*(?:bl|b)\s+\\%s\s*$" % re.escape(p), body, re.M):
                found[name] = i
    return found


def asm_entries(root):
    """C functions that arch/arm assembly branches to, directly or through a
    macro's parameter (`lean_call guest_hypercall`), and its frame pushes."""
    names, frame = set(), 0
    for s in sorted(glob.glob(os.path.join(root, "arch", "arm", "*.S"))):
        text = open(s, encoding="utf-8", errors="replace").read()
        text = re.sub(r"//[^\n]*|/\*.*?\*/", "", text, flags=re.S)
        names.update(re.findall(r"^\s*(?:bl|b)\s+([A-Za-z_]\w*)\s*$", text, re.M))
        for macro, i in macro_branches(text).items():
            for args in re.findall(r"^\s*%s\s+([^\n]+)$" % re.escape(macro), text, re.M):
                arg = [a for a in re.split(r"[\s,]+", args.strip()) if a]
                if i < len(arg) and re.match(r"^[A-Za-z_]\w*$", arg[i]):
                    names.add(arg[i])
        for n in re.findall(r"sub\s+sp\s*,\s*sp\s*,\s*#\s*(\d+|0x[0-9a-fA-F]+)", text):
            frame = max(frame, int(n, 0))
    return names, frame


def config_value(build, name):
    path = os.path.join(build, "evidence", "config", "include", "generated", "autoconf.h")
    try:
        for line in open(path, encoding="utf-8"):
            m = re.match(r"#define CONFIG_%s (\d+)" % name, line)
            if m:
                return int(m.group(1))
    except OSError:
        pass
    return None


def short(fn):
    return fn.split(":")[-1]


def analyse(frames, edges, entries, resolve):
    """Worst depth per entry (memoised DFS); cycles and unresolved calls."""
    memo, path, onpath = {}, [], set()
    cycles, unknown, indirect = [], set(), set()

    def callees(fn):
        out = []
        for tgt, site in edges.get(fn, []):
            if tgt == INDIRECT:
                if fn in resolve:
                    out += [(t, site) for t in resolve[fn]]
                else:
                    indirect.add((fn, site))
            else:
                out.append((tgt, site))
        return out

    def depth(fn):
        if fn in memo:
            return memo[fn]
        if fn in onpath:
            cycles.append(path[path.index(fn):] + [fn])
            return (0, [fn])
        if fn not in frames:
            unknown.add(fn)
            memo[fn] = (0, [fn])
            return memo[fn]
        onpath.add(fn)
        path.append(fn)
        best = (0, [])
        for tgt, _site in callees(fn):
            d = depth(tgt)
            if d[0] > best[0] or not best[1]:
                best = d
        path.pop()
        onpath.discard(fn)
        memo[fn] = (frames[fn] + best[0], [fn] + best[1])
        return memo[fn]

    res = {e: depth(e) for e in entries}
    return res, cycles, unknown, indirect


def run(root, build, fast):
    s = Section("stack", "Worst-case stack depth of hypervisor entry points", enforced=True)
    try:
        target = open(os.path.join(build, "evidence", "stack-target")).read().strip()
    except OSError:
        s.error("no stack-usage build: run `make evidence-stack-inputs` (part of test-build)")
        return s
    if target not in ("aarch64", "host"):
        s.error("neither the AArch64 nor the host stack-usage build compiled: see "
                "build/evidence/stack-arm.log and stack-host.log")
        return s
    if target == "aarch64":
        objdir = os.path.join(build, "evidence", "stack-arm")
        s.note("AArch64 build of common/, arch/arm/ and the qemu-virt board with the "
               "hypervisor's compiler flags (arch/arm/arm.mk) and the qemu-virt "
               "configuration, plus -fstack-usage -fcallgraph-info=su (mk/evidence.mk).")
    else:
        objdir = os.path.join(build, "host", "stack", "obj")
        s.note("STAND-IN: host (x86-64) build of common/ and arch/host/ at the qemu-virt "
               "sizes (gcc -O2 -fstack-usage -fcallgraph-info=su), because common/ and "
               "arch/arm/ do not yet all compile for AArch64 (see "
               "build/evidence/stack-arm.log). Frame sizes are indicative of, not equal "
               "to, the EL2 build's.")
    frames, quals, where, edges = read_graph(objdir)
    if not frames:
        s.error("no .ci call-graph files under " + objdir)
        return s
    handlers = table_handlers(root)
    asm_names, asm_frame = asm_entries(root)
    if target != "aarch64":
        asm_names, asm_frame = set(), 0
    entries = []
    if "hypercall_dispatch" in frames:
        entries.append("hypercall_dispatch")
    entries += [h for h in handlers if h in frames]
    entries += sorted(n for n in asm_names if n in frames)
    resolve = {"hypercall_dispatch": [h for h in handlers if h in frames]}
    res, cycles, unknown, indirect = analyse(frames, edges, entries, resolve)
    # Recursion anywhere in the hypervisor is an error, not only below an entry.
    _all, all_cycles, _u, all_indirect = analyse(frames, edges, sorted(frames), resolve)
    limit = config_value(build, "STACK_SIZE")
    worst = max((d for d, _p in res.values()), default=0) + asm_frame
    dyn = sorted(f for f, q in quals.items() if q == "dynamic")
    s.figure("target", target)
    s.figure("entry points", len(entries))
    s.figure("worst-case depth (bytes)", worst)
    s.figure("CONFIG_STACK_SIZE (bytes)", limit if limit is not None else "unknown")
    s.figure("functions", len(frames))
    s.figure("recursion cycles", len(all_cycles))
    s.figure("unresolved indirect call sites", len(all_indirect))
    if asm_frame:
        s.figure("assembly frame added (bytes)", asm_frame)
    rows = []
    for e in entries:
        d, p = res[e]
        kind = "hypercall" if e in handlers or e == "hypercall_dispatch" else "vector/asm"
        rows.append([short(e), kind, d + asm_frame, " > ".join(short(x) for x in p)])
    rows.sort(key=lambda r: -r[2])
    s.table("Entry points (worst case first)", ["entry", "kind", "bytes", "deepest path"], rows)
    if all_indirect:
        s.table("Indirect calls not in the bound (review each)", ["caller", "call site"],
                [[short(c), site] for c, site in sorted(all_indirect)])
    if unknown:
        s.note("Called functions with no stack information (outside the analysed objects, "
               "counted as 0): " + ", ".join(sorted(short(u) for u in unknown)))
    if limit is None:
        s.error("CONFIG_STACK_SIZE not found in the evidence configuration")
    elif worst > limit:
        s.error("worst-case stack %d bytes exceeds CONFIG_STACK_SIZE %d" % (worst, limit))
    seen = set()
    for c in all_cycles:
        key = frozenset(c)
        if key in seen:
            continue
        seen.add(key)
        s.error("recursion: " + " -> ".join(short(x) for x in c))
    for f in dyn:
        s.error("unbounded dynamic stack frame in %s (%s)" % (short(f), where.get(f, "")))
    if not entries:
        s.error("no entry points found (hypercall_dispatch missing?)")
    return s

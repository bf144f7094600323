# SPDX-License-Identifier: MIT
"""Loop bounds: every loop of the hypervisor is bounded, evidently or by a
written justification (issue 6: unbounded loops are errors).

Each C file of common/ and arch/ (not arch/host, the host test shim) is parsed
by clang (-Xclang -ast-dump=json) with the evidence configuration's flags, so
macros and Kconfig values are expanded as the compiler sees them; loops of
inline functions in headers are found through the files that include them.
A loop is accepted when

  counted   a for loop `for (i = ..; i OP B; i++/--/+= c)` (or whose
            condition has such a comparison as an && conjunct), whose body
            never writes i and never takes its address; B is a constant
            (Kconfig values are constants here) or, listed with its text for
            review, an expression (a validated count);
  stepped   a while/do loop with a conjunct `i < B` (<=, >, >=) and an
            unconditional i++/i--/i += c (c a positive constant) at the top
            level of its body with no `continue` that could skip it;
  once      do { ... } while (0), the statement-macro idiom;
  annotated a comment containing `LOOP-BOUND:` on the loop's first line or in
            the comment block directly above it says what bounds it (a
            counter, a retry limit, a hardware condition with a timeout, a
            lock's fairness).

Anything else (for(;;), while on a condition with no annotation) fails the
section. The report lists every annotated loop with its justification.
"""
import concurrent.futures
import json
import os
import re
import subprocess
import sys

from misra import sources  # the same hypervisor C sources MISRA reads
from section import Section

LOOP_KINDS = ("ForStmt", "WhileStmt", "DoStmt")
MARK = "LOOP-BOUND:"
CMP = {"<": 1, "<=": 1, "!=": 0, ">": -1, ">=": -1}
WRAPPERS = ("ImplicitCastExpr", "ParenExpr", "CStyleCastExpr", "ConstantExpr")
CONST_KINDS = ("IntegerLiteral", "CharacterLiteral", "UnaryExprOrTypeTraitExpr",
               "OffsetOfExpr")


def in_scope(rel):
    return ((rel.startswith("common/") or rel.startswith("arch/") or rel.startswith("include/"))
            and not rel.startswith("arch/host/"))


def clang_flags(build):
    """-I/-D/-U/-std of the evidence AArch64 build (mk/evidence.mk)."""
    try:
        words = open(os.path.join(build, "evidence", "stack-arm", ".flags")).read().split()
    except OSError:
        return None
    out, skip = [], False
    for i, w in enumerate(words):
        if skip:
            skip = False
            continue
        if w in ("-I", "-D", "-U"):
            out += [w, words[i + 1]]
            skip = True
        elif w[:2] in ("-I", "-D", "-U") or w.startswith("-std="):
            out.append(w)
    return out


def annotate_locs(node, state):
    """Resolve clang's delta-encoded locations (file and line are written only
    when they change, in document order) into _file/_line on every location."""
    if isinstance(node, dict):
        if "offset" in node and "col" in node:
            if "file" in node:
                state[0] = node["file"]
            if "line" in node:
                state[1] = node["line"]
            node["_file"], node["_line"] = state[0], state[1]
        for v in node.values():
            if isinstance(v, (dict, list)):
                annotate_locs(v, state)
    elif isinstance(node, list):
        for v in node:
            annotate_locs(v, state)


def begin_loc(node):
    b = node.get("range", {}).get("begin", {})
    b = b.get("expansionLoc", b)
    return b.get("_file"), b.get("_line"), b.get("col"), b.get("offset")


def end_loc(node):
    e = node.get("range", {}).get("end", {})
    e = e.get("expansionLoc", e)
    return e.get("_file"), e.get("offset"), e.get("tokLen", 0)


def strip(n):
    while isinstance(n, dict) and n.get("kind") in WRAPPERS and n.get("inner"):
        n = n["inner"][0]
    return n


def var_of(n):
    n = strip(n)
    if n and n.get("kind") == "DeclRefExpr":
        d = n.get("referencedDecl", {})
        if d.get("kind") in ("VarDecl", "ParmVarDecl"):
            return d.get("id")
    return None


def is_const(n):
    n = strip(n)
    if not n:
        return False
    k = n.get("kind")
    if k in CONST_KINDS:
        return True
    if k == "DeclRefExpr":
        return n.get("referencedDecl", {}).get("kind") == "EnumConstantDecl"
    if k in ("BinaryOperator", "UnaryOperator", "ConditionalOperator"):
        return all(is_const(c) for c in n.get("inner", []))
    return False


def walk(n):
    if isinstance(n, dict):
        yield n
        for c in n.get("inner", []):
            yield from walk(c)


def writes(body, vid):
    """Does body assign, increment or take the address of variable vid?"""
    for n in walk(body):
        k, op = n.get("kind"), n.get("opcode")
        inner = n.get("inner", [])
        if k in ("BinaryOperator", "CompoundAssignOperator") and (op == "=" or k != "BinaryOperator"):
            if inner and var_of(inner[0]) == vid:
                return True
        if k == "UnaryOperator" and op in ("++", "--", "&") and inner and var_of(inner[0]) == vid:
            return True
    return False


def conjuncts(cond):
    cond = strip(cond)
    if cond and cond.get("kind") == "BinaryOperator" and cond.get("opcode") == "&&":
        out = []
        for c in cond.get("inner", []):
            out += conjuncts(c)
        return out
    return [cond] if cond else []


def counter_side(n):
    """`i + c` (c constant) compares like i: strip the offset."""
    x = strip(n)
    if x and x.get("kind") == "BinaryOperator" and x.get("opcode") == "+":
        a, b = x["inner"]
        if var_of(a) and is_const(b):
            return a
    return n


def comparisons(cond):
    """(var id, direction, bound node) for each `var OP bound` conjunct."""
    out = []
    for c in conjuncts(cond):
        if c.get("kind") != "BinaryOperator" or c.get("opcode") not in CMP:
            continue
        a, b = [counter_side(x) for x in c["inner"]]
        d = CMP[c["opcode"]]
        if var_of(a):
            out.append((var_of(a), d, b))
        if var_of(b):
            out.append((var_of(b), -d, a))
    return out


def step(n, vid):
    """+1/-1 when n is an increment/decrement of vid by a positive constant."""
    n = strip(n)
    if n and n.get("kind") == "BinaryOperator" and n.get("opcode") == ",":
        steps = [step(c, vid) for c in n.get("inner", [])]
        return next((x for x in steps if x != 0), 0)
    if not n or not n.get("inner") or var_of(n["inner"][0]) != vid:
        return 0
    k, op = n.get("kind"), n.get("opcode")
    if k == "UnaryOperator" and op in ("++", "--"):
        return 1 if op == "++" else -1
    if k == "CompoundAssignOperator" and op in ("+=", "-=") and is_const(n["inner"][1]):
        v = strip(n["inner"][1])
        if v.get("kind") == "IntegerLiteral" and int(v.get("value", "0").rstrip("uUlL") or 0) <= 0:
            return 0
        return 1 if op == "+=" else -1
    return 0


def has_continue(body):
    """A continue that belongs to this loop (not to a nested one)."""
    stack = [body]
    while stack:
        n = stack.pop()
        if not isinstance(n, dict):
            continue
        if n.get("kind") == "ContinueStmt":
            return True
        if n.get("kind") in LOOP_KINDS:
            continue
        stack += n.get("inner", [])
    return False


def clears_lowest(n, vid):
    """n is `v &= v - 1` (clears v's lowest set bit)."""
    n = strip(n)
    if not n or n.get("kind") != "CompoundAssignOperator" or n.get("opcode") != "&=":
        return False
    lhs, rhs = n["inner"]
    rhs = strip(rhs)
    return (var_of(lhs) == vid and rhs.get("kind") == "BinaryOperator"
            and rhs.get("opcode") == "-" and var_of(rhs["inner"][0]) == vid
            and strip(rhs["inner"][1]).get("kind") == "IntegerLiteral"
            and strip(rhs["inner"][1]).get("value", "").rstrip("uUlL") == "1")


def progress(tops, vid, want):
    """Index of the top-level statement that makes progress on vid (want(t)
    true), when nothing before it can skip it (a continue) and no other
    statement of the body writes vid; else None."""
    for i, t in enumerate(tops):
        if want(t):
            if any(has_continue(x) for x in tops[:i]):
                return None
            if any(writes(x, vid) for j, x in enumerate(tops) if j != i):
                return None
            return i
    return None


def classify(loop, text):
    """('counted'|'stepped'|'bit-clearing', bound text) or (None, why)."""
    k = loop["kind"]
    inner = loop.get("inner", [])
    if k == "ForStmt":
        _init, _cv, cond, inc, body = (inner + [{}] * 5)[:5]
        if not cond:
            return None, "for loop without a condition"
        for vid, d, bound in comparisons(cond):
            st = step(inc, vid)
            if st == 0 or (d != 0 and st != d) or writes(body, vid):
                continue
            if d == 0 and not is_const(bound):
                continue   # i != n with a variable n may step over n
            return "counted", "constant" if is_const(bound) else text(bound)
        return None, "condition is not a counter against a bound"
    if k == "WhileStmt":
        cond, body = ([{}, {}] + inner)[-2:]
    else:
        body, cond = (inner + [{}] * 2)[:2]
    c = strip(cond)
    if c and c.get("kind") == "IntegerLiteral" and c.get("value") == "0":
        return "once", "constant"   # do { ... } while (0): a statement macro
    tops = body.get("inner", []) if body.get("kind") == "CompoundStmt" else [body]
    for vid, d, bound in comparisons(cond):
        if d == 0:
            if is_const(bound) and strip(bound).get("value", "").rstrip("uUlL") == "0" and \
                    progress(tops, vid, lambda t, v=vid: clears_lowest(t, v)) is not None:
                return "bit-clearing", "set bits of " + text(loop_var(cond, vid, text))
            continue
        if progress(tops, vid, lambda t, v=vid, dd=d: step(t, v) == dd) is not None:
            return "stepped", "constant" if is_const(bound) else text(bound)
    return None, "condition with no counter bound"


def loop_var(cond, vid, text):
    for c in conjuncts(cond):
        for x in c.get("inner", []):
            if var_of(x) == vid:
                return x
    return {}


def annotation(lines, line):
    """Text after LOOP-BOUND: on the loop's line or in the comment that ends
    on the line directly above it."""
    i = line - 1
    if 0 <= i < len(lines) and MARK in lines[i]:
        return lines[i].split(MARK, 1)[1].strip(" */")
    i -= 1
    if i < 0:
        return None
    block = []
    if lines[i].rstrip().endswith("*/"):
        while i >= 0:
            block.insert(0, lines[i])
            if "/*" in lines[i]:
                break
            i -= 1
    else:
        while i >= 0 and lines[i].strip().startswith("//"):
            block.insert(0, lines[i])
            i -= 1
    joined = " ".join(x.strip().lstrip("/*").rstrip("*/").strip() for x in block)
    if MARK in joined:
        return joined.split(MARK, 1)[1].strip()
    return None


def load(p):
    if p.returncode != 0:
        raise RuntimeError(p.stderr.decode(errors="replace").strip().split("\n")[0])
    ast = json.loads(p.stdout)
    annotate_locs(ast, [None, None])
    return ast


def check(root, files, flags):
    """{(file, line, col): row} for every loop reached from files; errors."""
    found, errors, texts = {}, [], {}

    def source(path):
        if path not in texts:
            try:
                texts[path] = open(path, encoding="utf-8", errors="replace").read()
            except OSError:
                texts[path] = ""
        return texts[path]

    def scan(ast):
        for n in walk(ast):
            if n.get("kind") not in LOOP_KINDS:
                continue
            path, line, col, _off = begin_loc(n)
            if not path:
                continue
            relp = os.path.relpath(os.path.join(root, path), root)
            if not in_scope(relp) or (relp, line, col) in found:
                continue
            src = source(os.path.join(root, relp))

            def text(x, src=src):
                f1, b = begin_loc(x)[0], begin_loc(x)[3]
                f2, e, tl = end_loc(x)
                if f1 and f1 == f2 and b is not None and e is not None:
                    return re.sub(r"\s+", " ", src[b:e + tl])
                return "(macro)"
            kind, why = classify(n, text)
            note = annotation(src.split("\n"), line)
            verdict = kind or ("annotated" if note else "UNBOUNDED")
            found[(relp, line, col)] = [relp, line, n["kind"][:-4].lower(), verdict,
                                        note if note else why]

    def dump(rel):
        cmd = ["clang", "--target=aarch64-none-elf", "-ffreestanding", "-fsyntax-only", "-w",
               "-Xclang", "-ast-dump=json"] + flags + [os.path.join(root, rel)]
        return subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=root)

    # Two clang processes at a time: the machine this runs on has two cores.
    with concurrent.futures.ThreadPoolExecutor(max_workers=2) as pool:
        for rel, p in zip(files, pool.map(dump, files)):
            try:
                ast = load(p)
            except (RuntimeError, ValueError) as e:
                errors.append("%s: clang could not parse it: %s" % (rel, e))
                continue
            scan(ast)
    return found, errors


def run(root, build, fast):
    s = Section("loops", "Loop bounds of the hypervisor (arch/, common/)", enforced=True)
    flags = clang_flags(build)
    if flags is None:
        s.error("no evidence build flags: run `make evidence-stack-inputs` (part of test-build)")
        return s
    sys.setrecursionlimit(20000)
    found, errors = check(root, sources(root), flags)
    for e in errors:
        s.error(e)
    rows = sorted(found.values())
    counts = {}
    for r in rows:
        counts[r[3]] = counts.get(r[3], 0) + 1
    s.figure("loops", len(rows))
    for k in ("counted", "stepped", "bit-clearing", "once", "annotated", "UNBOUNDED"):
        s.figure(k if k != "UNBOUNDED" else "unbounded, no justification", counts.get(k, 0))
    for r in rows:
        if r[3] == "UNBOUNDED":
            s.error("%s:%d: %s loop with no evident bound and no %s annotation (%s)"
                    % (r[0], r[1], r[2], MARK, r[4]))
    s.table("Annotated loops (justification)", ["place", "loop", "justification"],
            [["%s:%d" % (r[0], r[1]), r[2], r[4]] for r in rows if r[3] == "annotated"])
    s.table("Counted loops with a variable bound (review that the bound is validated)",
            ["place", "loop", "bound"],
            [["%s:%d" % (r[0], r[1]), r[2], r[4]] for r in rows
             if r[3] in ("counted", "stepped", "bit-clearing") and r[4] != "constant"])
    s.note("Parsed by clang (AST as JSON) with the qemu-virt configuration; loops in "
           "code compiled out by that configuration are not seen. Assembly (arch/arm/*.S) "
           "is not analysed. A loop is bounded when it counts against a bound, or a "
           "`%s` comment says what bounds it (tools/evidence/loops.py)." % MARK)
    if not rows and not errors:
        s.error("no loops found: the parser saw nothing")
    return s

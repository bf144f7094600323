#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Self-test of the evidence tools on small made-up trees: each check must
catch the defect planted for it, so a broken checker cannot pass silently."""
import os
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "tools", "evidence"))

import coverage  # noqa: E402
import loops  # noqa: E402
import misra  # noqa: E402
import report  # noqa: E402
import reqs  # noqa: E402
import stack  # noqa: E402
from section import Section  # noqa: E402


def write(root, rel, text):
    path = os.path.join(root, rel)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        f.write(text)


def verdict(name, ok, why=""):
    print("%s: selftest/%s%s" % ("PASS" if ok else "FAIL", name, "" if ok else " (%s)" % why))
    return ok


# VERIFIES: REQ-EVD-002
def test_requirements(tmp):
    write(tmp, "docs/requirements/a.md", "- **REQ-AA-001**: one.\n- **REQ-AA-002**: two.\n"
          "- **REQ-AA-003**: old (withdrawn)\n- **REQ-AA-004**: four.\n")
    write(tmp, "tests/unit/test_a.c", "VERIFIES(REQ-AA-001)\nstatic void test_a(void **s)\n"
          "VERIFIES(REQ-AA-009)\nstatic void test_b(void **s)\n")
    write(tmp, "tests/x/run.sh", "# VERIFIES: REQ-AA-003\n")
    write(tmp, "tests/stress/s.c", "/*\n * A stress test.\n * VERIFIES: REQ-AA-004\n */\n")
    s = reqs.run(tmp, tmp, True)
    errs = "\n".join(s.errors)
    ok = (not s.ok and "REQ-AA-002" in errs and "unknown requirement REQ-AA-009" in errs
          and "withdrawn requirement REQ-AA-003" in errs and "REQ-AA-001 " not in errs
          and "REQ-AA-004" not in errs)
    return verdict("requirements", ok, errs)


# VERIFIES: REQ-EVD-003
def test_stack(tmp):
    write(tmp, "build/evidence/stack-target", "host\n")
    write(tmp, "build/evidence/config/include/generated/autoconf.h",
          "#define CONFIG_STACK_SIZE 100\n")
    write(tmp, "common/hypercall.c", "static const hypercall_fn_t hypercall_table[N] = {\n"
          "\t[__HYPERVISOR_x] = hc_x,\n};\n")
    node = 'node: { title: "%s" label: "%s\\nf.c:1:1\\n%d bytes (%s)" }\n'
    edge = 'edge: { sourcename: "%s" targetname: "%s" label: "f.c:2:2" }\n'
    write(tmp, "build/host/stack/obj/common/f.ci",
          'graph: { title: "f.c"\n' +
          node % ("hypercall_dispatch", "hypercall_dispatch", 16, "static") +
          edge % ("hypercall_dispatch", "__indirect_call") +
          node % ("common/hypercall.c:hc_x", "hc_x", 40, "static") +
          edge % ("common/hypercall.c:hc_x", "a") +
          node % ("a", "a", 30, "static") + edge % ("a", "b") +
          node % ("b", "b", 50, "dynamic") + edge % ("b", "a") +
          edge % ("b", "__indirect_call") + "}\n")
    s = stack.run(tmp, os.path.join(tmp, "build"), True)
    errs = "\n".join(s.errors)
    figs = dict(s.figures)
    ok = (not s.ok and "recursion: a -> b -> a" in errs and "exceeds CONFIG_STACK_SIZE 100" in errs
          and "unbounded dynamic stack frame in b" in errs
          and figs.get("worst-case depth (bytes)") == 16 + 40 + 30 + 50
          and figs.get("unresolved indirect call sites") == 1)
    return verdict("stack", ok, errs + " " + str(figs))


# VERIFIES: REQ-EVD-001
def test_misra(tmp):
    write(tmp, "common/x.c", "#include <stdint.h>\nuint32_t g(uint32_t v);\n"
          "uint32_t g(uint32_t v)\n{\n\tif (v == 0U) {\n\t\treturn 1U;\n\t}\n"
          "\tif (v) {\n\t\treturn 2U;\n\t}\n\treturn 0U;\n}\n")
    write(tmp, "docs/safety/misra-deviations.md",
          "| DEV-001 | 15.5 | `common/*` | | Early returns on validation failure, as in the tree. |\n"
          "| DEV-002 | 9.1 | `common/*` | | A mandatory rule, which must be refused here. |\n"
          "| DEV-003 | 8.7 | `arch/*` | | Matches nothing and must be reported as stale. |\n")
    # The retired pending list must neither excuse a violation nor be accepted.
    write(tmp, "docs/safety/misra-pending.md",
          "| PND-001 | 14.4 | `common/x.c` | | owner; lines 8 |\n")
    s = misra.run(tmp, os.path.join(tmp, "build"), True)
    errs = "\n".join(s.errors)
    figs = dict(s.figures)
    ok = (not s.ok and "common/x.c:8: MISRA rule 14.4" in errs
          and "misra-pending.md is not read any more" in errs
          and "deviates mandatory rule 9.1" in errs and "rule 15.5" not in errs
          and figs.get("covered by deviations", 0) >= 2
          and any("DEV-003" in n for n in s.notes))
    return verdict("misra", ok, errs + " " + str(figs))


# VERIFIES: REQ-EVD-005
def test_loops(tmp):
    write(tmp, "build/evidence/stack-arm/.flags", "-I%s/include -std=c11 -O2\n" % tmp)
    write(tmp, "include/n.h", "#define N 4U\nstatic inline int h(unsigned *p)\n{\n"
          "\twhile (*p != 0U) {\n\t\t(*p)--;\n\t}\n\treturn 0;\n}\n")
    write(tmp, "common/x.c", "#include <n.h>\n"
          "void f(unsigned m, unsigned *p, unsigned b);\n"
          "void f(unsigned m, unsigned *p, unsigned b)\n{\n\tunsigned i;\n"
          "\tfor (i = 0U; i < N; i++) {\n\t\tp[i] = 0U;\n\t}\n"       # 6 counted
          "\tfor (i = 0U; i < m; i++) {\n\t\ti = 0U;\n\t}\n"          # 9 writes i
          "\tfor (;;) {\n\t\tbreak;\n\t}\n"                            # 12 no cond
          "\t/* LOOP-BOUND: the test's reason\n\t * on two lines. */\n"
          "\twhile (*p != 0U) {\n\t\t(*p)--;\n\t}\n"                   # 17 annotated
          "\twhile (b != 0U) {\n\t\tb &= b - 1U;\n\t}\n"                # 20 bit-clearing
          "\ti = 0U;\n\twhile ((*p != 0U) && (i < m)) {\n\t\tp++;\n\t\ti++;\n\t}\n"
          "\tdo {\n\t\tp[0] = 1U;\n\t} while (0);\n"                     # 29 once
          "\t(void)h(p);\n}\n")                                             # 24 stepped
    s = loops.run(tmp, os.path.join(tmp, "build"), True)
    errs = "\n".join(s.errors)
    figs = dict(s.figures)
    notes = [r for t in s.tables if t[0].startswith("Annotated") for r in t[2]]
    ok = (not s.ok and "common/x.c:9: for loop" in errs and "common/x.c:12: for loop" in errs
          and "include/n.h:4: while loop" in errs and len(s.errors) == 3
          and figs.get("counted") == 1 and figs.get("stepped") == 1
          and figs.get("bit-clearing") == 1 and figs.get("annotated") == 1
          and figs.get("once") == 1
          and notes == [["common/x.c:17", "while", "the test's reason on two lines."]])
    return verdict("loops", ok, errs + " " + str(figs) + " " + str(notes))


# VERIFIES: REQ-EVD-006
def test_coverage_exclusions(tmp):
    write(tmp, "docs/safety/coverage-exclusions.md",
          "| ID | Kind | Where | Justification |\n|----|------|-------|---------------|\n"
          "| COV-001 | race | `common/a.c` | Because. |\n"
          "| COV-002 | race | nowhere | Stale. |\n")
    write(tmp, "common/a.c", "int f(int x)\n{\n\t/* GCOVR_EXCL_START COV-001 */\n"
          "\tif (x) {\n\t\treturn 1;\n\t}\n\t/* GCOVR_EXCL_STOP */\n"
          "\treturn 0; /* GCOVR_EXCL_LINE COV-007 */\n}\n")
    write(tmp, "common/b/c.c", "/* GCOVR_EXCL_BR_START COV-001 */\nint y;\n")
    rows = coverage.read_register(tmp)
    problems = "\n".join(coverage.scan_markers(tmp, rows))
    ok = (rows["COV-001"]["lines"] == 3 and "common/a.c:8: exclusion marker names no row" in
          problems and "common/b/c.c:1: GCOVR_EXCL_START without a STOP" in problems
          and "COV-002 in" in problems and problems.count("\n") == 2)
    return verdict("coverage-exclusions", ok, problems + " " + str(rows))


# VERIFIES: REQ-EVD-004
def test_report(tmp):
    a = Section("one", "First <item>", enforced=True)
    a.figure("violations", 3)
    a.error("bad thing")
    b = Section("two", "Second item", enforced=False)
    b.table("T", ["h1", "h2"], [["x", 1]])
    report.write(tmp, tmp, [a.to_dict(), b.to_dict()])
    page = open(os.path.join(tmp, "index.html")).read()
    text = open(os.path.join(tmp, "summary.txt")).read()
    ok = ("First &lt;item&gt;: <span class='FAIL'>FAIL</span>" in page
          and "Second item: <span class='PASS'>PASS</span>" in page and "<td>x</td>" in page
          and "== First <item>: FAIL" in text and "violations" in text
          and "== Second item: PASS (reported, not enforced)" in text)
    return verdict("report", ok, text)


# VERIFIES: REQ-EVD-003
def test_asm_entries(tmp):
    """A C handler an assembly macro branches to is a stack entry point too."""
    write(tmp, "arch/arm/v.S", "\t.macro lean_call handler\n\tstr x30, [sp]\n"
          "\tbl \\handler\n\tb out\n\t.endm\n"
          "\t.macro keep reg, where\n\tstr \\reg, [\\where]\n\t.endm\n"
          "slot:\n\tlean_call lean_c /* a comment */\n\tkeep x1, sp\n\tbl direct_c\n")
    names, _frame = stack.asm_entries(tmp)
    ok = {"lean_c", "direct_c", "out"} <= names and "x1" not in names and "sp" not in names
    return verdict("asm-entries", ok, str(sorted(names)))


def main():
    ok = True
    for t in (test_requirements, test_stack, test_misra, test_loops, test_coverage_exclusions,
              test_report, test_asm_entries):
        with tempfile.TemporaryDirectory() as tmp:
            ok = t(tmp) and ok
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())

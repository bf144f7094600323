#!/usr/bin/env python3
"""Worst-case EL2 stack depth from GCC's -fcallgraph-info=su files.

  tools/stack/depth.py DIR [ENTRY ...]

Reads every *.ci under DIR, builds the call graph with each function's frame
size, and prints the deepest path from each entry point. Indirect calls
(hypercall table, MMIO ops, IRQ handlers) are not edges in GCC's graph:
the hypercall table, the routed IRQ handlers and
the MMIO handlers are added as edges of their dispatchers. Recursion is
reported.
"""
import glob, re, sys

def load(d):
    size, edges = {}, {}
    for f in glob.glob(d + "/**/*.ci", recursive=True):
        for line in open(f):
            m = re.match(r'node: \{ title: "([^"]+)" label: "[^\\]*\\n[^\\]*\\n(\d+) bytes', line)
            if m:
                size[m.group(1)] = max(size.get(m.group(1), 0), int(m.group(2)))
                continue
            m = re.match(r'node: \{ title: "([^"]+)"', line)
            if m:
                size.setdefault(m.group(1), 0)
                continue
            m = re.match(r'edge: \{ sourcename: "([^"]+)" targetname: "([^"]+)"', line)
            if m:
                edges.setdefault(m.group(1), set()).add(m.group(2))
    return size, edges

def deepest(fn, size, edges, memo, stack):
    if fn in memo:
        return memo[fn]
    if fn in stack:
        return (0, [fn + " (RECURSION)"])
    stack.add(fn)
    best = (0, [])
    for c in edges.get(fn, ()):
        best = max(best, deepest(c, size, edges, memo, stack), key=lambda x: x[0])
    stack.discard(fn)
    memo[fn] = (size.get(fn, 0) + best[0], [fn] + best[1])
    return memo[fn]

def main():
    d = sys.argv[1]
    entries = sys.argv[2:] or ["guest_sync_handler", "guest_hypercall", "guest_irq_lean", "guest_dabt_lean",
                               "guest_irq_handler", "arch_cpu_loop",
                               "hyp_irq_handler", "hyp_sync_handler", "arch_setup",
                               "secondary_start"]
    size, edges = load(d)
    # Indirect calls as edges: the hypercall table, routed IRQ handlers,
    # MMIO emulation handlers.
    hc = [f for f in size if f.split(":")[-1].startswith("hc_")]
    edges.setdefault("hypercall_dispatch", set()).update(hc)
    irq = [f for f in size if f.split(":")[-1] in ("pl011_irq", "hyp_timer_irq")]
    edges.setdefault("gic_handle_irq", set()).update(irq)
    mmio = [f for f in size if re.search(r"(vpl011|vgic)_(read|write)$|vgic_.*_mmio_(read|write)$",
                                          f.split(":")[-1])]
    edges.setdefault("mmio_dispatch", set()).update(mmio)
    memo = {}
    worst = 0
    for e in entries:
        if e not in size:
            continue
        n, path = deepest(e, size, edges, memo, set())
        print(f"{e}: {n} bytes: {' > '.join(path)}")
        worst = max(worst, n)
    print(f"worst: {worst}")

main()

#!/usr/bin/env python3
"""Instructions per iteration, per function, from two QEMU TB traces
(-d exec,nochain,in_asm) of the same run with LO and HI iterations.

  tb-profile.py HYP_ELF GUEST_ELF TRACE_LO TRACE_HI HI_MINUS_LO

A translation block's length is taken from its in_asm listing, so the
figures are close to, not exactly, icount's (tools/bench/irq-profile.sh).
"""
import bisect, collections, re, subprocess, sys

def symbols(elf, tag):
	out = subprocess.run(["aarch64-linux-gnu-nm", "-n", elf], capture_output=True,
			     text=True, check=True).stdout
	syms = []
	for line in out.splitlines():
		f = line.split()
		if len(f) == 3 and f[1] in "tTwW":
			syms.append((int(f[0], 16), tag + f[2]))
	return syms

syms = sorted(symbols(sys.argv[1], "") + symbols(sys.argv[2], "guest:"))
addrs = [a for a, _ in syms]

def name(pc):
	i = bisect.bisect_right(addrs, pc) - 1
	return syms[i][1] if i >= 0 else hex(pc)

def profile(path):
	size = {}
	counts = collections.Counter()
	cur = None
	trace = re.compile(r"Trace \d+: \S+ \[[0-9a-f]+/([0-9a-f]+)/[0-9a-f]+/([0-9a-f]+)\]")
	insn = re.compile(r"^0x([0-9a-f]+):\s")
	with open(path, errors="replace") as f:
		for line in f:
			m = trace.match(line)
			if m:
				pc = int(m.group(1), 16)
				n = size.get(pc, 1)
				limit = int(m.group(2), 16) & 0x1ff
				if limit:
					n = min(n, limit)
				for k in range(n):
					counts[name(pc + 4 * k)] += 1
				cur = None
				continue
			if line.startswith("IN:"):
				cur = "start"
				continue
			m = insn.match(line)
			if m and cur is not None:
				a = int(m.group(1), 16)
				if cur == "start":
					cur = a
					size[cur] = 0
				size[cur] += 1
	return counts

lo, hi, iters = profile(sys.argv[3]), profile(sys.argv[4]), int(sys.argv[5])
diff = {k: (hi[k] - lo.get(k, 0)) / iters for k in hi}
total = sum(diff.values())
print(f"{total:.0f} instructions per iteration (TB-trace estimate)")
for k, v in sorted(diff.items(), key=lambda kv: -kv[1]):
	if abs(v) >= 0.5:
		print(f"{v:8.1f}  {k}")

#!/usr/bin/env bash
# Where a bench-paths path spends its instructions, per function.
#
#   paths-profile.sh OPS [IMAGE [ELF]]
#
# OPS is the benchpaths op mask (guests/benchpaths/bench.h: 1 null hypercall,
# 2 grant map+unmap, 4 GNTTABOP_copy 4 KiB, 8 event send to upcall, 16 unmask
# to upcall, 32 vtimer, 64 map batch of 16, 128 vpl011 write; 256 SGI to the
# other vCPU and 512 WFI wake run alone, on their -smp 2 set-ups, where the
# figures are both CPUs' instructions per iteration, the waiting side's
# included). Boots the bench partition
# twice under -icount shift=0 with QEMU's TB trace (-d exec,nochain,in_asm),
# with LO and HI iterations of the selected paths, and prints the difference
# per function divided by HI - LO: instructions per iteration, boot and
# set-up cancelled out. IMAGE defaults to the release xpfo=on bench build
# (make bench-paths builds it); ELF is the image's ELF for the symbols.
# Guest functions are named from build/guests/benchpaths.elf.
# A translation block's length is taken from its in_asm listing (the last
# one at that address), so the figures are close to, not exactly, icount's.
set -euo pipefail
cd "$(dirname "$0")/../.."
OPS=${1:?usage: paths-profile.sh OPS [IMAGE [ELF]]}
BUILD="${BUILD:-$PWD/build}"
IMG="${2:-$BUILD/bench-release-xpfo-on/bulkhead.bin}"
ELF="${3:-${IMG%.bin}.elf}"
LO=${LO:-20}
HI=${HI:-120}
W="$BUILD/bench/profile"
FRAG=dts/bench/paths.dtsi SMP=1
if [ $((OPS & 256)) -ne 0 ]; then FRAG=dts/bench/paths-sgi.dtsi SMP=2; fi
if [ $((OPS & 512)) -ne 0 ]; then FRAG=dts/bench/paths-wake.dtsi SMP=2; fi
mkdir -p "$W"
for it in "$LO" "$HI"; do
	sed "s/iters=[0-9]*/iters=$it ops=$OPS/" "$FRAG" > "$W/paths-$it.dtsi"
	rm -f "$W/trace-$it.log"
	QEMU_EXTRA="-d exec,nochain,in_asm -D $W/trace-$it.log" \
		timeout 320 bash tools/qemu/run.sh -g 3 -c cortex-a57 -s "$SMP" -t 300 \
		-i shift=0,sleep=off -k "$IMG" -l "$W/console-$it.log" "$W/paths-$it.dtsi" \
		> /dev/null 2>&1 || true
	grep -q 'bench: done' "$W/console-$it.log" ||
		{ echo "paths-profile.sh: run with iters=$it did not finish" >&2; exit 1; }
done
python3 - "$ELF" "$BUILD/guests/benchpaths.elf" "$W/trace-$LO.log" "$W/trace-$HI.log" \
	"$((HI - LO))" <<'EOF'
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
EOF

#!/usr/bin/env bash
# Restart bench: time from a partition's crash to the first instruction of
# its restarted incarnation, in instructions, deterministic under QEMU
# -icount shift=0,sleep=off (virtual time advances one nanosecond per
# instruction executed; the generic counter, 62.5 MHz, ticks every 16).
#
# The restart scenario's configuration (dts/tests/restart.dtsi): the owner
# (restart policy "always") grants a page the peer maps, then touches memory
# past its RAM. The hypervisor prints the time it starts handling the crash
# ("crashed: ... (at N ns)", read first thing in domain_crash(), after the
# exception entry and fault decoding); the new incarnation reads CNTPCT_EL0
# with its first instruction and prints it ("rt entry cntpct T", bootarg
# bench=1). crash_to_first_insn = T * 16 - N, precise to one counter tick
# (16 instructions). It covers stopping the vCPUs, closing the event
# channels, revoking the grants and removing the peer's mapping (with the
# TLB invalidation), scrubbing and reloading the partition and the EL2
# page-table check (XPFO), plus the console lines printed on the way.
#
#   tools/bench/restart.sh      (writes $BUILD/bench/restart.csv)
#
# CSV columns: config (the DT fragment), gic, cpu, crash_ns (QEMU virtual
# ns = instructions since reset at the crash), first_insn_ns (the same at
# the new incarnation's first instruction), crash_to_first_insn_insns, and
# ram_kib (the restarted partition's RAM, which is scrubbed and reloaded).
set -euo pipefail
cd "$(dirname "$0")/../.."
BUILD="${BUILD:-$PWD/build}"
FRAG=dts/tests/restart.dtsi
OUT="$BUILD/bench"
IMAGE="$BUILD/bulkhead.bin"
INSNS_PER_TICK=16
GIC="${GIC:-3}"
CPU="${CPU:-cortex-a57}"
mkdir -p "$OUT"
[ -f "$IMAGE" ] || { echo "restart.sh: no $IMAGE (make hyp guests)" >&2; exit 2; }
log="$OUT/restart-gic$GIC-$CPU.log"
# The peer sleeps between its looks at the port instead of spinning on
# hypercalls: QEMU runs every vCPU in one round-robin thread under -icount,
# so a spinning peer would be counted in (and slow down) the owner's restart.
sed 's/bootargs = "tag=P /bootargs = "poll_sleep_us=1000 tag=P /' "$FRAG" > "$OUT/restart-bench.dtsi"
grep -q 'poll_sleep_us=1000 tag=P' "$OUT/restart-bench.dtsi" ||
	{ echo "restart.sh: no peer bootargs in $FRAG" >&2; exit 2; }
set +e
bash tools/qemu/run.sh -g "$GIC" -c "$CPU" -t 300 -i shift=0,sleep=off -k "$IMAGE" -l "$log" \
	"$OUT/restart-bench.dtsi" > /dev/null
rc=$?
set -e
crash=$(sed -n 's/.*owner (d1) crashed: .* (at \([0-9]*\) ns)$/\1/p' "$log" | head -1)
# The second incarnation's entry (the first one's is the boot).
entry=$(sed -n 's/^.*O: rt entry cntpct \([0-9]*\)$/\1/p' "$log" | sed -n 2p)
if [ -z "$crash" ] || [ -z "$entry" ]; then
	echo "restart.sh: no crash time or no second entry (QEMU status $rc), see $log" >&2
	exit 1
fi
first=$(( entry * INSNS_PER_TICK ))
ram=$(sed -n 's/.*d1 owner: .*(\([0-9]*\) KiB).*/\1/p' "$log" | head -1)
echo "config,gic,cpu,crash_ns,first_insn_ns,crash_to_first_insn_insns,ram_kib" > "$OUT/restart.csv"
echo "restart,$GIC,$CPU,$crash,$first,$((first - crash)),${ram:-}" >> "$OUT/restart.csv"
cat "$OUT/restart.csv"

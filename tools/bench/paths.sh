#!/usr/bin/env bash
# Path-length bench (make bench-paths): the bench partition (guests/benchpaths)
# under QEMU -icount shift=0,sleep=off, so one instruction is one virtual
# nanosecond and a 62.5 MHz counter tick is 16 instructions. Each op is timed
# per iteration (10,000 each) in counter ticks; mean, p99 and max are
# converted to instructions (p99 and max are therefore multiples of 16, or of
# 16/elements for a batched op, reported per element). Three set-ups:
#   dts/bench/paths.dtsi       -smp 1, one partition: the one-vCPU paths
#   dts/bench/paths-sgi.dtsi   -smp 2, one partition of two vCPUs: SGI to the other vCPU
#   dts/bench/paths-wake.dtsi  -smp 2, two partitions: a WFI woken by the other's event
# Runs Bulkhead release builds (CONFIG_DEBUG=n, CONFIG_LOCK_CHECK=n) with
# CONFIG_XPFO=y and =n (same partition images, same QEMU commands) and Xen
# 4.17 (XEN_IMAGE, default: the image `make fetch` unpacked). Xen 4.17 hangs at
# boot under -icount with more than one CPU: its -smp 2 runs are tried with a
# bound (XEN_SMP2_TMO seconds, default 60) and reported, not waited for.
# Writes $BUILD/bench/paths.csv and paths.png (mean instructions per op, one
# group of bars per op, one bar per hypervisor and xpfo setting).
# BENCH_BOARD=xilinx-zcu102 (make bench-paths BOARD=xilinx-zcu102) runs the
# same on QEMU's ZCU102 model with the vendor's tree (GIC-400, Cortex-A53);
# Xen 4.17 there gets the tree with the GIC's CPU and virtual interface regs
# moved to the aliased 8 KiB windows (tools/bench/xen-zcu102-gic.dtsi): QEMU's
# GIC-400 does not report the IIDR Xen 4.17's alias check wants, and on the
# vendor's regs Xen hangs at boot (docs/performance.md).
set -uo pipefail
cd "$(dirname "$0")/../.."
BUILD="${BUILD:-$PWD/build}"
OUT="$BUILD/bench"
XEN_IMAGE="${XEN_IMAGE:-$(tools/fetch/path.sh xen)}" ||
	{ echo "paths.sh: no Xen 4.17 image (make fetch)" >&2; exit 1; }
FRAG=dts/bench/paths.dtsi
BENCH_BOARD="${BENCH_BOARD:-qemu-virt}"
export BENCH_BOARD
case $BENCH_BOARD in
qemu-virt) MACH=(-g 3 -c cortex-a57) MACH_NAME="QEMU virt GICv3 cortex-a57" XEN_TREE= ;;
xilinx-zcu102) MACH=(-M xlnx-zcu102) MACH_NAME="QEMU xlnx-zcu102, vendor tree" \
	XEN_TREE=tools/bench/xen-zcu102-gic.dtsi ;;
*) echo "paths.sh: no bench machine for $BENCH_BOARD (qemu-virt, xilinx-zcu102)" >&2; exit 2 ;;
esac
XEN_SMP2_TMO="${XEN_SMP2_TMO:-60}"
mkdir -p "$OUT"
CSV="$OUT/paths.csv"
echo "hypervisor,xpfo,op,mean_insns,p99_insns,max_insns" > "$CSV"

# $1 hypervisor label, $2 xpfo column, $3 image, $4 log, $5 fragment, $6 -smp, [$7 timeout]
run_one() {
	local hv=$1 xpfo=$2 img=$3 log=$4 frag=$5 smp=$6 tmo=${7:-300}
	local until=() extra=
	[ "$hv" = xen-4.17 ] && until=(-u 'bench: (done|FAIL)') extra=$XEN_TREE
	MKDTB_EXTRA=$extra timeout $((tmo + 20)) bash tools/qemu/run.sh "${MACH[@]}" -s "$smp" \
		-t "$tmo" -i shift=0,sleep=off -k "$img" -l "$log" "${until[@]}" "$frag" > /dev/null 2>&1
	if ! grep -q 'bench: done' "$log" 2>/dev/null; then
		echo "paths.sh: $hv xpfo=$xpfo $(basename "$frag") -smp $smp did not finish, see $log" >&2
		return 1
	fi
	# "bench OP mean_ticks_x100 p99_ticks max_ticks n per" -> instructions per element
	sed -n 's/.*bench \([a-z0-9_]*\) \([0-9]*\) \([0-9]*\) \([0-9]*\) [0-9]* \([0-9]*\)$/\1 \2 \3 \4 \5/p' \
		"$log" | while read -r op mean p99 max per; do
		echo "$hv,$xpfo,$op,$((mean * 16 / 100 / per)),$((p99 * 16 / per)),$((max * 16 / per))" >> "$CSV"
	done
}

# Bulkhead image $1 (label xpfo=$2) on all three set-ups.
run_bulkhead() {
	local img=$1 xpfo=$2 rc=0
	run_one bulkhead "$xpfo" "$img" "$OUT/paths-bulkhead-xpfo-$xpfo.log" dts/bench/paths.dtsi 1 || rc=1
	run_one bulkhead "$xpfo" "$img" "$OUT/paths-sgi-bulkhead-xpfo-$xpfo.log" dts/bench/paths-sgi.dtsi 2 || rc=1
	run_one bulkhead "$xpfo" "$img" "$OUT/paths-wake-bulkhead-xpfo-$xpfo.log" dts/bench/paths-wake.dtsi 2 || rc=1
	return $rc
}

. tools/bench/release-build.sh

make -s -j2 O="$BUILD" guests || exit 1
export GUESTDIR="$BUILD/guests"
on="$BUILD/bench-release-xpfo-on"
off="$BUILD/bench-release-xpfo-off"
release_build "$on" y || exit 1
release_build "$off" n || exit 1
rc=0
run_bulkhead "$on/bulkhead.bin" on || rc=1
run_bulkhead "$off/bulkhead.bin" off || rc=1
XEN_NOTE=
export XEN_BOOTARGS="console=dtuart bootscrub=0 xsm=dummy loglvl=all guest_loglvl=all"
run_one xen-4.17 n/a "$XEN_IMAGE" "$OUT/paths-xen.log" dts/bench/paths.dtsi 1 || rc=1
# -smp 2: bounded tries; a hang at boot is reported with Xen's last line, not an error.
for frag in paths-sgi paths-wake; do
	log="$OUT/$frag-xen.log"
	if ! run_one xen-4.17 n/a "$XEN_IMAGE" "$log" "dts/bench/$frag.dtsi" 2 "$XEN_SMP2_TMO" 2> /dev/null; then
		last=$(grep -a '(XEN)' "$log" 2>/dev/null | tail -1 | tr -d '\r')
		if grep -qa '(d1)' "$log" 2>/dev/null; then
			echo "paths.sh: xen-4.17 $frag -smp 2: partitions ran but did not finish, see $log" >&2
			rc=1
		else
			XEN_NOTE="Xen 4.17 did not boot with -smp 2 under -icount within ${XEN_SMP2_TMO} s (last line: ${last:-none})"
			echo "paths.sh: $XEN_NOTE; no Xen rows for $frag" >&2
			break   # the same boot hangs for the other -smp 2 set-up
		fi
	fi
done
# One row per op, one column per hypervisor/xpfo variant, for a clustered histogram.
plot_paths() {
	local dat="$OUT/paths-plot.dat" gp="$OUT/paths.gp"
	python3 - "$CSV" "$dat" <<'PY' || return 1
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
cols = []
for r in rows:
	c = r["hypervisor"] + ("" if r["xpfo"] == "n/a" else " xpfo=" + r["xpfo"])
	if c not in cols:
		cols.append(c)
ops = []
for r in rows:
	if r["op"] not in ops:
		ops.append(r["op"])
val = {(r["op"], r["hypervisor"] + ("" if r["xpfo"] == "n/a" else " xpfo=" + r["xpfo"])):
       r["mean_insns"] for r in rows}
with open(sys.argv[2], "w") as f:
	f.write("op\t" + "\t".join('"%s"' % c for c in cols) + "\n")
	for op in ops:
		f.write(op + "\t" + "\t".join(val.get((op, c), "-") for c in cols) + "\n")
PY
	local n
	n=$(head -1 "$dat" | awk -F'\t' '{print NF}')
	{
		echo "set terminal pngcairo size 1400,520 noenhanced"
		echo "set output '$OUT/paths.png'"
		echo "set title 'bench-paths: mean instructions per operation ($MACH_NAME -icount shift=0; sgi and wfi_wake -smp 2, the rest -smp 1; batch16 per element; lower is better)'"
		echo "set style data histogram; set style histogram clustered gap 1; set style fill solid 0.8 border -1"
		echo "set ylabel 'instructions (mean of 10,000)'; set yrange [0:*]; set grid ytics"
		echo "set key top left; set xtics noenhanced rotate by -25"
		[ -n "$XEN_NOTE" ] && echo "set label 1 'no Xen bar: $XEN_NOTE' at graph 0.30, graph 0.95 font ',9'"
		echo "plot for [c=2:$n] '$dat' using c:xtic(1) title columnheader(c)"
	} > "$gp"
	gnuplot "$gp" 2> "$OUT/paths-gnuplot.err" || { echo "paths.sh: gnuplot failed, see $OUT/paths-gnuplot.err" >&2; return 1; }
}

plot_paths || rc=1
cat "$CSV"
[ -n "$XEN_NOTE" ] && echo "paths.sh: $XEN_NOTE"
echo "paths.sh: wrote $CSV and $OUT/paths.png"
exit $rc

#!/usr/bin/env bash
# make bench-irq: interrupt latency in instructions (guests/benchirq) under
# QEMU -icount shift=0,sleep=off, GICv3, cortex-a53 (Bao's anchor set-up),
# from the source raising it to the first instruction of the partition's
# IRQ vector, `SAMPLES` (1,000) interrupts a source: the virtual timer, the
# assigned PL061's SPI, an event-channel upcall.
#   alone         dts/bench/irq.dtsi, -smp 1: Bulkhead (release, xpfo=on)
#                 and Xen 4.17 (make fetch's image), same images, same run
#   interference  dts/bench/irq-load.dtsi, -smp 4: three partitions flood
#                 hypercalls, grant copies and event sends on CPUs 1-3
#                 (Bulkhead; Xen 4.17 does not boot under -icount with more
#                 than one CPU). The virtual timer is left out there: under
#                 -icount QEMU runs the CPUs round robin and a deadline a CPU
#                 arms inside its time slice is seen only after the other
#                 CPUs' slices (measured: about 200,000,000 instructions), a
#                 QEMU artefact, not a latency (docs/performance.md).
# Writes $BUILD/bench/irq.csv (hypervisor,source,load,median_insns,p99_insns,
# max_insns,samples) and irq.png.
set -uo pipefail
cd "$(dirname "$0")/../.."
BUILD="${BUILD:-$PWD/build}"
OUT="$BUILD/bench"
SAMPLES="${SAMPLES:-1000}"
mkdir -p "$OUT"
export GUESTDIR="$BUILD/guests"
CSV="$OUT/irq.csv"
echo "hypervisor,source,load,median_insns,p99_insns,max_insns,samples" > "$CSV"
XEN_IMAGE="${XEN_IMAGE:-$(tools/fetch/path.sh xen)}" ||
	{ echo "irq.sh: no Xen 4.17 image (make fetch)" >&2; exit 1; }

# $1 label, $2 load, $3 image, $4 fragment, $5 smp, $6 sources
run_one() {
	local hv=$1 load=$2 img=$3 frag=$4 smp=$5 only=$6 log="$OUT/irq-$1-$2.log"
	local dtsi="$OUT/irq-$1-$2.dtsi"
	sed "s/bootargs = \"tag=I\"/bootargs = \"tag=I samples=$SAMPLES only=$only\"/" "$frag" > "$dtsi"
	timeout 900 bash tools/qemu/run.sh -g 3 -c cortex-a53 -s "$smp" -t 880 -i shift=0,sleep=off \
		-k "$img" -l "$log" -u 'benchirq: (done|FAIL)' "$dtsi" > /dev/null 2>&1
	if ! grep -q 'benchirq: done' "$log"; then
		echo "irq.sh: $hv $load did not finish, see $log" >&2
		return 1
	fi
	sed -n 's/.*benchirq \(vtimer\|spi\|evtchn\) \([0-9]*\) \([0-9]*\) \([0-9]*\) \([0-9]*\)$/\1 \2 \3 \4 \5/p' \
		"$log" | while read -r src med p99 max n; do
		echo "$hv,$src,$load,$med,$p99,$max,$n" >> "$CSV"
	done
}

. tools/bench/release-build.sh
make -s -j2 O="$BUILD" guests || exit 1
on="$BUILD/bench-release-xpfo-on"
release_build "$on" y || exit 1
rc=0
run_one bulkhead alone "$on/bulkhead.bin" dts/bench/irq.dtsi 1 "" || rc=1
XEN_BOOTARGS="console=dtuart bootscrub=0 loglvl=all guest_loglvl=all" \
	run_one xen-4.17 alone "$XEN_IMAGE" dts/bench/irq.dtsi 1 "" || rc=1
run_one bulkhead interference "$on/bulkhead.bin" dts/bench/irq-load.dtsi 4 "spi,evtchn" || rc=1

# One cluster per source and load: median and max, Bulkhead and Xen.
python3 - "$CSV" "$OUT/irq-plot.dat" <<'PY' || rc=1
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
keys = []
for r in rows:
	k = r["source"] + "/" + r["load"]
	if k not in keys:
		keys.append(k)
v = {(r["source"] + "/" + r["load"], r["hypervisor"]): r for r in rows}
with open(sys.argv[2], "w") as f:
	f.write('case\t"Bulkhead median"\t"Bulkhead max"\t"Xen 4.17 median"\t"Xen 4.17 max"\n')
	for k in keys:
		b, x = v.get((k, "bulkhead")), v.get((k, "xen-4.17"))
		f.write("\t".join([k, b["median_insns"] if b else "-", b["max_insns"] if b else "-",
				   x["median_insns"] if x else "-", x["max_insns"] if x else "-"]) + "\n")
PY
{
	echo "set terminal pngcairo size 1100,520 noenhanced"
	echo "set output '$OUT/irq.png'"
	echo "set title 'bench-irq: source to the IRQ vector, instructions (QEMU virt GICv3 a53, -icount shift=0, $SAMPLES a bar)'"
	echo "set style data histogram; set style histogram clustered gap 1; set style fill solid 0.8 border -1"
	echo "set ylabel 'instructions'; set yrange [0:*]; set grid ytics; set key top left"
	echo "set label 1 'interference: Xen 4.17 does not boot with -smp 4 under -icount' at graph 0.45, graph 0.95 font ',9'"
	echo "plot for [c=2:5] '$OUT/irq-plot.dat' using c:xtic(1) title columnheader(c)"
} > "$OUT/irq.gp"
gnuplot "$OUT/irq.gp" 2> "$OUT/irq-gnuplot.err" || { echo "irq.sh: gnuplot failed" >&2; rc=1; }
cat "$CSV"
echo "irq.sh: wrote $CSV and $OUT/irq.png"
exit $rc

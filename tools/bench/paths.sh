#!/usr/bin/env bash
# Path-length bench (make bench-paths): one partition (guests/benchpaths,
# dts/bench/paths.dtsi) under QEMU -icount shift=0,sleep=off, -smp 1, so one
# instruction is one virtual nanosecond and a 62.5 MHz counter tick is 16
# instructions. Each op is timed per iteration (10,000 each) in counter
# ticks; mean, p99 and max are converted to instructions (p99 and max are
# therefore multiples of 16). Runs Bulkhead release builds (CONFIG_DEBUG=n,
# CONFIG_LOCK_CHECK=n) with CONFIG_XPFO=y and =n (same partition image, same
# QEMU command) and, where the anchor is present, Xen
# 4.17 (XEN_IMAGE, default: the image `make fetch` unpacked).
# Writes $BUILD/bench/paths.csv and paths.png (mean instructions per op, one
# bar per hypervisor and xpfo setting).
set -uo pipefail
cd "$(dirname "$0")/../.."
BUILD="${BUILD:-$PWD/build}"
OUT="$BUILD/bench"
XEN_IMAGE="${XEN_IMAGE:-$(tools/fetch/path.sh xen)}" ||
	{ echo "paths.sh: no Xen 4.17 image (make fetch)" >&2; exit 1; }
FRAG=dts/bench/paths.dtsi
mkdir -p "$OUT"
CSV="$OUT/paths.csv"
echo "hypervisor,xpfo,op,mean_insns,p99_insns,max_insns" > "$CSV"

# $1 hypervisor label, $2 xpfo column, $3 image, $4 log
run_one() {
	local hv=$1 xpfo=$2 img=$3 log=$4
	local until=()
	[ "$hv" = xen-4.17 ] && until=(-u 'bench: (done|FAIL)')
	timeout 320 bash tools/qemu/run.sh -g 3 -c cortex-a57 -s 1 -t 300 -i shift=0,sleep=off \
		-k "$img" -l "$log" "${until[@]}" "$FRAG" > /dev/null 2>&1
	if ! grep -q 'bench: done' "$log"; then
		echo "paths.sh: $hv xpfo=$xpfo did not finish, see $log" >&2
		return 1
	fi
	# "bench OP mean_ticks_x100 p99_ticks max_ticks n" -> instructions
	sed -n 's/.*bench \([a-z0-9_]*\) \([0-9]*\) \([0-9]*\) \([0-9]*\) [0-9]*$/\1 \2 \3 \4/p' "$log" |
	while read -r op mean p99 max; do
		echo "$hv,$xpfo,$op,$((mean * 16 / 100)),$((p99 * 16)),$((max * 16))" >> "$CSV"
	done
}

. tools/bench/release-build.sh

make -s -j2 O="$BUILD" guests || exit 1
on="$BUILD/bench-release-xpfo-on"
off="$BUILD/bench-release-xpfo-off"
release_build "$on" y || exit 1
release_build "$off" n || exit 1
rc=0
run_one bulkhead on "$on/bulkhead.bin" "$OUT/paths-bulkhead-xpfo-on.log" || rc=1
run_one bulkhead off "$off/bulkhead.bin" "$OUT/paths-bulkhead-xpfo-off.log" || rc=1
XEN_BOOTARGS="console=dtuart bootscrub=0 xsm=dummy loglvl=all guest_loglvl=all" \
	run_one xen-4.17 n/a "$XEN_IMAGE" "$OUT/paths-xen.log" || rc=1
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
		echo "set terminal pngcairo size 1000,480 noenhanced"
		echo "set output '$OUT/paths.png'"
		echo "set title 'bench-paths: mean instructions per operation (QEMU virt -icount shift=0, -smp 1; lower is better)'"
		echo "set style data histogram; set style histogram clustered gap 1; set style fill solid 0.8 border -1"
		echo "set ylabel 'instructions (mean of 10,000)'; set yrange [0:*]; set grid ytics"
		echo "set key top left; set xtics noenhanced"
		echo "plot for [c=2:$n] '$dat' using c:xtic(1) title columnheader(c)"
	} > "$gp"
	gnuplot "$gp" 2> "$OUT/paths-gnuplot.err" || { echo "paths.sh: gnuplot failed, see $OUT/paths-gnuplot.err" >&2; return 1; }
}

plot_paths || rc=1
cat "$CSV"
echo "paths.sh: wrote $CSV and $OUT/paths.png"
exit $rc

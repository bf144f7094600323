#!/usr/bin/env bash
# make bench-io: split block I/O throughput per data mode, request size and
# number of frontends, on Bulkhead and (when the anchor is there) Xen 4.17,
# same partition images and device tree. QEMU virt, -smp 4 (one pCPU per
# partition), multi-threaded TCG. Emulated wall-clock figures are noisy:
# every point is the median (and minimum) of REPS runs.
#
#   io.sh OUTDIR
# Environment: REPS (5), REQS (400 per frontend), QD (4), MODES, SIZES,
# FES, XEN_IMAGE (/tmp/xen-anchor/cache/xen-4.17-arm64; XEN=0 skips it),
# TIMEOUT per run (120 s).
set -uo pipefail
OUT=${1:-build/bench}
REPS=${REPS:-5} REQS=${REQS:-400} QD=${QD:-4} TIMEOUT=${TIMEOUT:-120}
MODES=${MODES:-"map persistent copy"} SIZES=${SIZES:-"4096 65536"} FES=${FES:-"1 2 3"}
XEN_IMAGE=${XEN_IMAGE:-/tmp/xen-anchor/cache/xen-4.17-arm64}
WORK="$OUT/io"
mkdir -p "$WORK"
CSV="$OUT/io.csv"
echo "hypervisor,mode,frontends,request_bytes,requests_per_sec_median,requests_per_sec_min,runs" > "$CSV"

hyps=(bulkhead)
[ "${XEN:-1}" != 0 ] && [ -f "$XEN_IMAGE" ] && hyps+=(xen-4.17)
echo "bench-io: $(nproc) host CPUs, load $(cut -d' ' -f1-3 /proc/loadavg), REPS=$REPS REQS=$REQS QD=$QD"
echo "bench-io: emulated wall-clock throughput is noisy; medians of $REPS runs"

# Aggregate req/s of one run: the sum of every frontend's own rate.
one_run() { # hyp dtsi nfe log
	local hyp=$1 dtsi=$2 nfe=$3 log=$4 args
	args=(-s 4 -t "$TIMEOUT" -l "$log")
	if [ "$hyp" = bulkhead ]; then
		args+=(-k "${BUILD:-build}/bulkhead.bin")
		tools/qemu/run.sh "${args[@]}" "$dtsi" > /dev/null 2>&1
	else
		# Xen never stops QEMU itself: stop once every frontend is done.
		XEN_BOOTARGS="console=dtuart bootscrub=0 xsm=dummy guest_loglvl=all" \
			tools/qemu/run.sh "${args[@]}" -k "$XEN_IMAGE" -u "blkfront done" -n "$nfe" \
			"$dtsi" > /dev/null 2>&1
	fi
	[ "$(grep -c 'blkfront done, integrity OK' "$log")" -eq "$nfe" ] || { echo FAIL; return; }
	grep -oE '[0-9]+ req/s' "$log" | awk '{s += $1} END {print s}'
}

for hyp in "${hyps[@]}"; do
	for mode in $MODES; do
		for size in $SIZES; do
			for n in $FES; do
				fa=()
				for ((i = 0; i < n; i++)); do
					fa+=("mode=$mode bytes=$size qd=$QD reqs=$REQS")
				done
				dtsi="$WORK/$mode-$size-$n.dtsi"
				tools/blk/mkdtsi.sh "$dtsi" "${fa[@]}"
				vals=()
				for ((r = 1; r <= REPS; r++)); do
					v=$(one_run "$hyp" "$dtsi" "$n" "$WORK/$hyp-$mode-$size-$n-$r.log")
					[ "$v" = FAIL ] && { echo "bench-io: FAIL $hyp $mode $size x$n run $r" >&2; continue; }
					vals+=("$v")
				done
				[ ${#vals[@]} -eq 0 ] && continue
				sorted=$(printf '%s\n' "${vals[@]}" | sort -n)
				med=$(echo "$sorted" | awk '{a[NR] = $1} END {print (NR % 2) ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2}')
				min=$(echo "$sorted" | head -1)
				echo "$hyp,$mode,$n,$size,$med,$min,${#vals[@]}" | tee -a "$CSV"
			done
		done
	done
done

# One panel per request size: req/s against frontends, a line per mode and hypervisor.
gp="$WORK/io.gp"
{
	echo "set terminal pngcairo size 1200,500 noenhanced"
	echo "set output '$OUT/io.png'"
	echo "set datafile separator ','"
	echo "set multiplot layout 1,2 title 'split block I/O on QEMU virt (TCG, medians; emulated, noisy)'"
	echo "set xlabel 'frontends'; set ylabel 'requests/s (all frontends)'; set xtics 1; set key top left"
	for size in $SIZES; do
		echo "set title '$((size / 1024)) KiB requests, qd $QD'"
		plot="plot"
		for hyp in "${hyps[@]}"; do
			for mode in $MODES; do
				plot+=" '$CSV' using (strcol(1) eq '$hyp' && strcol(2) eq '$mode' && \$4 == $size ? \$3 : 1/0):5 with linespoints title '$hyp $mode',"
			done
		done
		echo "${plot%,}"
	done
	echo "unset multiplot"
} > "$gp"
gnuplot "$gp" 2> "$WORK/gnuplot.err" || { echo "bench-io: gnuplot failed, see $WORK/gnuplot.err"; exit 1; }
echo "bench-io: wrote $CSV and $OUT/io.png"

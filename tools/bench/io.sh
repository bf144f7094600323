#!/usr/bin/env bash
# make bench-io: split block I/O throughput per data mode, request size and
# number of frontends, on Bulkhead and (when the anchor is there) Xen 4.17,
# same partition images and device tree. QEMU virt, -smp 4 (one pCPU per
# partition), multi-threaded TCG. Emulated wall-clock figures are noisy:
# every point is the median (and minimum) of REPS runs.
#
#   io.sh OUTDIR
# Environment: REPS (5), REQS (400 per frontend), QD (4), MODES, SIZES,
# FES, XEN_IMAGE (default: from make fetch; XEN=0 leaves Xen out),
# TIMEOUT per run (120 s), BUILD (build), PLOT_ONLY=1 (redraw io.png only).
# ICOUNT=1 (make bench-io-icount): the same runs under -icount shift=0,sleep=off
# instead (single-threaded TCG, one instruction of any vCPU is one virtual
# nanosecond, idle time skipped): requests per virtual second are then
# deterministic, 1e9 over the instructions all partitions and the hypervisor
# spend per request; one run per point (a rerun repeats it exactly) and no
# Xen rows (Xen 4.17 hangs at boot under icount with more than one CPU).
# Writes io-icount.csv and io-icount.png.
# Bulkhead runs twice per point, CONFIG_XPFO=y and =n (issue 8: same
# images, same run), the variants interleaved run by run so that a change
# of host load hits all of them alike.
set -uo pipefail
OUT=${1:-build/bench}
BUILD=${BUILD:-build}
ICOUNT=${ICOUNT:-0}
if [ "$ICOUNT" = 1 ]; then
	REPS=${REPS:-1} XEN=0 NAME=io-icount
else
	REPS=${REPS:-5} NAME=io
fi
REQS=${REQS:-400} QD=${QD:-4} TIMEOUT=${TIMEOUT:-120}
MODES=${MODES:-"map persistent copy"} SIZES=${SIZES:-"4096 65536"} FES=${FES:-"1 2 3"}
if [ "${XEN:-1}" != 0 ]; then
	XEN_IMAGE="${XEN_IMAGE:-$(tools/fetch/path.sh xen)}" ||
		{ echo "io.sh: no Xen 4.17 image (make fetch)" >&2; exit 1; }
fi
WORK="$OUT/$NAME"
mkdir -p "$WORK"
CSV="$OUT/$NAME.csv"

# One panel per request size: req/s against frontends (log scale: the
# hypervisors differ by orders of magnitude), a line per mode and
# hypervisor(+xpfo), each from its own data file so that gnuplot joins
# the points (a filtered CSV would break every line).
plot_io() {
	local gp="$WORK/io.gp" size hyp xp mode f label plot
	{
		echo "set terminal pngcairo size 1200,520 noenhanced"
		echo "set output '$OUT/$NAME.png'"
		if [ "$ICOUNT" = 1 ]; then
			echo "set multiplot layout 1,2 title 'split block I/O on QEMU virt, -smp 4, -icount shift=0 (deterministic: requests per virtual second = 1e9 / instructions per request)'"
			echo "set ylabel 'requests per virtual second (all frontends)'; set yrange [0:*]"
		else
			echo "set multiplot layout 1,2 title 'split block I/O on QEMU virt, -smp 4, 2 host cores (TCG; medians of $REPS runs; emulated, noisy)'"
			echo "set ylabel 'requests/s (all frontends)'; set logscale y"
		fi
		echo "set xlabel 'frontends'; set xtics 1"
		echo "set xrange [0.8:3.2]; set key outside bottom center horizontal font ',8' maxrows 3"
		for size in $SIZES; do
			echo "set title '$((size / 1024)) KiB requests, qd $QD'"
			plot="plot"
			while IFS=, read -r hyp xp; do
				for mode in $MODES; do
					f="$WORK/series-$hyp-${xp//\//}-$mode-$size.dat"
					awk -F, -v h="$hyp" -v x="$xp" -v m="$mode" -v s="$size" \
						'$1 == h && $2 == x && $3 == m && $5 == s {print $4, $6}' "$CSV" |
						sort -n > "$f"
					[ -s "$f" ] || continue
					label="$hyp"
					[ "$xp" != n/a ] && label+=" xpfo=$xp"
					plot+=" '$f' using 1:2 with linespoints title '$label $mode',"
				done
			done < <(tail -n +2 "$CSV" | cut -d, -f1,2 | awk '!seen[$0]++')
			echo "${plot%,}"
		done
		echo "unset multiplot"
	} > "$gp"
	gnuplot "$gp" 2> "$WORK/gnuplot.err" || { echo "bench-io: gnuplot failed, see $WORK/gnuplot.err"; return 1; }
	echo "bench-io: wrote $CSV and $OUT/$NAME.png"
}

# PLOT_ONLY=1: redraw io.png from an existing io.csv.
if [ "${PLOT_ONLY:-0}" = 1 ]; then
	plot_io
	exit
fi

# Release builds, XPFO on and off, the ones make bench-paths measures (the
# debug default build checks lock order and is not what ships).
. tools/bench/release-build.sh
XON="$BUILD/bench-release-xpfo-on"
XOFF="$BUILD/bench-release-xpfo-off"
release_build "$XON" y || exit 1
release_build "$XOFF" n || exit 1

# Variants: hypervisor label, xpfo column (as in paths.csv), image.
vhyp=(bulkhead bulkhead) vxpfo=(on off) vimg=("$XON/bulkhead.bin" "$XOFF/bulkhead.bin")
if [ "${XEN:-1}" != 0 ]; then
	vhyp+=(xen-4.17) vxpfo+=(n/a) vimg+=("$XEN_IMAGE")
fi
echo "hypervisor,xpfo,mode,frontends,request_bytes,requests_per_sec_median,requests_per_sec_min,runs" > "$CSV"
echo "bench-io: $(nproc) host CPUs, load $(cut -d' ' -f1-3 /proc/loadavg), REPS=$REPS REQS=$REQS QD=$QD"
echo "bench-io: emulated wall-clock throughput is noisy; medians of $REPS runs"

# Aggregate req/s of one run: the sum of every frontend's own rate.
one_run() { # hyp image dtsi nfe log
	local hyp=$1 img=$2 dtsi=$3 nfe=$4 log=$5 args
	args=(-s 4 -t "$TIMEOUT" -l "$log" -k "$img")
	[ "$ICOUNT" = 1 ] && args+=(-i shift=0,sleep=off)
	if [ "$hyp" = bulkhead ]; then
		tools/qemu/run.sh "${args[@]}" "$dtsi" > /dev/null 2>&1
	else
		# Xen never stops QEMU itself: stop once every frontend is done.
		XEN_BOOTARGS="console=dtuart bootscrub=0 xsm=dummy guest_loglvl=all" \
			tools/qemu/run.sh "${args[@]}" -u "blkfront done" -n "$nfe" \
			"$dtsi" > /dev/null 2>&1
	fi
	[ "$(grep -c 'blkfront done, integrity OK' "$log")" -eq "$nfe" ] || { echo FAIL; return; }
	grep -oE '[0-9]+ req/s' "$log" | awk '{s += $1} END {print s}'
}

for mode in $MODES; do
	for size in $SIZES; do
		for n in $FES; do
			fa=()
			for ((i = 0; i < n; i++)); do
				fa+=("mode=$mode bytes=$size qd=$QD reqs=$REQS")
			done
			dtsi="$WORK/$mode-$size-$n.dtsi"
			tools/blk/mkdtsi.sh "$dtsi" "${fa[@]}"
			declare -A vals=()
			for ((r = 1; r <= REPS; r++)); do
				for ((k = 0; k < ${#vhyp[@]}; k++)); do
					tag="${vhyp[k]}-xpfo-${vxpfo[k]//\//}"
					v=$(one_run "${vhyp[k]}" "${vimg[k]}" "$dtsi" "$n" \
						"$WORK/$tag-$mode-$size-$n-$r.log")
					if [ "$v" = FAIL ]; then
						echo "bench-io: FAIL $tag $mode $size x$n run $r" >&2
						continue
					fi
					vals[$k]="${vals[$k]:-} $v"
				done
			done
			for ((k = 0; k < ${#vhyp[@]}; k++)); do
				[ -z "${vals[$k]:-}" ] && continue
				sorted=$(printf '%s\n' ${vals[$k]} | sort -n)
				med=$(echo "$sorted" | awk '{a[NR] = $1} END {print (NR % 2) ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2}')
				min=$(echo "$sorted" | head -1)
				cnt=$(echo "$sorted" | wc -l)
				echo "${vhyp[k]},${vxpfo[k]},$mode,$n,$size,$med,$min,$cnt" | tee -a "$CSV"
			done
			unset vals
		done
	done
done

plot_io

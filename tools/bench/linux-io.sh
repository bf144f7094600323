#!/usr/bin/env bash
# make bench-linux-io: unmodified Linux frontends (xen-blkfront) on virtual
# disks served by the bare-metal backend partition over xenbus, with
# persistent grants offered by the backend and not; 1, 2 and 3 Linux
# partitions (one disk each) at once; 4 KiB and 64 KiB O_DIRECT requests at
# queue depth 1 and 8 (tools/linux/progs/blkload: that many threads of one
# process, one request in flight each, reads and writes alternating at
# pseudo-random offsets). Every Linux runs the same schedule of time windows
# on the virtual counter, which Bulkhead starts for each partition when it
# creates it at boot (CNTVOFF, as Xen does): the partitions' counters differ
# by the time it takes to load one Linux (about 15 ms under icount, some
# 100 ms in wall-clock runs), small against the windows, so the frontends
# load the backend in the same windows; a point is the sum of every
# frontend's requests completed in its window, per second.
#
# Two clocks:
#  - icount: QEMU -icount shift=0,sleep=off (single-threaded TCG, one
#    instruction of any vCPU is one virtual nanosecond, idle time skipped):
#    requests per virtual second = 1e9 / instructions per request, all CPUs
#    (Linux, backend, store, hypervisor); deterministic, one run a point;
#  - wall: multi-threaded TCG against the host's clock, REPS runs (default
#    5) a point, median and minimum; emulated on a shared 2-core host, so
#    noisy (say so where the figures are used).
# Release build (CONFIG_DEBUG=n, XPFO on) with 5 partitions and 5 CPUs
# (xenstore, backend, three Linux) and 1024 maptrack entries, so the
# backend can keep 256 grants per disk mapped (tools/bench/linux-io.config).
#
#   tools/bench/linux-io.sh [OUTDIR]       (default $BUILD/bench)
# Environment: CLOCKS ("icount wall"), FES ("1 2 3"), PERS ("1 0"),
# SIZES ("4096 65536"), QDS ("1 8"), REPS (wall runs per point, 5),
# WINDOW_ICOUNT (1 virtual s), WINDOW_WALL (3 s), T0_ICOUNT, T0_WALL
# (when the first window starts: after every Linux has booted), TIMEOUT,
# PLOT_ONLY=1 (redraw linux-io.png from linux-io.csv).
# Writes linux-io.csv and linux-io.png.
set -uo pipefail
cd "$(dirname "$0")/../.."
BUILD="${BUILD:-$PWD/build}"
OUT="${1:-$BUILD/bench}"
CLOCKS=${CLOCKS:-"icount wall"} FES=${FES:-"1 2 3"} PERS=${PERS:-"1 0"}
SIZES=${SIZES:-"4096 65536"} QDS=${QDS:-"1 8"} REPS=${REPS:-5}
WINDOW_ICOUNT=${WINDOW_ICOUNT:-1} WINDOW_WALL=${WINDOW_WALL:-3}
T0_ICOUNT=${T0_ICOUNT:-20} T0_WALL=${T0_WALL:-90}
WORK="$OUT/linux-io"
CSV="$OUT/linux-io.csv"
mkdir -p "$WORK"

plot() {
	local gp="$WORK/linux-io.gp" clock size pers qd f plot
	{
		echo "set terminal pngcairo size 1200,900 noenhanced"
		echo "set output '$OUT/linux-io.png'"
		echo "set multiplot layout 2,2 title 'Linux xen-blkfront on the bare-metal backend over xenbus (QEMU virt -smp 5: xenstore, backend, 1-3 Linux; 1 disk each)'"
		echo "set xlabel 'Linux frontends'; set xtics 1; set xrange [0.8:3.2]; set yrange [0:*]"
		echo "set key below horizontal font ',9'"
		for clock in icount wall; do
			for size in $SIZES; do
				if [ "$clock" = icount ]; then
					echo "set title '$((size / 1024)) KiB, -icount shift=0 (1e9 / instructions per request)'"
					echo "set ylabel 'requests per virtual second (all frontends)'"
				else
					echo "set title '$((size / 1024)) KiB, wall clock, MTTCG on 2 host cores (medians)'"
					echo "set ylabel 'requests/s (all frontends)'"
				fi
				plot="plot"
				for pers in 1 0; do
					for qd in $QDS; do
						f="$WORK/series-$clock-$pers-$size-$qd.dat"
						awk -F, -v c="$clock" -v p="$pers" -v s="$size" -v q="$qd" \
							'$1 == c && $2 == p && $4 == s && $5 == q {print $3, $6}' "$CSV" |
							sort -n > "$f"
						[ -s "$f" ] || continue
						plot+=" '$f' using 1:2 with linespoints title 'persistent $([ "$pers" = 1 ] && echo on || echo off), qd $qd',"
					done
				done
				[ "$plot" = plot ] && plot="plot 0 notitle,"
				echo "${plot%,}"
			done
		done
		echo "unset multiplot"
	} > "$gp"
	gnuplot "$gp" 2> "$WORK/gnuplot.err" ||
		{ echo "bench-linux-io: gnuplot failed, see $WORK/gnuplot.err"; return 1; }
	echo "bench-linux-io: wrote $CSV and $OUT/linux-io.png"
}

if [ "${PLOT_ONLY:-0}" = 1 ]; then
	plot
	exit
fi

# The hypervisor: release, XPFO on, room for five partitions and their mappings.
HYP="$BUILD/bench-linux-io-hyp"
if [ ! -f "$HYP/.config" ]; then
	make -s O="$HYP" qemu-virt_defconfig \
		CONFIG_FRAGMENTS="tools/bench/release.config tools/bench/linux-io.config" > /dev/null ||
		exit 1
fi
make -s -j2 O="$HYP" hyp > /dev/null || exit 1
grep -q '^CONFIG_MAX_DOMAINS=5' "$HYP/.config" && grep -q '^# CONFIG_DEBUG is not set' "$HYP/.config" ||
	{ echo "bench-linux-io: $HYP is not the bench configuration" >&2; exit 1; }
make -s -j2 O="$BUILD" guests linux-blk-initramfs > /dev/null || exit 1
bash tools/fetch/fetch.sh > /dev/null || exit 1
export GUESTDIR="$BUILD/guests"
ln -sfn "$(tools/fetch/path.sh linux-image)" "$BUILD/guests/linux.bin"
ln -sfn "$BUILD/linux/initramfs-blk.cpio" "$BUILD/guests/linux-blk-initramfs.bin"

part() { # name image bootargs extra-properties [ramdisk]
	cat <<EOT
		$1 {
			compatible = "xen,domain";
			#address-cells = <2>;
			#size-cells = <2>;
			cpus = <1>;
			$4
			module@auto {
				compatible = "multiboot,kernel", "multiboot,module";
				reg = <GUEST($2)>;
				bootargs = "$3";
			};
EOT
	[ -n "${5:-}" ] && cat <<EOT
			module@auto {
				compatible = "multiboot,ramdisk", "multiboot,module";
				reg = <GUEST($5)>;
			};
EOT
}

# One configuration: n Linux, persistent grants offered or not, the schedule in their bootargs.
mkdtsi() { # out n pers load-args
	local i feat
	feat="feature-max-indirect-segments = <32>; max-persistent-grants = <256>;"
	[ "$3" = 1 ] && feat="feature-persistent; $feat"
	{
		printf '/ {\n\tchosen {\n\t\t#address-cells = <2>;\n\t\t#size-cells = <2>;\n'
		part xs xenstore "tag=XS quiet=1" \
			'memory = <0 16384>; xen,enhanced = "no-xenstore"; capabilities = <4>;'
		echo "		};"
		part be blkback "tag=BE maptrack=1024" 'memory = <0 32768>; xen,enhanced = "enabled";' |
			sed 's/^\t\tbe {/\t\tbe: be {/'
		echo "		};"
		for ((i = 1; i <= $2; i++)); do
			part "linux$i" linux \
				"console=ttyAMA0 quiet linuxtest=blkload,$4" \
				'memory = <0 131072>; vpl011; xen,enhanced = "enabled";' linux-blk-initramfs
			cat <<EOT
			xvda {
				compatible = "bulkhead,vbd";
				backend = <&be>;
				virtual-device = "xvda";
				size = <0 0x2000000>;
				$feat
			};
		};
EOT
		done
		printf '\t};\n};\n'
	} > "$1"
}

median() { sort -n | awk '{a[NR] = $1} END {if (NR) print (NR % 2) ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2}'; }

echo "clock,persistent,frontends,request_bytes,queue_depth,requests_per_sec_median,requests_per_sec_min,runs" > "$CSV"
echo "bench-linux-io: $(nproc) host CPUs, load $(cut -d' ' -f1-3 /proc/loadavg); CLOCKS='$CLOCKS' FES='$FES' PERS='$PERS' SIZES='$SIZES' QDS='$QDS' REPS=$REPS"
for clock in $CLOCKS; do
	if [ "$clock" = icount ]; then
		reps=1 win=$WINDOW_ICOUNT t0=$T0_ICOUNT icount=(-i shift=0,sleep=off)
	else
		reps=$REPS win=$WINDOW_WALL t0=$T0_WALL icount=()
	fi
	nwin=$(( $(echo $SIZES | wc -w) * $(echo $QDS | wc -w) * reps ))
	tmo=${TIMEOUT:-$(awk -v t="$t0" -v n="$nwin" -v w="$win" -v c="$clock" \
		'BEGIN {x = t + n * (w + 1) + 120; if (c == "icount") x = 40 * x; print int(x)}')}
	for pers in $PERS; do
		for n in $FES; do
			tag="$clock-p$pers-fe$n"
			args="bytes=$(echo $SIZES | tr ' ' ':'),qd=$(echo $QDS | tr ' ' ':'),reps=$reps,t0=$t0,window=$win,gap=1"
			mkdtsi "$WORK/$tag.dtsi" "$n" "$pers" "$args"
			log="$WORK/$tag.log"
			echo "bench-linux-io: $tag ($nwin windows of $win s from $t0 s; timeout $tmo s)"
			tools/qemu/run.sh -s 5 -t "$tmo" -l "$log" -k "$HYP/bulkhead.bin" "${icount[@]}" \
				-u 'blkload: (done|FAIL)' -n "$n" "$WORK/$tag.dtsi" > /dev/null 2>&1
			if [ "$(grep -c 'blkload: done' "$log")" -ne "$n" ] || grep -qE 'blkload: (FAIL|LATE)' "$log"; then
				echo "bench-linux-io: FAIL $tag: not every frontend ran every window (see $log)" >&2
				grep -E 'blkload: (FAIL|LATE)' "$log" | head -3 >&2
				continue
			fi
			for size in $SIZES; do
				for qd in $QDS; do
					# Per run: every frontend's requests in that window, summed, per second.
					vals=$(grep -oE "blkload: bytes=$size qd=$qd rep=[0-9]+ reqs=[0-9]+ window_ns=[0-9]+" "$log" |
						sed -E 's/.*rep=([0-9]+) reqs=([0-9]+) window_ns=([0-9]+)/\1 \2 \3/' |
						awk '{s[$1] += $2; w[$1] = $3} END {for (r in s) printf "%.1f\n", s[r] * 1e9 / w[r]}')
					med=$(echo "$vals" | median)
					min=$(echo "$vals" | sort -n | head -1)
					cnt=$(echo "$vals" | grep -c .)
					echo "$clock,$pers,$n,$size,$qd,$med,$min,$cnt" | tee -a "$CSV"
				done
			done
		done
	done
done
plot

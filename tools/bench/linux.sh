#!/usr/bin/env bash
# make bench-linux: Debian's arm64 Linux (make fetch) as a partition beside
# the bare-metal partition of the peer test (dts/tests/linux-peer.dtsi,
# guests/lnxpeer), under QEMU -icount shift=0,sleep=off: one instruction of
# any CPU is one virtual nanosecond, and idle time is skipped in wall-clock
# time but counted in virtual time, so every figure is deterministic.
#
# Boot: the hypervisor is built with CONFIG_CONSOLE_TIMESTAMPS=y (release
# configuration otherwise, XPFO on: tools/bench/release-build.sh), so each
# partition console line carries the hypervisor's time at its first byte,
# in ns from QEMU's start; the hypervisor's first instruction runs at 0
# (after QEMU's few-instruction boot stub). Milestones:
#   partitions_started  the bare-metal partition's first instruction (its
#                       rt entry counter x 16; domain_start_all starts
#                       every partition at once)
#   linux_first_line    Linux's first console line (earlycon)
#   init_exec           the kernel's "Run /init as init process"
#   init_first_line     /init's first line
# Event round trip: xenpeer (tools/linux/progs) times 1,000 rounds with
# CLOCK_MONOTONIC_RAW (the virtual counter): notify through
# /dev/xen/evtchn, the bare-metal side answers with an event, Linux's
# poll() returns; every sample is printed (samples=1) and summed up here.
#
#   tools/bench/linux.sh [OUTDIR]     (default $BUILD/bench)
# Environment: RUNS (default "3:cortex-a57 2:cortex-a53 3:cortex-a57:notests"; a third
# field "notests" adds cryptomgr.notests to Linux's command line), TIMEOUT (300 s a run).
# Writes linux.csv (one row a run), linux-rtt.csv (every round trip) and linux.png.
set -euo pipefail
cd "$(dirname "$0")/../.."
BUILD="${BUILD:-$PWD/build}"
OUT="${1:-$BUILD/bench}"
RUNS=${RUNS:-"3:cortex-a57 2:cortex-a53 3:cortex-a57:notests"} TIMEOUT=${TIMEOUT:-300}
WORK="$OUT/linux"
NS_PER_TICK=16 # the generic counter's 62.5 MHz under -icount shift=0
mkdir -p "$WORK"

bash tools/fetch/fetch.sh > "$WORK/fetch.log" 2>&1 ||
	{ echo "bench-linux: make fetch failed (the kernel and busybox), see $WORK/fetch.log" >&2; exit 1; }
make -s -j2 O="$BUILD" guests linux-initramfs > "$WORK/build.log" 2>&1 ||
	{ echo "bench-linux: building the guests and the initramfs failed, see $WORK/build.log" >&2; exit 1; }
ln -sfn "$(tools/fetch/path.sh linux-image)" "$BUILD/guests/linux.bin"
ln -sfn "$BUILD/linux/initramfs.cpio" "$BUILD/guests/linux-initramfs.bin"

# Hypervisors: a release build per GIC with console timestamps.
declare -A HYP=()
for g in 3 2; do
	o="$BUILD/bench-release-linux-gicv$g"
	def=qemu-virt_defconfig
	[ $g = 2 ] && def=qemu-virt-gicv2_defconfig
	if [ ! -f "$o/.config" ]; then
		make -s O="$o" "$def" \
			CONFIG_FRAGMENTS="tools/bench/release.config tools/bench/timestamps.config" > /dev/null
	fi
	make -s -j2 O="$o" hyp > /dev/null
	grep -q '^# CONFIG_DEBUG is not set' "$o/.config" && grep -q '^CONFIG_XPFO=y' "$o/.config" &&
		grep -q '^CONFIG_CONSOLE_TIMESTAMPS=y' "$o/.config" ||
		{ echo "bench-linux: $o is not a release, XPFO, timestamped configuration" >&2; exit 1; }
	HYP[$g]="$o/bulkhead.bin"
done

CSV="$OUT/linux.csv"
RCSV="$OUT/linux-rtt.csv"
echo "run,gic,cpu,linux_cmdline_extra,hyp_entry_to_partitions_started_insns,hyp_entry_to_linux_first_line_insns,hyp_entry_to_init_exec_insns,hyp_entry_to_init_first_line_insns,event_round_trips,event_round_trip_median_insns,event_round_trip_p99_insns,event_round_trip_max_insns" > "$CSV"
echo "run,round,event_round_trip_insns" > "$RCSV"

# $1 log, $2 partition, $3 regex: the stamp of the first matching line of that partition.
stamp() {
	sed -nE "s|^\[([0-9]+)\] \($2\) .*$3.*|\1|p" "$1" | head -1
}

for r in $RUNS; do
	IFS=: read -r gic cpu variant <<< "$r"
	extra=
	[ "${variant:-}" = notests ] && extra=cryptomgr.notests
	run="gicv$gic-$cpu${variant:+-$variant}"
	dtsi="$WORK/$run.dtsi"
	# The peer test's configuration; Linux powers off after one session (no reboot),
	# xenpeer prints every sample, the bare-metal side prints its entry counter.
	sed -e 's/linuxend=reboot/linuxend=poweroff/' -e 's/rounds=1000,/rounds=1000,samples=1,/' \
		-e "s/console=ttyAMA0/${extra:+$extra }console=ttyAMA0/" \
		-e 's/bootargs = "tag=P /bootargs = "bench=1 tag=P /' dts/tests/linux-peer.dtsi > "$dtsi"
	log="$WORK/$run.log"
	tools/qemu/run.sh -g "$gic" -c "$cpu" -s 2 -k "${HYP[$gic]}" -i shift=0,sleep=off \
		-t "$TIMEOUT" -u 'xenpeer: done' -l "$log" "$dtsi" > /dev/null 2>&1 || true
	if ! grep -qE 'xenpeer: done, [1-9][0-9]* passed, 0 failed' "$log"; then
		echo "bench-linux: FAIL: $run: xenpeer did not pass, see $log" >&2
		exit 1
	fi
	entry=$(sed -nE 's/^\[[0-9]+\] \(peer\) P: rt entry cntpct ([0-9]+)$/\1/p' "$log" | head -1)
	first=$(sed -nE 's/^\[([0-9]+)\] \(linux\) .*/\1/p' "$log" | head -1)
	exec_=$(stamp "$log" linux 'Run /init as init process')
	initl=$(stamp "$log" linux 'init: started')
	for v in entry first exec_ initl; do
		[ -n "${!v}" ] || { echo "bench-linux: FAIL: $run: no $v stamp in $log" >&2; exit 1; }
	done
	# Every sample, in round order.
	sed -nE 's/^\[[0-9]+\] \(linux\) xenpeer: rtt [0-9]+ (.*)$/\1/p' "$log" | tr ' ' '\n' |
		awk -v run="$run" 'NF {printf "%s,%d,%s\n", run, n++, $1}' > "$WORK/$run-rtt.csv"
	n=$(wc -l < "$WORK/$run-rtt.csv")
	[ "$n" -eq 1000 ] || { echo "bench-linux: FAIL: $run: $n samples of 1000, see $log" >&2; exit 1; }
	cat "$WORK/$run-rtt.csv" >> "$RCSV"
	# The median as xenpeer takes it (sorted[n/2]), p99 (sorted[ceil(0.99 n) - 1]), max.
	read -r med p99 max < <(cut -d, -f3 "$WORK/$run-rtt.csv" | sort -n |
		awk '{v[NR - 1] = $1} END {k = int(0.99 * NR); if (k < 0.99 * NR) k++;
			print v[int(NR / 2)], v[k - 1], v[NR - 1]}')
	# xenpeer's own summary must agree with the samples.
	grep -qE "xenpeer: round trip median $med ns, max $max ns over 1000" "$log" ||
		{ echo "bench-linux: FAIL: $run: samples and xenpeer's summary disagree, see $log" >&2; exit 1; }
	echo "$run,$gic,$cpu,${extra:-none},$((entry * NS_PER_TICK)),$first,$exec_,$initl,$n,$med,$p99,$max" |
		tee -a "$CSV"
done

gp="$WORK/linux.gp"
{
	echo "set terminal pngcairo size 1280,520 noenhanced"
	echo "set output '$OUT/linux.png'"
	echo "set datafile separator ','"
	echo "set multiplot layout 1,2 title 'Linux 6.1 (Debian) beside a bare-metal partition, QEMU virt -smp 2, -icount shift=0,sleep=off (deterministic), release build'"
	echo "set title 'hypervisor entry to ... (virtual ns = instructions)'"
	echo "set style data histograms; set style histogram clustered gap 1; set style fill solid 0.8 border -1"
	echo "set ylabel 'million instructions'; set yrange [0:*]; set key top right; set xtics rotate by -15"
	echo "plot '$CSV' every ::1 using (\$5/1e6):xtic(1) title 'partitions started', '' every ::1 using (\$6/1e6) title 'Linux first line', '' every ::1 using (\$7/1e6) title 'Run /init', '' every ::1 using (\$8/1e6) title '/init first line'"
	echo "set title 'event round trip, Linux user space <-> bare-metal (1,000 rounds)'"
	echo "set style data points; unset xtics; set xtics auto norotate; set xlabel 'round'; set ylabel 'instructions'; set yrange [0:*]"
	printf "plot "
	sep=
	for r in $RUNS; do
		IFS=: read -r gic cpu variant <<< "$r"
		run="gicv$gic-$cpu${variant:+-$variant}"
		printf "%s'%s' using 2:3 with points pt 7 ps 0.4 title '%s'" "$sep" "$WORK/$run-rtt.csv" "$run"
		sep=", "
	done
	echo
	echo "unset multiplot"
} > "$gp"
gnuplot "$gp" 2> "$WORK/gnuplot.err" || { echo "bench-linux: gnuplot failed, see $WORK/gnuplot.err" >&2; exit 1; }
echo "bench-linux: wrote $CSV, $RCSV and $OUT/linux.png"

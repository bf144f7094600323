#!/usr/bin/env bash
# make bench-linux: Debian's arm64 Linux (make fetch) as a partition, under
# QEMU -icount shift=0,sleep=off: one instruction of any CPU is one virtual
# nanosecond, and idle time is skipped in wall-clock time but counted in
# virtual time, so every figure is deterministic.
#
# The hypervisor is the release build (tools/bench/release-build.sh: XPFO
# on) with CONFIG_CONSOLE_TIMESTAMPS=y: each partition console line carries
# the hypervisor's time at its first byte, in ns from QEMU's start (the
# hypervisor's first instruction runs at 0, after QEMU's few-instruction
# boot stub), and the hypervisor prints "bulkhead: [N] starting the
# partitions" just before it starts them.
#
# Boot (dts/bench/linux-boot.dtsi, -smp 1: Linux alone, one vCPU, so that
# no other CPU's turn in QEMU's round robin enters the figures):
#   partitions_started  the hypervisor's line
#   linux_first_line    Linux's first console line (earlycon)
#   init_exec           the kernel's "Run /init as init process"
#   init_first_line     /init's first line
# Event round trip (dts/tests/linux-peer.dtsi, -smp 2: Linux beside the
# bare-metal partition guests/lnxpeer): xenpeer (tools/linux/progs) times
# 1,000 rounds with CLOCK_MONOTONIC_RAW (the virtual counter): notify
# through /dev/xen/evtchn, the bare-metal side answers with an event,
# Linux's poll() returns; every sample is printed (samples=1) and summed up
# here.
#
#   tools/bench/linux.sh [OUTDIR]     (default $BUILD/bench)
# Environment: BOOT_RUNS (default "3:cortex-a57 2:cortex-a53 3:cortex-a57:notests"; a
# third field "notests" adds cryptomgr.notests to Linux's command line), RTT_RUNS
# (default "3:cortex-a57 2:cortex-a53"), TIMEOUT (300 s a run).
# Writes linux-boot.csv, linux-rtt.csv, linux-rtt-samples.csv and linux.png.
set -euo pipefail
cd "$(dirname "$0")/../.."
BUILD="${BUILD:-$PWD/build}"
OUT="${1:-$BUILD/bench}"
BOOT_RUNS=${BOOT_RUNS:-"3:cortex-a57 2:cortex-a53 3:cortex-a57:notests"}
RTT_RUNS=${RTT_RUNS:-"3:cortex-a57 2:cortex-a53"}
TIMEOUT=${TIMEOUT:-300}
WORK="$OUT/linux"
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

BCSV="$OUT/linux-boot.csv"
RCSV="$OUT/linux-rtt.csv"
SCSV="$OUT/linux-rtt-samples.csv"
echo "run,gic,cpu,smp,linux_cmdline_extra,hyp_entry_to_partitions_started_insns,hyp_entry_to_linux_first_line_insns,hyp_entry_to_init_exec_insns,hyp_entry_to_init_first_line_insns" > "$BCSV"
echo "run,gic,cpu,smp,event_round_trips,median_insns,p99_insns,max_insns" > "$RCSV"
echo "run,round,event_round_trip_insns" > "$SCSV"

# $1 log, $2 regex: the stamp of the first matching line of the Linux partition.
stamp() {
	sed -nE "s|^\[([0-9]+)\] \(linux\) .*$2.*|\1|p" "$1" | head -1
}

for r in $BOOT_RUNS; do
	IFS=: read -r gic cpu variant <<< "$r"
	extra=
	[ "${variant:-}" = notests ] && extra=cryptomgr.notests
	run="boot-gicv$gic-$cpu${variant:+-$variant}"
	dtsi="$WORK/$run.dtsi"
	sed -e "s/console=ttyAMA0/${extra:+$extra }console=ttyAMA0/" dts/bench/linux-boot.dtsi > "$dtsi"
	log="$WORK/$run.log"
	tools/qemu/run.sh -g "$gic" -c "$cpu" -s 1 -k "${HYP[$gic]}" -i shift=0,sleep=off \
		-t "$TIMEOUT" -u 'init: shell' -l "$log" "$dtsi" > /dev/null 2>&1 || true
	started=$(sed -nE 's/^bulkhead: \[([0-9]+)\] starting the partitions$/\1/p' "$log" | head -1)
	first=$(sed -nE 's/^\[([0-9]+)\] \(linux\) .*/\1/p' "$log" | head -1)
	exec_=$(stamp "$log" 'Run /init as init process')
	initl=$(stamp "$log" 'init: started')
	for v in started first exec_ initl; do
		[ -n "${!v}" ] || { echo "bench-linux: FAIL: $run: no $v stamp in $log" >&2; exit 1; }
	done
	echo "$run,$gic,$cpu,1,${extra:-none},$started,$first,$exec_,$initl" | tee -a "$BCSV"
done

for r in $RTT_RUNS; do
	IFS=: read -r gic cpu <<< "$r"
	run="rtt-gicv$gic-$cpu"
	dtsi="$WORK/$run.dtsi"
	# The peer test's configuration; Linux powers off after one session (no reboot)
	# and xenpeer prints every sample.
	sed -e 's/linuxend=reboot/linuxend=poweroff/' -e 's/rounds=1000,/rounds=1000,samples=1,/' \
		dts/tests/linux-peer.dtsi > "$dtsi"
	log="$WORK/$run.log"
	tools/qemu/run.sh -g "$gic" -c "$cpu" -s 2 -k "${HYP[$gic]}" -i shift=0,sleep=off \
		-t "$TIMEOUT" -u 'xenpeer: done' -l "$log" "$dtsi" > /dev/null 2>&1 || true
	if ! grep -qE 'xenpeer: done, [1-9][0-9]* passed, 0 failed' "$log"; then
		echo "bench-linux: FAIL: $run: xenpeer did not pass, see $log" >&2
		exit 1
	fi
	# Every sample, in round order.
	sed -nE 's/^\[[0-9]+\] \(linux\) xenpeer: rtt [0-9]+ (.*)$/\1/p' "$log" | tr ' ' '\n' |
		awk -v run="$run" 'NF {printf "%s,%d,%s\n", run, n++, $1}' > "$WORK/$run-samples.csv"
	n=$(wc -l < "$WORK/$run-samples.csv")
	[ "$n" -eq 1000 ] || { echo "bench-linux: FAIL: $run: $n samples of 1000, see $log" >&2; exit 1; }
	cat "$WORK/$run-samples.csv" >> "$SCSV"
	# The median as xenpeer takes it (sorted[n/2]), p99 (sorted[ceil(0.99 n) - 1]), max.
	read -r med p99 max < <(cut -d, -f3 "$WORK/$run-samples.csv" | sort -n |
		awk '{v[NR - 1] = $1} END {k = int(0.99 * NR); if (k < 0.99 * NR) k++;
			print v[int(NR / 2)], v[k - 1], v[NR - 1]}')
	# xenpeer's own summary must agree with the samples.
	grep -qE "xenpeer: round trip median $med ns, max $max ns over 1000" "$log" ||
		{ echo "bench-linux: FAIL: $run: samples and xenpeer's summary disagree, see $log" >&2; exit 1; }
	echo "$run,$gic,$cpu,2,$n,$med,$p99,$max" | tee -a "$RCSV"
done

gp="$WORK/linux.gp"
{
	echo "set terminal pngcairo size 1280,520 noenhanced"
	echo "set output '$OUT/linux.png'"
	echo "set datafile separator ','"
	echo "set multiplot layout 1,2 title 'Debian Linux 6.1 as a partition, QEMU virt, -icount shift=0,sleep=off (deterministic), release build'"
	echo "set title 'boot, Linux alone (-smp 1): hypervisor entry to ...'"
	echo "set style data histograms; set style histogram clustered gap 1; set style fill solid 0.8 border -1"
	echo "set ylabel 'million instructions'; set yrange [0:*]; set key below; set xtics rotate by -10"
	echo "plot '$BCSV' every ::1 using (\$6/1e6):xtic(1) title 'partitions started', '' every ::1 using (\$7/1e6) title 'Linux first line', '' every ::1 using (\$8/1e6) title 'Run /init', '' every ::1 using (\$9/1e6) title '/init first line'"
	echo "set title 'event round trip, Linux user space <-> bare-metal partition (-smp 2)'"
	echo "set style data points; set key inside top right vertical; set xtics auto norotate; set xlabel 'round'; set ylabel 'instructions'"
	printf "plot "
	sep=
	for r in $RTT_RUNS; do
		IFS=: read -r gic cpu <<< "$r"
		run="rtt-gicv$gic-$cpu"
		printf "%s'%s' using 2:3 with points pt 7 ps 0.4 title '%s'" "$sep" "$WORK/$run-samples.csv" "$run"
		sep=", "
	done
	echo
	echo "unset multiplot"
} > "$gp"
gnuplot "$gp" 2> "$WORK/gnuplot.err" || { echo "bench-linux: gnuplot failed, see $WORK/gnuplot.err" >&2; exit 1; }
echo "bench-linux: wrote $BCSV, $RCSV, $SCSV and $OUT/linux.png"

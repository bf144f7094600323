#!/usr/bin/env bash
# Boot bench: QEMU -icount shift=0,sleep=off makes virtual time advance one
# nanosecond per instruction executed (and jump over idle time), so the
# generic counter (62.5 MHz) ticks once every 16 instructions. Each
# partition reads CNTPCT_EL0 with its very first instruction (guests/lib,
# bootarg bench=1) and prints it; the hypervisor is entered right after
# QEMU's few-instruction boot stub at counter 0. Instruction counts are
# therefore ticks * 16, precise to one tick, and include the hypervisor
# scrubbing partition RAM (CONFIG_BOOT_SCRUB; a second row without it) and
# copying the partition images.
#
#   tools/bench/boot.sh [FRAGMENT.dtsi]   (default dts/bench/boot.dtsi)
set -euo pipefail
cd "$(dirname "$0")/../.."
BUILD="${BUILD:-$PWD/build}"
FRAG="${1:-dts/bench/boot.dtsi}"
OUT="$BUILD/bench"
IMAGE="$BUILD/bulkhead.bin"
INSNS_PER_TICK=16
mkdir -p "$OUT"
[ -f "$IMAGE" ] || { echo "boot.sh: no $IMAGE (make hyp)" >&2; exit 2; }
config=$(basename "${FRAG%.dtsi}")

# The same configuration, each partition told to print its entry counter.
sed 's/bootargs = "/bootargs = "bench=1 /' "$FRAG" > "$OUT/$config-bench.dtsi"
gic=3
grep -q '^CONFIG_GICV2=y' "$BUILD/.config" 2>/dev/null && gic=2
# The board $BUILD is configured for: its defconfig and QEMU machine.
board=$(sed -n 's/^CONFIG_BOARD="\(.*\)"$/\1/p' "$BUILD/.config" 2>/dev/null)
case ${board:-qemu-virt} in
qemu-virt) mach=(-g "$gic" -c cortex-a57) defconfig=qemu-virt_defconfig ;;
xilinx-zcu102) mach=(-M xlnx-zcu102) defconfig=xilinx-zcu102_defconfig ;;
xilinx-versal-virt) mach=(-M xlnx-versal-virt) defconfig=xilinx-versal-virt_defconfig ;;
*) echo "boot.sh: no QEMU machine for $board" >&2; exit 2 ;;
esac
nparts=$(grep -c 'compatible = "xen,domain"' "$FRAG")

# A second build, the same but CONFIG_BOOT_SCRUB=n, so the cost of zeroing
# partition RAM at boot is measured side by side in the same run.
noscrub="$BUILD/noscrub"
if [ ! -f "$noscrub/.config" ]; then
	make -s O="$noscrub" "$defconfig" CONFIG_FRAGMENTS=tools/bench/noscrub.config > /dev/null
fi
make -s -j2 O="$noscrub" hyp > /dev/null

echo "config,boot_scrub,hyp_entry_to_first_guest_insns,hyp_entry_to_all_guests_insns,image_bytes,static_pool_bytes" \
	> "$OUT/boot.csv"
# $1 build dir, $2 boot_scrub column
measure() {
	local log="$OUT/boot-$config-scrub-$2.log" rc text data bss
	set +e
	GUESTDIR="$BUILD/guests" bash tools/qemu/run.sh "${mach[@]}" -t 300 -i shift=0,sleep=off \
		-k "$1/bulkhead.bin" -l "$log" "$OUT/$config-bench.dtsi" > /dev/null
	rc=$?
	set -e
	mapfile -t ticks < <(sed -n 's/.*: rt entry cntpct \([0-9]*\)$/\1/p' "$log" | sort -n)
	if [ "${#ticks[@]}" -ne "$nparts" ]; then
		echo "boot.sh: ${#ticks[@]} of $nparts partitions reported their entry (QEMU status" \
			"$rc), see $log" >&2
		exit 1
	fi
	first=$(( ticks[0] * INSNS_PER_TICK ))
	all=$(( ticks[${#ticks[@]} - 1] * INSNS_PER_TICK ))
	read -r text data bss _ < <(${CROSS_COMPILE:-aarch64-linux-gnu-}size "$1/bulkhead.elf" | tail -1)
	echo "$config,$2,$first,$all,$((text + data)),$bss" >> "$OUT/boot.csv"
}
scrub=n
grep -q '^CONFIG_BOOT_SCRUB=y' "$BUILD/.config" && scrub=y
measure "$BUILD" "$scrub"
first_default=$first all_default=$all
measure "$noscrub" n
cat "$OUT/boot.csv"

if command -v gnuplot > /dev/null; then
	gnuplot <<GP
set terminal pngcairo size 640,400 noenhanced
set output "$OUT/boot.png"
set title "Boot: hypervisor entry to partition entry ($config)"
set ylabel "instructions (QEMU -icount shift=0)"
set format y "%.0f"
set xrange [-0.6:1.6]
set style data histograms
set style fill solid 0.6
set boxwidth 0.6
set yrange [0:*]
set grid ytics
set key top left
\$d << EOD
"first partition" $first_default $first
"all partitions" $all_default $all
EOD
plot \$d using 2:xtic(1) title "boot scrub $scrub (default)", '' using 3 title "boot scrub n", \\
	2000000 with lines lw 2 title "target 2,000,000"
GP
	echo "wrote $OUT/boot.csv $OUT/boot.png"
fi

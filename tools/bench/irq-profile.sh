#!/usr/bin/env bash
# Where a bench-irq source's path spends its instructions, per function.
#
#   irq-profile.sh SOURCE [IMAGE [ELF]]      SOURCE: vtimer, spi or evtchn
#
# Boots guests/benchirq alone (dts/bench/irq.dtsi, -smp 1) twice under
# -icount shift=0 with QEMU's TB trace, with LO and HI samples of SOURCE,
# and prints the difference per function divided by HI - LO (the same
# method as paths-profile.sh, tools/bench/tb-profile.py): what one
# interrupt costs, set-up cancelled out. IMAGE: the release xpfo=on bench
# build (make bench-irq builds it).
set -euo pipefail
cd "$(dirname "$0")/../.."
SRC=${1:?usage: irq-profile.sh SOURCE [IMAGE [ELF]]}
BUILD="${BUILD:-$PWD/build}"
IMG="${2:-$BUILD/bench-release-xpfo-on/bulkhead.bin}"
ELF="${3:-${IMG%.bin}.elf}"
LO=${LO:-10}
HI=${HI:-60}
W="$BUILD/bench/irq-profile"
mkdir -p "$W"
export GUESTDIR="$BUILD/guests"
for it in "$LO" "$HI"; do
	sed "s/bootargs = \"tag=I\"/bootargs = \"tag=I samples=$it only=$SRC\"/" dts/bench/irq.dtsi \
		> "$W/irq-$it.dtsi"
	rm -f "$W/trace-$it.log"
	QEMU_EXTRA="-d exec,nochain,in_asm -D $W/trace-$it.log" \
		timeout 320 bash tools/qemu/run.sh -g 3 -c cortex-a53 -s 1 -t 300 \
		-i shift=0,sleep=off -k "$IMG" -l "$W/console-$it.log" "$W/irq-$it.dtsi" \
		> /dev/null 2>&1 || true
	grep -q 'benchirq: done' "$W/console-$it.log" ||
		{ echo "irq-profile.sh: run with $it samples did not finish" >&2; exit 1; }
done
python3 tools/bench/tb-profile.py "$ELF" "$BUILD/guests/benchirq.elf" "$W/trace-$LO.log" \
	"$W/trace-$HI.log" "$((HI - LO))"

#!/usr/bin/env bash
# Path-length bench (make bench-paths): one partition (guests/benchpaths,
# dts/bench/paths.dtsi) under QEMU -icount shift=0,sleep=off, -smp 1, so one
# instruction is one virtual nanosecond and a 62.5 MHz counter tick is 16
# instructions. Each op is timed per iteration (10,000 each) in counter
# ticks; mean, p99 and max are converted to instructions (p99 and max are
# therefore multiples of 16). Runs Bulkhead with CONFIG_XPFO=y and =n (same
# partition image, same QEMU command) and, where the anchor is present, Xen
# 4.17 (XEN_IMAGE, default /tmp/xen-anchor/cache/xen-4.17-arm64).
# Writes $BUILD/bench/paths.csv.
set -uo pipefail
cd "$(dirname "$0")/../.."
BUILD="${BUILD:-$PWD/build}"
OUT="$BUILD/bench"
XEN_IMAGE="${XEN_IMAGE:-${XEN_ANCHOR_WORK:-/tmp/xen-anchor}/cache/xen-4.17-arm64}"
FRAG=dts/bench/paths.dtsi
mkdir -p "$OUT"
CSV="$OUT/paths.csv"
echo "hypervisor,xpfo,op,mean_insns,p99_insns,max_insns" > "$CSV"

# $1 hypervisor label, $2 xpfo column, $3 image, $4 log
run_one() {
	local until=()
	[ "$1" = xen-4.17 ] && until=(-u 'bench: (done|FAIL)')
	timeout 320 bash tools/qemu/run.sh -g 3 -c cortex-a57 -s 1 -t 300 -i shift=0,sleep=off \
		-k "$3" -l "$4" "${until[@]}" "$FRAG" > /dev/null 2>&1
	if ! grep -q 'bench: done' "$4"; then
		echo "paths.sh: $1 xpfo=$2 did not finish, see $4" >&2
		return 1
	fi
	# "bench OP mean_ticks_x100 p99_ticks max_ticks n" -> instructions
	sed -n 's/.*bench \([a-z0-9_]*\) \([0-9]*\) \([0-9]*\) \([0-9]*\) [0-9]*$/\1 \2 \3 \4/p' "$4" |
	while read -r op mean p99 max; do
		echo "$1,$2,$op,$((mean * 16 / 100)),$((p99 * 16)),$((max * 16))" >> "$CSV"
	done
}

make -s -j2 O="$BUILD" guests hyp || exit 1
o="$BUILD/xpfo-off"
{ [ -f "$o/.config" ] || { make -s O="$o" qemu-virt_defconfig &&
	sed -i 's/^CONFIG_XPFO=y/# CONFIG_XPFO is not set/' "$o/.config" &&
	make -s O="$o" olddefconfig; }; } && make -s -j2 O="$o" hyp || exit 1
grep -q '^CONFIG_XPFO=y' "$BUILD/.config" || { echo "paths.sh: $BUILD has XPFO off" >&2; exit 1; }
rc=0
run_one bulkhead on "$BUILD/bulkhead.bin" "$OUT/paths-bulkhead-xpfo-on.log" || rc=1
run_one bulkhead off "$o/bulkhead.bin" "$OUT/paths-bulkhead-xpfo-off.log" || rc=1
if [ -f "$XEN_IMAGE" ]; then
	XEN_BOOTARGS="console=dtuart bootscrub=0 xsm=dummy loglvl=all guest_loglvl=all" \
		run_one xen-4.17 n/a "$XEN_IMAGE" "$OUT/paths-xen.log" || rc=1
else
	echo "paths.sh: no Xen anchor at $XEN_IMAGE, Xen rows skipped" >&2
fi
cat "$CSV"
exit $rc

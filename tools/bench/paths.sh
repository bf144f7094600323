#!/usr/bin/env bash
# Path-length bench (make bench-paths): one partition (guests/benchpaths,
# dts/bench/paths.dtsi) under QEMU -icount shift=0,sleep=off, -smp 1, so one
# instruction is one virtual nanosecond and a 62.5 MHz counter tick is 16
# instructions. Each op is timed per iteration (10,000 each) in counter
# ticks; mean, p99 and max are converted to instructions (p99 and max are
# therefore multiples of 16). Runs Bulkhead release builds (CONFIG_DEBUG=n,
# CONFIG_LOCK_CHECK=n) with CONFIG_XPFO=y and =n (same partition image, same
# QEMU command) and, where the anchor is present, Xen
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
echo "hypervisor,build,xpfo,op,mean_insns,p99_insns,max_insns" > "$CSV"

# $1 hypervisor label, $2 build column, $3 xpfo column, $4 image, $5 log
run_one() {
	local hv=$1 build=$2 xpfo=$3 img=$4 log=$5
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
		echo "$hv,$build,$xpfo,$op,$((mean * 16 / 100)),$((p99 * 16)),$((max * 16))" >> "$CSV"
	done
}

# What the product ships: release builds (CONFIG_DEBUG=n: -O2, no lock-order
# check), like the Debian Xen it is compared with. The default build keeps its
# debug configuration; the bench configurations live next to it.
# $1 build dir, $2 y|n for CONFIG_XPFO
release_build() {
	if [ ! -f "$1/.config" ]; then
		make -s O="$1" qemu-virt_defconfig > /dev/null || return 1
		sed -i -e 's/^CONFIG_DEBUG=y/# CONFIG_DEBUG is not set/' \
			-e 's/^CONFIG_LOCK_CHECK=y/# CONFIG_LOCK_CHECK is not set/' "$1/.config"
		[ "$2" = y ] || sed -i 's/^CONFIG_XPFO=y/# CONFIG_XPFO is not set/' "$1/.config"
		make -s O="$1" olddefconfig || return 1
	fi
	make -s -j2 O="$1" hyp > /dev/null || return 1
	grep -q '^# CONFIG_DEBUG is not set' "$1/.config" &&
		grep -q '^# CONFIG_LOCK_CHECK is not set' "$1/.config" &&
		{ [ "$2" = n ] || grep -q '^CONFIG_XPFO=y' "$1/.config"; } &&
		{ [ "$2" = y ] || grep -q '^# CONFIG_XPFO is not set' "$1/.config"; } ||
		{ echo "paths.sh: $1 is not a release xpfo=$2 configuration" >&2; return 1; }
}

make -s -j2 O="$BUILD" guests || exit 1
on="$BUILD/bench-release-xpfo-on"
off="$BUILD/bench-release-xpfo-off"
release_build "$on" y || exit 1
release_build "$off" n || exit 1
rc=0
run_one bulkhead release on "$on/bulkhead.bin" "$OUT/paths-bulkhead-xpfo-on.log" || rc=1
run_one bulkhead release off "$off/bulkhead.bin" "$OUT/paths-bulkhead-xpfo-off.log" || rc=1
if [ -f "$XEN_IMAGE" ]; then
	XEN_BOOTARGS="console=dtuart bootscrub=0 xsm=dummy loglvl=all guest_loglvl=all" \
		run_one xen-4.17 release-debian n/a "$XEN_IMAGE" "$OUT/paths-xen.log" || rc=1
else
	echo "paths.sh: no Xen anchor at $XEN_IMAGE, Xen rows skipped" >&2
fi
cat "$CSV"
exit $rc

#!/usr/bin/env bash
# EL2 core checks on the built image and on QEMU (PASS:/FAIL: lines).
#
# Builds three configurations under $BUILD/tests/arm: qemu-virt (GICv3),
# qemu-virt-gicv2, and a variant (no XPFO, no debug, WFI not trapped, WFE
# trapped) and checks the image format and size, the compile database, the
# panic path, power-off without semihosting and a two-partition boot of the
# variant. Every QEMU run is bounded by timeout.
set -u
cd "$(dirname "$0")/../.."
BUILD="${BUILD:-$PWD/build}"
OUT="$BUILD/tests/arm"
mkdir -p "$OUT"
pass() { echo "PASS: $1"; }
fail() { echo "FAIL: $1${2:+ ($2)}"; }
QEMU=(qemu-system-aarch64 -machine virt,virtualization=on -display none -monitor none
      -serial stdio -no-reboot -nic none -smp 4 -m 1G)

build() { # $1 = name, $2 = defconfig, $3.. = extra config lines
	local name=$1 def=$2 dir="$OUT/$1"
	shift 2
	# The extra lines are a fragment merged into the defconfig (no edits of
	# .config after the fact: their effect would hang on file timestamps).
	printf '%s\n' "$@" > "$OUT/$name.fragment"
	if make -s O="$dir" "$def" CONFIG_FRAGMENTS="$OUT/$name.fragment" > "$OUT/$name-build.log" 2>&1 &&
	   make -s -j2 O="$dir" hyp >> "$OUT/$name-build.log" 2>&1; then
		pass "arm/build-$name"
		return 0
	fi
	fail "arm/build-$name" "see $OUT/$name-build.log"
	return 1
}

# VERIFIES: REQ-ARM-001
check_image() { # $1 = build dir
	local img="$1/bulkhead.bin" elf="$1/bulkhead.elf" ok=1 magic off isz fsz
	magic=$(dd if="$img" bs=1 skip=56 count=4 2>/dev/null | od -An -tx1 | tr -d ' \n')
	off=$(od -An -t u8 -j 8 -N 8 "$img" | tr -d ' ')
	isz=$(od -An -t u8 -j 16 -N 8 "$img" | tr -d ' ')
	fsz=$(stat -c %s "$img")
	[ "$magic" = "41524d64" ] || { fail arm/image-header "magic $magic"; ok=0; }
	[ "$off" = "$((0x200000))" ] || { fail arm/image-header "text_offset $off"; ok=0; }
	[ "$isz" -ge "$fsz" ] || { fail arm/image-header "image_size $isz < file $fsz"; ok=0; }
	[ $ok -eq 1 ] && pass arm/image-header
	read -r text data _ < <(aarch64-linux-gnu-size "$elf" | tail -1)
	echo "image: text $text data $data (text+data $((text + data)) bytes, limit 131072)"
	if [ $((text + data)) -lt 131072 ]; then pass arm/image-size; else
		fail arm/image-size "text+data $((text + data))"; fi
}

# VERIFIES: REQ-ARM-015
check_build_outputs() { # $1 = build dir
	if python3 - "$1/compile_commands.json" <<'PY'
import json, sys, os
db = json.load(open(sys.argv[1]))
files = {os.path.relpath(e["file"]) for e in db if "arguments" in e}
need = {"arch/arm/head.S", "arch/arm/vectors.S", "arch/arm/traps.c", "common/mmio.c",
        "common/vpl011.c", "boards/qemu/virt/board.c"}
missing = need - files
bad = [e for e in db if e["file"].endswith(".c") and "-fstack-usage" not in e["arguments"]]
sys.exit(1 if missing or bad else 0)
PY
	then pass arm/compile-commands; else fail arm/compile-commands; fi
	local worst
	worst=$(cat "$1"/hyp/arch/arm/*.su "$1"/hyp/common/*.su "$1"/hyp/common/*/*.su 2>/dev/null |
		awk -F'\t' '{ if ($2 + 0 > m) { m = $2 + 0; f = $1 } } END { print m, f }')
	echo "largest stack frame: $worst"
	if [ -n "$worst" ] && [ "${worst%% *}" -gt 0 ] && [ "${worst%% *}" -lt 2048 ]; then
		pass arm/stack-frames
	else
		fail arm/stack-frames "largest frame: ${worst:-none}"
	fi
	# Whole call chains from every EL2 entry point, indirect calls included.
	python3 tools/stack/depth.py "$1/hyp" > "$OUT/stack-depth.txt" 2>&1
	worst=$(sed -n 's/^worst: //p' "$OUT/stack-depth.txt")
	echo "deepest EL2 call chain: ${worst:-?} bytes of $(sed -n 's/^CONFIG_STACK_SIZE=//p' "$1/.config")"
	if [ -n "$worst" ] && [ "$worst" -gt 0 ] && ! grep -q RECURSION "$OUT/stack-depth.txt" &&
	   [ "$worst" -lt $(( $(sed -n 's/^CONFIG_STACK_SIZE=//p' "$1/.config") / 2 )) ]; then
		pass arm/stack-depth
	else
		fail arm/stack-depth "see $OUT/stack-depth.txt"
	fi
}

# QEMU's own DTB has no partitions: boot must stop with a panic and a backtrace.
# VERIFIES: REQ-ARM-002 REQ-ARM-004 REQ-ARM-013
check_panic() { # $1 = build dir, $2 = gic, $3 = cpu
	local log="$OUT/panic-gic$2-$3.log" rc
	timeout 30 "${QEMU[@]}" -machine gic-version="$2" -cpu "$3" \
		-semihosting-config enable=on,target=native -kernel "$1/bulkhead.bin" \
		< /dev/null > "$log" 2>&1
	rc=$?
	if [ $rc -eq 3 ] && grep -q "halted by panic" "$log" &&
	   [ "$(grep -c '^  \[<[0-9a-f]*>\]' "$log")" -ge 2 ] &&
	   grep -q "XPFO: partition RAM is not mapped at EL2" "$log"; then
		pass "arm/panic-backtrace-gic$2-$3"
	else
		fail "arm/panic-backtrace-gic$2-$3" "status $rc, see $log"
	fi
	log="$OUT/poweroff-gic$2-$3.log"
	timeout 30 "${QEMU[@]}" -machine gic-version="$2" -cpu "$3" -kernel "$1/bulkhead.bin" \
		< /dev/null > "$log" 2>&1
	rc=$?
	if [ $rc -eq 0 ] && grep -q "halted by panic" "$log"; then
		pass "arm/poweroff-without-semihosting-gic$2-$3"
	else
		fail "arm/poweroff-without-semihosting-gic$2-$3" "status $rc, see $log"
	fi
}

# VERIFIES: REQ-ARM-002 REQ-ARM-011
check_variant_boot() { # $1 = build dir
	local log="$OUT/variant-demo.log" rc
	if ! make -s -j2 O="$BUILD" guests > "$OUT/guests-build.log" 2>&1; then
		fail arm/variant-demo "guests do not build, see $OUT/guests-build.log"
		return
	fi
	BUILD="$BUILD" bash tools/qemu/run.sh -g 3 -c cortex-a53 -t 60 -k "$1/bulkhead.bin" \
		-l "$log" dts/qemu-virt-demo.dtsi > /dev/null 2>&1
	rc=$?
	if [ $rc -eq 0 ] && grep -q "all partitions stopped, status 0" "$log" &&
	   ! grep -q "XPFO" "$log"; then
		pass arm/variant-demo
	else
		fail arm/variant-demo "status $rc, see $log"
	fi
}

if build gicv3 qemu-virt_defconfig; then
	check_image "$OUT/gicv3"
	check_build_outputs "$OUT/gicv3"
	check_panic "$OUT/gicv3" 3 cortex-a57
fi
if build gicv2 qemu-virt-gicv2_defconfig; then
	check_panic "$OUT/gicv2" 2 cortex-a53
fi
if build variant qemu-virt_defconfig "# CONFIG_XPFO is not set" "# CONFIG_DEBUG is not set" \
	"# CONFIG_TRAP_WFI is not set" "CONFIG_TRAP_WFE=y"; then
	check_variant_boot "$OUT/variant"
fi

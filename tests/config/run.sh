#!/usr/bin/env bash
# Build-time configuration check (tools/check-dtb, `make check-dtb`): every
# tests/config/dts/*.dts names the Kconfig values it runs with (// CONFIG:),
# the partial device trees loaded as its modules (// MODULE: ADDR NAME, the
# tree tests/config/dts/partial/NAME.dts), where the hypervisor image lies
# (// HYP: ADDR SIZE, check-dtb --hyp) and the exact message it must be
# rejected with (// EXPECT:), or OK.
# VERIFIES: REQ-BOOT-020 REQ-BOOT-021 REQ-BOOT-022 REQ-BOOT-023 REQ-BOOT-024
# VERIFIES: REQ-BOOT-025 REQ-BOOT-026 REQ-BOOT-027 REQ-BOOT-040 REQ-PT-004 REQ-PT-005 REQ-GNT-023
# VERIFIES: REQ-BOOT-016 REQ-SHM-001 REQ-SHM-002
set -u
cd "$(dirname "$0")/../.."
BUILD="${BUILD:-$(pwd)/build}"
TOOL="$BUILD/tools/check-dtb"
WORK="$BUILD/tests/config"
mkdir -p "$WORK"
if [ ! -x "$TOOL" ]; then
	make --no-print-directory -s "$TOOL" >/dev/null 2>&1 || { echo "FAIL: build check-dtb"; exit 1; }
fi

# tests/config/hw/: trees that describe the hardware too (common/hwdesc.c),
# each a change to base.dtsi; "// OUTPUT:" lines must appear as they are.
# VERIFIES: REQ-SOC-001 REQ-SOC-002 REQ-SOC-003 REQ-SOC-005 REQ-SOC-006
for dts in tests/config/dts/*.dts tests/config/hw/*.dts; do
	name=$(basename "$dts" .dts)
	want=$(sed -n 's|^// EXPECT: ||p' "$dts")
	printf '%s\n' $(sed -n 's|^// CONFIG: ||p' "$dts") > "$WORK/$name.config"
	if ! dtc -q -I dts -O dtb -i "$(dirname "$dts")" -o "$WORK/$name.dtb" "$dts"; then
		echo "FAIL: config/$name (dtc)"
		continue
	fi
	mods=()
	while read -r addr pname; do
		[ -n "$addr" ] || continue
		dtc -q -I dts -O dtb -o "$WORK/partial-$pname.dtb" "tests/config/dts/partial/$pname.dts" ||
			echo "FAIL: config/$name (dtc partial/$pname.dts)"
		mods+=(--module "$addr=$WORK/partial-$pname.dtb")
	done < <(sed -n 's|^// MODULE: ||p' "$dts")
	read -r haddr hsize < <(sed -n 's|^// HYP: ||p' "$dts")
	[ -n "${haddr:-}" ] && mods+=(--hyp "$haddr=$hsize")
	out=$("$TOOL" --config "$WORK/$name.config" "${mods[@]+"${mods[@]}"}" "$WORK/$name.dtb" 2>&1)
	rc=$?
	missing=
	while IFS= read -r line; do
		grep -qxF -- "$line" <<<"$out" || missing+=" '$line'"
	done < <(sed -n 's|^// OUTPUT: ||p' "$dts")
	if [ -n "$missing" ]; then
		echo "FAIL: config/$name: missing output$missing"
	elif [ "$want" = "OK" ]; then
		if [ $rc -eq 0 ]; then echo "PASS: config/$name accepted"
		else echo "FAIL: config/$name rejected: $out"; fi
	elif [ $rc -eq 1 ] && [ "$(grep -v '^hw: ' <<<"$out")" = "dts: $want" ]; then
		echo "PASS: config/$name"
	else
		echo "FAIL: config/$name (rc $rc): got '$out', want 'dts: $want'"
	fi
done

# The make target other suites call, against the build's own configuration:
# the Xen 4.17 anchor tree passes unchanged, an over-limit one fails the make.
anchor="$WORK/xen-anchor.dtb"
dtc -q -I dts -O dtb -o "$anchor" tests/unit/dts/xen-anchor.dts
mo="$WORK/make-o"
rm -rf "$mo"   # fresh: a stale .config would stop kconfig on new symbols
if make --no-print-directory -s O="$mo" check-dtb DTB="$anchor" > "$WORK/make-ok.log" 2>&1 &&
	grep -q "2 partitions" "$WORK/make-ok.log"; then
	echo "PASS: config/make-check-dtb-accepts-xen-anchor"
else
	echo "FAIL: config/make-check-dtb-accepts-xen-anchor: $(tail -3 "$WORK/make-ok.log")"
fi
if ! make --no-print-directory -s O="$mo" check-dtb DTB="$WORK/too-many-vcpus.dtb" \
	> "$WORK/make-bad.log" 2>&1 &&
	grep -q "^dts: /chosen/domU1: cpus = <5>, CONFIG_MAX_VCPUS=4$" "$WORK/make-bad.log"; then
	echo "PASS: config/make-check-dtb-fails-over-limit"
else
	echo "FAIL: config/make-check-dtb-fails-over-limit: $(tail -3 "$WORK/make-bad.log")"
fi

# Once the image is built, the make target hands its place in RAM to the
# checker (--hyp from bulkhead.elf's _start and _end): a shared memory
# region on it is refused. A stand-in ELF with just those two symbols.
printf '.globl _start, _end\n.set _start, 0x40200000\n.set _end, 0x40800000\n' |
	aarch64-linux-gnu-as -o "$mo/bulkhead.elf" - &&
	sed 's/0x7fe00000/0x40600000/' tests/config/dts/shm-ok-borrowers.dts |
	dtc -q -I dts -O dtb -o "$WORK/shm-on-hyp.dtb" -
if ! make --no-print-directory -s O="$mo" check-dtb DTB="$WORK/shm-on-hyp.dtb" \
	> "$WORK/make-hyp.log" 2>&1 &&
	grep -qxF 'dts: /chosen/a/shm: xen,shared-mem host range 0x40600000-0x407fffff overlaps the hypervisor (0x40200000-0x407fffff)' "$WORK/make-hyp.log"; then
	echo "PASS: config/make-check-dtb-hyp"
else
	echo "FAIL: config/make-check-dtb-hyp: $(tail -3 "$WORK/make-hyp.log")"
fi
rm -f "$mo/bulkhead.elf"

# A partial device tree the checker is not given is refused, not skipped.
out=$("$TOOL" "$WORK/pt-ok.dtb" 2>&1)
rc=$?
out=$(grep -v '^hw: ' <<<"$out")
if [ $rc -eq 1 ] && [ "$out" = "dts: /chosen/domU1/module@50100000: partial device tree at 0x50100000 not given (check-dtb --module 0x50100000=FILE.dtb)" ]; then
	echo "PASS: config/pt-module-not-given"
else
	echo "FAIL: config/pt-module-not-given: got '$out'"
fi
# The make target passes MODULES through.
if make --no-print-directory -s O="$mo" check-dtb DTB="$WORK/pt-ok.dtb" \
	MODULES="0x50100000=$WORK/partial-rtc.dtb 0x50300000=$WORK/partial-gpio.dtb" \
	> "$WORK/make-pt.log" 2>&1 && grep -q "MMIO 0x9030000+0x1000 at 0x9030000, IRQ 39$" "$WORK/make-pt.log"; then
	echo "PASS: config/make-check-dtb-modules"
else
	echo "FAIL: config/make-check-dtb-modules: $(tail -3 "$WORK/make-pt.log")"
fi

# The example in docs/device-tree.md stays a valid configuration.
{
	echo '/dts-v1/;'
	echo '/ { #address-cells = <2>; #size-cells = <2>;'
	echo '  memory@40000000 { device_type = "memory"; reg = <0 0x40000000 0 0x40000000>; }; };'
	sed -n '/^```dts$/,/^```$/p' docs/device-tree.md | sed '1d;$d'
} > "$WORK/docs-example.dts"
if dtc -q -I dts -O dtb -o "$WORK/docs-example.dtb" "$WORK/docs-example.dts" &&
	out=$("$TOOL" "$WORK/docs-example.dtb" 2>&1) && [[ "$out" == *"d1 domU1: 2 vCPUs on CPU 2,3"* ]]; then
	echo "PASS: config/docs-example"
else
	echo "FAIL: config/docs-example: ${out:-dtc failed}"
fi

#!/usr/bin/env bash
# Device assignment refused at boot with check-dtb's message: every
# tests/config/dts/pt-*.dts case (a QEMU virt tree with partitions and their
# partial device trees) boots the GICv3 hypervisor on QEMU with its partial
# trees loaded where its modules say, and must print "bulkhead: config: "
# and the case's // EXPECT: line (tests/config/run.sh checks check-dtb gives
# that same line), or boot its partitions for an OK case. Cases needing
# Kconfig values other than qemu-virt_defconfig's are left to the checker.
# The static shared memory and domain property cases on QEMU virt's own tree
# (shm-*, prop-* that include virt.dtsi) boot the same way.
# VERIFIES: REQ-PT-005 REQ-BOOT-027 REQ-SHM-002 REQ-BOOT-016
set -u
cd "$(dirname "$0")/../.."
BUILD="${BUILD:-$PWD/build}"
OUT="$BUILD/tests/passthru"
HYP="$OUT/hyp"
mkdir -p "$OUT"
{ [ -f "$HYP/.config" ] || make -s O="$HYP" qemu-virt_defconfig; } > "$OUT/build.log" 2>&1 &&
	make -s -j2 O="$HYP" hyp >> "$OUT/build.log" 2>&1
if [ ! -f "$HYP/bulkhead.bin" ]; then
	echo "FAIL: passthru/build-hyp (see $OUT/build.log)"
	exit 1
fi
spis=$(sed -n 's/^CONFIG_VGIC_NR_SPIS=//p' "$HYP/.config")
n=0
for dts in tests/config/dts/pt-*.dts \
	$(grep -l '^/include/ "virt.dtsi"' tests/config/dts/shm-*.dts tests/config/dts/prop-*.dts); do
	name=$(basename "$dts" .dts)
	conf=$(sed -n 's|^// CONFIG: *||p' "$dts")
	if [ -n "$conf" ] && [ "$conf" != "CONFIG_VGIC_NR_SPIS=$spis" ]; then
		continue
	fi
	want=$(sed -n 's|^// EXPECT: ||p' "$dts")
	dtc -q -I dts -O dtb -o "$OUT/$name.dtb" "$dts" || { echo "FAIL: passthru/$name (dtc)"; continue; }
	loaders=()
	while read -r addr pname; do
		[ -n "$addr" ] || continue
		dtc -q -I dts -O dtb -o "$OUT/partial-$pname.dtb" "tests/config/dts/partial/$pname.dts"
		loaders+=(-device "loader,file=$OUT/partial-$pname.dtb,addr=$addr,force-raw=on")
	done < <(sed -n 's|^// MODULE: ||p' "$dts")
	log="$OUT/$name.log"
	: > "$log"
	timeout 60 qemu-system-aarch64 -machine virt,virtualization=on,gic-version=3 \
		-cpu cortex-a57 -smp 4 -m 1G -display none -monitor none -serial stdio -nic none \
		-no-reboot -semihosting-config enable=on,target=native -kernel "$HYP/bulkhead.bin" \
		-dtb "$OUT/$name.dtb" "${loaders[@]+"${loaders[@]}"}" < /dev/null > "$log" 2>&1 &
	qpid=$!
	for _ in $(seq 1 300); do
		# The line after the one compared: the boot's panic, or the second partition's summary.
		grep -qE 'not starting any partition|bulkhead: d2 ' "$log" && break
		kill -0 "$qpid" 2>/dev/null || break
		sleep 0.1
	done
	kill "$qpid" 2>/dev/null
	wait "$qpid" 2>/dev/null
	sed -i 's/\r//g' "$log"
	got=$(grep -m1 'bulkhead: config:' "$log")
	if [ "$want" = OK ]; then
		if [ -z "$got" ] && grep -q 'bulkhead: 2 partitions,' "$log"; then
			echo "PASS: passthru/$name boots"
		else
			echo "FAIL: passthru/$name: '${got:-no summary}', log $log"
		fi
	elif [ "$got" = "bulkhead: config: $want" ]; then
		echo "PASS: passthru/$name"
	else
		echo "FAIL: passthru/$name: got '$got', want 'bulkhead: config: $want', log $log"
	fi
	n=$((n + 1))
done
[ "$n" -ge 20 ] || echo "FAIL: passthru/cases: only $n cases ran"

#!/usr/bin/env bash
# Linux 6.1 (Debian's arm64 kernel) as a 2-vCPU partition on the vGIC, GICv3
# and GICv2: its GIC driver probes the emulated distributor and
# redistributors, brings up the second vCPU with IPIs, runs on the virtual
# timer, and reaches the expected "no root filesystem" panic. The kernel
# comes from `make fetch` (LINUX_IMAGE overrides it); when it cannot be had,
# the test fails with the reason.
# VERIFIES: REQ-VGIC-004 REQ-VGIC-005 REQ-VGIC-009 REQ-VGIC-012 REQ-VGIC-013 REQ-VGIC-015
set -u
cd "$(dirname "$0")/../.."
BUILD="${BUILD:-$PWD/build}"
OUT="$BUILD/tests/vgic"
mkdir -p "$OUT"

if [ -z "${LINUX_IMAGE:-}" ]; then
	bash tools/fetch/fetch.sh > "$OUT/fetch.log" 2>&1 ||
		{ echo "FAIL: vgic/linux (make fetch: $(tail -1 "$OUT/fetch.log"))"; exit 1; }
fi
IMG="${LINUX_IMAGE:-$(tools/fetch/path.sh linux-image)}"
[ -f "$IMG" ] || { echo "FAIL: vgic/linux (no Linux Image at $IMG)"; exit 1; }

cat > "$OUT/linux.dtsi" <<DTS
/ {
	chosen {
		#address-cells = <2>;
		#size-cells = <2>;
		linux {
			compatible = "xen,domain";
			#address-cells = <2>;
			#size-cells = <2>;
			memory = <0 262144>;
			cpus = <2>;
			vpl011;
			module@auto {
				compatible = "multiboot,kernel", "multiboot,module";
				reg = <GUEST($(realpath "$IMG"))>;
				bootargs = "console=ttyAMA0 earlycon=pl011,0x22000000";
			};
		};
	};
};
DTS

for g in 3 2; do
	if [ $g = 3 ]; then o="$BUILD"; def=qemu-virt_defconfig; cpu=cortex-a57;
	else o="$BUILD/gicv2"; def=qemu-virt-gicv2_defconfig; cpu=cortex-a53; fi
	name="vgic/linux-gic$g-$cpu"
	log="$OUT/linux-gic$g.log"
	if ! { { [ -f "$o/.config" ] || make -s O="$o" "$def"; } && make -s -j2 O="$o" hyp; } \
		> "$OUT/build-gic$g.log" 2>&1; then
		echo "FAIL: $name (hypervisor build, see $OUT/build-gic$g.log)"
		continue
	fi
	tools/qemu/run.sh -g $g -c $cpu -k "$o/bulkhead.bin" -t 120 -l "$log" \
		-u 'end Kernel panic - not syncing: VFS' "$OUT/linux.dtsi" > /dev/null 2>&1
	why=()
	want=('smp: Brought up 1 node, 2 CPUs' 'arch_timer: cp15 timer\(s\) running'
	      'end Kernel panic - not syncing: VFS: Unable to mount root fs')
	[ $g = 3 ] && want+=('GICv3: 32 SPIs implemented' 'GICv3: CPU1: found redistributor 1 ')
	for r in "${want[@]}"; do
		grep -qaE -- "$r" "$log" || why+=("missing '$r'")
	done
	for r in 'BUG:|Oops|WARNING:|self-detected stall|failed to stop secondary|bulkhead: .*(crash|fault)'; do
		grep -qaE -- "$r" "$log" && why+=("forbidden '$r'")
	done
	if [ ${#why[@]} -eq 0 ]; then
		echo "PASS: $name"
	else
		echo "FAIL: $name ($(IFS=';'; echo "${why[*]}"), log $log)"
	fi
done

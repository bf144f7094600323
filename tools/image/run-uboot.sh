#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# run-uboot.sh SDCARD.img [GIC_VERSION] [extra QEMU args...]
# Boots QEMU virt at EL2 (virtualization=on, -smp 4, -m 1G) with Debian's
# U-Boot as firmware and SDCARD as a virtio disk; U-Boot's distro boot finds
# boot.scr on its FAT partition. No network device, so U-Boot's fallback to
# DHCP/PXE has nothing to wait for. Semihosting lets the hypervisor (or the
# test payload) end QEMU with its exit status.
# Environment: QEMU_CPU (cortex-a57), RUN_TIMEOUT (s, 120), UBOOT_BIOS,
# QEMU_DTB (a control DT for U-Boot, e.g. one holding a FIT public key).
set -euo pipefail
sd=${1:?usage: run-uboot.sh SDCARD.img [GIC_VERSION] [QEMU args...]}
gic=${2:-3}
shift $(( $# >= 2 ? 2 : 1 ))
bios=${UBOOT_BIOS:-/usr/lib/u-boot/qemu_arm64/u-boot.bin}
[ -f "$bios" ] || { echo "run-uboot: no $bios (Debian package u-boot-qemu)" >&2; exit 1; }
[ -f "$sd" ] || { echo "run-uboot: no $sd (make image)" >&2; exit 1; }
dtb=()
[ -n "${QEMU_DTB:-}" ] && dtb=(-dtb "$QEMU_DTB")
exec timeout --foreground -k 5 "${RUN_TIMEOUT:-120}" qemu-system-aarch64 \
	-machine virt,virtualization=on,gic-version="$gic" -cpu "${QEMU_CPU:-cortex-a57}" \
	-smp 4 -m 1G -nographic -nic none \
	-bios "$bios" "${dtb[@]}" \
	-drive if=none,file="$sd",format=raw,id=hd -device virtio-blk-device,drive=hd \
	-semihosting-config enable=on,target=native "$@"

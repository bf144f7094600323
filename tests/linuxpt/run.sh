#!/usr/bin/env bash
# Linux owning assigned devices: Debian's arm64 kernel (make fetch), direct-
# mapped, drives QEMU virt's virtio-mmio disk (an ext2 image on the first
# transport) and the PL031 RTC given by its partial device tree, in the
# scenario format of tests/qemu (tests/linuxpt/scenarios/*.scn). A missing
# artifact is a FAIL with the reason, never a skip.
set -u
cd "$(dirname "$0")/../.."
BUILD="${BUILD:-$PWD/build}"
OUT="$BUILD/tests/linuxpt"
mkdir -p "$OUT" "$BUILD/guests"
if ! bash tools/fetch/fetch.sh > "$OUT/fetch.log" 2>&1; then
	echo "FAIL: linuxpt/fetch (make fetch failed: kernel and busybox missing, see $OUT/fetch.log)"
	exit 0
fi
if ! make -s -j2 O="$BUILD" linux-pt-initramfs > "$OUT/build-initramfs.log" 2>&1; then
	echo "FAIL: linuxpt/initramfs (see $OUT/build-initramfs.log)"
	exit 0
fi
ln -sfn "$(tools/fetch/path.sh linux-image)" "$BUILD/guests/linux.bin"
ln -sfn "$BUILD/linux/initramfs-pt.cpio" "$BUILD/guests/linux-pt-initramfs.bin"
# The disk: a copy, so a run's writes never reach the next one.
cp "$BUILD/linux/pt-disk.img" "$OUT/disk.img"
export QEMU_EXTRA="-drive if=none,id=hd0,format=raw,file=$OUT/disk.img -device virtio-blk-device,drive=hd0,bus=virtio-mmio-bus.0"
SCENARIO_DIR=tests/linuxpt SUITE=linuxpt exec bash tests/qemu/scenarios.sh "$@"

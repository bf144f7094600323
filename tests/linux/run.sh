#!/usr/bin/env bash
# Linux partitions: Debian's arm64 kernel (make fetch) booted as a Xen
# dom0less domU with the project's initramfs (tools/linux/mkinitramfs.sh:
# busybox, the kernel's own Xen modules, the test programs of
# tools/linux/progs), in the scenario format of tests/qemu (each
# tests/linux/scenarios/*.scn; docs/writing-tests.md). A missing artifact
# is a FAIL with the reason, never a skip.
#
#   tests/linux/run.sh [scenario ...]
#
# In a partition's fragment, GUEST(linux) is the kernel Image,
# GUEST(linux-initramfs) the initramfs and GUEST(linux-blk-initramfs) the
# virtual-disk scenarios' one (links in $BUILD/guests).
set -u
cd "$(dirname "$0")/../.."
BUILD="${BUILD:-$PWD/build}"
OUT="$BUILD/tests/linux"
mkdir -p "$OUT" "$BUILD/guests"
if ! bash tools/fetch/fetch.sh > "$OUT/fetch.log" 2>&1; then
	echo "FAIL: linux/fetch (make fetch failed: kernel and busybox missing, see $OUT/fetch.log)"
	exit 0
fi
if ! make -s -j2 O="$BUILD" linux-initramfs linux-blk-initramfs > "$OUT/build-initramfs.log" 2>&1; then
	echo "FAIL: linux/initramfs (see $OUT/build-initramfs.log)"
	exit 0
fi
# VERIFIES: REQ-LNX-004
if ! SOURCE_DATE_EPOCH=0 bash tools/linux/mkinitramfs.sh -o "$OUT/initramfs-again.cpio" \
	$(for p in "$BUILD"/linux/progs/*; do printf -- '-p %s ' "$p"; done) ||
	! cmp -s "$OUT/initramfs-again.cpio" "$BUILD/linux/initramfs.cpio"; then
	echo "FAIL: linux/initramfs (a second build gave other bytes)"
else
	echo "PASS: linux/initramfs (reproducible)"
fi
ln -sfn "$(tools/fetch/path.sh linux-image)" "$BUILD/guests/linux.bin"
ln -sfn "$BUILD/linux/initramfs.cpio" "$BUILD/guests/linux-initramfs.bin"
ln -sfn "$BUILD/linux/initramfs-blk.cpio" "$BUILD/guests/linux-blk-initramfs.bin"
SCENARIO_DIR=tests/linux SUITE=linux exec bash tests/qemu/scenarios.sh "$@"

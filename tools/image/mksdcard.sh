#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# mksdcard.sh OUT.img FILE...: an MBR disk image with one bootable FAT
# partition (from 1 MiB, the usual SD erase-block alignment) holding FILEs.
# Built in a plain file with sfdisk, mkfs.vfat and mtools: no root, no loop
# devices. The partition is at least 32 MiB so FAT16 applies and there is
# room to add board firmware (RPi4 start4.elf etc.) next to the image.
# Identifiers and timestamps are fixed (SOURCE_DATE_EPOCH, or 1980-01-01)
# so the same inputs give the same bytes.
set -euo pipefail
export SOURCE_DATE_EPOCH=${SOURCE_DATE_EPOCH:-315532800}
[ $# -ge 2 ] || { echo "usage: mksdcard.sh OUT.img FILE..." >&2; exit 1; }
out=$1
shift
need=0
for f in "$@"; do
	[ -f "$f" ] || { echo "mksdcard: no file $f" >&2; exit 1; }
	need=$((need + $(stat -c %s "$f")))
done
mib=$((1024 * 1024))
part_mib=$(( (need * 5 / 4 + 4 * mib + mib - 1) / mib ))
[ "$part_mib" -ge 32 ] || part_mib=32
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
truncate -s $(( (part_mib + 1) * mib )) "$tmp/disk.img"
printf 'label: dos\nlabel-id: 0x42554c4b\nstart=2048, type=e, bootable\n' | sfdisk -q "$tmp/disk.img"
truncate -s $((part_mib * mib)) "$tmp/fat.img"
mkfs.vfat --invariant -i 42554c4b -n BULKHEAD "$tmp/fat.img" >/dev/null
mcopy -i "$tmp/fat.img" "$@" ::
dd if="$tmp/fat.img" of="$tmp/disk.img" bs=1M seek=1 conv=notrunc status=none
mv "$tmp/disk.img" "$out"

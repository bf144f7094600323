#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# mkbootscr.sh FIT_ADDR OUT.scr: boot.scr (legacy script image) from boot.cmd.in.
set -euo pipefail
[ $# -eq 2 ] || { echo "usage: mkbootscr.sh FIT_ADDR OUT.scr" >&2; exit 1; }
here=$(dirname "$(readlink -f "$0")")
sed "s/@FIT_ADDR@/$1/g" "$here/boot.cmd.in" > "${2%.scr}.cmd"
mkimage -q -A arm64 -O linux -T script -C none -n "Bulkhead boot script" \
	-d "${2%.scr}.cmd" "$2" >/dev/null

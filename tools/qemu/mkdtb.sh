#!/usr/bin/env bash
# Compose a system device tree for QEMU virt: the machine's own tree (from
# QEMU -machine dumpdtb with the same -smp/-m/gic-version), plus a /chosen
# fragment of partitions (Xen dom0less binding), with each partition image
# placed as a boot module.
#
#   mkdtb.sh [-g 3|2] [-c CPU] [-s SMP] [-m MEM] [-G guestdir] -o OUT.dtb FRAGMENT.dtsi
#
# In the fragment, `reg = <GUEST(name)>;` stands for the image
# <guestdir>/<name>.bin (or a path, if name holds a '/'): every occurrence
# gets its own 2 MiB-aligned load address from MODULE_BASE (0x48200000) up:
# QEMU puts the DTB itself at RAM base + 128 MiB (0x48000000) when there is
# no initrd, so modules start 2 MiB above it
# and becomes `reg = <0x0 ADDR 0x0 SIZE>` with the exact file size; a node
# name `module@auto` takes the address of the GUEST() that follows it. A
# GUEST(path.dts) is a partial device tree (multiboot,device-tree): compiled
# with dtc next to OUT and loaded as the blob.
# Writes OUT.dtb, OUT.dts, and OUT.loader: one QEMU argument per line
# (`-device` / `loader,file=...,addr=...,force-raw=on`).
# XEN_BOOTARGS, when set, becomes /chosen/xen,xen-bootargs (to boot Xen 4.17
# on the same tree for comparison).
set -euo pipefail

GIC=3 CPU=cortex-a57 SMP=4 MEM=1G OUT=
GUESTDIR="${GUESTDIR:-build/guests}"
MODULE_BASE="${MODULE_BASE:-0x48200000}"
QEMU="${QEMU:-qemu-system-aarch64}"
while getopts "g:c:s:m:o:G:" o; do
	case $o in
	g) GIC=$OPTARG ;; c) CPU=$OPTARG ;; s) SMP=$OPTARG ;; m) MEM=$OPTARG ;;
	o) OUT=$OPTARG ;; G) GUESTDIR=$OPTARG ;;
	*) sed -n '2,19p' "$0" >&2; exit 2 ;;
	esac
done
shift $((OPTIND - 1))
[ $# -eq 1 ] && [ -n "$OUT" ] || { sed -n '2,19p' "$0" >&2; exit 2; }
FRAG=$1
[ -f "$FRAG" ] || { echo "mkdtb.sh: no fragment $FRAG" >&2; exit 2; }
base="${OUT%.dtb}"
mkdir -p "$(dirname "$OUT")"

timeout 30 "$QEMU" -machine "virt,virtualization=on,gic-version=$GIC,dumpdtb=$base.machine.dtb" \
	-cpu "$CPU" -smp "$SMP" -m "$MEM" -display none -monitor none -serial none -nic none \
	>/dev/null 2>&1 || true
[ -s "$base.machine.dtb" ] || { echo "mkdtb.sh: QEMU dumpdtb failed" >&2; exit 2; }

# Resolve every GUEST(name) in order: address, size, file.
addr=$((MODULE_BASE))
: > "$base.loader"
declare -a subst=()
while IFS= read -r name; do
	if [[ "$name" == */* ]]; then file=$name; else file="$GUESTDIR/$name.bin"; fi
	[ -f "$file" ] || { echo "mkdtb.sh: $FRAG needs $file (make guests?)" >&2; exit 2; }
	if [[ "$file" == *.dts ]]; then
		pdtb="$base.$(basename "${file%.dts}").dtb"
		dtc -q -I dts -O dtb -o "$pdtb" "$file" || { echo "mkdtb.sh: dtc $file failed" >&2; exit 2; }
		file=$pdtb
	fi
	size=$(stat -L -c %s "$file")
	subst+=("$(printf '0x%x 0x%x' "$addr" "$size")")
	printf -- '-device\nloader,file=%s,addr=0x%x,force-raw=on\n' "$(realpath "$file")" "$addr" \
		>> "$base.loader"
	addr=$(( (addr + size + 0x1fffff) & ~0x1fffff ))
done < <(grep -o 'GUEST([^)]*)' "$FRAG" | sed 's/^GUEST(//; s/)$//')

# Substitute in order; module@auto takes the address of the next GUEST().
awk -v list="$(printf '%s\n' "${subst[@]+"${subst[@]}"}")" '
BEGIN { n = split(list, l, "\n"); i = 1; a = 1 }
{
	while (match($0, /module@auto/)) {
		split(l[a++], p, " ")
		$0 = substr($0, 1, RSTART - 1) "module@" substr(p[1], 3) substr($0, RSTART + RLENGTH)
	}
	while (match($0, /GUEST\([^)]*\)/)) {
		split(l[i++], p, " ")
		$0 = substr($0, 1, RSTART - 1) "0x0 " p[1] " 0x0 " p[2] substr($0, RSTART + RLENGTH)
	}
	print
}' "$FRAG" > "$base.fragment.dtsi"

{
	dtc -q -I dtb -O dts "$base.machine.dtb"
	cat "$base.fragment.dtsi"
	if [ -n "${XEN_BOOTARGS:-}" ]; then
		printf '/ { chosen { xen,xen-bootargs = "%s"; }; };\n' "$XEN_BOOTARGS"
	fi
} > "$base.dts"
dtc -q -I dts -O dtb -o "$OUT" "$base.dts"

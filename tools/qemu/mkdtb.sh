#!/usr/bin/env bash
# Compose a system device tree for a QEMU machine: the machine's own tree
# plus a /chosen fragment of partitions (Xen dom0less binding), with each
# partition image placed as a boot module. The machine's tree is
#   virt              QEMU's (-machine dumpdtb with the same -smp/-m/gic-version)
#   xlnx-versal-virt  QEMU's (-machine dumpdtb with the same -m, and -kernel IMAGE:
#                     only a tree dumped for a kernel boot has /psci and the CPUs'
#                     enable-method, which QEMU does not add to a -dtb)
#   xlnx-zcu102       the vendor's: zynqmp-zcu102-rev1.0.dtb from Debian's kernel
#                     package (make fetch; VENDOR_DTB= another), which QEMU does
#                     not build itself; the /chosen nodes are added to the blob as
#                     Xen's ImageBuilder adds them (QEMU then writes /memory for
#                     -m and replaces /psci, as it does with any -dtb)
#
#   mkdtb.sh [-M MACHINE] [-g 3|2] [-c CPU] [-s SMP] [-m MEM] [-G guestdir] [-k IMAGE]
#            -o OUT.dtb FRAGMENT.dtsi
#
# In the fragment, `reg = <GUEST(name)>;` stands for the image
# <guestdir>/<name>.bin (or a path, if name holds a '/'): every occurrence
# gets its own 2 MiB-aligned load address from MODULE_BASE (RAM base +
# 130 MiB: 0x48200000 on virt, 0x08200000 on the Xilinx machines) up:
# QEMU puts the DTB itself at RAM base + 128 MiB when there is no initrd,
# so modules start 2 MiB above it
# and becomes `reg = <0x0 ADDR 0x0 SIZE>` with the exact file size; a node
# name `module@auto` takes the address of the GUEST() that follows it. A
# GUEST(path.dts) is a partial device tree (multiboot,device-tree): compiled
# with dtc next to OUT and loaded as the blob.
# Writes OUT.dtb, OUT.dts, and OUT.loader: one QEMU argument per line
# (`-device` / `loader,file=...,addr=...,force-raw=on`).
# MKDTB_EXTRA names one more fragment appended last.
# XEN_BOOTARGS, when set, becomes /chosen/xen,xen-bootargs (to boot Xen 4.17
# on the same tree for comparison).
set -euo pipefail

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
MACHINE=virt GIC=3 CPU=cortex-a57 SMP=4 MEM=1G OUT= KERNEL=build/bulkhead.bin
GUESTDIR="${GUESTDIR:-build/guests}"
QEMU="${QEMU:-qemu-system-aarch64}"
while getopts "M:g:c:s:m:o:G:k:" o; do
	case $o in
	M) MACHINE=$OPTARG ;; k) KERNEL=$OPTARG ;;
	g) GIC=$OPTARG ;; c) CPU=$OPTARG ;; s) SMP=$OPTARG ;; m) MEM=$OPTARG ;;
	o) OUT=$OPTARG ;; G) GUESTDIR=$OPTARG ;;
	*) sed -n '2,28p' "$0" >&2; exit 2 ;;
	esac
done
shift $((OPTIND - 1))
[ $# -eq 1 ] && [ -n "$OUT" ] || { sed -n '2,28p' "$0" >&2; exit 2; }
case $MACHINE in
virt) MODULE_BASE="${MODULE_BASE:-0x48200000}" ;;
xlnx-zcu102|xlnx-versal-virt) MODULE_BASE="${MODULE_BASE:-0x08200000}" ;;
*) echo "mkdtb.sh: unknown machine $MACHINE (virt, xlnx-zcu102, xlnx-versal-virt)" >&2; exit 2 ;;
esac
FRAG=$1
[ -f "$FRAG" ] || { echo "mkdtb.sh: no fragment $FRAG" >&2; exit 2; }
base="${OUT%.dtb}"
mkdir -p "$(dirname "$OUT")"

rm -f "$base.machine.dtb"
case $MACHINE in
virt)
	timeout 30 "$QEMU" -machine "virt,virtualization=on,gic-version=$GIC,dumpdtb=$base.machine.dtb" \
		-cpu "$CPU" -smp "$SMP" -m "$MEM" -display none -monitor none -serial none -nic none \
		>/dev/null 2>&1 || true
	;;
xlnx-versal-virt)
	[ -f "$KERNEL" ] || { echo "mkdtb.sh: no image $KERNEL to dump Versal's boot tree" >&2; exit 2; }
	timeout 30 "$QEMU" -machine "xlnx-versal-virt,dumpdtb=$base.machine.dtb" -smp 4 -m "$MEM" \
		-kernel "$KERNEL" -display none -monitor none -serial none -nic none >/dev/null 2>&1 ||
		true
	;;
xlnx-zcu102)
	vendor="${VENDOR_DTB:-}"
	if [ -z "$vendor" ]; then
		dtbs=$("$HERE/../fetch/path.sh" linux-dtbs) || exit 2
		vendor="$dtbs/xilinx/zynqmp-zcu102-rev1.0.dtb"
	fi
	[ -f "$vendor" ] || { echo "mkdtb.sh: no vendor tree $vendor (make fetch)" >&2; exit 2; }
	cp "$vendor" "$base.machine.dtb"
	;;
esac
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
	# MKDTB_EXTRA: one more fragment, last (the benches' tree changes for Xen).
	if [ -n "${MKDTB_EXTRA:-}" ]; then
		cat "$MKDTB_EXTRA"
	fi
	if [ -n "${XEN_BOOTARGS:-}" ]; then
		printf '/ { chosen { xen,xen-bootargs = "%s"; }; };\n' "$XEN_BOOTARGS"
	fi
} > "$base.dts"
dtc -q -I dts -O dtb -o "$OUT" "$base.dts"

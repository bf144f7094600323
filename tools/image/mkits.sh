#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Writes the FIT source (.its) for bulkhead.itb from the system device tree.
#
#   mkits.sh -o OUT.its -H HYP.bin -a HYP_ADDR -d SYSTEM.dtb [-m MANIFEST]
#            [-k KEY_NAME] [-A FIT_ADDR_FILE] [-S]
#
# The system DT is the single source of truth for where each dom0less
# module lives: every /chosen/<domain>/<node> whose compatible starts with
# "multiboot," becomes a FIT loadable whose load address is the first cell
# pair of its reg, so U-Boot copies it exactly where the hypervisor (and the
# -kernel path, which uses the same DT) expects it. MANIFEST maps load
# addresses to files, one "ADDR FILE" per line (# comments allowed; a
# relative FILE is relative to the manifest's directory).
# FIT_ADDR_FILE receives the RAM address boot.scr loads the FIT to: the first
# 2 MiB boundary above every load, so bootm never overlaps what it copies.
# -S shrinks each module's reg size in SYSTEM.dtb (in place) to its file's
# size, so a board tree can reserve room for a module in its source and
# still tell the hypervisor the exact image size, as with -kernel.
set -euo pipefail

die() { echo "mkits: $*" >&2; exit 1; }

out= hyp= hyp_addr= dtb= manifest= key= fit_addr_file= shrink=
while getopts "o:H:a:d:m:k:A:S" opt; do
	case $opt in
	o) out=$OPTARG ;;
	H) hyp=$OPTARG ;;
	a) hyp_addr=$OPTARG ;;
	d) dtb=$OPTARG ;;
	m) manifest=$OPTARG ;;
	k) key=$OPTARG ;;
	A) fit_addr_file=$OPTARG ;;
	S) shrink=1 ;;
	*) die "usage: see the header of $0" ;;
	esac
done
[ -n "$out" ] && [ -n "$hyp" ] && [ -n "$hyp_addr" ] && [ -n "$dtb" ] || die "missing argument"
[ -f "$hyp" ] || die "no hypervisor image $hyp (build it first)"
[ -f "$dtb" ] || die "no system device tree $dtb"
command -v fdtget >/dev/null || die "fdtget missing (Debian device-tree-compiler)"

abspath() { readlink -f "$1"; }
hex() { printf '0x%x' "$1"; }
size_of() { stat -c %s "$1"; }

# Load address -> file, from the manifest.
declare -A file_at=()
if [ -n "$manifest" ]; then
	[ -f "$manifest" ] || die "no module manifest $manifest"
	while read -r a f _; do
		case $a in ''|'#'*) continue ;; esac
		[ -n "$f" ] || die "$manifest: '$a' has no file"
		# Relative names are relative to the manifest, wherever make runs.
		[[ $f == /* ]] || f=$(dirname "$manifest")/$f
		[ -f "$f" ] || die "$manifest: no file $f"
		file_at[$(hex "$a")]=$(abspath "$f")
	done < "$manifest"
fi

# cells NODE PROP DEFAULT: a cell-count property, DT spec defaults otherwise.
cells() { fdtget -t u "$dtb" "$1" "$2" 2>/dev/null || echo "$3"; }

# Every region U-Boot writes or the image claims, "start end name", to
# refuse overlaps. An arm64 Image header ("ARM\x64" at 56) gives the size
# the image occupies once running (BSS included), beyond the file itself.
hyp_span=$(size_of "$hyp")
if [ "$(od -An -tx1 -j56 -N4 "$hyp" | tr -d ' \n')" = 41524d64 ]; then
	isz=$(od -An -tu8 -j16 -N8 "$hyp" | tr -d ' \n')
	[ "$isz" -gt "$hyp_span" ] && hyp_span=$isz
fi
regions=("$(hex "$hyp_addr") $(hex $((hyp_addr + hyp_span))) hypervisor")
images= loadables= used=0
n=0
for dom in $(fdtget -l "$dtb" /chosen 2>/dev/null); do
	dpath=/chosen/$dom
	compat=$(fdtget -t s "$dtb" "$dpath" compatible 2>/dev/null || true)
	[[ " $compat " == *" xen,domain "* ]] || continue
	ac=$(cells "$dpath" '#address-cells' 2)
	sc=$(cells "$dpath" '#size-cells' 1)
	for mod in $(fdtget -l "$dtb" "$dpath" 2>/dev/null); do
		mpath=$dpath/$mod
		mcompat=$(fdtget -t s "$dtb" "$mpath" compatible 2>/dev/null || true)
		case " $mcompat" in
		*" multiboot,kernel"*) type=kernel ;;
		*" multiboot,ramdisk"*) type=ramdisk ;;
		*" multiboot,device-tree"*) type=flat_dt ;;
		*) continue ;;
		esac
		read -r -a reg <<< "$(fdtget -t u "$dtb" "$mpath" reg 2>/dev/null || true)"
		[ "${#reg[@]}" -ge $((ac + sc)) ] || die "$mpath: reg needs $ac address + $sc size cells"
		addr=0 size=0
		for ((i = 0; i < ac; i++)); do addr=$(((addr << 32) | reg[i])); done
		for ((i = ac; i < ac + sc; i++)); do size=$(((size << 32) | reg[i])); done
		addr=$(hex $addr)
		f=${file_at[$addr]:-}
		[ -n "$f" ] || die "$mpath: no file for the module at $addr (add '$addr FILE' to the manifest)"
		fsize=$(size_of "$f")
		[ "$fsize" -le "$size" ] || die "$mpath: $f is $fsize bytes, larger than its reg size $size"
		if [ -n "$shrink" ] && [ "$fsize" -ne "$size" ]; then
			cells_out=("${reg[@]:0:ac}")
			[ "$sc" -eq 2 ] && cells_out+=($((fsize >> 32)))
			cells_out+=($((fsize & 0xffffffff)))
			fdtput -t u "$dtb" "$mpath" reg "${cells_out[@]}" || die "$mpath: fdtput failed"
		fi
		regions+=("$addr $(hex $((addr + size))) $mpath")
		unset "file_at[$addr]"
		n=$((n + 1))
		name="$dom-${mod%%@*}-$n"
		entry=
		[ "$type" = kernel ] && entry="entry = <$(printf '0x%x 0x%x' $((addr >> 32)) $((addr & 0xffffffff)))>;"
		images+="
		$name {
			description = \"$mpath\";
			data = /incbin/(\"$f\");
			type = \"$type\";
			arch = \"arm64\";
			os = \"linux\";
			compression = \"none\";
			load = <$(printf '0x%x 0x%x' $((addr >> 32)) $((addr & 0xffffffff)))>;
			$entry
			hash-1 { algo = \"sha256\"; };
		};"
		loadables+="${loadables:+, }\"$name\""
		used=$((used + 1))
	done
done
for a in "${!file_at[@]}"; do
	die "manifest: ${file_at[$a]} at $a matches no /chosen module in $dtb"
done

# Refuse overlapping loads: U-Boot would silently overwrite one with another.
sorted=$(printf '%s\n' "${regions[@]}" | sort -k1,1 -g)
prev_end=0 prev_name= top=0
while read -r s e name; do
	[ $((s)) -ge $((prev_end)) ] || die "$name ($s) overlaps $prev_name (ends $(hex $prev_end))"
	prev_end=$((e)) prev_name=$name
	[ $((e)) -gt $top ] && top=$((e))
done <<< "$sorted"
fit_addr=$(( (top + 0x1fffff) & ~0x1fffff ))
[ -n "$fit_addr_file" ] && hex $fit_addr > "$fit_addr_file"

hyp_hi=$((hyp_addr >> 32)) hyp_lo=$((hyp_addr & 0xffffffff))
sig=
if [ -n "$key" ]; then
	sig="
			signature-1 {
				algo = \"sha256,rsa2048\";
				key-name-hint = \"$key\";
				sign-images = \"kernel\", \"fdt\"${loadables:+, \"loadables\"};
			};"
fi

cat > "$out" <<ITS
/*
 * Generated by tools/image/mkits.sh from $(basename "$dtb"): do not edit.
 * type "kernel" (not "kernel_noload"): U-Boot copies the hypervisor to its
 * link address and jumps to "entry" at EL2 with x0 = the device tree.
 */
/dts-v1/;

/ {
	description = "Bulkhead hypervisor, $used partition modules, system device tree";
	#address-cells = <2>;

	images {
		hypervisor {
			description = "Bulkhead hypervisor";
			data = /incbin/("$(abspath "$hyp")");
			type = "kernel";
			arch = "arm64";
			os = "linux";
			compression = "none";
			load = <$(printf '0x%x 0x%x' $hyp_hi $hyp_lo)>;
			entry = <$(printf '0x%x 0x%x' $hyp_hi $hyp_lo)>;
			hash-1 { algo = "sha256"; };
		};
		system-dtb {
			description = "System device tree (hardware + dom0less /chosen)";
			data = /incbin/("$(abspath "$dtb")");
			type = "flat_dt";
			arch = "arm64";
			compression = "none";
			hash-1 { algo = "sha256"; };
		};$images
	};

	configurations {
		default = "bulkhead";
		bulkhead {
			description = "Bulkhead with its partitions";
			kernel = "hypervisor";
			fdt = "system-dtb";${loadables:+
			loadables = $loadables;}$sig
		};
	};
};
ITS

#!/usr/bin/env bash
# Build the Linux partitions' initramfs, reproducibly: busybox-static, the
# kernel modules named (with what they depend on, from the same kernel
# package as the Image), the static test programs, /init and extra files,
# in a newc cpio whose bytes depend only on its inputs (tools/linux/newc.py:
# sorted names, owner 0:0, every time stamp SOURCE_DATE_EPOCH, default 0,
# /dev/console made without root).
#
#   mkinitramfs.sh -o OUT.cpio [-m "mod1 mod2 ..."] [-p PROG]... [-f SRC:DST]...
#
# -m  modules by name (xen-evtchn ...), loaded by /init in this order after
#     their dependencies; default "xen-evtchn xen-gntalloc xen-gntdev"
# -p  a program (static arm64 ELF) installed as /bin/<its name>
# -f  any file, installed at DST (absolute path in the initramfs)
# Artifacts: tools/fetch/path.sh busybox, linux-modules (run make fetch).
# What /init does with them: tools/linux/init (docs/writing-tests.md).
set -euo pipefail

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
ROOT="$(cd "$HERE/../.." && pwd)"
OUT= MODS="xen-evtchn xen-gntalloc xen-gntdev"
PROGS=() FILES=()
while getopts "o:m:p:f:" o; do
	case $o in
	o) OUT=$OPTARG ;; m) MODS=$OPTARG ;; p) PROGS+=("$OPTARG") ;; f) FILES+=("$OPTARG") ;;
	*) sed -n '2,16p' "$0" >&2; exit 2 ;;
	esac
done
[ -n "$OUT" ] || { sed -n '2,16p' "$0" >&2; exit 2; }
BUSYBOX=$("$ROOT/tools/fetch/path.sh" busybox)
MODDIR=$("$ROOT/tools/fetch/path.sh" linux-modules)
REL=$("$ROOT/tools/fetch/path.sh" linux-version)

stage=$(mktemp -d "${TMPDIR:-/tmp}/initramfs.XXXXXX")
trap 'rm -rf "$stage"' EXIT
mkdir -p "$stage"/{bin,sbin,etc,proc,sys,dev,tmp,root,mnt,usr/bin,usr/sbin,lib/modules/"$REL"}
install -m 0755 "$BUSYBOX" "$stage/bin/busybox"
# The applet links are made by /init (busybox --install -s): no arm64 busybox runs here.
ln -s busybox "$stage/bin/sh"
install -m 0755 "$HERE/init" "$stage/init"

# Modules and their dependencies (modules.dep lists them deepest last).
declare -A seen=()
order=()
add_mod() { # $1 = path relative to the modules tree
	local m="$1" deps d
	[ -n "${seen[$m]:-}" ] && return 0
	seen[$m]=1
	deps=$(awk -v m="$m:" '$1 == m { $1 = ""; print }' "$MODDIR/modules.dep")
	for d in $deps; do add_mod "$d"; done
	order+=("$m")
}
for name in $MODS; do
	rel=$(awk -F: -v n="/$name.ko" 'index($1, n) == length($1) - length(n) + 1 { print $1; exit }' \
		"$MODDIR/modules.dep")
	[ -n "$rel" ] || { echo "mkinitramfs.sh: no module $name in $MODDIR" >&2; exit 1; }
	add_mod "$rel"
done
: > "$stage/etc/modules"
for m in "${order[@]}"; do
	mkdir -p "$stage/lib/modules/$REL/$(dirname "$m")"
	case $m in
	*.xz) xz -dc "$MODDIR/$m" > "$stage/lib/modules/$REL/${m%.xz}"; m=${m%.xz} ;;
	*) install -m 0644 "$MODDIR/$m" "$stage/lib/modules/$REL/$m" ;;
	esac
	echo "/lib/modules/$REL/$m" >> "$stage/etc/modules"
done
for p in "${PROGS[@]+"${PROGS[@]}"}"; do
	install -m 0755 "$p" "$stage/bin/$(basename "$p")"
done
for f in "${FILES[@]+"${FILES[@]}"}"; do
	mkdir -p "$stage/$(dirname "${f#*:}")"
	install -m 0644 "${f%%:*}" "$stage/${f#*:}"
done

mkdir -p "$(dirname "$OUT")"
# The kernel opens /dev/console for /init before anything is mounted.
python3 "$HERE/newc.py" "$stage" "$OUT" --mtime "${SOURCE_DATE_EPOCH:-0}" \
	--node /dev/console:c:5:1:600

#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The U-Boot boot path on QEMU virt: `make image` output (FIT + boot.scr +
# SD card image) booted by Debian's u-boot-qemu through distro boot.
#
# Until the hypervisor boots from main, a small payload (tests/uboot/payload)
# stands in for it: it reports its exception level, x0 and a CRC-32 of every
# dom0less module at the address the system DT's /chosen names, so these
# scenarios check the image pipeline itself. The system DT is QEMU's own
# (dumpdtb, same -machine/-smp/-m) plus a dom0less /chosen, as for `make run`.
set -u
cd "$(dirname "$0")/../.."
BUILD=${BUILD:-$(pwd)/build}
W=$BUILD/tests/uboot
T=${UBOOT_TIMEOUT:-60}
export SOURCE_DATE_EPOCH=1700000000
mkdir -p "$W"

pass() { echo "PASS: $1"; }
fail() { echo "FAIL: $1: $2"; }

for c in qemu-system-aarch64 mkimage dtc fdtget sfdisk mkfs.vfat mcopy openssl python3; do
	command -v "$c" >/dev/null || { fail "uboot-deps" "$c missing (bash ci/deps.sh)"; exit 1; }
done
[ -f /usr/lib/u-boot/qemu_arm64/u-boot.bin ] || { fail "uboot-deps" "u-boot-qemu missing"; exit 1; }

PAYLOAD=$BUILD/tests/uboot/payload.bin
make --no-print-directory -s O="$BUILD" "$PAYLOAD" || { fail "uboot-payload-build" "make"; exit 1; }

# system_dtb GIC OUT.dtb CHOSEN.dtsi: QEMU's DT for this machine + /chosen.
system_dtb() {
	local raw=$W/qemu-gicv$1.dtb
	[ -f "$raw" ] || timeout 30 qemu-system-aarch64 -machine \
		virt,virtualization=on,gic-version="$1",dumpdtb="$raw" -cpu cortex-a57 -smp 4 \
		-m 1G -nographic -nic none >/dev/null 2>&1
	{ dtc -q -I dtb -O dts "$raw"; cat "$3"; } | dtc -q -I dts -O dtb -o "$2" -
}

# Two partitions, one with kernel + ramdisk + device-tree modules, the other
# with its own cell sizes, so every module type and reg layout is exercised.
mkdir -p "$W/mods"
head -c 70001 /dev/urandom > "$W/mods/a-kernel.bin"
head -c 5000 /dev/urandom > "$W/mods/a-ramdisk.bin"
echo '/dts-v1/; / { compatible = "bulkhead,partial"; };' | dtc -q -O dtb -o "$W/mods/a-dt.dtb" -
head -c 12345 /dev/urandom > "$W/mods/b-kernel.bin"
cat > "$W/chosen.dtsi" <<'DTS'
/ {
	chosen {
		bootargs = "console=dtuart";
		domU1 {
			compatible = "xen,domain";
			#address-cells = <2>;
			#size-cells = <2>;
			cpus = <1>;
			memory = <0x0 0x4000>;
			module@50000000 {
				compatible = "multiboot,kernel", "multiboot,module";
				reg = <0x0 0x50000000 0x0 0x11171>;
			};
			module@50100000 {
				compatible = "multiboot,ramdisk", "multiboot,module";
				reg = <0x0 0x50100000 0x0 0x2000>;
			};
			module@50180000 {
				compatible = "multiboot,device-tree", "multiboot,module";
				reg = <0x0 0x50180000 0x0 0x1000>;
			};
		};
		domU2 {
			compatible = "xen,domain";
			#address-cells = <1>;
			#size-cells = <1>;
			cpus = <1>;
			memory = <0x0 0x4000>;
			module@50200000 {
				compatible = "multiboot,kernel", "multiboot,module";
				reg = <0x50200000 0x3039>;
			};
		};
	};
};
DTS
cat > "$W/mods/manifest" <<'MAN'
# address  file (relative to this manifest)
0x50000000 a-kernel.bin
0x50100000 a-ramdisk.bin
0x50180000 a-dt.dtb
0x50200000 b-kernel.bin
MAN

# image DIR GIC [make args...]: `make image` with the payload as hypervisor.
image() {
	local dir=$1 gic=$2
	shift 2
	mkdir -p "$dir"
	system_dtb "$gic" "$dir/system.dtb" "$W/chosen.dtsi" &&
	make --no-print-directory -s O="$dir" image-files IMAGE_HYP="$PAYLOAD" \
		IMAGE_HYP_ADDR=0x40200000 IMAGE_DTB="$dir/system.dtb" \
		IMAGE_MODULES="$W/mods/manifest" "$@" > "$dir/make.log" 2>&1
}

# boot LOG SD GIC [qemu args]: boots; U-Boot never exits after refusing an
# image (it falls back to its prompt), so QEMU is stopped as soon as the
# script reports failure, or a line matches STOP (extended regex) when set.
# Returns QEMU's status (143 when stopped).
boot() {
	local log=$1 sd=$2 gic=$3 pid i
	shift 3
	RUN_TIMEOUT=$T tools/image/run-uboot.sh "$sd" "$gic" "$@" < /dev/null > "$log" 2>&1 &
	pid=$!
	for ((i = 0; i < T * 10; i++)); do
		kill -0 "$pid" 2>/dev/null || break
		if grep -qE "SCRIPT FAILED|^=> ${STOP:+|$STOP}" "$log"; then
			kill "$pid" 2>/dev/null
			break
		fi
		sleep 0.1
	done
	wait "$pid"
}

# check_boot NAME LOG STATUS: the payload ran at EL2 with x0 = the DT U-Boot
# prepared, and every module is intact at the address its /chosen node names.
check_boot() {
	local name=$1 log=$2 rc=$3 fdt x0 a f line want
	[ "$rc" -eq 0 ] || { fail "$name" "QEMU status $rc (log $log)"; return; }
	grep -q 'Found U-Boot script /boot.scr' "$log" ||
		{ fail "$name" "distro boot did not find boot.scr"; return; }
	grep -q 'payload: entered at EL2 ' "$log" || { fail "$name" "not entered at EL2"; return; }
	fdt=$(sed -n 's/.*Loading Device Tree to 0*\([0-9a-f]*\),.*/0x\1/p' "$log" | tr -d '\r')
	x0=$(sed -n 's/.*payload: entered at EL2 x0=\(0x[0-9a-f]*\).*/\1/p' "$log" | tr -d '\r')
	[ -n "$fdt" ] && [ "$fdt" = "$x0" ] || { fail "$name" "x0=$x0, U-Boot's DT at $fdt"; return; }
	grep -q 'payload: bootargs=console=dtuart' "$log" || { fail "$name" "bootargs lost"; return; }
	while read -r a f; do
		case $a in '#'*) continue ;; esac
		line=$(grep "payload: module .* addr=$a " "$log" | tr -d '\r')
		[ -n "$line" ] || { fail "$name" "module at $a not reported"; return; }
		check_crc "$line" "$a" "$W/mods/$f" || { fail "$name" "module at $a: $line, file $f differs"; return; }
	done < "$W/mods/manifest"
	grep -q 'payload: 4 modules' "$log" || { fail "$name" "module count"; return; }
	[ "$(grep -c 'sha256+ OK' "$log")" -eq 6 ] || { fail "$name" "not every image hash-checked"; return; }
	pass "$name"
}

# The payload checksums reg-size bytes: CRC the file padded the same way
# with what U-Boot leaves there (zeros: QEMU's RAM starts cleared). gzip's
# trailer holds the CRC-32 of its input, so no extra tool is needed.
check_crc() {
	local size fsize got want
	size=$(printf '%d' "$(sed -n 's/.* size=\(0x[0-9a-f]*\).*/\1/p' <<< "$1")")
	got=$(sed -n 's/.* crc32=0x\([0-9a-f]*\).*/\1/p' <<< "$1")
	fsize=$(stat -c %s "$3")
	[ "$size" -ge "$fsize" ] || return 1
	want=$({ cat "$3"; head -c $((size - fsize)) /dev/zero; } | gzip -c | tail -c8 |
		od -An -tx4 -N4 | tr -d ' ')
	[ "$(printf '%x' "0x$got")" = "$(printf '%x' "0x$want")" ]
}

# ------------------------------------------------------------ scenarios
# (GICv2 and cortex-a53 under U-Boot are covered by the hypervisor runs below.)
# VERIFIES: REQ-IMG-001 REQ-IMG-002 REQ-IMG-003 REQ-IMG-004 REQ-IMG-005 REQ-IMG-007
for cfg in "3 cortex-a57"; do
	set -- $cfg
	name="uboot-boot-gicv$1-$2"
	d=$W/gicv$1
	if image "$d" "$1"; then
		QEMU_CPU=$2 boot "$d/boot.log" "$d/sdcard.img" "$1"
		check_boot "$name" "$d/boot.log" $?
	else
		fail "$name" "make image (log $d/make.log)"
	fi
done

# VERIFIES: REQ-IMG-003
name=uboot-sdcard-layout
d=$W/gicv3
if sfdisk -J "$d/sdcard.img" 2>/dev/null | python3 -c '
import json, sys
t = json.load(sys.stdin)["partitiontable"]
p = t["partitions"]
assert t["label"] == "dos" and len(p) == 1, t
assert p[0]["start"] == 2048 and p[0].get("bootable") and p[0]["type"] == "e", p' &&
   mdir -b -i "$d/sdcard.img@@1M" :: | sort | tr -d ' ' | grep -qx '::/boot.scr' &&
   mdir -b -i "$d/sdcard.img@@1M" :: | grep -q '::/bulkhead.itb' &&
   mtype -i "$d/sdcard.img@@1M" ::/bulkhead.itb | cmp -s - "$d/bulkhead.itb"; then
	pass "$name"
else
	fail "$name" "partition table or FAT contents"
fi

# VERIFIES: REQ-IMG-008
name=image-reproducible
cp "$d/bulkhead.itb" "$W/first.itb" && cp "$d/sdcard.img" "$W/first.img"
if image "$d" 3 && cmp -s "$W/first.itb" "$d/bulkhead.itb" && cmp -s "$W/first.img" "$d/sdcard.img"; then
	pass "$name"
else
	fail "$name" "a rebuild from the same inputs differs"
fi

# A flipped byte inside a partition module: U-Boot's hash check refuses the
# FIT and nothing is started.
# VERIFIES: REQ-IMG-006
name=uboot-corrupt-fit-refused
c=$W/corrupt
mkdir -p "$c"
python3 - "$d/bulkhead.itb" "$W/mods/b-kernel.bin" "$c/bulkhead.itb" <<'PY'
import sys
fit = bytearray(open(sys.argv[1], "rb").read())
mod = open(sys.argv[2], "rb").read()
off = fit.find(mod[:256])
assert off > 0 and fit.find(mod[:256], off + 1) < 0
fit[off + len(mod) // 2] ^= 0x10
open(sys.argv[3], "wb").write(fit)
PY
if cp "$d/boot.scr" "$c/" && tools/image/mksdcard.sh "$c/sdcard.img" "$c/bulkhead.itb" "$c/boot.scr"; then
	boot "$c/boot.log" "$c/sdcard.img" 3
	if ! grep -q "Bad hash value for 'hash-1' hash node in 'domU2-module-4' image node" "$c/boot.log"; then
		fail "$name" "no 'Bad hash value' for the flipped module (log $c/boot.log)"
	elif grep -q 'Starting kernel\|payload:' "$c/boot.log"; then
		fail "$name" "something was started"
	elif ! grep -q 'Bulkhead: boot failed; nothing was started' "$c/boot.log"; then
		fail "$name" "boot.scr did not report the failure"
	else
		pass "$name"
	fi
else
	fail "$name" "could not build the corrupted image"
fi

# Signed configuration: U-Boot holding the public key (marked required) in
# its control DT boots the signed FIT and refuses an unsigned one and one
# signed with another key.
# VERIFIES: REQ-IMG-009
s=$W/signed
mkdir -p "$s/keys" "$s/other"
openssl genpkey -algorithm RSA -pkeyopt rsa_keygen_bits:2048 -out "$s/keys/dev.key" 2>/dev/null &&
	openssl req -batch -new -x509 -key "$s/keys/dev.key" -out "$s/keys/dev.crt" -subj /CN=dev 2>/dev/null &&
	openssl genpkey -algorithm RSA -pkeyopt rsa_keygen_bits:2048 -out "$s/other/dev.key" 2>/dev/null &&
	openssl req -batch -new -x509 -key "$s/other/dev.key" -out "$s/other/dev.crt" -subj /CN=dev 2>/dev/null
if image "$s/good" 3 KEY_DIR="$s/keys" KEY_NAME=dev UBOOT_DTB="$W/qemu-gicv3.dtb" &&
   image "$s/bad" 3 KEY_DIR="$s/other" KEY_NAME=dev &&
   [ "$(fdtget "$s/good/u-boot-pubkey.dtb" /signature/key-dev required)" = conf ]; then
	QEMU_DTB=$s/good/u-boot-pubkey.dtb boot "$s/good.log" "$s/good/sdcard.img" 3
	check_boot uboot-signed-fit-boots "$s/good.log" $?
	for v in "bad $s/bad/sdcard.img" "unsigned $d/sdcard.img"; do
		set -- $v
		QEMU_DTB=$s/good/u-boot-pubkey.dtb boot "$s/$1.log" "$2" 3
		if grep -q "Failed to verify required signature 'key-dev'" "$s/$1.log" &&
		   ! grep -q 'Starting kernel\|payload:' "$s/$1.log"; then
			pass "uboot-$1-fit-refused"
		else
			fail "uboot-$1-fit-refused" "not refused (log $s/$1.log)"
		fi
	done
else
	fail uboot-signed-fit-boots "signed make image (logs $s/*/make.log)"
fi

# mkits.sh refuses what U-Boot would load wrongly, naming the module.
# VERIFIES: REQ-IMG-010
m=$W/bad-config
mkdir -p "$m"
bad_config() { # NAME EXPECTED-MESSAGE MANIFEST-LINES SED-ON-CHOSEN
	printf '%b' "$3" > "$m/manifest"
	cp "$W/mods/"*.bin "$W/mods/"*.dtb "$m/"
	sed "$4" "$W/chosen.dtsi" > "$m/chosen.dtsi"
	system_dtb 3 "$m/system.dtb" "$m/chosen.dtsi"
	if tools/image/mkits.sh -o "$m/x.its" -H "$PAYLOAD" -a 0x40200000 -d "$m/system.dtb" \
		-m "$m/manifest" > "$m/out" 2>&1; then
		fail "$1" "accepted"
	elif grep -q "$2" "$m/out"; then
		pass "$1"
	else
		fail "$1" "message: $(cat "$m/out")"
	fi
}
all='0x50000000 a-kernel.bin\n0x50100000 a-ramdisk.bin\n0x50180000 a-dt.dtb\n0x50200000 b-kernel.bin\n'
bad_config image-rejects-overlap "/chosen/domU2/module@50200000 (0x50101000) overlaps /chosen/domU1/module@50100000" \
	"${all/0x50200000/0x50101000}" 's/<0x50200000 0x3039>/<0x50101000 0x3039>/'
bad_config image-rejects-short-reg "b-kernel.bin is 12345 bytes, larger than its reg size 12344" \
	"$all" 's/<0x50200000 0x3039>/<0x50200000 0x3038>/'
bad_config image-rejects-missing-file "/chosen/domU2/module@50200000: no file for the module at 0x50200000" \
	"${all/0x50200000 b-kernel.bin\\n/}" 's/^//'
bad_config image-rejects-stray-file "b-kernel.bin at 0x50300000 matches no /chosen module" \
	"${all}0x50300000 b-kernel.bin\n" 's/^//'
bad_config image-rejects-hyp-overlap "overlaps hypervisor" \
	"${all/0x50000000/0x40200000}" 's/<0x0 0x50000000 0x0 0x11171>/<0x0 0x40200000 0x0 0x11171>/'

# ------------------------------------------------ the hypervisor itself
# The real hypervisor and partitions from `make image`, booted by U-Boot,
# against the same configuration booted with -kernel (tools/qemu/run.sh):
# each partition prints the same lines in the same order, and both end with
# every partition stopped cleanly. The configuration is built in $BUILD (and
# $BUILD/gicv2) like the qemu suite's, so the two suites share the builds.
hyp_build() { # GIC -> prints the output tree
	local o=$BUILD def=qemu-virt_defconfig
	[ "$1" = 2 ] && o=$BUILD/gicv2 def=qemu-virt-gicv2_defconfig
	{ [ -f "$o/.config" ] || make -s O="$o" "$def"; } > "$W/build-hyp-gicv$1.log" 2>&1 &&
		make -s -j2 O="$o" hyp guests >> "$W/build-hyp-gicv$1.log" 2>&1 && echo "$o"
}

# hyp_image NAME GIC CPU DTSI: `make image-files` for that configuration.
hyp_image() { # DIR GIC CPU DTSI [make args...]
	local o d=$1 c=$3 t=$4
	o=$(hyp_build "$2") || return 1
	shift 4
	mkdir -p "$W/$d"
	make --no-print-directory -s O="$o" IMAGE_DIR="$W/$d" IMAGE_DTSI="$t" RUN_CPU="$c" \
		"$@" image-files > "$W/$d/make.log" 2>&1
}

plines() { # LOG PARTITION: that partition's console lines
	tr -d '\r' < "$1" | grep "^($2) " | sed -E 's/[0-9]+ timer interrupts/N timer interrupts/'
}

# VERIFIES: REQ-IMG-004 REQ-IMG-005 REQ-IMG-007 REQ-IMG-011
for cfg in "3 cortex-a57" "2 cortex-a53"; do
	set -- $cfg
	name="uboot-hyp-demo-gicv$1-$2"
	h=$W/hyp-demo-gicv$1
	if ! hyp_image "hyp-demo-gicv$1" "$1" "$2" dts/qemu-virt-demo.dtsi; then
		fail "$name" "build (logs $W/build-hyp-gicv$1.log, $h/make.log)"
		continue
	fi
	QEMU_CPU=$2 boot "$h/uboot.log" "$h/sdcard.img" "$1"
	urc=$?
	krc=0 same=1
	if [ "$1" = 3 ]; then
		bash tools/qemu/run.sh -g "$1" -c "$2" -t "$T" -k "$BUILD/bulkhead.bin" \
			-l "$h/kernel.log" dts/qemu-virt-demo.dtsi > /dev/null 2>&1
		krc=$?
	fi
	# Partitions run concurrently: compare each partition's own lines. How
	# many timer interrupts the heartbeat saw depends on host load (TCG).
	for p in hello beat sensor display; do
		[ -n "$(plines "$h/uboot.log" "$p")" ] || same=0
		[ "$1" != 3 ] || cmp -s <(plines "$h/uboot.log" "$p") <(plines "$h/kernel.log" "$p") ||
			same=0
	done
	if [ "$urc" -ne 0 ] || [ "$krc" -ne 0 ]; then
		fail "$name" "QEMU status: U-Boot path $urc, -kernel path $krc (logs $h/*.log)"
	elif ! grep -q 'Starting kernel' "$h/uboot.log" ||
	     ! grep -q 'all partitions stopped, status 0' "$h/uboot.log"; then
		fail "$name" "not every partition stopped cleanly (log $h/uboot.log)"
	elif [ "$same" -ne 1 ]; then
		fail "$name" "partition output differs from the -kernel boot (logs $h/*.log)"
	else
		pass "$name"
	fi
done

# A system device tree the hypervisor refuses (five partitions, four allowed):
# U-Boot starts it, it stops with the message naming the node and the limit,
# and no partition runs.
# VERIFIES: REQ-IMG-012
name=uboot-hyp-rejects-config
h=$W/hyp-overlimit
# VERIFIES: REQ-IMG-015
# The image build itself refuses it first, with the same message.
name=uboot-overlimit-build-refused
if hyp_image hyp-overlimit-build 3 cortex-a57 dts/tests/overlimit.dtsi; then
	fail "$name" "make image accepted five partitions with CONFIG_MAX_DOMAINS=4"
elif ! grep -q '/chosen/p5: 5 partitions configured, CONFIG_MAX_DOMAINS=4' \
	"$W/hyp-overlimit-build/make.log"; then
	fail "$name" "no message naming /chosen/p5 (log $W/hyp-overlimit-build/make.log)"
else
	pass "$name"
fi
# Built anyway (DTB_CHECK=0), U-Boot boots it and the hypervisor refuses it.
name=uboot-hyp-rejects-config
if hyp_image hyp-overlimit 3 cortex-a57 dts/tests/overlimit.dtsi DTB_CHECK=0; then
	STOP='CONFIG_MAX_DOMAINS|hello from' boot "$h/uboot.log" "$h/sdcard.img" 3
	if ! grep -q 'Starting kernel' "$h/uboot.log"; then
		fail "$name" "U-Boot did not start the hypervisor (log $h/uboot.log)"
	elif ! grep -q '/chosen/p5: 5 partitions configured, CONFIG_MAX_DOMAINS=4' "$h/uboot.log"; then
		fail "$name" "no message naming /chosen/p5 and CONFIG_MAX_DOMAINS (log $h/uboot.log)"
	elif grep -q 'hello from' "$h/uboot.log"; then
		fail "$name" "a partition ran"
	else
		pass "$name"
	fi
else
	fail "$name" "build (log $h/make.log)"
fi

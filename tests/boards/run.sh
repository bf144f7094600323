#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Boards: every board's device trees compile without a single dtc warning,
# every board configures and builds (hypervisor + FIT + SD card image), its
# system device tree passes the build-time configuration checker, and its
# board.c agrees with its device tree. Only QEMU boots here (tests/uboot,
# tests/qemu); the hardware boards are build-tested only.
set -u
cd "$(dirname "$0")/../.."
BUILD=${BUILD:-$(pwd)/build}
W=$BUILD/tests/boards
mkdir -p "$W"

pass() { echo "PASS: $1"; }
fail() { echo "FAIL: $1: $2"; }

# VERIFIES: REQ-BRD-001
for f in dts/*.dts; do
	out=$(dtc -I dts -O dtb -o /dev/null "$f" 2>&1)
	if [ $? -eq 0 ] && [ -z "$out" ]; then
		pass "dtc-clean-$(basename "$f" .dts)"
	else
		fail "dtc-clean-$(basename "$f" .dts)" "$out"
	fi
done

# Partition images are the same for every board: build them once.
make -s -j2 O="$BUILD" guests > "$W/guests.log" 2>&1 || fail boards-guests "log $W/guests.log"

# board.c value of a field, as a number.
field() { sed -n "s/^[[:space:]]*\\.$2 = \\(0x[0-9a-fA-F]*\\|[0-9]*\\)U*L*,.*/\\1/p" "$1" | head -1; }

# VERIFIES: REQ-BRD-002 REQ-BRD-003 REQ-BRD-004
for def in boards/*/*/defconfig; do
	dir=$(dirname "$def")
	vendor=$(basename "$(dirname "$dir")")
	b=$vendor-$(basename "$dir")
	name=board-build-$b
	case $b in
	qemu-virt) o=$BUILD ;;			# shared with tests/qemu and tests/uboot
	qemu-virt-gicv2) o=$BUILD/gicv2 ;;
	*) o=$BUILD/boards/$b ;;
	esac
	log=$W/$b.log
	{ [ -f "$o/.config" ] && grep -q "^CONFIG_BOARD=" "$o/.config" || make -s O="$o" "${b}_defconfig"; } > "$log" 2>&1
	if ! make -s -j2 O="$o" hyp >> "$log" 2>&1 ||
	   ! make -s O="$o" IMAGE_DIR="$W/$b" GUEST_DIR="$BUILD/guests" image-files >> "$log" 2>&1; then
		fail "$name" "log $log"
		continue
	fi
	load=$(grep '^CONFIG_HYP_LOAD_ADDR=' "$o/.config" | cut -d= -f2)
	fitload=0x$(fdtget -t x "$W/$b/bulkhead.itb" /images/hypervisor load | awk '{ print $NF }')
	if [ "$(printf '%x' "$load")" != "$(printf '%x' "$fitload")" ]; then
		fail "$name" "FIT loads the hypervisor at $fitload, linked at $load"
		continue
	fi
	[ -s "$W/$b/sdcard.img" ] || { fail "$name" "no sdcard.img"; continue; }
	pass "$name"
	case $b in qemu-*) continue ;; esac

	# The board's own system device tree passes the configuration checker
	# with the board's limits.
	if make -s O="$o" check-dtb DTB="$W/$b/image/system.dtb" >> "$log" 2>&1; then
		pass "board-config-$b"
	else
		fail "board-config-$b" "check-dtb refused dts/$b.dts (log $log)"
	fi

	# board.c and the board's device tree describe the same hardware.
	c=$dir/board.c
	dtb=$W/$b/image/system.dtb
	why=
	uart=$(fdtget "$dtb" /aliases serial0)
	[ "$(fdtget -t x "$dtb" "$uart" reg | awk '{ print $2 }')" = \
	  "$(printf '%x' "$(field "$c" uart_base)")" ] || why+=" uart_base"
	gicd=$(fdtget -t x "$dtb" "/soc/$(fdtget -l "$dtb" /soc | grep -m1 '^interrupt-controller@')" reg |
		awk '{ print $2 }')
	[ "$gicd" = "$(printf '%x' "$(field "$c" gicd_base)")" ] || why+=" gicd_base"
	freq=$(fdtget -t u "$dtb" /timer clock-frequency)
	[ "$freq" = "$(field "$c" timer_freq_hz)" ] || why+=" timer_freq_hz"
	dt_mpidr=$(for n in $(fdtget -l "$dtb" /cpus); do fdtget -t x "$dtb" "/cpus/$n" reg; done |
		sort | tr '\n' ' ')
	c_mpidr=$(sed -n 's/.*\.mpidr = { \(.*\) },.*/\1/p' "$c" | tr -d 'U,' | tr ' ' '\n' |
		sed '/^$/d' | while read -r m; do printf '%x\n' "$m"; done | sort | tr '\n' ' ')
	[ -n "$dt_mpidr" ] && [ "$dt_mpidr" = "$c_mpidr" ] || why+=" mpidr($dt_mpidr/$c_mpidr)"
	[ "$(fdtget -l "$dtb" /cpus | wc -l)" = "$(field "$c" nr_cpus)" ] || why+=" nr_cpus"
	if [ -z "$why" ]; then
		pass "board-matches-dts-$b"
	else
		fail "board-matches-dts-$b" "board.c and dts/$b.dts differ:$why"
	fi
done

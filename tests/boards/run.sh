#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Boards: every board's device trees compile without a single dtc warning,
# every board configures and builds (hypervisor + FIT + SD card image), its
# system device tree passes the build-time configuration checker, and the
# hardware the checker (and the boot) reads from it is the hardware the
# board's README documents. Only QEMU boots here (tests/uboot, tests/qemu);
# the hardware boards are build-tested only.
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

# facts README TREE-NAME DTB BUILD-DIR TEST: check-dtb's "hw:" lines for DTB
# (with the board's configuration) equal the README's ```hw TREE-NAME block.
facts() {
	local want got
	want=$(awk -v t="$2" '$0 == "```hw " t { on = 1; next } on && /^```/ { exit } on' "$1")
	got=$(make -s O="$4" check-dtb DTB="$3" 2>&1 | grep '^hw: ')
	if [ -z "$want" ]; then
		fail "$5" "$1 has no \`\`\`hw $2 block"
	elif [ "$got" = "$want" ]; then
		pass "$5"
	else
		fail "$5" "check-dtb reads from $2: $(diff <(echo "$want") <(echo "$got") | grep '^[<>]' | tr '\n' ' ')"
	fi
}

# VERIFIES: REQ-BRD-002 REQ-BRD-004 REQ-BRD-005
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
		fail "board-config-$b" "check-dtb refused $W/$b/image/system.dtb (log $log)"
	fi

	# The hardware the boot reads from the board's tree is the hardware its
	# README documents (the ```hw <tree> block, one check-dtb line a part).
	# The QEMU-modelled Xilinx boards compose their tree (vendor's or QEMU's
	# plus /chosen): their README's first hw block names its source.
	tree="dts/$b.dts"
	[ -f "$tree" ] || tree=$(sed -n 's/^```hw //p' "$dir/README.md" | head -1)
	facts "$dir/README.md" "$tree" "$W/$b/image/system.dtb" "$o" "board-facts-$b"

	# The vendor's own tree (Debian's kernel package, make fetch) plus a
	# fragment: what the README says check-dtb reads from it (```hw), or
	# the message it refuses it with (```refused).
	# VERIFIES: REQ-SOC-011
	while IFS= read -r block; do
		kind=${block%% *} name=${block#* }
		dtb=${name#vendor:} dtb=${dtb%% + *} frag=${name#* + }
		n=vendor-$(basename "$frag" .dtsi)
		if ! dtbs=$(tools/fetch/path.sh linux-dtbs 2>&1); then
			fail "board-$n" "$dtbs"
			continue
		fi
		if ! { dtc -q -I dtb -O dts "$dtbs/$dtb" && cat "$frag"; } |
			dtc -q -I dts -O dtb -i "$(dirname "$frag")" -o "$W/$b/$n.dtb" - 2>> "$log"; then
			fail "board-$n" "cannot compose $dtbs/$dtb + $frag (log $log)"
			continue
		fi
		if [ "$kind" = hw ]; then
			if make -s O="$o" check-dtb DTB="$W/$b/$n.dtb" >> "$log" 2>&1; then
				pass "board-$n-accepted"
			else
				fail "board-$n-accepted" "check-dtb refused $dtb + $frag (log $log)"
			fi
			facts "$dir/README.md" "$name" "$W/$b/$n.dtb" "$o" "board-$n-facts"
			continue
		fi
		want=$(awk -v t="$block" '$0 == "```" t { on = 1; next } on && /^```/ { exit } on' "$dir/README.md")
		got=$(make -s O="$o" check-dtb DTB="$W/$b/$n.dtb" 2>&1 | grep '^dts: ')
		if [ -n "$want" ] && [ "$got" = "$want" ]; then
			pass "board-$n-refused"
		else
			fail "board-$n-refused" "got '$got', README says '$want'"
		fi
	done < <(sed -n 's/^```\(\(hw\|refused\) vendor:.* + .*\)$/\1/p' "$dir/README.md")
done

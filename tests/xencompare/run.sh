#!/usr/bin/env bash
# The same system device tree and partial device trees boot on Bulkhead and
# on Xen 4.17 (the image `make fetch` brings) with the same guest output:
# the partitions that own the PL031 RTC (at its host address, and at
# 0xa800000) and the PL061 GPIO block print, line for line and tag by tag,
# what they print on the other hypervisor. Numbers of six digits or more
# (the RTC's time) are compared as N. Fails, naming `make fetch`, when the
# Xen image is missing.
# The memory_op and xen_version partition (guests/memop, dts/tests/memop.dtsi)
# runs on both too: every answer it prints must be the same on Xen 4.17 as on
# Bulkhead, but for the lines it marks "(bulkhead differs)" (a documented
# difference, which the guest checks against each hypervisor's own value)
# and its first line, which names the hypervisor. So does an unmodified
# Linux running xentest (dts/tests/linux-xen.dtsi): the same results.
# VERIFIES: REQ-PT-010 REQ-HC-002 REQ-MEM-004 REQ-MEM-005 REQ-MEM-006 REQ-MEM-007 REQ-MEM-008 REQ-LNX-002
set -u
cd "$(dirname "$0")/../.."
BUILD="${BUILD:-$PWD/build}"
OUT="$BUILD/tests/xencompare"
mkdir -p "$OUT"
export GUESTDIR="$BUILD/guests"
if ! XEN=$(tools/fetch/path.sh xen 2>&1); then
	echo "FAIL: xencompare/xen-image ($XEN)"
	exit 1
fi
make -s -j2 O="$BUILD" guests > "$OUT/build.log" 2>&1 || { echo "FAIL: xencompare/build-guests"; exit 1; }
declare -A IMG=()
for g in 3 2; do
	o="$OUT/hyp-gicv$g"
	def=qemu-virt_defconfig
	[ $g = 2 ] && def=qemu-virt-gicv2_defconfig
	{ [ -f "$o/.config" ] || make -s O="$o" "$def"; } >> "$OUT/build.log" 2>&1 &&
		make -s -j2 O="$o" hyp >> "$OUT/build.log" 2>&1 && IMG[$g]="$o/bulkhead.bin"
	[ -n "${IMG[$g]:-}" ] || { echo "FAIL: xencompare/build-hyp-gicv$g"; exit 1; }
done

# Guest lines "T: text" of tag T, without the hypervisor's line prefix ("(name) "
# on Bulkhead; "(dN) " or, from a vPL011, "(XEN) DOMN: " on Xen) and without
# those matching OMIT (a regex; none when empty).
guest_lines() { # $1 log, $2 tag
	sed -En "s/^\([^)]*\) (DOM[0-9]+: )?($2: .*)$/\2/p" "$1" | sed -E 's/[0-9]{6,}/N/g' |
		{ if [ -n "${OMIT:-}" ]; then grep -vE -- "$OMIT" || true; else cat; fi; }
}

# With XEN_EXTRA (more of Xen's command line), OMIT (guest lines left out
# of the comparison), MUST (a regex both logs must match) and TMO (seconds a
# run, default 90 on Bulkhead and 120 on Xen) in the environment.
compare() { # $1 dtsi, $2 gic, $3 tags, $4 the lines Xen must reach (regex)
	local name id b x t rc
	name=$(basename "$1" .dtsi)
	id="xencompare/$name/gic$2"
	b="$OUT/$name-gic$2-bulkhead.log"
	x="$OUT/$name-gic$2-xen.log"
	tools/qemu/run.sh -g "$2" -k "${IMG[$2]}" -t "${TMO:-90}" -l "$b" "$1" > /dev/null 2>&1
	rc=$?
	[ $rc -eq 0 ] || { echo "FAIL: $id (Bulkhead: QEMU status $rc, log $b)"; return; }
	XEN_BOOTARGS="console=dtuart bootscrub=0 loglvl=all guest_loglvl=all${XEN_EXTRA:+ $XEN_EXTRA}" \
		tools/qemu/run.sh -g "$2" -k "$XEN" -t "${TMO:-120}" -l "$x" -u "$4" -n "$(wc -w <<< "$3")" \
		"$1" > /dev/null 2>&1
	for t in $3; do
		if [ -z "$(guest_lines "$b" "$t")" ]; then
			echo "FAIL: $id ($t printed nothing on Bulkhead, log $b)"
			return
		fi
		if ! diff <(guest_lines "$b" "$t") <(guest_lines "$x" "$t") > "$OUT/$name-gic$2-$t.diff"; then
			echo "FAIL: $id ($t differs on Xen 4.17: $OUT/$name-gic$2-$t.diff, logs $b $x)"
			return
		fi
	done
	if [ -n "${MUST:-}" ]; then
		for t in "$b" "$x"; do
			grep -qE -- "$MUST" "$t" || { echo "FAIL: $id (no '$MUST' in $t)"; return; }
		done
	fi
	echo "PASS: $id (same guest output on Bulkhead and Xen 4.17: $3)"
}

compare dts/tests/pt-rtc.dtsi 3 "R H" 'R: rtc done|H: heartbeat done'
compare dts/tests/pt-xen.dtsi 2 "R G" 'R: rtc done|G: gpio done'
# Xen's SILO policy (Debian's default) refuses the domU-to-domU grant the
# memop partition maps: xsm=dummy, as tests/qemu/scenarios/memop.scn on Xen.
XEN_EXTRA=xsm=dummy OMIT='\(bulkhead differs\)$|^M: memop on (Bulkhead|Xen), ' \
	MUST='\) M: memop done, 0 mismatches$' compare dts/tests/memop.dtsi 3 "M G" 'M: memop done|G: grant (mapped|never)'

# An unmodified Linux (Debian's kernel, the project's initramfs) runs
# xentest (tools/linux/progs): /dev/xen/evtchn, gntalloc + gntdev, the
# balloon; every check's result must be the same on both.
if ! make -s -j2 O="$BUILD" linux-initramfs >> "$OUT/build.log" 2>&1 ||
	! LINUX=$(tools/fetch/path.sh linux-image 2>&1); then
	echo "FAIL: xencompare/linux-xen (no kernel or initramfs: make fetch, see $OUT/build.log)"
else
	ln -sfn "$LINUX" "$BUILD/guests/linux.bin"
	ln -sfn "$BUILD/linux/initramfs.cpio" "$BUILD/guests/linux-initramfs.bin"
	XEN_EXTRA=xsm=dummy TMO=300 MUST='xentest: done, [1-9][0-9]* passed, 0 failed' \
		compare dts/tests/linux-xen.dtsi 3 "xentest" 'xentest: done'
fi

#!/usr/bin/env bash
# QEMU scenario suite: boots the hypervisor with a partition configuration
# (dts/tests/*.dtsi) and checks the console against each scenario's expected
# and forbidden lines. Prints PASS:/FAIL: lines (tests/run-tests.sh format).
#
#   tests/qemu/scenarios.sh [scenario ...]      default: every tests/qemu/scenarios/*.scn
#
# A scenario file (bash) sets:
#   DTSI            partition configuration
#   RUNS            "GIC:CPU ..." combinations on QEMU virt, e.g. "3:cortex-a57 2:cortex-a53",
#                   and the Xilinx machines by name: "zcu102" (xlnx-zcu102 with the
#                   vendor's zynqmp-zcu102-rev1.0.dtb, GIC-400, Cortex-A53, -m 2G) and
#                   "versal" (xlnx-versal-virt, GICv3, Cortex-A72), each booting its
#                   board's defconfig (boards/xilinx/)
#   EXPECT=( ... )  extended regexes that must each match a console line
#   FORBID=( ... )  regexes that must match no line (added to the global ones)
#   STATUS          QEMU exit status: a number, "nonzero" (not 0, not a timeout) or "any"
#   UNTIL/UNTIL_COUNT  stop QEMU once UNTIL has matched UNTIL_COUNT lines
#   TIMEOUT         seconds per QEMU run (default 60)
#   SMP             QEMU -smp (default: the machine's, tools/qemu/run.sh)
#   INPUT, INPUT_AFTER  console input (printf format) typed once INPUT_AFTER
#                   (a regex) is on the console; needs UNTIL
#   check()         optional extra check; $LOG is the console; return 1 to fail
#   XEN_SKIP/XEN_EXTRA  with HYP=xen: skip (saying why) / extra Xen command line
# and names what it verifies in a "# VERIFIES: REQ-..." line.
#
# Environment: BUILD (default ./build); SCENARIO_DIR and SUITE run another
# suite's scenarios (tests/linux: SCENARIO_DIR=tests/linux SUITE=linux), the
# hypervisor builds shared under $BUILD/tests/qemu; HYP=xen boots the Xen 4.17 anchor
# image XEN_IMAGE instead (scenarios with XEN_SKIP are skipped) to check the
# partitions and the harness against the reference hypervisor.
set -u
cd "$(dirname "$0")/../.."
BUILD="${BUILD:-$PWD/build}"
HERE="${SCENARIO_DIR:-tests/qemu}"
SUITE="${SUITE:-qemu}"
OUT="$BUILD/tests/$SUITE"
HYP_OUT="$BUILD/tests/qemu"
HYP="${HYP:-bulkhead}"
export GUESTDIR="$BUILD/guests"  # where tools/qemu/mkdtb.sh finds GUEST(name) images
mkdir -p "$OUT"
DEFAULT_FORBID=('[Pp]anic|PANIC' 'Xen BUG|Assertion .* failed' 'unexpected .* exception on cpu')

pass() { echo "PASS: $1"; }
fail() { echo "FAIL: $1${2:+ ($2)}"; }

# ---------------------------------------------------------------- build
build_ok=1
if ! make -s -j2 O="$BUILD" guests > "$OUT/build-guests.log" 2>&1; then
	fail "$SUITE/build-guests" "see $OUT/build-guests.log"
	build_ok=0
fi
declare -A IMAGE=()
if [ "$HYP" = xen ]; then
	IMAGE[3]="${XEN_IMAGE:-$(tools/fetch/path.sh xen)}"
	IMAGE[2]="${IMAGE[3]}"
	XEN_ARGS="${XEN_BOOTARGS:-console=dtuart bootscrub=0 loglvl=all guest_loglvl=all}"
else
	# One hypervisor build per GIC version, each in its own output tree with
	# the board's defconfig, whatever $BUILD/.config the user has made.
	for g in 3 2; do
		o="$HYP_OUT/hyp-gicv$g"
		if [ $g = 3 ]; then def=qemu-virt_defconfig; else def=qemu-virt-gicv2_defconfig; fi
		log="$HYP_OUT/build-hyp-gicv$g.log"
		mkdir -p "$HYP_OUT"
		# A .config older than the defconfig or any Kconfig is made again (new defaults).
		if [ -f "$o/.config" ] && [ -n "$(find Kconfig ./*/Kconfig ./*/*/Kconfig boards \
			-newer "$o/.config" \( -name 'Kconfig*' -o -name defconfig \) | head -1)" ]; then
			rm -f "$o/.config"
		fi
		{ [ -f "$o/.config" ] || make -s O="$o" "$def"; } > "$log" 2>&1 &&
			make -s -j2 O="$o" hyp >> "$log" 2>&1 && [ -f "$o/bulkhead.bin" ]
		if [ $? -eq 0 ]; then
			IMAGE[$g]="$o/bulkhead.bin"
			pass "$SUITE/build-hyp-gicv$g"
		else
			fail "$SUITE/build-hyp-gicv$g" "no $o/bulkhead.bin, see $log"
		fi
	done
fi

# The Xilinx boards' hypervisors, built the first time a scenario runs there.
declare -A BOARD_OF=([zcu102]=xilinx-zcu102 [versal]=xilinx-versal-virt)
declare -A MACHINE_OF=([zcu102]=xlnx-zcu102 [versal]=xlnx-versal-virt)
board_image() { # $1 = zcu102 | versal
	local o="$OUT/hyp-$1" log="$OUT/build-hyp-$1.log"
	[ -n "${IMAGE[$1]+set}" ] && return
	IMAGE[$1]=
	{ [ -f "$o/.config" ] || make -s O="$o" "${BOARD_OF[$1]}_defconfig"; } > "$log" 2>&1 &&
		make -s -j2 O="$o" hyp >> "$log" 2>&1 && [ -f "$o/bulkhead.bin" ]
	if [ $? -eq 0 ]; then
		IMAGE[$1]="$o/bulkhead.bin"
		pass "$SUITE/build-hyp-$1"
	else
		fail "$SUITE/build-hyp-$1" "no $o/bulkhead.bin, see $log"
	fi
}

# ---------------------------------------------------------------- run
count_lines() { grep -cE -- "$1" "$LOG" || true; }

run_one() { # $1 = scenario name, $2 = "GIC:CPU" (virt) or a machine name (zcu102, versal)
	local name="$1" tag key rc why=() r st until mach=()
	if [[ "$2" == *:* ]]; then
		key=${2%%:*} tag=gic${2%%:*}-${2#*:}
		mach=(-g "$key" -c "${2#*:}")
	elif [ -n "${BOARD_OF[$2]:-}" ]; then
		key=$2 tag=$2
		mach=(-M "${MACHINE_OF[$2]}")
		[ "$HYP" = xen ] || board_image "$2"
	else
		fail "$SUITE/$1/$2" "unknown run '$2' in RUNS"
		return
	fi
	local id="$SUITE/$name/$tag"
	LOG="$OUT/$name-$tag.log"
	if [ "$HYP" = xen ] && [ "$key" = "$2" ]; then
		echo "SKIP: $id (Xen runs cover QEMU virt)"
		return
	fi
	if [ $build_ok = 0 ] || [ -z "${IMAGE[$key]:-}" ] || [ ! -f "${IMAGE[$key]}" ]; then
		fail "$id" "no hypervisor image for $tag"
		return
	fi
	local smp=()
	[ -n "$SMP" ] && smp=(-s "$SMP")
	local args=("${mach[@]}" "${smp[@]}" -k "${IMAGE[$key]}" -t "$TIMEOUT" -l "$LOG")
	if [ -n "$UNTIL" ]; then
		args+=(-u "$UNTIL" -n "$UNTIL_COUNT")
	elif [ "$HYP" = xen ]; then
		# Xen never ends QEMU by itself: stop once every expected line is there.
		until=$(printf '(%s)|' "${EXPECT[@]}")
		args+=(-u "${until%|}" -n "${#EXPECT[@]}")
	fi
	QEMU_INPUT="$INPUT" QEMU_INPUT_AFTER="$INPUT_AFTER" \
	XEN_BOOTARGS="${XEN_ARGS:+$XEN_ARGS $XEN_EXTRA}" tools/qemu/run.sh "${args[@]}" "$DTSI" \
		> /dev/null 2>&1
	rc=$?
	for r in "${EXPECT[@]}"; do
		[ "$(count_lines "$r")" -gt 0 ] || why+=("missing '$r'")
	done
	for r in "${GLOBAL_FORBID[@]+"${GLOBAL_FORBID[@]}"}" "${FORBID[@]+"${FORBID[@]}"}"; do
		[ "$(count_lines "$r")" -eq 0 ] || why+=("forbidden '$r'")
	done
	st="$STATUS"
	[ "$HYP" = xen ] && st=any
	case "$st" in
	any) ;;
	nonzero) { [ $rc -ne 0 ] && [ $rc -ne 124 ]; } || why+=("QEMU status $rc, wanted non-zero") ;;
	*) [ $rc -eq "$st" ] || why+=("QEMU status $rc, wanted $st") ;;
	esac
	if declare -F check > /dev/null && ! check; then why+=("check() failed"); fi
	if [ ${#why[@]} -eq 0 ]; then
		pass "$id"
	else
		fail "$id" "$(IFS=';'; echo "${why[*]}"), log $LOG"
	fi
}

scns=("$@")
[ ${#scns[@]} -gt 0 ] || scns=($(ls $HERE/scenarios/*.scn | xargs -n1 basename | sed 's/\.scn$//'))
for s in "${scns[@]}"; do
	unset -f check
	GLOBAL_FORBID=("${DEFAULT_FORBID[@]}")
	DTSI= RUNS="3:cortex-a57" EXPECT=() FORBID=() STATUS=0 UNTIL= UNTIL_COUNT=1 TIMEOUT=60 XEN_SKIP=
	SMP= INPUT= INPUT_AFTER=
	XEN_EXTRA=
	# shellcheck source=/dev/null
	. "$HERE/scenarios/$s.scn"
	if [ "$HYP" = xen ] && [ -n "$XEN_SKIP" ]; then
		echo "SKIP: $SUITE/$s ($XEN_SKIP)"
		continue
	fi
	for r in $RUNS; do
		run_one "$s" "$r"
	done
done

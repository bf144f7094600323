#!/usr/bin/env bash
# Boot the hypervisor with a partition configuration on QEMU virt and
# capture the console.
#
#   run.sh [-g 3|2] [-c cortex-a53|cortex-a57] [-s SMP] [-m MEM] [-k IMAGE]
#          [-t SECONDS] [-l LOG] [-i ICOUNT] [-u REGEX [-n COUNT]] FRAGMENT.dtsi
#
# IMAGE (default build/bulkhead.bin) is an arm64 Image that QEMU enters at
# EL2 (-kernel, virtualization=on). The system DTB is composed by mkdtb.sh
# next to the log. Every run is bounded by `timeout` (default 60 s).
# QEMU_EXTRA (environment): more QEMU options, split on blanks.
# Exit status: QEMU's (the hypervisor ends it through semihosting SYS_EXIT:
# 0 when every partition shut down cleanly), 124 on timeout; with -u, 0 as
# soon as REGEX has appeared COUNT (default 1) times on the console and
# QEMU has been stopped.
set -euo pipefail

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
GIC=3 CPU=cortex-a57 SMP=4 MEM=1G KERNEL=build/bulkhead.bin TMO=60 LOG= ICOUNT= UNTIL= COUNT=1
while getopts "g:c:s:m:k:t:l:i:u:n:" o; do
	case $o in
	g) GIC=$OPTARG ;; c) CPU=$OPTARG ;; s) SMP=$OPTARG ;; m) MEM=$OPTARG ;;
	k) KERNEL=$OPTARG ;; t) TMO=$OPTARG ;; l) LOG=$OPTARG ;; i) ICOUNT=$OPTARG ;;
	u) UNTIL=$OPTARG ;; n) COUNT=$OPTARG ;;
	*) sed -n '2,15p' "$0" >&2; exit 2 ;;
	esac
done
shift $((OPTIND - 1))
[ $# -eq 1 ] || { sed -n '2,15p' "$0" >&2; exit 2; }
FRAG=$1
[ -f "$KERNEL" ] || { echo "run.sh: no hypervisor image $KERNEL (make?)" >&2; exit 2; }
LOG="${LOG:-build/qemu/$(basename "${FRAG%.dtsi}")-gic$GIC-$CPU.log}"
mkdir -p "$(dirname "$LOG")"
dtb="${LOG%.log}.dtb"
"$HERE/mkdtb.sh" -g "$GIC" -c "$CPU" -s "$SMP" -m "$MEM" -o "$dtb" "$FRAG"
mapfile -t loaders < "${dtb%.dtb}.loader"

cmd=(qemu-system-aarch64 -machine "virt,virtualization=on,gic-version=$GIC" -cpu "$CPU"
     -smp "$SMP" -m "$MEM" -display none -monitor none -serial stdio -no-reboot -nic none
     -semihosting-config enable=on,target=native
     -kernel "$KERNEL" -dtb "$dtb" "${loaders[@]}")
[ -n "$ICOUNT" ] && cmd+=(-icount "$ICOUNT")
# Extra QEMU options, e.g. the -d/-D tracing of tools/bench/paths-profile.sh.
if [ -n "${QEMU_EXTRA:-}" ]; then
	read -ra extra <<< "$QEMU_EXTRA"
	cmd+=("${extra[@]}")
fi
printf '%q ' timeout "$TMO" "${cmd[@]}" > "${LOG%.log}.cmd"
echo >> "${LOG%.log}.cmd"

if [ -z "$UNTIL" ]; then
	# Interactive when run from a terminal (make run): console input goes to the hypervisor.
	set +e
	if [ -t 0 ] && [ -t 1 ]; then
		timeout --foreground "$TMO" "${cmd[@]}" | tee "$LOG"
		rc=${PIPESTATUS[0]}
	else
		timeout "$TMO" "${cmd[@]}" < /dev/null 2>&1 | tee "$LOG"
		rc=${PIPESTATUS[0]}
	fi
	sed -i 's/\r//g' "$LOG"   # the UART sends CR LF; logs are plain lines
	exit "$rc"
fi

: > "$LOG"
timeout "$TMO" "${cmd[@]}" < /dev/null > "$LOG" 2>&1 &
qpid=$!
rc=
while kill -0 "$qpid" 2>/dev/null; do
	if [ "$(grep -cE -- "$UNTIL" "$LOG" || true)" -ge "$COUNT" ]; then
		kill "$qpid" 2>/dev/null || true
		wait "$qpid" 2>/dev/null || true
		rc=0
		break
	fi
	sleep 0.2
done
if [ -z "$rc" ]; then
	# QEMU ended by itself (or timed out): its own status.
	set +e
	wait "$qpid"
	rc=$?
fi
sed -i 's/\r//g' "$LOG"
cat "$LOG"
exit "$rc"

#!/usr/bin/env bash
# Boot the hypervisor with a partition configuration on a QEMU machine and
# capture the console.
#
#   run.sh [-M virt|xlnx-zcu102|xlnx-versal-virt] [-g 3|2] [-c cortex-a53|cortex-a57]
#          [-s SMP] [-m MEM] [-k IMAGE] [-t SECONDS] [-l LOG] [-i ICOUNT]
#          [-u REGEX [-n COUNT]] FRAGMENT.dtsi
#
# IMAGE (default build/bulkhead.bin) is an arm64 Image that QEMU enters at
# EL2 (-kernel, virtualization=on). The system DTB is composed by mkdtb.sh
# next to the log. -g and -c choose virt's GIC and CPU; the Xilinx machines
# have theirs (ZCU102: 4x Cortex-A53 and a GIC-400, -m 2G at most since QEMU
# writes a wrong /memory above that; Versal: 2x Cortex-A72 and a GICv3), and
# default to -m 2G (Versal: -smp 4, its 2 Cortex-A72 and 2 Cortex-R5F). Every run is bounded by `timeout` (default 60 s).
# QEMU_EXTRA (environment): more QEMU options, split on blanks. With -u,
# QEMU_INPUT (printf format) is typed on the console once QEMU_INPUT_AFTER
# (a regex) has appeared.
# Exit status: QEMU's (the hypervisor ends it through semihosting SYS_EXIT:
# 0 when every partition shut down cleanly), 124 on timeout; with -u, 0 as
# soon as REGEX has appeared COUNT (default 1) times on the console and
# QEMU has been stopped.
set -euo pipefail

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
MACHINE=virt GIC=3 CPU=cortex-a57 SMP= MEM= KERNEL=build/bulkhead.bin TMO=60 LOG= ICOUNT= UNTIL=
COUNT=1
while getopts "M:g:c:s:m:k:t:l:i:u:n:" o; do
	case $o in
	M) MACHINE=$OPTARG ;;
	g) GIC=$OPTARG ;; c) CPU=$OPTARG ;; s) SMP=$OPTARG ;; m) MEM=$OPTARG ;;
	k) KERNEL=$OPTARG ;; t) TMO=$OPTARG ;; l) LOG=$OPTARG ;; i) ICOUNT=$OPTARG ;;
	u) UNTIL=$OPTARG ;; n) COUNT=$OPTARG ;;
	*) sed -n '2,20p' "$0" >&2; exit 2 ;;
	esac
done
shift $((OPTIND - 1))
[ $# -eq 1 ] || { sed -n '2,20p' "$0" >&2; exit 2; }
FRAG=$1
[ -f "$KERNEL" ] || { echo "run.sh: no hypervisor image $KERNEL (make?)" >&2; exit 2; }
case $MACHINE in
virt) mopts=(-machine "virt,virtualization=on,gic-version=$GIC" -cpu "$CPU")
	SMP=${SMP:-4} MEM=${MEM:-1G} tag=gic$GIC-$CPU ;;
xlnx-zcu102) mopts=(-machine xlnx-zcu102,virtualization=on -audiodev none,id=snd0) SMP=${SMP:-4} MEM=${MEM:-2G} tag=zcu102 ;;
xlnx-versal-virt) mopts=(-machine xlnx-versal-virt) SMP=${SMP:-4} MEM=${MEM:-2G} tag=versal ;;
*) echo "run.sh: unknown machine $MACHINE (virt, xlnx-zcu102, xlnx-versal-virt)" >&2; exit 2 ;;
esac
LOG="${LOG:-build/qemu/$(basename "${FRAG%.dtsi}")-$tag.log}"
mkdir -p "$(dirname "$LOG")"
dtb="${LOG%.log}.dtb"
"$HERE/mkdtb.sh" -M "$MACHINE" -g "$GIC" -c "$CPU" -s "$SMP" -m "$MEM" -k "$KERNEL" -o "$dtb" "$FRAG"
mapfile -t loaders < "${dtb%.dtb}.loader"

cmd=(qemu-system-aarch64 "${mopts[@]}"
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
if [ -n "${QEMU_INPUT:-}" ]; then
	# Console input (QEMU_INPUT, printf format) typed once QEMU_INPUT_AFTER
	# (a regex) is on the console, through a FIFO as QEMU's stdin.
	fifo="${LOG%.log}.input"
	rm -f "$fifo"
	mkfifo "$fifo"
	(
		exec 3> "$fifo"
		n=0
		while ! grep -qE -- "${QEMU_INPUT_AFTER:-.}" "$LOG" 2>/dev/null && [ $n -lt $((TMO * 5)) ]; do
			sleep 0.2
			n=$((n + 1))
		done
		# shellcheck disable=SC2059
		printf "$QEMU_INPUT" >&3
		exec sleep "$TMO"
	) &
	feeder=$!
	timeout "$TMO" "${cmd[@]}" < "$fifo" > "$LOG" 2>&1 &
else
	timeout "$TMO" "${cmd[@]}" < /dev/null > "$LOG" 2>&1 &
fi
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
# The feeder was killed: its status is not ours (set -e would end the script here).
[ -n "${feeder:-}" ] && { kill "$feeder" 2>/dev/null; wait "$feeder" 2>/dev/null || true; rm -f "$fifo"; }
sed -i 's/\r//g' "$LOG"
cat "$LOG"
exit "$rc"

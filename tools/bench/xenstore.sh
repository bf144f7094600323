#!/usr/bin/env bash
# make bench-xenstore: the xenstore partition serving 1 and 3 bare-metal
# clients (guests/xsclient mode=bench), each doing N READs and then N
# WRITEs of its own node, every request timed with the virtual counter.
# QEMU -icount shift=0,sleep=off: one instruction of any vCPU is one virtual
# nanosecond and idle time is skipped, so the figures are deterministic
# instruction counts (the counter runs at 62.5 MHz: 16 instructions a tick):
# a request's latency counts every instruction executed meanwhile on all
# CPUs (client, hypervisor, store, and the other clients), req/s is per
# virtual second. Boot to connected: CNTPCT (from QEMU's start) when each
# client's xenbus is up; the last client's is "all connected"; the store's
# own first instruction (its entry counter, bootarg bench=1) beside them.
# Release build (CONFIG_DEBUG=n, XPFO on), as the other benches.
#
#   tools/bench/xenstore.sh [OUTDIR]     (default $BUILD/bench)
# Environment: N (requests per op and client, default 200, at most 1024),
# CLIENTS ("1 3"), TIMEOUT (300 s a run).
# Writes xenstore.csv, xenstore-connect.csv and xenstore.png.
set -euo pipefail
cd "$(dirname "$0")/../.."
BUILD="${BUILD:-$PWD/build}"
OUT="${1:-$BUILD/bench}"
N=${N:-200} CLIENTS=${CLIENTS:-"1 3"} TIMEOUT=${TIMEOUT:-300}
WORK="$OUT/xenstore"
mkdir -p "$WORK"
. tools/bench/release-build.sh
REL="$BUILD/bench-release-xpfo-on"
release_build "$REL" y || exit 1
make -s -j2 O="$BUILD" guests > /dev/null || exit 1

CSV="$OUT/xenstore.csv"
CCSV="$OUT/xenstore-connect.csv"
echo "clients,op,requests_per_client,requests_per_sec_total,median_instructions,max_instructions" > "$CSV"
echo "clients,store_entry_instructions,first_connected_instructions,all_connected_instructions" > "$CCSV"

part() { # name image args
	cat <<EOT
		$1 {
			compatible = "xen,domain";
			#address-cells = <2>;
			#size-cells = <2>;
			memory = <0 16384>;
			cpus = <1>;
			$4
			module@auto {
				compatible = "multiboot,kernel", "multiboot,module";
				reg = <GUEST($2)>;
				bootargs = "$3";
			};
		};
EOT
}

for n in $CLIENTS; do
	dtsi="$WORK/clients-$n.dtsi"
	{
		printf '/ {\n\tchosen {\n\t\t#address-cells = <2>;\n\t\t#size-cells = <2>;\n'
		part xs xenstore "bench=1 tag=XS quiet=1" 'xen,enhanced = "no-xenstore"; capabilities = <4>;'
		for ((i = 1; i <= n; i++)); do
			part "c$i" xsclient "tag=B$i me=$((i + 1)) name=c$i mode=bench n=$N" \
				'xen,enhanced = "enabled";'
		done
		printf '\t};\n};\n'
	} > "$dtsi"
	log="$WORK/clients-$n.log"
	tools/qemu/run.sh -s 4 -k "$REL/bulkhead.bin" -i shift=0,sleep=off -t "$TIMEOUT" \
		-u 'B[0-9]: done' -n "$n" -l "$log" "$dtsi" > /dev/null 2>&1 || true
	if [ "$(grep -cE 'B[0-9]: done, 0 failure' "$log")" -ne "$n" ]; then
		echo "bench-xenstore: FAIL: $n client(s), see $log" >&2
		exit 1
	fi
	for op in read write; do
		grep -oE "B[0-9]: bench $op n=[0-9]+ ok=1 median_ns=[0-9]+ max_ns=[0-9]+ total_ns=[0-9]+" "$log" |
			awk -v n="$n" -v op="$op" '{
				split($4, a, "="); split($6, m, "="); split($7, x, "="); split($8, t, "=")
				cnt = a[2] + 0; rate += cnt * 1e9 / t[2]; med[NR] = m[2] + 0; if (x[2] + 0 > max) max = x[2] + 0
			} END {
				# the median over clients of each client median (POSIX awk: no asort;
				# an insertion sort of at most a few clients)
				for (i = 2; i <= NR; i++) {
					v = med[i]
					for (j = i - 1; j >= 1 && med[j] > v; j--) med[j + 1] = med[j]
					med[j + 1] = v
				}
				k = int((NR + 1) / 2)
				printf "%d,%s,%d,%.0f,%d,%d\n", n, op, cnt, rate, med[k], max
			}' | tee -a "$CSV"
	done
	# The store's first instruction: its entry counter (bootarg bench=1) x 16.
	entry=$(sed -nE 's/^\(xs\) XS: rt entry cntpct ([0-9]+)$/\1/p' "$log" | head -1)
	[ -n "$entry" ] || { echo "bench-xenstore: FAIL: no store entry counter in $log" >&2; exit 1; }
	grep -oE 'B[0-9]: bench connected_ns=[0-9]+' "$log" | sed 's/.*=//' | sort -n |
		awk -v n="$n" -v e="$((entry * 16))" '{v[NR] = $1} END {printf "%d,%d,%d,%d\n", n, e, v[1], v[NR]}' |
		tee -a "$CCSV"
done

gp="$WORK/xenstore.gp"
{
	echo "set terminal pngcairo size 1200,480 noenhanced"
	echo "set output '$OUT/xenstore.png'"
	echo "set datafile separator ','"
	echo "set multiplot layout 1,2 title 'xenstore partition on QEMU virt, -smp 4, -icount shift=0 (deterministic), release build'"
	echo "set xlabel 'clients'; set xtics 1; set xrange [0.5:3.5]; set yrange [0:*]; set key top left"
	echo "set title 'requests per virtual second, all clients'; set ylabel 'requests/s'"
	echo "plot '< grep ,read, $CSV' using 1:4 with linespoints title 'READ', '< grep ,write, $CSV' using 1:4 with linespoints title 'WRITE'"
	echo "set title 'latency of one request (instructions on all CPUs)'; set ylabel 'instructions'"
	echo "plot '< grep ,read, $CSV' using 1:5 with linespoints title 'READ median', '< grep ,read, $CSV' using 1:6 with linespoints title 'READ max', '< grep ,write, $CSV' using 1:5 with linespoints title 'WRITE median', '< grep ,write, $CSV' using 1:6 with linespoints title 'WRITE max'"
	echo "unset multiplot"
} > "$gp"
gnuplot "$gp" 2> "$WORK/gnuplot.err" || { echo "bench-xenstore: gnuplot failed, see $WORK/gnuplot.err" >&2; exit 1; }
echo "bench-xenstore: wrote $CSV, $CCSV and $OUT/xenstore.png"

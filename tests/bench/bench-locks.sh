#!/usr/bin/env bash
# make bench-locks: wait times (median, p99.9, max) beside hold times for the
# grant active-entry lock, the maptrack free lists and the event-channel lock,
# T = 1 .. nproc threads, contending on one object or on distinct ones, with
# the ticket lock and, for contrast, a test-and-set lock (label "tas:...").
# Writes OUT/locks.csv (lock,threads,sharing,wait_median_ns,wait_p999_ns,
# wait_max_ns,hold_max_ns), OUT/locks-bound.csv (the bound check, see
# tests/bench/bench_locks.c) and OUT/locks.png. BENCH_MS sets each point's
# length (default 1000), BENCH_THREADS the largest T (default nproc).
set -euo pipefail
BIN="$1"   # directory with bench_locks-<config>
OUT="$2"   # build/bench
MS="${BENCH_MS:-1000}"
ncpu=$(nproc)
tmax="${BENCH_THREADS:-$ncpu}"
[ "$tmax" -le 31 ] || tmax=31
mkdir -p "$OUT"
csv="$OUT/locks.csv"
bcsv="$OUT/locks-bound.csv"
[ -n "${BENCH_PLOT_ONLY:-}" ] || echo "lock,threads,sharing,wait_median_ns,wait_p999_ns,wait_max_ns,hold_max_ns" > "$csv"
[ -n "${BENCH_PLOT_ONLY:-}" ] || echo "lock,threads,sharing,acquisitions,contended,ahead_max,hold_median_ns,hold_p999_ns,hold_clean_max_ns,handover_max_ns,worst_wait_per_ahead_ns,bound_per_ahead_ns,over_bound,over_bound_disturbed,disturbed,passed_max,overtaken,context_switches" > "$bcsv"

# LOCK SHARING WORKLOAD CONFIG-PREFIX
points=(
	"gnttab_active one gnttab gnttab-percpu"
	"gnttab_active distinct gnttab gnttab-percpu"
	"maptrack one gnttab gnttab-split"
	"maptrack distinct gnttab gnttab-percpu"
	"evtchn one evtchn evtchn"
	"evtchn distinct evtchn evtchn"
)
if [ -z "${BENCH_PLOT_ONLY:-}" ]; then
for kind in ticket tas; do
	for p in "${points[@]}"; do
		read -r lock sharing work cfg <<< "$p"
		label=$lock
		[ "$kind" = tas ] && label="tas:$lock"
		for ((t = 1; t <= tmax; t++)); do
			out=$("$BIN/bench_locks-$cfg-$kind" "$label" "$work" "$lock" "$sharing" "$t" "$MS")
			grep '^row,' <<< "$out" | cut -d, -f2- >> "$csv"
			grep '^bound,' <<< "$out" | cut -d, -f2- >> "$bcsv"
		done
	done
done
fi
cat "$csv"
echo
column -s, -t < "$bcsv" 2> /dev/null || cat "$bcsv"
# One panel per lock (wait max solid, p99.9 dashed, one colour per lock kind and
# sharing) and one of the most acquisitions that passed a single wait.
plot_locks() {
	local gp="$OUT/locks.gp" dir="$OUT/locks-plot" l k s c sel f
	mkdir -p "$dir"
	{
		echo 'set terminal pngcairo size 1800,520 noenhanced'
		echo "set output '$OUT/locks.png'"
		echo "set multiplot layout 1,4 title 'bench-locks, $ncpu cores ($(uname -m)): lock wait (solid max, dashed p99.9) and FIFO order; ticket lock against test-and-set (tas)'"
		echo 'set logscale y; set key left top font ",8"; set xtics 1; set grid ytics'
		for l in gnttab_active maptrack evtchn; do
			echo "set xlabel '$l: threads (vCPUs of one partition)'; set ylabel 'wait (ns)'"
			printf 'plot '
			c=0
			for k in ticket tas; do
				for s in one distinct; do
					c=$((c + 1))
					sel=$l; [ "$k" = tas ] && sel="tas:$l"
					f="$dir/${k}-${l}-${s}.dat"
					awk -F, -v L="$sel" -v S="$s" '$1 == L && $3 == S { print $2, $5, $6 }' "$csv" > "$f"
					printf "'%s' using 1:3 with linespoints lc %d title '%s %s', '%s' using 1:2 with lines lc %d dt 2 notitle, " "$f" "$c" "$k" "$s" "$f" "$c"
				done
			done
			echo '1/0 notitle'
		done
		echo "set xlabel 'threads, all on one object'; set ylabel 'most acquisitions by others during one wait, + 1'"
		printf 'plot '
		c=0
		for l in gnttab_active maptrack evtchn; do
			for k in ticket tas; do
				c=$((c + 1))
				sel=$l; [ "$k" = tas ] && sel="tas:$l"
				f="$dir/passed-${k}-${l}.dat"
				awk -F, -v L="$sel" '$1 == L && $3 == "one" { print $2, $16 + 1 }' "$bcsv" > "$f"
				printf "'%s' using 1:2 with linespoints lc %d title '%s %s', " "$f" "$c" "$k" "$l"
			done
		done
		echo '1/0 notitle'
		echo 'unset multiplot'
	} > "$gp"
	gnuplot "$gp" 2> "$OUT/locks-gnuplot.err"
}
if command -v gnuplot > /dev/null && plot_locks; then
	echo "wrote $csv, $bcsv and $OUT/locks.png"
else
	echo "wrote $csv and $bcsv (no plot: gnuplot missing or failed, see $OUT/locks.gp)"
fi
